"""Outside policies that misbehave (issue 27): a policy raising a BaseException, calling sys.exit, or
hanging gives a one-line error naming it (exit status 2, no traceback); KeyboardInterrupt stops the
league as Ctrl-C does (status 130); a policy call has a timeout (``--policy-timeout``)."""
import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from atomic_africa.game.testing import mini_scenario, unit
from atomic_africa.league import play_league
from atomic_africa.league.entrants import Entrant
from atomic_africa.league.external import DEFAULT_POLICY_TIMEOUT, PolicyError, PolicyTimeout, play_external


def _small():
    return mini_scenario([unit(60.0, 20.0)], [unit(60.0, 90.0)], turns=2)


class Boom(BaseException):
    """Not an Exception: escapes an ``except Exception``."""


def _play(policy, timeout=DEFAULT_POLICY_TIMEOUT):
    return play_external((Entrant("random"), Entrant(f"m:{policy.__name__}", policy)), 2, 0, scenario=_small(),
                         policy_timeout=timeout)


def raises_base(obs, masks):
    raise Boom("out of the blue")


def exits(obs, masks):
    sys.exit(3)


def exits_quietly(obs, masks):
    raise SystemExit


def bad_array(obs, masks):
    class Weird:
        def __array__(self, *a, **k):
            raise Boom("no array here")
    return Weird()


def unprintable(obs, masks):
    class Odd(Exception):
        def __str__(self):
            raise Boom("cannot even say why")
    raise Odd()


def interrupts(obs, masks):
    raise KeyboardInterrupt


# Set at the end of a timeout test: the hung call left behind on its thread then returns, rather
# than spinning on a core for the rest of the test session.
RELEASE = threading.Event()


def sleeps(obs, masks):
    RELEASE.wait(600)


def spins(obs, masks):
    while not RELEASE.is_set():
        pass


@pytest.mark.parametrize("policy, message", [
    (raises_base, r"^policy 'm:raises_base' raised Boom: out of the blue$"),
    (exits, r"^policy 'm:exits' called sys\.exit\(3\); a policy must return actions, not end the program$"),
    (exits_quietly, r"^policy 'm:exits_quietly' called sys\.exit\(None\); a policy must return actions"),
    (bad_array, r"^policy 'm:bad_array' returned Weird, not an array of action ids \(Boom: no array here\)$"),
    (unprintable, r"^policy 'm:unprintable' raised Odd: \(its message cannot be shown: Boom\)$"),
])
@pytest.mark.parametrize("timeout", [DEFAULT_POLICY_TIMEOUT, None])
def test_a_policy_that_raises_anything_is_named_in_one_line(policy, message, timeout):
    with pytest.raises(PolicyError, match=message):
        _play(policy, timeout)


@pytest.mark.parametrize("timeout", [DEFAULT_POLICY_TIMEOUT, None])
def test_a_policy_raising_keyboard_interrupt_stops_the_league_as_ctrl_c(timeout):
    with pytest.raises(KeyboardInterrupt):
        _play(interrupts, timeout)


@pytest.mark.parametrize("policy", [sleeps, spins])
def test_a_hung_policy_times_out(policy):
    RELEASE.clear()
    t0 = time.perf_counter()
    try:
        with pytest.raises(PolicyTimeout, match=rf"^policy 'm:{policy.__name__}' gave no answer within 0\.5 s \(the "
                                                r"policy timeout\); the league stopped$"):
            _play(policy, 0.5)
    finally:
        RELEASE.set()
    assert time.perf_counter() - t0 < 10
    # The league goes on working afterwards (the hung call is left behind on its own thread).
    assert len(_play(lambda obs, masks: masks.argmax(axis=1))) == 2


def test_the_timeout_is_checked():
    for bad in (-1, float("nan"), float("inf"), "5", True):
        with pytest.raises((ValueError, TypeError), match=r"^policy_timeout: "):
            play_league("random,heuristic", 1, scenario=_small(), policy_timeout=bad)


POLICIES = textwrap.dedent('''
    import sys, time

    class Boom(BaseException):
        pass

    def act(obs, masks):
        return masks.argmax(axis=1)

    def raises_base(obs, masks):
        raise Boom("out of the blue")

    def exits(obs, masks):
        sys.exit(3)

    def interrupts(obs, masks):
        raise KeyboardInterrupt

    def sleeps(obs, masks):
        time.sleep(600)

    def spins(obs, masks):
        while True:
            pass
''')


@pytest.mark.parametrize("name, extra, status, err", [
    ("raises_base", [], 2, "atomic-africa league: error: policy 'p:raises_base' raised Boom: out of the blue"),
    ("exits", [], 2, "atomic-africa league: error: policy 'p:exits' called sys.exit(3); a policy must return "
                     "actions, not end the program"),
    ("interrupts", [], 130, "atomic-africa league: interrupted"),
    ("sleeps", ["--policy-timeout", "1"], 2, "atomic-africa league: error: policy 'p:sleeps' gave no answer "
                                             "within 1 s (--policy-timeout); the league stopped"),
    ("spins", ["--policy-timeout", "1"], 2, "atomic-africa league: error: policy 'p:spins' gave no answer "
                                            "within 1 s (--policy-timeout); the league stopped"),
])
def test_the_command_reports_a_misbehaving_policy_in_one_line(tmp_path, name, extra, status, err):
    (tmp_path / "p.py").write_text(POLICIES)
    proc = subprocess.run([sys.executable, "-m", "atomic_africa", "league", "--agents", f"random,p:{name}",
                           "--games", "2", "--quiet", *extra], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert (proc.returncode, proc.stderr) == (status, err + "\n")
    assert proc.stdout == ""


def test_the_command_checks_the_timeout_option(capsys):
    from atomic_africa.cli import main
    with pytest.raises(SystemExit) as info:
        main(["league", "--agents", "random,heuristic", "--policy-timeout", "-1"])
    assert info.value.code == 2
    assert capsys.readouterr().err == ("atomic-africa league: error: argument --policy-timeout: expected "
                                       "seconds >= 0 (0: no timeout), got '-1'\n")
    assert np.isfinite(DEFAULT_POLICY_TIMEOUT) and DEFAULT_POLICY_TIMEOUT > 0
