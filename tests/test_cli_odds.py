"""``atomic-africa odds``: the printed distribution, the grid and the heat map."""
from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest

import atomic_africa as aa
import atomic_africa.odds as odds
from atomic_africa.cli import main

ARGS = ["odds", "--shooter", "d10,d10,d8", "--target", "d8,d8,d6", "--posture", "off",
        "--target-posture", "def", "--range-band", "3", "--armor", "2", "--cover", "light"]
KW = dict(shooter_posture=0, target_posture=1, range_band=3, armor=2, cover=aa.Cover.LIGHT)


def test_table_matches_fire_outcomes(capsys):
    assert main(ARGS) == 0
    out = capsys.readouterr().out
    dist = odds.fire_outcomes("d10,d10,d8", "d8,d8,d6", **KW)
    rows = {int(m.group(1)): [float(x) for x in m.group(2).split()]
            for m in re.finditer(r"^\s+(\d) ((?:\s+\d+\.\d{3})+)$", out, re.M)}
    assert set(rows) == {m for m, _ in dist} | {0}
    for (m, w), p in dist.items():
        assert rows[m][w] == pytest.approx(100 * p, abs=5e-4)
    assert f"Expected markers {float(odds.expected_markers(dist)):.6f}" in out
    assert f"expected wounds {float(odds.expected_wounds(dist)):.6f}" in out
    assert f"k=1 {odds.p_at_least_wounds(dist, 1):.6f}" in out
    assert "shooter d10,d10,d8 offensive basic" in out


def test_exact_prints_fractions(capsys):
    assert main(ARGS + ["--exact", "--action", "mass_fire"]) == 0
    out = capsys.readouterr().out
    dist = odds.fire_outcomes("d10,d10,d8", "d8,d8,d6", shooter_action="mass_fire", exact=True, **KW)
    for (m, w), p in dist.items():
        assert re.search(rf"^\s+{m} markers,\s+{w} wounds:\s+{re.escape(str(p))}\s", out, re.M)
    assert f"Expected markers {odds.expected_markers(dist)} (" in out


def test_grid_table(capsys):
    assert main(ARGS + ["--grid"]) == 0
    out = capsys.readouterr().out
    g = odds.fire_grid("d10,d10,d8", "d8,d8,d6", shooter_postures=[0], target_postures=[1],
                       armors=[2])[0, 0, :, :, 0]
    block = out.split("P(>= 1 wound) by range band x cover (armor 2)")[1]
    lines = [ln.split() for ln in block.strip().splitlines()[1:10]]
    got = np.array([[float(x) for x in ln[-3:]] for ln in lines])
    # Row labels: "band 3 (45-58.5 cm)", the band with its span on the packaged stick.
    assert [" ".join(ln[:-3]) for ln in lines][:3] == ["band 1 (0-27 cm)", "band 2 (27-45 cm)",
                                                       "band 3 (45-58.5 cm)"]
    assert [int(ln[1]) for ln in lines] == list(range(1, 10))
    np.testing.assert_allclose(got, g[:, :, 1], atol=5e-5)


def test_plot_writes_a_png(tmp_path, capsys):
    from matplotlib.image import imread

    path = tmp_path / "odds.png"
    assert main(ARGS + ["--plot", str(path), "--vehicle"]) == 0
    assert f"Heat map written to {path}" in capsys.readouterr().out
    img = imread(path)
    assert img.ndim == 3 and img.shape[0] > 400 and img.shape[1] > 800
    assert img[..., :3].std() > 0.1  # not a blank canvas


def test_distance_option_bands_like_the_rules(capsys):
    assert main(["odds", "--distance", "50", "--armor", "1"]) == 0
    assert f"range band {aa.range_band(50)} (45-58.5 cm), distance 50 cm" in capsys.readouterr().out


def test_cli_bad_input(capsys):
    assert main(ARGS + ["--armor", "0"]) == 2
    assert "armor: 0 is out of range" in capsys.readouterr().err
    assert main(ARGS + ["--action", "rally", "--grid"]) == 2
    assert "error: --grid: only for fire, not with --action rally" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["odds", "--shooter", "d10,d10"])



# -- issue 23: everything the odds API answers -------------------------------------------------------
def _prob(out, label):
    """The float and, with --exact, the fraction printed after ``label = ``."""
    m = re.search(rf"^{re.escape(label)} = (\S+)(?: \(([\d.]+)\))?$", out, re.M)
    assert m, label
    return m.group(1), m.group(2)


@pytest.mark.parametrize("extra,kw", [
    ((), dict(range_band=2, target_markers=2)),
    (("--self-rally",), dict(range_band=None, target_markers=2, self_rally=True)),
    (("--no-los", "--comms"), dict(range_band=2, target_markers=2, los=False, comms=True)),
    (("--no-los",), dict(range_band=2, target_markers=2, los=False)),
])
def test_rally_odds_are_the_api_exact_values(capsys, extra, kw):
    argv = ["odds", "--action", "rally", "--shooter", "d8,d8,d6", "--posture", "def", "--range-band", "2",
            "--markers", "2", *extra]
    assert main(argv + ["--exact"]) == 0
    out = capsys.readouterr().out
    want = odds.rally_probability("d8,d8,d6", aa.Posture.DEFENSIVE, exact=True, **kw)
    exact, value = _prob(out, "P(success)")
    assert Fraction(exact) == want and float(value) == pytest.approx(float(want), abs=5e-7)
    pmf = odds.scores_pmf("d8,d8,d6", aa.Posture.DEFENSIVE, "rally", exact=True).rally
    for score, p in pmf.items():
        assert re.search(rf"^\s+{score}: {re.escape(str(p))} \(", out, re.M)
    assert main(argv) == 0
    assert float(_prob(capsys.readouterr().out, "P(success)")[0]) == pytest.approx(float(want), abs=5e-7)


def test_call_for_fire_odds_are_the_api_exact_values(capsys):
    argv = ["odds", "--action", "call_for_fire", "--shooter", "d8,d6,d6", "--posture", "def", "--within", "9",
            "--within", "13.5", "--exact"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    cf = odds.call_for_fire_odds("d8,d6,d6", aa.Posture.DEFENSIVE, exact=True)
    assert Fraction(_prob(out, "P(direct hit)")[0]) == cf.direct_hit
    for r in (9, 13.5):
        want = sum(p for d, p in cf.distance.items() if d <= r + 1e-9)
        assert Fraction(_prob(out, f"P(impact within {r:g} cm of the aim)")[0]) == want
    rows = re.findall(r"^\s+([\d.]+) cm: (\S+) \(", out, re.M)
    assert {float(d): Fraction(p) for d, p in rows} == pytest.approx({d: p for d, p in cf.distance.items()})


def test_split_fire_gives_both_targets_and_the_joint_odds(capsys):
    argv = ARGS + ["--action", "split_fire", "--other-target", "d6,d6,d6", "--other-range-band", "2",
                   "--other-cover", "none", "--other-armor", "3", "--exact"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    declared = odds.FireTarget("d8,d8,d6", 1, 3, 2, "basic", aa.Cover.LIGHT)
    other = odds.FireTarget("d6,d6,d6", 1, 2, 3, "basic", aa.Cover.NONE)
    split = odds.split_fire_outcomes("d10,d10,d8", declared, other, shooter_posture=0, exact=True)
    blocks = out.split("Outcome distribution of the ")[1:]
    assert [b.split(" ", 2)[:2] for b in blocks] == [["declared", "target"], ["other", "target"]]
    for block, dist in zip(blocks, (split.declared, split.other)):
        got = {(int(m), int(w)): Fraction(p) for m, w, p in
               re.findall(r"^\s+(\d) markers,\s+(\d+) wounds:\s+(\S+)\s", block.split("\n\n")[0], re.M)}
        assert got == dist
    j = split.joint
    assert Fraction(_line(out, "P(no effect on either)")) == j.get(((0, 0), (0, 0)), 0)
    assert Fraction(_line(out, "P(>= 1 wound on either)")) == sum(p for (a, b), p in j.items() if a[1] or b[1])
    assert Fraction(_line(out, "expected wounds in all")) == sum(p * (a[1] + b[1]) for (a, b), p in j.items())
    # Without --other-target the declared target alone, as before, with a pointer to the option.
    assert main(ARGS + ["--action", "split_fire"]) == 0
    assert "add --other-target DICE" in capsys.readouterr().out


def _line(out, label):
    return re.search(rf"^  {re.escape(label)}\s+(\S+)", out, re.M).group(1)


@pytest.mark.parametrize("argv,message", [
    (["--other-target", "d6,d6,d6"], "--other-target: only with --action split_fire"),
    (["--action", "split_fire", "--other-armor", "2"], "--other-armor: only with --action split_fire and --other-target"),
    (["--action", "split_fire", "--other-target", "d6,d6,d6", "--other-armor", "0"], "--other-armor: 0 is out of range"),
    (["--action", "split_fire", "--other-target", "d6,d6,d6", "--other-range-band", "12"],
     "--other-range-band: 12 is out of range"),
    (["--self-rally"], "--self-rally: only with --action rally"),
    (["--within", "9"], "--within: only with --action call_for_fire"),
    (["--action", "call_for_fire", "--plot", "x.png"], "--plot: only for fire"),
])
def test_options_of_another_action_are_refused(capsys, argv, message):
    assert main(["odds", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
