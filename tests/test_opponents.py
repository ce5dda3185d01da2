"""The opponent pool library (atomic_africa.env.opponents): PFSP weightings, the live window,
reproducible draws (and after pickling), bad input named."""
import pickle

import numpy as np
import pytest

from atomic_africa.env.opponents import BUILTINS, LeagueOpponent, OpponentPool


class _Player:
    def act(self, observations, action_masks):
        return action_masks.argmax(axis=1)


def _pool(**kw):
    return OpponentPool(np.random.default_rng(0), **kw)


def test_the_weightings_favour_what_they_say():
    for weighting, favoured in (("variance", 3), ("hard", 2), ("uniform", None)):
        pool = _pool(weighting=weighting, floor=0.0)
        for _ in range(20):
            pool.record(0, 1.0)     # always beats random
            pool.record(2, 0.0)     # always loses to greedy
            pool.record(3, 0.5)     # draws doctrine
        p = pool.probabilities()
        assert p.sum() == pytest.approx(1.0)
        if favoured is None:
            np.testing.assert_allclose(p, 0.25)
        else:
            assert p[favoured] == p.max()
    assert _pool(floor=0.0, weighting="variance").probabilities() == pytest.approx([0.25] * 4)


def test_snapshots_share_self_share_and_only_the_newest_play():
    pool = _pool(self_share=0.4, pool_size=2)
    assert pool.probabilities()[:4].sum() == pytest.approx(1.0)
    for k in range(3):
        assert pool.add_snapshot(_Player(), f"self@{k}") == 4 + k
    p = pool.probabilities()
    assert p[4] == 0 and p[5:].sum() == pytest.approx(0.4) and pool.live() == [0, 1, 2, 3, 5, 6]
    assert pool.category(5) == "self" and pool.category(1) == "heuristic"


def test_draws_are_reproducible_and_go_on_after_a_pickle():
    a, b = _pool(), _pool()
    np.testing.assert_array_equal(a.draw(50), b.draw(50))
    c = pickle.loads(pickle.dumps(a))
    np.testing.assert_array_equal(a.draw(50), c.draw(50))


@pytest.mark.parametrize("kw,match", [({"builtins": ("random", "alphazero")}, "builtins"),
                                      ({"builtins": ()}, "builtins"), ({"self_share": 1.5}, "self_share"),
                                      ({"pool_size": 0}, "pool_size"), ({"window": True}, "window"),
                                      ({"weighting": "easy"}, "weighting"), ({"floor": -1}, "floor")])
def test_bad_arguments_are_named(kw, match):
    with pytest.raises(ValueError, match=match):
        _pool(**kw)


def test_bad_types_are_named():
    with pytest.raises(TypeError, match="rng"):
        OpponentPool(0)
    with pytest.raises(TypeError, match="player"):
        _pool().add_snapshot(object(), "x")
    with pytest.raises(TypeError, match="pool"):
        LeagueOpponent(None)
    with pytest.raises(RuntimeError, match="bind"):
        LeagueOpponent(_pool())(np.zeros((1, 3)), np.ones((1, 3), bool), np.array([0]))
    assert BUILTINS == ("random", "heuristic", "greedy", "doctrine")
