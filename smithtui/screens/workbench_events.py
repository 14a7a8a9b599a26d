"""The workbench's workers: they forward core's pipeline events (:mod:`core.foils.events`) as
:class:`~smithtui.screens.workbench.WorkbenchScreen` messages, and the handlers that show each."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

import core.foils as ev  # the pipeline events, through the face (core.foils.events)
from core.errors import SmithError
from smithtui.screens.workbench_table import Row
from smithtui.widgets.graph_tree import GraphTree
from smithtui.widgets.render import margin_cell
from smithtui.widgets.sentence_view import SentenceView

if TYPE_CHECKING:
    from smithtui.screens.workbench import WorkbenchScreen



class ExploreEvents:
    """Workers that forward pipeline events, and the handlers that show them (a WorkbenchScreen part)."""

    def _provenance(self) -> dict[str, Any]:
        try:
            return self.app.backends.provenance()
        except Exception:
            return {"seed": self.app.settings.pipeline.seed}

    @work(thread=True, exclusive=True, group="generate", exit_on_error=False)
    def generate_worker(
        self, gen: int, sentence: str, paraphrase: str, models: Sequence[str], cancel: threading.Event
    ) -> None:
        """Forward ``FoilPipeline.explore``'s events as they come; a cancel stops pulling (no further stage runs)."""
        worker = get_current_worker()
        backends = self.app.backends
        try:
            events = ev.explore(  # = FoilPipeline.explore, on whatever pipeline the app holds
                backends.pipeline(), sentence, paraphrase or None, models=models, embedder_for=backends.embedder,
                provenance=self._provenance(),
            )
            for event in events:
                self.post_message(self.Explored(gen, event))
                if worker.is_cancelled or cancel.is_set():
                    break
        except Exception as exc:  # the app stays usable whatever a backend does
            self.post_message(self.Explored(gen, ev.failure("generate", exc)))
        finally:
            self.post_message(self.GenerationDone(gen))

    def _score(self, gen: int, candidates: list[Any], indices: list[int], paraphrase: str, models: Sequence[str],
               *, validate: bool = True, fluency: bool = True) -> None:  # fmt: skip
        """Forward the scoring events (:func:`core.foils.events.score`) of some candidates."""
        backends = self.app.backends
        try:
            for event in ev.score(backends.pipeline(), candidates, indices, paraphrase or None, models=models,
                                  embedder_for=backends.embedder, validate=validate, fluency=fluency):  # fmt: skip
                self.post_message(self.Explored(gen, event))
        except Exception as exc:
            self.post_message(self.Explored(gen, ev.failure("re-score", exc)))

    @work(thread=True, group="complete", exit_on_error=False)
    def complete_worker(self, row: Row, paraphrase: str, models: Sequence[str]) -> None:
        """Score what a decided foil is missing (validation, fluency, models), whatever the screen does meanwhile."""
        backends = self.app.backends
        todo = [m for m in models if m not in row.checks]
        try:
            for event in ev.score(backends.pipeline(), [row.candidate], [row.index], paraphrase or None, models=todo,
                                  embedder_for=backends.embedder, validate=row.verdicts is None,
                                  fluency=row.fluency is None):  # fmt: skip
                if isinstance(event, ev.StageFailed):
                    self.post_message(self.Explored(self.gen, replace(event, stage="scoring a decided foil")))
                    return
                row.take(event)
        except Exception as exc:
            self.post_message(self.Explored(self.gen, ev.failure("scoring a decided foil", exc)))
            return
        self.post_message(self.FoilScored(row, paraphrase, models))

    def on_workbench_screen_foil_scored(self, message: WorkbenchScreen.FoilScored) -> None:
        curation = self.app.curation
        if curation is None:
            return
        try:
            completed = curation.complete(self.curated(message.row, message.paraphrase, message.models))
        except SmithError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        if completed:
            self.refresh_basket()
            self.app.basket_changed()

    @work(thread=True, group="rescore", exit_on_error=False)
    def rescore_worker(self, gen: int, index: int, candidate: Any, paraphrase: str, models: Sequence[str]) -> None:
        """Re-validate and re-check one hand-edited foil."""
        self._score(gen, [candidate], [index], paraphrase, models)

    def on_workbench_screen_explored(self, message: WorkbenchScreen.Explored) -> None:
        """Show one pipeline event of the current generation (a stale one is dropped)."""
        if message.gen != self.gen:
            return
        show = {
            ev.Parsed: self._show_parsed,
            ev.EditsFound: self._show_edits,
            ev.CandidatesRealized: self._show_candidates,
            ev.SpotChecked: self._show_spot_check,
            ev.FluencyScored: self._show_fluency,
            ev.Verdicts: self._show_verdicts,
            ev.Decided: self._show_decided,
            ev.StageFailed: self._show_failure,
        }[type(message.event)]
        show(message.event)

    def _show_parsed(self, message: ev.Parsed) -> None:
        self.timings["parsed"] = time.perf_counter()
        parsed = message.parsed
        self.parsed = parsed
        view = self.query_one("#sentence-view", SentenceView)
        self.query_one("#graph", GraphTree).show_graph(parsed)
        if not parsed.ok:
            view.message(f"Cannot use this sentence: {parsed.error}")
            return
        view.show(parsed)
        if message.note:
            self.app.notify(message.note, severity="warning", markup=False)

    def _show_edits(self, message: ev.EditsFound) -> None:
        self.by_rule = dict(message.by_rule)
        self._fill_rules()
        if not any(message.by_rule.values()):
            self.query_one("#detail", Static).update(
                Text("No rule applies to this sentence: try one with a verb, its subject and object.", style="yellow")
            )

    def _show_candidates(self, message: ev.CandidatesRealized) -> None:
        self.rows = [Row(i, c) for i, c in enumerate(message.candidates)]
        self._fill_rules()
        self._fill_table()
        self.timings["candidates"] = time.perf_counter()

    def _show_verdicts(self, message: ev.Verdicts) -> None:
        table = self.query_one("#candidates", DataTable)
        for i, verdicts in zip(message.indices, message.verdicts, strict=True):
            self.rows[i].verdicts = list(verdicts)
            if str(i) in table.rows:
                table.update_cell(str(i), "valid", self._verdicts_text(self.rows[i]))
        self.timings["verdicts"] = time.perf_counter()
        self._show_detail()

    def _show_fluency(self, message: ev.FluencyScored) -> None:
        table = self.query_one("#candidates", DataTable)
        for i, fluency in zip(message.indices, message.fluency, strict=True):
            self.rows[i].fluency = fluency
            if str(i) in table.rows and "fluency" in table.columns:
                table.update_cell(str(i), "fluency", self._fluency_text(self.rows[i]))
        self.timings["fluency"] = time.perf_counter()
        self._show_detail()

    def _show_spot_check(self, message: ev.SpotChecked) -> None:
        table = self.query_one("#candidates", DataTable)
        if message.error:
            if message.model not in self._model_errors:
                self._model_errors.add(message.model)
                self.app.notify(f"{message.model}: {message.error}", title="model unavailable", severity="warning", markup=False)
            for i in message.indices:
                self.rows[i].checks[message.model] = None
                if str(i) in table.rows and f"m:{message.model}" in table.columns:
                    table.update_cell(str(i), f"m:{message.model}", Text("n/a", style="yellow"))
            return
        for i, check in zip(message.indices, message.checks, strict=True):
            self.rows[i].checks[message.model] = check
            if str(i) in table.rows and f"m:{message.model}" in table.columns:
                table.update_cell(str(i), f"m:{message.model}", margin_cell(check))
        self.timings[f"model:{message.model}"] = time.perf_counter()
        self._show_detail()

    def _show_decided(self, message: ev.Decided) -> None:
        self.decided = message.records  # the engine's records (as `smithtui foils` writes them), for a look or a test
        self.timings["decided"] = time.perf_counter()

    def _show_failure(self, message: ev.StageFailed) -> None:
        text = message.error + (f"\nhint: {message.hint}" if message.hint else "")
        self.app.notify(text, title=f"{message.stage} failed", severity="error", markup=False, timeout=10)
        self.query_one("#detail", Static).update(Text(f"{message.stage} failed: {message.error}", style="red"))

    def on_workbench_screen_generation_done(self, message: WorkbenchScreen.GenerationDone) -> None:
        if message.gen != self.gen:
            return
        self.busy = False
        self.timings["done"] = time.perf_counter()
        self.refresh_status()

    @work(thread=True, exclusive=True, group="models", exit_on_error=False)
    def models_worker(
        self, gen: int, paraphrase: str, models: Sequence[str], indices: list[int], candidates: list[Any]
    ) -> None:
        """Spot-check the shown foils with models chosen after they were crafted."""
        worker = get_current_worker()
        for model in models:
            if worker.is_cancelled:
                return
            event = ev.spot_check(model, candidates, tuple(indices), paraphrase or None, self.app.backends.embedder)
            self.post_message(self.Explored(gen, event))
