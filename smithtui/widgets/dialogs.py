"""Modal dialogs: a one-line prompt, a yes/no question, a model picker. All keyboard driven.

A prompt for a file path completes it as you type (the grey suggestion; Tab or → takes it)
and starts from the last path given for the same purpose (kept across restarts by the app).

>>> import tempfile, pathlib, asyncio
>>> d = pathlib.Path(tempfile.mkdtemp()); (d / "foils.jsonl").write_text("")
0
>>> asyncio.run(PathSuggester().get_suggestion(str(d / "fo"))) == str(d / "foils.jsonl")
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Label, SelectionList, Static
from textual.widgets.selection_list import Selection

from smithtui.widgets.footer import FitFooter


class PathSuggester(Suggester):
    """Completes a file path: the unique continuation of what is typed (or the common prefix of several)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        typed = Path(os.path.expanduser(value))
        folder, stem = (typed, "") if value.endswith(os.sep) else (typed.parent, typed.name)
        try:
            names = sorted(e.name for e in os.scandir(folder) if e.name.startswith(stem))
        except OSError:
            return None
        if not stem.startswith("."):
            names = [n for n in names if not n.startswith(".")]
        if not names:
            return None
        common = os.path.commonprefix(names)  # noqa: RUF071 -- the common start of names, by character
        if len(common) <= len(stem):
            return None
        rest = common[len(stem) :]
        if len(names) == 1 and (folder / common).is_dir():
            rest += os.sep
        return value + rest


class PromptScreen(ModalScreen[str | None]):
    """Ask for one line of text (a file path, an edited foil); Enter confirms, Escape cancels.

    ``path_kind`` makes it a file prompt: path completion, and the last path of that kind as its value.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
        Binding("tab", "complete", "Complete path", show=False, priority=True),
    ]

    def __init__(
        self,
        title: str,
        value: str = "",
        *,
        placeholder: str = "",
        hint: str = "",
        path_kind: str | None = None,
        id: str | None = None,
    ):
        super().__init__(id=id)
        self._path_kind = path_kind
        self._title, self._value, self._placeholder, self._hint = title, value, placeholder, hint

    def _last_paths(self) -> dict[str, str]:
        """The app's last path per purpose ("export", "sentences", ...), kept across restarts."""
        return getattr(self.app, "last_paths", {})

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self._title, style="bold"))
            yield Input(
                self._last_paths().get(self._path_kind or "", "") or self._value,
                placeholder=self._placeholder,
                id="prompt-input",
                suggester=PathSuggester() if self._path_kind else None,
            )
            yield Static(Text(self._hint, style="dim"), id="prompt-hint")
            yield Static("", id="prompt-error", classes="error")
        yield FitFooter()

    def on_mount(self) -> None:
        self.query_one("#prompt-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._path_kind and event.value.strip():
            remember = getattr(self.app, "remember_path", None)
            if remember is not None:
                remember(self._path_kind, event.value)  # persisted with the UI state
            else:
                self._last_paths()[self._path_kind] = event.value.strip()
        self.dismiss(event.value)

    def action_complete(self) -> None:
        """Tab takes the path suggestion (a prompt without one keeps Tab as is)."""
        box = self.query_one("#prompt-input", Input)
        if box._suggestion and len(box._suggestion) > len(box.value):
            box.value = box._suggestion
            box.cursor_position = len(box.value)

    def show_error(self, message: str) -> None:
        self.query_one("#prompt-error", Static).update(Text(message, style="red"))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question answered with ``y`` or ``n`` (Escape means no)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="dialog.yes"),
        Binding("n", "answer(False)", "No", id="dialog.no"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str, detail: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._question, self._detail = question, detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self._question, style="bold"))
            if self._detail:
                yield Static(Text(self._detail))
            yield Static(Text("y: yes   n: no", style="dim"))
        yield FitFooter()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class ModelPickerScreen(ModalScreen[tuple[str, ...] | None]):
    """Choose embedding models from the registry; unusable ones are shown, with why, but cannot be picked."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Apply", id="dialog.apply"),
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
    ]

    def __init__(self, specs: Sequence[Any], selected: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._specs, self._selected = list(specs), set(selected)

    def compose(self) -> ComposeResult:
        items = []
        for spec in self._specs:
            label = Text()
            label.append(f"{spec.name:<12}", style="bold")
            label.append(f" {getattr(spec, 'model_id', '')} ")
            if getattr(spec, "usable", True):
                label.append("offline ✓", style="green")
            else:
                label.append(f"unavailable: {getattr(spec, 'why_not', '') or 'not installed'}", style="yellow")
            items.append(
                Selection(
                    label,
                    spec.name,
                    spec.name in self._selected and getattr(spec, "usable", True),
                    disabled=not getattr(spec, "usable", True),
                )
            )
        with Vertical(classes="dialog wide"):
            yield Label(Text("Embedding models (space: toggle, ctrl+s: apply, escape: cancel)", style="bold"))
            yield SelectionList[str](*items, id="model-list")
        yield FitFooter()

    def on_mount(self) -> None:
        self.query_one("#model-list", SelectionList).focus()

    def action_apply(self) -> None:
        chosen = self.query_one("#model-list", SelectionList).selected
        order = [s.name for s in self._specs]
        self.dismiss(tuple(sorted(chosen, key=order.index)))

    def action_cancel(self) -> None:
        self.dismiss(None)
