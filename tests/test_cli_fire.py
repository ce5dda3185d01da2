"""The ``atomic-africa fire`` command: defaults printed, distribution consistent with the API."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import atomic_africa as aa
from atomic_africa.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_default_engagement_prints_parameters_and_distribution(capsys):
    code, out, _ = run(capsys, "fire", "-n", "20000", "--seed", "5")
    assert code == 0
    assert "shooter  d10, d10, d8  offensive basic" in out
    assert "target   d10, d10, d8  defensive basic, infantry, armor 2, cover light" in out
    assert "range band 3" in out
    assert "engagements/s" in out
    m, w = aa.batch.simulate_fire(20000, (10, 10, 8), (10, 10, 8), shooter_posture=0,
                                  target_posture=1, range_band=3, armor=2, cover=aa.Cover.LIGHT,
                                  seed=5)
    assert f"Expected markers {m.mean():.4f}" in out
    assert f"expected wounds {w.mean():.4f}" in out
    # The table's rows add up to 100 %.
    total = re.search(r"^\s+all\s.*?([\d.]+)\s*$", out, re.M).group(1)
    assert float(total) == pytest.approx(100.0)
    share_2_markers = float(re.search(r"^\s+2\s.*\s([\d.]+)\s*$", out, re.M).group(1))
    assert share_2_markers == pytest.approx((m == 2).mean() * 100, abs=0.001)


def test_options_reach_the_engine(capsys):
    code, out, _ = run(capsys, "fire", "-n", "5000", "--shooter", "d12,d12,d12", "--target", "d4,d4,d4",
                       "--action", "mass_fire", "--posture", "off", "--target-posture", "def",
                       "--distance", "50", "--armor", "3", "--cover", "heavy", "--ap", "-1",
                       "--vehicle", "--threads", "2", "--seed", "9")
    assert code == 0
    assert "mass_fire" in out and "vehicle" in out and "range band 3 (45-58.5 cm), distance 50 cm" in out
    m, w = aa.batch.simulate_fire(5000, (12, 12, 12), (4, 4, 4), shooter_posture=0, target_posture=1,
                                  range_band=3, armor=3, shooter_action=aa.Action.MASS_FIRE,
                                  cover=aa.Cover.HEAVY, ap=-1, vehicle=True, seed=9)
    assert f"expected wounds {w.mean():.4f}" in out
    assert m.max() <= 1  # vehicle cap


def test_bad_options_are_reported(capsys):
    code, _, err = run(capsys, "fire", "-n", "10", "--armor", "0")
    assert code == 2 and "armor" in err
    with pytest.raises(SystemExit):
        main(["fire", "--shooter", "d7,d8,d8"])
    assert "--shooter" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["fire", "--posture", "sideways"])
    assert "--shooter-posture" in capsys.readouterr().err


def test_rules_file_option(tmp_path, capsys):
    rules = aa.Rules.default().replace(fire={"armor_floor": 5})
    lines = []
    for section, values in rules.to_dict().items():
        if section == "table5":
            for action, row in values.items():
                lines.append(f"[table5.{action}]")
                lines += [f'{k} = "{v}"' for k, v in row.items()]
            continue
        lines.append(f"[{section}]")
        for k, v in values.items():
            if isinstance(v, bool):
                lines.append(f"{k} = {'true' if v else 'false'}")
            elif isinstance(v, str):
                lines.append(f'{k} = "{v}"')
            elif isinstance(v, dict):
                lines.append(f"{k} = {{ " + ", ".join(f"{a} = {b}" for a, b in v.items()) + " }")
            else:
                lines.append(f"{k} = {v}")
    path = tmp_path / "r.toml"
    path.write_text("\n".join(lines))
    assert aa.Rules.from_toml(path) == rules
    code, out, _ = run(capsys, "fire", "-n", "3000", "--rules", str(path), "--seed", "1")
    assert code == 0
    _, w = aa.batch.simulate_fire(3000, (10, 10, 8), (10, 10, 8), shooter_posture=0, target_posture=1,
                                  range_band=3, armor=2, cover=1, seed=1, rules=rules)
    assert f"expected wounds {w.mean():.4f}" in out


def _script(name: str) -> str:
    """The console script installed beside this interpreter (never one found on PATH)."""
    bindir = Path(sys.executable).parent
    found = [p for p in (bindir / name, bindir / f"{name}.exe") if p.is_file()]
    assert found, f"{name} is not installed next to {sys.executable}"
    return str(found[0])


@pytest.mark.parametrize("how", ["console-script", "atomic_africa", "atomic_africa.cli"])
def test_console_script_help(how):
    """The three ways to start the CLI work with PATH holding only the system directories."""
    cmd = [_script("atomic-africa")] if how == "console-script" else [sys.executable, "-m", how]
    env = {k: v for k, v in os.environ.items() if k != "PATH"} | {"PATH": "/usr/bin:/bin"}
    out = subprocess.run(cmd + ["fire", "--help"], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    for option in ("--engagements", "--shooter", "--target", "--posture", "--action", "--range-band",
                   "--distance", "--armor", "--cover", "--ap", "--vehicle", "--seed", "--threads",
                   "--rules"):
        assert option in out.stdout
    top = subprocess.run(cmd + ["--help"], capture_output=True, text=True, timeout=120, env=env)
    assert top.returncode == 0 and "fire" in top.stdout


def test_errors_name_the_option_typed(capsys):
    # API errors raised while running: the option replaces the API's argument name.
    for argv, option in [(["fire", "-n", "10", "--action", "rally"], "error: --action: "),
                         (["fire", "-n", "10", "--distance", "-1"], "error: --distance: must be")]:
        assert main(argv) == 2
        assert option in capsys.readouterr().err
    # Bad values caught while parsing: argparse names the option.
    for argv, message in [(["fire", "--seed", "-1"], "argument --seed: must be non-negative"),
                          (["fire", "-n", "-5"], "argument -n/--engagements: must be >= 0"),
                          (["fire", "-n", "10", "--threads", "0"], "argument --threads: must be >= 1")]:
        with pytest.raises(SystemExit):
            main(argv)
        assert message in capsys.readouterr().err


def test_top_level_help_lists_every_option_of_every_command():
    from atomic_africa.cli import build_parser
    parser = build_parser()
    text = parser.format_help()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, p in sub.choices.items():
        assert f"atomic-africa {name}" in text
        for action in p._actions:
            for option in action.option_strings:
                assert option in text, (name, option)
