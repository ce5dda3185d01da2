"""``atomic-africa artillery`` and the [artillery] rules data."""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

import atomic_africa as aa
from atomic_africa.artillery import HexMap, landing_distribution
from atomic_africa.cli import main

BASE = ["artillery", "--map", "15x10", "--spotter", "G4", "--target", "J7"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _grid(out):
    lines = out.splitlines()
    top = next(i for i, line in enumerate(lines) if line.split() == [chr(ord("A") + c) for c in range(15)])
    return lines[top], lines[top + 1: top + 21]


def test_prints_exact_odds_and_an_aligned_hex_grid(capsys):
    code, out, _ = run(capsys, *BASE)
    assert code == 0
    odds = landing_distribution(HexMap(15, 10), "G4", "J7")
    assert f"P(hit)      =  {float(odds.hit) * 100:.2f}%  (13/18)" in out
    assert "P(off map)  =   3.86%  (25/648)" in out and "Off the map: 3.86%" in out
    header, rows = _grid(out)
    # Row numbers on the upper line of each pair; every value sits under its column letter.
    assert [r[:3].strip() for r in rows[::2]] == [str(i) for i in range(1, 11)]
    centres = {header[i]: i for i in range(len(header)) if header[i].isalpha()}
    for r in range(10):
        for c in range(15):
            line = rows[2 * r + (1 if c % 2 == 1 else 0)]
            col = chr(ord("A") + c)
            token = re.search(r"\S+", line[centres[col] - 3: centres[col] + 4])
            assert token, (r, c)
            p = odds.probabilities[r, c] * 100
            text = token.group(0).strip("[]S#~")
            if p == 0:
                assert text in (".", ""), (col, r + 1, text)
            else:
                assert abs(float(text) - p) < 0.006, (col, r + 1, text, p)
    assert "[12.04]" in rows[2 * 6 + 1]                 # J7: a lower column, row 7
    assert rows[2 * 3][centres["G"]] == "S"             # the spotter in G4


def test_deck_and_hindrance_options(capsys):
    _, out, _ = run(capsys, *BASE, "--deck", "fresh")
    fresh = landing_distribution(HexMap(15, 10), "G4", "J7", deck="fresh")
    assert f"({fresh.off_map})" in out and "fresh 72-card Fate deck" in out
    _, out, _ = run(capsys, *BASE, "--hindrance", "3")
    assert "hit if white x coloured > 5 + 3 = 8" in out
    _, out, _ = run(capsys, *BASE, "--hindering", "H5,I6", "--blocking", "B2")
    assert "hindrance 2 (line of sight 2 + extra 0)" in out
    _, out, _ = run(capsys, *BASE, "--simulate", "20000", "--seed", "3")
    assert "Simulated 20,000 requests" in out


def test_plot_writes_a_png_heat_map(tmp_path, capsys):
    path = tmp_path / "landing.png"
    code, out, _ = run(capsys, *BASE, "--plot", str(path))
    assert code == 0 and f"Heat map written to {path}" in out
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image as mpimg

    img = mpimg.imread(path)
    assert img.shape[0] > 600 and img.shape[1] > 800
    # The picture is not blank: the heat map puts many distinct colours on it.
    assert len({tuple(px) for px in img[::20, ::20, :3].reshape(-1, 3).round(2).tolist()}) > 15


def test_errors_are_clear(capsys):
    code, _, err = run(capsys, "artillery", "--map", "15x10", "--spotter", "G4", "--target", "P7")
    assert code == 2 and "not on the 15x10 map" in err
    code, _, err = run(capsys, *BASE, "--blocking", "H5")
    assert code == 2 and "not in the line of sight" in err
    code, _, err = run(capsys, *BASE, "--hindrance", "-1")
    assert code == 2 and "hindrance" in err
    with pytest.raises(SystemExit):
        main(["artillery", "--map", "30x10", "--spotter", "A1", "--target", "B1"])
    assert "out of range" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["artillery", "--spotter", "A1"])


# -- the [artillery] rules data ------------------------------------------------------------------------
def test_every_section_8_default_is_a_rules_field():
    art = aa.Rules.default().artillery
    assert art.compass == ("N", "NE", "SE", "S", "SW", "NW")
    assert art.low_columns == "B"
    assert (art.targeting_score, art.targeting_hit) == ("product", "greater")
    assert art.fate_card_copies == 2
    assert (art.impact_attack_dice, art.impact_defense_dice, art.impact_defense_cover) == (2, 2, True)
    assert (art.impact_equal, art.impact_broken_again) == ("suppressed", "eliminated")
    assert art.hindrance_hexes == "between"
    assert art.smoke_values == (1, 2, 3)
    assert aa.Rules.from_dict(aa.Rules.default().to_dict()) == aa.Rules.default()


@pytest.mark.parametrize("changes,field", [
    ({"compass": ["N", "N", "SE", "S", "SW", "NW"]}, "artillery.compass"),
    ({"compass": ["N", "NE", "SE", "S", "SW"]}, "artillery.compass"),
    ({"compass": ["UP", "NE", "SE", "S", "SW", "NW"]}, "artillery.compass[0]"),
    ({"low_columns": "C"}, "artillery.low_columns"),
    ({"targeting_score": "max"}, "artillery.targeting_score"),
    ({"targeting_hit": "less"}, "artillery.targeting_hit"),
    ({"impact_attack_dice": 3}, "artillery.impact_attack_dice"),
    ({"impact_equal": "broken"}, "artillery.impact_equal"),
    ({"impact_defense_roll": "per_card"}, "artillery.impact_defense_roll"),
    ({"smoke_values": []}, "artillery.smoke_values"),
    ({"fate_card_copies": 0}, "artillery.fate_card_copies"),
    ({"hex_columns": 27}, "artillery.hex_columns"),
    ({"radio_firepower_max": 3}, "artillery.radio_firepower_max"),
])
def test_bad_artillery_rules_name_the_field(changes, field):
    with pytest.raises(aa.RulesError, match=re.escape(f"rules.{field}: ")):
        aa.Rules.default().replace(artillery=changes)


def test_rules_override_reaches_the_odds():
    rules = aa.Rules.default().replace(artillery={"targeting_hit": "greater_or_equal"})
    hm = HexMap(15, 10, rules=rules)
    assert landing_distribution(hm, "G4", "J7", rules=rules).hit == Fraction(13, 18) + Fraction(2, 36)


def test_within_n_hexes_is_the_api_exact_value(capsys):
    hm = HexMap(15, 10)
    for deck in ("independent", "fresh"):
        lo = landing_distribution(hm, "G4", "J7", deck=deck)
        code, out, _ = run(capsys, *BASE, "--deck", deck, "--within", "0", "--within", "1", "--within", "2",
                           "--within", "40")
        assert code == 0
        for n in (0, 1, 2, 40):
            # The API's value, and the same sum worked out here from the landing hexes.
            want = sum((p for h, p in lo.exact.items() if hm.distance(h, "J7") <= n), Fraction(0))
            assert lo.within(n) == want
            noun = "hex" if n == 1 else "hexes"
            m = re.search(rf"^P\(lands within {n} {noun} of J7\) =\s+([\d.]+)%  \((\d+(?:/\d+)?)\)$", out, re.M)
            assert m and Fraction(m.group(2)) == want and float(m.group(1)) == pytest.approx(float(want) * 100, abs=5e-3)
        assert lo.within(0) == lo.probability("J7") and lo.within(40) == 1 - lo.off_map
    with pytest.raises(ValueError, match="n: -1 is out of range"):
        lo.within(-1)
    with pytest.raises(SystemExit):
        main(BASE + ["--within", "x"])
    assert "--within" in capsys.readouterr().err
