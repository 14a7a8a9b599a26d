"""A sharded output folder: part files of a fixed number of input rows, and ``manifest.json``.

::

    out/
      manifest.json        settings, seed, versions, model ids, input files with hashes, shards done
      part-00000.jsonl     the records of input rows 0 .. shard_size-1
      part-00001.jsonl     ...
      runs.jsonl           one line per run or resume: time, engine, workers (history, not results)

Records in part files carry ``"run": <id>`` instead of the provenance; the id is the
manifest's ``run``, a hash of everything that shapes the results (settings, versions,
inputs and their hashes, shard size), so a part file always points at the manifest that
explains it. Part files and the manifest are written atomically; a shard counts as done
only once the manifest lists it with its part file's SHA-256, so ``resume`` redoes
exactly the shards that were not finished. The manifest holds no timestamps: a resumed
run leaves the folder byte-identical to an uninterrupted one.

>>> part_name(3)
'part-00003.jsonl'
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.inputs import InputRow
from core.provenance import file_sha256, timestamp
from core.textio import atomic_write_json, atomic_writer, to_json

FORMAT = "smithtui-shards/1"
MANIFEST = "manifest.json"
RUNS_LOG = "runs.jsonl"
PART_FORMATS = ("jsonl", "parquet")


def part_name(index: int, fmt: str = "jsonl") -> str:
    return f"part-{index:05d}.{fmt}"


@dataclass(frozen=True)
class Shard:
    """``rows`` of the input, numbered ``index`` (the part file it becomes)."""

    index: int
    rows: tuple[InputRow, ...]


def shard_rows(rows: Iterable[InputRow], size: int, skip: Iterable[int] = ()) -> Iterator[Shard]:
    """Cut a row stream into shards of ``size`` rows; shards in ``skip`` are read past, not built.

    >>> [len(s.rows) for s in shard_rows([InputRow(str(i), "x") for i in range(5)], 2)]
    [2, 2, 1]
    """
    if size < 1:
        raise InputError(f"shard size {size}: need at least 1 row", hint="e.g. --shard-size 500")
    skipped = set(skip)
    index, chunk = 0, []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            if index not in skipped:
                yield Shard(index, tuple(chunk))
            index, chunk = index + 1, []
    if chunk and index not in skipped:
        yield Shard(index, tuple(chunk))


def count_shards(n_rows: int, size: int) -> int:
    return -(-n_rows // size)


def encode_jsonl(records: Iterable[Mapping[str, Any]]) -> bytes:
    """Records as compact JSON lines (no spaces after separators; nothing else changes)."""
    return "".join(
        to_json(r, separators=(",", ":")) + "\n" for r in records
    ).encode("utf-8")


def encode_parquet(records: list[dict[str, Any]]) -> bytes:
    """Records as one Parquet file (nested fields as JSON strings, as :func:`core.export.write_parquet`)."""
    import tempfile

    from core.export import write_parquet

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "part.parquet"
        write_parquet(path, records)
        return path.read_bytes()


def input_files(paths: Iterable[Path], labels: Iterable[str]) -> list[dict[str, Any]]:
    """What the manifest says of each input file: path, label, size, SHA-256."""
    return [
        {"path": str(p), "label": label, "bytes": p.stat().st_size, "sha256": file_sha256(p)}
        for p, label in zip(paths, labels, strict=True)
    ]


def run_id(header: Mapping[str, Any]) -> str:
    """A short hash of everything that shapes a run's results (input files count by content,
    not by how their path was spelled)."""
    keyed = dict(header)
    if isinstance(keyed.get("inputs"), list):
        keyed["inputs"] = [{k: v for k, v in f.items() if k != "path"} for f in keyed["inputs"]]
    text = to_json(keyed, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class ShardedOutput:
    """The output folder of one run: which shards are done, writing parts and the manifest.

    Create it with :meth:`open`; only the driver writes (workers hand back part bytes).
    """

    def __init__(self, folder: Path, manifest: dict[str, Any]) -> None:
        self.folder = folder
        self.manifest = manifest

    @property
    def run(self) -> str:
        return self.manifest["run"]

    @classmethod
    def open(cls, folder: str | os.PathLike[str], header: Mapping[str, Any], *, resume: bool) -> ShardedOutput:
        """Start a run in ``folder``, or (``resume``) continue the run already there.

        ``header`` holds what shapes the results (kind, settings, versions, inputs, shard size,
        part format). Resuming a folder whose run had a different header is refused: its
        finished parts would not match what this run makes.
        """
        folder = Path(folder)
        if folder.exists() and not folder.is_dir():
            raise InputError(f"--out {folder} is a file, not a folder", hint="name a folder for a sharded run")
        header = dict(header)
        rid = run_id(header)
        path = folder / MANIFEST
        if path.exists():
            try:
                old = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise InputError(f"{path} is unreadable ({exc})", hint="choose a new --out folder") from exc
            if not resume:
                raise InputError(f"{folder} already holds a run", hint="add --resume to continue it, or choose another --out")
            if old.get("run") != rid:
                changed = [k for k in header if k != "inputs" and old.get(k) != header[k]]
                if run_id({"inputs": old.get("inputs")}) != run_id({"inputs": header.get("inputs")}):
                    changed.append("inputs")
                raise InputError(
                    f"cannot resume {folder}: its run differs in {', '.join(changed) or 'format'}",
                    hint="resume with the same settings and inputs, or choose another --out",
                )
            out = cls(folder, old)
            out._drop_unfinished()
            return out
        if folder.exists() and any(p.name.startswith("part-") for p in folder.iterdir()):
            raise InputError(f"{folder} holds part files but no manifest", hint="choose an empty or new --out folder")
        manifest = {"format": FORMAT, "run": rid, **header, "shards": {}, "failed": {}, "total_shards": None}
        out = cls(folder, manifest)
        folder.mkdir(parents=True, exist_ok=True)
        out._save()
        return out

    def _drop_unfinished(self) -> None:
        """Forget listed shards whose part file is missing or changed, so they are redone."""
        for key, entry in list(self.manifest["shards"].items()):
            part = self.folder / entry["file"]
            if not part.exists() or file_sha256(part) != entry["sha256"]:
                del self.manifest["shards"][key]

    def done(self) -> set[int]:
        """Indices of the shards finished (part written and listed)."""
        return {int(k) for k in self.manifest["shards"]}

    def write_part(self, index: int, data: bytes, info: Mapping[str, Any]) -> None:
        """Write shard ``index``'s part file atomically, then list it in the manifest."""
        name = part_name(index, self.manifest.get("part_format", "jsonl"))
        with atomic_writer(self.folder / name, mode="wb") as fh:
            fh.write(data)
        entry = {"file": name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data), **info}
        self.manifest["shards"][f"{index:05d}"] = entry
        self.manifest["failed"].pop(f"{index:05d}", None)
        self._save()

    def fail(self, index: int, reason: str, attempts: int) -> None:
        """Record shard ``index`` as failed (``--resume`` tries it again)."""
        self.manifest["failed"][f"{index:05d}"] = {"reason": reason, "attempts": attempts}
        self._save()

    def set_total(self, total_shards: int) -> None:
        """Record how many shards the whole run has."""
        if self.manifest.get("total_shards") != total_shards:
            self.manifest["total_shards"] = total_shards
            self._save()

    def log_run(self, entry: Mapping[str, Any]) -> None:
        """Append one line to ``runs.jsonl`` (when, which engine): history kept apart from results."""
        line = to_json({"time": timestamp(), "run": self.run, **entry})
        with open(self.folder / RUNS_LOG, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def _save(self) -> None:
        m = self.manifest
        m["shards"] = dict(sorted(m["shards"].items()))
        m["failed"] = dict(sorted(m["failed"].items()))
        atomic_write_json(self.folder / MANIFEST, m)


def read_parts(folder: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Stream the records of a sharded folder's finished JSONL parts, in input order."""
    folder = Path(folder)
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    for entry in manifest["shards"].values():
        with open(folder / entry["file"], encoding="utf-8") as fh:
            for line in fh:
                yield json.loads(line)
