"""Saved games a hostile user edits (issue 27): a random-generator state that would spin, fields
that contradict each other, a history that did not lead to the state, and a fuzz test of
``Game.from_json`` that bounds its time.

Every outcome of ``Game.from_json`` is a clean SavedGameError / ValueError / TypeError naming the
field, or a game that plays on; never another exception, never a hang.
"""
from __future__ import annotations

import copy
import faulthandler
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from atomic_africa import batch
from atomic_africa.game import Game
from atomic_africa.game.rng import RandomSource
from atomic_africa.game.saved import SavedGameError


def _played(seed=5, decisions=60) -> Game:
    g = Game(None, seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        if g.is_over:
            break
        g.apply(int(rng.choice(g.legal_actions())))
    return g


SAVED = _played().to_json()


@pytest.fixture(autouse=True)
def watchdog():
    """A test that hangs (a generator spinning in C, deaf to Ctrl-C) ends its process with the
    tracebacks after 120 s, a failure rather than a suite that never ends."""
    faulthandler.dump_traceback_later(120, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def _edit(edit, text=SAVED) -> str:
    d = json.loads(text)
    edit(d)
    return json.dumps(d)


# ------------------------------------------------------------------------- a generator that spins
@pytest.mark.parametrize("state, inc", [(0, 0), (12345, 2), (2**127, 0), (5, 2**64)])
def test_a_pcg_state_with_an_even_increment_is_refused(state, inc):
    # numpy accepts any increment, but an even one can make PCG64 repeat one value for ever (state 0,
    # increment 0 gives 0, 0, 0 ...): the dice's rejection sampling then never ends, in C, deaf to
    # Ctrl-C. VectorGame's snapshot checker refuses it; so does Game.from_json, with the same rule.
    text = _edit(lambda d: d["source"]["state"].__setitem__("state", {"state": state, "inc": inc}))
    with pytest.raises(SavedGameError, match=r"^text\.source\.state\.state\.inc: \d+ is even; allowed an odd "
                                             r"increment"):
        Game.from_json(text)


def test_a_scripted_sources_fallback_is_checked_the_same_way():
    from atomic_africa.game.rng import ScriptedSource
    from atomic_africa.reference.game import Game as ReferenceGame
    g = ReferenceGame(None, 3, source=ScriptedSource(fallback=7))    # scripts drive the reference only
    d = json.loads(g.to_json())
    d["source"]["fallback"]["state"]["state"]["inc"] = 0
    for engine in (Game, ReferenceGame):    # the field checks come first, on both engines
        with pytest.raises(SavedGameError, match=r"^text\.source\.fallback\.state\.state\.inc: 0 is even"):
            engine.from_json(json.dumps(d))


def test_random_source_from_dict_refuses_a_stuck_state():
    d = RandomSource(4).to_dict()
    d["state"]["state"]["inc"] = 0
    with pytest.raises(ValueError, match=r"^source\.state\.state\.inc: 0 is even; allowed an odd increment"):
        RandomSource.from_dict(d)


def _stuck(kind):
    bg = getattr(np.random, kind)(1)
    st_ = bg.state
    if kind == "MT19937":
        st_["state"]["key"][:] = 0
    else:
        st_["state"] = {"state": 0, "inc": 0}
    bg.state = st_
    return np.random.Generator(bg)


@pytest.mark.parametrize("kind", ["PCG64", "PCG64DXSM", "MT19937"])
def test_a_generator_in_a_stuck_state_is_refused_by_the_api(kind):
    with pytest.raises(ValueError, match=r"^rng: a .*state that repeats one value for ever"):
        batch.roll_dice([[6, 6, 6]], rng=_stuck(kind))
    # the same generator in a good state rolls
    assert batch.roll_dice([[6, 6, 6]], rng=np.random.default_rng(1)).shape == (1, 3)


# ------------------------------------------------------------------------------ contradicting fields
def test_a_winner_while_the_game_runs_is_refused():
    text = _edit(lambda d: d["state"].__setitem__("winner", 1))
    with pytest.raises(SavedGameError, match=r"^text\.state\.winner: 1 while the game runs \(text\.state\.stage "
                                             r"\d+, [A-Z_]+\); allowed -2 until the game is over$"):
        Game.from_json(text)
    text = _edit(lambda d: d["state"].__setitem__("reason", "no units"))
    with pytest.raises(SavedGameError, match=r"^text\.state\.reason: 'no units' while the game runs"):
        Game.from_json(text)


def test_a_game_over_without_a_winner_is_refused():
    over = Game(None, 2)
    while not over.is_over:
        over.apply(over.legal_actions()[0])
    text = _edit(lambda d: d["state"].__setitem__("winner", -2), over.to_json())
    with pytest.raises(SavedGameError, match=r"^text\.state\.winner: -2 \(the game runs\) but text\.state\.stage "
                                             r"is \d+ \(OVER\); allowed -1 \(a draw\), 0 or 1 once the game is over$"):
        Game.from_json(text)
    text = _edit(lambda d: d["state"].__setitem__("current_player", 0), over.to_json())
    with pytest.raises(SavedGameError, match=r"^text\.state\.current_player: 0 once the game is over; allowed -1"):
        Game.from_json(text)
    assert Game.from_json(over.to_json()).to_json() == over.to_json()


@pytest.mark.parametrize("edit, field", [
    (lambda d: d["history"].pop(), r"text\.state\.[\w.\[\]]+"),                  # one action fewer
    (lambda d: d["state"]["units"][0].__setitem__("x", d["state"]["units"][0]["x"] + 1.0),
     r"text\.state\.units\[0\]\.x"),
    (lambda d: d["state"]["units"][0].__setitem__("name", "Someone else"), r"text\.state\.units\[0\]\.name"),
    (lambda d: d["state"].__setitem__("phase", d["state"]["phase"] + 1), r"text\.state\.phase"),
    (lambda d: d["source"]["state"]["state"].__setitem__("state", 12345), r"text\.source\.state\.state\.state"),
    (lambda d: d["events"].pop(), r"text\.events"),
    (lambda d: d["events"][3].__setitem__("turn", 2), r"text\.events\[3\]\.turn"),
])
def test_a_history_that_did_not_lead_to_the_state_is_refused_naming_the_first_field(edit, field):
    # Each edit keeps every field in range and the conservation laws: only replaying the history
    # from the saved source's seed shows the document contradicts itself.
    with pytest.raises(SavedGameError, match=rf"^{field}(\[\d+\])?: .* but replaying text\.history \(\d+ actions\) "
                                             rf"from text\.source\.seed \d+ gives .*; the history did not lead "
                                             rf"to this state$"):
        Game.from_json(_edit(edit))


@pytest.mark.parametrize("edit", [lambda d: d["history"].__setitem__(0, 0 if d["history"][0] != 0 else 1),
                                  lambda d: d["source"].__setitem__("seed", d["source"]["seed"] + 1)])
def test_an_illegal_action_in_the_history_is_refused_naming_it(edit):
    with pytest.raises(SavedGameError, match=r"^text\.history\[\d+\]: action \d+ is not legal when the history "
                                             r"is replayed from text\.source\.seed \d+ \(action \d+ \("):
        Game.from_json(_edit(edit))


def test_scripted_and_foreign_seeded_games_still_round_trip():
    from atomic_africa.game.rng import ScriptedSource
    from atomic_africa.game.testing import mini_scenario, unit
    sc = mini_scenario([unit(50, 20), unit(60, 20)], [unit(50, 70), unit(60, 70)])
    from atomic_africa.reference.game import Game as ReferenceGame
    for engine, src in ((ReferenceGame, ScriptedSource(dice=[1, 2, 3, 4, 5, 6] * 3, fallback=7)),
                        (Game, RandomSource(99)), (Game, None), (ReferenceGame, RandomSource(99))):
        g = engine(sc, 4, source=src)    # a script drives the reference engine only
        rng = np.random.default_rng(1)
        for _ in range(40):
            if g.is_over:
                break
            g.apply(int(rng.choice(g.legal_actions())))
        assert engine.from_json(g.to_json()).to_json() == g.to_json()


# ------------------------------------------------------------------------------------- fuzzing
class _Hang(Exception):
    """An example that ran past its time (raised by the alarm, so a Python-level loop fails the test)."""


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, x in obj.items():
            yield from _paths(x, path + (k,))
    elif isinstance(obj, list):
        for i, x in enumerate(obj):
            yield from _paths(x, path + (i,))


_SHORT = _played(11, 40).to_json()
_OVER = Game(None, 2)
while not _OVER.is_over:
    _OVER.apply(_OVER.legal_actions()[0])
_DOCS = [json.loads(_SHORT), json.loads(_OVER.to_json())]
_DOC_PATHS = [[p for p in _paths(d) if p] for d in _DOCS]
_SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**130) | st.sampled_from([0, -1, -2, 1, 2, 2**64, 2**128])
            | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=4))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=5)


def _nudge(value, how):
    """A value near ``value``: +-1, doubled, negated, as a float, or a string of it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return [value + 1, value - 1, value * 2, -value, float(value) + 0.5, str(value)][how]


@st.composite
def _mutated(draw):
    """A saved game's text with a few random edits: values replaced, nudged or deleted at any path,
    lists shortened or extended, or the text itself cut, spliced or overwritten."""
    i = draw(st.integers(0, len(_DOCS) - 1))
    d = copy.deepcopy(_DOCS[i])
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_DOC_PATHS[i]))
        parent = d
        try:
            for k in path[:-1]:
                parent = parent[k]
            old = parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
        op = draw(st.sampled_from(["replace", "nudge", "delete", "extend", "rng"]))
        if op == "replace":
            parent[path[-1]] = draw(_VALUES)
        elif op == "nudge":
            parent[path[-1]] = _nudge(old, draw(st.integers(0, 5)))
        elif op == "delete":
            if isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent.pop(path[-1])
        elif op == "extend" and isinstance(old, list):
            old.extend(old[:draw(st.integers(0, 3))] or [draw(_SCALARS)])
        elif op == "rng":
            words = st.sampled_from([0, 1, 2, 2**127]) | st.integers(0, 2**128 - 1)
            d["source"]["state"]["state"] = {"state": draw(words), "inc": draw(words)}
    text = json.dumps(d)
    edit = draw(st.sampled_from(["none", "none", "cut", "splice", "byte"]))
    if edit != "none" and text:
        a = draw(st.integers(0, len(text) - 1))
        b = draw(st.integers(a, min(len(text), a + 64)))
        if edit == "cut":
            text = text[:a] + text[b:]
        elif edit == "splice":
            text = text[:a] + text[a:b] * 2 + text[b:]
        else:
            text = text[:a] + draw(st.sampled_from(['"', "[", "]", "{", "}", "0", "-", "e9", ",", "\\", "\ufeff"])) \
                + text[a + 1:]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=_mutated())
@example(text=_edit(lambda d: d["source"]["state"].__setitem__("state", {"state": 0, "inc": 0}), _SHORT))
def test_fuzzed_saved_games_load_cleanly_or_are_refused_cleanly(text):
    """Every outcome is a SavedGameError / ValueError / TypeError or a game that plays on within its
    action space; never another exception, never a hang (a Python loop fails at the alarm, a loop in
    C at the module's watchdog)."""
    import signal

    def alarm(*_):
        raise _Hang("Game.from_json or the game after it ran past 20 s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 20)
    try:
        try:
            g = Game.from_json(text)
        except (ValueError, TypeError):      # SavedGameError, ScenarioError, RulesError are ValueErrors
            return
        for _ in range(20):
            legal = g.legal_actions()
            assert all(0 <= a < g.num_actions for a in legal)
            if g.is_over or not legal:
                break
            g.apply(legal[len(legal) // 2])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ------------------------------------------------------------------------------------- name limit
def test_every_name_a_scenario_accepts_can_be_saved_and_read_back():
    """The name limit is stated once (atomic_africa._limits.MAX_NAME): a scenario refuses a longer
    name, and the saved games of a scenario at the limit read back, splits ("/b" per split, at most one
    a turn) included."""
    from atomic_africa._limits import MAX_NAME
    from atomic_africa.game import Scenario, ScenarioError
    from atomic_africa.game.testing import mini_scenario, unit
    long = "N" * MAX_NAME
    big = dict(unit(60.0, 20.0, figures=64, dice=["d12", "d12", "d12"]), name=long)
    d = mini_scenario([big, dict(unit(120.0, 20.0), name=long)],
                      [dict(unit(60.0, 90.0), name=long), dict(unit(120.0, 90.0), name=long)], turns=8).to_dict()
    d["name"] = long
    d["sides"][0]["name"] = d["sides"][1]["name"] = long
    sc = Scenario.from_dict(d)
    split = False
    for seed in range(40):
        g = Game(sc, seed)
        rng = np.random.default_rng(seed)
        while not g.is_over:
            legal = g.legal_actions()
            splits = [a for a in legal if g.describe_action(a).startswith("SPLIT")]
            g.apply(int(rng.choice(splits or legal)))
        split = split or any(len(u.name) > MAX_NAME for u in g.s.units)
        assert Game.from_json(g.to_json()).to_json() == g.to_json()
        if split:
            break
    assert split, "no game split a unit"
    for where in (("name",), ("sides", 0, "name"), ("sides", 1, "units", 0, "name")):
        bad = copy.deepcopy(d)
        parent = bad
        for k in where[:-1]:
            parent = parent[k]
        parent[where[-1]] = long + "N"
        with pytest.raises(ScenarioError, match=rf"^scenario\.{'.'.join(map(str, where))}: a string of "
                                                rf"{MAX_NAME + 1} characters; allowed at most {MAX_NAME}$".replace(
                                                    ".0.", r"\[0\]\.").replace(".1.", r"\[1\]\.")):
            Scenario.from_dict(bad)
