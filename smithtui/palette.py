"""The command palette (ctrl+p): every shown key of the screen, the screens, file loaders and the samples.

:class:`PaletteCommands` is a mixin of :class:`smithtui.app.SmithApp` (before ``App``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from textual.app import SystemCommand
from textual.screen import Screen


class PaletteCommands:
    """``get_system_commands`` for :class:`smithtui.app.SmithApp`."""

    optional_screens: dict[str, tuple[str, str]]
    samples: list[tuple[str, str]]

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
