"""Random-play fuzzing: games with random legal actions end, invariants hold after every step,
and the action log replays to the same state."""
import numpy as np
import pytest

from atomic_africa.reference.game.agents import RandomAgent
from atomic_africa.reference.game import Game
from atomic_africa.game.events import EVENT_TYPES
from atomic_africa.game.scenario import Scenario
from atomic_africa.game.testing import mini_scenario, unit

KINDS = ("infantry", "light_infantry", "vehicle")


def random_scenario(seed):
    """A small random scenario: 1-4 units a side, random kinds, dice, terrain and assets; attached
    units, a side's hand size, light-infantry spotters and armoured features come from a second stream
    (so the rest of the scenario is the same as before they existed)."""
    r = np.random.default_rng(seed)
    r2 = np.random.default_rng([seed, 11])
    dice = ["d4", "d6", "d8", "d10", "d12"]

    def side(y0):
        out = []
        for k in range(int(r.integers(1, 5))):
            kind = KINDS[int(r.integers(3))]
            u = unit(float(r.uniform(0, 120)), float(r.uniform(y0, y0 + 30)), kind=kind,
                     figures=1 if kind == "vehicle" else int(r.integers(2, 14)),
                     dice=[dice[int(i)] for i in r.integers(0, 5, 3)], armor=int(r.integers(1, 6)),
                     markers=int(r.integers(0, 3)), wounds=int(r.integers(0, 3)),
                     spotter=kind == "infantry" and bool(r.integers(2)), comms=bool(r.integers(2)),
                     commander=k == 0)
            if kind == "light_infantry" and r2.integers(2):
                u["spotter"] = True
            if kind != "vehicle" and r2.integers(3) == 0:
                u["attached"] = True
            if r.integers(2):
                u["heavy_weapon"] = {"dispersed": -int(r.integers(0, 3))} if r.integers(2) else \
                    {"point": -int(r.integers(0, 4)), "dispersed": 0}
            out.append(u)
        return out

    terrain = []
    for _ in range(int(r.integers(0, 5))):
        cover = ["none", "light", "heavy"][int(r.integers(3))]
        armor = {"armor": int(r2.integers(1, 5))} if cover != "none" and r2.integers(4) else {}
        if r.integers(2):
            terrain.append({"shape": "circle", "center": [float(r.uniform(0, 120)), float(r.uniform(0, 90))],
                            "radius": float(r.uniform(2, 15)), "cover": cover, "blocks_los": bool(r.integers(2)),
                            **armor})
        else:
            x, y = float(r.uniform(0, 100)), float(r.uniform(0, 70))
            w, h = float(r.uniform(3, 20)), float(r.uniform(3, 20))
            terrain.append({"shape": "polygon", "points": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
                            "cover": cover, "blocks_los": bool(r.integers(2)), **armor})
    assets = [{"dice": ["d10", "d10", "d8"], "ap": -int(r.integers(0, 2)),
               "blast_radius_cm": float(r.uniform(3, 15))} for _ in range(int(r.integers(0, 3)))]
    exp = ("green", "regular", "veteran", "elite")
    sc = mini_scenario(side(0), side(60), terrain=terrain, turns=int(r.integers(1, 6)),
                       experience=(exp[int(r.integers(4))], exp[int(r.integers(4))]), assets=assets,
                       width=120.0, height=90.0)
    if r2.integers(3) == 0:  # a side's hand size from the scenario instead of the rules' formula
        d = sc.to_dict()
        d["sides"][int(r2.integers(2))]["hand_size"] = int(r2.integers(0, 5))
        sc = Scenario.from_dict(d)
    return sc


def run(game, seed):
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    figures = [game.figures(p) + game.s.players[p].removed_figures for p in range(2)]
    steps = 0
    while not game.is_over:
        p = game.current_player
        legal = game.legal_actions()
        assert legal, f"no legal action in stage {game.stage}"
        game.apply(agents[p].act(game))
        game.check_invariants()
        steps += 1
        assert steps < 20_000
    assert [game.figures(p) + game.s.players[p].removed_figures for p in range(2)] == figures
    removed = sum(e["figures"] for e in game.events if e["type"] == "removed")
    assert removed == sum(pl.removed_figures for pl in game.s.players)
    assert game.result is not None
    assert {e["type"] for e in game.events} <= set(EVENT_TYPES)
    return steps


# The fast subset plays chunk 0 of the random scenarios (100 scenarios, each game replayed); the
# other chunks and the long default-scenario games add breadth.
SLOW_CHUNKS = [pytest.param(c, marks=pytest.mark.slow) for c in range(1, 8)]


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(8))
def test_random_games_on_the_default_scenario(chunk):
    for seed in range(chunk * 40, chunk * 40 + 40):
        g = Game(None, seed)
        run(g, seed)
        if seed % 8 == 0:
            assert Game.replay(None, seed, g.history).to_json() == g.to_json()


@pytest.mark.parametrize("chunk", [0] + SLOW_CHUNKS)
def test_random_games_on_random_scenarios(chunk):
    for seed in range(1000 + chunk * 100, 1000 + chunk * 100 + 100):
        sc = random_scenario(seed)
        g = Game(sc, seed)
        run(g, seed)
        assert Game.replay(sc, seed, g.history).to_json() == g.to_json()
