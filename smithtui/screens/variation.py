"""The Variation screen: run the semantic-variation study on a book and look at model agreement.

Type a book path (several: comma-separated) and the models, press ``ctrl+r`` (or Run). The analysis
runs in a thread worker that only posts messages; a progress bar follows reading, embedding and
the blocked analysis, and ``escape`` cancels. Results: coloured terminal heatmaps of the SSM and
series correlation maps and of PAF / NAF / DDAF (``m`` cycles the fraction shown), the
successive-similarity series as a sparkline (``s`` cycles the model), and the novel passages
(``/`` filters them by their words or sentence number; Enter or Escape goes back to the table).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Button, DataTable, Input, Label, ProgressBar, Sparkline, Static

from core.config import Settings
from smithtui.screens.job import CANCEL_CHUNK, JobScreen
from smithtui.widgets.footer import FitFooter

FRACTIONS = ("paf", "naf", "ddaf")
PASSAGE_COLUMNS = ("#", "sent", "score", "votes", "spread", "passage")
PASSAGE_FIXED = 3 + 5 + 6 + 6 + 7 + 2 * 6 + 2  # the passage table's number columns, their padding, the scroll bar
_LABELS = {"paf": "PAF", "naf": "NAF", "ddaf": "DDAF (row +, col -)", "ssm_corr": "SSM r", "series_corr": "series r"}
# A perceptual ramp (viridis-like) from low to high.
_RAMP = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))


def ramp_colour(value: float, lo: float, hi: float) -> tuple[int, int, int]:
    """The RGB colour of ``value`` on the ramp between ``lo`` and ``hi``.

    >>> ramp_colour(0.0, 0.0, 1.0), ramp_colour(1.0, 0.0, 1.0)
    ((68, 1, 84), (253, 231, 37))
    """
    t = 0.0 if hi <= lo else min(1.0, max(0.0, (value - lo) / (hi - lo)))
    pos = t * (len(_RAMP) - 1)
    i = min(int(pos), len(_RAMP) - 2)
    f = pos - i
    a, b = _RAMP[i], _RAMP[i + 1]
    return tuple(round(a[k] + (b[k] - a[k]) * f) for k in range(3))  # type: ignore[return-value]


def heatmap_text(
    matrix: np.ndarray, models: Sequence[str], *, title: str = "", lo: float | None = None, hi: float | None = None
) -> Text:
    """A model×model matrix as a coloured grid of values (row model, column model).

    >>> t = heatmap_text(np.array([[1.0, 0.5], [0.5, 1.0]]), ["a", "b"], title="r")
    >>> "0.50" in t.plain and t.plain.splitlines()[0] == "r"
    True
    """
    m = np.asarray(matrix, dtype=np.float64)
    finite = m[np.isfinite(m)]
    lo = float(finite.min()) if lo is None and finite.size else (lo if lo is not None else 0.0)
    hi = float(finite.max()) if hi is None and finite.size else (hi if hi is not None else 1.0)
    width = max((len(x) for x in models), default=4)
    width = min(width, 14)
    out = Text()
    if title:
        out.append(title + "\n", style="bold")
    out.append(" " * (width + 1))
    for name in models:
        out.append(f"{name[:6]:>6} ")
    out.append("\n")
    for i, name in enumerate(models):
        out.append(f"{name[:width]:<{width}} ")
        for j in range(len(models)):
            v = m[i, j]
            if not np.isfinite(v):
                out.append("   –   ")
                continue
            r, g, b = ramp_colour(v, lo, hi)
            fg = "black" if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else "white"
            out.append(f"{v:6.2f}", style=Style(color=fg, bgcolor=f"rgb({r},{g},{b})"))
            out.append(" ")
        out.append("\n")
    return out


def downsample(values: np.ndarray, bins: int) -> list[float]:
    """Mean of ``values`` in ``bins`` equal chunks (for a sparkline of a whole book).

    >>> downsample(np.arange(10.0), 5)
    [0.5, 2.5, 4.5, 6.5, 8.5]
    """
    v = np.nan_to_num(np.asarray(values, dtype=np.float64))
    if v.size <= bins:
        return v.tolist()
    edges = np.linspace(0, v.size, bins + 1).astype(int)
    return [float(v[a:b].mean()) for a, b in itertools.pairwise(edges) if b > a]


class VariationScreen(JobScreen):
    """Semantic variation across embedding models, with progress, cancel and agreement heatmaps."""

    PREFIX = "var"
    PASTE_TARGET = "#var-books"

    BINDINGS: ClassVar[list[Binding]] = [
        Binding("m", "next_fraction", "PAF/NAF/DDAF"),
        Binding("s", "next_series", "Series model"),
        Binding("slash", "search", "Filter"),
    ]

    CSS_PATH = "variation.tcss"

    @dataclass
    class Progress(Message):
        """A stage update from the worker (see :class:`core.variation.run.VariationEvent`)."""

        stage: str
        book: str
        model: str
        done: int
        total: int
        message: str

    @dataclass
    class Finished(Message):
        run: Any  # core.variation.run.VariationRun

    def __init__(
        self,
        settings: Settings,
        *,
        books: Sequence[str] = (),
        models: Sequence[str] | None = None,
        source: Any = None,
        max_sentences: int | None = None,
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id)
        self.settings = settings
        self._books = list(books)
        self._models = list(models) if models is not None else list(settings.models.embedders)
        self._source = source
        self._max_sentences = max_sentences
        self.run_result: Any = None
        self._fraction = 0
        self._series_model = 0
        self._book_index = 0
        self.search = ""  # the / filter: passages whose text (or sentence number) contains it

    def compose(self) -> ComposeResult:
        with Horizontal(id="var-form"):
            yield Input(", ".join(self._books), placeholder="book file(s), comma-separated", id="var-books")
            yield Input(",".join(self._models), placeholder="models, e.g. minilm,tfidf,bow", id="var-models")
            yield Button("Run", id="var-run", variant="primary")
            yield Button("Cancel", id="var-cancel", disabled=True)
        with Horizontal(id="var-progress-row"):
            yield ProgressBar(total=1, show_eta=False, id="var-progress")  # still until a job starts
            yield Label("ready: name a book and models, then ctrl+r", id="var-status")
        with VerticalScroll(id="var-body"):
            with Horizontal(id="var-maps"):
                yield Static("", id="var-corr", classes="var-map")
                yield Static("", id="var-series-corr", classes="var-map")
                yield Static("", id="var-fraction", classes="var-map")
            yield Label("", id="var-series-label")
            yield Sparkline([], id="var-series")
            yield Label("novel passages (ensemble over models)", id="var-passages-label")
            yield Input(placeholder="filter the passages (Enter or Escape: back to the table)", id="var-search", compact=True)
            yield DataTable(id="var-passages", cursor_type="row", zebra_stripes=True)
        yield FitFooter()

    def on_mount(self) -> None:
        super().on_mount()
        table = self.query_one("#var-passages", DataTable)
        table.add_columns(*PASSAGE_COLUMNS)

    # ----- actions -------------------------------------------------------------------------------

    def action_run(self) -> None:
        books = [b.strip() for b in self.query_one("#var-books", Input).value.split(",") if b.strip()]
        models = tuple(m.strip() for m in self.query_one("#var-models", Input).value.split(",") if m.strip())
        if not books or not models:
            self._status("name at least one book and one model", error=True)
            return
        cancel = self._start(f"starting: {len(books)} book(s), {len(models)} model(s)")
        self._analyse(books, models, cancel)

    def results_payload(self) -> dict[str, Any] | None:
        """ctrl+s: per-book agreement, novelty and top passages of the finished run."""
        run = self.run_result
        if run is None:
            return None
        return {
            "models": list(run.config.models),
            "books": [b.to_json() for b in run.books],
            "mean_agreement": run.mean.to_json() if run.mean is not None else None,
            "errors": list(run.errors),
            "models_info": dict(run.models_info),
        }

    def action_search(self) -> None:
        """/ opens the filter box over the passages; typing narrows the table at once."""
        box = self.query_one("#var-search", Input)
        box.display = True
        self.set_focus(box)

    def action_cancel(self) -> None:
        """Escape in the filter box goes back to the table; elsewhere it cancels the job."""
        if self.focused is self.query_one("#var-search", Input):
            self._end_search()
            return
        super().action_cancel()

    def _end_search(self) -> None:
        box = self.query_one("#var-search", Input)
        box.display = bool(box.value)
        self.set_focus(self.query_one("#var-passages", DataTable))

    @on(Input.Changed, "#var-search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.search = event.value
        self._fill_passages()

    @on(Input.Submitted, "#var-search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._end_search()

    def action_next_fraction(self) -> None:
        self._fraction = (self._fraction + 1) % len(FRACTIONS)
        self._show()

    def action_next_series(self) -> None:
        self._series_model += 1
        self._show()

    # ----- the worker ----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False)
    def _analyse(self, books: list[str], models: tuple[str, ...], cancel: threading.Event) -> None:
        from core.variation import VariationConfig, VariationEvent, run_variation

        def on_event(ev: VariationEvent) -> None:
            self.post_message(self.Progress(ev.stage, ev.book, ev.model, ev.done, ev.total, ev.message))

        def job() -> Any:
            config = VariationConfig(models=models, max_sentences=self._max_sentences, figures=False)
            if self._source is None:
                from core.variation import RegistrySource

                self._source = RegistrySource(self.settings.cache_dir(), self.settings, chunk_size=CANCEL_CHUNK)
            if hasattr(self._source, "check"):
                self._source.check(models)
            return run_variation([Path(b) for b in books], config, self._source, None, on_event=on_event, cancel=cancel)

        self._report(job, self.Finished)

    # ----- messages ------------------------------------------------------------------------------

    def on_variation_screen_progress(self, msg: Progress) -> None:
        if not self.running:
            return  # a late message from a cancelled job
        what = f"{msg.stage} {msg.book}".strip() + (f" · {msg.model}" if msg.model else "")
        if msg.message:
            what += f": {msg.message}"
        if msg.message or msg.done == 0:
            self.stage = what  # a new stage (the counts of the same stage keep its wording)
        self._progress(msg.done, msg.total)
        self._show_progress()

    def on_variation_screen_finished(self, msg: Finished) -> None:
        if not self.running:
            return  # a late message from a cancelled job
        self.run_result = msg.run
        self._done()
        names = ", ".join(f"{r.book.name} ({len(r.book)} sentences)" for r in msg.run.books)
        skipped = f"; skipped {len(msg.run.errors)}: {msg.run.errors[0]['error']}" if msg.run.errors else ""
        self._status(f"done: {names}{skipped}")
        self._show()
        self.query_one("#var-passages", DataTable).focus()  # so m / s reach the screen, not an Input

    # ----- rendering -----------------------------------------------------------------------------

    def _show(self) -> None:
        run = self.run_result
        if run is None or not run.books:
            return
        agreement = run.mean if run.mean is not None else run.books[self._book_index].agreement
        scope = f"mean of {agreement.books} books" if run.mean is not None else run.books[0].book.name
        models = list(agreement.models)
        self.query_one("#var-corr", Static).update(
            heatmap_text(agreement.ssm_corr, models, title=f"SSM r ({scope})", lo=0.0, hi=1.0)
        )
        self.query_one("#var-series-corr", Static).update(
            heatmap_text(agreement.series_corr, models, title="series r", lo=0.0, hi=1.0)
        )
        frac = FRACTIONS[self._fraction]
        self.query_one("#var-fraction", Static).update(
            heatmap_text(agreement.matrix(frac), models, title=f"{_LABELS[frac]}  [m: next]", lo=0.0)
        )
        book = run.books[self._book_index]
        model = models[self._series_model % len(models)]
        series = book.series[model]
        self.query_one("#var-series-label", Label).update(
            f"successive similarity, {model} · {book.book.name} (z, {len(series)} steps)  [s: next model]"
        )
        self.query_one("#var-series", Sparkline).data = downsample(series, 160)
        self._fill_passages()

    def visible_passages(self) -> list[Any]:
        """The shown book's novel passages that match the / filter (all of them when it is empty)."""
        run = self.run_result
        if run is None or not run.books:
            return []
        needle = self.search.strip().casefold()
        passages = run.books[self._book_index].passages
        return [p for p in passages if not needle or needle in f"{p.sentence_id} {p.text}".casefold()]

    def _fill_passages(self) -> None:
        run = self.run_result
        if run is None or not run.books:
            return
        n_models = len((run.mean if run.mean is not None else run.books[self._book_index].agreement).models)
        shown = self.visible_passages()
        total = len(run.books[self._book_index].passages)
        label = "novel passages (ensemble over models)"
        if self.search.strip():
            label += f" — {len(shown)} of {total} match “{self.search.strip()}”"
        self.query_one("#var-passages-label", Label).update(Text(label + "  [/: filter]"))
        table = self.query_one("#var-passages", DataTable)
        table.clear(columns=True)  # auto-sized columns only shrink when they are made again
        table.add_columns(*PASSAGE_COLUMNS)
        room = max(20, min(160, self.app.size.width - PASSAGE_FIXED))  # the passage fits beside the numbers
        for p in shown:
            table.add_row(
                str(p.rank), str(p.sentence_id), f"{p.score:.2f}", f"{p.votes}/{n_models}", f"{p.spread:.2f}",
                p.text if len(p.text) <= room else p.text[: room - 1] + "…",
            )

    def on_resize(self, _event: Any) -> None:
        self._fill_passages()
