"""The Reserve (RULES.md sections 2 and 6), clause by clause in both engines: orders obligatory by
default (issue 35 point 1: ``orders.reserve_by_choice = false``), the Reserve by choice as a variant
(issue 23 point 1: ``reserve_by_choice = true``), and a unit that has already acted, its card spent,
forced to react from the Reserve or confused (``orders.spent_units_react``).

Each test drives one game with actions chosen on the Python ``Game`` and asserts the clause on the
engine named by its parameter: ``python`` reads the ``Game``'s legal actions and events, ``native``
the ``VectorGame``'s action mask and events (one env, ``record_events=True``). Both engines step
together and every step is also compared exactly (observations, masks, events:
``support.vector_mirror.check_step``), so the clause holds in both and they agree on it.
"""
import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa.agents.native import play_agent_games
from atomic_africa.game import GameSpec, VectorGame
from atomic_africa.reference.game import Game
from atomic_africa.game.testing import mini_scenario, unit
from support.vector_mirror import Mirror, check_reset, check_step

ENGINES = ("python", "native")
SEED = 7
FIRE = ("BASIC", "MASS_FIRE", "HEAVY_WEAPON", "SPLIT_FIRE", "DIG_IN", "SPRINT")
DEFAULT = aa.Rules.default()
VARIANT = DEFAULT.replace(orders={"reserve_by_choice": True})        # the Reserve by choice
NO_SPENT = DEFAULT.replace(orders={"spent_units_react": False})      # a unit that acted never reacts


class Both:
    """The Python ``Game`` and a one-env ``VectorGame`` of the same scenario and seed, stepped together.

    ``legal(engine)`` and ``events(engine)`` read the engine under test; ``g`` is the Python game
    the actions are chosen on.
    """

    def __init__(self, scenario, seed=SEED, rules=None):
        self.mirror = Mirror(scenario, 1, rules, "reserve")
        self.vg = VectorGame(scenario, 1, seed, rules=rules, record_events=True)
        exp = self.mirror.reset(seed)
        check_reset(self.vg, self.mirror, self.vg.reset(seed=seed), exp)
        self.g = self.mirror.games[0]
        self._events = {"python": list(self.g.events), "native": list(self.vg.events(0))}

    def step(self, a: int):
        exp = self.mirror.step(np.array([a], dtype=np.int64))
        check_step(self.vg, self.mirror, self.vg.step(np.array([a], dtype=np.int64)), exp, views=True)
        self._events["python"] += exp["events"][0]
        self._events["native"] += list(self.vg.events(0))
        self.g = self.mirror.games[0]

    def legal(self, engine) -> set:
        if engine == "python":
            return set(self.g.legal_actions())
        return set(np.flatnonzero(self.vg.action_masks()[0]).tolist())

    def events(self, engine, type_) -> list:
        return [e for e in self._events[engine] if e["type"] == type_]

    def named(self, a: int) -> str:
        return self.g.describe_action(a)


def _three_against_one():
    """Blue: 3 units (Green: 3 cards); Red: 1 unit in view 40 cm away (Regular: 2 cards)."""
    return mini_scenario([unit(50, 20), unit(70, 20), unit(90, 20)], [unit(70, 60)],
                         experience=("green", "regular"))


def _three_against_three_with_two_cards():
    """Blue: 3 units (3 cards); Red: 3 units facing them 40 cm away and a hand of 2 (the scenario's
    ``hand_size``): one unit more than cards."""
    d = mini_scenario([unit(50, 20), unit(70, 20), unit(90, 20)],
                      [unit(50, 60), unit(70, 60), unit(90, 60)]).to_dict()
    d["sides"][1]["hand_size"] = 2
    return aa.game.Scenario.from_dict(d)


def _fire_at(b: Both, target: int):
    """The current unit declares a fire action at ``target``; every other decision: the first legal one."""
    g = b.g
    legal = sorted(g.legal_actions())
    if g.stage == "DECLARE_ACTION":
        fire = [a for a in legal if g.space.decode(a)[1].name in FIRE]
        b.step(fire[0] if fire else legal[0])
    elif g.stage == "DECLARE_TARGET" and g.space.target(target) in legal and g.s.decl_uid == g.s.act_uid:
        b.step(g.space.target(target))
    elif g.stage == "DECLARE_TARGET" and g.space.no_target in legal:
        b.step(g.space.no_target)
    elif g.stage in ("MOVE", "SPRINT_MOVE") and g.space.stay in legal:
        b.step(g.space.stay)
    else:
        b.step(legal[0])


def _blue_orders_red_holds(b: Both):
    """Blue gives every unit a card; Red ends its orders at once, holding its whole hand."""
    g = b.g
    while g.stage == "ORDERS" and g.current_player == 0:
        b.step(min(a for a in g.legal_actions() if g.space.decode(a)[0] == "ASSIGN"))
        g = b.g
    assert g.stage == "ORDERS" and g.current_player == 1
    b.step(g.space.end_orders)


# ---------------------------------------------------------------- section 2: the Reserve by choice
@pytest.mark.parametrize("engine", ENGINES)
def test_rules_s2_variant_end_orders_is_legal_beside_every_assignment(engine):
    b = Both(_three_against_one(), rules=VARIANT)
    g = b.g
    assert g.stage == "ORDERS" and g.current_player == 0
    hand = g.s.players[0].hand
    want = {g.space.assign(c, u) for c in hand for u in range(3)} | {g.space.end_orders}
    assert b.legal(engine) == want
    # One card given, END ORDERS still legal: the two other units may be left without orders.
    b.step(min(want))
    assert g.space.end_orders in b.legal(engine) and len(b.legal(engine)) == 1 + 2 * 2


@pytest.mark.parametrize("engine", ENGINES)
def test_rules_s2_variant_a_player_may_leave_any_unit_without_orders_and_keep_the_cards(engine):
    b = Both(_three_against_one(), rules=VARIANT)
    g = b.g
    b.step(g.space.assign(g.s.players[0].hand[0], 2))   # only the third unit gets a card
    b.step(g.space.end_orders)
    done = b.events(engine, "orders_done")
    assert done[0]["player"] == 0 and done[0]["reserve"] == 2
    assert [e["unit"] for e in b.events(engine, "assign")] == [2]
    assert b.g.stage == "ORDERS" and b.g.current_player == 1      # Red's turn to give orders
    b.step(b.g.space.end_orders)                                   # Red holds both its cards
    assert b.events(engine, "orders_done")[1] == {**b.events(engine, "orders_done")[1], "player": 1, "reserve": 2}
    assert b.g.stage == "ACTIVATE" and b.legal(engine) == {b.g.space.select(2)}


@pytest.mark.parametrize("engine", ENGINES)
def test_rules_s2_variant_any_legal_card_may_go_to_any_unit_even_stranding_a_suppressed_one(engine):
    # Blue 0 is suppressed: only Blue's defensive cards and Jokers are legal for it, every card for
    # Blue 1 (the old reading forbade giving Blue 1 the last such card while Blue 0 had nothing else).
    sc = mini_scenario([unit(50, 20, markers=1), unit(90, 20)], [unit(70, 60)])
    b = Both(sc, rules=VARIANT)
    g = b.g
    hand = g.s.players[0].hand
    want = ({g.space.assign(c, 0) for c in hand if g.deck.legal_for(c, True)}
            | {g.space.assign(c, 1) for c in hand} | {g.space.end_orders})
    assert b.legal(engine) == want


@pytest.mark.parametrize("engine", ENGINES)
def test_rules_s2_orders_are_obligatory_by_default_every_unit_that_may_take_a_card_gets_one(engine):
    assert DEFAULT.orders.reserve_by_choice is False
    b = Both(_three_against_one())
    g = b.g
    assert g.space.end_orders not in b.legal(engine)
    while b.g.stage == "ORDERS":
        assert b.g.space.end_orders not in b.legal(engine)
        b.step(min(b.legal(engine)))
    assert all(u.card != -1 for u in b.g.units if u.alive)
    # The Reserve is what is left: Blue's 3 cards went to its 3 units, Red's 2 to its 1 unit and 1 over.
    assert [(e["player"], e["reserve"]) for e in b.events(engine, "orders_done")] == [(0, 0), (1, 1)]


@pytest.mark.parametrize("engine", ENGINES)
def test_rules_s2_orders_are_obligatory_and_the_cards_run_out_before_the_units(engine):
    # Red: 3 units, a hand of 2: two get orders, the third none, and no card is left in the Reserve.
    b = Both(_three_against_three_with_two_cards())
    while b.g.stage == "ORDERS":
        assert b.g.space.end_orders not in b.legal(engine)
        b.step(min(b.legal(engine)))
    red = b.g.units[b.g.C:b.g.C + 3]
    assert sorted(u.card != -1 for u in red) == [False, True, True] and not b.g.s.players[1].hand
    assert b.events(engine, "orders_done")[-1]["reserve"] == 0


# ---------------------------------------------------------------- section 6: reactions from the Reserve
@pytest.mark.parametrize("engine", ENGINES)
def test_rules_s6_variant_forced_reaction_takes_a_reserve_card_of_its_players_choice_and_burns_it(engine):
    # Red holds its 2 cards; Blue's units fire in turn at Red's three units, which have no orders and
    # no ordered friend left: each is forced to react.
    b = Both(_three_against_three_with_two_cards(), rules=VARIANT)
    _blue_orders_red_holds(b)
    C = b.g.C
    assert b.events(engine, "orders_done")[-1] == {**b.events(engine, "orders_done")[-1], "player": 1,
                                                     "reserve": 2}
    for k in range(3):
        assert b.g.stage == "ACTIVATE" and b.g.current_player == 0
        b.step(b.g.space.select(k))
        while b.g.stage != "RESERVE_PICK" and len(b.events(engine, "confused")) == 0 and b.g.stage != "MOVE":
            _fire_at(b, C + k)
        g, red = b.g, b.g.units[C + k]
        reserve = list(g.s.players[1].hand)
        assert len(reserve) == 2 - k
        if k < 2:   # a legal card in the Reserve (Red is not suppressed yet): the Reacting player picks
            assert g.stage == "RESERVE_PICK" and g.current_player == 1 and g.s.decl_uid == red.uid
            assert b.legal(engine) == {g.space.assign(c, k) for c in reserve}
            choice = max(reserve)            # not the first: the choice is the player's
            b.step(g.space.assign(choice, k))
            got = b.events(engine, "reserve_card")[-1]
            assert got["unit"] == C + k and got["card"] == g.deck.name(choice)
            assert choice not in b.g.s.players[1].hand and not b.g.units[C + k].confused
            assert not b.events(engine, "confused")
        else:       # the Reserve is burned through: the third unit reacts confused (a card from the deck)
            conf = b.events(engine, "confused")
            assert len(conf) == 1 and conf[0]["unit"] == C + k and b.g.units[C + k].confused
        while b.g.stage != "ACTIVATE" and not b.g.is_over:
            _fire_at(b, C + k)
    assert len(b.events(engine, "reserve_card")) == 2


def _three_against_one_out_of_reach():
    """Blue: 3 units with d4 dice (Green: 3 cards) 105 cm from Red's 1 unit (Regular: 2 cards): range
    9, beyond the stick, so Blue's Attack (at most 8) never marks Red, and every card stays legal for
    it."""
    d4 = ("d4", "d4", "d4")
    return mini_scenario([unit(50, 5, dice=d4), unit(90, 5, dice=d4), unit(130, 5, dice=d4)],
                         [unit(90, 110)], experience=("green", "regular"))


def _spent_card_game(engine, rules=None):
    """Orders given as the engine allows (Red: its one unit gets a card, one card left in the
    Reserve), then Blue's first unit activates and fires at Red's unit, which reacts with its card."""
    b = Both(_three_against_one_out_of_reach(), rules=rules)
    while b.g.stage == "ORDERS":
        b.step(min(a for a in b.legal(engine) if b.g.space.decode(a)[0] == "ASSIGN"))
    C = b.g.C
    assert b.g.s.players[1].hand and b.g.units[C].card != -1
    b.step(b.g.space.select(0))
    while b.g.stage != "REACT":
        _fire_at(b, C)
    b.step(b.g.space.select(0))                    # Red's ordered unit answers with its card
    while b.g.stage != "ACTIVATE":
        _fire_at(b, 0)
    assert b.g.units[C].acted and b.g.units[C].card != -1 and b.g.current_player == 0
    return b


@pytest.mark.parametrize("engine", ENGINES)
def test_rules_s6_a_unit_that_has_acted_has_spent_its_card_and_reacts_from_the_reserve(engine):
    b = _spent_card_game(engine)
    g, C = b.g, b.g.C
    spent, reserve = g.units[C].card, list(g.s.players[1].hand)
    discards = list(g.s.players[1].discard)
    b.step(g.space.select(1))                       # Blue's second unit fires at the spent unit
    while b.g.stage != "RESERVE_PICK":
        assert b.g.stage != "MOVE", "the spent unit was not forced to react"
        _fire_at(b, C)
    g = b.g
    # A unit without orders, forced to react: its spent card is played out face up, and its player
    # picks among the legal Reserve cards.
    assert g.current_player == 1 and g.s.decl_uid == C and g.units[C].card == -1
    assert g.s.players[1].discard == discards + [spent]
    assert b.legal(engine) == {g.space.assign(c, 0) for c in reserve}
    b.step(g.space.assign(reserve[0], 0))
    got = b.events(engine, "reserve_card")
    assert [(e["unit"], e["card"]) for e in got] == [(C, g.deck.name(reserve[0]))]
    assert not b.g.s.players[1].hand and not b.events(engine, "confused")


@pytest.mark.parametrize("engine", ENGINES)
def test_rules_s6_a_spent_unit_forced_to_react_with_the_reserve_burned_through_is_confused(engine):
    b = _spent_card_game(engine)
    C = b.g.C
    for k in (1, 2):                                # two more shots at the spent unit this turn
        assert b.g.stage == "ACTIVATE" and b.g.current_player == 0
        b.step(b.g.space.select(k))
        while b.g.stage != "RESERVE_PICK" and not b.events(engine, "confused"):
            _fire_at(b, C)
        if k == 1:                                  # the Reserve's last card
            assert b.g.s.decl_uid == C and b.legal(engine) == {b.g.space.assign(b.g.s.players[1].hand[0], 0)}
            b.step(min(b.legal(engine)))
        else:                                       # the Reserve is burned through: confused
            assert b.g.stage != "RESERVE_PICK" and not b.g.s.players[1].hand
            assert [e["unit"] for e in b.events(engine, "confused")] == [C] and b.g.units[C].confused
        while b.g.stage != "ACTIVATE" and not b.g.is_over:
            _fire_at(b, 0)
    assert len(b.events(engine, "reserve_card")) == 1 and len(b.events(engine, "confused")) == 1
    assert [e["unit"] for e in b.events(engine, "react")] == [C]


@pytest.mark.parametrize("engine", ENGINES)
def test_rules_s6_variant_without_spent_units_react_a_unit_that_has_acted_does_not_react(engine):
    b = _spent_card_game(engine, rules=NO_SPENT)
    C = b.g.C
    b.step(b.g.space.select(1))
    while b.g.stage != "MOVE" or b.g.s.decl_uid != b.g.units[1].uid:
        assert b.g.stage != "RESERVE_PICK"
        _fire_at(b, C)
    assert b.events(engine, "no_reaction")[-1]["player"] == 1
    assert not b.events(engine, "reserve_card") and not b.events(engine, "confused")
    assert len(b.g.s.players[1].hand) == 1


# ---------------------------------------------------------------- the agents and the Reserve
def reserve_share(kinds, games, seed=0, rules=VARIANT):
    """Native games of ``kinds`` replayed on the Python engine: (Reserve reactions, all reactions,
    Orders phases ended with units left without orders while the hand still held a legal card)."""
    spec = GameSpec.build(None, rules)
    r = play_agent_games(spec, np.arange(seed, seed + games, dtype=np.uint64), kinds,
                         np.arange(seed + games, seed + 3 * games, dtype=np.uint64).reshape(games, 2),
                         threads=1, record_actions=True)
    reserve = reacts = held = 0
    for j in range(games):
        g = Game(spec, seed + j)
        for a in r["actions"][j]:
            if g.stage == "ORDERS" and int(a) == g.space.end_orders and g._orders_pairs(g.current_player):
                held += 1
            g.apply(int(a))
        assert g.is_over
        reserve += sum(e["type"] == "reserve_card" for e in g.events)
        reacts += sum(e["type"] in ("react", "reserve_card", "confused") for e in g.events)
    return reserve, reacts, held


@pytest.mark.parametrize("kind", ["greedy", "doctrine"])
def test_agents_keep_cards_in_the_reserve_and_react_from_it_with_the_reserve_by_choice(kind):
    """The greedy and doctrine agents (native; their Python twins play the same games:
    tests/test_native_agents.py) end Orders with units left without orders and cards in hand, and
    units forced to react then take Reserve cards."""
    reserve, reacts, held = reserve_share((kind, kind), 16)
    assert held > 0 and 0 < reserve <= reacts


@pytest.mark.parametrize("kind", ["greedy", "doctrine"])
def test_agents_react_from_the_reserve_with_obligatory_orders(kind):
    """By default nothing is held back, and the Reserve (the cards left over) is still spent on
    forced reactions: by units that have acted, their cards spent."""
    reserve, reacts, held = reserve_share((kind, kind), 16, rules=DEFAULT)
    assert held == 0 and 0 < reserve <= reacts


def test_the_reserve_stats_script_counts_the_reactions(capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "reserve_stats.py"
    spec = importlib.util.spec_from_file_location("reserve_stats", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--games", "4", "--agents", "greedy", "--scenario", "default", "--reserve-by-choice"]) == 0
    row = capsys.readouterr().out.splitlines()[2].split()
    reserve, reacts, _ = reserve_share(("greedy", "greedy"), 4)   # the same games: seeds 0-3, seats swapped
    k = row.index("greedy-greedy")
    assert row[k + 1:k + 4] == ["4", str(reacts), f"{100 * reserve / reacts:.1f}%"]


@pytest.mark.parametrize("kind,seed", [("greedy", 10), ("doctrine", 2)])
def test_python_and_native_agents_hold_back_and_pick_reserve_cards_alike(kind, seed):
    """A whole game of the default battle with the Reserve by choice in which a unit reacts from the
    Reserve: the Python agents (make_agent) and their native twins take every decision alike, END
    ORDERS with cards in hand and the RESERVE_PICK card included."""
    from atomic_africa.reference.game.agents import make_agent

    spec = GameSpec.build(None, VARIANT)
    native = play_agent_games(spec, np.array([seed], dtype=np.uint64), (kind, kind),
                              np.array([[1, 2]], dtype=np.uint64), record_actions=True)["actions"][0].tolist()
    g = Game(spec, seed)
    agents = [make_agent(kind, 1), make_agent(kind, 2)]
    picks = held = 0
    while not g.is_over:
        a = agents[g.current_player].act(g)
        picks += g.stage == "RESERVE_PICK"
        held += g.stage == "ORDERS" and a == g.space.end_orders and bool(g._orders_pairs(g.current_player))
        g.apply(a)
    assert g.history == native
    assert picks >= 1 and held >= 1 and any(e["type"] == "reserve_card" for e in g.events)
