"""Error messages that named neither the argument nor the allowed values (issue 27: "8 vague
messages"), each pinned as it reads now. Before, they were:

1. ``stream_games(results="")``: ``expected a file name, got ''``
2. ``stream_games(replays="/no/such/dir/r.jsonl")``: ``cannot write ...: no such directory /no/such/dir``
3. ``stream_games(results="/tmp")``: ``is a directory, not a file: /tmp``
4. ``agents.play(..., max_steps=3)``: ``game did not end within 3 steps``
5. ``deck.id_of("ZH")``: ``card: unknown rank in 'ZH'``
6. ``deck.id_of("JokerX")``: ``invalid literal for int() with base 10: 'X'``
7. ``vg.agent_actions(["random"] * 3)`` on 2 envs: ``agents: shape (3,) does not fit (2,)``
8. ``batch.roll_dice([[6, 6], [6, 6, 6]])``: ``dice: not a rectangular array (setting an array element
   with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The detected
   shape was (2,) + inhomogeneous part.)``
9. ``atomic-africa selfplay --address A`` without ``--ray``: ``--address: only with --ray``

Issue 36 (point 3), each below as it reads now. Before, they were:

10. ``batch.resolve_volley(..., n_targets=0)``: ``target: value 0 is out of range; allowed 0..-1``
11. ``batch.resolve_volley(..., n_targets=10**12)``: numpy's ``Unable to allocate 7.28 TiB ...``
12. dice ``'d²,d10,d8'`` and posture ``'²'``: ``invalid literal for int() with base 10: '²'``
13. ``odds.expected_wounds({})``: ``0`` (no error)
14. ``AtomicAfricaEnv(illegal_reward='x')``: ``could not convert string to float: 'x'``;
    ``illegal_reward=nan``: accepted
15. ``env.step(None)``, ``env.step(np.array([1, 2]))``: ``int() argument must be ... not 'NoneType'``,
    ``only length-1 arrays can be converted to Python scalars``
16. enum choices were listed as ``NONE (0), LIGHT (1), HEAVY (2) (names in any case)``
"""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from atomic_africa import batch, odds
from atomic_africa.enums import Cover, Die, Posture
from atomic_africa.agents import make_agent
from atomic_africa.agents import play
from atomic_africa.cli import main
from atomic_africa.game import Game, VectorGame
from atomic_africa.selfplay import stream_games


@pytest.mark.parametrize("kw, message", [
    (dict(results=""), "results: expected a file name, got ''"),
    (dict(replays="/no/such/dir/r.jsonl"), "replays: cannot write /no/such/dir/r.jsonl: no such directory /no/such/dir"),
    (dict(results="/tmp"), "results: is a directory, not a file: /tmp"),
])
def test_an_output_that_cannot_be_written_names_the_argument(kw, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        stream_games(2, **kw)


def test_a_game_that_outlasts_max_steps_names_it():
    with pytest.raises(RuntimeError, match=r"^max_steps: the game did not end within 3 decisions \(it stopped at "
                                           r"turn 1, stage [A-Z_]+\); allowed a larger max_steps \(the default is "
                                           r"1,000,000\)$"):
        play(Game(None, 1), [make_agent("random", 1), make_agent("random", 2)], max_steps=3)


@pytest.mark.parametrize("name, message", [
    ("ZH", "card: unknown rank 'Z' in 'ZH'; allowed A, 2..10, J, Q, K then a suit H, D, C, S, or Joker1..Joker2"),
    ("14H", "card: unknown rank '14' in '14H'; allowed A, 2..10, J, Q, K then a suit H, D, C, S, or Joker1..Joker2"),
    ("JokerX", "card: 'JokerX' is not a Joker of this deck; allowed Joker1..Joker2 (Joker alone is Joker1)"),
    ("Joker9", "card: 'Joker9' is not a Joker of this deck; allowed Joker1..Joker2 (Joker alone is Joker1)"),
])
def test_a_card_name_error_names_the_allowed_names(name, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        Game(None, 1).deck.id_of(name)


def test_agents_of_the_wrong_shape_name_the_shape_wanted():
    vg = VectorGame(None, 2, 0)
    with pytest.raises(ValueError, match=r"^agents: expected one agent, or an array of agents of shape \(2,\) "
                                         r"\(one per env\), got shape \(3,\)$"):
        vg.agent_actions(["random"] * 3)


def test_a_ragged_array_says_so_in_a_few_words():
    with pytest.raises(ValueError, match=r"^dice: not a rectangular array \(its rows differ in length\); expected "
                                         r"nested lists of equal lengths$"):
        batch.roll_dice([[6, 6], [6, 6, 6]])


@pytest.mark.parametrize("command", ["selfplay", "league"])
def test_address_without_ray_says_what_to_do(command, capsys):
    argv = [command, "--address", "10.0.0.1:6379", "--games", "1"] + (["--no-progress"] if command == "selfplay"
                                                                       else ["--quiet"])
    assert main(argv) == 2
    assert capsys.readouterr().err == (f"atomic-africa {command}: error: --address: only with --ray (the address of a "
                                       f"Ray cluster to join); add --ray, or leave out --address\n")


VOLLEY = dict(target=[0], attack=[13], range_band=[3], defense=2, armor=2)


@pytest.mark.parametrize("kw, message", [
    (dict(n_targets=0), "n_targets: 0 is out of range; allowed >= 1 (target holds 0)"),
    (dict(target=[0, 4], attack=13, range_band=3, n_targets=3), "n_targets: 3 is out of range; allowed >= 5 "
                                                                "(target holds 4)"),
    (dict(defense=[2, 2], armor=2, target=[0, 5]), "target: value 5 is out of range; allowed 0..1 (the per-target "
                                                   "arrays hold 2 targets)"),
    (dict(defense=np.zeros(0, np.int64)), "target: value 0 is out of range; allowed none: the per-target arrays "
                                          "are empty (no targets)"),
])
def test_a_volley_whose_targets_do_not_fit_names_n_targets_or_the_targets(kw, message):
    for target in (list, np.array):      # the small-list path and the array path say the same
        args = {**VOLLEY, **kw}
        args["target"] = target(args["target"])
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            batch.resolve_volley(**args)


def test_a_volley_of_more_targets_than_memory_names_n_targets_and_what_fits():
    with pytest.raises(MemoryError, match=r"^n_targets: 1,000,000,000,000 targets at 16 bytes each need 14\.5 TiB "
                                          r"of memory; .* is available.*; at most about [\d,]+ targets fit$"):
        batch.resolve_volley(**VOLLEY, n_targets=10**12)


@pytest.mark.parametrize("value, enum_cls, name, message", [
    ("d²", Die, "dice[0]", "dice[0]: unknown Die 'd²'; allowed: d4, d6, d8, d10, d12"),
    ("²", Posture, "posture", "posture: unknown Posture '²'; allowed: offensive, defensive"),
    ("sideways", Cover, "cover", "cover: unknown Cover 'sideways'; allowed: none, light, heavy"),
])
def test_a_choice_typed_wrong_names_the_argument_and_the_words_to_type(value, enum_cls, name, message):
    from atomic_africa._validate import as_enum
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        as_enum(value, enum_cls, name)


@pytest.mark.parametrize("argv, says", [
    (["fire", "--shooter", "d²,d10,d8"], "argument --shooter: die 1: unknown Die 'd²'; allowed: d4, d6, d8, d10, d12"),
    (["odds", "--target", "d10,d²,d8"], "argument --target: die 2: unknown Die 'd²'; allowed: d4, d6, d8, d10, d12"),
    (["fire", "--posture", "²"], "argument --shooter-posture/--posture: unknown Posture '²'; allowed: offensive, defensive"),
    (["odds", "--cover", "²"], "argument --cover: unknown Cover '²'; allowed: none, light, heavy"),
])
def test_dice_and_choices_typed_on_the_command_line_name_the_option(argv, says, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    err = capsys.readouterr().err
    assert says in err and "invalid literal" not in err, err


def test_an_empty_distribution_is_refused_naming_dist():
    for helper in (odds.expected_wounds, odds.expected_markers, lambda d: odds.p_at_least_wounds(d, 1),
                   lambda d: odds.p_at_least_markers(d, 1)):
        with pytest.raises(ValueError, match=r"^dist: empty; expected at least one \(markers, wounds\) outcome"):
            helper({})


@pytest.fixture
def gym_env():
    import gymnasium  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
    return AtomicAfricaEnv


@pytest.mark.parametrize("value, error, message", [
    ("x", TypeError, "illegal_reward: expected a finite real number such as -1.0, got str 'x'"),
    (math.nan, ValueError, "illegal_reward: nan is out of range; allowed finite real numbers such as -1.0"),
    (-math.inf, ValueError, "illegal_reward: -inf is out of range; allowed finite real numbers such as -1.0"),
    (None, TypeError, "illegal_reward: expected a finite real number such as -1.0, got NoneType None"),
])
def test_an_illegal_reward_that_is_no_finite_number_is_refused(gym_env, value, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        gym_env(illegal_reward=value)


def test_rewards_and_probabilities_of_the_other_envs_refuse_nan():
    import gymnasium  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env.opponents import OpponentPool
    from atomic_africa.env.shaping import RewardShaping
    with pytest.raises(ValueError, match=r"^shaping\.gamma: nan is not finite$"):
        RewardShaping(gamma=math.nan)
    with pytest.raises(ValueError, match=r"^self_share: expected a number in \[0, 1\], got nan$"):
        OpponentPool(np.random.default_rng(0), self_share=math.nan)
    with pytest.raises(ValueError, match=r"^floor: expected a number >= 0, got nan$"):
        OpponentPool(np.random.default_rng(0), floor=math.nan)
    with pytest.raises(ValueError, match=r"^score: expected a number in \[0, 1\], got nan$"):
        OpponentPool(np.random.default_rng(0)).record(0, math.nan)
    from atomic_africa.game.scenarios import ScenarioSampler
    for weights in (["x", "y"], [math.nan, 1.0]):
        with pytest.raises(ValueError, match=r"^weights: expected 2 finite weights >= 0, not all 0, got "):
            ScenarioSampler(["default", "default"], weights=weights)


@pytest.mark.parametrize("action, error, message", [
    (None, TypeError, "action: expected an action id 0..{last}, got NoneType None"),
    (np.array([1, 2]), ValueError, "action: expected one action id (an action id 0..{last}), got an array of "
                                   "shape (2,)"),
    (1.5, TypeError, "action: expected an action id 0..{last}, got float 1.5"),
    (np.array([0.0]), TypeError, "action: expected an action id 0..{last}, got an array of dtype float64"),
])
def test_a_step_that_is_not_one_action_id_names_the_action(gym_env, action, error, message):
    env = gym_env()
    env.reset(seed=0)
    message = message.format(last=env.action_space.n - 1)
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        env.step(action)
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(np.array([legal]))          # a policy's batch of one is still one action


def test_a_pettingzoo_step_that_is_not_one_action_id_names_the_action():
    import pettingzoo  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env.pettingzoo_env import raw_env
    env = raw_env()
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"^action: expected an action id 0\.\.\d+, got NoneType None$"):
        env.step(None)
    with pytest.raises(ValueError, match=r"^action: expected one action id .*, got an array of shape \(2,\)$"):
        env.step(np.array([1, 2]))


def test_a_vector_step_of_the_wrong_shape_names_actions():
    import gymnasium  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
    env = AtomicAfricaVectorEnv(num_envs=2)
    env.reset(seed=0)
    for actions, shape in ((None, "()"), (np.array([1, 2, 3]), "(3,)")):
        with pytest.raises(ValueError, match=rf"^actions: expected shape \(2,\), got {re.escape(shape)}$"):
            env.step(actions)


def test_help_lists_choices_as_words_to_type(capsys):
    for argv in (["battle", "--help"], ["fire", "--help"], ["selfplay", "--help"], ["league", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        out = " ".join(capsys.readouterr().out.split())
        assert "['" not in out and "(1)" not in out, out
    with pytest.raises(SystemExit):
        main(["battle", "--help"])
    assert "doctrine, greedy, heuristic, ismcts, network, puct, random" in " ".join(capsys.readouterr().out.split())
