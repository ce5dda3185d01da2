"""Issue 11, rules fidelity: one test per corrected clause of RULES.md (sections 1, 2, 4, 6) and per
reading the README documents, driven through the public game API with scripted decks and dice (see
tests/test_game_rules.py for the roll order). tests/test_vector_parity.py plays the same rules in
both engines (random scenarios with attached units, hand sizes, light-infantry spotters and armoured
terrain features; rules variants of the hand formula, feature damage and the scatter die)."""
import json
import math
import pickle

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa import Action, Posture
from atomic_africa.game import ScenarioError
from atomic_africa.reference.game import Game
from atomic_africa.game.state import NO_CARD
from atomic_africa.game.testing import Driver, mini_scenario, scripted, unit
from atomic_africa.reference import core as ref
from test_game_rules import only, wall

ASSET = {"dice": ["d10", "d10", "d8"], "ap": 0, "blast_radius_cm": 9.0}


def game(blue, red, blue_top=(), red_top=(), dice=(), rules=None, **kw):
    """A scripted game whose dice fall back to a seeded source once the script is used up."""
    g = Game(mini_scenario(blue, red, **kw), 0, rules,
             source=scripted(blue_top, red_top, dice, rules=rules, fallback=11))
    return g, Driver(g)


def declarable(g):
    """The (action, posture) pairs of the DECLARE_ACTION stage."""
    return {(g.space.decode(a)[1], g.space.decode(a)[2]) for a in g.legal_actions()}


def feature_ids(g):
    return {g.space.decode(a)[1] for a in g.legal_actions() if g.space.decode(a)[0] == "FEATURE"}


# ---------------------------------------------------------------- point 1: light infantry is infantry
def test_rules_s4_light_infantry_takes_every_infantry_special_plus_sprint():
    scouts = unit(50, 20, kind="light_infantry", figures=5, spotter=True)
    g, d = game([scouts], [unit(40, 70), unit(60, 70)], ["QH"], ["5C", "6C"], [], assets=[ASSET])
    d.assign("QH", 0).assign("5C", g.C).assign("6C", g.C + 1).select(0)
    acts = {a for a, _ in declarable(g)}
    assert acts == {Action.DIG_IN, Action.MASS_FIRE, Action.SPLIT_FIRE, Action.CALL_FOR_FIRE, Action.SPRINT}
    # A vehicle still takes none of the infantry specials.
    veh = unit(50, 20, kind="vehicle", figures=1, armor=4, spotter=False)
    g, d = game([veh], [unit(40, 70), unit(60, 70)], ["QH"], ["5C", "6C"], [], assets=[ASSET],
                experience=("regular", "green"))   # a vehicle is attached: the Regular bonus gives the card
    d.assign("QH", 0).assign("5C", g.C).assign("6C", g.C + 1).select(0)
    assert g.stage != "DECLARE_ACTION" and only(g.events, "declare", unit=0)[0]["action"] == "SPRINT"


def test_rules_s4_light_infantry_spotter_calls_for_fire():
    scouts = unit(50, 20, kind="light_infantry", figures=5, spotter=True)
    # Spotting = mid + high of 1, 5, 6 (offensive) = 11; clock 3, distance 2: direct hit on Red.
    g, d = game([scouts], [unit(50, 70)], ["QH"], ["5C"], [1, 5, 6, 1, 1, 1, 3, 2, 5, 5, 5], assets=[ASSET])
    d.assign("QH", 0).assign("5C", g.C).select(0).declare(Action.CALL_FOR_FIRE).target(g.C)
    d.select(g.C).no_target().stay()
    sc = d.events("scatter")[0]
    assert sc["unit"] == 0 and sc["direct_hit"] and sc["impact"] == [50, 70]


def test_rules_s6_confused_light_infantry_revealing_a_face_card_must_dig_in():
    red = unit(50, 60, kind="light_infantry", figures=6, markers=1)
    g, d = game([unit(50, 20)], [red], ["5H"], ["9H", "QC"], [1] * 6)
    d.assign("5H", 0).select(0).target(g.C)
    assert d.events("confused")[0]["card"] == "QC"
    assert only(g.events, "declare", unit=g.C)[0]["action"] == "DIG_IN"


def test_rules_s4_scenario_loader_accepts_a_light_infantry_spotter_not_a_vehicle_spotter():
    sc = mini_scenario([unit(10, 10, kind="light_infantry", spotter=True)], [unit(10, 100)])
    assert sc.sides[0].units[0].spotter
    with pytest.raises(ScenarioError, match=r"sides\[0\]\.units\[0\]\.spotter"):
        mini_scenario([unit(10, 10, kind="vehicle", figures=1, spotter=True)], [unit(10, 100)])


# ---------------------------------------------------------------- point 2: the order-card burden
def _play_turn(g):
    """Finish the current turn with deterministic quiet choices (no fire, stay, no splits)."""
    turn = g.s.turn
    while not g.is_over and g.s.turn == turn:
        legal = g.legal_actions()
        quiet = [a for a in legal if g.space.decode(a)[0] in ("NO_TARGET", "STAY", "END_SPLITS")]
        g.apply(quiet[0] if quiet else legal[0])


def test_rules_s2_hand_fixed_at_setup_units_plus_experience():
    # Blue: 2 own units at set-up, Regular (+1): a hand of 3 for the whole battle, though a split in
    # the first Clean-up gives it 3 units.
    blue = [unit(50, 20, figures=10), unit(90, 20, figures=4)]
    g = Game(mini_scenario(blue, [unit(50, 100)], turns=3, experience=("regular", "green")), 0,
             source=scripted(dice=[], fallback=7))
    assert g.hand_size(0) == 3 and g.hand_size(1) == 1
    assert len(only(g.events, "draw", player=0)[0]["cards"]) == 3
    d = Driver(g)
    while g.stage != "SPLIT":
        legal = g.legal_actions()
        quiet = [a for a in legal if g.space.decode(a)[0] in ("NO_TARGET", "STAY")]
        g.apply(quiet[0] if quiet else legal[0])
    while g.current_player != 0:
        d.end_splits()
    d.split(0)
    while g.stage == "SPLIT":
        d.end_splits()
    assert len([u for u in g.units if u.alive and u.side == 0]) == 3
    draws = only(g.events, "draw", player=0)
    assert [len(e["cards"]) for e in draws] == [3, 3]
    # The "turn" reading counts the units on the table at each Orders phase instead.
    rules = aa.Rules.default().replace(orders={"hand_units": "turn"})
    g2 = Game(g.scenario, 0, rules)
    assert g2.hand_size(0) == 3


def test_rules_s2_scenario_hand_size_replaces_the_formula():
    sc = mini_scenario([unit(50, 20), unit(90, 20)], [unit(50, 100)], experience=("elite", "green"))
    d = sc.to_dict()
    d["sides"][0]["hand_size"] = 1
    g = Game(aa.game.Scenario.from_dict(d), 0)
    assert g.hand_size(0) == 1 and len(only(g.events, "draw", player=0)[0]["cards"]) == 1
    d["sides"][1]["hand_size"] = -1
    with pytest.raises(ScenarioError, match=r"sides\[1\]\.hand_size"):
        aa.game.Scenario.from_dict(d)


def test_rules_s2_cards_assigned_while_they_last_and_units_without_orders_are_confused():
    # Red has 2 units but a hand of 1 (hand_size from the scenario): one unit gets no orders.
    sc = mini_scenario([unit(50, 20), unit(60, 20)], [unit(40, 60), unit(150, 110)]).to_dict()
    sc["sides"][1]["hand_size"] = 1
    g = Game(aa.game.Scenario.from_dict(sc), 0, source=scripted(["5H", "6H"], ["6C", "4D"], [], fallback=5))
    dr = Driver(g)
    dr.assign("5H", 0).assign("6H", 1)
    assert g.stage == "ORDERS" and g.current_player == 1
    dr.assign("6C", g.C + 1)
    assert g.units[g.C].card == NO_CARD and g.s.players[1].hand == [] and g.stage == "ACTIVATE"
    assert only(g.events, "orders_done", player=1)[0]["reserve"] == 0
    dr.select(0).no_target().select(g.C + 1).no_target().stay().stay()
    # Red has no ordered unit left; Blue fires at the unit without orders: forced to react with an
    # empty Reserve, it draws (4D: legal, it is not suppressed) and reacts confused.
    assert g.stage == "ACTIVATE" and g.current_player == 0
    dr.select(1).target(g.C)
    conf = only(g.events, "confused", unit=g.C)
    assert conf and conf[0]["card"] == "4D" and g.units[g.C].confused


def test_rules_s2_merging_leaves_more_cards_in_reserve():
    # Blue: 2 own units, Green: a hand of 2. They merge in turn 1; in turn 2 the one unit left takes
    # one card and the other stays in the Reserve.
    blue = [unit(50, 20, figures=4), unit(50 + 4.5, 20, figures=4)]
    g, d = game(blue, [unit(50, 100)], ["AS", "2S"], ["5C"], [1] * 12, turns=2)
    g.src.fallback = aa.game.rng.RandomSource(3)
    d.assign("AS", 0).assign("2S", 1).assign("5C", g.C)
    d.select(0).no_target().select(g.C).no_target().move(3).stay()
    assert d.events("merge")
    _play_turn(g)
    assert g.s.turn == 2 and g.stage == "ORDERS"
    assert len(only(g.events, "draw", player=0)[-1]["cards"]) == 2
    while g.stage == "ORDERS":
        g.apply(g.legal_actions()[0])
    done = [e for e in only(g.events, "orders_done", player=0) if e["turn"] == 2]
    assert done[0]["reserve"] == 1 and len(g.s.players[0].hand) == 1


# ---------------------------------------------------------------- point 3: attached units
def test_rules_s1_attached_units_need_orders_but_add_no_cards():
    blue = [unit(40, 20), unit(60, 20), unit(80, 20, attached=True, figures=3),
            unit(100, 20, kind="vehicle", figures=1, armor=4)]
    g = Game(mini_scenario(blue, [unit(50, 100)], experience=("regular", "green")), 0)
    assert [u.attached for u in g.units[:4]] == [False, False, True, True]
    assert g.hand_size(0) == 3 and len(only(g.events, "draw", player=0)[0]["cards"]) == 3
    while g.stage == "ORDERS":
        g.apply(g.legal_actions()[0])
    # 3 cards, 4 units needing orders: exactly one is left without (it may be the attached one).
    assert sum(u.card != NO_CARD for u in g.units[:4]) == 3
    # With attached_add_cards the attached units count again.
    rules = aa.Rules.default().replace(orders={"attached_add_cards": True})
    assert Game(g.scenario, 0, rules).hand_size(0) == 5


def test_rules_s1_scenario_attached_flag_is_validated_and_named():
    with pytest.raises(ScenarioError, match=r"sides\[0\]\.units\[1\]\.attached"):
        mini_scenario([unit(10, 10), unit(20, 10, attached="yes")], [unit(10, 100)])
    with pytest.raises(ScenarioError, match=r"sides\[1\]\.units\[0\]\.attached.*vehicle"):
        mini_scenario([unit(10, 10)], [unit(10, 100, kind="vehicle", figures=1, attached=False)])
    sc = mini_scenario([unit(10, 10, attached=True)], [unit(10, 100, kind="vehicle", figures=1)])
    assert sc.sides[0].units[0].attached and sc.sides[1].units[0].attached
    assert aa.game.Scenario.from_dict(sc.to_dict()) == sc


@pytest.mark.parametrize("scenario,attached,hands", [
    # Each platoon: HQ + 3 squads, Regular.
    ("meeting_engagement", [{"MG team", "Scouts", "Armoured car"}] * 2, [5, 5]),
    # Each patrol: HQ + 2 sections, Regular.
    (None, [{"MG team"}, {"MG team"}], [4, 4]),
    # Each section: HQ + rifle squad, Regular (Red's hand_size states the same 3).
    ("template", [{"LMG team", "Pickup with HMG"}, {"LMG team", "Pickup with HMG"}], [3, 3]),
])
def test_rules_s1_packaged_scenario_marks_its_attached_units(scenario, attached, hands):
    g = Game(scenario, 0)
    assert [{u.name for u in side.units if u.attached} for side in g.scenario.sides] == attached
    assert [g.hand_size(p) for p in range(2)] == hands


# ---------------------------------------------------------------- point 4: the confused draw
SMALL = aa.Rules.default().replace(orders={"deck_cards": 8, "jokers": 0, "basic_max_rank": 2})  # A, 2 a suit


def _small_confusion(deck, discard):
    """Blue (2H) targets Red's suppressed unit, which has no orders and an empty Reserve (hand 0);
    Red's deck and discard pile are set to the given card names (deck: top card last)."""
    sc = mini_scenario([unit(50, 20)], [unit(50, 60, markers=1)]).to_dict()
    sc["sides"][1]["hand_size"] = 0
    g = Game(aa.game.Scenario.from_dict(sc), 0, SMALL, source=scripted(["2H"], [], [1] * 12, rules=SMALL))
    pl = g.s.players[1]
    pl.deck = [g.deck.id_of(c) for c in deck]
    pl.discard = [g.deck.id_of(c) for c in discard]
    d = Driver(g)
    d.assign("2H", 0).select(0).target(g.C)
    return g, d


def test_rules_s6_confused_draw_reshuffles_only_older_discards_never_reshowing_shown_cards():
    g, d = _small_confusion(["AH", "2H", "AD", "2D"], ["AC", "2C"])
    shown = [e["card"] for e in d.events("confused_draw")]
    assert shown == ["2D", "AD", "2H", "AH"]                       # each illegal card shown once
    resh = only(g.events, "reshuffle", player=1)
    assert [g.deck.name(c) for c in resh[0]["deck"]] == ["AC", "2C"]   # the shown cards stay out
    assert d.events("confused")[0]["card"] == "2C"
    assert [g.deck.name(c) for c in g.s.players[1].discard] == shown


def test_rules_s6_confused_draw_stops_only_when_no_legal_card_is_left():
    # Legal card deep in the deck under many illegal ones: found (the old loop gave up early).
    g, d = _small_confusion(["AS", "AH", "2H", "AD", "2D"], ["AC"])
    assert [e["card"] for e in d.events("confused_draw")] == ["2D", "AD", "2H", "AH"]
    assert d.events("confused")[0]["card"] == "AS" and not only(g.events, "reshuffle", player=1)
    # No legal card in deck and discard together: nothing to draw for, the unit does not react.
    g, d = _small_confusion(["AH", "2H"], ["AD", "2D"])
    assert not d.events("confused_draw") and not d.events("confused")
    assert not only(g.events, "reshuffle", player=1) and len(g.s.players[1].deck) == 2
    assert only(g.events, "no_reaction", player=1)[0]["unit"] == g.C


# ---------------------------------------------------------------- point 5: heavy weapons vs terrain
def bunker(x0, y0, x1, y1, cover="heavy", armor=3, blocks=True):
    f = wall(x0, y0, x1, y1, cover=cover, blocks=blocks)
    if armor:
        f["armor"] = armor
    return f


AT_GUN = dict(kind="vehicle", figures=1, armor=4, heavy_weapon={"point": -2})


def test_rules_s4_feature_with_armor_is_a_point_target_for_an_eligible_heavy_weapon_in_view():
    terrain = [bunker(45, 40, 55, 45), bunker(80, 40, 90, 45, armor=0),       # target; no armor
               bunker(20, 40, 30, 45), wall(10, 30, 40, 32)]                   # out of view
    for hw, expect in (({"point": -2}, {0}), ({"dispersed": -1}, set())):
        shooter = unit(50, 20, kind="vehicle", figures=1, armor=4, heavy_weapon=hw)
        g, d = game([shooter], [unit(150, 100)], ["QH"], ["5C"], [], terrain=terrain,
                    experience=("regular", "green"))
        d.assign("QH", 0).assign("5C", g.C).select(0)
        opts = declarable(g) if g.stage == "DECLARE_ACTION" else set()
        assert ((Action.HEAVY_WEAPON, Posture.OFFENSIVE) in opts) == bool(expect)
        if expect:
            d.declare(Action.HEAVY_WEAPON)
            assert feature_ids(g) == expect
    with pytest.raises(ScenarioError, match=r"terrain\[0\]\.armor"):
        mini_scenario([unit(1, 1)], [unit(5, 5)], terrain=[bunker(0, 0, 2, 2, cover="none")])


def test_rules_s4_feature_hit_defense_zero_ap_applies_each_wound_lowers_cover():
    terrain = [bunker(45, 40, 55, 45, armor=3)]
    # Offensive Heavy Weapon: Attack = mid + high = 6 + 8 = 14 at band 1 (about 22 cm), Defense 0:
    # damage 13 against armor 3 + AP -2 = 1: 13 wounds, Heavy cover down to None.
    g, d = game([unit(50, 20, **AT_GUN)], [unit(150, 100)], ["QH"], ["5C"], [1, 6, 8, 1, 1, 1],
                terrain=terrain, experience=("regular", "green"))
    d.assign("QH", 0).assign("5C", g.C).select(0).declare(Action.HEAVY_WEAPON)
    g.apply(g.space.feature(0))
    d.select(g.C).no_target().stay()
    hit = d.events("feature_fire")[0]
    assert (hit["attack"], hit["range"], hit["defense"], hit["armor"], hit["ap"]) == (14, 1, 0, 3, -2)
    assert hit["wounds"] == 13 and hit["cover"] == [2, 0] and g.s.feature_cover == [0]
    # One wound lowers Heavy cover one level: Attack 1 + 4 = 5 (defensive: low + mid) at band 1
    # against effective armor 3 + 0: (5 - 1) // 3 = 1 wound.
    g, d = game([unit(50, 20, kind="vehicle", figures=1, armor=4, heavy_weapon={"point": 0})],
                [unit(150, 100)], ["QS"], ["5C"], [1, 4, 8, 1, 1, 1], terrain=terrain,
                experience=("regular", "green"))
    d.assign("QS", 0).assign("5C", g.C).select(0).declare(Action.HEAVY_WEAPON)
    g.apply(g.space.feature(0))
    d.select(g.C).no_target().stay()
    hit = d.events("feature_fire")[0]
    assert hit["attack"] == 5 and hit["wounds"] == 1 and hit["cover"] == [2, 1]
    assert aa.game.los.cover_of_point((50, 42), g.terrain) == 1


def test_rules_s4_feature_at_no_cover_no_longer_blocks_line_of_sight():
    terrain = [bunker(40, 40, 60, 45, armor=3)]   # between Blue (50, 20) and Red (50, 70)
    blue = [unit(50, 20, **AT_GUN), unit(70, 20)]
    g, d = game(blue, [unit(50, 70), unit(150, 110)], ["QH", "5H"], ["5C", "6C"], [1, 6, 8] + [1] * 9,
                terrain=terrain, experience=("regular", "green"))
    d.assign("QH", 0).assign("5H", 1).assign("5C", g.C).assign("6C", g.C + 1)
    assert not aa.game.los.has_los((50, 20), (50, 70), g.terrain)
    obs_before = g.observation(0)
    d.select(0).declare(Action.HEAVY_WEAPON)
    g.apply(g.space.feature(0))
    d.select(g.C + 1).no_target().stay()
    assert g.s.feature_cover == [0]
    assert aa.game.los.has_los((50, 20), (50, 70), g.terrain)
    # The observation's last entries are the features' current cover / 2.
    assert obs_before[-1] == 1.0 and g.observation(0)[-1] == 0.0 and g.observation(1)[-1] == 0.0
    # Red's unit behind the ruin is now a fire target: Red activates it, Blue reacts and may aim at it.
    d.select(g.C).no_target().select(1)
    assert g.stage == "DECLARE_TARGET" and g.space.target(g.C) in g.legal_actions()


def test_rules_s4_feature_cover_is_game_state_saved_cloned_and_pickled():
    terrain = [bunker(40, 40, 60, 45, armor=3)]
    g, d = game([unit(50, 20, **AT_GUN)], [unit(50, 70)], ["QH"], ["5C"], [1, 6, 8] + [1] * 9,
                terrain=terrain, experience=("regular", "green"))
    d.assign("QH", 0).assign("5C", g.C).select(0).declare(Action.HEAVY_WEAPON)
    g.apply(g.space.feature(0))
    d.select(g.C).stay()          # Red sees no target behind the ruin: no fire, it stays
    assert g.s.feature_cover == [0]
    for h in (Game.from_json(g.to_json()), g.clone(), pickle.loads(pickle.dumps(g))):
        assert h.s.feature_cover == [0] and h.state_hash() == g.state_hash()
        assert aa.game.los.has_los((50, 20), (50, 70), h.terrain)
        assert np.array_equal(h.observation(1), g.observation(1))
    # A game saved without the features' cover (an older version) is a clear error.
    old = json.loads(g.to_json())
    del old["state"]["feature_cover"]
    with pytest.raises(ValueError, match="feature_cover"):
        Game.from_json(json.dumps(old))


# ---------------------------------------------------------------- point 6: the scatter die's clock
def test_rules_s4_scatter_clock_positions_come_from_the_scatter_die():
    # Default d12: face 3 is 3 o'clock (east); on a d8 clock face 2 is east and face 4 south.
    r = aa.scatter(3, 5, 2)
    assert (r.dx, r.dy) == pytest.approx((3 * 4.5, 0.0))
    d8 = aa.Rules.default().replace(call_for_fire={"scatter_die": 8})
    for face, (ux, uy) in ((2, (1, 0)), (4, (0, -1)), (8, (0, 1))):
        for f in (aa.scatter(face, 3, 1, rules=d8), ref.scatter(face, 3, 1, rules=d8)):
            assert (f.dx, f.dy) == pytest.approx((2 * 4.5 * ux, 2 * 4.5 * uy), abs=1e-9)
    b = aa.batch.scatter([2, 4], 3, 1, rules=d8)
    assert np.allclose(b.dx, [9.0, 0.0]) and np.allclose(b.dy, [0.0, -9.0])
    # The game's Call for Fire uses it too: d8 face 2 moves the impact east.
    scouts = unit(50, 20, spotter=True)
    g = Game(mini_scenario([scouts], [unit(50, 70)], assets=[ASSET]), 0, d8,
             source=scripted(["QH"], ["5C"], [1, 1, 1, 1, 1, 1, 2, 5, 5, 5, 5], rules=d8))
    Driver(g).assign("QH", 0).assign("5C", g.C).select(0).declare(Action.CALL_FOR_FIRE).target(g.C)
    Driver(g).select(g.C).no_target().stay()
    sc = only(g.events, "scatter")[0]
    assert sc["spotting"] == 2 and sc["impact"] == pytest.approx([50 + 3 * 4.5, 70])


# ---------------------------------------------------------------- point 7: documented readings
def test_rules_s2_unit_suppressed_after_it_received_an_offensive_card_keeps_it():
    # Red's 9H is assigned while unsuppressed; Blue's fire then suppresses it; it still acts on 9H.
    g, d = game([unit(50, 20), unit(60, 20)], [unit(50, 50)], ["QH", "5H"], ["9H"],
                [1, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    d.assign("QH", 0).assign("5H", 1).assign("9H", g.C)
    d.select(0).declare(Action.MASS_FIRE).target(g.C).select(g.C).no_target().stay()
    assert g.units[g.C].markers > 0 and g.units[g.C].acted
    fire_ok = only(g.events, "react", unit=g.C)[0]["card"] == "9H"
    assert fire_ok and only(g.events, "declare", unit=g.C)[0]["posture"] == "OFFENSIVE"


def test_rules_s6_confused_unit_revealing_a_joker_may_also_choose_basic():
    g, d = game([unit(50, 20)], [unit(50, 60, markers=1)], ["5H"], ["9H", "Joker1"], [1] * 12)
    d.assign("5H", 0).select(0).target(g.C)
    assert d.events("confused")[0]["card"] == "Joker1" and g.stage == "DECLARE_ACTION"
    assert (Action.BASIC, Posture.DEFENSIVE) in declarable(g)


def test_rules_s5_destinations_lie_on_the_grid_so_a_merge_needs_a_friend_reachable_on_it():
    # A friend 11 cm away at 45 degrees, a 2 (9 cm): a Destination placed freely at 45 degrees would
    # touch it (2 cm < 3 cm), but Destinations lie on 12 clock directions x 4 fractions: none does.
    fx, fy = 50 + 11 * math.sin(math.radians(45)), 20 + 11 * math.cos(math.radians(45))
    g, d = game([unit(50, 20, figures=4), unit(fx, fy, figures=4)], [unit(50, 100)], ["2S", "3S"], ["5C"],
                [1] * 12)
    d.assign("2S", 0).assign("3S", 1).assign("5C", g.C).select(0).no_target().select(g.C).no_target()
    assert g.stage == "MOVE" and g.s.decl_uid == 0
    free = (50 + 9 * math.sin(math.radians(45)), 20 + 9 * math.cos(math.radians(45)))
    assert math.dist(free, (fx, fy)) < g.rules.movement.merge_contact_cm
    dests = [g.preview_destination(a) for a in g.legal_actions()]
    assert min(math.dist(p, (fx, fy)) for p in dests) > g.rules.movement.merge_contact_cm
