"""The CLSD screen: which multilingual model picks the true translation out of its distractors?

Name a set (the published layout, or a generic table with its columns), optionally its English
pivot file, tick the models and press ``ctrl+r``. The evaluation runs in a thread worker that
only posts messages; a progress bar follows the embedding and ``escape`` cancels. The results
table gives P@1 (strict) and pooled recall@1 by model, direction and condition as each task is
scored; moving its cursor lists the rows that model got wrong, and the row under the wrong-rows
cursor is shown with the winning distractor highlighted against the true translation.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Checkbox, DataTable, Input, Label, ProgressBar, SelectionList, Static
from textual.widgets.selection_list import Selection

from core.config import Settings
from core.errors import SmithError
from core.textdiff import WHITESPACE, changed_spans
from smithtui.screens.job import CANCEL_CHUNK, JobScreen
from smithtui.widgets.footer import FitFooter
from smithtui.widgets.render import highlight_spans

DEFAULT_MODELS = ("use-v3", "e5-small")


def _pct(x: float) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.1f}"


def chunked(spec: Any, size: int) -> Any:
    """The same model, encoding ``size`` texts at a time with a cancel check between: escape stops it in ~1 s.

    Lexical baselines are left whole: they fit their vocabulary on the texts of one call, and are fast.
    """
    from core.clsd import ModelSpec
    from core.progress import check_cancel, report

    if dict(spec.info).get("kind") == "lexical":
        return spec

    def encode(texts: Any, progress: Any = None, cancel: Any = None) -> Any:
        import numpy as np

        texts = list(texts)
        if len(texts) <= size:
            return spec.encode(texts, progress=progress, cancel=cancel)
        parts = []
        for start in range(0, len(texts), size):
            check_cancel(cancel)

            def sub(done: int, _total: int, start: int = start) -> None:
                report(progress, start + done, len(texts))

            parts.append(np.asarray(spec.encode(texts[start : start + size], progress=sub, cancel=cancel)))
        return np.concatenate(parts)

    return ModelSpec(spec.name, encode, spec.info)


def diff_words(reference: str, changed: str, *, style: str = "bold reverse red") -> Text:
    """``changed`` with the words that differ from ``reference`` highlighted.

    >>> diff_words("the cat sat", "the dog sat").spans[0].style
    'bold reverse red'
    >>> diff_words("the cat sat", "the dog sat").plain
    'the dog sat'
    """
    changed = " ".join(changed.split())
    spans = changed_spans(reference, changed, words=WHITESPACE, fold_case=False)
    return highlight_spans(changed, spans, style=style)


class CLSDScreen(JobScreen):
    """Cross-lingual semantic discrimination: P@1 by direction and condition, and the rows a model got wrong."""

    PREFIX = "clsd"
    PASTE_TARGET = "#clsd-data"

    BINDINGS: ClassVar[list[Binding]] = [
        Binding("w", "focus_wrong", "Wrong rows"),
        Binding("t", "focus_results", "Results"),
    ]

    CSS_PATH = "clsd.tcss"

    @dataclass
    class Progress(Message):
        done: int
        total: int

    @dataclass
    class Status(Message):
        text: str

    @dataclass
    class ResultReady(Message):
        result: Any  # core.clsd.run.TaskResult

    @dataclass
    class Finished(Message):
        report: Any  # core.clsd.run.CLSDReport

    def __init__(
        self,
        settings: Settings,
        *,
        data: str = "",
        pivot: str = "",
        models: Sequence[str] | None = None,
        columns: str = "",
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id)
        self.settings = settings
        self._data = data
        self._pivot = pivot
        self._models = list(models) if models is not None else list(DEFAULT_MODELS)
        self._columns = columns
        self.report: Any = None
        self._results: list[Any] = []
        self._current: tuple[str, str, str] | None = None
        self._wrong: list[Any] = []

    # ----- layout --------------------------------------------------------------------------------

    def _model_choices(self) -> list[Selection[str]]:
        try:
            from core.embed import list_embedders

            specs = list_embedders(self.settings)
        except SmithError:
            specs = []
        known = {s.name for s in specs}
        choices: list[Selection[str]] = []
        order = sorted(specs, key=lambda s: (s.languages != ("multi",), s.heavy, s.name))
        for s in order:
            tag = "" if s.languages == ("multi",) else f" ({','.join(s.languages)})"
            label = f"{s.name}{tag}" + ("" if s.usable else " — not installed")
            choices.append(Selection(label, s.name, s.name in self._models and s.usable, disabled=not s.usable))
        for extra in self._models:  # folders or hub ids typed by the caller
            if extra not in known:
                choices.append(Selection(extra, extra, True))
        return choices

    def compose(self) -> ComposeResult:
        with Horizontal(id="clsd-form"):
            with Vertical(id="clsd-paths"):
                yield Input(self._data, placeholder="CLSD set (CSV/TSV): Index, French, German, de_adv*, fr_adv*",
                            id="clsd-data")
                yield Input(self._pivot, placeholder="English pivot file (optional)", id="clsd-pivot")
                yield Input(self._columns, placeholder="generic layout only: source,target,distractor-glob",
                            id="clsd-columns")
                yield Checkbox("POS breakdown of single-word swaps", False, id="clsd-pos")
            yield SelectionList[str](*self._model_choices(), id="clsd-models")
            with Vertical(id="clsd-buttons"):
                yield Button("Run", id="clsd-run", variant="primary")
                yield Button("Cancel", id="clsd-cancel", disabled=True)
        with Horizontal(id="clsd-progress-row"):
            yield ProgressBar(total=1, show_eta=False, id="clsd-progress")  # still until a job starts
            yield Label("ready: name a set, tick models, then ctrl+r", id="clsd-status")
        yield DataTable(id="clsd-results", cursor_type="row", zebra_stripes=True)
        yield Label("wrong rows: run an evaluation, then pick a result line", id="clsd-wrong-label")
        yield DataTable(id="clsd-wrong", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="clsd-detail-box"):
            yield Static("", id="clsd-detail")
        yield FitFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#clsd-models", SelectionList).border_title = "models"
        results = self.query_one("#clsd-results", DataTable)
        results.add_columns("model", "direction", "condition", "P@1 %", "pooled R@1 %", "scored", "excluded")
        wrong = self.query_one("#clsd-wrong", DataTable)
        wrong.add_columns("id", "margin", "won", "winning distractor (changed words highlighted)")

    # ----- actions -------------------------------------------------------------------------------

    def action_run(self) -> None:
        data = self.query_one("#clsd-data", Input).value.strip()
        pivot = self.query_one("#clsd-pivot", Input).value.strip()
        columns = self.query_one("#clsd-columns", Input).value.strip()
        models = list(self.query_one("#clsd-models", SelectionList).selected)
        if not data or not models:
            self._status("name a set and tick at least one model", error=True)
            return
        self._results = []
        self.report = None
        self._current = None
        self.query_one("#clsd-results", DataTable).clear()
        self.query_one("#clsd-wrong", DataTable).clear()
        self.query_one("#clsd-wrong-label", Label).update("wrong rows: run an evaluation, then pick a result line")
        self.query_one("#clsd-detail", Static).update("")
        pos = self.query_one("#clsd-pos", Checkbox).value
        cancel = self._start(f"starting: {len(models)} model(s)")
        self._evaluate(data, pivot, columns, models, pos, cancel)

    def results_payload(self) -> dict[str, Any] | None:
        """ctrl+s: the finished report (as ``smithtui clsd --out`` writes it)."""
        return None if self.report is None else self.report.to_dict()

    def action_focus_wrong(self) -> None:
        self.query_one("#clsd-wrong", DataTable).focus()

    def action_focus_results(self) -> None:
        self.query_one("#clsd-results", DataTable).focus()

    # ----- the worker ----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False)
    def _evaluate(
        self, data_path: str, pivot_path: str, columns: str, models: list[str], pos: bool, cancel: threading.Event
    ) -> None:
        from core.clsd import PIVOT, check_pivot, read_dataset, registry_model, run_clsd

        def job() -> Any:
            kwargs: dict[str, Any] = {}
            if columns:
                parts = [c.strip() for c in columns.split(",")]
                if len(parts) < 3:
                    raise SmithError("generic columns need source,target,distractors", hint="e.g. en,es,adv*")
                kwargs = {"source_column": parts[0], "target_column": parts[1], "distractor_columns": parts[2:]}
            self.post_message(self.Status("reading the set"))
            data = read_dataset(data_path, **kwargs)
            pivot = check_pivot(data, read_dataset(pivot_path, condition=PIVOT, **kwargs)) if pivot_path else None
            specs = [chunked(registry_model(m, self.settings), CANCEL_CHUNK) for m in models]
            return run_clsd(
                data,
                specs,
                pivot=pivot,
                settings=self.settings,
                ties=self.settings.clsd.ties,
                pos=pos,
                progress=lambda d, t: self.post_message(self.Progress(d, t)),
                cancel=cancel,
                status=lambda text: self.post_message(self.Status(text)),
                on_result=lambda r: self.post_message(self.ResultReady(r)),
            )

        self._report(job, self.Finished)

    # ----- messages ------------------------------------------------------------------------------

    def on_clsdscreen_progress(self, msg: Progress) -> None:
        if not self.running:
            return  # a late message from a cancelled job
        self._progress(msg.done, msg.total)

    def on_clsdscreen_status(self, msg: Status) -> None:
        self._stage(msg.text)  # "minilm: embedding 4000 texts" (dropped once the job is cancelled)

    def on_clsdscreen_result_ready(self, msg: ResultReady) -> None:
        if not self.running:
            return  # a late message from a cancelled job
        r = msg.result
        self._results.append(r)
        from core.clsd import direction_label

        excluded = ", ".join(f"{k}: {v}" for k, v in r.excluded.items()) or "-"
        self.query_one("#clsd-results", DataTable).add_row(
            r.model, direction_label(r.direction), r.condition, _pct(r.p_at_1), _pct(r.pooled_recall_at_1),
            str(r.n_scored), excluded,
        )

    def on_clsdscreen_finished(self, msg: Finished) -> None:
        if not self.running:
            return  # a late message from a cancelled job
        self.report = msg.report
        self._done()
        errors = msg.report.model_errors
        skipped = "; not evaluated: " + "; ".join(f"{k} ({v})" for k, v in errors.items()) if errors else ""
        self._status(f"done: {msg.report.dataset.name}, {len(msg.report.results)} results{skipped}", error=bool(errors))
        table = self.query_one("#clsd-results", DataTable)
        table.focus()
        if msg.report.results:
            self._show_wrong(0)

    @on(DataTable.RowHighlighted, "#clsd-results")
    def _result_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self.report is not None:
            self._show_wrong(event.cursor_row)

    @on(DataTable.RowHighlighted, "#clsd-wrong")
    def _wrong_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail(event.cursor_row)

    # ----- rendering -----------------------------------------------------------------------------

    def _show_wrong(self, index: int) -> None:
        from core.clsd import direction_label

        if self.report is None or not (0 <= index < len(self.report.results)):
            return
        res = self.report.results[index]
        if self._current == res.key:
            return
        self._current = res.key
        self._wrong = self.report.wrong_rows(res.model, res.direction, res.condition)
        label = self.query_one("#clsd-wrong-label", Label)
        label.update(
            f"wrong rows: {res.model} · {direction_label(res.direction)} · {res.condition} — "
            f"{len(self._wrong)} of {res.n_scored}  [w: focus, t: results]"
        )
        table = self.query_one("#clsd-wrong", DataTable)
        table.clear()
        for w in self._wrong:
            winner = w.winning_distractor
            table.add_row(
                w.item.id, f"{w.result.margin:+.3f}", f"d{w.result.winner + 1}", diff_words(w.item.target, winner)
            )
        self._show_detail(0)

    def _show_detail(self, index: int) -> None:
        detail = self.query_one("#clsd-detail", Static)
        if not (0 <= index < len(self._wrong)):
            detail.update("no wrong rows" if self._current else "")
            return
        w = self._wrong[index]
        out = Text()
        out.append("source  ", style="bold")
        out.append(w.item.source + "\n")
        cos = w.result.cosines
        out.append(f"target  {cos[0]:+.3f}  ", style="bold green")
        out.append(w.item.target + "\n", style="green")
        for j, d in enumerate(w.item.distractors):
            won = j == w.result.winner
            out.append(f"d{j + 1}{' won' if won else '    '} {cos[j + 1]:+.3f}  ", style="bold red" if won else "dim")
            out.append_text(diff_words(w.item.target, d, style="bold reverse red" if won else "underline"))
            out.append("\n")
        detail.update(out)
