"""Built-in agents: only legal moves; greedy picks by exact odds; doctrine rallies when suppressed."""
import itertools

import pytest

from atomic_africa import odds
from atomic_africa.enums import Action, Cover, Die, Posture
from atomic_africa.reference.game.agents import (AGENTS, DoctrineAgent, GreedyAgent, HeuristicAgent, RandomAgent,
                                      make_agent)
from atomic_africa.reference.game import Game
from atomic_africa.game.testing import Driver, mini_scenario, scripted, unit


def _play_checked(game, agents):
    """Play to the end asserting each decision is legal and the invariants hold."""
    steps = 0
    while not game.is_over:
        legal = game.legal_actions()
        a = agents[game.current_player].act(game)
        assert isinstance(a, int) and a in legal, (game.stage, a, legal)
        game.apply(a)
        steps += 1
        if steps % 25 == 0:
            game.check_invariants()
    game.check_invariants()
    return game


@pytest.mark.parametrize("a,b,seed", [("doctrine", "random", 1), ("random", "doctrine", 2),
                                      ("heuristic", "doctrine", 3), ("greedy", "random", 4),
                                      ("doctrine", "greedy", 5)])
def test_agents_play_only_legal_moves(a, b, seed):
    g = _play_checked(Game(None, seed), [make_agent(a, seed), make_agent(b, seed + 1)])
    assert g.result is not None


def test_agents_are_deterministic_given_seed():
    for name in ("random", "greedy", "doctrine"):
        g1 = Game(None, 11)
        g2 = Game(None, 11)
        a1, a2 = make_agent(name, 5), make_agent(name, 5)
        for _ in range(60):
            x, y = a1.act(g1), a2.act(g2)
            assert x == y
            g1.apply(x)
            g2.apply(y)


def test_make_agent_names_and_errors():
    assert set(AGENTS) == {"random", "greedy", "doctrine", "heuristic", "ismcts"}
    assert isinstance(make_agent("Greedy"), GreedyAgent)
    assert isinstance(make_agent("doctrine"), DoctrineAgent)
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("heuristic"), HeuristicAgent)
    with pytest.raises(ValueError, match="allowed: doctrine, greedy, heuristic, ismcts, random"):
        make_agent("alphazero")


# -- constructed situations -------------------------------------------------------------------------
# Blue's shooter at (90, 10). Red "near" at 20 cm (band 1) inside heavy cover with armor 3; Red "far"
# at 40 cm (band 2) in the open with armor 1.
_HEAVY = {"name": "bunker", "shape": "circle", "center": [90.0, 30.0], "radius": 6.0, "cover": "heavy",
          "blocks_los": False}


def _target_stage(blue_card="10H", blue=None, red=None):
    blue = blue or [unit(90.0, 10.0, dice=("d10", "d10", "d10"), name="shooter")]
    red = red or [unit(90.0, 30.0, armor=3, dice=("d8", "d8", "d8"), name="near"),
                  unit(90.0 + 40.0 * 0.6, 10.0 + 40.0 * 0.8, armor=1, dice=("d8", "d8", "d8"), name="far")]
    sc = mini_scenario(blue, red, terrain=[_HEAVY])
    g = Game(sc, 0, source=scripted(blue_top=[blue_card], red_top=["2C", "3C", "4C"]))
    d = Driver(g)
    d.assign(blue_card, 0)
    for k in range(len(red)):   # Red orders: clubs to every unit
        d.assign(["2C", "3C", "4C"][k], g.C + k)
    d.select(0)
    return g, d


def _value(dist, cap=2):
    return 3 * odds.expected_wounds(dist) + sum(p * min(m, cap) for (m, w), p in dist.items())


def test_greedy_picks_the_best_odds_target_not_the_nearest():
    g, _ = _target_stage()
    assert g.stage == "DECLARE_TARGET"
    near, far = g.C + 0, g.C + 1
    # Exact odds, computed here from the situation: the exposed, thin-skinned far target is better.
    shooter = (Die.D10, Die.D10, Die.D10)
    target = (Die.D8, Die.D8, Die.D8)
    kw = dict(shooter_posture=Posture.OFFENSIVE, target_posture=Posture.DEFENSIVE, exact=True)
    d_near = odds.fire_outcomes(shooter, target, range_band=1, armor=3, cover=Cover.HEAVY, **kw)
    d_far = odds.fire_outcomes(shooter, target, range_band=2, armor=1, cover=Cover.NONE, **kw)
    assert odds.expected_wounds(d_far) > odds.expected_wounds(d_near)
    assert _value(d_far) > _value(d_near)
    assert GreedyAgent().act(g) == g.space.target(far)
    # The one-step heuristic fires at the closest enemy: the situation discriminates.
    assert HeuristicAgent().act(g) == g.space.target(near)


def test_greedy_target_follows_the_odds_when_they_flip():
    # Same geometry, but now the far target is heavily armoured and the near one exposed.
    red = [unit(90.0, 30.0, armor=1, dice=("d8", "d8", "d8"), name="near"),
           unit(114.0, 42.0, armor=6, dice=("d12", "d12", "d12"), name="far")]
    g, _ = _target_stage(red=red)
    shooter = (Die.D10, Die.D10, Die.D10)
    kw = dict(shooter_posture=Posture.OFFENSIVE, target_posture=Posture.DEFENSIVE, exact=True)
    d_near = odds.fire_outcomes(shooter, (Die.D8,) * 3, range_band=1, armor=1, cover=Cover.HEAVY, **kw)
    d_far = odds.fire_outcomes(shooter, (Die.D12,) * 3, range_band=2, armor=6, cover=Cover.NONE, **kw)
    best = g.C + 0 if _value(d_near) > _value(d_far) else g.C + 1
    assert GreedyAgent().act(g) == g.space.target(best)


def test_greedy_joker_posture_and_action_by_odds():
    # A Joker lets the player pick any action and the posture: offensive Basic/Heavy fire scores
    # mid + high, which the odds rank above every defensive option against these targets.
    g, _ = _target_stage(blue_card="Joker1")
    assert g.stage == "DECLARE_ACTION"
    a = GreedyAgent().act(g)
    seg = g.space.decode(a)
    assert seg[0] == "DECLARE" and seg[2] == Posture.OFFENSIVE
    # Check against an independent evaluation of every legal option with the odds module.
    agent = GreedyAgent()
    from atomic_africa.reference.game.agents.scoring import _View
    view = _View(g)
    u = g.s.units[g.s.decl_uid]
    values = {b: agent.action_value(view, u, *g.space.decode(b)[1:]) for b in g.legal_actions()}
    assert values[a] == max(values.values())
    assert len({g.space.decode(b)[2] for b in g.legal_actions()}) == 2  # both postures were legal


def test_doctrine_rallies_when_suppressed():
    blue = [unit(90.0, 10.0, markers=2, name="pinned"), unit(60.0, 10.0, name="support")]
    sc = mini_scenario(blue, [unit(90.0, 60.0, name="enemy")])
    g = Game(sc, 0, source=scripted(blue_top=["QS", "5C"], red_top=["2C"]))
    agent = DoctrineAgent()
    # Orders: the doctrine gives the face card to the suppressed unit (it opens Rally).
    a = agent.act(g)
    assert g.space.decode(a) == ("ASSIGN", g.deck.id_of("QS"), 0)
    g.apply(a)
    while g.stage == "ORDERS":
        g.apply(agent.act(g) if g.current_player == 0 else g.legal_actions()[0])
    assert g.stage == "ACTIVATE" and g.current_player == 0
    a = agent.act(g)
    assert g.space.decode(a) == ("SELECT", 0)      # the suppressed unit goes first
    g.apply(a)
    assert g.stage == "DECLARE_ACTION"
    a = agent.act(g)
    assert g.space.decode(a)[1] == Action.RALLY
    g.apply(a)
    assert agent.act(g) == g.space.target(0)      # itself


def test_doctrine_base_of_fire_stays_manoeuvre_advances():
    # Turn 1: slot 0 manoeuvres ((0 + 1) % 2 == 1), slot 1 is the base of fire.
    blue = [unit(40.0, 10.0, name="m"), unit(140.0, 10.0, name="b")]
    red = [unit(90.0, 100.0, name="enemy")]
    agent = DoctrineAgent()
    for slot in (0, 1):
        g = Game(mini_scenario(blue, red), 0,
                 source=scripted(blue_top=["9H", "9C"], red_top=["2C"]))
        d = Driver(g)
        d.assign("9H", 0).assign("9C", 1).assign("2C", g.C)
        role = agent.role(g, g.s.units[slot])
        assert role == ("manoeuvre" if slot == 0 else "base")
        d.select(slot)
        while g.stage != "MOVE":
            g.apply(agent.act(g))
        assert g.s.decl_uid == slot
        u = g.s.units[slot]
        a = agent.act(g)
        x, y = g.preview_destination(a)
        enemy = g.s.units[g.C]
        before = ((u.x - enemy.x) ** 2 + (u.y - enemy.y) ** 2) ** 0.5
        after = ((x - enemy.x) ** 2 + (y - enemy.y) ** 2) ** 0.5
        if role == "base":
            assert (x, y) == (u.x, u.y)
        else:
            assert role == "manoeuvre" and after < before - 10.0


def test_all_pairs_finish_a_small_scenario():
    sc = mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                       [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)
    for a, b in itertools.product(["random", "greedy", "doctrine"], repeat=2):
        _play_checked(Game(sc, 3), [make_agent(a, 1), make_agent(b, 2)])
