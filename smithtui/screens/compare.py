"""Compare: run embedding models over triples (the basket or a file) and rank them.

The evaluation runs in a cancellable thread worker that reports progress; the table
shows TACC, AUC, their harmonic mean (the score) and per-rule TACC for each model,
sorted by score, each cell with a small bar.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Label, ProgressBar, SelectionList, Static
from textual.widgets.selection_list import Selection
from textual.worker import get_current_worker

from core.errors import SmithError
from core.types import RULES
from smithtui.widgets.footer import FitFooter
from smithtui.widgets.render import clip, score_cell


class CompareScreen(Screen[None]):
    """Models × (score, TACC, AUC, per-rule TACC) on a set of triples."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "run", "Run", id="compare.run"),
        Binding("escape", "cancel", "Cancel run", id="compare.cancel"),
        Binding("ctrl+o", "load_triples", "Load triples", id="compare.load"),
        Binding("ctrl+b", "use_basket", "Use basket", id="compare.basket"),
        Binding("ctrl+s", "export_table", "Export table", id="compare.export"),
    ]

    # -- the workers' messages (run: the run id, so a cancelled run's late messages are dropped) ----
    class EvalProgress(Message):
        """``progress(done, total)`` of the running evaluation (texts embedded)."""

        def __init__(self, run: int, done: int, total: int, label: str = "") -> None:
            super().__init__()
            self.run, self.done, self.total, self.label = run, done, total, label

    class EvalStage(Message):
        """The evaluation moved on to the next model (``core.evaluate.evaluate_triples``'s ``status``)."""

        def __init__(self, run: int, text: str) -> None:
            super().__init__()
            self.run, self.text = run, text

    class EvalDone(Message):
        """The run finished: ``EvalResult.to_dict()`` and a one-line summary."""

        def __init__(self, run: int, result: dict[str, Any], summary: str) -> None:
            super().__init__()
            self.run, self.result, self.summary = run, result, summary

    class TriplesLoaded(Message):
        """A triples file was read (``triples``) or could not be (``error``, ``hint``)."""

        def __init__(self, path: str, triples: Any = None, error: str = "", hint: str = "") -> None:
            super().__init__()
            self.path, self.triples, self.error, self.hint = path, triples, error, hint

    class EvalFailed(Message):
        """The run stopped: cancelled, a SmithError with its hint, or an unexpected error."""

        def __init__(self, run: int, error: str, hint: str = "", cancelled: bool = False) -> None:
            super().__init__()
            self.run, self.error, self.hint, self.cancelled = run, error, hint, cancelled

    # -- the screen -----------------------------------------------------------------------------
    def __init__(self) -> None:
        super().__init__(id="compare")
        self.source: str = "basket"  # "basket" | a file path
        self.triples: Any = None  # core.evaluate.triples.TripleSet
        self.result: dict[str, Any] = {}  # the last run's EvalResult.to_dict()
        self.rows: list[dict[str, Any]] = []  # core.evaluate.table.table_rows of it, ranked
        self.run_id = 0
        self.running = False
        self._cancel: threading.Event | None = None
        self._narrow_columns = False
        self._eta: Any = None  # core.progress.Eta of the running evaluation
        self.stage = ""  # the model being embedded now
        self.counts: tuple[int, int] = (0, 0)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="compare-main"):
            with Vertical(id="compare-left"):
                yield Label(Text("Models (space toggles)", style="bold"))
                yield SelectionList[str](id="compare-models")
                yield Label(Text("Triples", style="bold"))
                yield Static(id="source-info")
            with Vertical(id="compare-right"):
                with Horizontal(id="progress-row"):
                    yield ProgressBar(total=1, id="progress", show_eta=False)  # still until a run starts
                    yield Static(id="progress-label")
                yield DataTable(id="results", cursor_type="row", zebra_stripes=True)
                yield Static(id="compare-note")
        yield FitFooter()

    def on_mount(self) -> None:
        self.query_one("#results").border_title = "Models by score = harmonic mean of TACC and AUC; per-rule TACC"
        self._fill_models()
        self._load_source()
        self._setup_columns()
        self.query_one("#compare-models").focus()

    @on(SelectionList.SelectedChanged, "#compare-models")
    def _models_changed(self, _event: SelectionList.SelectedChanged) -> None:
        if hasattr(self.app, "set_models") and self.selected_models():
            order = [str(s.value) for s in self.query_one("#compare-models", SelectionList).options]
            self.app.set_models(sorted(self.selected_models(), key=order.index))

    def on_smith_app_models_changed(self, _message: Any) -> None:
        models = self.query_one("#compare-models", SelectionList)
        wanted = set(self.app.models)
        if set(models.selected) != wanted:
            with models.prevent(SelectionList.SelectedChanged):
                models.deselect_all()
                for name in wanted:
                    with contextlib.suppress(Exception):
                        models.select(name)

    def on_screen_resume(self) -> None:
        if self.source == "basket" and not self.running:
            self._load_source()

    def on_smith_app_basket_changed(self, _message: Any) -> None:
        if self.source == "basket" and not self.running:
            self._load_source()

    # -- models and triples ------------------------------------------------------------------
    def _fill_models(self) -> None:
        models = self.query_one("#compare-models", SelectionList)
        wanted = set(getattr(self.app, "models", self.app.settings.models.embedders))
        specs = self.app.backends.specs()
        items = []
        for spec in specs:
            label = Text()
            label.append(f"{spec.name:<21}", style="bold")
            if spec.usable:
                label.append("offline ✓" if getattr(spec, "offline", True) else "hub", style="green")
            else:
                label.append("✗ n/a", style="yellow")
            items.append(Selection(label, spec.name, spec.name in wanted and spec.usable, disabled=not spec.usable))
        known = {s.name for s in specs}
        for name in getattr(self.app, "models", self.app.settings.models.embedders):
            if name not in known:
                items.append(Selection(Text(f"{name:<20}configured", style="bold"), name, True))
        with models.prevent(SelectionList.SelectedChanged):  # filling the list is not a choice
            models.clear_options()
            models.add_options(items)

    def selected_models(self) -> list[str]:
        return list(self.query_one("#compare-models", SelectionList).selected)

    def _load_source(self) -> None:
        """Show the basket's triples (in memory, instant); files load in :meth:`load_worker`."""
        if self.source != "basket":
            self._show_source()
            return
        from core.evaluate import triples_from_records

        curation = self.app.curation
        records = curation.basket if curation is not None else []
        try:
            self.triples = triples_from_records(records, layout="foil-engine", path="basket")
        except SmithError as exc:
            self.triples = None
            self.query_one("#source-info", Static).update(Text(f"{exc.message}\n{exc.hint}", style="red"))
            return
        self._show_source()

    @work(thread=True, exclusive=True, group="triples", exit_on_error=False)
    def load_worker(self, path: str) -> None:
        """Read a triples file off the UI thread (encoding sniffing, hashing)."""
        from core.evaluate import read_triples

        try:
            self.post_message(self.TriplesLoaded(path, read_triples(path)))
        except SmithError as exc:
            self.post_message(self.TriplesLoaded(path, error=exc.message, hint=exc.hint))
        except Exception as exc:
            self.post_message(self.TriplesLoaded(path, error=f"{type(exc).__name__}: {exc}"))

    def on_compare_screen_triples_loaded(self, message: TriplesLoaded) -> None:
        if message.error:
            text = message.error + (f" (hint: {message.hint})" if message.hint else "")
            self.app.notify(text, title="cannot read triples", severity="error", markup=False, timeout=10)
            return  # keep the source that worked before
        self.source, self.triples = message.path, message.triples
        self._show_source()

    def _show_source(self) -> None:
        info = self.query_one("#source-info", Static)
        ts = self.triples
        if ts is None:
            info.update(Text("no triples loaded", style="yellow"))
            return
        text = Text()
        text.append("basket" if self.source == "basket" else str(self.source), style="bold")
        text.append(f"\n{len(ts)} usable triple(s)")
        if ts.layout:
            text.append(f" · layout {ts.layout}", style="dim")
        counts = ts.rule_counts()
        if counts:
            text.append("\n" + "  ".join(f"{r} {n}" for r, n in counts.items()), style="dim")
        for reason, n in ts.bad_counts().items():
            text.append(f"\nskipped {n}: {reason}", style="yellow")
        info.update(text)  # the keys (ctrl+o, ctrl+b, ctrl+r, escape) are in the footer, which fits at 80 columns

    def action_use_basket(self) -> None:
        self.source = "basket"
        self._load_source()

    def action_load_triples(self) -> None:
        from smithtui.widgets.dialogs import PromptScreen

        self.app.push_screen(
            PromptScreen(
                "Load triples",
                "" if self.source == "basket" else str(self.source),
                placeholder="path to a foil JSONL or a SentenceSmith CSV",
                hint="layouts: foil-engine JSONL, SentenceSmith CSV, or any CSV/TSV/JSONL with sentence/paraphrase/foil",
                path_kind="triples",
                id="load-triples-dialog",
            ),
            self._set_source,
        )

    def _set_source(self, path: str | None) -> None:
        if not path or not path.strip():
            return
        if self.running:
            self.app.notify("an evaluation is running: cancel it first (escape)", severity="warning")
            return
        self.load_worker(path.strip())

    # -- running ------------------------------------------------------------------------------
    @property
    def narrow(self) -> bool:
        return self.app.size.width < 100

    def on_resize(self, _event: Any) -> None:
        if self.narrow != self._narrow_columns:
            self._setup_columns()
            self._fill_table()

    def _setup_columns(self) -> None:
        """Model, score, TACC, AUC and one TACC column per rule; below 100 columns the bars shrink to one cell."""
        self._narrow_columns = self.narrow
        table = self.query_one("#results", DataTable)
        table.clear(columns=True)
        score_w = 6 if self.narrow else 9
        table.add_column("Model", key="model", width=10)
        table.add_column("Score", key="hm", width=score_w)
        table.add_column("TACC", key="tacc", width=score_w)
        table.add_column("AUC", key="auc", width=score_w)
        for rule in RULES:
            table.add_column(rule, key=f"rule:{rule}", width=5)

    def action_run(self) -> None:
        if self.running:
            self.app.notify("an evaluation is running: escape cancels it", severity="warning")
            return
        models = self.selected_models()
        if not models:
            self.app.notify("choose at least one model (space toggles)", severity="warning")
            return
        if self.triples is None or not len(self.triples):
            self.app.notify("no usable triples: accept foils with a paraphrase, or load a file (ctrl+o)", severity="warning")
            return
        self.run_id += 1
        self._cancel = threading.Event()
        self.running = True
        bar = self.query_one("#progress", ProgressBar)
        bar.update(total=None, progress=0)
        from core.progress import Eta

        self._eta, self.stage, self.counts = Eta(), "starting…", (0, 0)
        self.query_one("#progress-label", Static).update(self.stage)
        self.query_one("#compare-note", Static).update("")
        self.eval_worker(self.run_id, self.triples, models, self._cancel)

    def action_cancel(self) -> None:
        """Stop the run: the screen is idle at once (late messages of the run are dropped by its run id);
        the worker stops at its next check, within one batch of texts."""
        if self.running and self._cancel is not None:
            self._cancel.set()
            self.run_id += 1
            self.running = False
            self._cancel = None
            self.query_one("#progress", ProgressBar).update(total=1, progress=0)
            self.query_one("#progress-label", Static).update("cancelled")
            self.app.notify("evaluation cancelled")

    @work(thread=True, exclusive=True, group="compare", exit_on_error=False)
    def eval_worker(self, run: int, triples: Any, models: Sequence[str], cancel: threading.Event) -> None:
        from core.errors import CancelledError

        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            self.post_message(self.EvalProgress(run, done, total))
            if worker.is_cancelled:
                cancel.set()

        try:
            from core.evaluate import evaluate_triples

            results = evaluate_triples(
                triples,
                list(models),
                cache=self.app.backends.cache(),
                seed=self.app.settings.pipeline.seed,
                progress=progress,
                cancel=cancel,
                n_boot=0,  # the table shows point estimates; `smithtui evaluate` gives intervals
                settings=self.app.settings,
                status=lambda text: self.post_message(self.EvalStage(run, text)),
            )
            summary = f"{len(triples)} triples · seed {self.app.settings.pipeline.seed}"
            self.post_message(self.EvalDone(run, results.to_dict(), summary))
        except CancelledError:
            self.post_message(self.EvalFailed(run, "cancelled", cancelled=True))
        except SmithError as exc:
            self.post_message(self.EvalFailed(run, exc.message, exc.hint))
        except Exception as exc:
            self.post_message(self.EvalFailed(run, f"{type(exc).__name__}: {exc}"))

    def on_compare_screen_eval_progress(self, message: EvalProgress) -> None:
        if message.run != self.run_id:
            return
        self.counts = (message.done, message.total)
        self.query_one("#progress", ProgressBar).update(total=max(1, message.total), progress=message.done)
        self._show_progress()

    def on_compare_screen_eval_stage(self, message: EvalStage) -> None:
        if message.run != self.run_id:
            return
        self.stage = message.text
        self._show_progress()

    def progress_text(self) -> str:
        """``ETA … · done/total — model: embedding N texts (k/n models)`` of the running evaluation."""
        from core.progress import progress_line

        return progress_line(*self.counts, self.stage, self._eta)

    def _show_progress(self) -> None:
        self.query_one("#progress-label", Static).update(Text(self.progress_text(), overflow="ellipsis", no_wrap=True))

    def on_compare_screen_eval_done(self, message: EvalDone) -> None:
        if message.run != self.run_id:
            return
        self.running = False
        from core.evaluate import table_rows

        self.result = message.result
        self.rows = table_rows(self.result, ranked=True)
        bar = self.query_one("#progress", ProgressBar)
        bar.update(total=1, progress=1)
        self.query_one("#progress-label", Static).update("done")
        self._fill_table()
        errors = [r for r in self.rows if not r["ok"]]
        note = Text(message.summary, style="dim")
        for r in errors:
            note.append(f"\n{r['model']}: {r['error']}", style="yellow")
        self.query_one("#compare-note", Static).update(note)

    def on_compare_screen_eval_failed(self, message: EvalFailed) -> None:
        if message.run != self.run_id:
            return
        self.running = False
        self.query_one("#progress-label", Static).update("cancelled" if message.cancelled else "failed")
        if message.cancelled:
            self.app.notify("evaluation cancelled")
            return
        text = message.error + (f"\nhint: {message.hint}" if message.hint else "")
        self.app.notify(text, title="evaluation failed", severity="error", markup=False, timeout=10)
        self.query_one("#compare-note", Static).update(Text(text, style="red"))

    def _fill_table(self) -> None:
        table = self.query_one("#results", DataTable)
        table.clear()
        for r in self.rows:
            if not r["ok"]:
                cells: list[Any] = [Text(clip(r["model"], 10), style="bold"), Text("error", style="yellow")]
                cells += [Text("")] * (2 + len(RULES))
            else:
                cells = [Text(clip(r["model"], 10), style="bold")]
                cells += [score_cell(r[k], width=1 if self._narrow_columns else 3) for k in ("hm", "tacc", "auc")]
                cells += [score_cell(r.get(f"tacc_{rule}"), width=1, digits=2) for rule in RULES]
            table.add_row(*cells, key=r["model"])

    # -- export -------------------------------------------------------------------------------
    def action_export_table(self) -> None:
        from smithtui.widgets.dialogs import PromptScreen

        if not self.rows:
            self.app.notify("run an evaluation first (ctrl+r)", severity="warning")
            return
        self.app.push_screen(
            PromptScreen(
                "Export the results table to",
                "smith-compare.csv",
                hint=".csv or .jsonl",
                path_kind="compare-export",
                id="export-table-dialog",
            ),
            self._export_table,
        )

    def _export_table(self, path: str | None) -> None:
        if not path or not path.strip():
            return
        from pathlib import Path

        from core.evaluate import write_table

        label = "basket" if self.source == "basket" else Path(self.source).stem
        try:
            target = write_table(path.strip(), {label: self.result}, ranked=True)
        except SmithError as exc:
            self.app.notify(str(exc), title="export failed", severity="error", markup=False, timeout=10)
            return
        self.app.notify(f"wrote {len(self.rows)} row(s) to {target}", markup=False)
