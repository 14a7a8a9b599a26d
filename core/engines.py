"""Where tasks run: in this process (``local``), a local process pool (``process``) or a Dask
cluster (``dask``: an existing scheduler at ``address``, or a ``LocalCluster`` of ``workers``).

:func:`run_tasks` takes ``(key, args)`` pairs and a picklable module-level function, keeps
at most one task per worker in flight (so a killed run loses at most one task per worker
and the driver's memory stays flat), and yields a :class:`TaskOutcome` per task as each
finishes, in completion order. A task whose worker dies, or that raises, is retried
``retries`` times, then comes back with ``error`` set; the others go on.

>>> [o.value for o in run_tasks(EngineSpec("local"), pow, [(1, (2, 3)), (2, (3, 2))])]
[8, 9]
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from core.errors import ConfigError
from core.progress import check_cancel


@dataclass(frozen=True)
class EngineSpec:
    """How to run: engine name, worker count, Dask scheduler address, retries per task."""

    name: str = "local"
    workers: int = 2
    address: str = ""  # tcp://HOST:PORT of a running Dask scheduler; empty: a LocalCluster
    retries: int = 1

    def __post_init__(self) -> None:
        if self.name not in ENGINES:
            raise ConfigError(f"unknown engine {self.name!r}", hint=f"engines are: {', '.join(ENGINES)}")
        if self.workers < 1:
            raise ConfigError(f"--workers {self.workers}: need at least 1", hint="e.g. --workers 2")
        if self.address and self.name != "dask":
            raise ConfigError("--address needs --engine dask", hint="add --engine dask")
        if self.address and not self.address.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
            raise ConfigError(f"--address {self.address!r} is not a scheduler address", hint="e.g. tcp://10.0.0.5:8786")

    @property
    def slots(self) -> int:
        """Tasks kept in flight at once (one per worker)."""
        return 1 if self.name == "local" else self.workers


@dataclass
class TaskOutcome:
    """The result of one task (``value``), or why it failed after its tries (``error``)."""

    key: Any
    value: Any = None
    error: str | None = None
    attempts: int = 1


Task = tuple[Any, tuple[Any, ...]]


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    reason = f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")
    return reason if len(reason) <= 240 else reason[:239] + "…"


def run_tasks(
    spec: EngineSpec,
    fn: Callable[..., Any],
    tasks: Iterable[Task],
    *,
    cancel: threading.Event | None = None,
    warm: tuple[Callable[..., Any], tuple[Any, ...]] | None = None,
    on_warm: Callable[[dict[str, Any]], None] | None = None,
) -> Iterator[TaskOutcome]:
    """Run ``fn(*args)`` for each ``(key, args)`` of ``tasks`` on ``spec``'s engine.

    ``tasks`` is read lazily, as slots free up. ``warm = (f, args)`` runs ``f(*args)`` once on
    every worker before the first task (loading models there, apart from the tasks' time);
    ``on_warm`` gets what it returned, per worker (local and dask; a process pool runs it as
    each worker's initializer and reports nothing).
    """
    runner = _RUNNERS[spec.name]
    check_cancel(cancel)
    yield from runner(spec, fn, iter(tasks), cancel, warm, on_warm or (lambda info: None))


def _run_local(spec, fn, tasks, cancel, warm, on_warm) -> Iterator[TaskOutcome]:
    if warm is not None:
        on_warm({"local": warm[0](*warm[1])})
    for key, args in tasks:
        check_cancel(cancel)
        for attempt in range(1, spec.retries + 2):
            try:
                yield TaskOutcome(key, fn(*args), attempts=attempt)
                break
            except Exception as exc:  # a task failure is recorded, the run goes on
                if attempt > spec.retries:
                    yield TaskOutcome(key, error=_reason(exc), attempts=attempt)


def _run_process(spec, fn, tasks, cancel, warm, on_warm) -> Iterator[TaskOutcome]:
    """A spawn-context process pool. A dead worker breaks the whole pool, so it is rebuilt; the
    tasks that were in flight together become suspects and run again one at a time, and only a
    death while a task ran alone counts as that task's failed try."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    def new_pool() -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")
        if warm is None:
            return ProcessPoolExecutor(max_workers=spec.workers, mp_context=context)
        return ProcessPoolExecutor(max_workers=spec.workers, mp_context=context, initializer=warm[0], initargs=warm[1])

    pool = new_pool()
    pending: dict[Any, tuple[Any, tuple[Any, ...], int]] = {}  # future -> (key, args, attempt)
    retry: list[tuple[Any, tuple[Any, ...], int]] = []  # failed tries, run again
    suspects: list[tuple[Any, tuple[Any, ...], int]] = []  # in flight when the pool broke: run alone
    exhausted = False
    try:
        while True:
            check_cancel(cancel)
            while len(pending) < (1 if suspects else spec.slots):
                if suspects:
                    item = suspects.pop(0)
                elif retry:
                    item = retry.pop(0)
                elif not exhausted and (nxt := next(tasks, None)) is not None:
                    item = (nxt[0], nxt[1], 1)
                else:
                    exhausted = True
                    break
                pending[pool.submit(fn, *item[1])] = item
            if not pending:
                return
            finished, _ = wait(list(pending), timeout=1.0, return_when=FIRST_COMPLETED)
            alone = len(pending) == 1
            broken: list[tuple[Any, tuple[Any, ...], int]] = []
            for fut in finished:
                key, args, attempt = item = pending.pop(fut)
                try:
                    yield TaskOutcome(key, fut.result(), attempts=attempt)
                except BrokenProcessPool:
                    broken.append(item)
                except Exception as exc:  # the task raised: a failed try
                    if attempt > spec.retries:
                        yield TaskOutcome(key, error=_reason(exc), attempts=attempt)
                    else:
                        retry.append((key, args, attempt + 1))
            if not broken:
                continue
            broken += list(pending.values())
            pending.clear()
            pool.shutdown(wait=False, cancel_futures=True)
            pool = new_pool()
            if alone:
                key, args, attempt = broken[0]
                if attempt > spec.retries:
                    yield TaskOutcome(key, error="worker process died while running it", attempts=attempt)
                else:
                    suspects.append((key, args, attempt + 1))
            else:
                suspects.extend(broken)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


@contextlib.contextmanager
def dask_client(spec: EngineSpec) -> Iterator[Any]:
    """A Dask client: connected to ``spec.address``, or to a new loopback-only ``LocalCluster``.

    A worker that dies while running a task counts against the scheduler's
    ``distributed.scheduler.allowed-failures``; for a LocalCluster that is ``spec.retries``.
    """
    import dask
    from distributed import Client, LocalCluster

    if spec.address:
        with Client(spec.address, timeout="30s") as client:
            yield client
        return
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": spec.retries}),
        LocalCluster(
            n_workers=spec.workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def _run_dask(spec, fn, tasks, cancel, warm, on_warm) -> Iterator[TaskOutcome]:
    from distributed import as_completed

    with dask_client(spec) as client:
        if warm is not None:
            on_warm(client.run(warm[0], *warm[1]))
        slots = spec.slots if not spec.address else max(1, len(client.scheduler_info()["workers"]))
        keys: dict[str, tuple[Any, tuple[Any, ...]]] = {}

        def submit(item: Task) -> Any:
            key, args = item
            fut = client.submit(fn, *args, pure=False, retries=spec.retries)
            keys[fut.key] = (key, args)
            return fut

        first = [submit(t) for t in _take(tasks, slots)]
        if not first:
            return
        queue = as_completed(first)
        for fut in queue:
            check_cancel(cancel)
            key, _args = keys.pop(fut.key)
            try:
                yield TaskOutcome(key, fut.result())
            except Exception as exc:  # KilledWorker after the allowed failures, or the task's own error
                yield TaskOutcome(key, error=_reason(exc), attempts=spec.retries + 1)
            fut.release()
            for item in _take(tasks, 1):
                queue.add(submit(item))


def _take(tasks: Iterator[Task], n: int) -> list[Task]:
    out = []
    for _ in range(n):
        item = next(tasks, None)
        if item is None:
            break
        out.append(item)
    return out


# engine name -> its runner: the one table of engines (adding one is a row here).
_RUNNERS: dict[str, Callable[..., Iterator[TaskOutcome]]] = {"local": _run_local, "process": _run_process, "dask": _run_dask}
ENGINES: tuple[str, ...] = tuple(_RUNNERS)
