"""The native greedy agent (src/aa_core/csrc/aa_agent_greedy.c) plays the Python GreedyAgent's action at
every decision: per decision over varied positions (default and random scenarios, other rules and
agent values) and over whole greedy-vs-greedy games. Thousands of games: benchmarks/greedy_parity.py."""
from collections import Counter

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa.agents.native import agent_params
from atomic_africa.game.native.vector import VectorGame
from support.greedy_parity import AGENT_GREEDY, DEFAULT_PARAMS, play_greedy_games, play_greedy_parity
from support.vector_mirror import random_scenario

# Every kind of decision the agent scores differently: stages, the declared action of a target or a
# move, a Joker's declaration, terrain features and fire-support assets among the choices.
ALL_KINDS = {"ORDERS", "ACTIVATE", "REACT", "DECLARE_ACTION", "joker", "DECLARE_TARGET:BASIC",
             "DECLARE_TARGET:RALLY", "DECLARE_TARGET:CALL_FOR_FIRE", "DECLARE_TARGET:HEAVY_WEAPON",
             "DECLARE_TARGET:MASS_FIRE", "DECLARE_TARGET:SPLIT_FIRE", "DECLARE_TARGET2:SPLIT_FIRE",
             "DECLARE_TARGET:SPRINT", "DECLARE_TARGET:DIG_IN", "feature", "assets", "MOVE:BASIC",
             "MOVE:SPRINT", "SPRINT_MOVE", "SPLIT"}


def test_every_kind_of_decision_matches_python():
    seen, _ = play_greedy_parity(None, num_envs=4, seed=1, steps=100)
    # random scenarios chosen (from the first 20 seeds) for their Split Fire, features and assets
    for sc in (1, 4, 9, 13):
        more, _ = play_greedy_parity(random_scenario(sc), num_envs=4, seed=sc, steps=50)
        seen += more
    missing = ALL_KINDS - set(seen)
    assert not missing, f"decisions never compared: {sorted(missing)}; compared {dict(seen)}"


def test_other_rules_and_agent_values_match_python():
    params = agent_params(dict(wound_value=1.25, marker_value=2.5, rally_value=0.7, cover_value=1.1,
                               reserve_value=0.6, standoff_cm=12.0))
    seen, _ = play_greedy_parity(None, num_envs=2, seed=5, steps=100, params=params)
    assert seen["ORDERS"] and seen["MOVE"] and seen["DECLARE_TARGET"]
    rules = aa.Rules.default().replace(orders={"fire_needs_los": False, "bystander_posture": "offensive"})
    seen, _ = play_greedy_parity(random_scenario(4), num_envs=4, seed=4, steps=60, rules=rules)
    assert seen["DECLARE_TARGET"] and seen["MOVE"]


def test_values_change_the_choices():
    # The agent values reach the native agent: the same positions give other actions with others.
    vg = VectorGame(None, 64, 3)
    kinds = np.full(64, AGENT_GREEDY, np.int8)
    active = np.ones(64, np.uint8)
    base, other = np.empty(64, np.int64), np.empty(64, np.int64)
    differ = 0
    for _ in range(40):
        vg._engine.set_agent_params(DEFAULT_PARAMS)
        vg._engine.agent_actions(kinds, active, base, 1)
        vg._engine.set_agent_params(dict(DEFAULT_PARAMS, cover_value=-5.0, wound_value=0.0))
        vg._engine.agent_actions(kinds, active, other, 1)
        differ += int((base != other).sum())
        vg.step(base, observe=False)
    assert differ > 0


def test_whole_greedy_games_match_python():
    done = play_greedy_games(None, num_envs=2, seed=11, games=2)
    assert len(done) == 2 and all(len(h) > 50 for _, h in done)


def test_threads_do_not_change_the_choices():
    outs = []
    for threads in (1, 2):
        vg = VectorGame(None, 32, 9)
        vg._engine.set_agent_params(DEFAULT_PARAMS)
        kinds = np.full(32, AGENT_GREEDY, np.int8)
        active = np.ones(32, np.uint8)
        out = np.empty(32, np.int64)
        hist = []
        for _ in range(150):
            vg._engine.agent_actions(kinds, active, out, threads)
            hist.append(out.copy())
            vg.step(out, observe=False)
        outs.append(np.stack(hist))
    np.testing.assert_array_equal(outs[0], outs[1])


@pytest.mark.slow
def test_more_random_scenarios_match_python():
    for sc in range(20, 32):
        play_greedy_parity(random_scenario(sc), num_envs=4, seed=sc, steps=60)


def test_odds_tables_refused_when_memory_is_short(monkeypatch):
    from atomic_africa import _validate
    from aa_core import vgame
    from atomic_africa.game.native import params
    rules = aa.Rules.default().replace(orders={"bystander_posture": "offensive"})
    monkeypatch.setattr(params, "_ODDS_COUNTED", set())   # as in a process that has not counted them yet
    monkeypatch.setattr(_validate, "available_memory", lambda: vgame.ODDS_TABLE_BYTES - 1)
    with pytest.raises(MemoryError, match=r"rules: the greedy agent's exact-odds tables need .* of memory"):
        VectorGame(None, 1, 0, rules=rules)


def test_odds_tables_hold_the_exact_score_counts():
    # Spot checks of the tables against atomic_africa.odds (the Python agent's exact odds).
    from atomic_africa import odds
    from atomic_africa.enums import Action, Die, Posture
    from aa_core import spec as cspec
    from atomic_africa.game.native.spec_file import compile_spec
    rules = aa.Rules.default()
    side = np.dtype([("total", "<i4"), ("att_cum", "<i4", (27, 27)), ("att0", "<i4", 26), ("att1", "<i4", 26),
                     ("defense", "<i4", 26), ("rally", "<i4", 26), ("spotting", "<i4", 26)])
    tables = cspec.load_params(compile_spec(None, rules))[1]["odds"].view(side)   # what the C loader counts
    for dice in ((4, 6, 8), (12, 12, 10), (6, 4, 12)):
        for action in Action:
            for posture in Posture:
                row = tables[(((dice[0] - 4) // 2 * 5 + (dice[1] - 4) // 2) * 5 + (dice[2] - 4) // 2) * 16
                             + int(action) * 2 + int(posture)]
                pmf = odds.scores_pmf(tuple(Die(d) for d in dice), posture, action, exact=True, rules=rules)
                total = int(np.prod(dice))
                assert row["total"] == total
                if pmf.defense is not None:
                    assert {s - 1: int(c) for s, c in enumerate(row["defense"]) if c} == \
                        {k: int(p * total) for k, p in pmf.defense.items()}
                firsts = Counter()
                for attacks, p in pmf.attacks.items():
                    firsts[attacks[0] if attacks else -1] += int(p * total)
                assert {s - 1: int(c) for s, c in enumerate(row["att0"]) if c} == dict(firsts)
                assert row["att_cum"][-1, -1] == total
