"""Test helper: start a child the way a shell starts a background job, so Ctrl-C tests cover the
hardest case."""
from __future__ import annotations

import signal


def as_a_background_job():
    """``preexec_fn`` for a child that Ctrl-C must stop whoever started it.

    A shell without job control (a script's ``cmd &``) starts its background commands with SIGINT
    ignored, and exec keeps an ignored signal ignored (Python then installs no KeyboardInterrupt
    handler); a launcher may also block it. The commands that promise a clean stop on Ctrl-C
    (``play``, ``league``, ``selfplay``) install their own handler and unblock the signal, so the
    tests start them with SIGINT both ignored and blocked: they then pass whether or not the test
    runner's own SIGINT was ignored (``nohup``, ``&``) or blocked (xdist, execnet).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
