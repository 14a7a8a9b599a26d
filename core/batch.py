"""Sharded, resumable foil runs on any engine: the driver and the worker task.

The driver streams the input rows, cuts them into shards (:mod:`core.shards`), hands each
shard to an engine (:mod:`core.engines`) and writes each finished part as it arrives. A
worker builds its pipeline once from the picklable settings (:mod:`core.workercache`).
Every sentence is sampled with its own seed, so the records are the same whatever the
engine, the number of workers or the order in which shards finish.

Example (in this process)::

    summary = run_foils(["corpus/*.txt"], "out/", settings=Settings(), engine=EngineSpec("local"))
"""

from __future__ import annotations

import itertools
import os
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.config import Settings
from core.engines import EngineSpec, run_tasks
from core.errors import ConfigError, InputError
from core.inputs import expand_inputs, file_labels, iter_inputs
from core.progress import ProgressCallback, report
from core.record import as_foil
from core.shards import PART_FORMATS, Shard, ShardedOutput, count_shards, encode_jsonl, input_files, shard_rows

DEFAULT_SHARD_SIZE = 500
"""Input rows per part file: ~15 s of one core's work without validation, ~60 s with it."""


@dataclass(frozen=True)
class ShardJob:
    """What every shard task of one run shares (picklable: settings, not a pipeline)."""

    settings: Settings
    validate: bool
    run: str
    part_format: str = "jsonl"


def craft_part(job: ShardJob, shard: Shard) -> dict[str, Any]:
    """Worker side: the records of one shard, encoded as its part file, and their counts."""
    from core.workercache import pipeline_for

    start = time.perf_counter()
    pipeline = pipeline_for(job.settings)
    records = []
    for record in pipeline.run(shard.rows, validate=job.validate, provenance={}):
        record["run"] = job.run
        records.append(record)
    if job.part_format == "parquet":
        from core.shards import encode_parquet

        data = encode_parquet(records)
    else:
        data = encode_jsonl(records)
    foils = [r for r in map(as_foil, records) if r.has_foil]  # foil None: a refused edit or a failed sentence
    info = {
        "rows": len(shard.rows),
        "records": len(records),
        "foils": len(foils),
        "kept": sum(r.kept is True for r in foils),
        "errors": len(records) - len(foils),
    }
    seconds = round(time.perf_counter() - start, 3)
    return {"data": data, "info": info, "seconds": seconds, "worker": f"{socket.gethostname()}:{os.getpid()}"}


def foil_header(
    settings: Settings,
    paths: Sequence[Path],
    *,
    validate: bool,
    shard_size: int,
    part_format: str,
    column: str | None,
    paraphrase_column: str | None,
    limit: int | None,
) -> dict[str, Any]:
    """Everything that shapes a sharded foil run's records (the manifest's header)."""
    from core.foils.pipeline import FoilPipeline

    return {
        "kind": "foils",
        "provenance": FoilPipeline.from_settings(settings).provenance(),
        "validate": validate,
        "inputs": input_files(paths, file_labels(paths) if len(paths) > 1 else [""]),
        "columns": {"sentence": column, "paraphrase": paraphrase_column},
        "limit": limit,
        "shard_size": shard_size,
        "part_format": part_format,
    }


def check_versions(expected: dict[str, str], workers: dict[str, Any]) -> None:
    """Refuse workers whose package versions differ from the driver's (the manifest would misstate them).

    >>> check_versions({"spacy": "3.8.1"}, {"w1": {"versions": {"spacy": "3.8.1"}}})
    """
    for worker, info in workers.items():
        theirs = info.get("versions", {})
        differ = {k: (v, theirs.get(k)) for k, v in expected.items() if theirs.get(k) != v}
        if differ:
            shown = ", ".join(f"{k} {a} here, {b} there" for k, (a, b) in sorted(differ.items()))
            raise ConfigError(f"worker {worker} runs other package versions: {shown}",
                              hint="install the same versions on every worker (same venv or lock file)")  # fmt: skip


@dataclass
class RunSummary:
    """What a sharded run did: rows, shards made now and before, failures, worker start-up."""

    folder: Path
    rows: int = 0
    shards: int = 0
    made: int = 0
    resumed: int = 0
    failed: dict[int, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    workers: dict[str, Any] = field(default_factory=dict)


def run_foils(
    inputs: str | Sequence[str],
    out: str | os.PathLike[str],
    *,
    settings: Settings | None = None,
    validate: bool = True,
    engine: EngineSpec | None = None,
    shard_size: int = DEFAULT_SHARD_SIZE,
    resume: bool = False,
    column: str | None = None,
    paraphrase_column: str | None = None,
    limit: int | None = None,
    part_format: str = "jsonl",
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> RunSummary:
    """Craft foils for every row of ``inputs`` (paths or globs) into the folder ``out``.

    With ``resume``, shards the folder already holds are skipped and the others made; a
    shard that fails on every try is recorded in the manifest and the run goes on.
    """
    settings = settings or Settings()
    engine = engine or EngineSpec("local")
    if part_format not in PART_FORMATS:
        raise InputError(f"part format {part_format!r} is not supported", hint=f"use one of: {', '.join(PART_FORMATS)}")
    paths = expand_inputs(inputs)

    def rows() -> Any:
        stream = iter_inputs(paths, column=column, paraphrase_column=paraphrase_column)
        return stream if limit is None else itertools.islice(stream, limit)

    total = sum(1 for _ in rows())  # a cheap streaming pass: the progress bar's total
    if total == 0:
        raise InputError(f"{', '.join(map(str, paths))} holds no sentences", hint="one sentence per line, or a CSV with a header")
    header = foil_header(
        settings, paths, validate=validate, shard_size=shard_size, part_format=part_format,
        column=column, paraphrase_column=paraphrase_column, limit=limit,
    )  # fmt: skip
    output = ShardedOutput.open(out, header, resume=resume)
    done_before = output.done()
    summary = RunSummary(folder=Path(out), rows=total, shards=count_shards(total, shard_size), resumed=len(done_before))
    output.set_total(summary.shards)
    output.log_run({"engine": engine.name, "workers": engine.workers, "address": engine.address, "resume": resume})
    job = ShardJob(settings=settings, validate=validate, run=output.run, part_format=part_format)
    sizes = {i: min(shard_size, total - i * shard_size) for i in range(summary.shards)}
    rows_done = sum(sizes[i] for i in done_before if i in sizes)
    report(progress, rows_done, total)

    if summary.resumed == summary.shards:  # nothing left: start no workers
        return _counted(summary, output)
    from core.workercache import warm_up

    def check_workers(info: dict[str, Any]) -> None:
        summary.workers.update(info)
        check_versions(header["provenance"]["versions"], info)

    tasks = ((s.index, (job, s)) for s in shard_rows(rows(), shard_size, skip=done_before))
    warm = (warm_up, (settings, validate))
    for outcome in run_tasks(engine, craft_part, tasks, cancel=cancel, warm=warm, on_warm=check_workers):
        if outcome.error is not None:
            output.fail(outcome.key, outcome.error, outcome.attempts)
            summary.failed[outcome.key] = outcome.error
        else:
            result = outcome.value
            output.write_part(outcome.key, result["data"], result["info"])
            summary.made += 1
        rows_done += sizes[outcome.key]
        report(progress, rows_done, total)
    return _counted(summary, output)


def _counted(summary: RunSummary, output: ShardedOutput) -> RunSummary:
    """Fill in the counts of every finished shard, made now or before."""
    for entry in output.manifest["shards"].values():
        for k in ("rows", "records", "foils", "kept", "errors"):
            summary.counts[k] = summary.counts.get(k, 0) + entry.get(k, 0)
    return summary


def _shard_records(settings: Settings, validate: bool, shard: Shard) -> list[dict[str, Any]]:
    """Worker side: the records of one shard, each with its provenance (as a single-file run writes them)."""
    from core.workercache import pipeline_for

    return list(pipeline_for(settings).run(shard.rows, validate=validate))


def craft_records(
    rows: Sequence[Any],
    *,
    settings: Settings,
    engine: EngineSpec,
    validate: bool = True,
    shard_size: int = 100,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> list[dict[str, Any]]:
    """The records :meth:`FoilPipeline.run` gives for ``rows``, crafted shard by shard on ``engine``
    and returned in input order. A shard that fails on every try becomes one error record per row."""
    from core.export import error_record
    from core.workercache import warm_up

    shards = list(shard_rows(rows, shard_size))
    done: dict[int, list[dict[str, Any]]] = {}
    tasks = ((s.index, (settings, validate, s)) for s in shards)
    for outcome in run_tasks(engine, _shard_records, tasks, cancel=cancel, warm=(warm_up, (settings, validate))):
        if outcome.error is not None:
            rows_of = shards[outcome.key].rows
            done[outcome.key] = [error_record(r.id, r.sentence, r.paraphrase, "worker", outcome.error, None).to_json() for r in rows_of]
        else:
            done[outcome.key] = outcome.value
        report(progress, sum(len(shards[i].rows) for i in done), len(rows))
    return [record for i in range(len(shards)) for record in done[i]]
