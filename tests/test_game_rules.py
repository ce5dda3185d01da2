"""One test per rule clause of RULES.md sections 1-7, driven through the public game API.

Every game here runs on a ScriptedSource: deck orders (top cards first) and dice faces in roll
order. Roll order in an Activation phase: movement of confused units (d12), the Activating unit's
three dice, the Reacting unit's, Call for Fire (clock, distance, asset dice), bystander targets by
slot, then sprint directions of confused units; Morale rolls at Clean-up by slot.
"""
import pytest

import atomic_africa as aa
from atomic_africa import Action, Posture
from atomic_africa.game import IllegalActionError, ScenarioError
from atomic_africa.reference.game import Game
from atomic_africa.game.state import NO_CARD
from atomic_africa.game.testing import Driver, mini_scenario, scripted, unit

RULES = aa.Rules.default()
LIGHT = "light"


def circle(x, y, r, cover, blocks=False):
    return {"shape": "circle", "center": [x, y], "radius": r, "cover": cover, "blocks_los": blocks}


def wall(x0, y0, x1, y1, cover="none", blocks=True):
    return {"shape": "polygon", "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "cover": cover,
            "blocks_los": blocks}


def game(blue, red, blue_top=(), red_top=(), dice=(), **kw):
    more, rules = kw.pop("more_decks", ()), kw.pop("rules", None)
    g = Game(mini_scenario(blue, red, **kw), 0, rules,
             source=scripted(blue_top, red_top, dice, rules=rules, more_decks=more))
    return g, Driver(g)


# The per-turn marker caps, tested on a target fired at twice: with a unit that has acted never
# forced to react again, the second shot finds it a bystander (its reaction is section 6's business:
# tests/test_reserve_by_choice.py).
NO_SPENT = aa.Rules.default().replace(orders={"spent_units_react": False})


def only(events, type_, **match):
    out = [e for e in events if e["type"] == type_ and all(e.get(k) == v for k, v in match.items())]
    return out


def duel(blue_card, red_card, dice, blue=None, red=None, **kw):
    """One Blue unit (slot 0) and one Red unit (slot C): orders assigned, Blue to activate. A vehicle
    is attached and adds no card to its side's hand (RULES.md section 2): its side is Regular."""
    blue, red = blue or unit(50, 20), red or unit(50, 70)
    kw.setdefault("experience", tuple("regular" if u["kind"] == "vehicle" else "green" for u in (blue, red)))
    g, d = game([blue], [red], [blue_card], [red_card], dice, **kw)
    d.assign(blue_card, 0)
    d.assign(red_card, g.C)
    return g, d


# ---------------------------------------------------------------- 1. Units and dice
def test_1_unit_rolls_its_three_attribute_dice():
    g, d = duel("5H", "5C", [1, 11, 3, 2, 2, 2], blue=unit(50, 20, dice=("d6", "d12", "d4")))
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    rolls = d.events("roll")
    assert rolls[0]["dice"] == [6, 12, 4] and rolls[0]["faces"] == [1, 11, 3]
    assert rolls[1]["dice"] == [10, 10, 8]


def test_1_unit_kinds_armor_heavy_weapons_spotter_comms_commander_from_scenario():
    sc = mini_scenario([unit(10, 10, commander=True, spotter=True, comms=True),
                        unit(20, 10, kind="vehicle", figures=1, armor=5,
                             heavy_weapon={"dispersed": 0, "point": -2})],
                       [unit(10, 100, kind="light_infantry")])
    g = Game(sc, 1)
    u0, u1, r = g.units[0], g.units[1], g.units[g.C]
    assert (u0.commander, u0.spotter, u0.comms) == (True, True, True)
    assert (u1.kind, u1.armor, u1.hw_dispersed, u1.hw_point, u1.hw_point_ap) == (aa.UnitKind.VEHICLE, 5, True, True, -2)
    assert r.kind == aa.UnitKind.LIGHT_INFANTRY
    with pytest.raises(ScenarioError, match="force commander"):
        mini_scenario([unit(1, 1, commander=True), unit(2, 2, commander=True)], [unit(5, 5)])


def test_1_wound_counter_shifts_morale_die_seed_example():
    # Seed: a d10,d10,d8 squad with two wound counters rolls two d10 and a d4.
    g, d = duel("5H", "5C", [1, 1, 1, 1, 1, 1], blue=unit(50, 20, wounds=2))
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    assert d.events("roll")[0]["dice"] == [10, 10, 4]


def test_1_vehicle_wound_shifts_equipment_die():
    g, d = duel("5H", "5C", [1, 1, 1, 1, 1, 1],
                blue=unit(50, 20, kind="vehicle", figures=1, armor=4, dice=("d8", "d10", "d8"), wounds=1))
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    assert d.events("roll")[0]["dice"] == [8, 8, 8]


def test_1_shattered_die_rolls_d4_until_cleanup_then_unit_splits_or_is_removed():
    # d8 Morale with 3 wounds falls below d4: rolls d4 now, must split (10 figures) at Clean-up.
    g, d = duel("5H", "5C", [1, 1, 4, 1, 1, 1], blue=unit(50, 20, wounds=3))
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    roll = d.events("roll")[0]
    assert roll["dice"] == [10, 10, 4] and roll["shattered"]
    split = d.events("split")[0]
    assert split["unit"] == 0 and not split["voluntary"] and split["figures"] == [5, 5]
    # A shattered unit of fewer than 6 figures is removed instead.
    g, d = duel("5H", "5C", [1, 1, 4, 1, 1, 1], blue=unit(50, 20, figures=5, wounds=3),
                red=unit(50, 70), turns=2)
    d.select(0).no_target().select(g.C).no_target().stay().stay().finish()
    assert d.events("removed")[0]["figures"] == 5 and not g.units[0].alive
    assert g.is_over and g.result.winner == 1


# ---------------------------------------------------------------- 2. Orders
def test_2_one_deck_of_54_cards_per_player():
    g = Game(None, 5)
    g.check_invariants()
    for p in range(2):
        pl = g.s.players[p]
        assert len(pl.deck) + len(pl.hand) + len(pl.discard) == 54 - sum(
            1 for u in g.units if u.alive and u.side == p and u.card != NO_CARD)
    assert g.deck.size == RULES.orders.deck_cards + RULES.orders.jokers == 54


def test_2_suit_gives_posture():
    for card, posture in (("5H", "OFFENSIVE"), ("5D", "OFFENSIVE"), ("5C", "DEFENSIVE"), ("5S", "DEFENSIVE")):
        g, d = duel(card, "5C", [1, 2, 3, 1, 2, 3])
        d.select(0).no_target().select(g.C).no_target().stay().stay()
        assert d.events("declare")[0]["posture"] == posture


def test_2_ace_to_ten_basic_action_moves_value_times_increment():
    # Ace: at most 1 x 4.5 cm (infantry); a 7 on a vehicle: 7 x 9 cm.
    g, d = duel("AH", "7C", [1, 1, 1, 1, 1, 1], red=unit(50, 70, kind="vehicle", figures=1, armor=4))
    d.select(0).no_target().select(g.C).no_target()
    d.move(0)   # 12 o'clock, full move
    d.move(6).finish()   # 6 o'clock, full move
    mv = d.events("move")
    assert mv[0]["dest"] == pytest.approx([50, 20 + RULES.movement.increment_cm])
    assert mv[1]["dest"] == pytest.approx([50, 70 - 7 * RULES.movement.vehicle_increment_cm])
    # Half of the maximum is also a legal Destination (fractions of the rules data).
    assert g.is_over


def test_2_face_card_gives_a_special_action_choice():
    g, d = duel("QH", "5C", [1, 2, 3, 1, 2, 3])
    d.select(0)
    assert g.stage == "DECLARE_ACTION"
    opts = {g.space.decode(a)[1] for a in g.legal_actions()}
    assert opts == {Action.DIG_IN, Action.MASS_FIRE, Action.RALLY} - {Action.RALLY}  # no suppressed friend
    with pytest.raises(IllegalActionError):
        d.declare(Action.BASIC, Posture.OFFENSIVE)


def test_2_joker_any_action_own_posture_and_initiative():
    blue = [unit(50, 20), unit(100, 20)]
    red = [unit(50, 70), unit(100, 70)]
    g, d = game(blue, red, ["Joker1", "5H"], ["5C", "6C"], [1] * 12)
    d.assign("Joker1", 0).assign("5H", 1).assign("5C", g.C).assign("6C", g.C + 1)
    d.select(0)
    opts = {g.space.decode(a)[1:] for a in g.legal_actions()}
    assert (Action.BASIC, Posture.OFFENSIVE) in opts and (Action.MASS_FIRE, Posture.DEFENSIVE) in opts
    d.declare(Action.BASIC, Posture.DEFENSIVE).no_target().select(g.C).no_target().stay().stay()
    assert d.events("initiative") == [only(g.events, "initiative")[0]] and d.events("initiative")[0]["player"] == 0
    # Blue seized the initiative: Blue is the Activating player again.
    assert g.stage == "ACTIVATE" and g.current_player == 0


def test_2_orders_phase_hand_is_units_plus_experience_bonus():
    for exp, bonus in (("green", 0), ("regular", 1), ("veteran", 2), ("elite", 3)):
        sc = mini_scenario([unit(10, 10), unit(30, 10)], [unit(10, 100)], experience=(exp, "green"))
        g = Game(sc, 0)
        assert len(only(g.events, "draw", player=0)[0]["cards"]) == 2 + bonus
        # every unit that may legally take a card gets one, the rest is the Reserve
        while g.stage == "ORDERS":
            g.apply(g.legal_actions()[0])
        assert all(u.card != NO_CARD for u in g.units if u.alive)
        assert len(g.s.players[0].hand) == bonus


def test_2_reserve_discarded_at_cleanup_and_discard_reshuffled_when_deck_runs_out():
    g, d = game([unit(50, 20)], [unit(50, 70)], ["5H", "9H"], ["5C"], [1] * 6, experience=("regular", "green"),
                turns=2)
    d.assign("5H", 0).assign("5C", g.C)
    d.select(0).no_target().select(g.C).no_target().stay().stay().finish()
    disc = only(g.events, "discard", player=0)[0]
    assert disc["reserve"] == 1
    assert g.deck.id_of("9H") in g.s.players[0].discard and g.deck.id_of("5H") in g.s.players[0].discard
    # Empty deck: the discard pile is reshuffled into a new deck.
    tough = dict(figures=5, dice=("d12", "d12", "d12"), armor=10)
    g2 = Game(mini_scenario([unit(50, 20, **tough)], [unit(50, 70, **tough)], turns=20,
                            experience=("elite", "elite")), 3)
    from atomic_africa.reference.game.agents import RandomAgent, play
    play(g2, [RandomAgent(1), RandomAgent(2)])
    assert only(g2.events, "reshuffle")
    g2.check_invariants()


def test_2_suppressed_units_only_defensive_cards_or_joker():
    g, d = game([unit(50, 20, markers=1)], [unit(50, 70)], ["5H", "6H", "7S"], ["5C"], [],
                experience=("veteran", "green"))
    legal = {g.space.decode(a)[1] for a in g.legal_actions() if a != g.space.end_orders}
    assert legal == {g.deck.id_of("7S")}
    with pytest.raises(IllegalActionError, match="suppressed"):
        d.assign("5H", 0)
    # With only offensive cards the suppressed unit gets no orders.
    g, d = game([unit(50, 20, markers=1)], [unit(50, 70)], ["5H", "6H"], ["5C"], [],
                experience=("regular", "green"))
    assert g.current_player == 1  # Blue's orders phase ended at once
    assert g.units[0].card == NO_CARD


def test_2_suppressed_joker_must_choose_defensive_posture():
    g, d = duel("Joker2", "5C", [1] * 6, blue=unit(50, 20, markers=1))
    d.select(0)
    assert {g.space.decode(a)[2] for a in g.legal_actions()} == {Posture.DEFENSIVE}


# ---------------------------------------------------------------- 3. Table 5
@pytest.mark.parametrize("card,action", [("5H", Action.BASIC), ("5C", Action.BASIC), ("QH", Action.MASS_FIRE),
                                         ("QC", Action.DIG_IN), ("KS", Action.MASS_FIRE)])
def test_3_table5_scores_from_three_dice(card, action):
    g, d = duel(card, "5C", [3, 9, 5, 1, 1, 1])
    d.select(0)
    if g.stage == "DECLARE_ACTION":
        d.declare(action)
    d.target(g.C).select(g.C).no_target()
    while g.stage == "MOVE":
        d.stay()
    r = d.events("roll")[0]
    exp = aa.action_scores([3, 9, 5], g.deck.posture(g.deck.id_of(card)), action)
    assert (tuple(r["attacks"]), r["defense"]) == (exp.attacks, exp.defense)
    low, mid, high = 3, 5, 9
    if action == Action.BASIC and card.endswith("H"):
        assert (r["defense"], r["attacks"]) == (low, [mid + high])
    if action == Action.DIG_IN:   # defensive Dig-in: Attack = low, Defense = mid + high
        assert (r["attacks"], r["defense"]) == ([low], mid + high)


def test_3_sprint_bonus_is_the_highest_face():
    g, d = duel("QH", "5C", [2, 7, 4, 1, 1, 1], blue=unit(50, 20, kind="light_infantry"))
    d.select(0).declare(Action.SPRINT).no_target().select(g.C).no_target()
    d.move(0, 0).stay()
    assert d.events("roll")[0]["sprint_bonus"] == 7
    assert g.stage == "SPRINT_MOVE"


def test_3_split_fire_declared_target_gets_the_higher_attack():
    g, d = game([unit(50, 20)], [unit(40, 60), unit(60, 60)], ["QH"], ["5C", "6C"], [2, 9, 6, 1, 1, 1, 1, 1, 1])
    d.assign("QH", 0).assign("5C", g.C).assign("6C", g.C + 1)
    d.select(0).declare(Action.SPLIT_FIRE).target(g.C + 1).target(g.C)
    d.select(g.C).no_target().stay()
    fire = {e["target"]: e["attack"] for e in d.events("fire")}
    assert fire == {g.C + 1: 9, g.C: 6}


# ---------------------------------------------------------------- 4. Special actions
def test_4_infantry_only_and_light_infantry_vehicle_only_specials():
    g, d = duel("QH", "5C", [1] * 6, blue=unit(50, 20, kind="vehicle", figures=1, armor=4))
    d.select(0)
    assert g.stage == "DECLARE_TARGET" and d.events("declare")[0]["action"] == "SPRINT"  # only option
    g, d = duel("QH", "5C", [1] * 6, blue=unit(50, 20, kind="infantry", spotter=True),
                assets=[{"dice": ["d8", "d8", "d8"], "ap": 0, "blast_radius_cm": 5.0}])
    d.select(0)
    acts = {g.space.decode(a)[1] for a in g.legal_actions()}
    assert acts == {Action.DIG_IN, Action.MASS_FIRE, Action.CALL_FOR_FIRE}
    assert Action.SPRINT not in acts


@pytest.mark.parametrize("action", [Action.DIG_IN, Action.MASS_FIRE, Action.HEAVY_WEAPON])
def test_4_no_movement_for_static_special_actions(action):
    g, d = duel("QH", "5C", [1] * 6, blue=unit(50, 20, heavy_weapon={"dispersed": -1}))
    d.select(0).declare(action).target(g.C).select(g.C).no_target()
    assert g.stage == "MOVE" and g.s.decl_uid == g.C   # only the reacting unit places figures
    d.stay()
    assert not only(g.events, "move", unit=0) and (g.units[0].x, g.units[0].y) == (50, 20)


def test_4_heavy_weapon_target_types_and_ap():
    # AP -2 on a point target: armor 5 becomes 3 (seed example).
    blue = unit(50, 20, heavy_weapon={"point": -2})
    red = unit(50, 50, kind="vehicle", figures=1, armor=5)
    g, d = duel("KH", "5C", [9, 9, 1, 1, 1, 1], blue=blue, red=red)
    d.select(0).declare(Action.HEAVY_WEAPON, Posture.OFFENSIVE).target(g.C).select(g.C).no_target().stay()
    f = d.events("fire")[0]
    # Attack 18, band 2, Defense 1: 15 over the damage threshold / (5 - 2) = 5 wounds, 1 marker.
    assert (f["attack"], f["range"], f["defense"], f["ap"]) == (18, 2, 1, -2)
    assert (f["markers"], f["wounds"]) == (1, 5)
    # A dispersed-only weapon may not fire at a vehicle.
    g, d = duel("KH", "5C", [1] * 6, blue=unit(50, 20, heavy_weapon={"dispersed": -1}), red=red)
    d.select(0)
    assert Action.HEAVY_WEAPON not in {g.space.decode(a)[1] for a in g.legal_actions()}


def test_4_effective_armor_never_below_floor():
    blue = unit(50, 20, heavy_weapon={"dispersed": -5})
    g, d = duel("KH", "5C", [9, 9, 1, 1, 1, 1], blue=blue, red=unit(50, 50, armor=2))
    d.select(0).declare(Action.HEAVY_WEAPON).target(g.C).select(g.C).no_target().stay()
    f = d.events("fire")[0]
    assert f["wounds"] == (18 - 2 - 1) // RULES.fire.armor_floor


def test_4_rally_fewer_markers_rule_commander_exempt_and_success_test():
    blue = [unit(50, 20, markers=2), unit(60, 20, markers=3), unit(70, 20, markers=1)]
    g, d = game(blue, [unit(50, 100)], ["KS", "QS", "5S"], ["5C"], [6, 6, 6, 1, 1, 1])
    d.assign("KS", 0).assign("QS", 1).assign("5S", 2).assign("5C", g.C)
    d.select(0).declare(Action.RALLY)
    # slot 0 (2 markers) may rally itself or slot 1 (3 markers), not slot 2 (1 marker)
    assert set(g.legal_actions()) == {g.space.target(0), g.space.target(1)}
    d.target(1).select(g.C).no_target().stay()
    r = d.events("rally")[0]
    # Rally (defensive: low + mid = 12) > range 1 + 3 markers
    assert (r["rally"], r["range"], r["markers"], r["success"]) == (12, 1, 3, True)
    assert g.units[1].markers == 2
    # The force commander may rally a unit with fewer markers.
    blue = [unit(50, 20, markers=3, commander=True), unit(60, 20, markers=1)]
    g, d = game(blue, [unit(50, 100)], ["KS", "5S"], ["5C"], [1] * 6)
    d.assign("KS", 0).assign("5S", 1).assign("5C", g.C)
    d.select(0).declare(Action.RALLY)
    assert g.space.target(1) in g.legal_actions()


def test_4_rally_self_range_zero_and_failure():
    g, d = duel("KS", "5C", [1, 2, 2, 1, 1, 1], blue=unit(50, 20, markers=2))
    d.select(0).declare(Action.RALLY).target(0).select(g.C).no_target().stay()
    r = d.events("rally")[0]
    # Rally 3 (1 + 2) is not above range 0 + 2 markers? it is: 3 > 2.
    assert (r["range"], r["success"]) == (RULES.rally.self_range, True)
    g, d = duel("KS", "5C", [1, 1, 1, 1, 1, 1], blue=unit(50, 20, markers=2))
    d.select(0).declare(Action.RALLY).target(0).select(g.C).no_target().stay()
    assert d.events("rally")[0]["success"] is False


def test_4_rally_needs_los_or_comms_with_range_penalty():
    blue = [unit(50, 20, markers=0), unit(90, 20, markers=2)]
    block = wall(68, 10, 72, 30)
    g, d = game(blue, [unit(50, 100)], ["KS", "5S"], ["5C"], [6, 6, 6, 1, 1, 1], terrain=[block])
    d.assign("KS", 0).assign("5S", 1).assign("5C", g.C)
    d.select(0)
    assert Action.RALLY not in {g.space.decode(a)[1] for a in g.legal_actions() if g.space.decode(a)[0] == "DECLARE"}
    blue[0]["comms"] = True
    g, d = game(blue, [unit(50, 100)], ["KS", "5S"], ["5C"], [6, 6, 6, 1, 1, 1], terrain=[block])
    d.assign("KS", 0).assign("5S", 1).assign("5C", g.C)
    d.select(0).declare(Action.RALLY).target(1).select(g.C).no_target().stay()
    r = d.events("rally")[0]
    assert r["los"] is False and r["range"] == aa.range_band(40.0) + RULES.rally.comms_range_penalty


def test_4_call_for_fire_los_scatter_and_blast():
    assets = [{"name": "mortar", "dice": ["d10", "d10", "d10"], "ap": -1, "blast_radius_cm": 6.0}]
    blue = unit(50, 20, spotter=True)
    red = [unit(50, 90), unit(54, 90), unit(120, 90)]
    # Spotter defensive: Spotting = low + mid = 2 + 3 = 5; clock 3, distance 6: offset 1 increment east.
    dice = [2, 8, 3, 1, 1, 1, 3, 6, 8, 9, 7, 1, 1, 1, 1, 1, 1]
    g, d = game([blue], red, ["KS"], ["5C", "6C", "7C"], dice, assets=assets)
    d.assign("KS", 0).assign("5C", g.C).assign("6C", g.C + 1).assign("7C", g.C + 2)
    d.select(0).declare(Action.CALL_FOR_FIRE).target(g.C)
    d.select(g.C).no_target().stay()
    sc = d.events("scatter")[0]
    assert (sc["clock"], sc["distance"], sc["spotting"], sc["direct_hit"]) == (3, 6, 5, False)
    assert sc["impact"] == pytest.approx([50 + RULES.call_for_fire.scatter_increment_cm, 90])
    sup = d.events("support_roll")[0]
    assert sup["attack"] == 17
    hit = {e["target"] for e in d.events("fire")}
    assert hit == {g.C, g.C + 1}               # the far unit is outside the blast
    assert all(e["ap"] == -1 and e["range"] == RULES.call_for_fire.support_range_band for e in d.events("fire"))
    # The spotter needs LOS to the target point.
    g, d = game([blue], [unit(50, 90)], ["KS"], ["5C"], [], assets=assets, terrain=[wall(30, 50, 70, 55)])
    d.assign("KS", 0).assign("5C", g.C).select(0)
    assert Action.CALL_FOR_FIRE not in {g.space.decode(a)[1] for a in g.legal_actions()}


def test_4_call_for_fire_direct_hit_when_distance_below_spotting():
    assets = [{"dice": ["d10", "d10", "d10"], "ap": 0, "blast_radius_cm": 3.0}]
    g, d = game([unit(50, 20, spotter=True)], [unit(50, 90)], ["KH"], ["5C"],
                [5, 5, 1, 1, 1, 1, 7, 3, 5, 5, 5], assets=assets)
    d.assign("KH", 0).assign("5C", g.C)
    d.select(0).declare(Action.CALL_FOR_FIRE).target(g.C).select(g.C).no_target().stay()
    sc = d.events("scatter")[0]
    assert sc["direct_hit"] and sc["impact"] == [50, 90]


def test_4_sprint_places_destination_as_value_10_then_moves_bonus_increments():
    g, d = duel("QH", "5C", [2, 7, 4, 1, 1, 1], blue=unit(50, 20, kind="light_infantry"))
    d.select(0).declare(Action.SPRINT).no_target().select(g.C).no_target()
    d.move(0).stay()    # full value-10 move north: 45 cm
    assert d.events("move")[0]["dest"] == pytest.approx([50, 20 + 10 * 4.5])
    assert set(g.legal_actions()) == {g.space.move(k, g.space.n_fracs - 1) for k in range(12)}
    d.move(3)           # sprint bonus 7 x 4.5 cm east, after fire
    assert d.events("sprint")[0]["dest"] == pytest.approx([50 + 7 * 4.5, 65])
    assert (g.units[0].x, g.units[0].y) == pytest.approx((81.5, 65))


# ---------------------------------------------------------------- 5. Activation, movement, fire
def test_5_turn_is_orders_then_activations_until_no_orders_then_cleanup():
    g, d = duel("5H", "5C", [1] * 6 + [1], turns=2)
    types = [e["type"] for e in g.events]
    assert types.index("draw") < types.index("assign")
    d.select(0).no_target().select(g.C).no_target().stay().stay().finish()
    types = [e["type"] for e in g.events]
    assert types.index("roll") < types.index("discard") < types.index("turn_end")
    assert g.s.turn == 2 and g.stage == "ORDERS"


def test_5_activating_and_reacting_players_alternate():
    blue = [unit(50, 20), unit(100, 20)]
    red = [unit(50, 90), unit(100, 90)]
    g, d = game(blue, red, ["5H", "6H"], ["5C", "6C"], [1] * 12)
    d.assign("5H", 0).assign("6H", 1).assign("5C", g.C).assign("6C", g.C + 1)
    assert g.current_player == 0
    d.select(0).no_target()
    assert g.stage == "REACT" and g.current_player == 1
    d.select(g.C).no_target().stay().stay()
    assert g.stage == "ACTIVATE" and g.current_player == 1
    d.select(g.C + 1).no_target().select(1).no_target().stay().stay().finish()
    assert g.is_over


def test_5_movement_start_in_transit_destination():
    g, d = duel("8H", "5C", [1] * 6)
    d.select(0).no_target().select(g.C).no_target()
    d.move(3, 1)  # east, half of 8 x 4.5 = 18 cm
    mv = d.events("move")[0]
    assert mv["dest"] == pytest.approx([68, 20]) and mv["in_transit"] == pytest.approx([59, 20])
    d.stay()
    assert (g.units[0].x, g.units[0].y) == pytest.approx((68, 20))


def test_5_destination_at_most_max_movement_and_on_the_table():
    g, d = duel("10H", "5C", [1] * 6, blue=unit(5, 20))
    d.select(0).no_target().select(g.C).no_target()
    d.move(9)  # west, 45 cm from x = 5: stops at the table edge
    assert d.events("move")[0]["dest"] == pytest.approx([0, 20])


def test_5_predominant_cover_light_no_heavy_seed_example():
    terrain = [circle(50, 50, 5, "light"), circle(95, 50, 5, "heavy")]
    g, d = duel("5H", "10C", [9, 9, 1, 1, 1, 1], blue=unit(50, 10), red=unit(50, 50), terrain=terrain)
    d.select(0).target(g.C).select(g.C).no_target()
    d.stay().move(3)   # Red: Start in Light, In-transit (72.5, 50) in the open, Destination in Heavy
    assert d.events("fire")[0]["cover"] == int(aa.Cover.LIGHT)


def test_5_range_between_in_transit_points_with_the_stick():
    g, d = duel("10H", "5C", [1] * 6, blue=unit(50, 10), red=unit(50, 100))
    d.select(0).target(g.C).select(g.C).no_target()
    d.move(0).stay()  # Blue In-transit at y = 32.5: 67.5 cm from Red: band 4
    assert d.events("fire")[0]["range"] == aa.range_band(67.5) == 4


def test_5_fire_seed_example_13_3_2_light_cover():
    # Attack 13 at range 3 against Defense 2, armor 2, Light cover: 2 markers and 2 wounds.
    g, d = duel("5H", "AC", [1, 6, 7, 2, 1, 1], blue=unit(50, 20), red=unit(50, 70),
                terrain=[circle(50, 70, 5, LIGHT)])
    d.select(0).target(g.C).select(g.C).target(0).stay().stay()
    f = only(g.events, "fire", target=g.C)[0]
    assert (f["attack"], f["range"], f["defense"], f["armor"], f["cover"]) == (13, 3, 2, 2, 1)
    res = only(g.events, "fire_result", target=g.C)[0]
    assert (res["markers"], res["wounds"]) == (2, 2)
    back = only(g.events, "fire", target=0)[0]
    assert back["attack"] == 2 and back["markers"] == 0   # not above the range threshold


def test_5_fire_thresholds_no_effect_one_and_two_markers():
    for faces, expect in (([1, 1, 2], 0), ([1, 2, 2], 1), ([1, 2, 3], 2)):
        g, d = duel("5H", "AC", faces + [1, 1, 1], blue=unit(50, 20), red=unit(50, 70))
        d.select(0).target(g.C).select(g.C).no_target().stay().stay()
        # range 3, Defense 1: Attack 3 no effect, 4 one marker, 5 above the damage threshold
        assert only(g.events, "fire", target=g.C)[0]["markers"] == expect, faces


def test_5_vehicle_markers_and_cap_of_one_per_turn():
    veh = unit(50, 40, kind="vehicle", figures=1, armor=10)
    # band 3, Defense 1: Attack 4 beats only the range threshold
    g, d = duel("5H", "AC", [1, 2, 2, 1, 1, 1], red=dict(veh, position=[50, 70]))
    d.select(0).target(g.C).select(g.C).no_target().stay().stay()
    assert only(g.events, "fire", target=g.C)[0]["markers"] == 0   # range only: no marker
    blue = [unit(40, 20), unit(60, 20)]
    g, d = game(blue, [veh], ["QH", "KH"], ["AC"], [9, 9, 1, 1, 1, 1, 9, 9, 1, 1, 1, 1],
                experience=("green", "regular"), rules=NO_SPENT)
    d.assign("QH", 0).assign("KH", 1).assign("AC", g.C)
    d.select(0).declare(Action.MASS_FIRE).target(g.C).select(g.C).no_target().stay()
    assert only(g.events, "fire_result", target=g.C)[0]["markers"] == 1   # two attacks, capped at 1
    d.select(1).declare(Action.MASS_FIRE).target(g.C)
    assert only(g.events, "fire_result", target=g.C)[1]["markers"] == 0  # per-turn cap already reached


def test_5_infantry_at_most_two_new_markers_per_turn():
    blue = [unit(40, 20), unit(60, 20)]
    g, d = game(blue, [unit(50, 40)], ["QH", "KH"], ["AC"], [9, 9, 1, 1, 1, 1, 9, 9, 1, 1, 1, 1],
                rules=NO_SPENT)
    d.assign("QH", 0).assign("KH", 1).assign("AC", g.C)
    d.select(0).declare(Action.MASS_FIRE).target(g.C).select(g.C).no_target().stay()
    assert only(g.events, "fire_result", target=g.C)[0]["markers"] == 2
    d.select(1).declare(Action.MASS_FIRE).target(g.C)
    res = only(g.events, "fire_result", target=g.C)[1]
    assert res["markers"] == 0 and res["wounds"] > 0   # wounds are not capped
    assert res["total_markers"] == 2


def test_5_merging_adds_figures_markers_and_wounds():
    blue = [unit(50, 20, figures=4, markers=1, wounds=1), unit(50 + 4.5, 20, figures=5, markers=1, wounds=0)]
    g, d = game(blue, [unit(50, 100)], ["AS", "2S"], ["5C"], [1] * 12)
    d.assign("AS", 0).assign("2S", 1).assign("5C", g.C)
    d.select(0).no_target().select(g.C).no_target().move(3).stay()
    m = d.events("merge")[0]
    assert (m["unit"], m["into"]) == (0, 1)
    u = g.units[1]
    assert (u.figures, u.markers, u.wounds) == (9, 2, 1) and not g.units[0].alive
    assert g.deck.id_of("AS") in g.s.players[0].discard
    g.check_invariants()


# ---------------------------------------------------------------- 6. Confusion
def _confusion_game(red_top, dice, red_hand_extra=(), red_markers=1, red_kind="infantry"):
    red = unit(50, 60, markers=red_markers, kind=red_kind, figures=10 if red_kind != "vehicle" else 1)
    exp = ("green", "regular" if red_hand_extra else "green")
    g, d = game([unit(50, 20)], [red], ["5H"], list(red_hand_extra) + list(red_top), dice, experience=exp)
    d.assign("5H", 0)
    return g, d


def test_2_orders_phase_gives_a_card_to_every_unit_that_may_take_one():
    """RULES.md section 2 with ``orders.reserve_by_choice = false``: a Joker must not go to the
    unsuppressed unit while the suppressed one could take nothing else (hand: Joker1 and AH; U
    suppressed, V not), and the player may not end its orders early. (With the default, the
    Reserve by choice, both are legal: tests/test_reserve_by_choice.py.)"""
    rules = aa.Rules.default().replace(orders={"reserve_by_choice": False})
    g = Game(mini_scenario([unit(50, 20, markers=1), unit(90, 20)], [unit(50, 60)]), 0, rules,
             source=scripted(["Joker1", "AH"], ["5C"], [1] * 12, rules=rules))
    d = Driver(g)
    assert g.stage == "ORDERS" and g.current_player == 0
    assert g.space.end_orders not in g.legal_actions()
    legal = {g.describe_action(a) for a in g.legal_actions()}
    assert any("Joker1" in x and "units[0]" in x for x in legal)
    assert not any("Joker1" in x and "units[1]" in x for x in legal)
    d.assign("Joker1", 0).assign("AH", 1)
    assert g.units[0].card != NO_CARD and g.units[1].card != NO_CARD


def test_6_forced_reaction_takes_a_legal_reserve_card_first():
    # Red's only unit is suppressed; its hand holds 9H (illegal) and ... the Reserve gets 4S later?
    red = unit(50, 60, markers=1)
    blue = [unit(50, 20), unit(90, 20)]
    g, d = game(blue, [red, unit(120, 100)], ["5H", "6H"], ["9H", "7H", "8S"], [1] * 20,
                experience=("green", "regular"))
    d.assign("5H", 0).assign("6H", 1)
    # Red: 3 cards, 2 units; the suppressed unit may only take 8S; the other takes 9H; 7H is the Reserve.
    d.assign("8S", g.C).assign("9H", g.C + 1)
    d.select(0).target(g.C)
    assert g.stage == "REACT"                   # Red still has ordered units: no forced reaction
    # R0 (suppressed) gets no orders; the commander rallies it; then, targeted with no ordered Red
    # unit left, it must take a now-legal card from the Reserve.
    red = [unit(50, 60, markers=1), unit(90, 60, commander=True)]
    # (Red holds no defensive card, so nothing can be given to the suppressed R1: RULES.md section 2.)
    g, d = game(blue, red, ["5H", "6H"], ["9H", "KH", "7H"], [1, 1, 1, 5, 5, 5, 1, 1, 1, 1, 1, 1],
                experience=("green", "regular"))
    d.assign("5H", 0).assign("6H", 1).assign("KH", g.C + 1)
    assert g.units[g.C].card == NO_CARD and g.stage == "ACTIVATE"
    d.select(0).no_target().select(g.C + 1).declare(Action.RALLY).target(g.C).stay()
    assert d.events("rally")[0]["success"] and g.units[g.C].markers == 0
    d.select(1).target(g.C)
    assert g.stage == "RESERVE_PICK" and g.current_player == 1
    assert set(g.legal_actions()) == {g.space.assign(g.deck.id_of(c), 0) for c in ("9H", "7H")}
    d.assign("7H", g.C)
    assert d.events("reserve_card")[0]["card"] == "7H" and not g.units[g.C].confused


def test_6_confusion_draw_show_discard_until_legal_random_direction_full_move():
    # Red's suppressed unit has no orders (hand: 9H only). Targeted by Blue, it must react:
    # the Reserve has no legal card, so Red draws: 2H (illegal, shown and discarded), then 4C.
    g, d = game([unit(50, 20)], [unit(50, 60, markers=1)], ["5H"], ["9H", "2H", "4C"],
                [3, 1, 1, 1, 1, 1, 1, 1], )
    d.assign("5H", 0)
    assert g.units[g.C].card == NO_CARD and g.current_player == 0
    d.select(0).target(g.C)
    shown = d.events("confused_draw")
    assert [e["card"] for e in shown] == ["2H"] and g.deck.id_of("2H") in g.s.players[1].discard
    conf = d.events("confused")[0]
    assert conf["card"] == "4C" and conf["unit"] == g.C
    # Blue places first, then the confused unit's random direction (d12 face 3 = east) at full move.
    d.no_target() if g.stage == "DECLARE_TARGET" else None
    d.stay()
    cd = d.events("confused_direction")[0]
    assert cd["face"] == 3
    mv = only(g.events, "move", unit=g.C)[0]
    assert mv["dest"] == pytest.approx([50 + 4 * 4.5, 60]) and mv["in_transit"] == pytest.approx([59, 60])


def test_6_confused_infantry_revealing_a_face_card_must_dig_in():
    g, d = game([unit(50, 20)], [unit(50, 60, markers=1)], ["5H"], ["9H", "QC"], [1] * 6)
    d.assign("5H", 0).select(0).target(g.C)
    assert only(g.events, "declare", unit=g.C)[0]["action"] == "DIG_IN"


def test_6_confused_vehicle_revealing_a_face_card_must_sprint():
    veh = unit(50, 60, kind="vehicle", figures=1, armor=4, markers=1)
    g, d = game([unit(50, 20)], [veh], ["5H"], ["9H", "KS"], [1] * 6 + [6, 6])
    d.assign("5H", 0).select(0).target(g.C)
    assert only(g.events, "declare", unit=g.C)[0]["action"] == "SPRINT"


def test_6_confused_joker_still_seizes_initiative_and_chooses_any_action():
    g, d = game([unit(50, 20), unit(100, 20)], [unit(50, 60, markers=1)], ["5H", "6H"], ["9H", "Joker1"],
                [1] * 6 + [3] + [1] * 6)
    d.assign("5H", 0).assign("6H", 1).select(0).target(g.C)
    assert g.stage == "DECLARE_ACTION" and g.current_player == 1
    assert {g.space.decode(a)[2] for a in g.legal_actions()} == {Posture.DEFENSIVE}
    d.declare(Action.DIG_IN, Posture.DEFENSIVE).target(0).stay()
    assert d.events("initiative")[0]["player"] == 1


def test_6_no_forced_reaction_when_not_targeted():
    g, d = game([unit(50, 20)], [unit(50, 60, markers=1)], ["5H"], ["9H"], [1] * 3)
    d.assign("5H", 0).select(0).no_target()
    assert d.events("no_reaction") and not d.events("confused")


# ---------------------------------------------------------------- 7. Clean-up
def test_7_eleven_figure_split_markers_and_wounds_divided():
    # 11 figures, 3 markers, 3 wounds (d12 Morale: not shattered) -> 6 figures/2/2 and 5/1/1.
    blue = unit(50, 20, figures=11, markers=3, wounds=3, dice=("d10", "d10", "d12"))
    g, d = duel("5S", "5C", [1] * 6 + [1, 1], blue=blue, turns=2)
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    assert g.stage == "SPLIT" and g.current_player == 0
    assert g.space.split(0) in g.legal_actions()
    d.split(0)
    s = d.events("split")[0]
    assert s["figures"] == [6, 5] and s["markers"] == [2, 1] and s["wounds"] == [2, 1] and s["voluntary"]
    g.check_invariants()


def test_7_no_split_without_a_free_slot():
    """A split needs a slot for its new half: with the side's slots all taken it would change nothing,
    so it is not legal (every legal action makes progress; the slot capacity normally leaves one)."""
    blue = unit(50, 20, figures=11, dice=("d10", "d10", "d12"))
    g, d = duel("5S", "5C", [1] * 6 + [1, 1], blue=blue, turns=2)
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    assert g.stage == "SPLIT" and g.space.split(0) in g.legal_actions()
    for u in g.s.units[:g.C]:
        u.alive = True
    assert g.legal_actions() == [g.space.end_splits]


def test_7_units_below_six_figures_cannot_split_voluntarily():
    g, d = duel("5S", "5C", [1] * 6, blue=unit(50, 20, figures=5), red=unit(50, 70, figures=5))
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    assert not d.events("split") and g.is_over


def test_7_morale_roll_above_markers_removes_one():
    blue = [unit(50, 20, markers=2), unit(90, 20, markers=2)]
    g, d = game(blue, [unit(50, 100, figures=5)], ["5S", "6S"], ["5C"], [1] * 9 + [3, 2])
    d.assign("5S", 0).assign("6S", 1).assign("5C", g.C)
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    d.select(1).no_target().stay()
    d.end_splits()
    mor = d.events("morale")
    assert [(e["unit"], e["face"], e["success"]) for e in mor] == [(0, 3, True), (1, 2, False)]
    assert (g.units[0].markers, g.units[1].markers) == (1, 2)


def test_7_unused_cards_discarded_and_victory_by_figures_at_turn_limit():
    g, d = duel("5H", "5C", [1] * 6, blue=unit(50, 20, figures=5), red=unit(50, 70, figures=4))
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    assert g.is_over and g.result.winner == 0 and g.result.figures == (5, 4)
    assert all(u.card == NO_CARD for u in g.units)
    g.check_invariants()
    g, d = duel("5H", "5C", [1] * 6, blue=unit(50, 20, figures=4), red=unit(50, 70, figures=4))
    d.select(0).no_target().select(g.C).no_target().stay().stay()
    assert g.result.winner is None and "equal" in g.result.reason


def test_7_side_without_units_loses():
    g, d = duel("5H", "5C", [1, 1, 4, 1, 1, 1], blue=unit(50, 20, figures=4, wounds=3), turns=5)
    d.select(0).no_target().select(g.C).no_target().stay().stay().finish()
    assert g.is_over and g.result.winner == 1 and g.s.turn == 1


# ---------------------------------------------------------------- further clauses
def test_5_activating_player_places_movement_first_then_reacting():
    g, d = duel("5H", "6C", [1] * 6)
    d.select(0).no_target().select(g.C).no_target()
    assert g.stage == "MOVE" and g.s.decl_uid == 0 and g.current_player == 0
    d.move(0)
    assert g.stage == "MOVE" and g.s.decl_uid == g.C and g.current_player == 1
    d.move(6)
    assert [e["unit"] for e in d.events("move")] == [0, g.C]


def test_5_fire_is_resolved_simultaneously():
    # Both units hit each other; the wounds of this phase do not shift the dice already rolled,
    # and both results use the Defense rolled in the same phase.
    g, d = duel("5H", "5D", [9, 9, 1, 9, 9, 1] + [1] * 8, blue=unit(50, 20), red=unit(50, 40))
    d.select(0).target(g.C).select(g.C).target(0).stay().stay()
    res = {e["target"]: (e["markers"], e["wounds"]) for e in d.events("fire_result")}
    assert res[0] == res[g.C] == (2, (18 - 1 - 1) // 2)
    assert [e["dice"] for e in d.events("roll")] == [[10, 10, 8], [10, 10, 8]]


def test_5_split_fire_attacks_two_distinct_targets():
    g, d = game([unit(50, 20)], [unit(40, 60), unit(60, 60)], ["QH"], ["5C", "6C"], [1] * 9)
    d.assign("QH", 0).assign("5C", g.C).assign("6C", g.C + 1)
    d.select(0).declare(Action.SPLIT_FIRE).target(g.C)
    assert set(g.legal_actions()) == {g.space.target(g.C + 1)}


def test_4_call_for_fire_chooses_among_several_assets():
    assets = [{"name": "mortar", "dice": ["d8", "d8", "d8"], "ap": 0, "blast_radius_cm": 5.0},
              {"name": "guns", "dice": ["d12", "d12", "d12"], "ap": -2, "blast_radius_cm": 12.0}]
    g, d = game([unit(50, 20, spotter=True)], [unit(50, 90)], ["KH"], ["5C"],
                [5, 5, 5, 1, 1, 1, 7, 1, 12, 12, 12, 1, 1, 1], assets=assets)
    d.assign("KH", 0).assign("5C", g.C)
    d.select(0).declare(Action.CALL_FOR_FIRE)
    assert g.stage == "DECLARE_ASSET" and g.legal_actions() == [g.space.asset(0), g.space.asset(1)]
    d.asset(1).target(g.C).select(g.C).no_target().stay()
    assert d.events("scatter")[0]["asset"] == "guns" and d.events("support_roll")[0]["attack"] == 24
    assert only(g.events, "fire", target=g.C)[0]["ap"] == -2


def test_defaults_come_from_the_rules_data():
    # Experience bonus, directions and Joker initiative are read from Rules, not literals.
    rules = RULES.replace(orders={"experience_bonus": {"green": 2, "regular": 1, "veteran": 2, "elite": 3},
                                  "joker_takes_initiative": False},
                          movement={"directions": 8, "distance_fractions": [0.5, 1.0]})
    sc = mini_scenario([unit(50, 20)], [unit(50, 70)])
    g = Game(sc, 0, rules=rules, source=scripted(["Joker1"], ["5C"], [1] * 6))
    assert len(only(g.events, "draw", player=0)[0]["cards"]) == 3
    d = Driver(g)
    d.assign("Joker1", 0).assign("5C", g.C).select(0).declare(Action.BASIC, Posture.OFFENSIVE).no_target()
    d.select(g.C).no_target()
    assert g.space.size["MOVE"] == 8 * 2
    d.move(2)   # 8 directions: direction 2 is due east (90 degrees), full Joker move of 10 x 4.5 cm
    assert d.events("move")[0]["dest"] == pytest.approx([95, 20])
    d.stay().finish()
    assert not d.events("initiative")
