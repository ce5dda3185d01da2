"""The README's commands are the real ones (its Python examples run in tests/test_docs.py)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_readme_starts_with_the_two_commands_and_ci_runs_the_second():
    first_block = re.search(r"```\n(.*?)```", README, re.S).group(1).strip().splitlines()
    assert len(first_block) == 2
    install_run, test_cmd = first_block
    assert "pip install ." in install_run and "atomic-africa" in install_run
    assert "pytest" in test_cmd
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.startswith(("#", "set ", "cd "))]
    # CI checks the sdist (.ci/sdist-fast-subset), then runs the README's line itself, last.
    assert ci == [".ci/sdist-fast-subset", test_cmd]


def test_readme_is_a_short_tour_whose_links_exist():
    """At most 200 lines; the manual is the docs site, and every relative link of the README resolves."""
    assert len(README.splitlines()) <= 200
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert "docs/index.md" in links
    missing = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert not missing, missing
