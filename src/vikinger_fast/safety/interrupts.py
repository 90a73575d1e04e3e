"""Ctrl-C and SIGTERM in the `vikinger` commands (docs/security.md "Interrupts"): every command
stops on the first signal and on every later one, its worker processes ended, without a
traceback, with exit status 130, its files whole (written atomically) or in a journal that
`--resume` reads.

How: `command()` (the CLI's main) installs one handler for SIGINT and SIGTERM. The first signal
raises KeyboardInterrupt once, in the main thread, where the command's own cleanup runs
(`finally` blocks, pools shut down, the C++ long calls stop within 50 ms as before); every later
one is counted and raises nothing, so that no cleanup is cut short by a second
KeyboardInterrupt. It is put off, by 10 ms at a time, where it would do lasting harm (inside a
lock's `with` of the standard library, a worker's start, multiprocessing's finalizers: see
_UNBREAKABLE), and raised again when the interpreter swallows it (inside a `__del__` or a
garbage-collector callback: "Exception ignored in ..."). `held()` defers it over lines that
must not be parted (an atomic write, two files that go together). The handler itself starts no
thread and takes no lock (it may run while the main thread holds any): a helper thread,
started with the command, raises the put-off interrupts. The stop is bounded: the worker
processes still running when the command returns are terminated, then killed; a stopped
program ends through `leave()` (its threads waited for 3 s at most); and if the process is
still alive STOP_GRACE seconds after the first signal, the helper thread kills the workers
and ends it with status 130.

Worker processes (`worker_context()`, `ignore_in_worker()`) leave Ctrl-C, which a terminal
sends to the whole process group, to the main process: they are started with SIGINT blocked
(so even a worker still starting up, before any of its code runs, never sees it) and ignore it
from their first task on. SIGTERM ends a worker at once (the main process's `terminate()`).
"""

import _thread
import atexit
import contextlib
import multiprocessing
import multiprocessing.process
import multiprocessing.synchronize
import multiprocessing.util
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import InvalidStateError, ProcessPoolExecutor
from multiprocessing.context import SpawnContext, SpawnProcess
from types import FrameType
from typing import Any, Callable, NoReturn, Optional, Union

SIGNALS = (signal.SIGINT, signal.SIGTERM)
EXIT_STATUS = 130  # 128 + SIGINT, the shell's status of a command ended by Ctrl-C
STOP_GRACE = 10.0  # seconds from the first signal to the watchdog's forced end
WORKER_GRACE = 2.0  # seconds a terminated worker has to end before it is killed
THREAD_GRACE = 3.0  # seconds a stopped program waits for its threads before it just exits

Handler = Union[Callable[[int, Optional[FrameType]], Any], int, None]


class _State:
    """The process's one record of the signals received while a command runs."""

    def __init__(self) -> None:
        self.active = False  # inside command()
        self.program = False  # command(program=True): the process ends with the command
        self.signals = 0  # SIGINT and SIGTERM received
        self.raised = False  # the KeyboardInterrupt of the first signal raised (not swallowed)
        self.stopping = False  # the command is over: nothing is raised any more
        self.holding = 0  # depth of held() blocks
        self.pending = False  # a signal came inside held(): raised when it ends
        self.again = False  # a KeyboardInterrupt put off (_raise_later) is due
        self.signum = signal.SIGINT  # a signal of ours, to call the handler with (_raise_later)
        self.first: Optional[float] = None  # time.monotonic() of the first signal
        self.again_at: Optional[float] = None  # when _helper is to raise a put-off one
        self.hook: Callable[[Any], Any] = sys.__unraisablehook__  # the one command() replaced
        self.thread_hook: Callable[[Any], Any] = threading.__excepthook__  # likewise


_state = _State()


def received() -> int:
    """The SIGINT and SIGTERM received since the last command() started."""
    return _state.signals


def stopping() -> bool:
    """True while a command() runs that a signal has stopped."""
    return _state.active and _state.signals > 0


def _handler(signum: int, frame: Optional[FrameType]) -> None:
    state = _state
    if state.again:  # the KeyboardInterrupt put off by _raise_later
        state.again = False
    else:
        state.signals += 1
        if state.first is None:
            state.first = time.monotonic()  # _helper's watchdog counts from here
    if state.raised or state.stopping or (frame is not None and frame.f_code is _FINISH):
        return  # a later signal, or the command is ending: its stop is not cut short
    if state.holding:
        state.pending = True
        return
    if _in_unbreakable(frame):
        _raise_later()
        return
    state.raised = True
    raise KeyboardInterrupt


# Code in which a KeyboardInterrupt would do lasting harm. A Condition's __enter__ and __exit__
# (every queue, future and event of the standard library): raised between taking and releasing
# its lock, it leaves the lock taken, and the thread that needs it next (a process pool's) waits
# for ever. multiprocessing's finalizers and a SemLock's making: raised there, a semaphore is
# unlinked but still registered, or registered without its finalizer, and the resource tracker
# warns of it at exit. A process's start and a pool's launching of its workers: raised there, a
# worker is left that neither the pool nor multiprocessing knows, still starting while the
# pool's queues (and their semaphores) go, and it dies printing a traceback.
_UNBREAKABLE = {
    threading.Condition.__enter__.__code__,
    threading.Condition.__exit__.__code__,
    multiprocessing.util.Finalize.__call__.__code__,
    multiprocessing.synchronize.SemLock.__init__.__code__,
    multiprocessing.process.BaseProcess.start.__code__,
} | {
    getattr(ProcessPoolExecutor, name).__code__
    for name in (
        "_start_executor_manager_thread",
        "_launch_processes",
        "_adjust_process_count",
        "_spawn_process",
    )
    if hasattr(ProcessPoolExecutor, name)  # the names of Python 3.9 to 3.13
}


def _in_unbreakable(frame: Optional[FrameType]) -> bool:
    while frame is not None:
        if frame.f_code in _UNBREAKABLE:
            return True
        frame = frame.f_back
    return False


def _raise_later() -> None:
    """The KeyboardInterrupt raised again in 10 ms, in the main thread, by _helper (here, in
    the main thread, the handler would run at once, where we are)."""
    _state.again_at = time.monotonic() + 0.01


def _unraisable(unraisable: Any) -> None:
    # The interpreter swallows an exception raised where it cannot propagate (a __del__, a
    # weakref callback, a garbage-collector callback such as JAX's) and prints "Exception
    # ignored in ...". Ours is raised again, in the main thread, where it ends the command.
    if _state.signals and issubclass(unraisable.exc_type, KeyboardInterrupt):
        if not _state.stopping:
            _state.raised = False
            _raise_later()
        return
    _state.hook(unraisable)


# A signal that comes while the hook runs must not raise there: the interpreter would swallow
# that KeyboardInterrupt too, and print it ("Exception ignored in sys.unraisablehook"). In the
# hook the handler puts it off instead, as in any code of _UNBREAKABLE.
_UNBREAKABLE.add(_unraisable.__code__)


def _thread_exception(args: Any) -> None:
    # A process pool whose workers a stop ended, and whose futures it had cancelled: Python
    # 3.11's pool thread then fails the cancelled futures too, and dies with InvalidStateError
    # (a race of the standard library's). Nothing is lost by it; nothing is printed.
    if _state.signals and issubclass(args.exc_type, InvalidStateError):
        return
    _state.thread_hook(args)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Defers the first signal's KeyboardInterrupt to the end of the block, in the main thread
    (the only one a signal interrupts); outside command(), or when no signal comes, nothing
    changes. Also a decorator (safety.outputs.write_atomic)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _state.holding += 1
    try:
        yield
    finally:
        _state.holding -= 1
    if not _state.holding and _state.pending:
        _state.pending = False
        if not _state.stopping and not _state.raised:
            _state.raised = True
            raise KeyboardInterrupt


def _helper(state: _State) -> None:
    """The thread beside a command: raises a put-off KeyboardInterrupt when it is due, and is
    the watchdog: STOP_GRACE seconds after the first signal, it ends the process. It only reads
    and writes `state` (no lock): the handler, which may run while the main thread holds any
    lock (threading's own, a pool's), starts no thread and takes no lock."""
    while state is _state and (state.active or state.program):
        time.sleep(0.05 if state.first is None else 0.01)
        if state.again_at is not None and time.monotonic() >= state.again_at:
            state.again_at = None
            state.again = True
            _thread.interrupt_main(state.signum)
        if state.first is not None and time.monotonic() - state.first >= STOP_GRACE:
            message = f"\nstill stopping {STOP_GRACE:.0f} s after the interrupt: ending now\n"
            os.write(2, message.encode())
            exit_now(forced=True)


def end_workers(grace: float = WORKER_GRACE) -> None:
    """Terminates this process's worker processes (multiprocessing's children), waits up to
    `grace` seconds for them, then kills those still running."""
    children = multiprocessing.active_children()
    for child in children:
        with contextlib.suppress(Exception):
            child.terminate()
    deadline = time.monotonic() + grace
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
    for child in children:
        if child.is_alive():
            with contextlib.suppress(Exception):
                child.kill()
            child.join(1.0)


def exit_status(code: Any) -> Any:
    """The command's exit status: `code`, or 130 once a signal came."""
    return EXIT_STATUS if _state.signals else code


@contextlib.contextmanager
def command(program: bool = False) -> Iterator[None]:
    """Runs a command under the handler (see the module's doc). Only in the main thread, and
    only over Python's default handlers (a caller's own handler is kept). Leaving it after a
    signal ends the workers still running and ignores SIGINT and SIGTERM from then on (the
    process is about to exit); otherwise the previous handlers come back. `program`: the
    process ends with the command (the watchdog also bounds its exit; see leave())."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _state
    _state = _State()
    _state.active, _state.program = True, program
    _state.hook = hook = sys.unraisablehook
    sys.unraisablehook = _unraisable
    _state.thread_hook, threading.excepthook = threading.excepthook, _thread_exception
    defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
    previous: dict[int, Handler] = {}
    try:
        threading.Thread(target=_helper, args=(_state,), name="interrupts", daemon=True).start()
        for signum in SIGNALS:
            if signal.getsignal(signum) is defaults[signum]:
                previous[signum] = signal.signal(signum, _handler)
                _state.signum = signum
        yield
    finally:
        _finish(previous, hook)


def _finish(previous: dict[int, Handler], hook: Callable[[Any], Any]) -> None:
    # The exit path: from here on no signal raises anything (_handler looks at `stopping`).
    _state.stopping = True
    _state.active = False
    if not _state.signals:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        sys.unraisablehook = hook
        threading.excepthook = _state.thread_hook
        return
    # Ignored from here to the process's exit: the interpreter puts its own handlers back to
    # the default action as it finalizes, where a late signal would end it as killed by it.
    for signum in previous:
        signal.signal(signum, signal.SIG_IGN)
    end_workers()


def leave(status: int = EXIT_STATUS) -> NoReturn:
    """The end of a stopped program (the CLI's main, after command()): waits up to
    THREAD_GRACE seconds for its other threads, runs the atexit functions (multiprocessing's,
    Ray's), and ends the process with `status` without the interpreter's finalization.

    Why not the usual exit: a thread can be stuck for good (a KeyboardInterrupt raised in the
    main thread just after it took a lock the thread needs, a pool's queue or a future's
    condition, leaves that lock taken, and the exit would join the thread for ever); and work
    cut short in a native library (JAX's computations still running in its threads) can crash
    the interpreter's finalization (SIGSEGV, seen in 1 run of 3 of `vikinger train` stopped
    during its training steps)."""
    deadline = time.monotonic() + THREAD_GRACE
    for thread in _waited_threads():
        thread.join(max(0.0, deadline - time.monotonic()))
    if not any(thread.is_alive() for thread in _waited_threads()):
        with contextlib.suppress(Exception):
            atexit._run_exitfuncs()
    exit_now(status)


def _waited_threads() -> list[threading.Thread]:
    # The threads the interpreter's exit joins: every non-daemon one but this one.
    current = threading.current_thread()
    return [t for t in threading.enumerate() if t is not current and not t.daemon]


def exit_now(status: int = EXIT_STATUS, forced: bool = False) -> NoReturn:
    """Ends the process now with `status`: the workers killed, the output flushed, the
    semaphores of its pools unlinked (what multiprocessing's exit would do), nothing joined.
    `forced` (the watchdog, the main thread stuck perhaps holding a lock): no semaphore work
    (the resource tracker unlinks them), and the output flushed by a thread given 0.5 s."""
    with contextlib.suppress(Exception):
        end_workers(grace=0.0)
    if forced:
        flusher = threading.Thread(target=_flush, daemon=True)
        flusher.start()
        flusher.join(0.5)
    else:
        with contextlib.suppress(Exception):
            registry = multiprocessing.util._finalizer_registry  # type: ignore[attr-defined]
            cleanup = getattr(multiprocessing.synchronize.SemLock, "_cleanup")
            for finalizer in list(registry.values()):
                if getattr(finalizer, "_callback", None) is cleanup:
                    finalizer()
        _flush()
    os._exit(status)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


_FINISH = _finish.__code__


# --- worker processes --------------------------------------------------------------------------


class _QuietSpawnProcess(SpawnProcess):
    """A spawned process that starts with SIGINT blocked (the mask is inherited through the
    exec): a Ctrl-C to the process group while it starts up waits, and ignore_in_worker()
    drops it."""

    @staticmethod
    def _Popen(process_obj: Any) -> Any:
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return SpawnProcess._Popen(process_obj)
        finally:
            # A SIGINT that came meanwhile is delivered here, to the main process's handler.
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class _QuietSpawnContext(SpawnContext):
    Process = _QuietSpawnProcess


_CONTEXT = _QuietSpawnContext()


def worker_context() -> SpawnContext:
    """The multiprocessing context of worker pools: spawn, SIGINT blocked at the start."""
    return _CONTEXT


def ignore_in_worker() -> None:
    """A worker's initializer: SIGINT ignored (a Ctrl-C to the process group is the main
    process's to answer), then unblocked (a pending one is dropped); SIGTERM ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


__all__ = [
    "command",
    "held",
    "received",
    "stopping",
    "end_workers",
    "exit_status",
    "leave",
    "exit_now",
    "worker_context",
    "ignore_in_worker",
    "EXIT_STATUS",
    "STOP_GRACE",
]
