"""The workbench's candidates: one :class:`Row` per realized edit, the rules list, the candidates table and
the selected foil's detail pane."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

import core.foils as ev  # the pipeline events, through the face (core.foils.events)
from core.curated import candidate_key
from core.types import RULE_NAMES
from smithtui.widgets.render import (
    ACCEPTED_MARK,
    REJECTED_MARK,
    clip,
    fluency_cell,
    focus_window,
    highlight_spans,
    margin_cell,
    verdict_cell,
)

FLUENCY_W = 5  # the fluency delta column: "+0.64"


@dataclass
class Row:
    """One candidate foil as the table shows it."""

    index: int
    candidate: Any  # core.types.FoilCandidate
    verdicts: list[Any] | None = None
    checks: dict[str, Any] = field(default_factory=dict)
    edited: bool = False
    original_text: str = ""
    fluency: dict[str, Any] | None = None  # {scorer, source, foil, delta}; None until scored

    @property
    def text(self) -> str:
        return self.candidate.realization.text

    @property
    def error(self) -> str | None:
        return self.candidate.realization.error

    @property
    def edit(self) -> Any:
        return self.candidate.edit

    def take(self, event: Any) -> None:
        """Keep a scoring event's result for this row (:func:`core.foils.events.score` of this row alone)."""
        if isinstance(event, ev.Verdicts):
            self.verdicts = list(event.verdicts[0])
        elif isinstance(event, ev.FluencyScored):
            self.fluency = event.fluency[0]
        elif isinstance(event, ev.SpotChecked):
            self.checks[event.model] = event.checks[0] if event.checks else None  # None: the model is unavailable

    def missing(self, models: Sequence[str]) -> list[str]:
        """What is not scored yet: ``"validation"``, ``"fluency"`` and/or model names."""
        if self.error:
            return []
        return (
            (["validation"] if self.verdicts is None else [])
            + (["fluency"] if self.fluency is None else [])
            + [m for m in models if m not in self.checks]
        )

    def key(self, paraphrase: str | None) -> str:
        return candidate_key(self.candidate, paraphrase)


class CandidatesView:
    """The rules list, the candidates table and the selected foil's detail (a WorkbenchScreen part)."""

    def _fill_rules(self) -> None:
        """Rule and variant counts: realized foils once they are in (failed edits counted apart), edits before."""
        rules = self.query_one("#rules", OptionList)
        rules.clear_options()
        failed = {r.edit.key for r in self.rows if r.error}

        def counted(edits: list[Any]) -> tuple[int, int]:
            bad = sum(1 for e in edits if e.key in failed)
            return len(edits) - bad, bad

        def label_of(name: str, edits: list[Any], style: str = "") -> Text:
            ok, bad = counted(edits)
            out = Text(f"{name} ({ok})", style=style if ok else "dim")
            if bad:
                out.append(f" +{bad} failed", style="dim red")
            return out

        every = [e for v in self.by_rule.values() for e in v]
        options = [Option(label_of("All edits", every, "bold"), id="all")]
        for rule in self.app.settings.pipeline.rules:
            edits = self.by_rule.get(rule, [])
            label = Text()
            label.append(f"{rule} ", style="bold")
            label.append_text(label_of(RULE_NAMES.get(rule, rule), edits))
            options.append(Option(label, id=f"rule:{rule}"))
            variants: dict[str, list[Any]] = {}
            for e in edits:
                variants.setdefault(e.variant, []).append(e)
            for variant, group in variants.items():
                options.append(Option(Text("   · ") + label_of(variant, group), id=f"variant:{rule}:{variant}"))
        rules.add_options(options)
        ids = [o.id for o in options]
        rules.highlighted = ids.index(self.filter) if self.filter in ids else 0
        if self.filter not in ids:
            self.filter = "all"

    def _visible(self, row: Row) -> bool:
        """Shown in the table: realized (or failed edits shown with f), matching the / filter and the rule list."""
        if row.error and not self.show_failed:
            return False
        if self.search and self.search.casefold() not in f"{row.edit.rule} {row.text}".casefold():
            return False
        if self.filter == "all":
            return True
        kind, _, rest = self.filter.partition(":")
        if kind == "rule":
            return row.edit.rule == rest
        rule, _, variant = rest.partition(":")
        return row.edit.rule == rule and row.edit.variant == variant

    def _center_width(self) -> int:
        width = self.app.size.width
        if self.query_one("#left").display:
            width -= 34
        if self.query_one("#basket-panel").display:
            width -= 30
        return max(30, width - 4)  # borders and the scroll bar

    def _setup_columns(self) -> None:
        """Mark, rule, the model margins and the verdict first, the foil text last in the room left.

        At 80 columns the margins stay on screen and the foil is clipped around its change.
        """
        table = self.query_one("#candidates", DataTable)
        table.clear(columns=True)
        model_w = 7
        fixed = 1 + 4 + 6 + len(self.models) * model_w + 2 * (4 + len(self.models))
        room = self._center_width() - fixed
        self.show_fluency_column = room - FLUENCY_W - 2 >= 20  # at 80 columns with three models it still fits
        room -= (FLUENCY_W + 2) if self.show_fluency_column else 0
        self.show_edit_column = room >= 30 + 20 + 2
        self.foil_width = max(16, room - (22 if self.show_edit_column else 0))
        table.add_column("", key="mark", width=1)
        table.add_column("Rule", key="rule", width=4)
        for model in self.models:
            table.add_column(clip(model, model_w), key=f"m:{model}", width=model_w)
        table.add_column("Valid", key="valid", width=6)
        if self.show_fluency_column:
            table.add_column("Flu", key="fluency", width=FLUENCY_W)
        if self.show_edit_column:
            table.add_column("Edit", key="edit", width=20)
        title = "Foil (changes highlighted)"
        table.add_column(title if len(title) <= self.foil_width else "Foil", key="foil", width=self.foil_width)

    def _mark(self, row: Row) -> Text:
        curation = self.app.curation
        status = curation.status_of(row.key(self.paraphrase)) if curation is not None else None
        if row.edited and status is None:
            return Text("✎", style="cyan")
        return {"accept": Text(ACCEPTED_MARK, style="bold green"), "reject": Text(REJECTED_MARK, style="bold red")}.get(
            status or "", Text(" ")
        )

    def _verdicts_text(self, row: Row) -> Text:
        if row.error:
            return Text("error", style="red")
        if row.verdicts is None:
            return Text("…", style="dim")
        if not row.verdicts:
            return Text("–", style="dim")
        out = Text()
        for n, v in enumerate(row.verdicts):
            if n:
                out.append(" ")
            out.append_text(verdict_cell(v))
        return out

    def _cells(self, row: Row) -> list[Any]:
        foil = (
            Text(clip(f"(failed: {row.error})", self.foil_width), style="red")
            if row.error
            else focus_window(row.text, row.candidate.realization.changed_spans, self.foil_width)
        )
        cells: list[Any] = [self._mark(row), Text(row.edit.rule, style="bold")]
        for model in self.models:
            if model in row.checks:
                check = row.checks[model]
                cells.append(Text("n/a", style="yellow") if check is None else margin_cell(check))
            else:
                cells.append(Text("…", style="dim") if not row.error else Text(""))
        cells.append(self._verdicts_text(row))
        if self.show_fluency_column:
            cells.append(self._fluency_text(row))
        if self.show_edit_column:
            cells.append(Text(clip(row.edit.description, 20)))
        cells.append(foil)
        return cells

    def _fill_table(self) -> None:
        table = self.query_one("#candidates", DataTable)
        keep = table.cursor_row
        table.clear()
        for row in self.rows:
            if self._visible(row):
                table.add_row(*self._cells(row), key=str(row.index))
        if table.row_count:
            table.move_cursor(row=min(max(keep, 0), table.row_count - 1))
        self._show_detail()

    def _refresh_marks(self) -> None:
        table = self.query_one("#candidates", DataTable)
        for row in self.rows:
            if str(row.index) in table.rows:
                table.update_cell(str(row.index), "mark", self._mark(row))

    def current_row(self) -> Row | None:
        table = self.query_one("#candidates", DataTable)
        if not table.row_count:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except Exception:
            return None
        return self.rows[int(key)] if key is not None and int(key) < len(self.rows) else None

    def _show_detail(self) -> None:
        row = self.current_row()
        detail = self.query_one("#detail", Static)
        if row is None:
            return
        text = Text()
        if row.error:
            text.append(f"Realization failed: {row.error}\n", style="red")
        else:
            text.append_text(highlight_spans(row.text, row.candidate.realization.changed_spans))
            text.append("\n")
        text.append(f"{row.edit.rule} {row.edit.variant}: {row.edit.description}", style="dim")
        if row.edited:
            text.append(f"  (edited by hand; generated: {row.original_text})", style="cyan")
        text.append("\n")
        for v in row.verdicts or []:
            text.append(f"{v.validator}: ", style="bold")
            text.append_text(verdict_cell(v))
            text.append(f" {v.reason}")
            if v.probabilities:
                text.append("  " + " ".join(f"{k} {p:.2f}" for k, p in v.probabilities.items()), style="dim")
            text.append("\n")
        fl = row.fluency
        if fl is not None and fl.get("delta") is not None:
            text.append("fluency: ", style="bold")
            text.append(f"{fl['scorer']} delta {fl['delta']:+.3f} (foil {fl['foil']:.2f}, source {fl['source']:.2f})\n")
        for model in self.models:
            check = row.checks.get(model)
            if check is None:
                continue
            ref = "sim(s,p)" if check.reference == "paraphrase" else "sim(s,s)"
            text.append(f"{model}: ", style="bold")
            text.append(f"sim(s,f) {check.sim_foil:.3f}  {ref} {check.sim_reference:.3f}  margin {check.margin:+.3f}")
            text.append("  FOOLED\n" if check.fooled else "\n", style="bold red" if check.fooled else "")
        detail.update(text)

    def _fluency_text(self, row: Row) -> Text:
        threshold = self.app.settings.pipeline.fluency_threshold_for(row.edit.rule)
        return Text("") if row.error else fluency_cell(row.fluency, threshold)
