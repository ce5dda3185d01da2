"""The documentation: its examples run, its rules table is complete, and the site builds clean.

- Every ```` ```python ```` block of the README and of the pages under ``docs/`` runs, page by page
  (the blocks of one page share a namespace, as a reader types them), and the results their
  comments show are checked.
- The Sphinx build of ``docs/`` (on a copy, so the tree is untouched) passes with warnings as
  errors, every reference to this project's objects resolved (``nitpicky``), and the built pages
  hold what they promise: every value of ``rules.toml`` in the defaults table, a page for every
  public module and for ``VectorGame``, every section of ``RULES.md``, every ``.pxd`` file of
  ``aa_core``, and no link to a page or anchor that does not exist.
"""
from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import atomic_africa as aa

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES_TOML = ROOT / "python" / "atomic_africa" / "data" / "rules.toml"

#: Pages whose examples take long (torch, Ray and PPO imports and a short learn).
SLOW_PAGES = {"guide/rl.md", "guide/learned_search.md"}


def _pages() -> list[str]:
    pages = ["README.md"] + sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")
                                   if "_build" not in p.parts and "generated" not in p.parts)
    return [p for p in pages if "```python" in _text(p)]


def _text(page: str) -> str:
    return (ROOT / page if page == "README.md" else DOCS / page).read_text(encoding="utf-8")


def _blocks(page: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", _text(page), re.S | re.M)


def _checks_quickstart(ns):
    assert repr(aa.action_scores((9, 2, 5), aa.Posture.OFFENSIVE, aa.Action.MASS_FIRE)) == \
        "Scores(attacks=(5, 9), defense=2, rally=None, spotting=None, sprint_bonus=None)"
    assert repr(aa.resolve_fire(13, 3, 2, 2, aa.Cover.LIGHT)) == "FireResult(markers=2, wounds=2)"
    assert aa.range_band(50.0) == 3
    assert aa.predominant_cover(aa.Cover.LIGHT, aa.Cover.NONE, aa.Cover.HEAVY) == aa.Cover.LIGHT
    assert aa.shift_die(aa.Die.D8, 2) == aa.Die.D4
    assert aa.wounded_dice((aa.Die.D10, aa.Die.D10, aa.Die.D8), wounds=2) == \
        ((aa.Die.D10, aa.Die.D10, aa.Die.D4), False)
    assert aa.scatter(clock=3, distance=9, spotting=4) == pytest.approx((22.5, 0.0, False))
    assert ns["m"].tolist() == [2, 1] and ns["faces"].shape == (1000, 3)
    assert ns["game"].is_over


def _checks_analysts(ns):
    assert ns["m"].tolist() == [2, 1] and ns["markers"].shape == (10_000_000,)
    assert sum(ns["exact"].values()) == 1
    assert sum(ns["dist"].values()) == pytest.approx(1.0, abs=1e-12)
    assert ns["grid"].shape == (2, 2, 9, 3, 6, 4)
    assert len(ns["odds_df"]) == len(ns["drawn_df"]) and 0 < ns["error"] < 0.02


def _checks_c_api(ns):
    """The ctypes example: the shared library's legal ids are Game(None, 42)'s, a bad id is refused."""
    from atomic_africa.game import Game

    assert list(ns["legal"][:ns["m"]]) == Game(None, 42).legal_actions()
    assert ns["status"] == 1 and ns["lib"].aa_version() == aa.__version__.encode()


def _checks_readme(ns):
    assert ns["markers"].shape == (25,) and sum(ns["dist"].values()) == pytest.approx(1.0, abs=1e-12)
    assert ns["game"].is_over and ns["obs"].shape == (64, ns["vg"].observation_size)


CHECKS = {
    "README.md": _checks_readme,
    "quickstart.md": _checks_quickstart,
    "guide/analysts.md": _checks_analysts,
    "rules/defaults.md": lambda ns: ns["rules"] == aa.Rules.default(),  # my_rules.toml: the packaged copy
    "guide/game.md": lambda ns: ns["game"].is_over and ns["copy"] is not None,
    "guide/rl.md": lambda ns: ns["obs"] is not None,
    "guide/rl_research.md": lambda ns: (ns["obs"].shape == (64, ns["maps"].padded.observation_size)
                                        and ns["opponent"].vector_game is ns["env"].vector_game),
    "guide/league.md": lambda ns: ns["ratings"].rating[0] == 0,
    "guide/artillery.md": lambda ns: 0 < ns["odds"].hit < 1,
    "guide/play.md": lambda ns: ns["session"].game.is_over and Path("game.json").is_file(),
    "guide/information.md": lambda ns: ns["everything"] == list(ns["game"].events) and ns["theirs"],
    "guide/c_api.md": _checks_c_api,
    "guide/learned_search.md": lambda ns: (ns["state"].is_terminal() and sum(ns["state"].returns()) == 0
                                           and ns["game"].get_type().short_name == "atomic_africa"),
    "guide/planning.md": lambda ns: (len(ns["played"]) == 40 and ns["vg"].num_envs == ns["N"] + 1
                                     and ns["game"].s.turn >= 3 and ns["first"] >= 0),
}


#: The rl page imports torch (sb3) and Ray: on the worker that already has them (test_env_sb3/rllib).
_SLOW = [pytest.mark.slow, pytest.mark.xdist_group("torch")]


@pytest.mark.parametrize("page", [pytest.param(p, marks=_SLOW) if p in SLOW_PAGES else p for p in _pages()])
def test_the_python_examples_run_and_match_their_comments(page, tmp_path, monkeypatch):
    (tmp_path / "my_rules.toml").write_text(RULES_TOML.read_text())  # the file the rules page loads
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    for block in _blocks(page):
        exec(compile(block, page, "exec"), namespace)
    check = CHECKS.get(page)
    assert check is None or check(namespace) is not False


def test_every_page_with_examples_is_checked():
    """A page that gains Python examples gets a check of what they show (or is listed as checked)."""
    assert set(_pages()) <= set(CHECKS) | {"reproducibility.md"}


# -- the rules defaults table, without building ----------------------------------------------------
def _aa_docs():
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import aa_docs
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    return aa_docs


def _toml_fields() -> list[str]:
    """Every field of the packaged rules data, ``section.field`` (``table5.basic.single``)."""
    out = []

    def walk(d, prefix):
        for k, v in d.items():
            if isinstance(v, dict) and not (prefix and k == "experience_bonus"):
                walk(v, f"{prefix}{k}.")
            else:
                out.append(prefix + k)
    walk(tomllib.loads(RULES_TOML.read_text()), "")
    return out


def test_the_defaults_table_has_every_value_with_its_tag_and_meaning():
    rows = _aa_docs().defaults_rows()
    assert [r["path"] for r in rows] == _toml_fields()
    for r in rows:
        assert r["tag"] in ("seed", "src", "default"), r
        assert r["meaning"], r
        assert r["rules_section"], r  # every value is stated somewhere in RULES.md
    assert {r["path"] for r in rows if r["tag"] == "default"} >= {"fire.band_edges_cm", "dice.shattered_die"}


# -- the site ----------------------------------------------------------------------------------------
#: Public modules that must each have a page in the API reference.
PUBLIC_MODULES = ["atomic_africa", "atomic_africa.batch", "atomic_africa.odds", "atomic_africa.reference",
                  "atomic_africa.game", "atomic_africa.game.native", "atomic_africa.replay",
                  "atomic_africa.agents", "atomic_africa.selfplay", "atomic_africa.env",
                  "atomic_africa.env.sb3", "atomic_africa.env.rllib", "atomic_africa.env.rllib_vector",
                  "atomic_africa.league",
                  "atomic_africa.artillery", "aa_core"]


#: The site is built once, on one xdist worker, for all the tests that read it.
site_test = pytest.mark.xdist_group("docs_site")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The built site: ``sphinx-build -W --keep-going -b html`` on a copy of docs/ (and of what it
    includes: RULES.md, examples/embed)."""
    tmp = tmp_path_factory.mktemp("docs")
    shutil.copytree(DOCS, tmp / "docs", ignore=shutil.ignore_patterns("_build", "generated", "__pycache__"))
    shutil.copy(ROOT / "RULES.md", tmp / "RULES.md")
    shutil.copytree(ROOT / "examples" / "embed", tmp / "examples" / "embed",
                    ignore=shutil.ignore_patterns("build", "*.so", "*.c", "__pycache__"))
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-d", str(tmp / "doctrees"), str(tmp / "docs"), str(tmp / "html")],
                          capture_output=True, text=True, timeout=1200, cwd=tmp)
    # -W --keep-going: every warning is reported, and any fails the build
    assert proc.returncode == 0, f"sphinx-build failed:\n{proc.stderr[-6000:]}\n{proc.stdout[-2000:]}"
    return tmp / "html"


def _read(site, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


def _visible(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))


@pytest.mark.slow
@site_test
def test_the_site_builds_with_warnings_as_errors(site):
    assert (site / "index.html").exists()
    for page in ("install", "quickstart", "cli", "rules/index", "rules/reference", "rules/defaults",
                 "rules/readings", "guide/index", "guide/analysts", "guide/game", "guide/rl", "observation", "guide/league",
                 "guide/artillery", "guide/embedding", "guide/c_api", "guide/planning", "reproducibility",
                 "reference/index",
                 "performance", "stability", "changelog", "contributing"):
        assert (site / f"{page}.html").exists(), page
    assert "TODO" not in "".join(_visible(p.read_text(encoding="utf-8")) for p in site.rglob("*.html")
                                 if "_static" not in p.parts)


@pytest.mark.slow
@site_test
def test_the_defaults_table_lists_every_value_of_rules_toml(site):
    text = _visible(_read(site, "rules/defaults.html"))
    missing = [f for f in _toml_fields()
               if (f if not f.startswith("table5.") else f.rpartition(".")[0]) not in text]
    assert not missing, missing
    for value in ("27, 45, 58.5, 72, 81, 90, 94.5, 99", '"above_markers"', "[default]", "[seed]", "[src]"):
        assert value in text, value


@pytest.mark.slow
@site_test
def test_the_rules_reference_is_rules_md(site):
    text = _visible(_read(site, "rules/reference.html"))
    for heading in re.findall(r"^## (.+)$", (ROOT / "RULES.md").read_text(), re.M):
        assert heading in text, heading


@pytest.mark.slow
@site_test
def test_the_api_reference_has_every_public_module_and_vectorgame(site):
    generated = site / "reference" / "generated"
    for module in PUBLIC_MODULES:
        assert (generated / f"{module}.html").exists(), module
    vector_game = _visible(_read(site, "reference/generated/atomic_africa.game.native.vector.VectorGame.html"))
    for member in ("reset", "step", "action_masks", "opponent_turns", "play_games", "Parameters"):
        assert member in vector_game, member
    assert not (generated / "atomic_africa.cli.html").exists()  # the command line is not an API
    assert not list(generated.glob("atomic_africa._*"))         # nor are private modules


@pytest.mark.slow
@site_test
def test_the_embedding_guide_lists_every_pxd_and_links_the_c_api_page(site):
    import aa_core

    page = _read(site, "guide/embedding.html")
    for pxd in Path(aa_core.__file__).parent.glob("*.pxd"):
        assert f"aa_core.{pxd.stem} ({pxd.name})" in _visible(page), pxd.name
    assert 'href="c_api.html"' in page
    assert "aa_game_new" in _visible(_read(site, "guide/c_api.html"))   # the C API page, not a stub


@pytest.mark.slow
@site_test
def test_the_observation_page_and_the_learning_curve_are_in_the_site(site):
    assert "The observation and the action space" in _visible(_read(site, "observation.html"))
    assert list((site / "_images").glob("selfplay_curve*.png"))


@pytest.mark.slow
@site_test
def test_no_internal_link_is_broken(site):
    """Every relative link of every page goes to a built file, and to an anchor that file has."""
    ids, broken = {}, []
    pages = [p for p in site.rglob("*.html") if "_static" not in p.parts]
    for page in pages:
        ids[page] = set(re.findall(r'\bid="([^"]+)"', page.read_text(encoding="utf-8")))
    for page in pages:
        for href in re.findall(r'\bhref="([^"]+)"', page.read_text(encoding="utf-8")):
            parts = urlsplit(html.unescape(href))
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.exists():
                broken.append(f"{page.relative_to(site)} -> {href}")
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in ids.get(target, set()):
                broken.append(f"{page.relative_to(site)} -> {href} (no such anchor)")
    assert not broken, broken[:20]
