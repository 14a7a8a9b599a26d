"""A footer that shows the keys that fit, the screen's own first, and never overflows.

Textual's footer lays every shown binding out in a row; at 80 columns the
workbench's keys spill over the edge as stray characters. :class:`FitFooter`
orders the keys by :data:`RANK` (F1 Help, which lists every key, first; the
screen's own keys such as a, r, u, e, m next; then export and the basket) and
drops from the end what does not fit; the palette key always stays.

>>> key_width("f1", "Help")
8
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

# Which keys go first: help (it lists every key), the screen's own keys (rank 1), exporting and the
# basket, Compare, then the screen's occasional keys and the other screens.
RANK = {"help": 0, "export_basket": 2, "show('basket')": 2, "show('compare')": 3, "next_sample": 4, "load_sentences": 4}
OWN, APP = 1, 5


def key_width(display: str, description: str) -> int:
    """Cells a compact footer key takes: ``key description`` and the one-cell gap after it."""
    return len(display) + len(description) + (2 if description else 1)


def fit(items: Iterable[tuple[Any, int]], room: int) -> list[Any]:
    """Keep items in order while their widths fit in ``room`` (a too-wide item is skipped, later ones may fit).

    >>> fit([("a", 5), ("b", 5), ("c", 5)], 11)
    ['a', 'b']
    """
    kept, used = [], 0
    for item, width in items:
        if used + width <= room:
            kept.append(item)
            used += width
    return kept


class FitFooter(Footer):
    """A compact footer that drops the keys that do not fit (they stay in F1 help and the palette)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("compact", True)
        super().__init__(**kwargs)
        self._laid_out_for = 0

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        active = self.screen.active_bindings
        seen: set[str] = set()
        ranked = []
        for node, binding, enabled, tooltip in active.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            rank = RANK.get(binding.action, APP if node is self.app else OWN)
            ranked.append((rank, len(ranked), (binding, enabled, tooltip)))
        ordered = [item for _, _, item in sorted(ranked, key=lambda r: r[:2])]
        room = (self.size.width or self.app.size.width) - 1
        palette = active.get(self.app.COMMAND_PALETTE_BINDING) if self.show_command_palette else None
        if palette is not None:
            room -= 1 + key_width(self.app.get_key_display(palette[1]), palette[1].description)  # its ▏ edge
        widths = [(b, key_width(self.app.get_key_display(b[0]), b[0].description)) for b in ordered]
        kept = fit(widths, room)
        self.styles.grid_size_columns = len(kept)
        for binding, enabled, tooltip in kept:
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)
        if palette is not None and self.app.ENABLE_COMMAND_PALETTE:
            _node, binding, enabled, _tooltip = palette
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                classes="-command-palette",
                disabled=not enabled,
                tooltip=binding.tooltip or binding.description,
            )
        self._laid_out_for = self.size.width

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._laid_out_for and self._bindings_ready:
            self.call_after_refresh(self.recompose)
