"""Unbracketed pastes: a burst of printable keys, faster than anyone types, is text, not commands.

A terminal without bracketed paste (or tmux, or a serial line) sends pasted text as one key
event per character, all parsed from one read, so their creation times lie microseconds apart;
a person's fastest keystrokes (key repeat included) are 30 ms or more apart. When such a burst
lands on a pane (the candidates table, the graph, the basket) its letters must not fire the pane's
bindings (``e`` would open the edit dialog, ``a`` accept a foil): the app routes it to the
sentence box where there is one, and drops it with a notice elsewhere.

The first key of a burst is recognised by the keys already queued behind it; the next ones by
their gap to the previous key of the burst. The price: keys a person types very fast over a slow
link can arrive batched like a paste, and are then typed into the sentence box instead of run
(a notice says so). One exception keeps ``iHello`` working: a burst that starts with the
focus-the-sentence key (``i``) lets it focus the box, and the rest is typed there.

>>> from textual import events
>>> keys = [events.Key(c, c) for c in "every"]
>>> for n, k in enumerate(keys):
...     k.time = 1.0 + n * 0.001
>>> guard = BurstGuard()
>>> [guard.in_burst(k, keys[n + 1 :]) for n, k in enumerate(keys)]
[True, True, True, True, True]
>>> slow = events.Key("a", "a"); slow.time = 2.0
>>> guard.in_burst(slow, [])
False
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual import events

BURST_GAP = 0.010  # seconds between two keys of one burst (a person's fastest are ~30 ms apart)
MIN_BURST = 3  # printable keys in a row that make a paste (two fast keys may be a lucky roll-over)


def queued_keys(pump: Any) -> list[events.Key]:
    """The key events waiting in a message pump's queue, oldest first.

    Textual's queue (``textual._queue.Queue``) keeps them in a deque, ``values``; a queue without
    one (another Textual version) gives none, and then only the gaps between keys tell a burst.
    """
    queue = getattr(pump, "_message_queue", None)
    values = getattr(queue, "values", None)
    if values is None:
        values = getattr(queue, "_queue", ())  # an asyncio.Queue
    peeked = getattr(pump, "_pending_message", None)  # a message the pump took off the queue to look at
    return [m for m in [peeked, *list(values)] if isinstance(m, events.Key)]


def _texty(event: events.Key) -> bool:
    return event.is_printable or event.key in ("enter", "tab")  # a pasted line break or tab


class BurstGuard:
    """Tells whether a key event belongs to a paste burst (see the module docstring)."""

    def __init__(self, gap: float = BURST_GAP, min_keys: int = MIN_BURST) -> None:
        self.gap, self.min_keys = gap, min_keys
        self.last: float | None = None  # creation time of the burst's latest key; None outside a burst
        self.started = False  # True on the first key of a new burst (for a one-off notice)

    def in_burst(self, event: events.Key, following: Iterable[events.Key]) -> bool:
        """Is ``event`` part of a burst? ``following`` are the key events queued behind it."""
        self.started = False
        if self.last is not None and 0 <= event.time - self.last <= self.gap:
            self.last = event.time
            return True
        self.last = None
        if not event.is_printable:
            return False
        run, previous = 1, event.time
        for key in following:
            if key is event:
                continue
            if not _texty(key) or key.time - previous > self.gap:
                break
            run, previous = run + 1, key.time
        if run < self.min_keys:
            return False
        self.last, self.started = event.time, True
        return True
