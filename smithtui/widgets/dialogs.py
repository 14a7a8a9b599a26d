"""Modal dialogs: a one-line prompt, a yes/no question, a model picker. All keyboard driven."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, SelectionList, Static
from textual.widgets.selection_list import Selection

from smithtui.widgets.footer import FitFooter


class PromptScreen(ModalScreen[str | None]):
    """Ask for one line of text (a file path, an edited foil); Enter confirms, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="dialog.cancel")]

    def __init__(self, title: str, value: str = "", *, placeholder: str = "", hint: str = "", id: str | None = None):
        super().__init__(id=id)
        self._title, self._value, self._placeholder, self._hint = title, value, placeholder, hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self._title, style="bold"))
            yield Input(self._value, placeholder=self._placeholder, id="prompt-input")
            yield Static(Text(self._hint, style="dim"), id="prompt-hint")
            yield Static("", id="prompt-error", classes="error")
        yield FitFooter()

    def on_mount(self) -> None:
        self.query_one("#prompt-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

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
