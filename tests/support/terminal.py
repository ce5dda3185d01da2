"""Test helper: start a child process the way a terminal would, so Ctrl-C tests mean what they say."""
from __future__ import annotations

import signal


def as_from_a_terminal():
    """``preexec_fn`` for a child that Ctrl-C must reach.

    At a terminal SIGINT reaches a program whose SIGINT is neither ignored nor blocked; a child
    inherits both from the test process, whose runner (xdist, execnet) the tests do not control.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
