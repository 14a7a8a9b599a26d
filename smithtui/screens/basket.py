"""The basket: every accepted foil, with its verdicts and spot checks; remove, undo, export."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, Static

from core.errors import SmithError
from core.record import CuratedRecord
from smithtui.widgets.footer import FitFooter
from smithtui.widgets.render import clip, fluency_cell, highlight_spans


def fooled_models(record: CuratedRecord) -> list[str]:
    return [m for m, c in (record.spotcheck or {}).items() if c.get("fooled")]


class BasketScreen(Screen[None]):
    """The accepted foils, in the order they were accepted."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d,delete", "remove", "Remove", id="basket.remove"),
        Binding("u", "undo", "Undo", id="basket.undo"),
        Binding("slash", "search", "Filter", id="basket.search"),
        Binding("escape", "end_search", "Back to the table", show=False, priority=True),
    ]

    def __init__(self) -> None:
        super().__init__(id="basket")
        self.search = ""  # the / filter: foils whose source, foil or rule contains it
        self._columns_for = 0
        self.show_fluency = True

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="basket-main"):
            yield Static(id="basket-summary")
            yield Input(placeholder="filter the basket (Enter or Escape: back to the table)", id="basket-search", compact=True)
            yield DataTable(id="basket-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="basket-detail")
        yield FitFooter()

    def on_mount(self) -> None:
        table = self.query_one("#basket-table", DataTable)
        table.border_title = "Accepted foils"
        self.query_one("#basket-detail").border_title = "Selected"
        self._setup_columns()
        self.refresh_table()
        table.focus()

    def on_resize(self, _event: Any) -> None:
        if self._columns_for != self.app.size.width:
            self._setup_columns()
            self.refresh_table()

    def _setup_columns(self) -> None:
        """Source and foil share the room the fixed columns leave (at 80 columns Valid and Fooled stay on screen)."""
        self._columns_for = self.app.size.width
        table = self.query_one("#basket-table", DataTable)
        table.clear(columns=True)
        room = self.app.size.width - (3 + 4 + 6 + 14) - 2 * 6 - 4
        self.show_fluency = room - (5 + 2) >= 2 * 18  # the fluency delta; below ~90 columns only in the detail
        room -= 7 if self.show_fluency else 0
        source_w = max(16, min(36, room * 9 // 19))
        table.add_column("#", key="n", width=3)
        table.add_column("Rule", key="rule", width=4)
        table.add_column("Source", key="source", width=source_w)
        table.add_column("Foil", key="foil", width=max(16, min(40, room - source_w)))
        table.add_column("Valid", key="valid", width=6)
        if self.show_fluency:
            table.add_column("Flu", key="fluency", width=5)
        table.add_column("Fooled", key="fooled", width=14)

    def on_screen_resume(self) -> None:
        self.refresh_table()

    def on_smith_app_basket_changed(self, _message: Any) -> None:
        self.refresh_table()

    def records(self) -> list[CuratedRecord]:
        """The basket, typed (the journal's replay has checked every record already)."""
        curation = self.app.curation
        return [CuratedRecord.from_json(r) for r in curation.basket] if curation is not None else []

    def refresh_table(self) -> None:
        table = self.query_one("#basket-table", DataTable)
        keep = table.cursor_row
        table.clear()
        records = self.records()
        rules: dict[str, int] = {}
        needle = self.search.casefold()
        for n, cur in enumerate(records, 1):
            rec = cur.record
            if needle and needle not in f"{rec.rule} {rec.source} {rec.foil}".casefold():
                continue
            rules[rec.rule or "?"] = rules.get(rec.rule or "?", 0) + 1
            valid = Text("✓", style="green") if rec.validated else Text("✗", style="red") if rec.validated is False else Text("–")
            fooled = fooled_models(cur)
            verdict = Text(", ".join(fooled) or "none", style="red" if fooled else "dim")
            if cur.pending:
                valid = Text("…", style="yellow") if "validation" in cur.pending else valid
                verdict = Text("not scored yet", style="yellow")
            cells = [
                Text(str(n)),
                Text(rec.rule or "?", style="bold"),
                Text(clip(rec.source, 60)),
                highlight_spans(rec.foil or "", rec.changed_spans),
                valid,
            ]
            if self.show_fluency:
                threshold = self.app.settings.pipeline.fluency_threshold_for(rec.rule)
                pending = "fluency" in (cur.pending or ())
                cells.append(fluency_cell(rec.fluency, threshold) if rec.fluency or pending else Text("–"))
            table.add_row(*cells, verdict, key=str(cur.curation_id))
        if table.row_count:
            table.move_cursor(row=min(max(keep, 0), table.row_count - 1))
        summary = Text(f"{len(records)} foil(s) in the basket", style="bold")
        if needle:
            summary.append(f"  {table.row_count} match “{self.search}”", style="yellow")
        if rules:
            summary.append("  " + "  ".join(f"{r} {n}" for r, n in sorted(rules.items())), style="dim")
        summary.append("   ctrl+s: export (.jsonl / .csv / .parquet)", style="dim")
        self.query_one("#basket-summary", Static).update(summary)
        self._show_detail()

    def _current(self) -> CuratedRecord | None:
        table = self.query_one("#basket-table", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((r for r in self.records() if r.curation_id == key), None)

    @on(DataTable.RowHighlighted, "#basket-table")
    def _highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        cur = self._current()
        detail = self.query_one("#basket-detail", Static)
        if cur is None:
            detail.update(Text("The basket is empty. Accept foils on the workbench (F2) with a.", style="dim"))
            return
        rec = cur.record
        text = Text()
        text.append("source:     ", style="dim")
        text.append(f"{rec.source}\n")
        if rec.paraphrase:
            text.append("paraphrase: ", style="dim")
            text.append(f"{rec.paraphrase}\n")
        text.append("foil:       ", style="dim")
        text.append_text(highlight_spans(rec.foil or "", rec.changed_spans))
        text.append(f"\n{rec.rule} {rec.variant}: {rec.description}", style="dim")
        if cur.edited_by_hand:
            text.append(f"\nedited by hand (generated: {cur.original_foil})", style="cyan")
        fl = rec.fluency or {}
        if fl.get("delta") is not None:
            text.append(f"\nfluency ({fl.get('scorer')}): delta {fl['delta']:+.3f}", style="dim")
        if cur.pending:
            text.append(f"\nnot scored yet: {', '.join(cur.pending)} (filled in when the scores arrive)", style="yellow")
        if cur.rescore_error:
            text.append(f"\ncould not be re-scored: {cur.rescore_error} (exports mark it NOT SCORED)", style="yellow")
        for model, c in (cur.spotcheck or {}).items():
            text.append(f"\n{model}: margin {c['margin']:+.3f}", style="bold red" if c.get("fooled") else "")
            if c.get("fooled"):
                text.append(" FOOLED", style="bold red")
        detail.update(text)

    def action_remove(self) -> None:
        curation = self.app.require_curation()
        rec = self._current()
        if curation is None or rec is None:
            return
        try:
            curation.reject(rec)
        except SmithError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self.app.basket_changed()

    def action_search(self) -> None:
        box = self.query_one("#basket-search", Input)
        box.display = True
        self.set_focus(box)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "end_search" or isinstance(self.focused, Input)

    def action_end_search(self) -> None:
        box = self.query_one("#basket-search", Input)
        box.display = bool(box.value)
        self.set_focus(self.query_one("#basket-table"))

    @on(Input.Changed, "#basket-search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.search = event.value
        self.refresh_table()

    @on(Input.Submitted, "#basket-search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_end_search()

    def action_undo(self) -> None:
        self.app.undo_decision()
