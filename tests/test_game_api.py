"""Game API: decisions, masks, illegal actions, observations, serialisation, scenarios.

``Game`` is the product's (the C core); the tests that script decks and dice (``ScriptedSource``) play
the reference engine (``ReferenceGame``), the only one a script can drive, and a scripted saved game
is refused by the C core's ``from_json`` (loaded by the reference's).
"""
import json
import pickle
import tomllib
from importlib import resources

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa.game import (Game, IllegalActionError, Scenario, ScenarioError,
                                default_scenario, load_scenario)
from atomic_africa.agents import GreedyAgent, RandomAgent, play
from atomic_africa.game.saved import SavedGameError
from atomic_africa.game.testing import Driver, mini_scenario, scripted, unit
from atomic_africa.reference.game import Game as ReferenceGame


def advance(g, n, seed=0):
    ag = RandomAgent(seed)
    for _ in range(n):
        if g.is_over:
            break
        g.apply(ag.act(g))
    return g


# ---------------------------------------------------------------- scenarios
def test_meeting_engagement_meets_the_brief():
    # The first brief's battle (the default until issue 14), kept as a packaged scenario.
    sc = load_scenario("meeting_engagement")
    covers = {t.cover for t in sc.terrain}
    assert covers >= {1, 2} and any(t.blocks_los for t in sc.terrain) and any(not t.blocks_los for t in sc.terrain)
    assert {t.shape for t in sc.terrain} == {"polygon", "circle"}
    for side in sc.sides:
        squads = [u for u in side.units if u.kind == aa.UnitKind.INFANTRY and u.figures >= 6 and not u.commander]
        assert len(squads) >= 3
        assert sum(u.commander for u in side.units) == 1
        assert sum(u.kind == aa.UnitKind.VEHICLE for u in side.units) == 1
        assert any(u.heavy_weapon and u.kind != aa.UnitKind.VEHICLE for u in side.units)
    assert any(side.fire_support for side in sc.sides)
    assert any(u.spotter for side in sc.sides for u in side.units if side.fire_support)
    assert Scenario.from_dict(sc.to_dict()) == sc


def _raw():
    text = resources.files("atomic_africa").joinpath("data/scenarios/default.toml").read_text()
    return tomllib.loads(text)


@pytest.mark.parametrize("edit,field", [
    (lambda d: d["table"].update(width_cm=-1), "table.width_cm"),
    (lambda d: d.update(turns=0), "turns"),
    (lambda d: d["terrain"][0].update(cover="thick"), "terrain[0].cover"),
    (lambda d: d["terrain"][0].update(points=[[0, 0], [1, 1]]), "terrain[0].points"),
    (lambda d: d["terrain"][2].pop("radius"), "terrain[2].radius"),
    (lambda d: d["sides"][0].update(experience="expert"), "sides[0].experience"),
    (lambda d: d["sides"][0]["units"][1].update(kind="tank"), "sides[0].units[1].kind"),
    (lambda d: d["sides"][0]["units"][1].update(dice=["d10", "d7", "d8"]), "sides[0].units[1].dice[1]"),
    (lambda d: d["sides"][0]["units"][1].update(armor=0), "sides[0].units[1].armor"),
    (lambda d: d["sides"][0]["units"][1].update(position=[500, 5]), "sides[0].units[1].position"),
    (lambda d: d["sides"][0]["units"][1].update(heavy_weapon={"bunker": -1}), "sides[0].units[1].heavy_weapon.bunker"),
    (lambda d: d["sides"][0]["units"][1].update(heavy_weapon={"point": 2}), "sides[0].units[1].heavy_weapon.point"),
    (lambda d: d["sides"][0]["units"][1].update(colour="red"), "sides[0].units[1].colour"),
    (lambda d: d["sides"][0]["fire_support"][0].update(blast_radius_cm=0), "sides[0].fire_support[0].blast_radius_cm"),
    (lambda d: d["sides"][0]["fire_support"][0].update(ap=1), "sides[0].fire_support[0].ap"),
    (lambda d: d["sides"].pop(), "sides"),
])
def test_bad_scenarios_name_the_field(edit, field):
    d = _raw()
    edit(d)
    with pytest.raises(ScenarioError) as exc:
        Scenario.from_dict(d)
    assert str(exc.value).startswith(f"scenario.{field}: ")


def test_scenario_from_path_object_or_none(tmp_path):
    path = tmp_path / "s.toml"
    path.write_bytes(resources.files("atomic_africa").joinpath("data/scenarios/default.toml").read_bytes())
    a, b, c = Game(str(path), 3), Game(default_scenario(), 3), Game(None, 3)
    assert a.to_json() == b.to_json() == c.to_json()
    with pytest.raises(TypeError, match="scenario"):
        Game(42, 1)
    with pytest.raises(ValueError, match="seed"):
        Game(None, -1)
    with pytest.raises(TypeError, match="seed"):
        Game(None, 1.5)
    with pytest.raises(TypeError, match="player"):
        Game(None, 1).observation(1.0)
    bad = tmp_path / "bad.toml"
    bad.write_text("turns = [")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        Game(str(bad), 0)


# ---------------------------------------------------------------- decisions
def test_action_mask_matches_legal_actions_and_has_fixed_size():
    g = Game(None, 11)
    n = g.num_actions
    ag = RandomAgent(5)
    for _ in range(300):
        if g.is_over:
            break
        mask = g.action_mask()
        assert mask.dtype == bool and mask.shape == (n,)
        assert np.flatnonzero(mask).tolist() == g.legal_actions()
        assert g.current_player in (0, 1)
        g.apply(ag.act(g))


@pytest.mark.parametrize("steps", [0, 7, 40, 120])
def test_illegal_action_raises_with_reason_and_leaves_state_unchanged(steps):
    g = advance(Game(None, 2), steps)
    before = g.to_json()
    legal = set(g.legal_actions())
    illegal = [a for a in range(g.num_actions) if a not in legal][:: max(1, g.num_actions // 40)]
    for a in illegal:
        with pytest.raises(IllegalActionError, match="illegal|out of range"):
            g.apply(a)
        assert g.to_json() == before
    for bad in (-1, g.num_actions):
        with pytest.raises(IllegalActionError, match="out of range"):
            g.apply(bad)
    for bad in (1.0, "3", None, True):
        with pytest.raises(TypeError, match="action"):
            g.apply(bad)
    assert g.to_json() == before


def test_illegal_action_messages_say_why():
    g = ReferenceGame(mini_scenario([unit(50, 20, markers=1)], [unit(50, 70)], experience=("regular", "green")), 0,
             source=scripted(["7S", "5H"], ["5C"]))
    with pytest.raises(IllegalActionError, match="suppressed"):
        g.apply(g.space.assign(g.deck.id_of("5H"), 0))
    with pytest.raises(IllegalActionError, match="not in the player's hand"):
        g.apply(g.space.assign(g.deck.id_of("KH"), 0))
    with pytest.raises(IllegalActionError, match="this stage takes ASSIGN"):
        g.apply(g.space.stay)


def test_game_over_rejects_actions():
    g = play(Game(None, 4), [RandomAgent(1), RandomAgent(2)])
    assert g.is_over and g.current_player == -1 and g.legal_actions() == [] and not g.action_mask().any()
    with pytest.raises(IllegalActionError, match="over"):
        g.apply(0)
    assert g.result.reason and sum(g.returns()) == 0


# ---------------------------------------------------------------- observation
def test_observation_shape_and_hidden_cards():
    blue_top, dice = ["5H", "QS"], [1] * 60
    g1 = ReferenceGame(mini_scenario([unit(50, 20), unit(90, 20)], [unit(50, 90), unit(90, 90)]), 0,
                       source=scripted(blue_top, ["5C", "9D"], dice))
    g2 = ReferenceGame(mini_scenario([unit(50, 20), unit(90, 20)], [unit(50, 90), unit(90, 90)]), 0,
                       source=scripted(blue_top, ["KC", "Joker1"], dice))
    for g in (g1, g2):
        d = Driver(g)
        d.assign("5H", 0).assign("QS", 1)
        while g.stage == "ORDERS":
            g.apply(g.legal_actions()[0])
    # Red's face-down cards and hand differ; Blue sees the same thing.
    o1, o2 = g1.observation(0), g2.observation(0)
    assert o1.dtype == np.float32 and o1.shape == o2.shape
    assert np.array_equal(o1, o2)
    assert not np.array_equal(g1.observation(1), g2.observation(1))
    # Once a Red card is revealed Blue sees it.
    for g in (g1, g2):
        Driver(g).select(0).no_target().select(g.C)
    assert not np.array_equal(g1.observation(0), g2.observation(0))
    with pytest.raises(ValueError, match="player"):
        g1.observation(2)


# ---------------------------------------------------------------- serialisation
def test_json_round_trip_pickle_clone_and_replay_are_exact():
    g = advance(Game(None, 9), 200, seed=3)
    text = g.to_json()
    g2 = Game.from_json(text)
    assert g2.to_json() == text
    g3 = pickle.loads(pickle.dumps(g))
    assert g3.to_json() == text
    g4 = g.clone()
    assert g4.to_json() == text
    assert Game.replay(None, 9, g.history).to_json() == text
    ag = RandomAgent(8)
    for _ in range(150):
        if g.is_over:
            break
        a = ag.act(g)
        for x in (g, g2, g3, g4):
            x.apply(a)
    assert g.to_json() == g2.to_json() == g3.to_json() == g4.to_json()
    assert g4.to_json() != text or g.is_over
    # clone independence
    c = g.clone()
    if not c.is_over:
        c.apply(c.legal_actions()[0])
        assert c.to_json() != g.to_json()
    with pytest.raises(ValueError, match="format"):
        Game.from_json('{"format": "other"}')
    with pytest.raises(ValueError, match=r"^text\.history: missing field$"):
        d = __import__("json").loads(text)
        del d["history"]
        Game.from_json(__import__("json").dumps(d))


def test_state_to_dict_is_what_dataclasses_asdict_gives_and_shares_nothing():
    """GameState.to_dict builds asdict's dicts directly (the saved games' format): equal, keys in the
    same order, in every state of whole greedy games of both engines (Reserve hands, reshuffles,
    sprints, the end), and no list of the result is one of the state's."""
    from dataclasses import asdict

    def check(s):
        d, want = s.to_dict(), asdict(s)
        assert d == want and json.dumps(d) == json.dumps(want)
        ours = [d["pending"], d["sprint_bonus"], d["feature_cover"]] + [u["dice"] for u in d["units"]] + \
               [p[k] for p in d["players"] for k in ("deck", "hand", "discard")]
        theirs = [s.pending, s.sprint_bonus, s.feature_cover] + [u.dice for u in s.units] + \
                 [getattr(p, k) for p in s.players for k in ("deck", "hand", "discard")]
        assert not {id(x) for x in ours} & {id(x) for x in theirs}

    checked = 0
    for scenario, seed in ((None, 2), ("meeting_engagement", 5)):
        g, ref, ag = Game(scenario, seed), ReferenceGame(scenario, seed), GreedyAgent(seed)
        while True:
            check(g.s)
            check(ref.s)
            checked += 1
            if g.is_over:
                break
            a = ag.act(g)
            g.apply(a)
            ref.apply(a)
    assert checked > 100


def test_scripted_source_round_trips():
    g = ReferenceGame(mini_scenario([unit(50, 20)], [unit(50, 70)]), 0, source=scripted(["5H"], ["5C"], [1, 2, 3]))
    assert ReferenceGame.from_json(g.to_json()).to_json() == g.to_json()
    # the C core draws from a PCG64 stream only: it refuses the script, naming the engine that takes it
    with pytest.raises(TypeError, match="reference"):
        Game(mini_scenario([unit(50, 20)], [unit(50, 70)]), 0, source=scripted(["5H"], ["5C"], [1, 2, 3]))
    with pytest.raises(SavedGameError, match=r"^text\.source: a scripted source"):
        Game.from_json(g.to_json())


def test_greedy_beats_random_most_of_the_time():
    wins = 0
    for seed in range(10):
        greedy = seed % 2
        agents = [RandomAgent(seed), GreedyAgent()] if greedy else [GreedyAgent(), RandomAgent(seed)]
        g = play(Game(None, seed), agents)
        wins += g.result.winner == greedy
    assert wins >= 8
