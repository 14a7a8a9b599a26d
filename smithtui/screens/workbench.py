"""The workbench: type a sentence, see its graph, pick edits, judge foils, spot-check models, curate.

All parsing, editing, realizing, validating and embedding happens in one exclusive
thread worker per input; it posts typed messages tagged with a generation number,
and messages from a stale generation are dropped.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, OptionList, Static, Tree

from core.curated import word_overlap
from core.errors import SmithError
from core.record import FoilRecord
from smithtui.screens.workbench_basket import BasketGlue
from smithtui.screens.workbench_events import ExploreEvents
from smithtui.screens.workbench_table import CandidatesView, Row
from smithtui.widgets.footer import FitFooter
from smithtui.widgets.graph_tree import GraphTree
from smithtui.widgets.sentence_view import SentenceView

NARROW, SHORT = 100, 30  # below these columns / rows the workbench goes compact
PARAPHRASE_MIN_OVERLAP = 0.3  # below this share of shared words a paraphrase is probably another sentence's
SAME_SENTENCE_OVERLAP = 0.5  # an edited sentence sharing this much with the crafted one keeps its paraphrase


# -- the screen --------------------------------------------------------------------------------


class WorkbenchScreen(BasketGlue, ExploreEvents, CandidatesView, Screen[None]):
    """Sentence → graph → edits → foils → verdicts and spot checks → basket.

    Its parts: :class:`CandidatesView` (rules list, candidates table, detail), :class:`ExploreEvents` (the
    workers forwarding core's events, and their display), :class:`BasketGlue` (decisions, basket, hand edits).
    """

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
        """One pipeline event (:mod:`core.foils.events`) of generation ``gen``, forwarded from a worker."""

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

    # -- handlers Textual finds by decorator (they stay on the screen class) -------------------
    @on(Tree.NodeHighlighted, "#graph")
    def _node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        self.query_one("#sentence-view", SentenceView).highlight(event.node.data)

    @on(OptionList.OptionHighlighted, "#rules")
    def _rule_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        new = event.option.id or "all"
        if new != self.filter:
            self.filter = new
            self._fill_table()

    @on(DataTable.RowHighlighted, "#candidates")
    def _row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._show_detail()
