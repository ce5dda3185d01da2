"""Where a self-play job's batches run: this process, worker processes or Ray tasks; each backend
yields ``(first game, played)`` per batch as they finish, :func:`in_order` puts them in game order.

Stopping: an exception in the parent (KeyboardInterrupt, a signal, a failed write) or closing a
backend's generator terminates the worker processes (SIGTERM, then SIGKILL after a second) or cancels
the Ray tasks (``force=True``) before it propagates; workers ignore SIGINT, so a Ctrl-C that reaches
the whole process group stops them only through the parent, which first keeps what was written.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from .._optional import require
from .games import play_batch

__all__ = ["backend", "in_order", "WorkerLost"]


class WorkerLost(RuntimeError):
    """A worker process or Ray task died (killed, out of memory) before returning its batch."""


def _in_process(job, ranges):
    for lo, hi in ranges:
        yield lo, play_batch(job, lo, hi)


def _worker_init(parent: int):
    # A terminal's Ctrl-C reaches the whole process group: the parent alone decides what to keep and
    # then terminates the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A parent killed outright (SIGKILL) cannot terminate its workers, and an idle worker waits on
    # its task queue for ever (its siblings keep the queue open): each one leaves by itself. The
    # parent's pid comes from the parent: it may be dead already when this runs.

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _stop_processes(ex: ProcessPoolExecutor) -> None:
    # Python 3.11's executor cannot terminate its workers (terminate_workers() came in 3.14): its
    # process table is private, but the only handle on them.
    procs = list((getattr(ex, "_processes", None) or {}).values())
    # shutdown() drops the executor's references to its manager thread and result queue: take them first.
    manager = getattr(ex, "_executor_manager_thread", None)
    writer = getattr(getattr(ex, "_result_queue", None), "_writer", None)
    for p in procs:
        p.terminate()
    ex.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + 1.0
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join()
    # The executor's manager thread closes its wake-up pipe once it sees the workers gone; Python
    # 3.11's exit hook checks that pipe and then writes to it without a lock, and loses that race now
    # and then ("Exception ignored ... Bad file descriptor" on stderr): let the thread finish first.
    if manager is not None:
        manager.join(1.0)
        if manager.is_alive():
            _complete_cut_message(writer, manager)
            manager.join(1.0)


def _complete_cut_message(writer, manager: threading.Thread) -> None:
    # A worker terminated while writing its result leaves a message cut short in the result pipe.
    # The manager thread waits for the rest forever (this process holds the pipe's write end too, so
    # no end of file comes), and Python's exit hook joins that thread: the process would never end.
    # Zeros complete the message, which then fails to unpickle: the manager takes the pool as
    # broken and ends. The write end is duplicated so that no other file can get its number.
    if writer is None or writer.closed:
        return
    fd = os.dup(writer.fileno())

    def feed():
        zeros = bytes(4096)
        try:
            while manager.is_alive():
                os.write(fd, zeros)
        except OSError:
            pass
        finally:
            os.close(fd)

    threading.Thread(target=feed, name="complete-cut-message", daemon=True).start()


def _processes(job, ranges, workers):
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                             initializer=_worker_init, initargs=(os.getpid(),))
    finished = False
    try:
        todo, pending = iter(ranges), {}
        while True:
            while len(pending) < 2 * workers:      # a bounded window: memory, and little to cancel
                r = next(todo, None)
                if r is None:
                    break
                pending[ex.submit(play_batch, job, *r)] = r[0]
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                lo = pending.pop(f)
                try:
                    played = f.result()
                except BrokenProcessPool:
                    raise WorkerLost("a worker process died (killed, or out of memory) before "
                                     "returning its games") from None
                yield lo, played
        finished = True
    finally:
        if finished:
            ex.shutdown()
        else:
            _stop_processes(ex)


def _ray(job, ranges, workers, address):
    ray = require("ray", "ray", "running games on Ray")
    started = False
    if not ray.is_initialized():
        kw = {"include_dashboard": False, "log_to_driver": False}
        if address is None and workers > 1:  # workers=1: a local Ray on every core
            kw["num_cpus"] = workers
        handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
        ray.init(address=address, **kw)
        started = True
        if threading.current_thread() is threading.main_thread():
            for s, h in handlers.items():   # Ray installs its own; the run's handlers stay in charge
                if h is not None:
                    signal.signal(s, h)
    pending = {}
    try:
        yield None      # Ray is up: backend() waits for it, so a run's games/s does not count its start
        remote = ray.remote(play_batch)
        window = 2 * max(workers, int(ray.cluster_resources().get("CPU", 1)))
        todo = iter(ranges)
        while True:
            while len(pending) < window:
                r = next(todo, None)
                if r is None:
                    break
                pending[remote.remote(job, *r)] = r[0]
            if not pending:
                break
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                lo = pending.pop(ref)
                try:
                    played = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    if isinstance(exc, ray.exceptions.RayTaskError):
                        raise exc.as_instanceof_cause() from None
                    raise WorkerLost(f"a Ray task died before returning its games ({type(exc).__name__})") \
                        from None
                yield lo, played
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def in_order(batches, first):
    """Batches re-ordered by game index (a later batch waits for the earlier ones)."""
    waiting, nxt = {}, first
    for lo, played in batches:
        waiting[lo] = played
        while nxt in waiting:
            played = waiting.pop(nxt)
            yield played
            nxt += len(played)


def backend(job, ranges, workers, use_ray, address):
    """(backend name, generator of ``(first game, played)`` per batch as batches finish)."""
    if use_ray:
        batches = _ray(job, ranges, workers, address)
        next(batches)
        return "ray", batches
    if workers == 1:
        return "in-process", _in_process(job, ranges)
    return "processes", _processes(job, ranges, workers)
