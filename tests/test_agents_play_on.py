"""Issue 35 point 2: no built-in agent holds back every card or stops activating when behind.

Losing positions are built deterministically: in game ``j`` the side ``j % 2`` of the default battle
keeps only one of its four units (unit ``j // 2 % 4``), against the whole other side. The games are
played by the native agents (``play_agent_games``) and replayed on the Python ``Game``; a handful are
also played by the Python agents, decision for decision alike. In every turn in which the side
that is behind could give a card (a legal assignment at its Orders), it gives at least one, and its
ordered unit then activates or reacts; it never ends its Orders holding every card.
"""
import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa.reference.game.agents import make_agent
from atomic_africa.agents.native import play_agent_games
from atomic_africa.game import GameSpec, default_scenario
from atomic_africa.reference.game import Game
from atomic_africa.game.scenario import Scenario

DEFAULT = aa.Rules.default()
VARIANT = DEFAULT.replace(orders={"reserve_by_choice": True})
# (rules, agent of the side that is behind): 100 games under each rules setting. The random agent
# picks END ORDERS by chance where it is legal, so it is held to the default rules only.
PLANS = [(DEFAULT, ("greedy", "doctrine", "heuristic", "random")), (VARIANT, ("greedy", "doctrine", "heuristic"))]
GAMES = 100


def losing_scenario(j: int) -> Scenario:
    """The default battle with side ``j % 2`` cut down to its unit ``j // 2 % 4``."""
    d = default_scenario().to_dict()
    side = d["sides"][j % 2]
    side["units"] = [side["units"][j // 2 % len(side["units"])]]
    return Scenario.from_dict(d)


def replay(spec, seed, actions, p) -> list:
    """Per turn of the game: (p could give a card, cards p gave, p's units that activated or reacted,
    p ended its Orders with no ordered unit while it could still give a card)."""
    g = Game(spec, seed)
    turns, cur = [], None
    for a in actions:
        a = int(a)
        if g.stage == "ORDERS" and g.current_player == p:
            if cur is None or cur["turn"] != g.s.turn:
                cur = {"turn": g.s.turn, "could": bool(g._orders_pairs(p)), "gave": 0, "acted": 0, "held_all": False}
                turns.append(cur)
            if a == g.space.end_orders and g._orders_pairs(p) and not any(
                    u.has_orders for u in g.s.units[p * g.C:(p + 1) * g.C]):
                cur["held_all"] = True
        n = len(g.events)
        g.apply(a)
        for e in g.events[n:]:
            if cur is not None and e.get("player") == p:
                if e["type"] == "assign":
                    cur["gave"] += 1
                elif e["type"] in ("activate", "react"):
                    cur["acted"] += 1
    assert g.is_over
    return turns


@pytest.mark.parametrize("plan", range(len(PLANS)), ids=["default_rules", "reserve_by_choice"])
def test_agents_behind_keep_giving_orders_and_activating(plan):
    rules, kinds = PLANS[plan]
    checked = 0
    for j in range(GAMES):
        p, kind = j % 2, kinds[j // 2 % len(kinds)]
        spec = GameSpec.build(losing_scenario(j), rules)
        pair = (kind, "greedy") if p == 0 else ("greedy", kind)
        r = play_agent_games(spec, np.array([j], np.uint64), pair, np.array([[2 * j, 2 * j + 1]], np.uint64),
                             record_actions=True)
        for t in replay(spec, j, r["actions"][0], p):
            assert not t["held_all"], (j, kind, t)
            if t["could"]:
                checked += 1
                assert t["gave"] >= 1 and t["acted"] >= 1, (j, kind, t)
    assert checked >= GAMES   # every game has at least one turn in which the side behind could act


@pytest.mark.parametrize("kind", ["greedy", "doctrine"])
def test_python_agents_behind_play_as_their_native_twins(kind):
    """The Python agents take the same decisions from the losing positions (the variant, where END
    ORDERS is a choice)."""
    for j in range(4):
        spec = GameSpec.build(losing_scenario(j), VARIANT)
        native = play_agent_games(spec, np.array([j], np.uint64), (kind, kind),
                                  np.array([[0, 1]], np.uint64), record_actions=True)["actions"][0].tolist()
        g = Game(spec, j)
        agents = [make_agent(kind, 0), make_agent(kind, 1)]
        while not g.is_over:
            g.apply(agents[g.current_player].act(g))
        assert g.history == native, (kind, j)
