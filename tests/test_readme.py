"""The README's commands and examples are the real ones."""
import re
from pathlib import Path

import pytest

import atomic_africa as aa

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


@pytest.mark.slow  # the examples draw 10 million rolls
def test_readme_python_examples_run_and_match_their_comments(tmp_path, monkeypatch):
    packaged = ROOT / "python" / "atomic_africa" / "data" / "rules.toml"
    (tmp_path / "my_rules.toml").write_text(packaged.read_text())  # the file the README loads
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in re.findall(r"```python\n(.*?)```", README, re.S):
        exec(compile(block, "README.md", "exec"), namespace)
    # The commented results shown in the README.
    assert repr(aa.action_scores((9, 2, 5), aa.Posture.OFFENSIVE, aa.Action.MASS_FIRE)) == \
        "Scores(attacks=(5, 9), defense=2, rally=None, spotting=None, sprint_bonus=None)"
    assert repr(aa.resolve_fire(13, 3, 2, 2, aa.Cover.LIGHT)) == "FireResult(markers=2, wounds=2)"
    assert aa.range_band(50.0) == 3
    assert aa.shift_die(aa.Die.D8, 2) == aa.Die.D4
    assert aa.wounded_dice((aa.Die.D10, aa.Die.D10, aa.Die.D8), wounds=2) == \
        ((aa.Die.D10, aa.Die.D10, aa.Die.D4), False)
    assert aa.scatter(clock=3, distance=9, spotting=4) == pytest.approx((22.5, 0.0, False))
    assert namespace["m"].tolist() == [2, 1] and namespace["markers"].shape == (10_000_000,)
    assert sum(namespace["exact"].values()) == 1
    assert namespace["grid"].shape == (2, 2, 9, 3, 6, 4)
    assert namespace["rules"] == aa.Rules.default()


def test_every_default_field_is_documented():
    """Each [default]-tagged field of the packaged rules appears in the README's rules table."""
    text = (ROOT / "python" / "atomic_africa" / "data" / "rules.toml").read_text()
    section = None
    missing = []
    for line in text.splitlines():
        m = re.match(r"\[([\w.]+)\]", line)
        if m:
            section = m.group(1)
            if "[default]" in line and section not in README:
                missing.append(section)
            continue
        m = re.match(r"(\w+)\s*=", line)
        if m and "[default]" in line and section and not section.startswith("table5"):
            if f"{section}.{m.group(1)}" not in README and f"`{m.group(1)}`" not in README:
                missing.append(f"{section}.{m.group(1)}")
    assert not missing, f"undocumented defaults: {missing}"
