"""The OpenSpiel bridge (``atomic_africa.env.open_spiel``): pyspiel's own ``random_sim_test``, hidden
cards kept out of the information states, ``resample_from_infostate``, OpenSpiel's ``ISMCTSBot`` and
``alpha_zero`` on the game, and the bot as the league's ``"openspiel-ismcts"``."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from atomic_africa.env import open_spiel as bridge
from atomic_africa.game import Game, GameSpec
from atomic_africa.game.testing import mini_scenario, unit
from atomic_africa.league import play_league

ROOT = Path(__file__).resolve().parents[1]
# Two turns: a game is about 30 decisions.
SMALL = mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                      [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


def _small_game(**params):
    return bridge.AtomicAfricaGame(params, spec=GameSpec.build(SMALL))


def _played(game: Game, k: int, seed: int) -> Game:
    rng = np.random.default_rng(seed)
    for _ in range(k):
        game.apply(int(rng.choice(game.legal_actions())))
    return game


def test_the_game_is_registered_with_its_type():
    assert bridge.SHORT_NAME in pyspiel.registered_names()
    game = bridge.load_game(seed=3)
    t = game.get_type()
    assert (t.chance_mode, t.information, t.utility, t.reward_model) == (
        pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC, pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.RewardModel.TERMINAL)
    spec = GameSpec.build(None)
    assert game.num_distinct_actions() == spec.space.n
    assert game.observation_tensor_shape() == [spec.observation_size]
    state = game.new_initial_state()
    assert state.observation_tensor(1) == pytest.approx(state.game.observation(1).tolist())
    assert state.legal_actions() == state.game.legal_actions()


def test_the_information_state_tensor_is_the_observation_and_the_players_action_counts():
    game = bridge.load_game(seed=4)
    spec = GameSpec.build(None)
    assert game.information_state_tensor_shape() == [spec.observation_size + spec.space.n]
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    played = [[], []]
    for _ in range(30):
        p = state.current_player()
        a = int(rng.choice(state.legal_actions()))
        played[p].append(a)
        state.apply_action(a)
    for p in (0, 1):
        t = np.asarray(state.information_state_tensor(p), np.float32)
        assert np.array_equal(t[:spec.observation_size], state.game.observation(p))
        assert np.array_equal(t[spec.observation_size:], np.bincount(played[p], minlength=spec.space.n))
    clone = state.clone()
    assert clone.information_state_tensor(0) == state.information_state_tensor(0)


@pytest.mark.slow  # 5 s
def test_pyspiel_random_sim_test_passes():
    # serialize=False: pyspiel serializes a sampled-stochastic game with the game's RNG state, which a
    # Python game cannot give (GetRNGState); the state's own serialization is tested below.
    pyspiel.random_sim_test(bridge.load_game(seed=1), num_sims=2, serialize=False, verbose=False)
    pyspiel.random_sim_test(_small_game(seed=2), num_sims=5, serialize=False, verbose=False)


def test_a_state_serializes_and_comes_back_the_same():
    game = _small_game(seed=4)
    state = game.new_initial_state()
    for _ in range(12):
        state.apply_action(state.legal_actions()[-1])
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.history() == state.history()
    assert [back.information_state_string(p) for p in (0, 1)] == [state.information_state_string(p) for p in (0, 1)]
    for s in (state, back):     # the same chance stream: the same future
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
    assert str(back) == str(state) and back.returns() == state.returns()


def test_parameters_are_checked_and_the_length_cap_is_a_draw():
    with pytest.raises(ValueError, match="params: unknown parameter 'turns'; allowed scenario, rules, seed"):
        bridge.AtomicAfricaGame({"turns": 3})
    with pytest.raises(TypeError, match="params.scenario: expected a str"):
        bridge.AtomicAfricaGame({"scenario": 3})
    with pytest.raises(ValueError, match="params.max_game_length"):
        bridge.AtomicAfricaGame({"max_game_length": 0})
    state = _small_game(max_game_length=5).new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0] and not state.game.is_over


def test_information_state_is_blind_to_the_opponents_hidden_cards():
    # Two games that differ only in what player p cannot see (the opponent's unseen cards dealt again,
    # p's own deck reordered), then on the same chance stream and the same actions: p's information
    # state strings agree at every decision where p's observations have agreed so far, and the
    # opponent's differ (the strings are not blind to everything).
    spec = GameSpec.build(None)
    os_game = bridge.AtomicAfricaGame(spec=spec)
    compared = differed = 0
    for seed in range(3):
        ga = _played(Game(spec, seed), 20, seed)
        p = 1 - ga.current_player     # the opponent of p is to move: its hand matters now
        gb = ga.clone()
        gb.determinize(p, 100 + seed)
        # what the opponent holds differs (its own view shows it), what p sees does not
        assert not np.array_equal(ga.observation(1 - p), gb.observation(1 - p))
        assert np.array_equal(ga.observation(p), gb.observation(p))
        ga.reseed(7)
        gb.reseed(7)
        a, b = os_game.new_initial_state(ga), os_game.new_initial_state(gb)
        rng = np.random.default_rng(seed)
        while not a.is_terminal() and np.array_equal(a.game.observation(p), b.game.observation(p)):
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.information_state_tensor(p) == b.information_state_tensor(p)
            compared += 1
            differed += a.information_state_string(1 - p) != b.information_state_string(1 - p)
            if a.current_player() == p:
                assert a.legal_actions() == b.legal_actions()
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common or a.current_player() != b.current_player():
                break
            action = int(rng.choice(common))
            a.apply_action(action)
            b.apply_action(action)
    assert compared >= 10 and differed >= 1


def test_resampling_keeps_the_players_information_state():
    game = bridge.load_game(seed=5)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    before = str(state)
    hidden = set()
    for _ in range(4):
        r = state.resample_from_infostate(p, sampler)
        assert r.information_state_string(p) == state.information_state_string(p)
        assert r.information_state_tensor(p) == state.information_state_tensor(p)
        assert r.observation_tensor(p) == state.observation_tensor(p)
        assert r.legal_actions() == state.legal_actions() and r.history() == state.history()
        hidden.add(r.game.observation(1 - p).tobytes())
    assert len(hidden) > 1     # the opponent's cards are drawn again: its own view differs
    assert str(state) == before     # the original is untouched


def test_openspiel_ismcts_bot_plays_whole_games():
    game = _small_game(seed=6)
    rs = np.random.RandomState(np.random.MT19937(6))
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 1.4, 8, random_state=rs)
    rng = np.random.default_rng(6)
    for g in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            action = bot.step(state) if state.current_player() == g % 2 else int(rng.choice(state.legal_actions()))
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.game.is_over and sum(state.returns()) == 0 and state.returns()[0] in (-1.0, 0.0, 1.0)


def test_openspiel_ismcts_is_a_league_entrant():
    run = [play_league("openspiel-ismcts,random", 2, seed=3, scenario=SMALL, search={"simulations": 4})
           for _ in range(2)]
    assert run[0].records == run[1].records     # seeded: the same games again
    recs = run[0].records
    assert [r["a_side"] for r in recs] == [0, 1]
    assert {r["agent_0"] for r in recs} == {"openspiel-ismcts", "random"}
    assert all(r["turns"] >= 1 and r["decisions"] > 0 for r in recs)


def test_the_league_agent_is_seeded_and_refuses_bad_arguments():
    with pytest.raises(ValueError, match="simulations"):
        bridge.OpenSpielISMCTSAgent(0, simulations=0)
    g = _played(Game(GameSpec.build(SMALL), 1), 6, 1)
    actions = [bridge.OpenSpielISMCTSAgent(9, simulations=6).act(g) for _ in range(2)]
    assert actions[0] == actions[1] and actions[0] in g.legal_actions()


def _page_file(page: str, name: str) -> str:
    """The block a docs page asks the reader to save as ``name`` (``<!-- file: name -->``)."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    block = re.search(rf"<!-- file: {re.escape(name)} -->\n(`{{3,}})\w*\n(.*?)\n\1\n", text, re.S)
    assert block, f"{page}: no file block {name}"
    return block.group(2) + "\n"


@pytest.mark.slow
def test_openspiel_alpha_zero_runs_and_writes_checkpoints(tmp_path):
    # The learned-search guide's script, run here once with these checks (the page's command that runs
    # it is a synopsis naming this test). In a child process: alpha_zero forces multiprocessing's
    # "spawn" method for the whole process, and its actor processes receive the game pickled
    # (AtomicAfricaGame.__reduce__).
    script = tmp_path / "az_atomic.py"
    script.write_text(_page_file("guide/learned_search.md", "az_atomic.py"), encoding="utf-8")
    assert "alpha_zero.alpha_zero(alpha_zero.Config(" in script.read_text()
    out = tmp_path / "az"
    proc = subprocess.run([sys.executable, str(script), str(out)], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert (out / "checkpoint-0").is_dir() and (out / "checkpoint-1").is_dir()
    step = json.loads((out / "learner.jsonl").read_text().splitlines()[0])
    assert step["step"] == 1 and step["total_trajectories"] >= 1 and step["total_states"] >= 64
