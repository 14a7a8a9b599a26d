"""The workbench: type a sentence, see its graph, pick edits, judge foils, spot-check models, curate.

All parsing, editing, realizing, validating and embedding happens in one exclusive
thread worker per input; it posts typed messages tagged with a generation number,
and messages from a stale generation are dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
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

from core.curation import PENDING, record_key, spotcheck_entry, word_overlap
from core.errors import SmithError
from core.types import RULE_NAMES, RULES
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


class Parsed(Message):
    def __init__(self, gen: int, parsed: Any, note: str = "") -> None:
        super().__init__()
        self.gen, self.parsed, self.note = gen, parsed, note


class EditsFound(Message):
    def __init__(self, gen: int, by_rule: dict[str, list[Any]]) -> None:
        super().__init__()
        self.gen, self.by_rule = gen, by_rule


class CandidatesReady(Message):
    def __init__(self, gen: int, candidates: list[Any]) -> None:
        super().__init__()
        self.gen, self.candidates = gen, candidates


class VerdictsReady(Message):
    def __init__(self, gen: int, indices: list[int], verdicts: list[list[Any]]) -> None:
        super().__init__()
        self.gen, self.indices, self.verdicts = gen, indices, verdicts


class FluencyScored(Message):
    """Each realized candidate's ``{scorer, source, foil, delta}`` (``core.foils.pipeline.FoilPipeline.fluency``)."""

    def __init__(self, gen: int, indices: list[int], fluency: list[Any]) -> None:
        super().__init__()
        self.gen, self.indices, self.fluency = gen, indices, fluency


class SpotChecked(Message):
    def __init__(self, gen: int, model: str, indices: list[int], checks: list[Any], error: str = "") -> None:
        super().__init__()
        self.gen, self.model, self.indices, self.checks, self.error = gen, model, indices, checks, error


class StageFailed(Message):
    def __init__(self, gen: int, stage: str, error: str, hint: str = "") -> None:
        super().__init__()
        self.gen, self.stage, self.error, self.hint = gen, stage, error, hint


class FoilScored(Message):
    """A decided foil's missing verdicts and spot checks, computed after the decision (not tied to a generation)."""

    def __init__(self, row: Any, paraphrase: str, models: Sequence[str]) -> None:
        super().__init__()
        self.row, self.paraphrase, self.models = row, paraphrase, tuple(models)


class GenerationDone(Message):
    def __init__(self, gen: int) -> None:
        super().__init__()
        self.gen = gen


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
        e = self.edit
        return record_key(
            {
                "source": e.source.text,
                "paraphrase": paraphrase or None,
                "foil": self.text,
                "rule": e.rule,
                "variant": e.variant,
                "nodes": list(e.nodes),
            }
        )


from core.inputs import ENGLISH_HINT_WORDS, looks_english  # noqa: E402, F401 (moved to core for the CLI)

NARROW, SHORT = 100, 30  # below these columns / rows the workbench goes compact
FLUENCY_W = 5  # the fluency delta column: "+0.64"
PARAPHRASE_MIN_OVERLAP = 0.3  # below this share of shared words a paraphrase is probably another sentence's
SAME_SENTENCE_OVERLAP = 0.5  # an edited sentence sharing this much with the crafted one keeps its paraphrase


def sentence_id(text: str) -> str:
    return "wb-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


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

    # -- the worker ---------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="generate", exit_on_error=False)
    def generate_worker(
        self, gen: int, sentence: str, paraphrase: str, models: Sequence[str], cancel: threading.Event
    ) -> None:
        worker = get_current_worker()

        def stale() -> bool:
            return worker.is_cancelled or cancel.is_set()

        post = self.post_message
        backends = self.app.backends
        try:
            pipe = backends.pipeline()
            parsed = pipe.parse_one(sentence)
            note = "" if not parsed.ok or looks_english(parsed.text) else (
                "This does not look like English: the parser and the rules are English-only, expect odd foils."
            )
            post(Parsed(gen, parsed, note))
            if not parsed.ok or stale():
                return
            by_rule = pipe.edits(parsed)
            post(EditsFound(gen, by_rule))
            edits = [e for rule in RULES for e in by_rule.get(rule, [])]
            if not edits or stale():
                return
            candidates = pipe.realize(edits)
            post(CandidatesReady(gen, candidates))
            ok = [i for i, c in enumerate(candidates) if c.realization.error is None]
            if not ok or stale():
                return
            self._spot_checks(gen, parsed.text, paraphrase, models, ok, [candidates[i].text for i in ok], stale)
            if stale():
                return
            self._fluency(gen, pipe, ok, [candidates[i] for i in ok])
            if stale():
                return
            try:
                verdicts = pipe.validate([candidates[i] for i in ok])
            except SmithError as exc:
                post(StageFailed(gen, "validation", exc.message, exc.hint))
                verdicts = [[] for _ in ok]
            except Exception as exc:  # foils stay on screen without verdicts
                post(StageFailed(gen, "validation", f"{type(exc).__name__}: {exc}"))
                verdicts = [[] for _ in ok]
            post(VerdictsReady(gen, ok, verdicts))
        except SmithError as exc:
            post(StageFailed(gen, "generate", exc.message, exc.hint))
        except Exception as exc:  # the app stays usable whatever a backend does
            post(StageFailed(gen, "generate", f"{type(exc).__name__}: {exc}"))
        finally:
            post(GenerationDone(gen))

    def _fluency(self, gen: int, pipe: Any, indices: list[int], candidates: list[Any]) -> None:
        """Score the foils' fluency against their source (a failure is reported; the column says n/a)."""
        try:
            fluency = pipe.fluency(candidates)
        except SmithError as exc:
            self.post_message(StageFailed(gen, "fluency", exc.message, exc.hint))
            fluency = [{"scorer": pipe.settings.fluency, "source": None, "foil": None, "delta": None} for _ in candidates]
        self.post_message(FluencyScored(gen, indices, fluency))

    def _spot_checks(
        self,
        gen: int,
        source: str,
        paraphrase: str,
        models: Sequence[str],
        indices: list[int],
        foils: list[str],
        stale: Any,
    ) -> None:
        from core.evaluate import check_model

        for model in models:
            if stale():
                return
            try:
                embedder = self.app.backends.embedder(model)
            except SmithError as exc:
                self.post_message(SpotChecked(gen, model, indices, [], str(exc)))
                continue
            except Exception as exc:
                self.post_message(SpotChecked(gen, model, indices, [], f"{type(exc).__name__}: {exc}"))
                continue
            checks = check_model(embedder, source, foils, paraphrase or None, name=model)
            self.post_message(SpotChecked(gen, model, indices, checks))

    @work(thread=True, group="complete", exit_on_error=False)
    def complete_worker(self, row: Row, paraphrase: str, models: Sequence[str]) -> None:
        """Score what a decided foil is missing (validation, models), whatever the screen does meanwhile."""
        from core.evaluate import check_model

        try:
            pipe = self.app.backends.pipeline()
            if row.verdicts is None:
                row.verdicts = list(pipe.validate([row.candidate])[0])
            if row.fluency is None:
                row.fluency = pipe.fluency([row.candidate])[0]
            for model in models:
                if model not in row.checks:
                    try:
                        embedder = self.app.backends.embedder(model)
                    except Exception:
                        row.checks[model] = None  # unavailable: reported on the status line already
                        continue
                    [row.checks[model]] = check_model(
                        embedder, row.edit.source.text, [row.text], paraphrase or None, name=model
                    )
        except SmithError as exc:
            self.post_message(StageFailed(self.gen, "scoring a decided foil", exc.message, exc.hint))
            return
        except Exception as exc:
            self.post_message(StageFailed(self.gen, "scoring a decided foil", f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(FoilScored(row, paraphrase, models))

    def on_foil_scored(self, message: FoilScored) -> None:
        curation = self.app.curation
        if curation is None:
            return
        record = self._record(message.row, message.paraphrase)
        record[PENDING] = message.row.missing(message.models)
        try:
            completed = curation.complete(record)
        except SmithError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        if completed:
            self.refresh_basket()
            self.app.basket_changed()

    @work(thread=True, group="rescore", exit_on_error=False)
    def rescore_worker(self, gen: int, index: int, candidate: Any, paraphrase: str, models: Sequence[str]) -> None:
        """Re-validate and re-check one hand-edited foil."""
        try:
            self._spot_checks(gen, candidate.edit.source.text, paraphrase, models, [index], [candidate.text], lambda: False)
            self._fluency(gen, self.app.backends.pipeline(), [index], [candidate])
            verdicts = self.app.backends.pipeline().validate([candidate])
            self.post_message(VerdictsReady(gen, [index], verdicts))
        except SmithError as exc:
            self.post_message(StageFailed(gen, "re-score", exc.message, exc.hint))
        except Exception as exc:
            self.post_message(StageFailed(gen, "re-score", f"{type(exc).__name__}: {exc}"))

    # -- messages -----------------------------------------------------------------------------
    def on_parsed(self, message: Parsed) -> None:
        if message.gen != self.gen:
            return
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

    def on_edits_found(self, message: EditsFound) -> None:
        if message.gen != self.gen:
            return
        self.by_rule = message.by_rule
        self._fill_rules()
        if not any(message.by_rule.values()):
            self.query_one("#detail", Static).update(
                Text("No rule applies to this sentence: try one with a verb, its subject and object.", style="yellow")
            )

    def on_candidates_ready(self, message: CandidatesReady) -> None:
        if message.gen != self.gen:
            return
        self.rows = [Row(i, c) for i, c in enumerate(message.candidates)]
        self._fill_rules()
        self._fill_table()
        self.timings["candidates"] = time.perf_counter()

    def on_verdicts_ready(self, message: VerdictsReady) -> None:
        if message.gen != self.gen:
            return
        table = self.query_one("#candidates", DataTable)
        for i, verdicts in zip(message.indices, message.verdicts, strict=True):
            self.rows[i].verdicts = list(verdicts)
            if str(i) in table.rows:
                table.update_cell(str(i), "valid", self._verdicts_text(self.rows[i]))
        self.timings["verdicts"] = time.perf_counter()
        self._show_detail()

    def on_fluency_scored(self, message: FluencyScored) -> None:
        if message.gen != self.gen:
            return
        table = self.query_one("#candidates", DataTable)
        for i, fluency in zip(message.indices, message.fluency, strict=True):
            self.rows[i].fluency = fluency
            if str(i) in table.rows and "fluency" in table.columns:
                table.update_cell(str(i), "fluency", self._fluency_text(self.rows[i]))
        self.timings["fluency"] = time.perf_counter()
        self._show_detail()

    def _fluency_text(self, row: Row) -> Text:
        return Text("") if row.error else fluency_cell(row.fluency, self.app.settings.pipeline.fluency_threshold)

    def on_spot_checked(self, message: SpotChecked) -> None:
        if message.gen != self.gen:
            return
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

    def on_stage_failed(self, message: StageFailed) -> None:
        if message.gen != self.gen:
            return
        text = message.error + (f"\nhint: {message.hint}" if message.hint else "")
        self.app.notify(text, title=f"{message.stage} failed", severity="error", markup=False, timeout=10)
        self.query_one("#detail", Static).update(Text(f"{message.stage} failed: {message.error}", style="red"))

    def on_generation_done(self, message: GenerationDone) -> None:
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
    def _record(self, row: Row, paraphrase: str | None = None) -> dict[str, Any]:
        """The basket record of a row; ``pending`` lists what is not scored yet (completed later)."""
        paraphrase = self.paraphrase if paraphrase is None else paraphrase

        try:
            prov = self.app.backends.provenance()
        except Exception:
            prov = {"seed": self.app.settings.pipeline.seed}
        record = self.app.backends.pipeline().record(  # core owns the record and the decision: forwarded as is
            row.candidate,
            row.verdicts,
            row.fluency,
            row_id=sentence_id(row.edit.source.text),
            paraphrase=paraphrase or None,
            provenance=prov,
        )
        record["spotcheck"] = {m: spotcheck_entry(c) for m, c in row.checks.items() if c is not None and c.ok}
        record["edited_by_hand"] = row.edited
        if row.edited:
            record["original_foil"] = row.original_text
        record[PENDING] = row.missing(self.models)
        return record

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
        record = self._record(row)
        try:
            getattr(curation, action)(record)
        except SmithError as exc:
            self.app.notify(str(exc), severity="error", markup=False, timeout=10)
            return
        self.app.undo_armed = None
        if record[PENDING]:  # decided before its scores arrived: the basket entry is completed when they do
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
            self.models_worker(self.gen, self.parsed.text, self.paraphrase, models, ok, [self.rows[i].text for i in ok])

    @work(thread=True, exclusive=True, group="models", exit_on_error=False)
    def models_worker(
        self, gen: int, source: str, paraphrase: str, models: Sequence[str], indices: list[int], foils: list[str]
    ) -> None:
        worker = get_current_worker()
        self._spot_checks(gen, source, paraphrase, models, indices, foils, lambda: worker.is_cancelled)
