"""The Artillery Request order, clause by clause of the Russian seed 003 (O18 .. O18.2.3.1).

Geometry used below (odd-q, columns B, D, F... lower): E3's neighbours are E2 (N), F2 (NE), F3 (SE),
E4 (S), D3 (SW), D2 (NW). The spotter stands in E7; the round in E3 is 4 hexes away with E6, E5, E4
between, E5 hindering: Targeting threshold 4 + 1 = 5.
"""
import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import atomic_africa as aa
from atomic_africa import reference as ref
from atomic_africa.artillery import (
    Battlefield, FateDeck, HexMap, Leader, Option, OrderError, Radio, Unit, artillery_request,
    legal_options, parse_hex,
)

H = parse_hex


def battle(top=(), *, radio_broken=False, smoke_radio=False, leader_broken=False,
           leader_activated=False, extra_units=()):
    hm = HexMap(10, 8, blocking=["B2", "H6"], hindering=["E5"], impassable=["G3"])
    units = [
        Leader("Lt. Able", "Allies", "E7", morale=8, broken=leader_broken, activated=leader_activated),
        Unit("1st Squad", "Allies", "E6", morale=7),
        Unit("Rifle 1", "Axis", "E3", morale=7, cover=1),
        Unit("MG", "Axis", "F3", morale=6, broken=True),
        Leader("Hptm. Baker", "Axis", "H5", morale=9),
        *extra_units,
    ]
    radios = [Radio("Allies", 10, smoke=smoke_radio, broken=radio_broken, name="SCR-300"),
              Radio("Axis", 12, name="Feldfunk")]
    decks = {"Allies": FateDeck.stacked(top, seed=1), "Axis": FateDeck(2)}
    return Battlefield(hm, units, radios, decks)


def unit(state, name):
    return next(u for u in state.units if u.name == name)


def fire(state, target="E3", **kw):
    return artillery_request(state, "Allies", "fire_for_effect", spotting_round=target, **kw)


def assert_rejected(state, match, call, error=ValueError):
    """The call raises a clear error and leaves every state object deep-equal to before."""
    before = copy.deepcopy(state)
    with pytest.raises(error, match=match):
        call()
    assert state == before
    assert state.decks["Allies"] == before.decks["Allies"]
    assert all(a == b for a, b in zip(state.units, before.units))


# -- O18: the choice and its preconditions ----------------------------------------------------------
def test_O18_choice_offers_the_options_whose_conditions_hold():
    assert legal_options(battle(), "Allies") == [Option.FIRE_FOR_EFFECT]
    assert legal_options(battle(radio_broken=True), "Allies") == [Option.CONTACT_BATTERY]
    assert legal_options(battle(leader_activated=True), "Allies") == []
    assert legal_options(battle(leader_broken=True), "Allies") == []
    s = battle(radio_broken=True)
    s.radios.append(Radio("Allies", 9, name="spare"))
    assert legal_options(s, "Allies") == [Option.CONTACT_BATTERY, Option.FIRE_FOR_EFFECT]


def test_O18_neither_option_possible_is_a_clear_error_without_state_change():
    s = battle(leader_activated=True)
    assert_rejected(s, "cannot be given", lambda: fire(s))
    assert_rejected(s, "cannot be given",
                    lambda: artillery_request(s, "Allies", "contact_battery"))
    s = battle(leader_broken=True)
    assert_rejected(s, "cannot be given", lambda: fire(s))
    assert_rejected(s, "cannot be given", lambda: artillery_request(s, "Nobody", "fire_for_effect"))


def test_O18_contact_battery_only_with_a_broken_radio():
    s = battle()
    assert_rejected(s, "Contact Battery needs a broken Radio",
                    lambda: artillery_request(s, "Allies", Option.CONTACT_BATTERY), OrderError)


def test_O18_fire_for_effect_only_with_an_intact_radio():
    s = battle(radio_broken=True)
    assert_rejected(s, "Fire for Effect needs an intact Radio", lambda: fire(s))


def test_O18_fire_for_effect_only_with_an_unbroken_leader_not_yet_activated():
    s = battle(extra_units=[Leader("Sgt. Dog", "Allies", "C7", morale=7, broken=True),
                            Leader("Cpl. Easy", "Allies", "D7", morale=7, activated=True)])
    assert_rejected(s, "not an unbroken Leader", lambda: fire(s, leader=unit(s, "Sgt. Dog")))
    assert_rejected(s, "not an unbroken Leader", lambda: fire(s, leader=unit(s, "Cpl. Easy")))
    assert_rejected(s, "not an unbroken Leader", lambda: fire(s, leader=unit(s, "Hptm. Baker")))
    assert_rejected(s, "not an unbroken Leader", lambda: fire(s, leader=unit(s, "1st Squad")))
    outsider = Leader("Lt. Fox", "Allies", "E7", morale=8)
    assert_rejected(s, "not on this battlefield", lambda: fire(s, leader=outsider))
    assert_rejected(s, "not an Artillery Request option", lambda: artillery_request(s, "Allies", "barrage"))


# -- O18.1 Contact Battery --------------------------------------------------------------------------
def test_radio_firepower_must_be_in_the_rules_range():
    s = battle([(2, 3), (3, 4)])
    s.radios[0].firepower = 14
    assert_rejected(s, r"firepower 14; allowed 8..13", lambda: fire(s))
    with pytest.raises(ValueError, match="firepower"):
        Radio("Allies", -1)


def test_O18_1_contact_battery_flips_the_radio_and_activates_nothing():
    s = battle(radio_broken=True)
    deck_before = copy.deepcopy(s.decks["Allies"])
    units_before = copy.deepcopy(s.units)
    result = artillery_request(s, "Allies", "contact_battery")
    assert result.option is Option.CONTACT_BATTERY
    assert result.radio is s.radios[0] and not s.radios[0].broken
    assert s.units == units_before                   # no unit (Leader included) is activated
    assert s.decks["Allies"] == deck_before          # no card is drawn
    assert [e.clause for e in result.events] == ["O18", "O18.1"]
    assert s.log == list(result.events)


def test_O18_1_contact_battery_rejects_fire_for_effect_arguments():
    s = battle(radio_broken=True)
    assert_rejected(s, "Contact Battery takes only a radio",
                    lambda: artillery_request(s, "Allies", "contact_battery", spotting_round="E3"))


def test_O18_1_radio_ready_at_once_a_second_request_may_fire_for_effect():
    s = battle([(2, 3), (3, 4)], radio_broken=True)
    artillery_request(s, "Allies", "contact_battery")
    result = fire(s)
    assert result.option is Option.FIRE_FOR_EFFECT and result.landing is not None


# -- O18.2 Fire for Effect --------------------------------------------------------------------------
def test_O18_2_fire_for_effect_activates_one_unbroken_leader_as_spotter():
    s = battle([(2, 3), (3, 4)], extra_units=[Leader("Cpl. Easy", "Allies", "D7", morale=7)])
    result = fire(s, leader=unit(s, "Lt. Able"))
    assert result.spotter is unit(s, "Lt. Able") and unit(s, "Lt. Able").activated
    assert not any(u.activated for u in s.units if u.name != "Lt. Able")   # one Leader only
    # With two eligible Leaders the player must say which one spots.
    s = battle([(2, 3), (3, 4)], extra_units=[Leader("Cpl. Easy", "Allies", "D7", morale=7)])
    assert_rejected(s, "several", lambda: fire(s))
    s = battle([(2, 3), (3, 4)])
    fire(s)
    # Activated: cannot spot again this turn; a new turn clears it.
    assert legal_options(s, "Allies") == []
    s.new_turn()
    assert legal_options(s, "Allies") == [Option.FIRE_FOR_EFFECT] and s.turn == 2


def test_O18_2_three_steps_in_exact_order():
    s = battle([(2, 3), (3, 4)], smoke_radio=True)
    result = fire(s)
    clauses = [e.clause for e in result.events]
    assert clauses[:4] == ["O18", "O18.2", "O18.2.1", "O18.2.2"]
    first = {c: clauses.index(c) for c in ("O18.2.1", "O18.2.2", "O18.2.2.1", "O18.2.3")}
    assert first["O18.2.1"] < first["O18.2.2"] < first["O18.2.2.1"] < first["O18.2.3"]
    s2 = battle([(2, 3), (3, 4)], smoke_radio=True)
    kinds = [e.kind for e in fire(s2, smoke=True).events]
    assert kinds.index("smoke_declared") < kinds.index("targeting_roll") < kinds.index("smoke_placed")


# -- O18.2.1 Accuracy -------------------------------------------------------------------------------
def test_O18_2_1_spotting_round_in_any_hex_in_the_spotters_los():
    s = battle([(6, 6), (3, 4)])
    assert [h.label for h in s.map.line("E7", "I6")] == ["E7", "F6", "G6", "H6", "I6"]
    assert_rejected(s, "not in the line of sight", lambda: fire(s, target="I6"))   # H6 blocks
    assert_rejected(s, "not on the 10x8 map", lambda: fire(s, target="K3"))
    assert_rejected(s, "needs the hex of the spotting round", lambda: fire(s, target=None))
    result = fire(s, target="J1")                      # far away, but in LOS
    assert result.spotting_round == H("J1")
    placed = next(e for e in result.events if e.kind == "spotting_round_placed")
    assert placed.data["hex"] == "J1"


def test_O18_2_1_spotting_round_may_be_placed_in_an_impassable_hex():
    s = battle([(6, 6), (1, 4)])
    result = fire(s, target="G3")
    placed = next(e for e in result.events if e.kind == "spotting_round_placed")
    assert placed.data["impassable"] and "impassable" in placed.text
    assert result.landing == H("G3")


def test_O18_2_1_1_smoke_only_with_a_smoke_radio_declared_before_the_roll():
    s = battle([(2, 3), (2, 5)])
    assert_rejected(s, "cannot fire smoke", lambda: fire(s, smoke=True))
    s = battle([(2, 3), (2, 5)], smoke_radio=True)
    result = fire(s, smoke=True)
    kinds = [e.kind for e in result.events]
    assert kinds.index("smoke_declared") < kinds.index("targeting_roll")
    assert result.smoke


# -- O18.2.2 Hit: the Targeting roll ----------------------------------------------------------------
@pytest.mark.parametrize("white", range(1, 7))
def test_O18_2_2_targeting_roll_uses_range_to_the_round_and_hindrance(white):
    # Range E7 -> E3 is 4 and the hindering E5 lies between: hit iff white x coloured > 5.
    for coloured in range(1, 7):
        s = battle([(white, coloured), (1, 1)])
        result = fire(s)
        roll = next(e for e in result.events if e.kind == "targeting_roll")
        assert (roll.data["range"], roll.data["hindrance"], roll.data["threshold"]) == (4, 1, 5)
        assert result.hit == (white * coloured > 5)
        assert roll.data["card"] == (white, coloured)


def test_O18_2_2_smoke_markers_on_the_line_add_hindrance_and_extra_hindrance_counts():
    s = battle([(2, 3), (1, 1)])
    s.smoke[H("E4")] = 2
    result = fire(s)                                   # 6 > 4 + 1 + 2 fails: a miss
    roll = next(e for e in result.events if e.kind == "targeting_roll")
    assert roll.data["threshold"] == 7 and result.hit is False
    s = battle([(2, 3), (1, 1)])
    assert fire(s, hindrance=1).hit is False           # 6 > 5 + 1 fails


# -- O18.2.2.1 Accurate: one hex white, one hex coloured -------------------------------------------
def test_O18_2_2_1_hit_drifts_one_hex_white_then_one_hex_coloured():
    s = battle([(2, 3), (3, 4)])                       # hit; drift SE (3) then S (4)
    result = fire(s)
    steps = [(e.data["start"], e.data["end"], e.data["direction"]) for e in result.events
             if e.kind == "drift_step"]
    assert steps == [("E3", "F3", "SE"), ("F3", "F4", "S")]
    assert result.hit and result.landing == H("F4")
    drift = next(e for e in result.events if e.kind == "drift_card")
    assert drift.clause == "O18.2.2.1" and drift.data["card"] == (3, 4)
    assert "not a roll" in drift.text
    # Two cards so far: the Targeting roll's, then the drift card; both discarded.
    assert s.decks["Allies"].discard_pile[:2] == ((2, 3), (3, 4))


@pytest.mark.parametrize("white,coloured", [(1, 4), (4, 1), (2, 5), (5, 2), (3, 6), (6, 3)])
def test_O18_2_2_1_may_come_back_to_the_same_hex(white, coloured):
    s = battle([(2, 3), (white, coloured), (1, 1), (6, 6)])
    result = fire(s)
    assert result.hit and result.landing == H("E3")
    landed = next(e for e in result.events if e.kind == "landed")
    assert landed.data["same_hex"] and "back in the spotting hex" in landed.text


# -- O18.2.2.2 Inaccurate: coloured hexes towards white ---------------------------------------------
@pytest.mark.parametrize("coloured,landing", [(1, "E4"), (2, "E5"), (3, "E6"), (4, "E7")])
def test_O18_2_2_2_miss_drifts_coloured_die_hexes_towards_the_white_die(coloured, landing):
    s = battle([(1, 5), (4, coloured)])   # 1 x 5 = 5 is not > 5: a miss; white 4 = S
    result = fire(s)
    assert result.hit is False and result.landing == H(landing)
    steps = [e for e in result.events if e.kind == "drift_step"]
    assert len(steps) == coloured and all(e.data["direction"] == "S" for e in steps)
    assert all(e.clause == "O18.2.2.2" for e in steps)


def test_O18_2_2_2_may_land_on_our_own_troops():
    # Miss, 3 hexes S: the round lands on the 1st Squad (Allies) in E6; the spotter in E7 is adjacent.
    s = battle([(1, 5), (4, 3), (6, 6), (1, 1), (1, 1), (6, 6)])
    result = fire(s)
    assert result.landing == H("E6")
    landed = next(e for e in result.events if e.kind == "landed")
    assert landed.data["own_units"] == ["1st Squad"] and "own troops" in landed.text
    # Impact on E6: 10 + 12 = 22 against 7 + 0 + 2 = 9: our squad is broken.
    assert unit(s, "1st Squad").broken
    # E7 (S of E6) holds the spotter: 10 + 2 = 12 against 8 + 0 + 12 = 20: no effect.
    hit_units = [e.data["unit"] for e in result.events if e.kind == "impact_result"]
    assert hit_units == ["1st Squad", "Lt. Able"] and not unit(s, "Lt. Able").broken


# -- O18.2.2.3 Off the map --------------------------------------------------------------------------
def test_O18_2_2_3_off_map_removes_round_and_ends_order():
    # Round in E1: range 6 + hindrance 1. Miss (1 x 1), drift 3 hexes N: E0 is off the map.
    s = battle([(1, 1), (1, 3), (6, 6), (6, 6)])
    units_before = copy.deepcopy([u for u in s.units if u.name != "Lt. Able"])
    result = fire(s, target="E1")
    assert result.off_map and result.landing is None and result.hit is False
    assert result.events[-1].kind == "off_map" and result.events[-1].clause == "O18.2.2.3"
    assert len(s.decks["Allies"].discard_pile) == 2        # no impact card drawn
    assert [u for u in s.units if u.name != "Lt. Able"] == units_before
    assert unit(s, "Lt. Able").activated                    # the order was given


def test_O18_2_2_3_off_map_even_by_one_hex_and_back_is_removed():
    # Hit (2 x 4 = 8 > 7): 1 hex N leaves the map, the coloured S step would bring it back.
    s = battle([(2, 4), (1, 4), (6, 6)])
    result = fire(s, target="E1")
    assert result.hit and result.off_map and result.landing is None
    hm = s.map
    assert ref.drift(hm, H("E1"), True, 1, 4) is None
    landing, _ = aa.artillery.resolve_requests(hm, "E7", "E1", [[2, 4, 1, 4]])
    assert landing[0] == -1


def test_O18_2_2_3_round_may_occupy_an_impassable_hex():
    s = battle([(2, 3), (2, 3), (1, 1), (1, 1)])        # hit; NE to F2 then SE to G3 (impassable)
    result = fire(s)
    assert result.landing == H("G3")
    landed = next(e for e in result.events if e.kind == "landed")
    assert "impassable" in landed.text
    assert any(e.kind == "impact_order" for e in result.events)


# -- O18.2.3 Impact ---------------------------------------------------------------------------------
def test_O18_2_3_impact_on_seven_hexes_in_the_players_order_one_roll_each():
    extra = [Unit("2nd Squad", "Allies", "D2", morale=7)]
    top = [(2, 3), (2, 5),          # hit, comes back to E3
           (6, 6), (1, 1),          # F3: 10 + 12 = 22 vs MG 6 + 0 + 2: broken again -> eliminated
           (3, 3), (4, 4),          # E3: 10 + 6 = 16 vs Rifle 1 7 + 1 + 8 = 16: suppressed
           (1, 2), (5, 6)]          # D2: 10 + 3 = 13 vs 2nd Squad 7 + 0 + 11 = 18: no effect
    s = battle(top, extra_units=extra)
    order = ["F3", "E3", "D2", "E2", "F2", "E4", "D3"]
    result = fire(s, impact_order=order)
    assert result.landing == H("E3")
    ordered = next(e for e in result.events if e.kind == "impact_order")
    assert ordered.data["hexes"] == order
    rolls = [e for e in result.events if e.kind == "impact_roll"]
    assert [e.data["hex"] for e in rolls] == ["F3", "E3", "D2"]
    assert [e.data["attack"] for e in rolls] == [22, 16, 13]
    assert [e.data["hex"] for e in result.events if e.kind == "impact_skipped"] == ["E2", "F2", "E4", "D3"]
    assert unit(s, "MG").eliminated
    assert unit(s, "Rifle 1").suppressed and not unit(s, "Rifle 1").broken
    assert not unit(s, "2nd Squad").broken and not unit(s, "2nd Squad").suppressed
    assert len(s.decks["Allies"].discard_pile) == 8
    assert result.events[-1].kind == "order_end"


def test_O18_2_3_one_impact_roll_per_hex_applied_to_every_unit_in_it():
    extra = [Unit("Rifle 2", "Axis", "E3", morale=5), Unit("Rifle 3", "Axis", "E3", morale=9)]
    s = battle([(2, 3), (2, 5), (3, 4), (2, 2), (1, 1), (6, 6)], extra_units=extra)
    result = fire(s, impact_order=["E3", "E2", "F2", "F3", "E4", "D3", "D2"])
    e3 = [e for e in result.events if e.kind in ("impact_roll", "impact_result") and e.data["hex"] == "E3"]
    assert [e.kind for e in e3] == ["impact_roll"] + ["impact_result"] * 3
    assert {e.data["attack"] for e in e3} == {17}
    # Rifle 1: 7 + 1 + 4 = 12 < 17 broken; Rifle 2: 5 + 2 = 7 broken; Rifle 3: 9 + 12 = 21 no effect.
    assert [e.data["outcome"] for e in e3[1:]] == ["broken", "broken", "no effect"]


def test_O18_2_3_default_order_is_centre_then_compass():
    s = battle([(2, 3), (2, 5)])
    s.units[:] = [u for u in s.units if u.name == "Lt. Able"]
    result = fire(s)
    ordered = next(e for e in result.events if e.kind == "impact_order")
    assert ordered.data["hexes"] == ["E3", "E2", "F2", "F3", "E4", "D3", "D2"]


def test_O18_2_3_impact_order_must_be_a_permutation_of_the_impact_hexes():
    top = [(2, 3), (2, 5), (6, 6), (1, 1)]
    s = battle(top)
    for bad in (["E3", "E2", "F2", "F3", "E4", "D3"],                  # one missing
                ["E3", "E2", "F2", "F3", "E4", "D3", "D3"],            # duplicate
                ["E3", "E2", "F2", "F3", "E4", "D3", "A1"]):           # not adjacent
        assert_rejected(s, "each impact hex on the map exactly once", lambda bad=bad: fire(s, impact_order=bad))
    assert_rejected(s, "sequence of hexes", lambda: fire(s, impact_order="E3"), TypeError)
    # A callable chooses once the landing is known.
    seen = []

    def chooser(center, hexes):
        seen.append((center, list(hexes)))
        return list(reversed(hexes))

    result = fire(s, impact_order=chooser)
    assert seen[0][0] == H("E3") and len(seen[0][1]) == 7
    ordered = next(e for e in result.events if e.kind == "impact_order")
    assert ordered.data["hexes"] == ["D2", "D3", "E4", "F3", "F2", "E2", "E3"]


def test_O18_2_3_landing_at_the_edge_attacks_only_on_map_hexes():
    s = battle([(1, 6), (1, 4)])                        # 6 > threshold; N then S: back to A8
    result = fire(s, target="A8")
    assert result.landing == H("A8")
    ordered = next(e for e in result.events if e.kind == "impact_order")
    assert ordered.data["hexes"] == ["A8", "A7", "B7", "B8"]
    s = battle([(1, 6), (1, 4)])
    assert_rejected(s, "exactly once", lambda: fire(s, target="A8", impact_order=[
        "A8", "A7", "B7", "B8", "A9", "B9", "C9"]))


def test_O18_2_3_1_smoke_places_seven_markers_and_ends_the_order():
    s = battle([(2, 3), (2, 5), (6, 6)], smoke_radio=True)
    units_before = copy.deepcopy([u for u in s.units if u.name != "Lt. Able"])
    result = fire(s, smoke=True, rng=5)
    assert set(s.smoke) == {H(x) for x in ("E3", "E2", "F2", "F3", "E4", "D3", "D2")}
    assert set(s.smoke.values()) <= {1, 2, 3}
    assert [u for u in s.units if u.name != "Lt. Able"] == units_before
    assert len(s.decks["Allies"].discard_pile) == 2          # no impact roll
    assert not any(e.kind.startswith("impact") for e in result.events)
    assert result.events[-1].kind == "order_end" and result.events[-1].clause == "O18.2.3.1"
    placed = [e.data["value"] for e in result.events if e.kind == "smoke_placed"]
    s2 = battle([(2, 3), (2, 5), (6, 6)], smoke_radio=True)
    assert [e.data["value"] for e in fire(s2, smoke=True, rng=5).events if e.kind == "smoke_placed"] == placed
    # The smoke now hinders lines of sight through it.
    assert s.map.line_of_sight("E7", "E1", smoke=s.smoke).hindrance == 1 + s.smoke[H("E4")] + s.smoke[H("E3")] \
        + s.smoke[H("E2")]


def test_O18_2_3_1_smoke_at_the_edge_only_on_map_hexes():
    s = battle([(1, 6), (1, 4)], smoke_radio=True)
    fire(s, target="A8", smoke=True)
    assert set(s.smoke) == {H("A8"), H("A7"), H("B7"), H("B8")}


# -- [default] impact variants from the rules data --------------------------------------------------
def _variant(**changes):
    return aa.Rules.default().replace(artillery=changes)


def test_impact_variants_follow_the_rules_data():
    top = [(2, 3), (2, 5), (3, 3), (4, 4)]          # E3: 16 vs Rifle 1 7 + 1 + 8 = 16 (equal)
    s = battle(top)
    fire(s, rules=_variant(impact_equal="nothing"))
    assert not unit(s, "Rifle 1").suppressed
    s = battle([(2, 3), (2, 5), (6, 6), (1, 1)])
    fire(s, rules=_variant(impact_broken_again="broken"), impact_order=["F3", "E3", "E2", "F2", "E4", "D3", "D2"])
    assert unit(s, "MG").broken and not unit(s, "MG").eliminated
    s = battle([(2, 3), (2, 5), (3, 3), (4, 4)])
    fire(s, rules=_variant(impact_defense_cover=False))
    assert unit(s, "Rifle 1").broken                 # 16 > 7 + 8 without cover
    s = battle([(2, 3), (2, 5), (3, 3), (4, 4)])
    fire(s, rules=_variant(impact_attack_dice=1, impact_defense_dice=1))
    assert unit(s, "Rifle 1").broken                 # 10 + 3 = 13 > 7 + 1 + 4 = 12
    extra = [Unit("Rifle 2", "Axis", "E3", morale=5)]
    s = battle([(2, 3), (2, 5), (3, 4), (6, 6), (1, 1)], extra_units=extra)
    r = fire(s, rules=_variant(impact_defense_roll="per_hex"))
    cards = [e.data["card"] for e in r.events if e.kind == "impact_result" and e.data["hex"] == "E3"]
    assert cards == [(6, 6), (6, 6)]
    s = battle([(2, 3), (2, 5)])
    s.units[:] = [u for u in s.units if u.name == "Lt. Able"]
    r = fire(s, rules=_variant(impact_empty_hex_roll=True))
    assert len([e for e in r.events if e.kind == "impact_roll"]) == 7


def test_event_log_accumulates_and_reads():
    s = battle([(2, 3), (3, 4), (2, 3), (3, 4)])
    r1 = fire(s)
    s.new_turn()
    r2 = fire(s)
    assert s.log == list(r1.events) + list(r2.events)
    text = str(r1)
    assert "Targeting roll [2|3]: 2 x 3 = 6 > range 4 + hindrance 1 = 5: hit" in text
    assert "O18.2.2.1" in text and "F4" in text


@settings(max_examples=60, deadline=None)
@given(target=st.tuples(st.integers(0, 9), st.integers(0, 7)),
       c1=st.tuples(st.integers(1, 6), st.integers(1, 6)), c2=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_order_landing_equals_kernel_and_reference(target, c1, c2):
    hm = HexMap(10, 8)
    s = Battlefield(hm, [Leader("L", "P", "E4", morale=8)], [Radio("P", 10)],
                    {"P": FateDeck.stacked([c1, c2], seed=0)})
    if target == (4, 3):
        return
    r = artillery_request(s, "P", "fire_for_effect", spotting_round=target)
    landing, hit = aa.artillery.resolve_requests(hm, "E4", target, [list(c1) + list(c2)])
    assert bool(hit[0]) == r.hit
    assert int(landing[0]) == (-1 if r.landing is None else hm.index(r.landing))
    ref_landing, ref_hit = ref.resolve_requests(hm, "E4", target, [list(c1) + list(c2)])
    assert ref_landing == [int(landing[0])] and ref_hit == [r.hit]
