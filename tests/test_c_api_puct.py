"""The C API's network-guided search (issue 37, point 1): ``aa_puct_search`` with an evaluator
callback, in a C host linked with the Makefile's static library (tests/support/capi_puct.c), makes
the decisions, visit shares, root values and batches of ``atomic_africa.agents.puct.puct_search`` for
the same games, streams and answers; a failing callback or a refused answer returns its status and
message and leaves the agents' streams as they were.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from atomic_africa.agents.puct import PUCT_DEFAULTS, puct_search
from atomic_africa.game.native.agent_args import AGENT_KINDS
from atomic_africa.game.native.vector import VectorGame

pytestmark = pytest.mark.xdist_group("c_api")

ROOT = Path(__file__).resolve().parents[1]
SUPPORT = ROOT / "tests" / "support"


@pytest.fixture(scope="module")
def host(make_build, tmp_path_factory) -> Path:
    exe = tmp_path_factory.mktemp("puct") / "capi_puct"
    proc = subprocess.run(["/usr/bin/gcc", "-std=c11", "-pedantic", "-O2", "-Wall", "-Wextra", "-Werror", "-I",
                           str(ROOT / "src" / "aa_core" / "include"), str(SUPPORT / "capi_puct.c"),
                           str(make_build / "libatomic_africa.a"), "-lm", "-o", str(exe)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return exe


def evaluator(obs, masks):
    """capi_puct.c's evaluator, the same operations in the same order."""
    k, n = masks.shape
    priors = np.where(masks, (1 + np.arange(n) % 5).astype(np.float32), np.float32(0))
    o = obs.astype(np.float64)
    s = o[:, 0] * 0.5 - o[:, 1] * 0.25 + o[:, 2] * 0.125
    return priors, (s / (1.0 + np.abs(s))).astype(np.float32)


def _python(games, params):
    seeds = [s for s, _ in games]
    vg = VectorGame.from_games(None, seeds, agent_seeds=[[100 + i, 100 + i] for i in range(len(games))])
    for i, (_, moves) in enumerate(games):
        for k in range(moves):
            legal = np.flatnonzero(vg.action_masks()[i])
            act, active = np.zeros(len(games), np.int64), np.zeros(len(games), bool)
            act[i], active[i] = legal[(7 * k) % len(legal)], True
            vg.step(act, active, observe=False)
    return puct_search(vg, evaluator, **params)


def _c(host, games, params, mode=None):
    if mode is None:
        kind = -1 if params["rollout"] == "none" else AGENT_KINDS[params["rollout"]]
        mode = f"leaf:{kind}:{params['rollout_weight']!r}:{params['width']}"
    args = [str(host), params["simulations"], params["wave"], params["c_puct"], params["dirichlet_alpha"],
            params["noise_fraction"], params["temperature"], mode]
    for s, m in games:
        args += [s, m]
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def _parse(lines, n_actions):
    acts, pols, vals = [], [], []
    for line in lines:
        head, *shares = line.split()
        pol = np.zeros(n_actions, np.float32)
        for sh in shares[1:]:
            a, x = sh.split(":")
            pol[int(a)] = float.fromhex(x)
        acts.append(int(head))
        vals.append(float.fromhex(shares[0].split(":")[1]))
        pols.append(pol)
    return acts, np.array(pols), np.array(vals, np.float32)


GAMES = [(3, 0), (4, 5), (5, 11), (6, 17), (7, 2)]


@pytest.mark.parametrize("params", [
    {**PUCT_DEFAULTS, "simulations": 24},
    {**PUCT_DEFAULTS, "simulations": 19, "wave": 3, "c_puct": 0.9, "dirichlet_alpha": 0.3, "temperature": 1.0},
    {**PUCT_DEFAULTS, "simulations": 12, "wave": 1, "dirichlet_alpha": 2.5, "noise_fraction": 0.6,
     "temperature": 0.5},
    {**PUCT_DEFAULTS, "simulations": 16, "wave": 2, "rollout": "greedy", "rollout_weight": 0.5, "width": 2},
    {**PUCT_DEFAULTS, "simulations": 10, "wave": 1, "rollout": "random", "rollout_weight": 1.0, "width": 0},
    {**PUCT_DEFAULTS, "simulations": 10, "wave": 4, "rollout": "doctrine", "rollout_weight": 0.3, "width": 3},
])
def test_the_c_api_search_is_puct_search(host, params):
    res = _python(GAMES, params)
    lines = _c(host, GAMES, params)
    acts, pols, vals = _parse(lines[:-1], res.policy.shape[1])
    assert acts == res.actions.tolist()
    np.testing.assert_array_equal(pols, res.policy)
    np.testing.assert_array_equal(vals, res.value)
    assert lines[-1] == f"batches {res.batches} rows {res.evaluations}"


@pytest.mark.parametrize("mode,status,message", [
    ("fail", 7, "evaluator: returned nonzero for a batch of"),
    ("range", 1, "evaluator: value 2 at leaf"),
])
def test_a_failed_search_reports_and_leaves_the_streams(host, mode, status, message):
    params = {**PUCT_DEFAULTS, "simulations": 16, "wave": 4}
    ok = _c(host, GAMES, params)
    lines = _c(host, GAMES, params, mode)
    assert lines[0].startswith(f"status {status} {message}")
    assert lines[1:] == ok   # the second search, on the untouched streams, is the normal one


def test_the_c_defaults_and_limits_are_the_python_module_s():
    import re

    from atomic_africa.agents.puct import MAX_SIMULATIONS, MAX_WAVE

    text = (ROOT / "src" / "aa_core" / "csrc" / "aa_api.c").read_text()
    sims, wave, c, alpha, frac, temp, rollout, weight, width = (
        x.strip() for x in re.search(r"default_puct = \{([^}]*)\};", text).group(1).split(","))
    kind = -1 if rollout == "-1" else AGENT_KINDS[rollout.removeprefix("AA_AGENT_").lower()]
    assert kind == (-1 if PUCT_DEFAULTS["rollout"] == "none" else AGENT_KINDS[PUCT_DEFAULTS["rollout"]])
    assert (int(sims), int(wave), float(c), float(alpha), float(frac), float(temp), float(weight),
            int(width)) == tuple(x for k, x in PUCT_DEFAULTS.items() if k != "rollout")
    header = (ROOT / "src" / "aa_core" / "include" / "atomic_africa.h").read_text()
    assert f"#define AA_MAX_WAVE {MAX_WAVE}\n" in header and f"#define AA_MAX_SIMULATIONS {MAX_SIMULATIONS}\n" in header


@pytest.mark.parametrize("mode,message", [
    ("leaf:9:0.5:0", "options->rollout: 9; allowed -1 (none) or AA_AGENT_RANDOM .. AA_AGENT_DOCTRINE (0..3)"),
    ("leaf:2:1.5:0", "options->rollout_weight: 1.5; allowed 0..1"),
    ("leaf:2:0.5:-1", "options->width: -1; allowed 0 (every legal action) .. 8192"),
])
def test_bad_leaf_options_are_refused_by_name(host, mode, message):
    lines = _c(host, GAMES[:2], {**PUCT_DEFAULTS, "simulations": 4}, mode)
    assert lines == [f"status 1 {message}"] * 2   # refused before any search, both times


def test_a_search_with_rollouts_or_width_takes_agents_of_one_options(host):
    """The greedy agent of the rollouts and the width plays with agents[0]'s options: agents of other
    options are refused, by index; without rollout or width their options are not read."""
    params = {**PUCT_DEFAULTS, "simulations": 4}
    message = ("status 1 agents[1]: other aa_agent_options than agents[0]; a search with a rollout or a width "
               "takes agents of one options")
    assert _c(host, GAMES[:2], params, "mixed:2:0.5:0") == [message] * 2
    assert _c(host, GAMES[:2], params, "mixed:-1:0:2") == [message] * 2
    plain = {**params, "rollout": "none", "rollout_weight": 0.0, "width": 0}
    assert _c(host, GAMES[:2], plain, "mixed:-1:0:0") == _c(host, GAMES[:2], plain)
