"""The workbench's curation glue: accept, reject, undo, the basket panel, hand edits and the model choice."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable, Static

from core.curated import curated_record
from core.errors import SmithError
from core.record import CuratedRecord
from smithtui.screens.workbench_table import Row
from smithtui.widgets.render import clip


class BasketGlue:
    """Decisions on the selected foil, the basket panel, hand edits and models (a WorkbenchScreen part)."""

    def curated(self, row: Row, paraphrase: str | None = None, models: Sequence[str] | None = None) -> CuratedRecord:
        """The basket record of a row (:func:`core.curated.curated_record`); ``pending`` lists what is not
        scored yet for ``models`` (default: the shown ones), completed later."""
        return curated_record(
            self.app.backends.pipeline(), row.candidate, row.verdicts, row.fluency,
            paraphrase=self.paraphrase if paraphrase is None else paraphrase, provenance=self._provenance(),
            checks=row.checks, original_foil=row.original_text if row.edited else None,
            pending=row.missing(self.models if models is None else models),
        )  # fmt: skip

    def _record(self, row: Row, paraphrase: str | None = None) -> dict[str, Any]:
        """:meth:`curated` as JSON (what the journal stores)."""
        return self.curated(row, paraphrase).to_json()

    def _decide(self, action: str) -> None:
        curation = self.app.require_curation()
        row = self.current_row()
        if curation is None:
            return
        if row is None:
            self.app.notify("no candidate selected: generate foils first (Enter in the sentence box)", severity="warning")
            return
        if row.error:
            self.app.notify("this edit could not be realized: nothing to keep", severity="warning")
            return
        record = self.curated(row)
        try:
            getattr(curation, action)(record)
        except SmithError as exc:
            self.app.notify(str(exc), severity="error", markup=False, timeout=10)
            return
        self.app.undo_armed = None
        if record.pending:  # decided before its scores arrived: the basket entry is completed when they do
            snapshot = replace(row, verdicts=None if row.verdicts is None else list(row.verdicts), checks=dict(row.checks))
            self.complete_worker(snapshot, self.paraphrase, self.models)
        self._refresh_marks()
        self.refresh_basket()
        self.app.basket_changed()
        table = self.query_one("#candidates", DataTable)
        if table.cursor_row < table.row_count - 1:
            table.move_cursor(row=table.cursor_row + 1)

    def action_accept(self) -> None:
        self._decide("accept")

    def action_reject(self) -> None:
        self._decide("reject")

    def action_undo(self) -> None:
        """Undo the latest decision, saying which; one on an earlier sentence needs a second ``u``."""
        undone = self.app.undo_decision(self.parsed.text if self.parsed is not None else None)
        if undone is None:
            return
        self._refresh_marks()
        self.refresh_basket()
        at = next((r for r in self.rows if r.key(self.paraphrase) == undone["key"]), None)
        if at is None:
            return
        if not self._visible(at):
            self.filter = "all"
            self._fill_rules()
            self._fill_table()
        table = self.query_one("#candidates", DataTable)
        with contextlib.suppress(Exception):
            table.move_cursor(row=table.get_row_index(str(at.index)))

    def on_smith_app_basket_changed(self, _message: Message) -> None:
        self.refresh_basket()
        if self.rows:
            self._refresh_marks()

    def refresh_basket(self) -> None:
        curation = self.app.curation
        items = curation.basket if curation is not None else []
        panel = self.query_one("#basket-panel")
        panel.border_title = f"Basket ({len(items)})"
        text = Text()
        if not items:
            text.append("empty\n\na: accept the selected foil\nr: reject  u: undo\nctrl+s: export", style="dim")
        for rec in items[-200:]:
            text.append(f"{rec.get('rule', '?'):<3}", style="bold green")
            text.append(f"{clip(str(rec.get('foil', '')), 40)}\n")
        self.query_one("#basket-list", Static).update(text)

    def action_edit_foil(self) -> None:
        from smithtui.widgets.dialogs import PromptScreen

        row = self.current_row()
        if row is None or row.error:
            self.app.notify("select a realized foil to edit", severity="warning")
            return
        self.app.push_screen(
            PromptScreen("Edit the foil (Enter re-scores it)", row.text, id="edit-dialog"),
            lambda text: self._apply_edit(row.index, text),
        )

    def _apply_edit(self, index: int, text: str | None) -> None:
        from core.textdiff import changed_spans
        from core.types import Realization

        if text is None or index >= len(self.rows):
            return
        row = self.rows[index]
        text = " ".join(text.split())
        if not text:
            self.app.notify("a foil cannot be empty; the edit was not applied", severity="warning")
            return
        if text == row.text:
            return
        source = row.edit.source.text
        realization = Realization(text=text, changed_spans=changed_spans(source, text), generator="hand")
        if not row.edited:
            row.original_text = row.text
        row.candidate = replace(row.candidate, realization=realization)
        row.edited = True
        row.verdicts = None
        row.fluency = None
        row.checks = {}
        table = self.query_one("#candidates", DataTable)
        if str(index) in table.rows:
            for key, value in zip([str(c.value) for c in table.columns], self._cells(row), strict=True):
                table.update_cell(str(index), key, value)
        self._show_detail()
        self.rescore_worker(self.gen, index, row.candidate, self.paraphrase, self.models)

    def action_pick_models(self) -> None:
        from smithtui.widgets.dialogs import ModelPickerScreen

        specs = self.app.backends.specs()
        if not specs:
            self.app.notify("no embedding registry available", severity="warning")
            return
        self.app.push_screen(ModelPickerScreen(specs, self.models, id="models-dialog"), self._set_models)

    def on_smith_app_models_changed(self, _message: Message) -> None:
        self._set_models(tuple(self.app.models))

    def _set_models(self, models: tuple[str, ...] | None) -> None:
        if models is None or models == self.models:
            return
        self.models = models
        self.app.set_models(models)  # Compare and the next start use the same models
        self._setup_columns()
        self.refresh_status()
        if self.parsed is not None and self.rows:
            self._fill_table()
            ok = [r.index for r in self.rows if not r.error]
            self.models_worker(self.gen, self.paraphrase, models, ok, [self.rows[i].candidate for i in ok])
