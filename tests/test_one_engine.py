"""One engine in the product (issue 32): ``atomic_africa.game.Game`` is a one-game handle on the C core;
the Python engine is the reference it is checked against (``atomic_africa.reference.game``), which the
product never imports.

- Every product path (CLI battle and render, a play session, replays, the Gymnasium and PettingZoo
  envs, self-play, the league, the native agents) runs without the reference engine being imported.
- The native side (``aa_core``, ``atomic_africa.game.native``) imports without it.
- The product ``Game`` and the reference agree on the whole saved state (``to_json``: state, random
  stream, events, history) after every decision of random games, and the built-in (native) agents
  take the reference agents' decisions.
"""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import atomic_africa.agents as native_agents
from atomic_africa.game import Game, IllegalActionError
from atomic_africa.reference import game as reference
from atomic_africa.reference.game import agents as reference_agents

ROOT = Path(__file__).resolve().parents[1]

_PRODUCT = r"""
import sys, json, tempfile, os
import numpy as np
import aa_core.single, aa_core.vbatch, aa_core.vgame
import atomic_africa.game.native.vector, atomic_africa.game.native.single
assert "atomic_africa.reference.game" not in sys.modules, "native side"
import atomic_africa, atomic_africa.game, atomic_africa.agents, atomic_africa.env, atomic_africa.replay
import atomic_africa.play.session, atomic_africa.selfplay, atomic_africa.league, atomic_africa.cli
from atomic_africa.cli import main
tmp = tempfile.mkdtemp()
log = os.path.join(tmp, "b.jsonl")
assert main(["battle", "--seed", "2", "--agents", "greedy,doctrine", "--quiet", "--log", log]) == 0
assert main(["battle", "--seed", "3", "--agents", "random,heuristic", "--quiet"]) == 0
assert main(["render", log, "--html", os.path.join(tmp, "b.html")]) == 0
from atomic_africa.play.session import PlaySession
s = PlaySession.new(None, 4, players=("human", "greedy"), save=os.path.join(tmp, "p.json"))
for _ in range(40):
    if s.game.is_over:
        break
    if s.human_to_play:
        s.act(s.game.legal_actions()[0])
    else:
        s.advance()
s.undo() if s.undoable() else None
from atomic_africa.game import Game
from atomic_africa.replay import narrate
g = Game(None, 5)
g.apply(g.legal_actions()[0])
Game.from_json(g.to_json())
from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
env = AtomicAfricaEnv(opponent="greedy")
obs, info = env.reset(seed=1)
for k in range(30):
    obs, r, done, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    if done:
        break
from atomic_africa.env.pettingzoo_env import env as pz_env
e = pz_env()
e.reset(seed=2)
for _ in range(30):
    o, _, term, trunc, _ = e.last()
    e.step(None if term or trunc else int(np.flatnonzero(o["action_mask"])[0]))
from atomic_africa.selfplay import play_games
play_games(2, ("greedy", "random"), seed=1, replays=True)
from atomic_africa.league import play_league
play_league(["greedy", "random"], 2, seed=1)
bad = sorted(m for m in sys.modules if m.startswith("atomic_africa.reference.game"))
print(json.dumps(bad))
"""


def test_the_product_never_imports_the_reference_engine():
    proc = subprocess.run([sys.executable, "-c", _PRODUCT], capture_output=True, text=True, timeout=600,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []


def test_the_debugging_option_is_the_reference():
    proc = subprocess.run([sys.executable, "-c",
                           "import sys\nfrom atomic_africa.cli import main\n"
                           "main(['battle', '--seed', '2', '--engine', 'reference', '--quiet'])\n"
                           "print('atomic_africa.reference.game' in sys.modules)"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().splitlines()[-1] == "True"


@pytest.mark.parametrize("scenario,seed", [(None, 11), ("meeting_engagement", 12), (None, 13)])
def test_the_c_core_game_is_the_reference_game_decision_by_decision(scenario, seed):
    g, r = Game(scenario, seed), reference.Game(scenario, seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        assert g.to_json() == r.to_json(), f"step {steps}"
        assert g.legal_actions() == r.legal_actions() and np.array_equal(g.action_mask(), r.action_mask())
        for p in (0, 1):
            assert np.array_equal(g.observation(p), r.observation(p))
            assert g.events(player=p) == r.events(player=p)
        assert (g.current_player, g.stage, g.is_over, g.result, g.returns()) == \
            (r.current_player, r.stage, r.is_over, r.result, r.returns())
        if g.is_over:
            break
        legal = g.legal_actions()
        a = int(rng.choice(legal))
        assert [g.describe_action(x) for x in legal] == [r.describe_action(x) for x in legal]
        assert [g.preview_destination(x) for x in legal] == [r.preview_destination(x) for x in legal]
        g.apply(a)
        r.apply(a)
        steps += 1
    assert steps > 50


@pytest.mark.parametrize("name", ["random", "heuristic", "greedy", "doctrine"])
def test_the_built_in_agents_are_the_reference_agents(name):
    g, r = Game(None, 21), reference.Game(None, 21)
    ag = [native_agents.make_agent(name, 30 + p) for p in (0, 1)]
    ar = [reference_agents.make_agent(name, 30 + p) for p in (0, 1)]
    while not g.is_over:
        a = ag[g.current_player].act(g)
        assert a == ar[r.current_player].act(r)
        g.apply(a)
        r.apply(a)
    assert g.to_json() == r.to_json()


def test_clone_pickle_reseed_determinize_and_json_as_the_reference():
    import pickle
    g, r = Game(None, 31), reference.Game(None, 31)
    for a in [g.legal_actions()[k % 3 if len(g.legal_actions()) > 2 else 0] for k in range(1)]:
        g.apply(a)
        r.apply(a)
    for k in range(40):
        legal = g.legal_actions()
        a = legal[(k * 7) % len(legal)]
        g.apply(a)
        r.apply(a)
    c, p = g.clone(), pickle.loads(pickle.dumps(g))
    assert c.to_json() == g.to_json() == p.to_json()
    c.apply(c.legal_actions()[0])
    assert c.to_json() != g.to_json() and len(g.history) == 41
    loaded = Game.from_json(r.to_json())
    assert loaded.to_json() == r.to_json()
    for x in (g, r):
        x.determinize(1 - x.current_player, 99)
    assert g.to_json() == r.to_json()
    for x in (g, r):
        x.reseed(7)
        x.apply(x.legal_actions()[-1])
    assert g.to_json() == r.to_json()


def test_illegal_actions_are_refused_as_the_reference():
    g, r = Game(None, 41), reference.Game(None, 41)
    legal = set(g.legal_actions())
    bad = next(a for a in range(g.num_actions) if a not in legal)
    for x in (g, r):
        with pytest.raises(IllegalActionError) as e:
            x.apply(bad)
        msgs = str(e.value)
        with pytest.raises(IllegalActionError, match="out of range"):
            x.apply(x.num_actions)
        with pytest.raises(TypeError, match="action"):
            x.apply("1")
    assert msgs and len(g.history) == 0
    with pytest.raises(IllegalActionError) as e2:
        r.apply(bad)
    with pytest.raises(IllegalActionError) as e1:
        g.apply(bad)
    assert str(e1.value) == str(e2.value)


@pytest.mark.parametrize("opponent,seed", [("random", 51), ("greedy", 52)])
def test_the_single_gymnasium_env_plays_the_reference_game(opponent, seed):
    """The single env (the C core since issue 32) against the reference engine fed the same decisions:
    the same saved game and the learner's same observation after every step."""
    from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
    env = AtomicAfricaEnv(opponent=opponent, player=0, view="absolute")
    obs, info = env.reset(seed=seed)
    r = reference.Game(env.game.spec, seed)
    rng = np.random.default_rng(seed)
    done, steps = False, 0
    while True:
        for a in env.game.history[len(r.history):]:
            r.apply(a)
        assert env.game.to_json() == r.to_json()
        np.testing.assert_array_equal(obs, r.observation(0))
        np.testing.assert_array_equal(info["action_mask"], r.action_mask())
        if done:
            break
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
    assert r.is_over and steps > 20
