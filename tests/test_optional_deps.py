"""Optional dependencies: without an extra, every feature that needs it says in one line which extra to
install, never a traceback; the base package and its command line work without any of them.

A missing package is simulated in a fresh interpreter (sys.executable) by an import blocker installed
before anything else is imported, so these tests check the same paths as a base install would."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from atomic_africa._optional import EXTRAS, MissingExtraError, require

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = ("matplotlib", "PIL", "tqdm", "gymnasium", "pettingzoo", "ray", "pyarrow", "stable_baselines3",
            "sb3_contrib", "torch", "pyspiel", "open_spiel")

# In the child: block `blocked` (top-level names and their submodules) before any other import.
BLOCKER = textwrap.dedent("""
    import sys
    class _Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None
    sys.meta_path.insert(0, _Blocker())
""")

# Every command-line case runs main() in one child (a base install: every optional package blocked)
# and records the exit status, stdout and stderr; an exception escaping main() is recorded as such.
CLI_CASES = {
    "render": ["render", "-o", "x.png"],
    "odds --plot": ["odds", "--plot", "x.png"],
    "artillery --plot": ["artillery", "--spotter", "G4", "--target", "J7", "--plot", "x.png"],
    "selfplay --ray": ["selfplay", "--games", "2", "--ray", "--no-progress"],
    "selfplay --out parquet": ["selfplay", "--games", "2", "--out", "x.parquet", "--no-progress"],
    "selfplay --out csv": ["selfplay", "--games", "2", "--out", "x.csv", "--no-progress"],
    "league openspiel-ismcts": ["league", "--agents", "openspiel-ismcts,random", "--games", "1"],
}
API_CASES = {
    "AtomicAfricaEnv": "from atomic_africa.env import AtomicAfricaEnv",
    "AtomicAfricaVectorEnv": "from atomic_africa.env import AtomicAfricaVectorEnv",
    "gymnasium_env": "import atomic_africa.env.gymnasium_env",
    "pettingzoo_env": "from atomic_africa.env import pettingzoo_env",
    "AtomicAfricaAEC": "from atomic_africa.env import AtomicAfricaAEC",
    "AtomicAfricaSB3VecEnv": "from atomic_africa.env import AtomicAfricaSB3VecEnv",
    "AtomicAfricaMultiAgentEnv": "from atomic_africa.env.rllib import AtomicAfricaMultiAgentEnv",
    "AtomicAfricaRLlibVectorEnv": "from atomic_africa.env import AtomicAfricaRLlibVectorEnv",
    "open_spiel": "import atomic_africa.env.open_spiel",
    "save_png": "from atomic_africa.replay.render import save_png; from atomic_africa import Game; "
                "save_png(Game(seed=0), 'x.png')",
}
CHILD = textwrap.dedent("""
    import contextlib, io, json
    out = {"cli": {}, "api": {}}
    from atomic_africa.cli import main, build_parser
    build_parser()
    for key, argv in CLI_CASES.items():
        o, e = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
            try:
                rc = main(argv)
            except BaseException as exc:  # noqa: BLE001 - recorded for the test to report
                rc = "escaped: " + repr(exc)
        out["cli"][key] = [rc, o.getvalue(), e.getvalue()]
    for key, code in API_CASES.items():
        try:
            exec(code)
            out["api"][key] = None
        except ImportError as exc:
            out["api"][key] = [type(exc).__name__, str(exc)]
    out["loaded"] = sorted(m for m in BLOCKED if m in sys.modules)
    print(json.dumps(out))
""")

# (case, the package named, what needs it, the extra named)
EXPECTED_CLI = [("render", "matplotlib", "render", "plot"),
                ("odds --plot", "matplotlib", "--plot", "plot"),
                ("artillery --plot", "matplotlib", "--plot", "plot"),
                ("selfplay --ray", "ray", "running games on Ray", "ray"),
                ("selfplay --out parquet", "pyarrow", "Parquet results; a .csv file needs nothing", "parquet"),
                ("league openspiel-ismcts", "open_spiel", "openspiel-ismcts", "open_spiel")]
EXPECTED_API = [("AtomicAfricaEnv", "gymnasium", "gym"), ("AtomicAfricaVectorEnv", "gymnasium", "gym"),
                ("gymnasium_env", "gymnasium", "gym"), ("pettingzoo_env", "pettingzoo", "pettingzoo"),
                ("AtomicAfricaAEC", "pettingzoo", "pettingzoo"), ("save_png", "matplotlib", "plot"),
                ("AtomicAfricaSB3VecEnv", "stable-baselines3", "sb3"), ("AtomicAfricaMultiAgentEnv", "ray", "rllib"),
                ("AtomicAfricaRLlibVectorEnv", "gymnasium", "gym"), ("open_spiel", "open_spiel", "open_spiel")]


def _child(code: str, blocked, cwd) -> subprocess.CompletedProcess:
    prelude = f"BLOCKED = {set(blocked)!r}\n" + BLOCKER
    return subprocess.run([sys.executable, "-c", prelude + code], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture(scope="module")
def base_install(tmp_path_factory):
    """What main() and the API do with every optional package missing (and the files they left)."""
    cwd = tmp_path_factory.mktemp("base_install")
    code = f"CLI_CASES = {CLI_CASES!r}\nAPI_CASES = {API_CASES!r}\n" + CHILD
    proc = _child(code, OPTIONAL, cwd)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["files"] = sorted(p.name for p in cwd.iterdir())
    return result


@pytest.mark.parametrize("case,package,needed_for,extra", EXPECTED_CLI)
def test_cli_says_which_extra_in_one_line(base_install, case, package, needed_for, extra):
    rc, out, err = base_install["cli"][case]
    assert rc == 2
    assert out == ""  # nothing was computed or printed before the check
    assert err == (f"atomic-africa {CLI_CASES[case][0]}: error: {package} is not installed (needed "
                   f"for {needed_for}): pip install 'atomic-africa[{extra}]'\n")


def test_cli_leaves_no_file_when_an_extra_is_missing(base_install):
    assert base_install["files"] == ["x.csv"]  # only the CSV case wrote anything


def test_csv_results_need_no_extra(base_install):
    rc, out, err = base_install["cli"]["selfplay --out csv"]
    assert rc == 0 and "Wrote x.csv (2 games)" in out and err == ""


@pytest.mark.parametrize("case,package,extra", EXPECTED_API)
def test_api_raises_an_import_error_naming_the_extra(base_install, case, package, extra):
    name, message = base_install["api"][case]
    assert name == "MissingExtraError"
    assert message.startswith(f"{package} is not installed (needed for ")
    assert message.endswith(f"): pip install 'atomic-africa[{extra}]'") and "\n" not in message


def test_base_install_imports_no_optional_package(base_install):
    assert base_install["loaded"] == []


def test_require_returns_the_module_and_names_the_extra():
    import json as json_module
    assert require("json", "plot") is json_module
    with pytest.raises(MissingExtraError, match=r"^aa_no_such_pkg is not installed \(needed for "
                                                r"drawing\): pip install 'atomic-africa\[plot\]'$"):
        require("aa_no_such_pkg.sub", "plot", "drawing")
    assert issubclass(MissingExtraError, ImportError)
    with pytest.raises(ValueError, match="extra: unknown extra 'plots'; allowed: plot, gym"):
        require("json", "plots")


def test_a_broken_package_keeps_its_own_error(tmp_path, monkeypatch):
    # Installed but missing one of its own dependencies: that error says more than "install [x]".
    pkg = tmp_path / "aa_broken_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("import aa_missing_dependency_of_it\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError) as info:
        require("aa_broken_pkg", "plot")
    assert info.type is ModuleNotFoundError and info.value.name == "aa_missing_dependency_of_it"


def test_extras_match_pyproject():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(extras)
    # The unions: rl is gym, pettingzoo, ray and parquet; test installs plot, rl, sb3 and rllib (so CI tests
    # everything).
    assert extras["rl"] == ["atomic-africa[gym,pettingzoo,ray,parquet]"]
    assert "atomic-africa[plot,rl,sb3,rllib]" in extras["test"]


def test_import_atomic_africa_registers_the_gymnasium_id(tmp_path):
    # In a fresh interpreter: the id exists right after `import atomic_africa`, before any
    # environment module is loaded, and gymnasium.make builds the environment from it.
    code = textwrap.dedent("""
        import sys
        import atomic_africa
        import gymnasium
        lazy = "atomic_africa.env.gymnasium_env" not in sys.modules
        env = gymnasium.make("AtomicAfrica-v0")
        obs, info = env.reset(seed=3)
        print(lazy, type(env.unwrapped).__name__, obs.shape == env.observation_space.shape,
              bool(info["action_mask"].any()))
    """)
    proc = _child(code, (), tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["True", "AtomicAfricaEnv", "True", "True"]
