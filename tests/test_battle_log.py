"""The battle log (``atomic-africa battle``, :mod:`atomic_africa.replay.narrate`): its wording is pinned
by a short golden battle, and its lines are checked against the events they tell.

The golden logs ``tests/golden/battle_small.txt`` and ``battle_small_verbose.txt`` are the output of
``atomic-africa battle --scenario tests/golden/battle_small.toml --seed 963 --agents greedy,random``
(without and with ``--verbose``; the run time is masked). After an intended change of the rules or
of the wording, regenerate them (and the game traces) with one command:

    AA_REGEN_GOLDEN=1 python -m pytest tests/test_battle_log.py tests/test_game_golden.py

and review the diff of ``tests/golden/`` before committing it.
"""
import os
import re
from pathlib import Path

import pytest

from atomic_africa import Rules
from atomic_africa.cli import main
from atomic_africa.replay.narrate import Narrator, card_words, feature_fire_reason, fire_reason, side_tables
from atomic_africa.enums import Action, Cover, Posture
from atomic_africa.fire import range_band
from atomic_africa.agents import RandomAgent, make_agent
from atomic_africa.game import Game
from atomic_africa.game.testing import last_legal_action
from support import LOPSIDED_MEETING

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_ARGS = ["battle", "--scenario", str(GOLDEN / "battle_small.toml"), "--seed", "963",
               "--agents", "greedy,random"]
# What the golden battle must show, so that a regeneration cannot silently make it poor: a phrase of
# each kind of event the log words.
RICH = {"a Call for Fire direct hit": "fire lands on target", "a confused reaction": " is confused",
        "units without orders": " without orders", "Split Fire": " Split Fire at ",
        "Mass Fire": " Mass Fire (first attack) at ", "the marker cap": " would pass the limit of ",
        "a heavy weapon at a vehicle": (" Heavy Weapon at Blue Armoured car", " Heavy Weapon at Red Technical"),
        "a heavy weapon at a feature": " Heavy Weapon at the Wall: ",
        "a feature's cover lowered": " cover down to ", "a rally": ": succeeds", "a merge": " joins ",
        "a forced split": " splits (forced: ", "a voluntary split": " splits (by choice)",
        "a removal": " is removed, ", "Morale checks": " Morale"}


def battle_output(capsys, *extra) -> str:
    assert main(GOLDEN_ARGS + list(extra)) == 0
    # The run time is the only part of the output that is not a function of the arguments.
    return re.sub(r"\d+\.\d\d s\)", "X s)", capsys.readouterr().out)


@pytest.mark.parametrize("flags,name", [((), "battle_small.txt"),
                                        (("--verbose",), "battle_small_verbose.txt")])
def test_golden_battle_log(capsys, flags, name):
    got = battle_output(capsys, *flags)
    path = GOLDEN / name
    if os.environ.get("AA_REGEN_GOLDEN"):
        path.write_text(got)
    assert got.splitlines() == path.read_text().splitlines()
    for what, phrases in RICH.items():
        assert any(p in got for p in ([phrases] if isinstance(phrases, str) else phrases)), \
            f"the golden battle no longer shows {what}: choose another seed or scenario"


@pytest.fixture(scope="module")
def played():
    """A default-scenario game with its verbose log fed decision by decision, as `battle` does."""
    game = Game(None, 3)
    agents = [RandomAgent(3), RandomAgent(4)]
    log = Narrator(game, verbose=True)
    lines, shown = [], 0
    while not game.is_over:
        game.apply(agents[game.current_player].act(game))
        lines += log.feed(game.events[shown:], game.units)
        shown = len(game.events)
    return game, lines


def test_every_attack_line_explains_its_numbers(played):
    game, lines = played
    rules = game.rules
    fires = [e for e in game.events if e["type"] == "fire"]
    reasons = [line for line in lines if line.startswith("      range band")]
    assert len(fires) == len(reasons) > 20
    for e, line in zip(fires, reasons):
        assert f"range band {e['range']} (" in line and f"Attack {e['attack']} " in line
        threshold = e["range"] + e["defense"]
        if e["attack"] <= e["range"]:
            assert line.endswith(f"Attack {e['attack']} <= range {e['range']}: no effect")
        elif e["attack"] <= threshold:
            assert f"<= {e['range']} + Defense {e['defense']} = {threshold}: " in line
        else:
            assert line.endswith(f"wounds = floor(({e['attack']} - {threshold}) / "
                                 f"{line.split(' / ')[-1].split(')')[0]}) = {e['wounds']}")
        if e["source"] >= 0:
            # The distance shown is the one the engine banded (rounded to 0.1 cm).
            d = float(re.search(r"([\d.]+) cm apart", line).group(1))
            assert e["range"] in {range_band(max(d - 0.05, 0.0), rules), range_band(d + 0.05, rules)}


def test_every_roll_is_shown_with_its_faces_and_scores(played):
    game, lines = played
    rolls = [e for e in game.events if e["type"] in ("roll", "bystander_roll")]
    shown = [line for line in lines if re.search(r" rolls (d\d+ )+(\(shattered\) )?for ", line)]
    assert len(rolls) == len(shown) > 20
    for e, line in zip(rolls, shown):
        dice, faces = " ".join(f"d{d}" for d in e["dice"]), " ".join(map(str, e["faces"]))
        assert f"rolls {dice} " in line and f": {faces} -> " in line
        scores = line.split(" -> ")[1]
        if e["type"] == "bystander_roll":
            assert f"for Defense (as a {e['posture'].lower()} Basic action)" in line
            assert scores in (f"Defense {e['defense']} (high die)", f"Defense {e['defense']} (low die)")
            continue
        assert re.search(rf"Defense ({e['defense']} \(|\d+ \+ \d+ = {e['defense']}\b)", scores)
        if len(e["attacks"]) == 2:
            assert f"Attacks {e['attacks'][0]} and {e['attacks'][1]}" in scores
        elif e["attacks"]:
            assert re.search(rf"Attack (\d+ \+ \d+ = {e['attacks'][0]}\b|{e['attacks'][0]} \()", scores)
        for key, word in (("rally", "Rally"), ("spotting", "Spotting")):
            if e[key] is not None:
                assert re.search(rf"{word} \d+ \+ \d+ = {e[key]}\b", scores)


def test_removed_and_merged_units_are_named_with_their_side(played):
    game, lines = played
    sides = [s.name for s in game.scenario.sides]
    removed = [e for e in game.events if e["type"] == "removed"]
    assert removed
    for e in removed:
        assert any(line.startswith(f"    {sides[e['side']]} {e['name']} is removed, ") for line in lines)
    # No line names a unit by its slot number or without a side.
    assert not any(re.search(r"\bunit \d", line) for line in lines)
    for line in lines:
        if " is removed" in line or " joins " in line or " splits " in line:
            assert line.split()[0] in sides, line


def test_turn_headers_hold_their_own_events(played):
    game, lines = played
    turn = 0
    for line in lines:
        m = re.match(r"Turn (\d+) of (\d+)$", line)
        if m:
            assert int(m.group(1)) == turn + 1 and int(m.group(2)) == game.scenario.turns
            turn += 1
        m = re.match(r"  End of turn (\d+):", line)
        if m:
            assert int(m.group(1)) == turn
    assert turn == game.s.turn
    ends = [line for line in lines if line.startswith("  End of turn")]
    assert len(ends) == turn
    # Each turn ends with its Clean-up, then its End-of-turn line.
    for k in range(1, turn + 1):
        i = lines.index(f"Turn {k} of {game.scenario.turns}")
        end = lines.index(f"Turn {k + 1} of {game.scenario.turns}") if k < turn else len(lines)
        block = lines[i + 1:end]
        assert block[-1].startswith(f"  End of turn {k}: ") and "  Clean-up" in block


def test_cards_and_rules_terms_are_written_out(played):
    _, lines = played
    text = "\n".join(lines)
    assert not re.search(r"\b(10|[2-9AJQK])[HDCS]\b|Joker\d", text)
    for name in [a.name for a in Action if "_" in a.name] + [p.name for p in Posture]:
        assert name not in text
    assert "Phase 1: " in text and " with the " in text


@pytest.mark.parametrize("code,words", [("QH", "Queen of Hearts"), ("10D", "10 of Diamonds"),
                                        ("AC", "Ace of Clubs"), ("7S", "7 of Spades"), ("Joker2", "Joker")])
def test_card_words(code, words):
    assert card_words(code) == words


def test_fire_reason_explains_the_seed_example_and_each_threshold():
    rules = Rules.default()
    assert fire_reason(13, 3, 2, 2, Cover.LIGHT, 0, 2, 2, False, rules) == (
        "Attack 13 > range 3 + Defense 2 = 5: 2 markers; effective armor 2 + 1 for light cover = 3: "
        "wounds = floor((13 - 5) / 3) = 2")
    assert fire_reason(3, 3, 2, 2, Cover.NONE, 0, 0, 0, False, rules) == "Attack 3 <= range 3: no effect"
    assert fire_reason(5, 3, 2, 2, Cover.NONE, 0, 1, 0, False, rules) == \
        "Attack 5 > range 3 but <= 3 + Defense 2 = 5: 1 marker"
    assert fire_reason(9, 2, 3, 5, Cover.NONE, -3, 1, 2, True, rules) == (
        "Attack 9 > range 2 + Defense 3 = 5: 1 marker (vehicle); effective armor 5 - AP 3 = 2: "
        "wounds = floor((9 - 5) / 2) = 2")
    # Effective armor never drops below the rules' floor.
    assert fire_reason(9, 2, 3, 1, Cover.NONE, -3, 2, 4, False, rules).endswith(
        "effective armor 1 - AP 3 = 1 (at least 1): wounds = floor((9 - 5) / 1) = 4")



def test_feature_fire_reason_works_out_the_wounds_and_the_cover_left():
    rules = Rules.default()
    assert feature_fire_reason(11, 2, 0, 4, -2, 4, (2, 0), rules) == (
        "Attack 11 > range 2 + Defense 0 = 2; armor 4 - AP 2 = 2 (no cover bonus): wounds = "
        "floor((11 - 2) / 2) = 4; cover down 4 x 1 level: heavy cover -> no cover")
    assert feature_fire_reason(2, 2, 0, 3, 0, 0, (2, 2), rules) == "Attack 2 <= range 2 + Defense 0 = 2: no wound"
    assert feature_fire_reason(5, 1, 0, 3, 0, 1, (1, 0), rules).startswith(
        "Attack 5 > range 1 + Defense 0 = 1; armor 3 (no cover bonus): wounds = floor((5 - 1) / 3) = 1")


def test_feature_shots_and_the_hand_are_told_with_their_numbers():
    # The meeting engagement before issue 35 (tests/support: its heavy weapons may aim at armoured
    # features), seed 4, always the last legal action (aiming at a terrain feature comes last).
    game = Game(LOPSIDED_MEETING, 4)
    log = Narrator(game, verbose=True)
    lines, shown, orders = [], 0, []
    for _ in range(200):
        game.apply(last_legal_action(game))
        new = game.events[shown:]
        alive = [sum(1 for u in game.units if u.alive and u.side == p) for p in range(2)]
        out = log.feed(new, game.units)
        orders += [(line, alive) for line in out if " gives orders to " in line]
        lines += out
        shown = len(game.events)
    shots = [e for e in game.events if e["type"] == "feature_fire"]
    assert shots and any(e["wounds"] for e in shots)
    for e in shots:
        i = next(k for k, line in enumerate(lines) if f"Heavy Weapon at the {e['name']}: " in line)
        before, after = (("no cover", "light cover", "heavy cover")[c] for c in e["cover"])
        assert lines[i].endswith(f"{e['wounds']} wounds, {before} down to {after}" +
                                 (", no longer blocks line of sight"
                                  if e["cover"][1] == 0 and game.scenario.terrain[e["feature"]].blocks_los else ""))
        assert lines[i + 1].startswith(f"      range band {e['range']} (")
        assert f"Defense {e['defense']}" in lines[i + 1] and f"= {e['wounds']}; cover down" in lines[i + 1]
        lines = lines[i + 1:]
    # Each side's orders line counts its units given a card and left without one.
    assert orders and any("without orders" in line for line, _ in orders)
    for line, alive in orders:
        m = re.match(r"  (\w+) gives orders to (\d+) of its (\d+) units?, .* in Reserve(; (\d+) units? without orders)?$", line)
        side = [s.name for s in game.scenario.sides].index(m.group(1))
        assert int(m.group(3)) == alive[side]
        assert int(m.group(2)) + int(m.group(5) or 0) == alive[side]

def test_closing_tables_add_up_to_the_result(played):
    game, _ = played
    lines = side_tables(game, ["random", "random"])
    for p, side in enumerate(game.scenario.sides):
        units = [u for u in game.units if u.alive and u.side == p]
        head = next(i for i, line in enumerate(lines) if line.startswith(f"{side.name} (random): "))
        assert lines[head] == (f"{side.name} (random): {len(units)} units, {game.figures(p)} of "
                               f"{game.initial_figures[p]} figures left")
        rows = lines[head + 2:head + 3 + len(units)]
        assert [r.split()[-3:] for r in rows[:-1]] == [[str(u.figures), str(u.markers), str(u.wounds)]
                                                      for u in units]
        assert rows[-1].split() == ["total", str(game.figures(p)), str(sum(u.markers for u in units)),
                                    str(sum(u.wounds for u in units))]


def test_battle_prints_the_legend_once_then_the_result_and_tables_and_quiet_only_the_result(capsys):
    lines = battle_output(capsys).splitlines()
    assert lines.count("How to read this log:") == 1 and lines.index("How to read this log:") < \
        lines.index("Turn 1 of 5")
    i = next(k for k, line in enumerate(lines) if line.startswith("Result: "))
    assert re.match(r"  End of turn [1-5]: ", lines[i - 1])   # the last turn, or a side wiped out before
    assert lines[i + 1].startswith("Blue (greedy): ") and lines[i + 2].split() == ["unit", "figures",
                                                                                 "markers", "wounds"]
    assert any(line.startswith("Red (random): ") for line in lines[i + 2:])
    assert battle_output(capsys, "--quiet").splitlines() == [lines[i]]


# -- issue 23: the log after a Rally, and why nobody reacts -----------------------------------------
def _played_by_decision(seed, agents=("random", "random"), scenario=None):
    """(game, [(events of one decision, its log lines, units after it)]) for a whole game."""
    game = Game(scenario, seed)
    players = [make_agent(a, seed + i) for i, a in enumerate(agents)]
    log = Narrator(game)
    steps, shown = [], 0
    while not game.is_over:
        game.apply(players[game.current_player].act(game))
        new = game.events[shown:]
        steps.append((new, log.feed(new, game.units), [u.markers if u.alive else None for u in game.units]))
        shown = len(game.events)
    return game, steps


RALLY_LINE = re.compile(r"^    (.+) loses (\d+) markers? to the Rally: (no|\d+) markers? in all$")


def test_a_rally_is_followed_by_the_markers_left():
    checked = 0
    steps = [s for seed in (0, 17) for s in _played_by_decision(seed)[1]]
    for events, lines, markers in steps:
        rallies = [e for e in events if e["type"] == "rally" and e["success"]]
        told = [m for m in map(RALLY_LINE.match, lines) if m]
        assert len(told) == len(rallies)
        for e, m in zip(rallies, told):
            # Right after the fire of its phase: the next line is no fire line of that phase.
            i = lines.index(m.group(0))
            assert not any((" takes " in x and "initiative" not in x) or " fires " in x for x in lines[i + 1:i + 3])
            if not any(x["type"] in ("morale", "merge", "removed", "split") for x in events):
                left = markers[e["target"]]
                assert m.group(3) == ("no" if left == 0 else str(left))
                checked += 1
    assert checked >= 3


def test_every_line_that_nobody_reacts_says_why():
    steps = [s for seed in (0, 1) for s in _played_by_decision(seed, ("greedy", "random"),
                                                               "tests/golden/battle_small.toml")[1]]
    reasons = 0
    for events, lines, _ in steps:
        quiet = [x for x in lines if " does not react" in x]
        assert len(quiet) == sum(1 for e in events if e["type"] == "no_reaction" and "unit" not in e)
        for line in quiet:
            head, sep, why = line.partition(" does not react: ")
            assert sep and "no unit with orders left" in why, line
            assert any(w in why for w in ("has already acted this turn", "fires at no one",
                                          "not an attack on a unit", "at the ")), line
            reasons += 1
    assert reasons >= 3
