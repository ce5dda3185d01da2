"""VectorGame is the same game as the Python ``Game``: for the same scenario, seed and actions, every
step's observation, mask, reward, termination, final observations and event log are identical.

Each test plays a VectorGame (``record_events=True``) next to one Python ``Game`` per env (env ``i``'s
episode ``k`` is ``Game(scenario, episode_seed(seed, i, k))``), picks a random legal action per env
from the Python game's mask (or from ``VectorGame.random_actions()``), steps both and compares
everything exactly; finished Python games are replaced by the next episode's game as the VectorGame
auto-resets.

The fast tests (``PLAYS``) are a few chosen games that together exercise every rule the engines
implement (:data:`support.vector_mirror.RULE_FEATURES`: every event type, every action, both postures, a
Joker, confusion forcing Dig-in and Sprint, both kinds of split, merges, a Reserve pick, scatter and
direct hits, Rally through comms, a reshuffle, a confused draw through the whole deck, each way a game
ends, and issue 11's rules: heavy weapons knocking armoured terrain features down, attached units,
light infantry's infantry actions, units confused because their side's fixed hand ran out ...) and
every way of driving a VectorGame (a threads=2 twin, 2 threads, stepping subsets of envs, resets
mid-run, its own random actions, both players' views); each play asserts the rules it is there
for, and a test asserts that the plays together claim every rule. The slow tests add breadth: 2,000+
more games on the meeting engagement as it was before issue 35 (tests/support/lopsided_meeting.toml:
the default scenario until issue 14, richer in rules than the balanced battles: vehicles, light
infantry, armoured features, unequal hands), ~100 random scenarios
with vehicles, heavy weapons, light infantry, spotters, 0-2 fire-support assets, terrain and experience, and non-default
rules.
"""
from collections import Counter

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa.game import VectorGame
from atomic_africa.game.events import EVENT_TYPES
from atomic_africa.game.testing import mini_scenario, unit
from support import LOPSIDED_MEETING
from support.vector_mirror import RULE_FEATURES, check_same_outputs, episode_seed, play_parity, random_scenario

# Event types each slow test must have compared. Random play seldom picks a Reserve card (it needs a
# suppressed unit left without orders, rallied, then targeted when its side has no ordered unit
# left): test_reserve_pick_step_by_step steers games there; with hands fixed at set-up no deck runs
# out in the old meeting engagement (the fast plays run decks out: a 4-card deck, a hand of 20); a dozen
# random scenarios may hold no spotter with fire support (scatter), so
# test_non_default_rules_step_by_step picks scenarios with it.
DEFAULT_EVENTS = set(EVENT_TYPES) - {"reserve_card", "reshuffle"}
RULES_EVENTS = set(EVENT_TYPES) - {"reserve_card", "reshuffle"}
RANDOM_EVENTS = RULES_EVENTS - {"scatter", "support_roll"}


def _events(features: Counter) -> set:
    return {f[len("event:"):] for f in features if f.startswith("event:")}


# ---------------------------------------------------------------- the fast subset: chosen games
# A deck of 4 Aces and no Joker: decks run out every turn (reshuffle, also in the middle of a
# confused draw) and a suppressed unit forced to react draws through every card without finding a
# defensive one when both black Aces are already given to other units (no reaction: no legal card).
SMALL_DECK = dict(orders={"deck_cards": 4, "jokers": 0, "basic_max_rank": 1})


def _rules_fidelity_scenario():
    """Issue 11's rules in one small battle: armoured features a heavy weapon can knock down (the
    bunker blocks line of sight until then), attached units, a light-infantry spotter, a side whose
    hand of 1 card (scenario hand_size) leaves units without orders to be confused, and a side whose
    hand of 20 runs its 54-card deck out within 4 turns (reshuffle)."""
    bunker = {"shape": "polygon", "points": [[40, 40], [70, 40], [70, 46], [40, 46]], "cover": "heavy",
              "blocks_los": True, "armor": 2}
    wood = {"shape": "circle", "center": [100, 45], "radius": 8, "cover": "light", "blocks_los": True, "armor": 1}
    blue = [unit(55, 20, kind="vehicle", figures=1, armor=4, heavy_weapon={"point": -2, "dispersed": 0}),
            unit(100, 20, kind="light_infantry", figures=5, spotter=True, attached=True),
            unit(30, 20, heavy_weapon={"point": -3}, figures=3, attached=True), unit(75, 15)]
    red = [unit(55, 70, markers=1), unit(100, 72, kind="light_infantry", figures=6), unit(80, 75)]
    sc = mini_scenario(blue, red, terrain=[bunker, wood], turns=4, experience=("regular", "green"),
                       assets=[{"dice": ["d10", "d10", "d8"], "ap": 0, "blast_radius_cm": 9.0}]).to_dict()
    sc["sides"][1]["hand_size"] = 1
    sc["sides"][0]["hand_size"] = 20
    return aa.game.Scenario.from_dict(sc)


def _features_often(game, rng):
    """Random play that declares a Heavy Weapon and aims it at a terrain feature when it can."""
    legal = game.legal_actions()
    if rng.random() < 0.8:
        for want in ("HEAVY_WEAPON", "TARGET feature"):
            hit = [a for a in legal if want in game.describe_action(a)]
            if hit:
                return int(rng.choice(hit))
    return int(rng.choice(legal))


# name -> (scenario: None for the default scenario, a packaged scenario's name, a random_scenario seed
# or a function making it;
# rules changes, play_parity options, the rules this play is there to exercise). Random scenarios
# were chosen (from a few hundred seeds) for being short and rich; each play goes on past min_games
# until its rules were exercised.
PLAYS = {
    "default scenario": (None, None, dict(
        num_envs=4, min_games=4, views=5), {
        "event:setup", "event:game_over", "assign:attached", "action:HEAVY_WEAPON", "action:CALL_FOR_FIRE",
        "fire:support", "action:MASS_FIRE", "action:SPLIT_FIRE", "action:RALLY", "event:removed",
        "game_over:winner"}),
    "meeting engagement (the old default)": (LOPSIDED_MEETING, None, dict(
        num_envs=4, min_games=4, views=5), {
        "event:setup", "event:shuffle", "event:game_over", "card:joker",
        "event:initiative", "action:HEAVY_WEAPON", "action:MASS_FIRE", "action:SPLIT_FIRE",
        "action:CALL_FOR_FIRE", "action:RALLY", "action:SPRINT", "action:DIG_IN", "event:merge",
        "split:voluntary", "split:shattered", "event:removed", "event:feature_fire",
        "feature_fire:cover lowered", "feature_fire:cover to none", "assign:attached",
        "light_infantry:DIG_IN", "light_infantry:MASS_FIRE", "light_infantry:confused DIG_IN",
        "confused:hand ran out"}),
    "random scenario 50071, vector's random actions": (50071, None, dict(
        num_envs=8, min_games=16, vector_actions=True, views=1), {
        "action:BASIC", "action:CALL_FOR_FIRE", "action:DIG_IN", "action:HEAVY_WEAPON", "action:MASS_FIRE",
        "action:RALLY", "card:joker", "confused:DIG_IN", "confused:joker", "confused_direction:move",
        "event:activate", "event:assign", "event:complete_move", "event:confused", "event:confused_direction",
        "event:confused_draw", "event:declare", "event:discard", "event:draw", "event:fire",
        "event:fire_result", "event:initiative", "event:morale", "event:move", "event:no_reaction",
        "event:orders_done", "event:rally", "event:react", "event:removed", "event:roll", "event:scatter",
        "event:split", "event:support_roll", "event:targets", "event:turn_end", "fire:support",
        "fire_result:markers", "game_over:a side has no units left", "game_over:winner", "morale:failure",
        "morale:success", "posture:DEFENSIVE", "rally:success", "scatter:direct_hit", "scatter:off_target",
        "split:voluntary", "targets:none"}),
    "random scenario 50001, 2 threads, random subsets of envs": (50001, None, dict(
        num_envs=8, min_games=16, threads=2, active_p=0.7, views=1), {
        "action:SPLIT_FIRE", "action:SPRINT", "confused:SPRINT", "confused_direction:sprint",
        "event:bystander_roll", "event:sprint", "game_over:turn limit: more remaining figures",
        "rally:failure", "split:shattered", "targets:two"}),
    "random scenario 50016, threads=2 twin, resets mid-run": (50016, None, dict(
        num_envs=8, min_games=16, twin_threads=2, resets=((20, None), (45, 777)), views=1), {
        "fire_result:wounds", "game_over:draw", "posture:OFFENSIVE"}),
    "random scenario 50317, vector's random actions": (50317, None, dict(
        num_envs=8, min_games=16, vector_actions=True, views=1), {
        "fire:armour_piercing", "rally:comms", "targets:second_asset"}),
    "random scenario 50021, vector's random actions": (50021, None, dict(
        num_envs=8, min_games=16, vector_actions=True, views=2), {
        "event:merge", "event:reserve_card"}),
    "random scenario 50012, a 4-card deck": (50012, SMALL_DECK, dict(
        num_envs=8, min_games=16, vector_actions=True, views=1), {
        "event:reshuffle", "no_reaction:no_card", "confused_draw:reshuffle"}),
    "rules fidelity: features, attached units, hands of 1 and 20": (_rules_fidelity_scenario, None, dict(
        num_envs=8, min_games=8, policy=_features_often, views=2), {
        "event:feature_fire", "feature_fire:cover lowered", "feature_fire:cover to none",
        "feature_fire:line of sight opened", "assign:attached",
        "light_infantry:CALL_FOR_FIRE", "light_infantry:SPLIT_FIRE", "light_infantry:DIG_IN",
        "confused:hand ran out", "event:reshuffle", "event:scatter"}),
}


@pytest.mark.parametrize("name", sorted(PLAYS))
def test_chosen_games_exercise_their_rules(name):
    sc_seed, changes, options, claims = PLAYS[name]
    rules = None if changes is None else aa.Rules.default().replace(**changes)
    scenario = (sc_seed() if callable(sc_seed) else sc_seed if sc_seed is None or isinstance(sc_seed, str)
                else random_scenario(sc_seed))
    seed = sc_seed if isinstance(sc_seed, int) else 1 if sc_seed is None or isinstance(sc_seed, str) else 11
    done, steps, features = play_parity(scenario, name, seed=seed, rng_seed=seed, rules=rules, until=claims,
                                        max_steps=5000, **options)
    assert done >= options["min_games"] and steps > 0
    assert claims <= set(features), f"not exercised: {sorted(claims - set(features))}"


def test_chosen_games_claim_every_rule():
    """The fast plays together exercise every rule of RULE_FEATURES (new event types and actions
    join it by themselves, so a play must claim them), and claim nothing that is not a rule."""
    claimed = set().union(*(p[3] for p in PLAYS.values()))
    assert not RULE_FEATURES - claimed, f"no fast play exercises: {sorted(RULE_FEATURES - claimed)}"
    assert not claimed - RULE_FEATURES, f"not rules: {sorted(claimed - RULE_FEATURES)}"
    assert {f"event:{t}" for t in EVENT_TYPES} <= RULE_FEATURES
    assert {f"action:{a.name}" for a in aa.Action} <= RULE_FEATURES


# ---------------------------------------------------------------- the meeting engagement
# 4 x 50+ games of the meeting engagement before issue 35 (LOPSIDED_MEETING: the default scenario
# until issue 14; every event type but two) (each chunk goes on until it compared every event type); chunk 0 has a threads=2 twin, chunk 1 runs on 2 threads and steps random subsets of envs, chunk 2 resets mid-game (next
# episodes, then a new seed), chunk 3 takes its actions from VectorGame.random_actions() (checked on
# the Python masks) and compares both players' views every 7th step. (Few runs use 2 threads: on a
# busy 2-core machine every OpenMP region then waits for a core.)
DEFAULT_CHUNKS = {
    0: dict(threads=1, twin_threads=2),
    1: dict(threads=2, active_p=0.6),
    2: dict(threads=1, resets=((100, None), (500, 12345))),
    3: dict(threads=1, vector_actions=True, views=7),
}


@pytest.mark.slow
@pytest.mark.parametrize("chunk", sorted(DEFAULT_CHUNKS))
def test_meeting_engagement_step_by_step(chunk):
    done, steps, types = play_parity(LOPSIDED_MEETING, "meeting_engagement", num_envs=32, seed=1000 + chunk, min_games=50,
                                     rng_seed=chunk, until={f"event:{t}" for t in DEFAULT_EVENTS},
                                     **DEFAULT_CHUNKS[chunk])
    assert done >= 50 and steps > 0
    assert DEFAULT_EVENTS <= _events(types), f"not compared: {DEFAULT_EVENTS - _events(types)}"


# ---------------------------------------------------------------- random scenarios
SCENARIOS_PER_CHUNK = 12


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(8))
def test_random_scenarios_step_by_step(chunk):
    total, types = 0, Counter()
    for j in range(SCENARIOS_PER_CHUNK):
        sc_seed = 50_000 + chunk * SCENARIOS_PER_CHUNK + j
        done, _, t = play_parity(random_scenario(sc_seed), f"random_scenario({sc_seed})", num_envs=16,
                              seed=sc_seed, min_games=16, rng_seed=sc_seed, threads=2 if j % 4 == 2 else 1,
                              twin_threads=2 if j % 4 == 0 else None, active_p=0.7 if j % 3 == 1 else None,
                              views=1, vector_actions=j % 4 == 3)
        total += done
        types += t
    assert total >= 16 * SCENARIOS_PER_CHUNK
    assert RANDOM_EVENTS <= _events(types), f"not compared: {RANDOM_EVENTS - _events(types)}"


# ---------------------------------------------------------------- non-default rules
VARIANTS = {
    "moves_fire_cleanup": dict(
        movement={"directions": 8, "distance_fractions": [0.5, 1.0], "increment_cm": 6.0, "merge_contact_cm": 5.0},
        fire={"turn_marker_cap": 3, "armor_floor": 2, "feature_defense": 1, "feature_cover_per_wound": 2,
              "band_edges_cm": [20.0, 40.0, 60.0, 80.0, 100.0, 110.0, 120.0, 130.0]},
        cleanup={"split_min_figures": 4, "odd_to_larger_half": False}),
    "orders_rally_support": dict(
        orders={"first_player_alternates": False, "jokers": 4, "bystander_posture": "offensive",
                "hand_units": "turn", "attached_add_cards": True,
                "experience_bonus": {"green": 1, "regular": 2, "veteran": 3, "elite": 4}},
        rally={"markers_removed": 2, "comms_range_penalty": 2},
        call_for_fire={"clockwise": False, "scatter_increment_cm": 3.0, "clock_zero_deg": 90.0, "scatter_die": 8}),
}


def _rules_scenarios(count=6):
    """Random scenarios with fire support and at least 3 turns (so the changed rules come into play)."""
    out, seed = [], 70_000
    while len(out) < count:
        sc = random_scenario(seed)
        if sc.sides[0].fire_support and sc.turns >= 3:
            out.append((seed, sc))
        seed += 1
    return out


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_non_default_rules_step_by_step(variant):
    rules = aa.Rules.default().replace(**VARIANTS[variant])
    total, types = 0, Counter()
    for j, (sc_seed, sc) in enumerate(_rules_scenarios()):
        done, _, t = play_parity(sc, f"random_scenario({sc_seed}) with rules {variant}", num_envs=16,
                                 seed=sc_seed + len(variant), min_games=16, rng_seed=j, rules=rules,
                                 threads=1, twin_threads=2 if j == 0 else None, views=1 + j % 2)
        total += done
        types += t
    assert total >= 96
    assert RULES_EVENTS <= _events(types), f"not compared: {RULES_EVENTS - _events(types)}"


# ---------------------------------------------------------------- the rarest path: a Reserve pick
def _rally_often(game, rng):
    """Random play that declares a Rally when it can (4 times in 5), so suppressed units without
    orders get rallied and then must react with a Reserve card."""
    legal = game.legal_actions()
    if game.stage == "DECLARE_ACTION" and rng.random() < 0.8:
        rally = [a for a in legal if "RALLY" in game.describe_action(a)]
        if rally:
            return int(rng.choice(rally))
    return int(rng.choice(legal))


@pytest.mark.slow
def test_reserve_pick_step_by_step():
    sc = mini_scenario([unit(50, 20), unit(90, 20)], [unit(50, 60, markers=1), unit(55, 62, commander=True)],
                       turns=4, experience=("veteran", "green"))
    done, _, types = play_parity(sc, "reserve_pick", num_envs=32, seed=3, min_games=300, rng_seed=3,
                                 policy=_rally_often, views=3)
    assert done >= 300
    assert types["event:reserve_card"] >= 3 and types["event:rally"] > 0, dict(types)


# ---------------------------------------------------------------- threads
@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["default", "random"])
def test_two_threads_are_bit_identical_to_one(scenario):
    """Same actions on threads=1 and threads=2 (37 envs: an uneven split): identical trajectories,
    events included, over many auto-resets; switching threads mid-run changes nothing either."""
    sc = None if scenario == "default" else random_scenario(4242)
    a = VectorGame(sc, 37, 77, threads=1, record_events=True)
    b = VectorGame(sc, 37, 77, threads=2, record_events=True)
    check_same_outputs(a.reset(seed=5), b.reset(seed=5), "reset")
    finished = 0
    for t in range(1500):
        if t == 700:
            b.threads = 1
            a.threads = 2
        acts = a.random_actions()
        assert np.array_equal(acts, b.random_actions()), f"random_actions differ at step {t}"
        oa, ob = a.step(acts), b.step(acts)
        check_same_outputs(oa, ob, f"step {t}")
        for i in range(37):
            assert a.events(i) == b.events(i), f"events({i}) differ at step {t}"
        assert np.array_equal(a.action_masks(), b.action_masks()), f"masks differ at step {t}"
        finished += int(oa[2].sum())
    assert finished >= 37  # the comparison covered auto-resets
    assert np.array_equal(a.episode_seeds, b.episode_seeds)
    assert a.episode_seeds[0] == np.uint64(episode_seed(5, 0, int(a.episodes[0])))
