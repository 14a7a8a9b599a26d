"""Pure rendering helpers: highlighted foils, score bars, verdict and margin cells.

Every helper returns :class:`rich.text.Text` built from plain strings, so user
text is never read as markup.

>>> highlight_spans("The cat did not sit.", [(8, 15)]).plain
'The cat did not sit.'
>>> bar(0.5, width=4)
'██  '
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.text import Text

CHANGED_STYLE = "bold reverse"
DELETED_STYLE = "underline bold red"
FOOLED_STYLE = "bold red"
SAFE_STYLE = "green"
_BLOCKS = " ▏▎▍▌▋▊▉█"
FOOLED_MARK, INVALID_MARK, REJECTED_MARK, ACCEPTED_MARK = "⚑", "✗", "⊘", "✓"


def highlight_spans(text: str, spans: Iterable[Sequence[int]], style: str = CHANGED_STYLE) -> Text:
    """``text`` with the character ``spans`` styled (out-of-range spans are clipped)."""
    out = Text(text)
    for span in spans:
        start, end = max(0, int(span[0])), min(len(text), int(span[1]))
        if end > start:
            out.stylize(style, start, end)
        elif text:  # a deletion: mark the character where the words were taken out
            at = min(start, len(text) - 1)
            out.stylize(DELETED_STYLE, at, at + 1)
    return out


def bar(value: float, width: int = 8) -> str:
    """A left-aligned block bar for ``value`` in [0, 1] (NaN gives blanks)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return " " * width
    cells = max(0.0, min(1.0, float(value))) * width
    full = int(cells)
    frac = round((cells - full) * 8)
    if frac == 8:
        full, frac = full + 1, 0
    text = "█" * full + (_BLOCKS[frac] if frac and full < width else "")
    return text.ljust(width)


def score_cell(value: float | None, width: int = 8, digits: int = 3) -> Text:
    """``0.812 ██████▌ `` for a metric in [0, 1] (``digits`` decimals, a ``width``-cell bar).

    >>> score_cell(0.5, width=2, digits=2).plain
    '0.50 █ '
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return Text("–".center(digits + 2 + (1 if width > 1 else 0) + width), style="dim")
    sep = " " if width > 1 else ""
    return Text(f"{value:.{digits}f}{sep}") + Text(bar(value, width), style="cyan")


def margin_cell(check: Any) -> Text:
    """A spot-check cell: the margin, flagged ``⚑`` and red when the model is fooled.

    Glyphs mean one thing each: ⚑ fooled (a model), ✗ failed (a validator verdict), ⊘ rejected (a decision).
    """
    if check is None:
        return Text("…", style="dim")
    if getattr(check, "error", None):
        return Text("error", style="yellow")
    margin = float(check.margin)
    if check.fooled:
        return Text(f"{FOOLED_MARK}{margin:+.3f}", style=FOOLED_STYLE)
    return Text(f" {margin:+.3f}", style=SAFE_STYLE)


def fluency_cell(fluency: Mapping[str, Any] | None, threshold: float = -1.0) -> Text:
    """The fluency delta (foil minus source, nats per token): red below ``threshold``; ``…`` until scored.

    >>> fluency_cell({"delta": 0.6435}).plain, fluency_cell({"delta": -2.5}).style, fluency_cell(None).plain
    ('+0.64', 'red', '…')
    >>> fluency_cell({"delta": None, "scorer": "none"}).plain
    '–'
    """
    if fluency is None:
        return Text("…", style="dim")
    delta = fluency.get("delta")
    if delta is None:
        return Text("–", style="dim")
    return Text(f"{float(delta):+.2f}", style="red" if delta < threshold else "")


def verdict_cell(verdict: Any) -> Text:
    """``✓ 0.92`` / ``✗ 0.40`` / ``? n/a`` for one validator verdict (a Verdict or its dict)."""
    if verdict is None:
        return Text("…", style="dim")
    passed = verdict["passed"] if isinstance(verdict, Mapping) else verdict.passed
    score = verdict["score"] if isinstance(verdict, Mapping) else verdict.score
    if passed is None:
        return Text("? n/a", style="yellow")
    mark, style = ("✓", "green") if passed else ("✗", "red")
    return Text(f"{mark} {float(score):.2f}", style=style)


def focus_window(text: str, spans: Sequence[Sequence[int]], width: int) -> Text:
    """The part of ``text`` around its first changed span, at most ``width`` wide, highlighted.

    >>> focus_window("one two three four five six seven", [(14, 18)], 16).plain
    '…hree four five…'
    """
    full = highlight_spans(text, spans)
    if len(text) <= width:
        return full
    start = int(spans[0][0]) if spans else 0
    end = int(spans[0][1]) if spans else 0
    middle = (start + end) // 2
    lo = max(0, min(middle - width // 2, len(text) - width))
    hi = lo + width
    piece = full[lo:hi]
    if lo > 0:
        piece = Text("…") + piece[1:]
    if hi < len(text):
        piece = piece[:-1] + Text("…")
    return piece


def clip(text: str, width: int) -> str:
    """Shorten ``text`` to ``width`` characters with an ellipsis."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"
