"""A screen that runs one long job in a thread worker, with Run/Cancel buttons, a progress bar and a status line.

The Variation and CLSD screens share this plumbing. A subclass sets :attr:`JobScreen.PREFIX` and
yields, in its layout, ``Button`` ``#<prefix>-run`` and ``#<prefix>-cancel``, ``ProgressBar``
``#<prefix>-progress`` and ``Label`` ``#<prefix>-status``. It starts work with :meth:`_start`
(which returns the cancel event to hand to the worker), and its worker wraps the job in
:meth:`_report`, which posts the subclass's ``Finished`` message or :class:`JobScreen.Failed`
(cancelled, a :class:`~core.errors.SmithError` with its hint, or an unexpected error) and never
lets an exception kill the app. While a job runs, :meth:`_stage` names what it is doing (the
stage, the current model) and :meth:`_progress` moves the bar; the status line shows both with
the time left (:class:`core.progress.Eta`): ``ETA 12 s · 96/320 — minilm: embedding 320 texts``;
a job whose counts start again (a stage of its own) gets the ETA of that stage.
The bar stays still (not the indeterminate animation) until a job starts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Label, ProgressBar

from core.errors import CancelledError, SmithError
from core.progress import Eta, progress_line

CANCEL_CHUNK = 32  # texts embedded between two cancel checks in the app: escape stops a job within ~1 s


class JobScreen(Screen):
    """Run/Cancel, progress and status for one job at a time (see the module docstring)."""

    PREFIX: ClassVar[str] = "job"
    PASTE_TARGET: ClassVar[str] = ""  # the text box a paste on a pane goes to (smithtui.keybursts); focused first
    BINDINGS: ClassVar[list[Binding]] = [  # Textual merges these before a subclass's own bindings
        Binding("ctrl+r", "run", "Run"),
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "export_results", "Save results"),  # this screen's results, not the basket
    ]

    @dataclass
    class Failed(Message):
        message: str
        hint: str = ""

    def __init__(self, *, name: str | None = None, id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self._cancel: threading.Event | None = None
        self._eta: Eta | None = None
        self.stage = ""  # what the running job is doing now ("minilm: embedding 320 texts")
        self.counts: tuple[int, int] = (0, 0)  # (done, total) of the running job

    def on_mount(self) -> None:
        if self.PASTE_TARGET:
            self.set_focus(self.query_one(self.PASTE_TARGET))  # a newcomer types the path straight away

    def _widget_id(self, part: str) -> str:
        return f"#{self.PREFIX}-{part}"

    # ----- buttons and actions ---------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == f"{self.PREFIX}-run":
            self.action_run()
        elif event.button.id == f"{self.PREFIX}-cancel":
            self.action_cancel()

    def action_run(self) -> None:  # pragma: no cover - every subclass defines its own
        raise NotImplementedError

    def results_payload(self) -> dict[str, Any] | None:
        """The finished job's results as one JSON document (None before a run finishes); subclasses define it."""
        return None

    def action_export_results(self) -> None:
        from smithtui.widgets.dialogs import PromptScreen

        if self.results_payload() is None:
            self.app.notify("no results to save yet: run a job first (ctrl+r)", severity="warning")
            return
        self.app.push_screen(
            PromptScreen(
                "Save this screen's results to",
                f"smith-{self.PREFIX}-results.json",
                hint="one JSON document, written atomically",
                path_kind=f"{self.PREFIX}-results",
                id="export-results-dialog",
            ),
            self._export_results_to,
        )

    def _export_results_to(self, path: str | None) -> None:
        from core.textio import atomic_write_json

        payload = self.results_payload()
        if not path or not path.strip() or payload is None:
            return
        target = Path(path.strip()).expanduser()
        try:
            if target.is_dir():
                raise SmithError(f"{target} is a folder", hint="name a file, e.g. results.json")
            atomic_write_json(target, payload)
        except SmithError as exc:
            self.app.notify(f"{exc.message} (hint: {exc.hint})", title="not saved", severity="error", markup=False)
            return
        except OSError as exc:
            self.app.notify(f"cannot write {target}: {exc.strerror or exc}", title="not saved", severity="error", markup=False)
            return
        self.app.notify(f"saved the results to {target}", markup=False)

    @property
    def running(self) -> bool:
        return self._cancel is not None

    def action_cancel(self) -> None:
        """Stop the job: the screen is idle at once; the worker stops at its next check (within one batch)."""
        if self._cancel is not None and not self._cancel.is_set():
            self._cancel.set()
            self._done()
            self.query_one(self._widget_id("progress"), ProgressBar).update(total=1, progress=0)
            self._status("cancelled")

    # ----- the job ---------------------------------------------------------------------------------

    def _start(self, status: str) -> threading.Event:
        """Disable Run, enable Cancel, reset the progress bar; the event the worker checks to cancel."""
        self._cancel = threading.Event()
        self.query_one(self._widget_id("run"), Button).disabled = True
        self.query_one(self._widget_id("cancel"), Button).disabled = False
        self.query_one(self._widget_id("progress"), ProgressBar).update(total=None, progress=0)
        self._eta = Eta()
        self.stage, self.counts = status, (0, 0)
        self._status(status)
        return self._cancel

    def _stage(self, text: str) -> None:
        """The job moved on (a stage, a model): shown with the counts and the time left."""
        if self.running:
            self.stage = text
            self._show_progress()

    def _progress(self, done: int, total: int) -> None:
        """Move the bar and refresh the status line (its counts and ETA) from a ``progress(done, total)`` call."""
        if not self.running or not total:
            return
        if total != self.counts[1] or done < self.counts[0]:  # a new count (the next stage): its own ETA
            self._eta = Eta()
        self.counts = (done, total)
        self.query_one(self._widget_id("progress"), ProgressBar).update(total=total, progress=done)
        self._show_progress()

    def progress_text(self) -> str:
        """``ETA … · done/total — stage`` of the running job (:func:`core.progress.progress_line`)."""
        return progress_line(*self.counts, self.stage, self._eta)

    def _show_progress(self) -> None:
        self._status(self.progress_text())

    def _report(self, job: Callable[[], Any], finished: Callable[[Any], Message]) -> None:
        """Run ``job`` (in the worker thread) and post ``finished(result)`` or :class:`JobScreen.Failed`."""
        try:
            result = job()
        except CancelledError:
            self.post_message(JobScreen.Failed("cancelled"))
        except SmithError as exc:
            self.post_message(JobScreen.Failed(exc.message, exc.hint))
        except Exception as exc:  # a bug: show it rather than kill the app
            self.post_message(JobScreen.Failed(f"unexpected error: {type(exc).__name__}: {exc}"))
        else:
            self.post_message(finished(result))

    def on_job_screen_failed(self, msg: Failed) -> None:
        if not self.running:
            return  # the job was cancelled: the screen already said so
        self._done()
        self._status(msg.message + (f" (hint: {msg.hint})" if msg.hint else ""), error=msg.message != "cancelled")

    def _done(self) -> None:
        self.query_one(self._widget_id("run"), Button).disabled = False
        self.query_one(self._widget_id("cancel"), Button).disabled = True
        self._cancel = None
        self._eta = None

    def _status(self, text: str, *, error: bool = False) -> None:
        self.query_one(self._widget_id("status"), Label).update(Text(text, style="bold red" if error else ""))
