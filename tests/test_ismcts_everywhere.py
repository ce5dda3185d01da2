"""The search agent by name wherever agents are (issue 31, point 3): ``make_agent``, ``selfplay``,
``league``, ``battle``, ``render``, ``play`` and the environments' opponents; each path plays the same
games twice for the same seed, and a bad search parameter is refused naming it.

Few simulations and the small play scenario keep every game a fraction of a second.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from atomic_africa.reference.game.agents import ISMCTSAgent, make_agent
from atomic_africa.agents.search import check_search, search_overrides
from atomic_africa.cli import main
from atomic_africa.reference.game import Game
from atomic_africa.league import play_league
from atomic_africa.league.entrants import Entrant
from atomic_africa.selfplay import play_games, read_results

SMALL = str(Path(__file__).parent / "support" / "play_small.toml")
FEW = {"simulations": 8}


def _error(argv, capsys) -> str:
    """The one-line error of a command refused (exit status 2, by argparse or by the command)."""
    try:
        assert main(argv) == 2
    except SystemExit as exc:
        assert exc.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


# -- the API ------------------------------------------------------------------------------------------
def test_make_agent_passes_the_search_parameters_and_checks_them_for_any_agent():
    a = make_agent("ISMCTS ", 3, search={"simulations": 8, "rollout": "Greedy", "rollout_depth": 5})
    assert isinstance(a, ISMCTSAgent) and (a.simulations, a.rollout, a.rollout_depth) == (8, "greedy", 5)
    assert make_agent("random", 3, search=FEW).name == "random"     # the others take none
    with pytest.raises(ValueError, match="simulations"):
        make_agent("random", 3, search={"simulations": 0})
    with pytest.raises(ValueError, match="search: unknown parameter 'depth'; allowed simulations, exploration"):
        make_agent("ismcts", 3, search={"depth": 3})
    with pytest.raises(ValueError, match="rollout: 'ismcts' is not a rollout agent"):
        check_search({"rollout": "ismcts"})
    with pytest.raises(TypeError, match="search: expected a dict"):
        check_search([("simulations", 8)])
    assert check_search(None) == {"simulations": 200, "exploration": 0.7, "rollout": "random", "rollout_depth": 0,
                                  "width": 3}
    assert search_overrides({"rollout": "doctrine"})["rollout"] == 3.0


# -- selfplay ----------------------------------------------------------------------------------------
def test_selfplay_plays_ismcts_the_same_twice_and_on_both_engines():
    runs = [play_games(4, ("ismcts", "random"), seed=5, scenario=SMALL, engine=e, search=FEW)
            for e in ("native", "native", "python")]
    assert runs[0].records == runs[1].records == runs[2].records
    # the parameters reach the search: other parameters, other games (with these seeds)
    other = play_games(4, ("ismcts", "random"), seed=5, scenario=SMALL, search={"simulations": 40})
    assert [r["decisions"] for r in other.records] != [r["decisions"] for r in runs[0].records]
    with pytest.raises(ValueError, match="simulations"):
        play_games(2, ("ismcts", "random"), scenario=SMALL, search={"simulations": -1})


def test_cli_selfplay_with_ismcts_and_search_options(tmp_path, capsys):
    outs = []
    for k in range(2):
        out = tmp_path / f"r{k}.csv"
        assert main(["selfplay", "--agents", "ismcts,greedy", "--games", "2", "--seed", "3", "--scenario", SMALL,
                     "--search-simulations", "8", "--search-rollout", "heuristic", "--no-progress",
                     "--out", str(out)]) == 0
        assert "2 games, ismcts (A) vs greedy (B)" in capsys.readouterr().out
        outs.append(read_results(out))
    assert outs[0] == outs[1]
    assert outs[0] == play_games(2, ("ismcts", "greedy"), seed=3, scenario=SMALL,
                                 search={"simulations": 8, "rollout": "heuristic"}).records


def test_a_streamed_ismcts_run_resumes_only_with_the_same_search(tmp_path):
    from atomic_africa.selfplay import stream_games

    def stop_after(games):
        def hook(written):
            if written >= games:
                raise KeyboardInterrupt
        return hook

    kw = dict(agents=("ismcts", "random"), seed=2, scenario=SMALL, batch_size=2)
    whole = tmp_path / "whole.csv"
    stream_games(6, results=whole, search=FEW, **kw)
    out = tmp_path / "cut.csv"
    with pytest.raises(KeyboardInterrupt):
        stream_games(6, results=out, search=FEW, on_batch=stop_after(2), **kw)
    with pytest.raises(ValueError, match=r"is another run \(search .*'simulations': 8.* there, .*'simulations': 9"):
        stream_games(6, results=out, resume=True, search={"simulations": 9}, **kw)
    assert stream_games(6, results=out, resume=True, search=FEW, **kw).resumed == 2
    assert out.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("argv, message", [
    (["--search-simulations", "0"], "argument --search-simulations: 0 is out of range"),
    (["--search-simulations", "many"], "argument --search-simulations: expected a whole number of simulations"),
    (["--search-exploration", "-1"], "argument --search-exploration:"),
    (["--search-exploration", "nan"], "argument --search-exploration:"),
    (["--search-rollout", "ismcts"], "argument --search-rollout: 'ismcts' is not a rollout agent; allowed random, "
                                     "heuristic, greedy, doctrine"),
    (["--search-rollout-depth", "-2"], "argument --search-rollout-depth:"),
])
@pytest.mark.parametrize("command", ["selfplay", "league", "battle", "play", "render"])
def test_a_bad_search_option_is_refused_naming_it(command, argv, message, capsys):
    assert message in _error([command, *argv], capsys)


@pytest.mark.parametrize("command, agents", [("selfplay", "--agents=random,greedy"), ("battle", "--agents=random,greedy"),
                                             ("league", "--agents=random,greedy"), ("play", "--players=human,greedy")])
def test_search_options_need_a_search_agent(command, agents, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    err = _error([command, agents, "--search-rollout", "greedy", "--scenario", SMALL], capsys)
    searchers = "ismcts, openspiel-ismcts" if command == "league" else "ismcts"   # the league's game agent too
    assert f"--search-rollout: only with a search agent ({searchers}) in " + agents.split("=")[0] in err


def test_help_lists_ismcts_and_the_search_options(capsys):
    for command in ("selfplay", "league", "battle", "play"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "ismcts" in text and "--search-simulations N" in text and "--search-rollout AGENT" in text


# -- league ------------------------------------------------------------------------------------------
def test_cli_league_rates_ismcts_the_same_twice(tmp_path, capsys):
    texts = []
    for k in range(2):
        out = tmp_path / f"l{k}.csv"
        assert main(["league", "--agents", "ismcts,random,heuristic", "--games", "2", "--seed", "1",
                     "--scenario", SMALL, "--search-simulations", "8", "--quiet", "--out", str(out)]) == 0
        text = capsys.readouterr().out
        assert re.search(r"^\s*ismcts\b", text, re.M)
        texts.append((read_results(out), (tmp_path / f"l{k}.ratings.csv").read_text()))
    assert texts[0] == texts[1]
    assert {r["agent_0"] for r in texts[0][0]} == {"ismcts", "random", "heuristic"}


def test_league_plays_ismcts_against_an_outside_policy_the_same_twice():
    def first_legal(observations, action_masks):
        return action_masks.argmax(axis=1)

    entrants = [Entrant("ismcts"), Entrant("first", first_legal)]
    runs = [play_league(entrants, 2, seed=2, scenario=SMALL, search=FEW).records for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0]) == 2
    with pytest.raises(ValueError, match="exploration"):
        play_league(entrants, 2, scenario=SMALL, search={"exploration": -1.0})


# -- battle and render -------------------------------------------------------------------------------
def test_cli_battle_and_render_play_ismcts_the_same_twice(tmp_path, capsys):
    logs = []
    for k in range(2):
        log = tmp_path / f"b{k}.jsonl"
        assert main(["battle", "--agents", "ismcts,doctrine", "--seed", "4", "--scenario", SMALL, "--quiet",
                     "--search-simulations", "8", "--search-rollout-depth", "10", "--log", str(log)]) == 0
        capsys.readouterr()
        logs.append(log.read_text())
    assert logs[0] == logs[1]
    g = Game(SMALL, 4)
    agents = [make_agent("ismcts", 4, search={"simulations": 8, "rollout_depth": 10}), make_agent("doctrine", 5)]
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
    assert f'"actions": {g.history}'.replace(" ", "") in logs[0].replace(" ", "")
    html = tmp_path / "r.html"
    assert main(["render", "--agents", "ismcts,doctrine", "--seed", "4", "--scenario", SMALL,
                 "--search-simulations", "8", "--search-rollout-depth", "10", "--html", str(html)]) == 0
    assert html.stat().st_size > 0


# -- play --------------------------------------------------------------------------------------------
def test_play_text_against_ismcts_plays_a_whole_game_the_same_twice(tmp_path):
    # Through the command, as a person would: "1" answers every question, "q" is never needed.
    saves = []
    for k in range(2):
        save = tmp_path / f"g{k}.json"
        proc = subprocess.run([sys.executable, "-m", "atomic_africa.cli", "play", "--text", "--players",
                               "human,ismcts", "--scenario", SMALL, "--seed", "6", "--search-simulations", "8",
                               "--save", str(save)], input="1\n" * 200, capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr
        saves.append(Game.from_json(save.read_text()))
    a, b = saves
    assert a.is_over and a.history == b.history
    assert any(a.history[i] != 0 for i in range(len(a.history)))
    # the second side's decisions are the search agent's, with the options' parameters
    g = Game(SMALL, 6)
    agent = make_agent("ismcts", 6 + 1, search=FEW)
    for action in a.history:
        if g.current_player == 1:
            assert agent.act(g) == action
        g.apply(action)


def test_the_play_server_plays_a_whole_game_against_ismcts(tmp_path):
    # The browser page's routes, as the page calls them: every decision posted, the agent answering.
    import http.client
    import json
    import threading
    import urllib.parse

    from atomic_africa.play import PlaySession
    from atomic_africa.play.server import HOST, PlayServer
    session = PlaySession.new(SMALL, 6, "human,ismcts", save=tmp_path / "s.json", search=FEW)
    server = PlayServer(session, 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()

    def call(method, path, body=None):
        conn = http.client.HTTPConnection(HOST, server.port, timeout=60)
        try:
            data = None if body is None else json.dumps(body).encode()
            conn.request(method, f"{path}?{urllib.parse.urlencode({'token': server.token})}", body=data,
                         headers={"Host": f"{HOST}:{server.port}", "Content-Type": "application/json"})
            r = conn.getresponse()
            return r.status, json.loads(r.read())
        finally:
            conn.close()

    try:
        for _ in range(500):
            status, st = call("GET", "/api/state")
            assert status == 200
            if st["over"]:
                break
            assert call("POST", "/api/act", {"action": st["choices"][0]["id"], "step": st["step"]})[0] == 200
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
    saved = Game.from_json((tmp_path / "s.json").read_text())
    assert saved.is_over
    g, agent = Game(SMALL, 6), make_agent("ismcts", 6 + 1, search=FEW)
    for action in saved.history:
        if g.current_player == 1:
            assert agent.act(g) == action
        g.apply(action)


# -- the environments --------------------------------------------------------------------------------
def _episode(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    seen, done = [obs], False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        seen.append(obs)
        done = term or trunc
    return np.array(seen), reward


def test_single_env_ismcts_opponent_is_deterministic_and_checked():
    import gymnasium  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env import AtomicAfricaEnv
    runs = [_episode(AtomicAfricaEnv(scenario=SMALL, opponent="ismcts", search=FEW), 9) for _ in range(2)]
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1]
    env = AtomicAfricaEnv(scenario=SMALL, opponent="ismcts", search={"simulations": 8, "rollout": "greedy"})
    env.reset(seed=1)
    assert (env.opponent.simulations, env.opponent.rollout) == (8, "greedy")
    with pytest.raises(ValueError, match="simulations"):
        AtomicAfricaEnv(scenario=SMALL, opponent="ismcts", search={"simulations": 0})


def test_vector_env_ismcts_opponent_is_deterministic_and_checked():
    import gymnasium  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env import AtomicAfricaVectorEnv

    def run():
        env = AtomicAfricaVectorEnv(num_envs=2, scenario=SMALL, opponent="ismcts", search=FEW)
        obs, info = env.reset(seed=9)
        out = [obs]
        for _ in range(30):
            obs, reward, term, trunc, info = env.step(info["action_mask"].argmax(axis=1))
            out += [obs, reward]
        return out

    a, b = run(), run()
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    env = AtomicAfricaVectorEnv(num_envs=1, scenario=SMALL, opponent="ismcts", search={"rollout": "doctrine"})
    assert env.vector_game.agent_params["rollout"] == 3.0
    with pytest.raises(ValueError, match="rollout"):
        AtomicAfricaVectorEnv(num_envs=1, scenario=SMALL, opponent="ismcts", search={"rollout": "ismcts"})


def test_sb3_adapter_takes_the_search_parameters():
    import stable_baselines3  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env.sb3 import AtomicAfricaSB3VecEnv
    env = AtomicAfricaSB3VecEnv(num_envs=2, scenario=SMALL, opponent="ismcts", seed=3, search=FEW)
    env.reset()
    assert env.vector_env.vector_game.agent_params["simulations"] == 8.0


def test_the_vector_env_ismcts_opponent_plays_as_the_single_env_one():
    # the native search opponent's stream restarts each game from the same agent seed as the Python one's
    import gymnasium  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env import AtomicAfricaEnv, AtomicAfricaVectorEnv
    single = AtomicAfricaEnv(scenario=SMALL, opponent="ismcts", search=FEW, info_game_seed=True)
    vector = AtomicAfricaVectorEnv(num_envs=1, scenario=SMALL, opponent="ismcts", search=FEW, info_game_seed=True)
    vobs, vinfo = vector.reset(seed=9)
    obs, info = single.reset(seed=int(vinfo["game_seed"][0]))
    assert np.array_equal(obs, vobs[0])
    done = False
    while not done:
        a = int(info["action_mask"].argmax())
        obs, reward, done, _, info = single.step(a)
        vobs, vreward, vdone, _, _ = vector.step(np.array([a]))
        assert bool(vdone[0]) == done and vreward[0] == reward
        if not done:
            assert np.array_equal(obs, vobs[0])
