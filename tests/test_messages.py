"""Error messages that named neither the argument nor the allowed values (issue 27: "8 vague
messages"), each pinned as it reads now. Before, they were:

1. ``stream_games(results="")``: ``expected a file name, got ''``
2. ``stream_games(replays="/no/such/dir/r.jsonl")``: ``cannot write ...: no such directory /no/such/dir``
3. ``stream_games(results="/tmp")``: ``is a directory, not a file: /tmp``
4. ``agents.basic.play(..., max_steps=3)``: ``game did not end within 3 steps``
5. ``deck.id_of("ZH")``: ``card: unknown rank in 'ZH'``
6. ``deck.id_of("JokerX")``: ``invalid literal for int() with base 10: 'X'``
7. ``vg.agent_actions(["random"] * 3)`` on 2 envs: ``agents: shape (3,) does not fit (2,)``
8. ``batch.roll_dice([[6, 6], [6, 6, 6]])``: ``dice: not a rectangular array (setting an array element
   with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The detected
   shape was (2,) + inhomogeneous part.)``
9. ``atomic-africa selfplay --address A`` without ``--ray``: ``--address: only with --ray``
"""
from __future__ import annotations

import re

import pytest

from atomic_africa import batch
from atomic_africa.agents import make_agent
from atomic_africa.agents.basic import play
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
