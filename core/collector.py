"""How the pipeline works with CPython's cyclic garbage collector.

Two measured problems (``bench/foils.py``), two tools:

- **Big load-once resources.** Loading WordNet creates ~440k Python objects and a spaCy pipeline
  ~220k; they live as long as the process, yet every full collection re-scans them (~0.3 s each
  with both loaded). :func:`freeze_loaded` runs one collection right after such a load and moves
  every object alive at that moment to the collector's permanent generation (:func:`gc.freeze`).
  Those objects are still freed by reference counting; they are only no longer scanned for cycles.
- **Allocation-heavy batches.** Enumerating edits, realizing foils and building records allocates
  hundreds of thousands of short-lived objects, and WordNet lookups add synsets that stay cached;
  the allocation counts trigger full collections mid-batch, which cost more than the rules
  themselves. :func:`paused` turns automatic collection off for one batch (nesting and threads
  are counted: the collector comes back on when the last batch ends); the garbage of the batch is
  reclaimed by the next automatic collection.

Set ``SMITH_GC_TUNING=0`` to leave the collector alone (e.g. when the library runs inside a
long-lived service that loads and unloads many models).

>>> import gc
>>> with paused():
...     inside = gc.isenabled()
>>> inside is False or not enabled(), gc.isenabled()
(True, True)
"""

from __future__ import annotations

import gc
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

_LOCK = threading.Lock()
_pauses = 0
_restore = False


def enabled() -> bool:
    """Whether collector tuning is on (``SMITH_GC_TUNING`` unset or not 0/false/no/off)."""
    return os.environ.get("SMITH_GC_TUNING", "1").strip().lower() not in ("0", "false", "no", "off")


def freeze_loaded(resource: str) -> bool:
    """Freeze the objects alive now; call right after loading ``resource``. False when tuning is off."""
    if not enabled():
        return False
    gc.collect()
    gc.freeze()
    log.debug("froze %d objects after loading %s", gc.get_freeze_count(), resource)
    return True


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection inside the block (a no-op when tuning is off or already paused)."""
    global _pauses, _restore
    if not enabled():
        yield
        return
    with _LOCK:
        if _pauses == 0:
            _restore = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _LOCK:
            _pauses -= 1
            if _pauses == 0 and _restore:
                gc.enable()
