"""The compiled kernels show their parameters in help(): setup.py builds them with embedsignature."""
import importlib
import inspect

import pytest

KERNELS = [  # (module, function, its parameter names in order)
    ("banding", "range_band_scalar", ["distance", "edges"]),
    ("hexmap", "hex_distance_scalar", ["c0", "r0", "c1", "r1", "parity"]),
    ("fire", "resolve_fire_scalar", ["attack", "band", "defense", "armor", "cover", "ap", "vehicle", "rules"]),
    ("dice", "shift_die_scalar", ["sides", "steps", "ladder"]),
]


@pytest.mark.parametrize(("module", "name", "params"), KERNELS)
def test_kernel_docstring_starts_with_its_signature(module, name, params):
    func = getattr(importlib.import_module(f"aa_core.{module}"), name)
    first = func.__doc__.splitlines()[0]
    assert first.startswith(f"{name}(") and first.endswith(")"), first
    positions = [first.index(p, first.index("(")) for p in params]
    assert positions == sorted(positions), first  # every parameter named, in order
    assert list(inspect.signature(func).parameters) == params


@pytest.mark.parametrize("module", ["banding", "dice", "fire", "geometry", "hexmap", "odds", "scores",
                                    "simulate", "pcg_twins"])
def test_every_public_kernel_function_documents_its_signature(module):
    mod = importlib.import_module(f"aa_core.{module}")
    funcs = [(n, f) for n, f in vars(mod).items()
             if not n.startswith("_") and callable(f) and not inspect.isclass(f)
             and getattr(f, "__module__", None) == mod.__name__]
    # a kernel class's public methods (simulate.FireCdf) document theirs as Class.method(...)
    for cname, cls in vars(mod).items():
        if inspect.isclass(cls) and not cname.startswith("_") and getattr(cls, "__module__", None) == mod.__name__:
            funcs += [(f"{cname}.{n}", f) for n, f in vars(cls).items()
                      if not n.startswith("_") and callable(f)]
    assert funcs, f"aa_core.{module} has no public functions"
    for name, func in funcs:
        assert (func.__doc__ or "").startswith(f"{name}("), (name, func.__doc__)
