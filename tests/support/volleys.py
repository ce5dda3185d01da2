"""The examples that resolve fire with ``batch.resolve_volley``: load one, and check every volley it
resolves against the pure-Python reference."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import atomic_africa as aa
from atomic_africa import reference as ref

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str):
    """The module ``examples/<name>.py``."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def check_every_volley(monkeypatch) -> list:
    """Replace ``aa.batch.resolve_volley`` by a twin that asserts each call equals
    ``reference.resolve_volley``; returns the list the targets' counts of each call go to."""
    calls = []
    real = aa.batch.resolve_volley

    def checked(target, attack, band, **kw):
        got = real(target, attack, band, **kw)
        want = ref.resolve_volley(target, attack, band, **{k: v for k, v in kw.items() if k != "rules"})
        assert (got.markers.tolist(), got.wounds.tolist()) == (list(want[0]), list(want[1]))
        calls.append(len(target))
        return got

    monkeypatch.setattr(aa.batch, "resolve_volley", checked)
    return calls
