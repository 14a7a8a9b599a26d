"""The Textual app: one factory, :func:`make_app`, used by the CLI, the tests and the benchmark.

The app holds the services every screen shares: :class:`~smithtui.backends.Backends` (the foil
pipeline and the embedders, built lazily in worker threads, once) and the curation session (the
basket and its journal: :mod:`smithtui.session`). Heavy libraries are imported only inside workers,
so the first frame appears before any model is loaded. Its key routing and keymap live in
:mod:`smithtui.keys`, its command palette in :mod:`smithtui.palette`.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from core.config import Settings
from core.curation import CurationSession, SessionSummary
from core.errors import SmithError
from smithtui.backends import Backends
from smithtui.keys import KeyRouting, resolve_key_overrides
from smithtui.palette import PaletteCommands
from smithtui.session import CurationMixin

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


class SmithApp(KeyRouting, CurationMixin, PaletteCommands, App[None]):
    """SentenceSmith Workbench."""

    class BackendStatus(Message):
        """A backend started loading, is ready, or failed (``state``: loading | ready | error); posted by
        :meth:`warm_up`, the app's own worker."""

        def __init__(self, name: str, state: str, detail: str = "") -> None:
            super().__init__()
            self.name, self.state, self.detail = name, state, detail

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

    def get_screen_for_mode(self, mode: str) -> Any:
        stack = self._screen_stacks.get(mode) or []
        if not stack:
            raise LookupError(mode)
        return stack[0]

    @work(thread=True, group="warm", exit_on_error=False)
    def warm_up(self) -> None:
        """Load the parser, generator, validators and the configured embedders in the background."""
        def say(name: str, state: str, detail: str = "") -> None:
            self.post_message(self.BackendStatus(name, state, detail))

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

    def on_smith_app_backend_status(self, message: Any) -> None:
        """Record model loading news and show it on the workbench's status line."""
        self.backend_state[message.name] = (message.state, message.detail)
        if message.state == "error":
            self.notify(f"{message.name}: {message.detail}", severity="warning", markup=False, timeout=8)
        with contextlib.suppress(LookupError):
            self.get_screen_for_mode("workbench").refresh_status()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Last line of defence: a worker that died of an unexpected error is reported, not fatal."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            err = event.worker.error
            self.notify(f"{event.worker.name}: {type(err).__name__}: {err}", severity="error", markup=False)

    def on_unmount(self) -> None:
        if self.curation is not None:
            self.curation.close()

    # -- help and keys (the palette: smithtui.palette) --------------------------
    def action_help(self) -> None:
        from smithtui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def effective_key(self, binding: Binding) -> str:
        return self.key_overrides.get(binding.id or "", binding.key) if binding.id else binding.key


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
