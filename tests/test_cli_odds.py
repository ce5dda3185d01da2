"""``atomic-africa odds``: the printed distribution, the grid and the heat map."""
from __future__ import annotations

import re

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
    assert main(ARGS + ["--action", "rally"]) == 2
    assert "error: --action: RALLY makes no attack" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["odds", "--shooter", "d10,d10"])
