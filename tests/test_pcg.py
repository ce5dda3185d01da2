"""aa_core.pcg: numpy's SeedSequence and PCG64 re-implemented in C for VectorGame's native resets must
agree with numpy bit for bit: pool hashing, PCG64 seeding and the buffered uint32 draws."""
import numpy as np
import pytest

from aa_core import pcg_twins as k
from atomic_africa.game import VectorGame
from atomic_africa.game.native.vector import _words


def assembled(seed, key):
    words = _words(seed)
    if key:
        words += [0] * (4 - len(words))
        for x in key:
            words += _words(x)
    return np.array(words, dtype=np.uint32)


def cases(n=600):
    rng = np.random.default_rng(7)
    for t in range(n):
        seed = int(rng.integers(0, 2**62)) if t % 3 else int(rng.integers(0, 5))
        if t % 7 == 0:
            seed = seed * 2**70 + 12345           # several words
        hi = 2**40 if t % 5 == 0 else 100          # two-word spawn keys too
        key = tuple(int(x) for x in rng.integers(0, hi, size=int(rng.integers(0, 3))))
        yield seed, key


@pytest.mark.parametrize("n_words", [1, 2, 8, 13])
def test_seedseq_words_equal_numpy(n_words):
    for seed, key in cases(300):
        want = np.random.SeedSequence(seed, spawn_key=key).generate_state(n_words, np.uint32).tolist()
        assert k.seedseq_words(assembled(seed, key), n_words) == want, (seed, key)


def test_pcg64_seeding_and_draws_equal_numpy():
    for seed, key in cases():
        ss = np.random.SeedSequence(seed, spawn_key=key)
        st = k.pcg_state(assembled(seed, key))
        ref = np.random.PCG64(ss)
        s = ref.state["state"]
        assert (st[0] << 64 | st[1], st[2] << 64 | st[3]) == (s["state"], s["inc"]), (seed, key)
        words = []
        for r in np.random.PCG64(ss).random_raw(6).tolist():
            words += [r & 0xFFFFFFFF, r >> 32]           # next_uint32: low half first, then high
        assert k.pcg_uint32(np.array(st, dtype=np.uint64), 11) == words[:11], (seed, key)


def test_vector_game_streams_are_numpys():
    vg = VectorGame(None, num_envs=3, seed=2**70 + 5)
    for i in range(3):
        assert int(vg.episode_seeds[i]) == VectorGame.episode_seed(2**70 + 5, i, 0)
    vg.reset()
    assert vg.episodes.tolist() == [1, 1, 1]
    assert int(vg.episode_seeds[2]) == VectorGame.episode_seed(2**70 + 5, 2, 1)
    with pytest.raises(ValueError, match="seed"):
        VectorGame(None, num_envs=1, seed=2**600)
