"""The source sentence with some of its tokens highlighted (the selected node's words)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.widgets import Static


def tokens_text(text: str, tokens: Any, highlight: Iterable[int], style: str = "bold reverse") -> Text:
    """``text`` with the character ranges of the ``highlight`` token indices styled."""
    out = Text(text)
    toks = tuple(tokens or ())
    for i in highlight:
        if 0 <= i < len(toks):
            start = toks[i].idx
            out.stylize(style, start, start + len(toks[i].text))
    return out


class SentenceView(Static):
    """Shows the parsed sentence; :meth:`highlight` marks the words a graph node stands for."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("", style="dim"), id=id)
        self._parsed: Any = None

    def show(self, parsed: Any) -> None:
        self._parsed = parsed
        self.update(Text(parsed.text) if parsed is not None else Text(""))

    def highlight(self, var: str | None) -> None:
        if self._parsed is None:
            return
        idx = (getattr(self._parsed, "alignment", {}) or {}).get(var, ()) if var else ()
        self.update(tokens_text(self._parsed.text, self._parsed.tokens, idx))

    def message(self, text: str, style: str = "yellow") -> None:
        self._parsed = None
        self.update(Text(text, style=style))
