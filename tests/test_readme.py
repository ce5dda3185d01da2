"""The README's commands are the real ones (its Python examples run in tests/test_docs.py)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _block_under(heading: str) -> list:
    """The lines of the first code block after the README heading ``heading``."""
    section = README.split(f"\n## {heading}\n", 1)[1]
    return re.search(r"```[a-z]*\n(.*?)```", section, re.S).group(1).strip().splitlines()


def test_readme_starts_with_the_main_job_and_ci_runs_the_contributors_command():
    """The first block, under the users' heading, installs and plays; the test command has its own
    heading for contributors, and CI runs exactly that line."""
    first_block = re.search(r"```\n(.*?)```", README, re.S).group(1).strip().splitlines()
    assert first_block == _block_under("Play a battle")
    assert len(first_block) == 1
    install_run, = first_block
    assert "pip install ." in install_run and "atomic-africa" in install_run
    assert README.index("## Play a battle") < README.index("## Run the tests (contributors)")
    test_block = _block_under("Run the tests (contributors)")
    assert len(test_block) == 1
    test_cmd, = test_block
    assert "pytest" in test_cmd
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.startswith(("#", "set ", "cd "))]
    # CI checks the sdist (.ci/sdist-fast-subset), then runs the README's line itself, last.
    assert ci == [".ci/sdist-fast-subset", test_cmd]


def test_readme_activates_the_venv_and_names_play_and_the_build_time():
    """After the install, one line activates the venv (the later commands are bare), ``play`` is
    shown, and the first build's length is told (pip's "still running..." is normal)."""
    after_install = README.split("## Run the tests", 1)[0]
    assert "\n. .venv/bin/activate\n" in after_install
    assert "atomic-africa play" in after_install
    assert "about 3 minutes on 2 cores" in README and "still running..." in README


def test_readme_is_a_short_tour_whose_links_exist():
    """At most 200 lines; the manual is the docs site, and every relative link of the README resolves."""
    assert len(README.splitlines()) <= 200
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert "docs/index.md" in links
    missing = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert not missing, missing
