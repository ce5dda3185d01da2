"""Games over before their first decision (a side with no order cards whose units Clean-up removes in
turn 1): VectorGame skips such episodes at every reset and automatic reset, keeping the episode numbering
contract, and a scenario whose every game is one of them is a clear error, not a hang."""
import numpy as np
import pytest

from atomic_africa.game import VectorGame
from atomic_africa.game.native.vector import DECISION_TRIES
from atomic_africa.game import Game
from atomic_africa.game.scenario import load_scenario
from atomic_africa.game.testing import mini_scenario, unit
from support.vector_mirror import Mirror, check_reset, check_step, episode_seed, legal_random_actions, random_scenario

SEED = 50346   # random_scenario(SEED): Blue's only unit is attached (no cards) and often removed in turn 1


def never_decided():
    """Side 0's only unit is attached (no order cards) and shattered (a d4 shifted down by its wound), so
    Clean-up removes it in turn 1; side 1's is attached too: every game ends at set-up."""
    return mini_scenario([unit(60.0, 20.0, figures=3, wounds=1, dice=("d4", "d4", "d4"), attached=True)],
                         [unit(60.0, 90.0, figures=3, attached=True)], turns=2)


def _over_at_start(scenario, seed, env, k) -> bool:
    return Game(scenario, episode_seed(seed, env, k)).is_over


def _assert_everyone_to_move(vg, where):
    cur = vg.current_player
    assert np.isin(cur, (0, 1)).all(), f"{where}: envs without a player to move: {np.flatnonzero(cur < 0)}"
    assert vg.action_masks().any(axis=1).all(), f"{where}: an env has no legal action"


def _assert_skips_are_the_over_games(scenario, seed, env, before, after):
    """Episodes before+1 .. after-1 were skipped: exactly those whose Game is over at construction."""
    for k in range(before + 1, after):
        assert _over_at_start(scenario, seed, env, k), f"env {env} skipped episode {k}, a game with a decision"
    assert not _over_at_start(scenario, seed, env, after), f"env {env} plays episode {after}, over at start"


def test_reset_and_auto_reset_skip_games_over_before_a_decision_and_every_env_has_a_player_to_move():
    sc = load_scenario(random_scenario(SEED))
    n = 6
    vg = VectorGame(sc, n, SEED)
    # The scenario really has such games, else this test would prove nothing.
    assert _over_at_start(sc, SEED, 0, 5)
    eps = vg.episodes
    for i in range(n):
        _assert_skips_are_the_over_games(sc, SEED, i, -1, int(eps[i]))
    _assert_everyone_to_move(vg, "construction")
    skipped = int(eps.sum())
    for step in range(1200):
        # The plain RL loop: step(random_actions()) must never meet an env without a legal action.
        _, _, term, _, info = vg.step(vg.random_actions())
        _assert_everyone_to_move(vg, f"step {step}")
        new = info["episode"]
        assert (new[~term] == eps[~term]).all(), "an env changed episode without its game ending"
        for i in np.flatnonzero(term):
            _assert_skips_are_the_over_games(sc, SEED, int(i), int(eps[i]), int(new[i]))
            skipped += int(new[i] - eps[i] - 1)
        eps = new
        if step % 97 == 96:
            _, info = vg.reset()
            _assert_everyone_to_move(vg, f"reset after step {step}")
            for i in range(n):
                _assert_skips_are_the_over_games(sc, SEED, i, int(eps[i]), int(info["episode"][i]))
                skipped += int(info["episode"][i] - eps[i] - 1)
            eps = info["episode"]
    assert skipped >= 5, f"only {skipped} episodes skipped: the scenario no longer exercises the skip"
    # The episode numbering contract still holds: each env's game is the Game of its episode seed.
    assert (vg.episode_seeds == [episode_seed(SEED, i, int(k)) for i, k in enumerate(vg.episodes)]).all()


def test_the_vector_and_its_python_mirror_skip_the_same_episodes_step_for_step():
    sc = random_scenario(SEED)
    n = 4
    vg = VectorGame(sc, n, SEED, record_events=True)
    mirror = Mirror(sc, n, label=f"random_scenario({SEED})")
    check_reset(vg, mirror, vg.reset(seed=SEED), mirror.reset(SEED))
    rng = np.random.default_rng(7)
    jumps = 0
    for _ in range(300):
        before = vg.episodes
        a = legal_random_actions(rng, vg.action_masks())
        check_step(vg, mirror, vg.step(a), mirror.step(a))
        jumps += int((vg.episodes - before > 1).sum())
    assert jumps > 0, "no automatic reset skipped an episode: the test would not see the skip"


def test_a_scenario_whose_games_all_end_before_a_decision_raises_a_clear_error():
    sc = never_decided()
    assert all(Game(sc, s).is_over and Game(sc, s).current_player == -1 for s in range(10))
    msg = rf"scenario: no game reached a decision in {DECISION_TRIES} episodes.*hand_size / non-attached units"
    with pytest.raises(ValueError, match=msg):
        VectorGame(sc, 3, 0)
    with pytest.raises(ValueError, match=msg):
        Mirror(sc, 3).reset(0)


def test_the_gymnasium_vector_env_inherits_the_skip_and_names_the_games_really_played():
    from atomic_africa.env import AtomicAfricaVectorEnv
    sc = load_scenario(random_scenario(SEED))
    env = AtomicAfricaVectorEnv(num_envs=4, scenario=sc, player=1, info_game_seed=True)  # Blue has no cards
    _, info = env.reset(seed=SEED)
    rng = np.random.default_rng(3)
    jumps, last = 0, info["game_index"]
    for _ in range(300):
        for i, (k, s) in enumerate(zip(info["game_index"], info["game_seed"])):
            assert s == episode_seed(SEED, i, int(k)) and not Game(sc, int(s)).is_over
        assert info["action_mask"].any(axis=1).all()
        _, _, _, _, info = env.step(legal_random_actions(rng, info["action_mask"]))
        jumps += int((info["game_index"] - last > 1).sum())
        last = info["game_index"]
    assert jumps > 0, "no skipped game: the test would not see the skip"
