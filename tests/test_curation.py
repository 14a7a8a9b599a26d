"""The basket and its journal: decisions, undo, crash-and-restore, atomic exports."""

from __future__ import annotations

import csv
import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.curation import (
    CurationError,
    CurationSession,
    export_format,
    export_records,
    previous_session,
    record_key,
)
from core.errors import InputError
from core.export import SENTENCESMITH_COLUMNS

ROOT = Path(__file__).resolve().parents[1]


def rec(n: int, rule: str = "PN", paraphrase: str | None = "A feline chased a rodent.") -> dict:
    return {
        "source": "The cat chased the mouse.",
        "paraphrase": paraphrase,
        "foil": f"The cat did not chase the mouse {n}.",
        "rule": rule,
        "variant": "main-predicate",
        "nodes": ["c"],
        "description": f"negate chase-01 #{n}",
        "verdicts": [{"validator": "roundtrip", "passed": True, "score": 0.9, "reason": "ok", "probabilities": {}}],
    }


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return tmp_path / "journal.jsonl"


def test_accept_reject_undo(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    k1, k2 = s.accept(rec(1)), s.accept(rec(2))
    assert [r["curation_id"] for r in s.basket] == [k1, k2]
    s.reject(rec(1))
    assert [r["curation_id"] for r in s.basket] == [k2]
    assert s.status_of(k1) == "reject"
    assert s.undo() == {"seq": 4, "key": k1}  # begin=1, accept=2, accept=3, reject=4
    assert [r["curation_id"] for r in s.basket] == [k1, k2]  # back in its old place
    assert s.status_of(k1) == "accept"
    s.undo()
    s.undo()
    assert s.basket == [] and not s.can_undo
    assert s.undo() is None


def test_accepting_twice_keeps_one_and_undo_restores(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    s.accept(rec(1))
    assert len(s.basket) == 1
    s.undo()
    assert len(s.basket) == 1
    s.undo()
    assert s.basket == []


def test_hand_edited_foil_is_a_different_item() -> None:
    a = rec(1)
    b = {**a, "foil": a["foil"].replace("not", "never")}
    assert record_key(a) != record_key(b)


def test_records_without_texts_are_refused(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    with pytest.raises(InputError):
        s.accept({"source": "x", "foil": ""})
    assert s.basket == []


def test_restore_after_abandoning_the_session(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.note_input("The cat chased the mouse.", "A feline chased a rodent.")
    for n in range(3):
        s.accept(rec(n))
    s.reject(rec(1))
    s.accept(rec(7, rule="HS"))
    s.undo()
    expected = s.basket
    del s  # abandoned: no close(), as when the terminal is killed

    summary = previous_session(journal)
    assert summary is not None and summary.restorable and not summary.ended
    assert summary.accepted == 2 and summary.rejected == 1
    assert summary.last_input == {"sentence": "The cat chased the mouse.", "paraphrase": "A feline chased a rodent."}
    assert "interrupted" in summary.describe()

    restored = CurationSession.open(journal, restore=True)
    assert restored.basket == expected
    # decisions keep going after a restore, and a second crash loses nothing either
    restored.accept(rec(9))
    again = CurationSession.open(journal, restore=True)
    assert [r["foil"] for r in again.basket] == [*(r["foil"] for r in expected), rec(9)["foil"]]
    # undo still reaches decisions made before the restore
    again.undo()  # the accept of #9
    again.undo()  # the reject of #1, made before the crash: #1 is back in its place
    assert [r["foil"] for r in again.basket] == [rec(n)["foil"] for n in range(3)]


def test_declining_restore_starts_empty_but_keeps_the_journal(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    s.close()
    assert previous_session(journal).ended
    fresh = CurationSession.open(journal, restore=False)
    assert fresh.basket == []
    lines = journal.read_text().splitlines()
    assert any(json.loads(line)["action"] == "accept" for line in lines)
    assert previous_session(journal).accepted == 0


def test_torn_last_line_is_skipped(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    with open(journal, "a", encoding="utf-8") as fh:
        fh.write('{"v": 1, "seq": 99, "action": "acc')  # a crash mid-write
    summary = previous_session(journal)
    assert summary.accepted == 1 and summary.skipped_lines == 1
    restored = CurationSession.open(journal, restore=True)
    assert len(restored.basket) == 1
    restored.accept(rec(2))  # appending after a torn line still gives a readable journal
    assert previous_session(journal).accepted == 2


def test_no_journal_means_nothing_to_restore(tmp_path: Path) -> None:
    assert previous_session(tmp_path / "none.jsonl") is None
    (tmp_path / "empty.jsonl").write_text("")
    assert previous_session(tmp_path / "empty.jsonl") is None


def test_journal_write_failure_changes_nothing(journal: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(CurationError, match="No space left"):
        s.accept(rec(2))
    monkeypatch.undo()
    assert len(s.basket) == 1


def test_killed_process_loses_nothing(journal: Path) -> None:
    """A real SIGKILL right after three decisions: the next process restores all of them."""
    code = textwrap.dedent(
        f"""
        import os, signal, sys
        sys.path.insert(0, {str(ROOT)!r})
        from core.curation import CurationSession
        s = CurationSession.open({str(journal)!r}, restore=False)
        for n in range(3):
            s.accept({{"source": "The cat sat.", "foil": f"The cat did not sit {{n}}.", "rule": "PN"}})
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL
    restored = CurationSession.open(journal, restore=True)
    assert [r["foil"] for r in restored.basket] == [f"The cat did not sit {n}." for n in range(3)]


def test_exports_in_three_formats(journal: Path, tmp_path: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1, "PN"))
    s.accept(rec(2, "HS", paraphrase=None))
    out = s.export(tmp_path / "out" / "foils.jsonl")
    assert out.count == 2 and out.format == "jsonl"
    lines = [json.loads(x) for x in (tmp_path / "out" / "foils.jsonl").read_text().splitlines()]
    assert [r["foil"] for r in lines] == [rec(1)["foil"], rec(2)["foil"]]

    s.export(tmp_path / "foils.csv")
    with open(tmp_path / "foils.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0]) == SENTENCESMITH_COLUMNS
    assert [r["modification_type"] for r in rows] == ["polarity_negation", "hypernym"]
    assert rows[1]["paraphrase"] == ""

    import pyarrow.parquet as pq

    s.export(tmp_path / "foils.parquet")
    table = pq.read_table(tmp_path / "foils.parquet").to_pylist()
    assert [r["rule"] for r in table] == ["PN", "HS"]
    assert previous_session(journal).accepted == 2  # exports do not touch the basket


def test_export_errors(journal: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError, match="empty"):
        export_records([], tmp_path / "a.jsonl")
    with pytest.raises(InputError, match="format"):
        export_format(tmp_path / "a.xlsx")
    with pytest.raises(InputError, match="folder"):
        export_records([rec(1)], tmp_path, "jsonl")

    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    target = tmp_path / "foils.jsonl"
    target.write_text("old contents\n")
    journal_before = journal.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(CurationError, match="No space left"):
        s.export(target)
    monkeypatch.undo()
    assert target.read_text() == "old contents\n"  # atomic: the old file survives
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".foils")]  # no temp litter
    assert journal.read_bytes() == journal_before
    assert len(s.basket) == 1
