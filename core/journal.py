"""An append-only JSONL journal: every write is flushed and fsynced.

The source of truth for curated work. A torn last line (a crash mid-write) is
skipped on replay and reported, never fatal; the next append first ends that
line, so a new entry never glues onto it. A journal has one writer at a time:
:meth:`Journal.lock` takes an exclusive file lock (``<journal>.lock``).

>>> import tempfile, pathlib
>>> j = Journal(pathlib.Path(tempfile.mkdtemp()) / "j.jsonl")
>>> j.append({"action": "accept", "id": 1})
>>> [e["action"] for e in j.replay()]
['accept']
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from core.textio import to_json

ENTRY_START = '{"v":'  # every entry this app writes starts so: used to salvage an entry glued onto a torn line


class JournalLocked(Exception):
    """Another process (or another app in this one) holds the journal's lock."""


class Journal:
    """Append-only JSONL file with durable appends."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.skipped_lines = 0
        self.problems: list[str] = []  # "line 7: not JSON (a torn write?)", filled by replay
        self._lock: Any = None

    # -- one writer at a time ------------------------------------------------------------
    def lock(self) -> None:
        """Take the journal's exclusive lock now, or raise :class:`JournalLocked` (never waits)."""
        from filelock import FileLock, Timeout

        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(self.path) + ".lock", timeout=0, thread_local=False)
        try:
            lock.acquire()
        except Timeout as exc:
            raise JournalLocked(str(self.path)) from exc
        self._lock = lock

    def unlock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @property
    def locked(self) -> bool:
        return self._lock is not None

    # -- writing -------------------------------------------------------------------------
    def append(self, entry: Mapping[str, Any]) -> None:
        """Append one entry and make it durable before returning.

        When the file does not end with a newline (a torn last line), one is written
        first, so the torn line stays alone and this entry stays readable.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = (to_json(dict(entry)) + "\n").encode("utf-8")
        with open(self.path, "a+b") as fh:
            end = fh.seek(0, os.SEEK_END)
            if end:
                fh.seek(end - 1)
                if fh.read(1) != b"\n":
                    line = b"\n" + line
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())

    # -- reading -------------------------------------------------------------------------
    def entries(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """Yield ``(line number, entry)`` in order, skipping (counting, describing) damaged lines.

        A line that is not JSON is skipped; when an entry written by this app was glued
        onto a torn line (journals from before the newline fix), that entry is salvaged.
        """
        self.skipped_lines = 0
        self.problems = []
        if not self.path.exists():
            return
        with open(self.path, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except (json.JSONDecodeError, RecursionError):
                    self.skip(n, "not JSON (a torn or damaged write)")
                    salvaged = _salvage(line)
                    if salvaged is not None:
                        yield n, salvaged
                    continue
                if isinstance(value, dict):
                    yield n, value
                else:
                    self.skip(n, f"a JSON {type(value).__name__}, not an object")

    def replay(self) -> Iterator[dict[str, Any]]:
        """Yield the entries in order, skipping (and counting) torn or corrupt lines."""
        for _, entry in self.entries():
            yield entry

    def skip(self, line: int, why: str) -> None:
        """Count a line as skipped (callers validating entries report theirs here too)."""
        self.skipped_lines += 1
        self.problems.append(f"line {line}: {why}")

    def exists(self) -> bool:
        return self.path.exists() and self.path.stat().st_size > 0


def _salvage(line: str) -> dict[str, Any] | None:
    """The last whole entry glued onto a torn line, if there is one."""
    at = line.rfind(ENTRY_START, 1)
    while at > 0:
        try:
            value = json.loads(line[at:])
        except (json.JSONDecodeError, RecursionError):
            at = line.rfind(ENTRY_START, 1, at)
            continue
        return value if isinstance(value, dict) else None
    return None
