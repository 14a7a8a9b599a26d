"""The curation session in the app: opening the journal (restore or not), undo, re-scoring and exports.

:class:`CurationMixin` is a mixin of :class:`smithtui.app.SmithApp` over :mod:`core.curation`; its
messages (``Rescored``, ``ExportDone``, ``ExportFailed``, ``BasketChanged``) are the app's own.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work

from core.curated import CurationError, export_records
from core.curation import (
    CurationSession,
    JournalInUse,
    SessionSummary,
    open_session,
    previous_session,
    sibling_journals,
)
from core.errors import SmithError

if TYPE_CHECKING:
    from smithtui.app import SmithApp


class CurationMixin:
    """The basket and its journal, for :class:`smithtui.app.SmithApp` (mixed in before ``App``)."""

    curation: CurationSession | None
    previous: SessionSummary | None
    journal_path: Path
    restore_policy: str
    undo_armed: int | None
    backends: Any

    def _free_journal(self) -> None:
        """Move to a sibling journal when another window holds this one (each journal has one writer)."""
        from core.journal import Journal, JournalLocked

        for candidate in sibling_journals(self.journal_path):
            probe = Journal(candidate)
            try:
                probe.lock()
            except JournalLocked:
                continue
            except OSError:
                return  # reported when the session opens
            probe.unlock()
            if candidate != self.journal_path:
                self.notify(
                    f"the journal {self.journal_path} is in use by another smithtui window; "
                    f"this window journals to {candidate}",
                    severity="warning",
                    markup=False,
                    timeout=10,
                )
                self.journal_path = candidate
            return

    def _start_curation(self) -> None:
        self._free_journal()
        try:
            self.previous = previous_session(self.journal_path)
        except OSError as exc:
            self.notify(f"cannot read the journal: {exc}", severity="error", markup=False)
            self.previous = None
        if self.previous is None or not self.previous.restorable or self.restore_policy == "never":
            self._open_session(False)
        elif self.restore_policy == "always":
            self._open_session(True)
        else:
            from smithtui.widgets.dialogs import ConfirmScreen

            self.push_screen(
                ConfirmScreen("Restore the previous session?", self.previous.describe(), id="restore-dialog"),
                self._open_session,
            )

    def _open_session(self, restore: bool | None) -> None:
        try:
            self.curation, where = open_session(self.journal_path, restore=bool(restore))
            if where != self.journal_path:  # another window took it meanwhile
                self.notify(f"the journal is in use by another window; this one journals to {where}", markup=False)
                self.journal_path = where
        except JournalInUse as exc:
            self.notify(f"{exc.message} (hint: {exc.hint})", severity="error", markup=False, timeout=10)
            fallback = Path(tempfile.mkdtemp(prefix="smithtui-")) / "journal.jsonl"
            self.journal_path = fallback
            self.curation = CurationSession.open(fallback, restore=False)
        except (CurationError, OSError) as exc:
            fallback = Path(tempfile.mkdtemp(prefix="smithtui-")) / "journal.jsonl"
            self.notify(
                f"journal unavailable ({exc}); decisions go to {fallback} for this session",
                severity="error",
                markup=False,
                timeout=10,
            )
            self.journal_path = fallback
            self.curation = CurationSession.open(fallback, restore=False)
        if restore and self.curation.basket:
            self.notify(f"restored {len(self.curation.basket)} foil(s) in the basket", markup=False)
        self.basket_changed()
        if restore:
            self.rescore_unscored()
        if restore and self.previous is not None and self.previous.last_input:
            with contextlib.suppress(Exception):
                self.get_screen_for_mode("workbench").restore_input(self.previous.last_input)

    def rescore_unscored(self) -> None:
        """Re-score the restored basket's foils that the last session left unscored (in a worker)."""
        curation = self.curation
        records = curation.unscored() if curation is not None else []
        if records:
            self.notify(f"re-scoring {len(records)} foil(s) the last session left unscored", markup=False)
            self.rescore_worker(records)

    @work(thread=True, group="complete", exit_on_error=False)
    def rescore_worker(self, records: list[dict[str, Any]]) -> None:
        from core.curated import rescore_record

        for record in records:
            try:
                done = rescore_record(self.backends.pipeline(), record, self.backends.embedder)
            except SmithError as exc:
                self.post_message(self.Rescored(record, f"{exc.message} ({exc.hint})" if exc.hint else exc.message))
            except Exception as exc:  # a backend failure: the foil stays marked unscored
                self.post_message(self.Rescored(record, f"{type(exc).__name__}: {exc}"))
            else:
                self.post_message(self.Rescored(done))

    def on_smith_app_rescored(self, message: SmithApp.Rescored) -> None:
        curation = self.curation
        if curation is None:
            return
        record = message.record
        if message.error:
            record = {**record, "rescore_error": message.error}
            self.notify(f"cannot re-score “{record.get('foil')}”: {message.error}", severity="warning", markup=False)
        try:
            curation.complete(record)
        except SmithError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.basket_changed()

    # -- the basket: changes, undo, export ---------------------------------------
    def basket_changed(self) -> None:
        for mode in ("workbench", "basket", "compare"):
            with contextlib.suppress(LookupError):
                self.get_screen_for_mode(mode).post_message(self.BasketChanged())

    def undo_decision(self, here: str | None = None) -> dict[str, Any] | None:
        """Undo the latest decision and say what it was.

        ``here`` is the sentence on screen: a decision on another sentence is undone
        only by a second press, after a warning naming it. Returns what was undone.
        """
        from smithtui.widgets.render import clip

        curation = self.require_curation()
        if curation is None:
            return None
        last = curation.peek_undo()
        if last is None:
            self.notify("nothing to undo")
            return None
        record = last["record"]
        what = f"the {last['action']} of “{record.get('foil')}” ({record.get('rule') or '?'})"
        source = str(record.get("source") or "")
        elsewhere = here is not None and source != here
        if elsewhere and self.undo_armed != last["seq"]:
            self.undo_armed = last["seq"]
            self.notify(
                f"the last decision was on an earlier sentence (“{clip(source, 50)}”): press u again to undo {what}",
                severity="warning",
                markup=False,
            )
            return None
        self.undo_armed = None
        try:
            undone = curation.undo()
        except SmithError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return None
        self.notify(
            f"undid {what}" + (f" on the earlier sentence “{clip(source, 50)}”" if elsewhere else ""), markup=False
        )
        self.basket_changed()
        return undone

    def require_curation(self) -> CurationSession | None:
        if self.curation is None:
            self.notify("the session is not open yet (answer the restore question first)", severity="warning")
        return self.curation

    def action_export_basket(self) -> None:
        from smithtui.widgets.dialogs import PromptScreen

        curation = self.require_curation()
        if curation is None:
            return
        if not curation.basket:
            self.notify("the basket is empty: accept some foils first (a)", severity="warning")
            return
        hint = ".jsonl (full records), .csv (SentenceSmith layout) or .parquet; written atomically"
        if curation.pending:
            hint = f"{curation.pending} foil(s) are still being scored: their verdicts would be empty. " + hint
        self.push_screen(
            PromptScreen(
                f"Export {len(curation.basket)} foil(s) to",
                "smith-basket.jsonl",
                hint=hint,
                path_kind="export",
                id="export-dialog",
            ),
            self._export_to,
        )

    def _export_to(self, path: str | None) -> None:
        if not path or not path.strip() or self.curation is None:
            return
        if self.curation.pending:
            self.notify(
                f"{self.curation.pending} foil(s) exported before their scores arrived (marked pending in the file)",
                severity="warning",
                markup=False,
            )
        self.export_worker(list(self.curation.basket), path.strip())

    @work(thread=True, group="export", exit_on_error=False)
    def export_worker(self, records: list[dict[str, Any]], path: str) -> None:
        try:
            self.post_message(self.ExportDone(export_records(records, path)))
        except SmithError as exc:
            self.post_message(self.ExportFailed(exc.message, exc.hint))
        except Exception as exc:
            self.post_message(self.ExportFailed(f"{type(exc).__name__}: {exc}"))

    def on_smith_app_export_done(self, message: SmithApp.ExportDone) -> None:
        result = message.result
        if self.curation is not None:
            self.curation.note_export(result)
        self.notify(f"exported {result.count} foil(s) as {result.format} to {result.path}", markup=False)
        self.basket_changed()

    def on_smith_app_export_failed(self, message: SmithApp.ExportFailed) -> None:
        text = message.error + (f"\nhint: {message.hint}" if message.hint else "")
        self.notify(text, title="export failed", severity="error", markup=False, timeout=10)
