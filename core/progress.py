"""Progress callbacks and cancel events, the two hooks every long core function takes.

A long function accepts ``progress: ProgressCallback | None`` (called as
``progress(done, total)``) and ``cancel: threading.Event | None``; it checks
:func:`check_cancel` between items and raises :class:`~core.errors.CancelledError`.

>>> seen = []
>>> report(lambda done, total: seen.append((done, total)), 1, 2)
>>> seen
[(1, 2)]
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from core.errors import CancelledError

ProgressCallback = Callable[[int, int], None]


def report(progress: ProgressCallback | None, done: int, total: int) -> None:
    """Call ``progress`` if one was given."""
    if progress is not None:
        progress(done, total)


def check_cancel(cancel: threading.Event | None) -> None:
    """Raise :class:`CancelledError` when ``cancel`` is set."""
    if cancel is not None and cancel.is_set():
        raise CancelledError("cancelled by the user")
