"""The help screen: every key binding, per screen, with its rebindable id (``ui.keys``)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from smithtui.widgets.footer import FitFooter

INTRO = """\
SentenceSmith Workbench: everything works from the keyboard. ctrl+p opens the command palette (every action, loading files, the sample sentences).

Workbench: type a sentence (and, optionally, a paraphrase); Enter crafts every applicable foil. Each model column shows margin = sim(s, reference) - sim(s, foil). A red ⚑ means the model is fooled: sim(s, foil) >= sim(s, paraphrase), or, without a paraphrase, >= sim(s, s), i.e. it cannot tell the foil from the original. ✗ is a failed validator verdict, ⊘ a rejected foil, ✓ an accepted one (or a passed verdict), ✎ a hand edit. Decisions are journaled at once (fsynced); a session that was not closed is offered back at the next start. Below 100 columns the graph pane folds away: g shows it, t and l jump into it.

Rebind keys in the [ui.keys] table of smithtui.toml, by id or by a unique short name:
    [ui.keys]
    accept = "y"                # same as "workbench.accept" = "y"
"""

SECTIONS = (
    ("Everywhere", "smithtui.app", "SmithApp"),
    ("Workbench (F2)", "smithtui.screens.workbench", "WorkbenchScreen"),
    ("Compare (F3)", "smithtui.screens.compare", "CompareScreen"),
    ("Basket (F4)", "smithtui.screens.basket", "BasketScreen"),
    ("Dialogs", "smithtui.widgets.dialogs", "PromptScreen,ConfirmScreen,ModelPickerScreen"),
)


class HelpScreen(ModalScreen[None]):
    """Key bindings for every screen (Escape or F1 closes it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q", "dismiss", "Close", id="help.close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body", classes="dialog wide"):
            yield Static(Text(INTRO), id="help-intro")
            yield Static(self._table(), id="help-keys")
        yield FitFooter()

    def _table(self) -> Text:
        import importlib

        out = Text()
        app = self.app
        sections = list(SECTIONS)
        for mode, (module_name, class_name) in getattr(app, "optional_screens", {}).items():
            sections.append((mode.capitalize(), module_name, class_name))
        seen: set[str] = set()
        for title, module_name, class_name in sections:
            try:
                module = importlib.import_module(module_name)
                bindings = [b for name in class_name.split(",") for b in getattr(module, name).BINDINGS]
            except Exception:
                continue
            out.append(f"\n{title}\n", style="bold underline")
            for binding in bindings:
                if not isinstance(binding, Binding) or not binding.description:
                    continue
                if binding.action.startswith("show(") and app.check_action("show", (binding.action[6:-2],)) is False:
                    continue  # a screen that is not installed
                if binding.id and binding.id in seen:
                    continue
                if binding.id:
                    seen.add(binding.id)
                key = app.effective_key(binding) if hasattr(app, "effective_key") else binding.key
                out.append(f"  {key:<16}", style="bold cyan")
                out.append(f"{binding.description:<22}")
                out.append(f"{binding.id or ''}\n", style="dim")
        if title_note := getattr(app, "unknown_keys", None):
            out.append(f"\nIgnored ui.keys entries: {', '.join(title_note)}\n", style="yellow")
        return out

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
