"""Curation: the basket of accepted foils, kept safe by a write-ahead journal.

Every decision (accept, reject, undo) is appended to a :class:`~core.journal.Journal`
(flushed and fsynced) *before* it changes the in-memory state, so a killed
terminal loses nothing: replaying the journal rebuilds the basket exactly. The
journal holds many sessions; each starts with a ``begin`` entry that either
continues the previous session (a restore) or starts empty.

Journal entries (one JSON object a line, ``v`` = format version)::

    {"v": 1, "seq": 7, "ts": "...", "session": "s-…", "action": "begin", "restored_from": null}
    {"action": "input", "sentence": "...", "paraphrase": "..."}
    {"action": "accept", "key": "…", "record": {...}}
    {"action": "reject", "key": "…", "record": {...}}
    {"action": "undo", "target": 9}         # undoes the decision with seq 9
    {"action": "export", "path": "...", "format": "csv", "count": 2}
    {"action": "end"}

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.jsonl"
>>> s = CurationSession.open(path, restore=False)
>>> _ = s.accept({"source": "The cat sat.", "foil": "The cat did not sit.", "rule": "PN"})
>>> len(s.basket)
1
>>> previous_session(path).accepted   # what a restarted app would offer to restore
1
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import InputError, SmithError
from core.journal import Journal
from core.provenance import timestamp

JOURNAL_VERSION = 1
DECISIONS = ("accept", "reject")
EXPORT_FORMATS: Mapping[str, str] = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}


class CurationError(SmithError):
    """The journal or an export could not be written (disk full, permissions, ...)."""


def record_key(record: Mapping[str, Any]) -> str:
    """A stable key for a foil record: its texts and edit, hashed.

    The same edit realized with a hand-edited text gets a different key.

    >>> record_key({"source": "a", "foil": "b"}) == record_key({"source": "a", "foil": "b", "extra": 1})
    True
    """
    if record.get("curation_id"):
        return str(record["curation_id"])
    parts = [
        str(record.get("source") or ""),
        str(record.get("paraphrase") or ""),
        str(record.get("foil") or ""),
        str(record.get("rule") or ""),
        str(record.get("variant") or ""),
        ",".join(map(str, record.get("nodes") or ())),
    ]
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


@dataclass
class CurationState:
    """The pure state machine behind a session: apply journal entries in order."""

    basket: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> record, in acceptance order
    status: dict[str, str] = field(default_factory=dict)  # key -> "accept" | "reject"
    undo_stack: list[tuple[int, str, str | None, dict[str, Any] | None, int | None]] = field(default_factory=list)
    decisions: int = 0
    session: str = ""
    started: str = ""
    ended: bool = False
    last_input: dict[str, Any] | None = None
    exports: int = 0

    def reset(self) -> None:
        self.basket.clear()
        self.status.clear()
        self.undo_stack.clear()
        self.decisions = 0
        self.ended = False
        self.last_input = None
        self.exports = 0

    def apply(self, entry: Mapping[str, Any]) -> dict[str, Any] | None:
        """Apply one entry; for ``undo`` returns the decision entry it reverted."""
        action = entry.get("action")
        if action == "begin":
            if not entry.get("restored_from"):
                self.reset()
            self.session = str(entry.get("session") or "")
            self.started = str(entry.get("ts") or "")
            self.ended = False
        elif action in DECISIONS:
            key = str(entry.get("key") or "")
            record = entry.get("record")
            if not key or not isinstance(record, dict):
                return None
            keys = list(self.basket)
            position = keys.index(key) if key in self.basket else None
            self.undo_stack.append(
                (int(entry.get("seq", -1)), key, self.status.get(key), self.basket.get(key), position)
            )
            self.status[key] = action
            if action == "accept":
                self.basket[key] = {**record, "curation_id": key}
            else:
                self.basket.pop(key, None)
            self.decisions += 1
        elif action == "undo":
            target = entry.get("target")
            while self.undo_stack:
                seq, key, prev_status, prev_record, position = self.undo_stack.pop()
                if target is not None and seq != target:
                    continue  # a stale target: skip to it (entries are strictly ordered)
                self.basket.pop(key, None)
                if prev_status is None:
                    self.status.pop(key, None)
                else:
                    self.status[key] = prev_status
                if prev_record is not None:
                    items = list(self.basket.items())
                    at = len(items) if position is None else min(position, len(items))
                    items.insert(at, (key, prev_record))
                    self.basket = dict(items)
                self.decisions = max(0, self.decisions - 1)
                return {"seq": seq, "key": key}
        elif action == "input":
            self.last_input = {"sentence": entry.get("sentence") or "", "paraphrase": entry.get("paraphrase") or ""}
        elif action == "export":
            self.exports += 1
        elif action == "end":
            self.ended = True
        return None


@dataclass(frozen=True)
class SessionSummary:
    """What the journal holds for the latest session: shown when offering a restore."""

    session: str
    started: str
    ended: bool  # True when the app quit cleanly
    accepted: int
    rejected: int
    decisions: int
    last_input: Mapping[str, Any] | None
    skipped_lines: int  # torn or corrupt journal lines that were ignored

    @property
    def restorable(self) -> bool:
        return self.accepted > 0 or self.decisions > 0

    def describe(self) -> str:
        how = "ended normally" if self.ended else "was interrupted"
        text = (
            f"The last session (started {self.started or 'unknown'}) {how}: "
            f"{self.accepted} foil(s) in the basket, {self.decisions} decision(s)."
        )
        if self.skipped_lines:
            text += f" {self.skipped_lines} damaged journal line(s) were skipped."
        return text


def _replay(journal: Journal) -> tuple[CurationState, int]:
    state = CurationState()
    last_seq = 0
    for entry in journal.replay():
        state.apply(entry)
        try:
            last_seq = max(last_seq, int(entry.get("seq", 0)))
        except (TypeError, ValueError):
            continue
    return state, last_seq


def previous_session(path: str | os.PathLike[str]) -> SessionSummary | None:
    """Summarise the latest session in the journal at ``path`` (None when there is none)."""
    journal = Journal(path)
    if not journal.exists():
        return None
    state, _ = _replay(journal)
    if not state.session and not state.decisions:
        return None
    rejected = sum(1 for v in state.status.values() if v == "reject")
    return SessionSummary(
        session=state.session,
        started=state.started,
        ended=state.ended,
        accepted=len(state.basket),
        rejected=rejected,
        decisions=state.decisions,
        last_input=state.last_input,
        skipped_lines=journal.skipped_lines,
    )


class CurationSession:
    """A curation session: decisions journaled first, then applied to the basket."""

    def __init__(self, journal: Journal, state: CurationState, next_seq: int) -> None:
        self.journal = journal
        self.state = state
        self._seq = next_seq

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], *, restore: bool, session_id: str | None = None
    ) -> CurationSession:
        """Start a session on the journal at ``path``, continuing the previous one when ``restore``."""
        journal = Journal(path)
        try:
            state, last_seq = _replay(journal) if journal.exists() else (CurationState(), 0)
        except OSError as exc:
            raise CurationError(f"cannot read the journal {path}: {exc.strerror}", hint="check its permissions") from exc
        previous = state.session if restore and state.session else None
        session = cls(journal, state, last_seq + 1)
        session._write(
            {"action": "begin", "session": session_id or f"s-{secrets.token_hex(4)}", "restored_from": previous}
        )
        return session

    # -- reading -----------------------------------------------------------
    @property
    def basket(self) -> list[dict[str, Any]]:
        """Accepted records, in the order they were accepted."""
        return list(self.state.basket.values())

    @property
    def session_id(self) -> str:
        return self.state.session

    def status_of(self, record_or_key: Mapping[str, Any] | str) -> str | None:
        """``"accept"``, ``"reject"`` or None for a record (or key) not decided yet."""
        key = record_or_key if isinstance(record_or_key, str) else record_key(record_or_key)
        return self.state.status.get(key)

    @property
    def can_undo(self) -> bool:
        return bool(self.state.undo_stack)

    # -- writing -----------------------------------------------------------
    def _write(self, entry: dict[str, Any]) -> dict[str, Any]:
        full = {"v": JOURNAL_VERSION, "seq": self._seq, "ts": timestamp(), "session": self.state.session, **entry}
        if entry.get("action") == "begin":
            full["session"] = entry["session"]
        try:
            self.journal.append(full)
        except OSError as exc:
            raise CurationError(
                f"cannot write the journal {self.journal.path}: {exc.strerror or exc}",
                hint="free some disk space or set ui.journal to a writable path; the decision was not recorded",
            ) from exc
        self._seq += 1
        self.state.apply(full)
        return full

    def _decide(self, action: str, record: Mapping[str, Any]) -> str:
        if not record.get("source") or not record.get("foil"):
            raise InputError("a foil record needs 'source' and 'foil' texts", hint="generate a foil first")
        key = record_key(record)
        self._write({"action": action, "key": key, "record": {**record, "curation_id": key}})
        return key

    def accept(self, record: Mapping[str, Any]) -> str:
        """Put a foil in the basket (journaled); returns its key."""
        return self._decide("accept", record)

    def reject(self, record: Mapping[str, Any]) -> str:
        """Mark a foil rejected (and take it out of the basket if it was there); returns its key."""
        return self._decide("reject", record)

    def undo(self) -> dict[str, Any] | None:
        """Revert the latest decision not undone yet; returns ``{"seq", "key"}`` or None if nothing to undo."""
        if not self.state.undo_stack:
            return None
        target, key = self.state.undo_stack[-1][0], self.state.undo_stack[-1][1]
        self._write({"action": "undo", "target": target})
        return {"seq": target, "key": key}

    def note_input(self, sentence: str, paraphrase: str | None = None) -> None:
        """Remember the sentence being worked on (restored with the session)."""
        self._write({"action": "input", "sentence": sentence, "paraphrase": paraphrase or ""})

    def close(self) -> None:
        """Mark the session as ended cleanly (best effort: a full disk must not block quitting)."""
        with contextlib.suppress(CurationError):
            self._write({"action": "end"})

    def export(self, path: str | os.PathLike[str], fmt: str | None = None) -> ExportResult:
        """Export the basket (see :func:`export_records`) and journal the export."""
        result = export_records(self.basket, path, fmt)
        self.note_export(result)
        return result

    def note_export(self, result: ExportResult) -> None:
        """Journal an export done elsewhere (e.g. in a worker thread); best effort."""
        with contextlib.suppress(CurationError):  # the export succeeded; the journal entry is only a note
            self._write({"action": "export", "path": str(result.path), "format": result.format, "count": result.count})


@dataclass(frozen=True)
class ExportResult:
    path: Path
    format: str
    count: int


def export_format(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The export format for ``path``: ``jsonl``, ``csv`` or ``parquet`` (named, or from the suffix).

    >>> export_format("foils.csv"), export_format("x.PARQUET"), export_format("x.txt", "jsonl")
    ('csv', 'parquet', 'jsonl')
    """
    if fmt:
        fmt = fmt.lower().lstrip(".")
        if fmt not in set(EXPORT_FORMATS.values()):
            raise InputError(f"unknown export format {fmt!r}", hint="use jsonl, csv or parquet")
        return fmt
    suffix = Path(path).suffix.lower()
    if suffix not in EXPORT_FORMATS:
        raise InputError(
            f"cannot tell the export format of {Path(path).name!r}",
            hint="end the file name with .jsonl, .csv (SentenceSmith layout) or .parquet",
        )
    return EXPORT_FORMATS[suffix]


def export_records(
    records: Sequence[Mapping[str, Any]] | Iterable[Mapping[str, Any]],
    path: str | os.PathLike[str],
    fmt: str | None = None,
) -> ExportResult:
    """Write foil records atomically as JSONL, SentenceSmith CSV or Parquet.

    A failed write (a full disk, a read-only folder) raises :class:`CurationError`
    and leaves any existing file at ``path`` untouched.
    """
    from core.export import write_jsonl, write_parquet, write_sentencesmith_csv

    records = list(records)
    fmt = export_format(path, fmt)
    if not records:
        raise InputError("the basket is empty: nothing to export", hint="accept some foils first (key a)")
    target = Path(path).expanduser()
    if target.is_dir():
        raise InputError(f"{target} is a folder", hint="give a file name, e.g. foils.jsonl")
    writer = {"jsonl": write_jsonl, "csv": write_sentencesmith_csv, "parquet": write_parquet}[fmt]
    try:
        count = writer(target, records)
        from core.dataset_card import write_dataset_card

        write_dataset_card(target, records, fmt, count=count)  # README.md card for datasets.load_dataset(folder)
    except OSError as exc:
        raise CurationError(
            f"cannot write {target}: {exc.strerror or exc}",
            hint="free some disk space or choose another folder; the basket and journal are unchanged",
        ) from exc
    return ExportResult(path=target, format=fmt, count=count)
