"""An append-only JSONL journal: every write is flushed and fsynced.

The source of truth for curated work. A torn last line (a crash mid-write) is
skipped on replay and reported, never fatal.

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

from core.textio import json_default


class Journal:
    """Append-only JSONL file with durable appends."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.skipped_lines = 0

    def append(self, entry: Mapping[str, Any]) -> None:
        """Append one entry and make it durable before returning."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(dict(entry), ensure_ascii=False, default=json_default) + "\n"
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())

    def replay(self) -> Iterator[dict[str, Any]]:
        """Yield the entries in order, skipping (and counting) torn or corrupt lines."""
        self.skipped_lines = 0
        if not self.path.exists():
            return
        with open(self.path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except json.JSONDecodeError:
                    self.skipped_lines += 1
                    continue
                if isinstance(value, dict):
                    yield value
                else:
                    self.skipped_lines += 1

    def exists(self) -> bool:
        return self.path.exists() and self.path.stat().st_size > 0
