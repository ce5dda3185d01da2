"""The learned agents in every place agents are named: ``puct`` (a network plus its PUCT search) and
``network`` (the network alone) in make_agent, the league, selfplay, battle and play (level expert).

Every test uses a small random network written to a temporary file; none needs the packaged network
(only the last test reads it, passing whether it is there or not).
"""
from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from atomic_africa.agents import AGENTS, NetworkAgent, PUCTAgent, make_agent
from atomic_africa.agents.network import DEFAULT_NETWORK, load_evaluator, save_mlp
from atomic_africa.agents.puct import PUCT_DEFAULTS
from atomic_africa.cli import main
from atomic_africa.game import Game, VectorGame
from atomic_africa.league import play_league
from atomic_africa.play import PlaySession
from atomic_africa.selfplay import play_games
from atomic_africa.selfplay.games import game_seeds

SMALL = str(Path(__file__).parent / "support" / "play_small.toml")


def tiny_network(path, scenario=None, hidden=32, seed=0):
    """A random one-hidden-layer network for ``scenario`` (default: the packaged battle)."""
    vg = VectorGame(scenario, 1, 0)
    rng = np.random.default_rng(seed)
    n, a = vg.observation_size, vg.num_actions
    return save_mlp(path, [(rng.normal(0, 1 / np.sqrt(n), (n, hidden)), np.zeros(hidden))],
                    (rng.normal(0, 0.5, (hidden, a)), np.zeros(a)), (rng.normal(0, 0.5, (hidden, 1)), np.zeros(1)))


@pytest.fixture(scope="module")
def net(tmp_path_factory):
    return str(tiny_network(tmp_path_factory.mktemp("net") / "tiny.npz"))


@pytest.fixture(scope="module")
def small_net(tmp_path_factory):
    return str(tiny_network(tmp_path_factory.mktemp("net") / "small.npz", SMALL))


def test_make_agent_builds_both_learned_agents(net):
    assert {"puct", "network"} <= set(AGENTS)
    a = make_agent("PUCT ", 3, network=net, puct={"simulations": 6})
    assert isinstance(a, PUCTAgent) and a.params["simulations"] == 6
    b = make_agent("network", 3, network=net)
    assert isinstance(b, NetworkAgent)
    g = Game(None, 5)
    for _ in range(6):
        agent = (a, b)[g.current_player]
        action = agent.act(g)
        assert action in g.legal_actions()
        g.apply(action)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"puct": {"simulations": 0}}, ValueError, "puct: simulations"),
    ({"puct": {"depth": 3}}, TypeError, "puct: depth: not a search parameter; allowed: simulations, wave"),
    ({"puct": [1]}, TypeError, "puct: expected a dict"),
    ({"network": 7}, TypeError, "network: expected a path"),
    ({"network": "no/such/file.npz"}, ValueError, "network: no file 'no/such/file.npz'"),
])
def test_bad_learned_parameters_are_named(kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")):
        make_agent("puct", 0, **kwargs)
    with pytest.raises(error, match=message.replace("(", r"\(")):   # checked whatever the agent
        make_agent("greedy", 0, **kwargs)


def test_a_league_with_learned_agents_is_the_same_twice(net):
    runs = [play_league("puct,network,greedy", 4, seed=2, network=net, puct={"simulations": 4, "wave": 2})
            for _ in range(2)]
    assert runs[0].records == runs[1].records
    assert len(runs[0].records) == 12
    names = {(r["agent_0"], r["agent_1"]) for r in runs[0].records}
    assert ("puct", "network") in names and ("network", "puct") in names and ("greedy", "puct") in names
    assert [r["agent"] for r in runs[0].rating_rows()] and runs[0].ratings().agents == ("puct", "network", "greedy")
    # The search's parameters are part of a match: other simulations, other games (here at least).
    other = play_league("puct,greedy", 4, seed=2, network=net, puct={"simulations": 12})
    assert [r["decisions"] for r in other.records] != [r["decisions"] for r in runs[0].records
                                                       if {r["agent_0"], r["agent_1"]} == {"puct", "greedy"}]


@pytest.mark.slow
def test_a_league_plays_its_learned_matches_on_worker_processes_with_the_same_records(net):
    kw = dict(seed=3, network=net, puct={"simulations": 4, "wave": 2})
    one = play_league("puct,network,greedy,random", 2, workers=1, **kw)
    log = io.StringIO()
    two = play_league("puct,network,greedy,random", 2, workers=2, log=log, **kw)
    assert two.records == one.records and len(two.records) == 12
    assert list(two.match_seconds) == list(one.match_seconds)           # the pairs in listed order
    said = sorted(line.split(":")[0] for line in log.getvalue().splitlines())
    assert said == sorted(f"{a} vs {b}" for a, b in one.match_seconds)  # each match said once, as it ends


def test_selfplay_with_puct_is_the_same_in_every_batching_and_equals_the_agents_game_by_game(small_net):
    kw = dict(seed=4, scenario=SMALL, network=small_net, puct={"simulations": 5, "wave": 2})
    one = play_games(4, ("puct", "random"), **kw)
    split = play_games(4, ("puct", "random"), batch_size=1, replays=True, **kw)
    assert one.records == split.records and one.n == 4
    for r, text in zip(split.records, split.replays):      # a replay is the game its record says
        g = Game.from_json(text)
        assert (g.seed, len(g.history), -1 if g.result.winner is None else g.result.winner) == (
            r["seed"], r["decisions"], r["winner"])
    # Game i is played as Game(seed_i) with make_agent(name, agent seed of its side) would play it.
    for r in one.records:
        seed, agent_seeds = game_seeds(np.random.SeedSequence(4).entropy, r["game"])
        g = Game(SMALL, seed)
        agents = [make_agent(r[f"agent_{p}"], agent_seeds[p], network=small_net, puct={"simulations": 5, "wave": 2})
                  for p in (0, 1)]
        while not g.is_over:
            g.apply(agents[g.current_player].act(g))
        assert (g.result.winner if g.result.winner is not None else -1) == r["winner"]
        assert len(g.history) == r["decisions"]


def test_selfplay_with_learned_agents_on_worker_processes_is_the_same(small_net):
    kw = dict(seed=5, scenario=SMALL, network=small_net, puct={"simulations": 3})
    here = play_games(4, ("puct", "network"), **kw)
    assert play_games(4, ("puct", "network"), workers=2, batch_size=2, **kw).records == here.records


def test_selfplay_refuses_the_python_engine_for_learned_agents(net):
    with pytest.raises(ValueError, match="engine: 'python' has no learned agents"):
        play_games(2, ("network", "random"), network=net, engine="python")


def test_the_play_session_takes_the_expert_level(small_net):
    from atomic_africa.play.session import LEVELS, LEVEL_WORDS
    assert LEVELS["expert"] == "puct" and "network" in LEVEL_WORDS["expert"]
    s = PlaySession.new(SMALL, 1, "human,expert", learned=small_net)
    assert isinstance(s.agents[1], PUCTAgent) and s.agents[0] is None
    st = s.state()
    assert st["levels"] == [None, "expert"] and s.label(1) == "Red (expert AI)"
    assert "expert" in [lv["name"] for lv in st["new_game"]["levels"]]
    for _ in range(3):
        if s.game.is_over:
            break
        st = s.state()
        s.act(st["choices"][0]["id"], st["step"])
    assert s.game.history


@pytest.mark.parametrize("command", ["battle", "selfplay", "league", "play"])
def test_the_commands_offer_the_network_options(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for words in ("--network FILE.npz", "--puct-simulations N", "--puct-c C", "--puct-rollout AGENT",
                  "--puct-rollout-weight L", "--puct-width K", "puct"):
        assert words in out, words


def test_the_rollout_and_width_options_reach_the_search(capsys):
    import argparse

    from atomic_africa.cli.common import add_network_options, network_from_args

    parser = argparse.ArgumentParser()
    add_network_options(parser)
    args = parser.parse_args(["--puct-rollout", "Heuristic", "--puct-rollout-weight", "0.25", "--puct-width", "3"])
    learned = network_from_args(args, ["puct", "greedy"])
    assert learned.puct == {**PUCT_DEFAULTS, "rollout": "heuristic", "rollout_weight": 0.25, "width": 3}
    assert network_from_args(parser.parse_args([]), ["puct"]).puct == PUCT_DEFAULTS
    for argv, words in ((["--puct-rollout", "ismcts"], "'ismcts' is not a rollout agent; allowed none, random"),
                        (["--puct-rollout-weight", "2"], "out of range"), (["--puct-width", "-1"], "-1")):
        with pytest.raises(SystemExit):
            parser.parse_args(argv)
        err = capsys.readouterr().err
        assert f"argument {argv[0]}" in err and words in err, err


def test_the_commands_play_learned_agents(net, capsys, tmp_path):
    argv = ["--network", net, "--puct-simulations", "4"]
    assert main(["league", "--agents", "puct,network,random", "--games", "2", "--quiet", *argv]) == 0
    out = capsys.readouterr().out
    assert "Bradley-Terry ratings" in out and "puct vs network" in out
    assert main(["selfplay", "--agents", "puct,greedy", "--games", "2", "--no-progress", *argv]) == 0
    assert "2 games, puct (A) vs greedy (B)" in capsys.readouterr().out
    assert main(["battle", "--agents", "network,puct", "--quiet", *argv]) == 0
    for args, message in ((["battle", "--agents", "random,greedy", "--network", net],
                           "--network: only with a learned agent (puct, network) in --agents"),
                          (["selfplay", "--agents", "network,greedy", "--puct-simulations", "3"],
                           "--puct-simulations: only with the puct agent in --agents")):
        try:
            assert main(args) == 2
        except SystemExit as exc:
            assert exc.code == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, err


def test_the_packaged_network_ships_and_plays_the_default_battle(monkeypatch):
    """The network trained by examples/alphazero.py is package data: it loads with the packaged
    battle's sizes and the expert level plays with it; a missing one is named, with the option."""
    from atomic_africa.agents import network as network_module

    path = resources.files("atomic_africa.data") / DEFAULT_NETWORK
    assert Path(str(path)).is_file()
    ev = load_evaluator(None)
    vg = VectorGame(None, 1, 0)
    assert (ev.observation_size, ev.num_actions) == (vg.observation_size, vg.num_actions)
    assert ev.meta["trained_by"] == "examples/alphazero.py"
    game = Game(None, 3)
    for agent in (make_agent("puct", 1, puct={"simulations": 8}), make_agent("network", 1)):
        assert game.action_mask()[agent.act(game)]
    monkeypatch.setattr(network_module, "DEFAULT_NETWORK", "no_such_network.npz")
    with pytest.raises(ValueError, match="network: the packaged network .*no_such_network.npz' is not installed"):
        make_agent("puct")


def test_the_page_starts_an_expert_game_and_names_a_missing_network(small_net, tmp_path, monkeypatch):
    import threading

    from test_play_server import post

    from atomic_africa.agents import network as network_module
    from atomic_africa.play.server import PlayServer

    session = PlaySession.new(SMALL, 0, "human,random", save=tmp_path / "game.json", learned=small_net)
    server = PlayServer(session, 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        status, st = post(server, "/api/new", {"scenario": "current", "side": 0, "level": "expert", "seed": 3,
                                               "game": 0})
        assert status == 200 and server.session.players == ["human", "expert"], st
        assert isinstance(server.session.agents[1], PUCTAgent) and st["players"][1].endswith("(expert AI)")
        # Without a network of its own the expert level reads the packaged one: missing, it is named.
        server.session.learned = None
        monkeypatch.setattr(network_module, "DEFAULT_NETWORK", "no_such_network.npz")
        status, out = post(server, "/api/new", {"scenario": "current", "side": 0, "level": "expert", "game": 1})
        assert status == 409 and out["error"].startswith("level: expert cannot play here")
        assert "no_such_network.npz" in out["error"] and server.session.game_id == 1
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def test_a_streamed_run_with_puct_resumes_to_the_same_file_and_checks_the_search(small_net, tmp_path):
    from atomic_africa.selfplay import stream_games

    def stop_after(games):
        def hook(written):
            if written >= games:
                raise KeyboardInterrupt
        return hook

    kw = dict(seed=6, scenario=SMALL, network=small_net, batch_size=2)
    stream_games(6, ("puct", "random"), results=tmp_path / "whole.csv", puct={"simulations": 3}, **kw)
    out = tmp_path / "r.csv"
    with pytest.raises(KeyboardInterrupt):
        stream_games(6, ("puct", "random"), results=out, puct={"simulations": 3}, on_batch=stop_after(2), **kw)
    with pytest.raises(ValueError, match=r"^resume: .* is another run"):
        stream_games(6, ("puct", "random"), results=out, resume=True, puct={"simulations": 4}, **kw)
    done = stream_games(6, ("puct", "random"), results=out, resume=True, puct={"simulations": 3}, **kw)
    assert done.resumed == 2 and out.read_bytes() == (tmp_path / "whole.csv").read_bytes()


def test_the_evaluator_runs_blas_on_the_threads_it_is_given_and_says_what_it_takes(net):
    import pickle

    from threadpoolctl import threadpool_info, threadpool_limits

    from atomic_africa.agents.network import MLPEvaluator

    vg = VectorGame(None, 3, 5)
    obs, masks = vg.observations(), vg.action_masks()
    seen = []

    def blas_threads():
        return {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}

    class Probe(MLPEvaluator):   # records BLAS's thread count inside the call
        def _forward(self, x, m):
            seen.append(blas_threads())
            return super()._forward(x, m)

    one, free = Probe(net), Probe(net, blas_threads=None)
    with threadpool_limits(limits=2, user_api="blas"):
        outside = blas_threads()
        p1, v1 = one(obs, masks)
        p2, v2 = free(obs, masks)
        assert blas_threads() == outside            # restored after the call
    assert seen == [{1}, outside]
    np.testing.assert_allclose(p1, p2, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(v1, v2, rtol=1e-5, atol=1e-7)
    plain = MLPEvaluator(net)
    plain(obs, masks)                               # its limiter made
    p3, v3 = pickle.loads(pickle.dumps(plain))(obs, masks)   # a worker's copy makes its own
    np.testing.assert_array_equal(p3, p1)
    np.testing.assert_array_equal(v3, v1)
    for bad in (0, -1, 2.5, "2"):
        with pytest.raises((ValueError, TypeError), match="blas_threads"):
            MLPEvaluator(net, blas_threads=bad)
