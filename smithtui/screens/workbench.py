"""The workbench: type a sentence, see its graph, pick edits, judge foils, spot-check models, curate.

All parsing, editing, realizing, validating and embedding happens in one exclusive
thread worker per input; it posts typed messages tagged with a generation number,
and messages from a stale generation are dropped.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, OptionList, Static, Tree
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from core.curation import candidate_key, curated_record, word_overlap
from core.errors import SmithError
from core.foils import explore as ev
from core.record import CuratedRecord, FoilRecord
from core.types import RULE_NAMES
from smithtui.widgets.footer import FitFooter
from smithtui.widgets.graph_tree import GraphTree
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
from smithtui.widgets.sentence_view import SentenceView

# -- messages (posted by workers, always tagged with the generation they belong to) ----------


class BackendStatus(Message):
    """A backend started loading, is ready, or failed (``state``: loading | ready | error)."""

    def __init__(self, name: str, state: str, detail: str = "") -> None:
        super().__init__()
        self.name, self.state, self.detail = name, state, detail


# -- state -------------------------------------------------------------------------------------


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
        """Keep a scoring event's result for this row (:func:`core.foils.explore.score` of this row alone)."""
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


NARROW, SHORT = 100, 30  # below these columns / rows the workbench goes compact
FLUENCY_W = 5  # the fluency delta column: "+0.64"
PARAPHRASE_MIN_OVERLAP = 0.3  # below this share of shared words a paraphrase is probably another sentence's
SAME_SENTENCE_OVERLAP = 0.5  # an edited sentence sharing this much with the crafted one keeps its paraphrase


# -- the screen --------------------------------------------------------------------------------


class WorkbenchScreen(Screen[None]):
    """Sentence → graph → edits → foils → verdicts and spot checks → basket."""

    PASTE_TARGET: ClassVar[str] = "#sentence"  # where a paste on a pane goes (smithtui.keybursts)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+g", "generate", "Craft", id="workbench.generate"),
        Binding("a", "accept", "Accept", id="workbench.accept"),
        Binding("r", "reject", "Reject", id="workbench.reject"),
        Binding("u", "undo", "Undo", id="workbench.undo"),
        Binding("e", "edit_foil", "Edit", id="workbench.edit"),
        Binding("m", "pick_models", "Models", id="workbench.models"),
        Binding("ctrl+n", "next_sample", "Sample", id="workbench.sample"),
        Binding("ctrl+o", "load_sentences", "Open", id="workbench.load"),
        # Keys that move the focus are priority bindings: they take effect before the next key of a
        # burst is routed, so "iHello" types "Hello" (check_action lets letters through to a text box).
        Binding("i", "focus('sentence')", "Input", show=False, id="workbench.focus_input", priority=True),
        Binding("c", "focus('candidates')", "Candidates", show=False, id="workbench.focus_candidates", priority=True),
        Binding("t", "focus('graph')", "Graph", show=False, id="workbench.focus_graph", priority=True),
        Binding("l", "focus('rules')", "Rules", show=False, id="workbench.focus_rules", priority=True),
        Binding("b", "toggle_basket", "Basket panel", show=False, id="workbench.toggle_basket"),
        Binding("g", "toggle_graph", "Graph pane", show=False, id="workbench.toggle_graph"),
        Binding("f", "toggle_failed", "Failed edits", show=False, id="workbench.toggle_failed"),
        Binding("slash", "search", "Filter", show=False, id="workbench.search"),
        Binding("escape", "leave_input", "To candidates", show=False, id="workbench.escape", priority=True),
        Binding("tab", "focus_step(1)", "Next pane", show=False, priority=True),
        Binding("shift+tab", "focus_step(-1)", "Previous pane", show=False, priority=True),
    ]

    def __init__(self) -> None:
        super().__init__(id="workbench")
        self.gen = 0
        self.rows: list[Row] = []
        self.parsed: Any = None
        self.paraphrase: str = ""
        self.by_rule: dict[str, list[Any]] = {}
        self.filter: str = "all"
        self.search: str = ""  # the / filter: rows whose foil (or rule) contains it
        self.show_failed = False  # edits that could not be realized stay behind f
        self.models: tuple[str, ...] = ()
        self.sample_index = -1
        self.busy = False
        self._cancel: threading.Event | None = None
        self.timings: dict[str, float] = {}  # for the benchmark; never displayed
        self.decided: tuple[FoilRecord, ...] = ()  # the engine's records of the last craft (ev.Decided)
        self.show_edit_column = False
        self.show_fluency_column = True
        self.foil_width = 40
        self._model_errors: set[str] = set()
        self._crafted: tuple[str, str] = ("", "")  # (sentence, paraphrase) of the last craft or restore
        self._graph_shown: bool | None = None  # the user's choice (g); None: shown from 100 columns up
        self._laid_out_for: tuple[int, int] = (0, 0)

    # -- layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="inputs"):
            yield Input(placeholder="Type a sentence, Enter to craft foils (ctrl+n: a sample sentence)", id="sentence")
            yield Input(placeholder="Optional paraphrase: the reference a fooled model ranks below the foil", id="paraphrase")
            yield SentenceView(id="sentence-view")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield GraphTree(id="graph")
                yield OptionList(id="rules")
            with Vertical(id="center"):
                yield Input(placeholder="filter the foils (Enter or Escape: back to the table)", id="search", compact=True)
                yield DataTable(id="candidates", cursor_type="row", zebra_stripes=True)
                yield Static(id="detail")
            with VerticalScroll(id="basket-panel"):
                yield Static(id="basket-list")
        yield Static(id="status")
        yield FitFooter()

    def on_resize(self, event: events.Resize) -> None:
        self._apply_layout(event.size.width, event.size.height)

    def _apply_layout(self, width: int, height: int) -> None:
        """Below 100 columns (or 30 rows) go compact: borderless inputs, the graph pane folded away (g)."""
        if (width, height) == self._laid_out_for:
            return
        self._laid_out_for = (width, height)
        narrow, short = width < NARROW, height < SHORT
        self.set_class(narrow, "-narrow")
        self.set_class(short, "-short")
        for box in self.query(Input):
            box.compact = narrow or short
        self.query_one("#left").display = (not narrow) if self._graph_shown is None else self._graph_shown
        self.query_one("#basket-panel").display = width >= 150
        self._setup_columns()
        self._fill_table()

    def action_toggle_failed(self) -> None:
        self.show_failed = not self.show_failed
        self._fill_table()

    def action_search(self) -> None:
        """/ opens the filter box over the candidates; typing narrows the table at once."""
        box = self.query_one("#search", Input)
        box.display = True
        self.set_focus(box)

    def _set_search(self, text: str) -> None:
        box = self.query_one("#search", Input)
        if box.value != text:
            box.value = text
        self.search = text
        box.display = bool(text) or self.focused is box

    @on(Input.Changed, "#search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.search = event.value
        self._fill_table()

    @on(Input.Submitted, "#search")
    def _search_done(self, event: Input.Submitted) -> None:
        event.stop()
        self.set_focus(self.query_one("#candidates"))
        self._set_search(self.search)

    def action_toggle_graph(self) -> None:
        left = self.query_one("#left")
        self._graph_shown = not left.display
        left.display = self._graph_shown
        self._setup_columns()
        self._fill_table()

    def on_mount(self) -> None:
        app = self.app
        self.models = tuple(app.models)
        self.query_one("#graph").border_title = "AMR graph"
        self.query_one("#rules").border_title = "Rules"
        self.query_one("#candidates").border_title = "Candidates"
        self.query_one("#basket-panel").border_title = "Basket"
        self.query_one("#detail").border_title = "Selected foil"
        self._fill_rules()
        self._apply_layout(self.app.size.width, self.app.size.height)
        self.refresh_basket()
        self.refresh_status()
        self.query_one("#sentence", Input).focus()

    # -- status line --------------------------------------------------------------------------
    def refresh_status(self, extra: str = "") -> None:
        state = dict(getattr(self.app, "backend_state", {}))
        backends = self.app.backends
        pipe = backends._pipeline
        if pipe is not None and getattr(pipe, "_parser", None) is not None:
            state.setdefault("pipeline", ("ready", ""))
        if pipe is not None and getattr(pipe, "_validators", None) is not None:
            state.setdefault("validators", ("ready", ""))
        parts = []
        for name in ("pipeline", "validators", *self.models):
            st, _ = state.get(name, ("ready", "") if backends.is_loaded(name) else ("idle", ""))
            if name in self._model_errors:
                st = "error"
            mark = {"ready": "✓", "loading": "…", "error": "✗"}.get(st, "·")
            parts.append(f"{name} {mark}")
        text = Text(" · ".join(parts), style="dim")
        if self.busy:
            text = Text("working… ", style="bold yellow") + text
        if extra:
            text = Text(extra + "  ", style="yellow") + text
        self.query_one("#status", Static).update(text)

    # -- inputs -------------------------------------------------------------------------------
    @on(Input.Changed, "#sentence")
    def _sentence_changed(self, event: Input.Changed) -> None:
        """A paraphrase belongs to its sentence: typing another sentence clears the one left from the last craft."""
        crafted, carried = self._crafted
        box = self.query_one("#paraphrase", Input)
        if not carried or box.value != carried or event.value.strip() == crafted.strip():
            return
        if event.value.strip() and word_overlap(crafted, event.value) >= SAME_SENTENCE_OVERLAP:
            return  # the same sentence, edited (a typo fixed): its paraphrase still applies
        box.value = ""
        self._crafted = (crafted, "")
        self.app.notify(
            "cleared the paraphrase: it belonged to the previous sentence (type one for this sentence, or leave it empty)",
            markup=False,
        )

    @on(Input.Submitted, "#sentence, #paraphrase")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_generate()
        if self.busy:  # crafting: a, r, u, e, m work at once and show in the footer
            self.set_focus(self.query_one("#candidates"))

    def action_generate(self) -> None:
        sentence = self.query_one("#sentence", Input).value
        paraphrase = self.query_one("#paraphrase", Input).value.strip()
        view = self.query_one("#sentence-view", SentenceView)
        if not sentence.strip():
            view.message("Type a sentence first (or press ctrl+n for a sample).")
            return
        self.gen += 1
        if self._cancel is not None:
            self._cancel.set()
        self._cancel = threading.Event()
        self.paraphrase = paraphrase
        self._crafted = (sentence, paraphrase)
        if paraphrase and word_overlap(sentence, paraphrase) < PARAPHRASE_MIN_OVERLAP:
            self.app.notify(
                f"the paraphrase shares few words with the sentence ({word_overlap(sentence, paraphrase):.0%}): "
                "is it this sentence's? Models are scored against it.",
                severity="warning",
                markup=False,
            )
        self.rows = []
        self.by_rule = {}
        self.parsed = None
        self.filter = "all"  # a new sentence starts unfiltered (the rule list shows it)
        self._set_search("")
        self._model_errors.clear()
        self._fill_rules()
        self._setup_columns()
        self.query_one("#detail", Static).update("")
        self.busy = True
        self.refresh_status()
        self.timings = {"pressed": time.perf_counter()}
        curation = self.app.curation
        if curation is not None:
            try:
                curation.note_input(sentence, paraphrase)
            except SmithError as exc:
                self.app.notify(str(exc), severity="error", markup=False)
        self.generate_worker(self.gen, sentence, paraphrase, self.models, self._cancel)

    def restore_input(self, last_input: dict[str, Any]) -> None:
        """Put back the sentence the restored session was working on (its paraphrase goes with it)."""
        sentence, paraphrase = str(last_input.get("sentence") or ""), str(last_input.get("paraphrase") or "")
        self._crafted = (sentence, paraphrase)
        self.query_one("#sentence", Input).value = sentence
        self.query_one("#paraphrase", Input).value = paraphrase

    def use_sample(self, n: int) -> None:
        samples = self.app.samples
        if not samples:
            self.app.notify("no sample sentences", severity="warning")
            return
        self.sample_index = n % len(samples)
        sentence, paraphrase = samples[self.sample_index]
        self._crafted = (sentence, paraphrase)
        self.query_one("#sentence", Input).value = sentence
        self.query_one("#paraphrase", Input).value = paraphrase
        self.action_generate()

    def action_next_sample(self) -> None:
        self.use_sample(self.sample_index + 1)

    def action_load_sentences(self) -> None:
        from smithtui.widgets.dialogs import PromptScreen

        self.app.push_screen(
            PromptScreen(
                "Load sentences from a file",
                placeholder="path to a .txt (one per line), .csv, .tsv or .jsonl file",
                hint="ctrl+n then cycles through them; a paraphrase column is used when present",
                path_kind="sentences",
                id="load-sentences-dialog",
            ),
            self._load_sentences_from,
        )

    def _load_sentences_from(self, path: str | None) -> None:
        if not path or not path.strip():
            return
        from core.inputs import read_input_rows

        try:
            rows = read_input_rows(path.strip())
        except SmithError as exc:
            self.app.notify(str(exc), title="cannot load sentences", severity="error", markup=False, timeout=8)
            return
        samples = [(r.sentence, r.paraphrase or "") for r in rows if r.sentence.strip()]
        if not samples:
            self.app.notify(f"{path}: no sentences found", severity="warning", markup=False)
            return
        self.app.samples = samples
        self.sample_index = -1
        self.app.notify(f"loaded {len(samples)} sentence(s); ctrl+n to step through them", markup=False)
        self.action_next_sample()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        typing = isinstance(self.focused, Input)
        if action == "focus" and typing:
            return False  # the letter is typed into the box
        return not (action == "leave_input" and not typing)  # else escape means what the focused widget makes of it

    def action_focus_step(self, step: int) -> None:
        """Tab / shift+tab, at once (a burst typed after Tab lands in the next box)."""
        if step > 0:
            self.focus_next()
        else:
            self.focus_previous()

    def on_paste(self, event: events.Paste) -> None:
        """Text pasted while a pane (not a text box) has the focus goes into the sentence box, never read as keys."""
        if isinstance(self.focused, Input):
            return
        event.stop()
        box = self.query_one("#sentence", Input)
        self.set_focus(box)
        box.insert_text_at_cursor(" ".join(event.text.split()))

    def action_focus(self, widget_id: str) -> None:
        """Focus a pane now, not after a refresh: keys typed right after ``i`` land in the box (``iHello``)."""
        if widget_id in ("graph", "rules") and not self.query_one("#left").display:
            self.action_toggle_graph()  # a folded graph pane unfolds when asked for
        self.set_focus(self.query_one(f"#{widget_id}"))

    def action_leave_input(self) -> None:
        if isinstance(self.focused, Input):
            self.set_focus(self.query_one("#candidates"))

    def action_toggle_basket(self) -> None:
        panel = self.query_one("#basket-panel")
        panel.display = not panel.display
        self._setup_columns()
        self._fill_table()

    # -- the worker: core's events, forwarded ---------------------------------------------------
    class Explored(Message):
        """One pipeline event (:mod:`core.foils.explore`) of generation ``gen``, forwarded from a worker."""

        def __init__(self, gen: int, event: Any) -> None:
            super().__init__()
            self.gen, self.event = gen, event

    class GenerationDone(Message):
        def __init__(self, gen: int) -> None:
            super().__init__()
            self.gen = gen

    class FoilScored(Message):
        """A decided foil's missing verdicts and spot checks, computed after the decision (not tied to a generation)."""

        def __init__(self, row: Any, paraphrase: str, models: Sequence[str]) -> None:
            super().__init__()
            self.row, self.paraphrase, self.models = row, paraphrase, tuple(models)

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
        """Forward the scoring events (:func:`core.foils.explore.score`) of some candidates."""
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

    def on_workbench_screen_foil_scored(self, message: FoilScored) -> None:
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

    # -- messages -----------------------------------------------------------------------------
    def on_workbench_screen_explored(self, message: Explored) -> None:
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

    def _fluency_text(self, row: Row) -> Text:
        return Text("") if row.error else fluency_cell(row.fluency, self.app.settings.pipeline.fluency_threshold)

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

    def on_workbench_screen_generation_done(self, message: GenerationDone) -> None:
        if message.gen != self.gen:
            return
        self.busy = False
        self.timings["done"] = time.perf_counter()
        self.refresh_status()

    @on(Tree.NodeHighlighted, "#graph")
    def _node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        self.query_one("#sentence-view", SentenceView).highlight(event.node.data)

    # -- rules list ---------------------------------------------------------------------------
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

    @on(OptionList.OptionHighlighted, "#rules")
    def _rule_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        new = event.option.id or "all"
        if new != self.filter:
            self.filter = new
            self._fill_table()

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

    # -- candidates table -----------------------------------------------------------------------
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

    @on(DataTable.RowHighlighted, "#candidates")
    def _row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._show_detail()

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

    # -- curation -------------------------------------------------------------------------------
    def curated(self, row: Row, paraphrase: str | None = None, models: Sequence[str] | None = None) -> CuratedRecord:
        """The basket record of a row (:func:`core.curation.curated_record`); ``pending`` lists what is not
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

    # -- hand edits and models -----------------------------------------------------------------
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
