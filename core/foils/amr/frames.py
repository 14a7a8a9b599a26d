"""PropBank/AMR frame list: valid predicate ids and their role descriptions.

Reads the one-frame-per-line format of ``propbank-amr-frames-arg-descr.txt``::

    bite-01  ARG0: biter  ARG1: thing bitten

The file is read lazily on first use and indexed by lemma (``give-up`` for
``give-up-07``), so :meth:`FrameIndex.best_frame` is a dictionary lookup.

>>> idx = FrameIndex.from_lines(["bite-01  ARG0: biter  ARG1: thing bitten", "sit-02  ARG0: sitter", "sit-01  ARG1: sitter"])
>>> idx.best_frame("bite"), idx.best_frame("sit"), idx.best_frame("fly")
('bite-01', 'sit-01', None)
>>> idx.roles("bite-01")
{'ARG0': 'biter', 'ARG1': 'thing bitten'}
>>> idx.has_role("sit-01", "ARG0")
False
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable
from pathlib import Path

from core.errors import InputError, ModelMissingError

_ROLE_SPLIT = re.compile(r"\s{2,}(?=ARG[0-9A-Z-]*:)")
_FRAME_ID = re.compile(r"^(?P<lemma>.+)-(?P<sense>\d+)$")

# Senses AMR annotators use far more often than the lowest-numbered one.
_PREFERRED: dict[str, str] = {
    "have": "have-03",
    "do": "do-02",
    "go": "go-02",
    "look": "look-01",
    "feel": "feel-01",
    "leave": "leave-11",
    "get": "get-01",
    "take": "take-01",
    "keep": "keep-01",
    "turn": "turn-01",
    "work": "work-01",
    "run": "run-02",
    "mean": "mean-01",
    "sad": "sad-02",
}


class FrameIndex:
    """Frame ids (``bite-01``) with role descriptions, indexed by lemma."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._roles: dict[str, dict[str, str]] | None = None
        self._by_lemma: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> FrameIndex:
        """An index over ``path``; checks that the file exists, reads it on first use."""
        p = Path(path)
        if not p.is_file():
            raise ModelMissingError(
                f"frames file not found: {p}",
                hint="pass the path of propbank-amr-frames-arg-descr.txt (AMR-World data/dictionaries)",
            )
        return cls(p)

    @classmethod
    def from_lines(cls, lines: Iterable[str]) -> FrameIndex:
        """An index built from frame lines already in memory (tests, small lists)."""
        idx = cls()
        idx._index(lines)
        return idx

    # -- loading ---------------------------------------------------------------------------------
    def _ensure(self) -> dict[str, dict[str, str]]:
        if self._roles is None:
            with self._lock:
                if self._roles is None:
                    if self.path is None:
                        self._index(())
                    else:
                        try:
                            text = self.path.read_text(encoding="utf-8", errors="replace")
                        except OSError as exc:
                            raise InputError(f"cannot read frames file {self.path}: {exc}") from exc
                        self._index(text.splitlines())
        assert self._roles is not None
        return self._roles

    def _index(self, lines: Iterable[str]) -> None:
        roles: dict[str, dict[str, str]] = {}
        senses: dict[str, list[tuple[int, str]]] = {}
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            parts = _ROLE_SPLIT.split(line)
            frame = parts[0].split()[0]
            m = _FRAME_ID.match(frame)
            if m is None:
                continue
            described: dict[str, str] = {}
            for part in parts[1:]:
                name, _, desc = part.partition(":")
                described[name.strip()] = desc.strip().replace("\\'", "'")
            roles[frame] = described
            senses.setdefault(m.group("lemma"), []).append((int(m.group("sense")), frame))
        self._by_lemma = {lemma: tuple(f for _, f in sorted(items)) for lemma, items in senses.items()}
        self._roles = roles

    # -- queries ---------------------------------------------------------------------------------
    def __contains__(self, frame_id: object) -> bool:
        return frame_id in self._ensure()

    def __len__(self) -> int:
        return len(self._ensure())

    def frames(self, lemma: str) -> tuple[str, ...]:
        """All frame ids of ``lemma``, lowest sense number first."""
        self._ensure()
        return self._by_lemma.get(lemma, ())

    def best_frame(self, lemma: str) -> str | None:
        """The frame id to use for ``lemma``: a common AMR sense, else the lowest-numbered one."""
        self._ensure()
        found = self._by_lemma.get(lemma)
        if not found:
            return None
        preferred = _PREFERRED.get(lemma)
        if preferred is not None and preferred in found:
            return preferred
        return found[0]

    def roles(self, frame_id: str) -> dict[str, str]:
        """Role name -> description for ``frame_id`` (empty when unknown)."""
        return dict(self._ensure().get(frame_id, {}))

    def has_role(self, frame_id: str, role: str) -> bool:
        """Whether ``frame_id`` lists ``role`` (``"ARG0"``); unknown frames have none."""
        return role in self._ensure().get(frame_id, {})
