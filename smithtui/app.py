"""The Textual app: one factory, :func:`make_app`, used by the CLI, the tests and the benchmark.

The app holds the services every screen shares: :class:`Backends` (the foil
pipeline and the embedders, built lazily in worker threads, once) and the
curation session (the basket and its journal). Heavy libraries are imported only
inside workers, so the first frame appears before any model is loaded.
"""

from __future__ import annotations

import contextlib
import importlib.util
import tempfile
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from core.config import Settings
from core.curation import (
    CurationError,
    CurationSession,
    JournalInUse,
    SessionSummary,
    export_records,
    open_session,
    previous_session,
    sibling_journals,
)
from core.errors import SmithError

ROOT = Path(__file__).resolve().parents[1]
SAMPLES_FILE = ROOT / "sample_data" / "workbench_sentences.txt"
FALLBACK_SAMPLES: tuple[tuple[str, str], ...] = (
    ("The cat chased the mouse.", "The mouse was chased by the cat."),
    ("She is happy because her team won the final.", "Her team won the final, which made her happy."),
)

QUIT_SCORING_WAIT = 3.0  # seconds quitting waits for decided foils' scores before leaving them unscored

# Screens other issues add; registered only when their module exists (imported lazily).
OPTIONAL_SCREENS: Mapping[str, tuple[str, str]] = {
    "variation": ("smithtui.screens.variation", "VariationScreen"),
    "clsd": ("smithtui.screens.clsd", "CLSDScreen"),
}


def load_samples(path: str | Path | None = None) -> list[tuple[str, str]]:
    """Sample sentences (``sentence<TAB>paraphrase`` per line, ``#`` comments) for users to try."""
    p = Path(path) if path else SAMPLES_FILE
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError:
        return list(FALLBACK_SAMPLES)
    out = []
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        sentence, _, paraphrase = line.partition("\t")
        out.append((sentence.strip(), paraphrase.strip()))
    return out or list(FALLBACK_SAMPLES)


class Backends:
    """The pipeline and embedders, created on first use (thread-safe) and kept for the app's life.

    Pass ready objects (``pipeline=``, ``embedders=``) to reuse them across apps, as the
    tests and the benchmark do.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        pipeline: Any = None,
        embedders: Mapping[str, Any] | None = None,
    ) -> None:
        self.settings = settings
        self._pipeline = pipeline
        self._embedders: dict[str, Any] = dict(embedders or {})
        self._lock = threading.Lock()
        self._specs: list[Any] | None = None
        self._provenance: dict[str, Any] | None = None
        self._cache: Any = None

    def pipeline(self) -> Any:
        """The :class:`core.foils.pipeline.FoilPipeline` (its backends load on first use)."""
        with self._lock:
            if self._pipeline is None:
                from core.foils import FoilPipeline

                self._pipeline = FoilPipeline.from_settings(self.settings)
            return self._pipeline

    def warm_pipeline(self) -> Any:
        """Build the parser, generator and validators now (slow the first time)."""
        pipe = self.pipeline()
        _ = pipe.parser, pipe.generator
        return pipe

    def provenance(self) -> dict[str, Any]:
        if self._provenance is None:
            self._provenance = dict(self.pipeline().provenance())
        return self._provenance

    def is_loaded(self, name: str) -> bool:
        return name in self._embedders

    def embedder(self, name: str) -> Any:
        """The embedder called ``name``: one handed to this app, else the registry's process-wide instance
        (``get_embedder``, loaded once; raises ModelMissingError). Kept here so ``is_loaded`` can tell."""
        emb = self._embedders.get(name)
        if emb is None:
            from core.embed import get_embedder

            emb = self._embedders.setdefault(name, get_embedder(name, settings=self.settings))
        return emb

    def specs(self) -> list[Any]:
        """Every registered embedder with whether it is usable offline (cheap: loads nothing)."""
        if self._specs is None:
            from core.embed import list_embedders  # first-party: an import bug must show, not empty the list

            self._specs = list(list_embedders())
        return self._specs

    def cache(self) -> Any:
        """The on-disk embedding cache used by evaluations (None when unavailable)."""
        if self._cache is None:
            from core.embed import EmbeddingCache  # first-party: no silent fallback to "no cache"
            from smithtui.screens.job import CANCEL_CHUNK

            self._cache = EmbeddingCache(self.settings.cache_dir(), chunk_size=CANCEL_CHUNK)
        return self._cache


class SmithApp(App[None]):
    """SentenceSmith Workbench."""

    TITLE = "SentenceSmith Workbench"
    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = True

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", id="app.help"),
        Binding("question_mark", "help", "Help", show=False, id="app.help_alt"),
        Binding("f2", "show('workbench')", "Bench", id="app.workbench"),
        Binding("f3", "show('compare')", "Compare", id="app.compare"),
        Binding("f4", "show('basket')", "Basket", id="app.basket"),
        Binding("f5", "show('variation')", "Variation", id="app.variation"),
        Binding("f6", "show('clsd')", "CLSD", id="app.clsd"),
        Binding("ctrl+s", "export_basket", "Export", id="app.export"),
        Binding("ctrl+q", "quit", "Quit", show=False, id="app.quit", priority=True),
    ]

    class BasketChanged(Message):
        """Posted to the active screen after any decision, undo, restore or export."""

    class ModelsChanged(Message):
        """Posted to the workbench and Compare when the shared model choice changed (:meth:`SmithApp.set_models`)."""

    class Rescored(Message):
        """A restored unscored foil, scored now (or the reason it could not be)."""

        def __init__(self, record: dict[str, Any], error: str = "") -> None:
            super().__init__()
            self.record, self.error = record, error

    class ExportDone(Message):
        def __init__(self, result: Any) -> None:
            super().__init__()
            self.result = result

    class ExportFailed(Message):
        def __init__(self, error: str, hint: str = "") -> None:
            super().__init__()
            self.error, self.hint = error, hint

    def __init__(
        self,
        settings: Settings,
        *,
        backends: Backends,
        journal: str | Path | None = None,
        restore: str = "ask",
        samples: Sequence[tuple[str, str]] | None = None,
        warm: bool = True,
        on_first_frame: Callable[[SmithApp], None] | None = None,
        optional_screens: Mapping[str, tuple[str, str]] | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.backends = backends
        self.journal_path = Path(journal) if journal else settings.journal_path()
        self.restore_policy = restore
        self.samples: list[tuple[str, str]] = list(samples) if samples is not None else load_samples()
        self.warm = warm
        self._on_first_frame = on_first_frame
        self.curation: CurationSession | None = None
        # the UI state kept across restarts: the model choice and the last path of each file prompt
        self.state_path = self.journal_path.with_name("ui-state.json")
        state = self._load_state()
        self.models: tuple[str, ...] = state_models(state) or tuple(settings.models.embedders)
        self._models_chosen = bool(state_models(state))  # only a choice made in the app overrides the config
        self.last_paths: dict[str, str] = state_paths(state)  # per file prompt ("export", "sentences", ...)
        self.quit_note = ""  # what quitting cancelled, printed once the terminal is back
        self.undo_armed: int | None = None  # seq of a decision on an earlier sentence that the next u undoes
        self.previous: SessionSummary | None = None
        self.first_frame_at: float | None = None
        self.backend_state: dict[str, tuple[str, str]] = {}
        self.notices: deque[tuple[str, str, str]] = deque(maxlen=200)  # (severity, title, message), newest last
        candidates = OPTIONAL_SCREENS if optional_screens is None else optional_screens
        self.optional_screens = {
            mode: spec for mode, spec in candidates.items() if importlib.util.find_spec(spec[0]) is not None
        }
        self.key_overrides, self.unknown_keys = resolve_key_overrides(settings.ui.keys)
        from smithtui.keybursts import BurstGuard

        self.bursts = BurstGuard()  # unbracketed pastes on a pane are text, not commands
        self._modes.update(
            {
                "workbench": self._make_workbench,
                "compare": self._make_compare,
                "basket": self._make_basket,
                **{mode: partial(self._make_optional, mode) for mode in self.optional_screens},
            }
        )

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: Any = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a toast and keep it in :attr:`notices` (what tests and the status line read)."""
        self.notices.append((str(severity), title, message))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # -- screens ------------------------------------------------------------
    def _make_workbench(self) -> Screen:
        from smithtui.screens.workbench import WorkbenchScreen

        return WorkbenchScreen()

    def _make_compare(self) -> Screen:
        from smithtui.screens.compare import CompareScreen

        return CompareScreen()

    def _make_basket(self) -> Screen:
        from smithtui.screens.basket import BasketScreen

        return BasketScreen()

    def _make_optional(self, mode: str) -> Screen:
        module_name, class_name = self.optional_screens[mode]
        module = importlib.import_module(module_name)
        return getattr(module, class_name)(self.settings)

    def action_show(self, mode: str) -> None:
        if mode not in self._modes:
            self.notify(f"the {mode} screen is not installed", severity="warning")
            return
        if self.current_mode != mode:
            try:
                self.switch_mode(mode)
            except Exception as exc:  # a broken optional screen must not take the app down
                self.notify(f"cannot open {mode}: {exc}", severity="error", markup=False)

    def on_resize(self, event: Any) -> None:
        """``-narrow`` below 100 columns, ``-short`` below 30 rows: the stylesheet's compact layout."""
        self.set_class(event.size.width < 100, "-narrow")
        self.set_class(event.size.height < 30, "-short")

    async def on_event(self, event: events.Event) -> None:
        keyed = isinstance(event, events.Key) and not event.is_forwarded
        if keyed and (
            self._pasted_on_pane(event) or await self._focus_key_at_once(event) or await self._edit_key_in_order(event)
        ):
            return
        await super().on_event(event)

    async def _focus_key_at_once(self, event: events.Key) -> bool:
        """Tab / shift+tab move the focus before the next key is routed (``Tab`` then ``minilm`` types into the
        next box, not the one being left, which is what Textual's late focus binding did in a fast burst)."""
        if event.key not in ("tab", "shift+tab"):
            return False
        self.app_focus = True
        if await self._check_bindings(event.key, priority=True):  # a screen's own priority tab (completion, panes)
            return True
        if event.key == "tab":
            self.screen.focus_next()
        else:
            self.screen.focus_previous()
        return True

    async def _edit_key_in_order(self, event: events.Key) -> bool:
        """An editing key on a text box (ctrl+u, backspace, ←, Enter) runs in the box's own queue, after the
        letters typed before it and before those typed after it.

        Textual runs a widget's key bindings only once the key has bubbled back to the app, so in a fast
        burst (``ctrl+u`` then a path, over tmux or SSH) the letters were typed first and ``ctrl+u`` then
        deleted them.
        """
        from textual.widgets import Input

        box = self.focused
        if not isinstance(box, Input) or event.is_printable:
            return False
        bindings = [b for b in box._bindings.key_to_bindings.get(event.key, ()) if not b.priority]
        if not bindings:
            return False
        self.app_focus = True
        if await self._check_bindings(event.key, priority=True):  # the app's and screen's priority keys first
            return True
        box.call_later(self.run_action, bindings[0].action, box)
        return True

    def _pasted_on_pane(self, event: events.Key) -> bool:
        """A burst of keys faster than typing on a pane is a paste: into the sentence box, or dropped (never run)."""
        from textual.widgets import Input, TextArea

        from smithtui.keybursts import queued_keys

        if isinstance(self.focused, (Input, TextArea)):
            self.bursts.last = None  # typing in a text box: it takes pastes itself
            return False
        if self.bursts.last is None and event.key == self.key_overrides.get("workbench.focus_input", "i"):
            return False  # "i" then text, typed fast (or over a slow link): i focuses the box, the text goes there
        if not self.bursts.in_burst(event, queued_keys(self)):
            return False
        target = getattr(self.screen, "PASTE_TARGET", "")  # the screen's main text box, if it has one
        box = self.screen.query(target).first() if target else None
        if isinstance(box, Input):
            self.screen.set_focus(box)  # the rest of the burst is typed there as it comes, after this key
            key = events.Key("space", " ") if event.key in ("enter", "tab") else events.Key(event.key, event.character)
            box.post_message(key)  # behind the box's focus event (which may select what it holds)
            if self.bursts.started:
                where = {"sentence": "sentence box", "var-books": "book box", "clsd-data": "data set box"}.get(box.id or "")
                self.notify(f"pasted text goes into the {where or 'text box'}: a paste never runs a pane's keys", markup=False)
        elif self.bursts.started:
            self.notify(
                "ignored keys arriving faster than anyone types (a paste?): paste into a text box instead",
                severity="warning",
                markup=False,
            )
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a screen that is not installed is hidden from the footer and the palette
        return not (action == "show" and parameters and parameters[0] not in self._modes)

    # -- start-up -----------------------------------------------------------
    def on_mount(self) -> None:
        if self.key_overrides:
            self.set_keymap(self.key_overrides)
        theme = self.settings.ui.theme
        if theme in self.available_themes:
            self.theme = theme
        else:
            self.notify(f"unknown theme {theme!r}; using {self.theme}", severity="warning", markup=False)
        if self.unknown_keys:
            self.notify(
                f"ui.keys: unknown action(s) {', '.join(self.unknown_keys)} (see the help screen, F1)",
                severity="warning",
                markup=False,
            )
        self.switch_mode("workbench")
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        import time

        self.first_frame_at = time.perf_counter()
        if self._on_first_frame is not None:
            self._on_first_frame(self)
        self._start_curation()
        if self.warm:
            self.warm_up()

    def _free_journal(self) -> None:
        """Move to a sibling journal when another window holds this one (each journal has one writer)."""
        from core.journal import Journal, JournalLocked

        for candidate in sibling_journals(self.journal_path):
            probe = Journal(candidate)
            try:
                probe.lock()
            except JournalLocked:
                continue
            except OSError:
                return  # reported when the session opens
            probe.unlock()
            if candidate != self.journal_path:
                self.notify(
                    f"the journal {self.journal_path} is in use by another smithtui window; "
                    f"this window journals to {candidate}",
                    severity="warning",
                    markup=False,
                    timeout=10,
                )
                self.journal_path = candidate
            return

    def _start_curation(self) -> None:
        self._free_journal()
        try:
            self.previous = previous_session(self.journal_path)
        except OSError as exc:
            self.notify(f"cannot read the journal: {exc}", severity="error", markup=False)
            self.previous = None
        if self.previous is None or not self.previous.restorable or self.restore_policy == "never":
            self._open_session(False)
        elif self.restore_policy == "always":
            self._open_session(True)
        else:
            from smithtui.widgets.dialogs import ConfirmScreen

            self.push_screen(
                ConfirmScreen("Restore the previous session?", self.previous.describe(), id="restore-dialog"),
                self._open_session,
            )

    def _open_session(self, restore: bool | None) -> None:
        try:
            self.curation, where = open_session(self.journal_path, restore=bool(restore))
            if where != self.journal_path:  # another window took it meanwhile
                self.notify(f"the journal is in use by another window; this one journals to {where}", markup=False)
                self.journal_path = where
        except JournalInUse as exc:
            self.notify(f"{exc.message} (hint: {exc.hint})", severity="error", markup=False, timeout=10)
            fallback = Path(tempfile.mkdtemp(prefix="smithtui-")) / "journal.jsonl"
            self.journal_path = fallback
            self.curation = CurationSession.open(fallback, restore=False)
        except (CurationError, OSError) as exc:
            fallback = Path(tempfile.mkdtemp(prefix="smithtui-")) / "journal.jsonl"
            self.notify(
                f"journal unavailable ({exc}); decisions go to {fallback} for this session",
                severity="error",
                markup=False,
                timeout=10,
            )
            self.journal_path = fallback
            self.curation = CurationSession.open(fallback, restore=False)
        if restore and self.curation.basket:
            self.notify(f"restored {len(self.curation.basket)} foil(s) in the basket", markup=False)
        self.basket_changed()
        if restore:
            self.rescore_unscored()
        if restore and self.previous is not None and self.previous.last_input:
            with contextlib.suppress(Exception):
                self.get_screen_for_mode("workbench").restore_input(self.previous.last_input)

    def _load_state(self) -> dict[str, Any]:
        """``ui-state.json`` next to the journal (an unreadable or foreign file counts as empty)."""
        import json

        try:
            state = json.loads(self.state_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return state if isinstance(state, dict) else {}

    def _save_state(self, what: str) -> None:
        """Write the UI state atomically; a failure is a warning (``what`` is not kept for the next start)."""
        from core.textio import atomic_write_json

        try:
            state: dict[str, Any] = {"models": list(self.models)} if self._models_chosen else {}
            atomic_write_json(self.state_path, {**state, "last_paths": dict(self.last_paths)})
        except (OSError, SmithError) as exc:
            self.notify(f"{what} is not kept for the next start: {exc}", severity="warning", markup=False)

    def set_models(self, models: Sequence[str]) -> None:
        """The embedding models the workbench and Compare score with: shared, and kept for the next start."""
        models = tuple(models)
        if models == self.models:
            return
        self.models, self._models_chosen = models, True
        self._save_state("the model choice")
        for mode in ("workbench", "compare"):
            with contextlib.suppress(LookupError):
                self.get_screen_for_mode(mode).post_message(self.ModelsChanged())

    def remember_path(self, kind: str, path: str) -> None:
        """The last path given to a file prompt of ``kind``, offered again there, also after a restart."""
        import os

        full = os.path.abspath(os.path.expanduser(path.strip()))
        if not path.strip() or self.last_paths.get(kind) == full:
            return
        self.last_paths[kind] = full
        self._save_state("the last path")

    def cancel_jobs(self) -> list[str]:
        """Ask every running job (crafting, Compare, Variation, CLSD) to stop; returns their screens' names."""
        stopped = []
        for mode, stack in self._screen_stacks.items():
            if not stack:
                continue
            screen = stack[0]
            event = getattr(screen, "_cancel", None)
            flag = next((name for name in ("busy", "running") if hasattr(screen, name)), None)
            running = getattr(screen, flag) if flag else event is not None  # a JobScreen holds one while running
            if running and event is not None and not event.is_set():
                event.set()
                stopped.append(mode)
        return stopped

    async def action_quit(self) -> None:
        """Quit, cancelling running jobs first and saying so (the CLI prints it when the terminal is back).

        Foils decided before their scores arrived get up to :data:`QUIT_SCORING_WAIT` seconds to be
        completed; those still unscored stay ``scored: false`` in the journal and are re-scored at the
        next start (restore).
        """
        stopped = self.cancel_jobs()
        notes = [f"quit cancelled the running job(s) on: {', '.join(stopped)}"] if stopped else []
        curation = self.curation
        if curation is not None and curation.pending:
            import asyncio
            import time

            self.notify(f"waiting for {curation.pending} decided foil(s) to be scored…", markup=False)
            deadline = time.monotonic() + QUIT_SCORING_WAIT
            while curation.pending and time.monotonic() < deadline and self._scoring_workers():
                await asyncio.sleep(0.05)  # the workbench completes them as their scores arrive
            if curation.pending:
                notes.append(
                    f"{curation.pending} foil(s) in the basket are not scored yet (scored: false in the journal); "
                    "they are re-scored when you restore this session"
                )
        self.quit_note = "\n".join(f"smithtui: {n}" for n in notes)
        self.exit()

    def _scoring_workers(self) -> bool:
        return any(w.group == "complete" and not w.is_finished for w in self.workers)

    def rescore_unscored(self) -> None:
        """Re-score the restored basket's foils that the last session left unscored (in a worker)."""
        curation = self.curation
        records = curation.unscored() if curation is not None else []
        if records:
            self.notify(f"re-scoring {len(records)} foil(s) the last session left unscored", markup=False)
            self.rescore_worker(records)

    @work(thread=True, group="complete", exit_on_error=False)
    def rescore_worker(self, records: list[dict[str, Any]]) -> None:
        from core.curation import rescore_record

        for record in records:
            try:
                done = rescore_record(self.backends.pipeline(), record, self.backends.embedder)
            except SmithError as exc:
                self.post_message(self.Rescored(record, f"{exc.message} ({exc.hint})" if exc.hint else exc.message))
            except Exception as exc:  # a backend failure: the foil stays marked unscored
                self.post_message(self.Rescored(record, f"{type(exc).__name__}: {exc}"))
            else:
                self.post_message(self.Rescored(done))

    def on_smith_app_rescored(self, message: Rescored) -> None:
        curation = self.curation
        if curation is None:
            return
        record = message.record
        if message.error:
            record = {**record, "rescore_error": message.error}
            self.notify(f"cannot re-score “{record.get('foil')}”: {message.error}", severity="warning", markup=False)
        try:
            curation.complete(record)
        except SmithError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.basket_changed()

    def get_screen_for_mode(self, mode: str) -> Any:
        stack = self._screen_stacks.get(mode) or []
        if not stack:
            raise LookupError(mode)
        return stack[0]

    @work(thread=True, group="warm", exit_on_error=False)
    def warm_up(self) -> None:
        """Load the parser, generator, validators and the configured embedders in the background."""
        from smithtui.screens.workbench import BackendStatus

        def say(name: str, state: str, detail: str = "") -> None:
            self.post_message(BackendStatus(name, state, detail))

        steps = (
            ("pipeline", lambda: (self.backends.warm_pipeline(), self.backends.provenance())),
            ("validators", lambda: self.backends.pipeline().validators),
        )
        for name, step in steps:
            say(name, "loading")
            try:
                step()
                say(name, "ready")
            except SmithError as exc:
                say(name, "error", str(exc))
            except Exception as exc:  # the app stays usable; generation will report it again
                say(name, "error", f"{type(exc).__name__}: {exc}")
        for name in self.settings.models.embedders:
            say(name, "loading")
            try:
                self.backends.embedder(name)
                say(name, "ready")
            except SmithError as exc:
                say(name, "error", str(exc))
            except Exception as exc:
                say(name, "error", f"{type(exc).__name__}: {exc}")

    def on_backend_status(self, message: Any) -> None:
        """Record model loading news and show it on the workbench's status line."""
        self.backend_state[message.name] = (message.state, message.detail)
        if message.state == "error":
            self.notify(f"{message.name}: {message.detail}", severity="warning", markup=False, timeout=8)
        with contextlib.suppress(LookupError):
            self.get_screen_for_mode("workbench").refresh_status()

    # -- curation -------------------------------------------------------------
    def basket_changed(self) -> None:
        for mode in ("workbench", "basket", "compare"):
            with contextlib.suppress(LookupError):
                self.get_screen_for_mode(mode).post_message(self.BasketChanged())

    def undo_decision(self, here: str | None = None) -> dict[str, Any] | None:
        """Undo the latest decision and say what it was.

        ``here`` is the sentence on screen: a decision on another sentence is undone
        only by a second press, after a warning naming it. Returns what was undone.
        """
        from smithtui.widgets.render import clip

        curation = self.require_curation()
        if curation is None:
            return None
        last = curation.peek_undo()
        if last is None:
            self.notify("nothing to undo")
            return None
        record = last["record"]
        what = f"the {last['action']} of “{record.get('foil')}” ({record.get('rule') or '?'})"
        source = str(record.get("source") or "")
        elsewhere = here is not None and source != here
        if elsewhere and self.undo_armed != last["seq"]:
            self.undo_armed = last["seq"]
            self.notify(
                f"the last decision was on an earlier sentence (“{clip(source, 50)}”): press u again to undo {what}",
                severity="warning",
                markup=False,
            )
            return None
        self.undo_armed = None
        try:
            undone = curation.undo()
        except SmithError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return None
        self.notify(f"undid {what}" + (f" on the earlier sentence “{clip(source, 50)}”" if elsewhere else ""), markup=False)
        self.basket_changed()
        return undone

    def require_curation(self) -> CurationSession | None:
        if self.curation is None:
            self.notify("the session is not open yet (answer the restore question first)", severity="warning")
        return self.curation

    def action_export_basket(self) -> None:
        from smithtui.widgets.dialogs import PromptScreen

        curation = self.require_curation()
        if curation is None:
            return
        if not curation.basket:
            self.notify("the basket is empty: accept some foils first (a)", severity="warning")
            return
        hint = ".jsonl (full records), .csv (SentenceSmith layout) or .parquet; written atomically"
        if curation.pending:
            hint = f"{curation.pending} foil(s) are still being scored: their verdicts would be empty. " + hint
        self.push_screen(
            PromptScreen(
                f"Export {len(curation.basket)} foil(s) to",
                "smith-basket.jsonl",
                hint=hint,
                path_kind="export",
                id="export-dialog",
            ),
            self._export_to,
        )

    def _export_to(self, path: str | None) -> None:
        if not path or not path.strip() or self.curation is None:
            return
        if self.curation.pending:
            self.notify(
                f"{self.curation.pending} foil(s) exported before their scores arrived (marked pending in the file)",
                severity="warning",
                markup=False,
            )
        self.export_worker(list(self.curation.basket), path.strip())

    @work(thread=True, group="export", exit_on_error=False)
    def export_worker(self, records: list[dict[str, Any]], path: str) -> None:
        try:
            self.post_message(self.ExportDone(export_records(records, path)))
        except SmithError as exc:
            self.post_message(self.ExportFailed(exc.message, exc.hint))
        except Exception as exc:
            self.post_message(self.ExportFailed(f"{type(exc).__name__}: {exc}"))

    def on_smith_app_export_done(self, message: ExportDone) -> None:
        result = message.result
        if self.curation is not None:
            self.curation.note_export(result)
        self.notify(f"exported {result.count} foil(s) as {result.format} to {result.path}", markup=False)
        self.basket_changed()

    def on_smith_app_export_failed(self, message: ExportFailed) -> None:
        text = message.error + (f"\nhint: {message.hint}" if message.hint else "")
        self.notify(text, title="export failed", severity="error", markup=False, timeout=10)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Last line of defence: a worker that died of an unexpected error is reported, not fatal."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            err = event.worker.error
            self.notify(f"{event.worker.name}: {type(err).__name__}: {err}", severity="error", markup=False)

    def on_unmount(self) -> None:
        if self.curation is not None:
            self.curation.close()

    # -- help and the command palette ------------------------------------------
    def action_help(self) -> None:
        from smithtui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def effective_key(self, binding: Binding) -> str:
        return self.key_overrides.get(binding.id or "", binding.key) if binding.id else binding.key

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        seen: set[str] = set()
        for _key, active in screen.active_bindings.items():
            binding = active.binding
            if not binding.description or binding.system or not active.enabled:
                continue
            title = binding.description
            if title in seen or binding.action in ("quit", "help_quit", "command_palette"):
                continue
            seen.add(title)
            yield SystemCommand(
                title,
                f"key: {self.get_key_display(binding)}",
                partial(self.call_later, self.run_action, binding.action, active.node),
            )
        for mode in ("workbench", "compare", "basket", *self.optional_screens):
            yield SystemCommand(f"Go to the {mode} screen", "switch screen", partial(self.action_show, mode))
        yield SystemCommand("Load sentences from a file…", "txt, CSV, TSV or JSONL", self._palette_load_sentences)
        yield SystemCommand("Load triples for Compare…", "foil JSONL or SentenceSmith CSV", self._palette_load_triples)
        for n, (sentence, _) in enumerate(self.samples[:40]):
            yield SystemCommand(f"Sample: {sentence}", "put it in the workbench", partial(self._use_sample, n), False)

    def _palette_load_sentences(self) -> None:
        self.action_show("workbench")
        self.call_later(lambda: self.get_screen_for_mode("workbench").action_load_sentences())

    def _palette_load_triples(self) -> None:
        self.action_show("compare")
        self.call_later(lambda: self.get_screen_for_mode("compare").action_load_triples())

    def _use_sample(self, n: int) -> None:
        self.action_show("workbench")
        self.call_later(lambda: self.get_screen_for_mode("workbench").use_sample(n))


def state_models(state: Mapping[str, Any]) -> tuple[str, ...]:
    """The model choice in a UI state (empty when missing or malformed).

    >>> state_models({"models": ["bow", "minilm"]}), state_models({"models": "bow"})
    (('bow', 'minilm'), ())
    """
    value = state.get("models")
    ok = isinstance(value, list) and all(isinstance(m, str) for m in value)
    return tuple(value) if ok else ()


def state_paths(state: Mapping[str, Any]) -> dict[str, str]:
    """The last path per file prompt in a UI state (entries that are not text are dropped).

    >>> state_paths({"last_paths": {"export": "/tmp/a.csv", "bad": 3}}), state_paths({})
    ({'export': '/tmp/a.csv'}, {})
    """
    value = state.get("last_paths")
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str) and v}


def all_binding_ids() -> dict[str, Binding]:
    """Every rebindable action id (``app.help``, ``workbench.accept``, ...) with its binding."""
    from smithtui.screens.basket import BasketScreen
    from smithtui.screens.compare import CompareScreen
    from smithtui.screens.workbench import WorkbenchScreen
    from smithtui.widgets.dialogs import ConfirmScreen, ModelPickerScreen, PromptScreen

    out: dict[str, Binding] = {}
    for owner in (SmithApp, WorkbenchScreen, CompareScreen, BasketScreen, PromptScreen, ConfirmScreen, ModelPickerScreen):
        for b in owner.BINDINGS:
            if isinstance(b, Binding) and b.id:
                out.setdefault(b.id, b)
    return out


def resolve_key_overrides(keys: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """Map ``ui.keys`` entries to binding ids; a short name (``accept``) works when it is unique.

    Returns the keymap and the names that matched no action.
    """
    if not keys:
        return {}, []
    ids = all_binding_ids()
    by_short: dict[str, list[str]] = {}
    for full in ids:
        by_short.setdefault(full.split(".", 1)[-1], []).append(full)
    keymap: dict[str, str] = {}
    unknown: list[str] = []
    for name, key in keys.items():
        if name in ids:
            keymap[name] = str(key)
        elif len(by_short.get(name, [])) == 1:
            keymap[by_short[name][0]] = str(key)
        else:
            unknown.append(name)
    return keymap, unknown


def make_app(settings: Settings | None = None, **overrides: Any) -> SmithApp:
    """Build the workbench app; the one way the CLI, tests and benchmarks get it.

    Overrides: ``pipeline`` (a ready FoilPipeline), ``embedders`` (``{name: embedder}``
    already loaded), ``backends`` (a :class:`Backends`), ``journal`` (path), ``restore``
    (``"ask"`` | ``"always"`` | ``"never"``), ``samples`` (``[(sentence, paraphrase)]``),
    ``warm`` (load models in the background at start, default True), ``on_first_frame``,
    ``optional_screens`` (``{mode: (module, class)}``; default: variation and CLSD when installed).
    """
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never wait on the model hub; set it to 0 to allow downloads
    os.environ.setdefault("TQDM_DISABLE", "1")  # progress bars of model loaders would scribble on the screen
    settings = settings or Settings()
    backends = overrides.pop("backends", None) or Backends(
        settings, pipeline=overrides.pop("pipeline", None), embedders=overrides.pop("embedders", None)
    )
    overrides.pop("pipeline", None)
    overrides.pop("embedders", None)
    restore = overrides.get("restore", "ask")
    if restore not in ("ask", "always", "never"):
        raise SmithError(f"restore must be ask, always or never, not {restore!r}")
    return SmithApp(settings, backends=backends, **overrides)
