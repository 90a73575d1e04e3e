"""The executors of distributed work (docs/distributed.md): `LocalProcesses(jobs)`, a spawned
process pool (`jobs=1` runs the shards in the calling process), and `RayCluster(address)`, Ray
tasks retried when a worker dies; `run_shards` puts their results back in shard order.
"""

import os
import pickle
import shutil
import tempfile
from concurrent.futures import FIRST_COMPLETED, wait
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Optional, Protocol

from vikinger_ref.arguments import is_integer

from .. import arena as arena_module
from ..extras import install_hint
from ..progress import progress_bar
from ..safety import interrupts, outputs

RETRIES = 3  # a shard whose worker process died is run again this many times
CANCEL_GRACE = 0.5  # seconds a stopped Ray run lets its running shards finish (_cancel)


class ShardError(RuntimeError):
    """A shard failed: `shard` (its number), `what` (its games and seeds) and `cause` (the
    exception it raised, or the worker failure after the retries)."""

    def __init__(self, shard: int, what: str, cause: Optional[BaseException]) -> None:
        self.shard, self.what, self.cause = shard, what, cause
        super().__init__(f"shard {shard} ({what}) failed: {type(cause).__name__}: {cause}")


class Shard:
    """One unit of work: `fn(payload)` is run by a worker; `games` counts for the progress bar;
    `what` names its games and seeds in errors."""

    def __init__(self, fn: Callable[[Any], Any], payload: Any, games: int, what: str) -> None:
        self.fn, self.payload, self.games, self.what = fn, payload, games, what


class Executor(Protocol):
    """What runs shards: LocalProcesses, RayCluster, or a user's own with the same `run`."""

    def run(self, shards: Sequence[Shard]) -> Iterator[tuple[int, Any]]: ...


def _shard_task(fn: Callable[[Any], Any], payload: Any) -> Any:
    # The one function every worker runs (a Ray worker's process title is ray::_shard_task).
    return fn(payload)


def _shard_to_file(fn: Callable[[Any], Any], payload: Any, path: str) -> None:
    """A local worker's task: the result goes to `path` (written under a temporary name, then
    renamed), and only None goes back through the pool's pipe. A pipe message of a few bytes is
    written at once, so stopping a worker can never leave half a message in the pipe, which the
    pool's reading thread would wait on for ever (and the interpreter with it, at exit)."""
    result = fn(payload)
    outputs.write_atomic(path, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))


def _load_result(path: str) -> Any:
    with open(path, "rb") as file:
        result = pickle.load(file)
    os.remove(path)
    return result


class LocalProcesses:
    """Shards in `jobs` spawned worker processes (with 1 job or 1 shard: in the calling
    process). A worker that dies breaks the pool; a new pool then runs the unfinished shards
    again, up to RETRIES times."""

    def __init__(self, jobs: int = 1) -> None:
        if not is_integer(jobs) or jobs < 1:
            raise ValueError(f"jobs must be an int >= 1, not {jobs!r}")
        self.jobs = int(jobs)  # numpy ints too
        self.workers = jobs

    def __repr__(self) -> str:
        return f"LocalProcesses({self.jobs})"

    def run(self, shards: Sequence[Shard]) -> Iterator[tuple[int, Any]]:
        """Yield (shard number, result) as shards finish."""
        if self.jobs == 1 or len(shards) <= 1:
            for number, shard in enumerate(shards):
                yield number, _call(number, shard)
            return
        left = dict(enumerate(shards))
        folder = tempfile.mkdtemp(prefix="vikinger-shards-")
        try:
            yield from self._run_pools(left, folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _run_pools(self, left: dict[int, Shard], folder: str) -> Iterator[tuple[int, Any]]:
        for attempt in range(RETRIES + 1):
            if interrupts.stopping():  # workers ended by a stop under way: no new pool
                raise KeyboardInterrupt
            broken: Optional[BaseException] = None
            # The workers start while the shards are submitted: one BLAS thread each.
            with arena_module.one_blas_thread():
                pool = arena_module.worker_pool(min(self.jobs, len(left)))
            try:
                path = {
                    number: os.path.join(folder, f"{number}-{attempt}.pickle") for number in left
                }
                # held(): a Ctrl-C inside submit() could leave a lock of the pool's taken.
                with arena_module.one_blas_thread(), interrupts.held():
                    futures: dict[Future[None], int] = {
                        pool.submit(_shard_to_file, shard.fn, shard.payload, path[number]): number
                        for number, shard in left.items()
                    }
                pending = set(futures)
                while pending:
                    done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                    for future in sorted(done, key=lambda future: futures[future]):
                        number = futures[future]
                        try:
                            future.result()
                        except BrokenProcessPool as error:
                            broken = error
                            continue
                        except Exception as error:
                            raise ShardError(number, left[number].what, error) from error
                        del left[number]
                        yield number, _load_result(path[number])
            except BaseException:
                _stop(pool)
                raise
            pool.shutdown()
            if not left:
                return
            if attempt == RETRIES:
                number = min(left)
                raise ShardError(number, left[number].what, broken)


def _stop(pool: ProcessPoolExecutor) -> None:
    # Drop the shards not started and end the running ones now rather than after their shard.
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


def _call(number: int, shard: Shard) -> Any:
    try:
        return shard.fn(shard.payload)
    except Exception as error:
        raise ShardError(number, shard.what, error) from error


def import_ray(local: bool) -> Any:
    """The ray module. For a cluster on this machine's loopback, Ray is told first to take the
    loopback address as the node's address (it would otherwise bind and announce the host's
    address, and turn a 127.0.0.1 address into the host's)."""
    if local:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise ImportError(install_hint("--ray needs Ray", "ray")) from None
    return ray


def _is_loopback(address: Optional[str]) -> bool:
    host = address.rsplit(":", 1)[0].strip("[]") if address else ""
    return host == "localhost" or host.startswith("127.") or host == "::1"


class RayCluster:
    """Shards as Ray tasks (`cpus_per_shard` CPUs each). `address`: None or "local" starts a
    local cluster on 127.0.0.1 (shut down by `close()`), otherwise the address of a running
    cluster ("auto", "HOST:PORT"). If this process is already connected to Ray, that connection
    is used as it is. `num_cpus`: the CPUs of a local cluster (default: all). `cpus_per_shard`:
    what each task reserves (e.g. 2 for bots searching on 2 threads); `slots` tasks
    (CPUs // cpus_per_shard) run at a time. A task whose worker process dies is retried (Ray's
    max_retries = RETRIES)."""

    def __init__(
        self,
        address: Optional[str] = None,
        num_cpus: Optional[int] = None,
        cpus_per_shard: int = 1,
    ) -> None:
        # Checked before connecting; numpy ints are ints here as everywhere.
        if not is_integer(cpus_per_shard) or cpus_per_shard < 1:
            raise ValueError(f"cpus_per_shard must be an int >= 1, not {cpus_per_shard!r}")
        if num_cpus is not None and (not is_integer(num_cpus) or num_cpus < 1):
            raise ValueError(f"num_cpus must be None or an int >= 1, not {num_cpus!r}")
        cpus_per_shard = int(cpus_per_shard)
        num_cpus = None if num_cpus is None else int(num_cpus)
        local = address in (None, "local")
        # A loopback address too: Ray would otherwise replace it with the host's address.
        self.ray = ray = import_ray(local or _is_loopback(address))
        self.started = False
        if not ray.is_initialized():
            if local:
                ray.init(
                    address="local",
                    num_cpus=num_cpus,
                    include_dashboard=False,
                    _node_ip_address="127.0.0.1",
                    log_to_driver=False,
                )
                if ray.util.get_node_ip_address() != "127.0.0.1":
                    ray.shutdown()
                    raise RuntimeError(
                        "the local Ray cluster did not take 127.0.0.1 (Ray was "
                        "imported before RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 "
                        "was set); set it before importing ray"
                    )
            else:
                ray.init(address=address, log_to_driver=False)
            self.started = True
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.slots = max(1, self.workers // cpus_per_shard)  # tasks in Ray at a time
        self.task = ray.remote(
            num_cpus=cpus_per_shard, max_retries=RETRIES, retry_exceptions=False
        )(_shard_task)

    def __repr__(self) -> str:
        return f"RayCluster({self.workers} CPUs)"

    def close(self) -> None:
        if self.started and self.ray.is_initialized():
            self.ray.shutdown()
        self.started = False

    def __enter__(self) -> "RayCluster":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, shards: Sequence[Shard]) -> Iterator[tuple[int, Any]]:
        """Yield (shard number, result) as shards finish. At most `slots` tasks are in Ray at a
        time, one per free place, none waiting in Ray's queue. On any exception (Ctrl-C
        included) no more are submitted, and the tasks still running after CANCEL_GRACE seconds
        are cancelled (see _cancel)."""
        ray = self.ray
        todo = list(enumerate(shards))[::-1]  # popped from the end: in shard order
        running: dict[Any, int] = {}  # ObjectRef -> shard number
        try:
            while todo or running:
                while todo and len(running) < self.slots:
                    i, shard = todo.pop()
                    running[self.task.remote(shard.fn, shard.payload)] = i
                # A short timeout keeps this thread in Python, where Ctrl-C is noticed.
                done, _ = ray.wait(list(running), num_returns=1, timeout=0.2)
                for ref in done:
                    i = running.pop(ref)
                    try:
                        result = ray.get(ref)
                    except ray.exceptions.RayTaskError as error:
                        cause = error.cause if isinstance(error.cause, Exception) else error
                        raise ShardError(i, shards[i].what, cause) from None
                    except ray.exceptions.RayError as error:  # the worker died RETRIES + 1 times
                        raise ShardError(i, shards[i].what, error) from None
                    yield i, result
        except BaseException:
            self._cancel(list(running))
            raise

    def _cancel(self, refs: list[Any]) -> None:
        """Stop the tasks `refs` that are still running after CANCEL_GRACE seconds.

        Ray 2.60's driver aborts (RAY_CHECK "Tried to complete task that was not pending") when
        `ray.cancel` meets a task whose reply has arrived but is not yet recorded: the cancel
        fails the task, then the reply completes it. CI hit it twice: with force=True, then
        without, when a failing shard's two neighbours, arena shards of milliseconds, were
        cancelled as they finished. So no task waits in Ray's queue (`run` submits one per
        place), the running ones get CANCEL_GRACE to finish by themselves, and only those still
        running then are cancelled, while the engine is busy in them. Not force=True (it kills
        the worker): a running task gets KeyboardInterrupt, which the engine's long calls notice
        within 50 ms."""
        ray = self.ray
        if not refs:
            return
        try:
            _, refs = ray.wait(refs, num_returns=len(refs), timeout=CANCEL_GRACE)
        except KeyboardInterrupt:  # a second Ctrl-C: cancel at once
            pass
        for ref in refs:
            ray.cancel(ref, force=False)


def run_shards(
    shards: Sequence[Shard],
    executor: Optional["Executor"] = None,
    progress: bool = False,
    on_result: Optional[Callable[[int, Any], None]] = None,
) -> list[Any]:
    """The results of `shards` in shard order, computed by `executor` (default one local
    process), with one progress bar over all of them (in games); `on_result(number, result)`
    is called as each shard ends, in the order they end."""
    executor = executor or LocalProcesses(1)
    results: list[Any] = [None] * len(shards)
    bar = progress_bar(sum(s.games for s in shards), progress)
    try:
        for number, result in executor.run(shards):
            results[number] = result
            if on_result:
                on_result(number, result)
            if bar:
                bar.update(shards[number].games)
    finally:
        if bar:
            bar.close()
    return results
