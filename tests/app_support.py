"""Helpers for the app tests: real backends loaded once per test process, apps on temporary journals."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen

from core.config import Settings, apply_overrides
from smithtui.app import Backends, SmithApp, make_app

MODELS = ("bow", "tfidf", "minilm")
SENTENCE = "The young doctor quickly treated the injured boy."
PARAPHRASE = "The injured boy was quickly treated by the young doctor."


def settings_for(models: Sequence[str] = MODELS, **extra: Any) -> Settings:
    return apply_overrides(Settings(), {"models.embedders": ",".join(models), **extra})


@functools.cache
def loaded_backends(models: tuple[str, ...] = MODELS) -> Backends:
    """spaCy parser, WordNet rules, realizer, round-trip validator and the embedders, loaded once."""
    backends = Backends(settings_for(models))
    backends.warm_pipeline()
    _ = backends.pipeline().validators
    backends.provenance()
    for name in models:
        backends.embedder(name)
    return backends


def app_for(
    tmp_path: Path, models: Sequence[str] = MODELS, *, restore: str = "never", journal: Path | None = None, **kw: Any
) -> SmithApp:
    """An app with the shared real backends, a journal in ``tmp_path`` and no background warm-up."""
    settings = kw.pop("settings", None) or settings_for(models)
    backends = loaded_backends(tuple(MODELS))
    shared = Backends(settings, pipeline=backends.pipeline(), embedders={m: backends.embedder(m) for m in MODELS})
    shared._provenance = backends.provenance()
    kw.setdefault("optional_screens", {})
    return make_app(
        settings, backends=shared, journal=journal or tmp_path / "journal.jsonl", restore=restore, warm=False, **kw
    )


async def settle(app: SmithApp, pilot: Any, rounds: int = 4) -> None:
    """Wait for every worker, then let the posted messages be handled."""
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def type_text(pilot: Any, text: str) -> None:
    await pilot.press(*["space" if ch == " " else ch for ch in text])


async def craft(app: SmithApp, pilot: Any, sentence: str = SENTENCE, paraphrase: str = "") -> Any:
    """Type a sentence (and paraphrase) on the workbench, press Enter and wait for every column."""
    screen = app.screen
    screen.query_one("#sentence").focus()
    screen.query_one("#sentence").value = ""
    await type_text(pilot, sentence)
    screen.query_one("#paraphrase").value = paraphrase
    await pilot.press("enter")
    await settle(app, pilot)
    return screen


def notices(app: SmithApp, severity: str | None = None) -> list[str]:
    return [f"{title} {msg}".strip() for sev, title, msg in app.notices if severity is None or sev == severity]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def decide(pilot: Any, screen: Any, keys: str) -> list[str]:
    """Press each decision key (a/r) on successive realized foils (failed realizations skipped).

    Returns the foil texts decided on, in order.
    """
    from textual.widgets import DataTable

    table = screen.query_one("#candidates", DataTable)
    table.focus()
    realized = [n for n in range(table.row_count) if not screen.rows[int(table.coordinate_to_cell_key((n, 0)).row_key.value)].error]
    texts = []
    for key, row in zip(keys, realized, strict=False):
        table.move_cursor(row=row)
        await pilot.pause()
        texts.append(screen.current_row().text)
        await pilot.press(key)
    return texts


class Host(App):
    """A bare app showing one screen: a screen tested on its own, without the workbench and its backends."""

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        self._screen = screen

    def on_mount(self) -> None:
        self.push_screen(self._screen)


async def wait_until(
    pilot: Any, predicate: Callable[[], Any], timeout: float = 120.0, describe: Callable[[], str] | None = None
) -> None:
    """Pause until ``predicate()`` holds (a worker finished, a status changed); fail after ``timeout`` seconds,
    saying ``describe()`` (the screen's status line, say)."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError("timed out waiting for the worker" + (f": {describe()}" if describe else ""))
        await pilot.pause(0.05)
