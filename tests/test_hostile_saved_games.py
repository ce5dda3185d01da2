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
from hypothesis import HealthCheck, given, settings, strategies as st

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
    g = Game(None, 3, source=ScriptedSource(fallback=7))
    d = json.loads(g.to_json())
    d["source"]["fallback"]["state"]["state"]["inc"] = 0
    with pytest.raises(SavedGameError, match=r"^text\.source\.fallback\.state\.state\.inc: 0 is even"):
        Game.from_json(json.dumps(d))


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
