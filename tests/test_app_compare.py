"""Headless tests of the Compare screen: triples from a file or the basket, real models, errors."""

from __future__ import annotations

import csv
import json
import sys
import time
from pathlib import Path

import pytest
from textual.widgets import DataTable, SelectionList, Static

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_support import (
    PARAPHRASE,
    SENTENCE,
    app_for,
    craft,
    loaded_backends,
    notices,
    run,
    settings_for,
    settle,
    type_text,
)

from core.evaluate.evaluation import evaluate_triples
from core.evaluate.table import table_rows
from core.evaluate.triples import read_triples
from smithtui.screens.compare import CompareScreen

pytestmark = pytest.mark.slow

TRIPLES = [
    ("The dog bit the man.", "The man was bitten by the dog.", "The man bit the dog.", "RS"),
    ("She is happy with the result.", "The result makes her glad.", "She is not happy with the result.", "PN"),
    ("A snake hid under the rock.", "Under the rock, a snake was hiding.", "A reptile hid under the rock.", "HS"),
    ("The old man sold his car.", "His car was sold by the old man.", "The young man sold his car.", "AR"),
    ("The boy kicked the red ball.", "The red ball was kicked by the boy.", "The boy kicked the ball.", "US"),
    ("The teacher praised the pupil.", "The pupil was praised by the teacher.", "The pupil praised the teacher.", "RS"),
]


@pytest.fixture(scope="module", autouse=True)
def backends():
    return loaded_backends()


def write_jsonl(path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as fh:
        for s, p, f, rule in TRIPLES:
            fh.write(json.dumps({"source": s, "paraphrase": p, "foil": f, "rule": rule}) + "\n")
    return path


def write_sentencesmith_csv(path: Path) -> Path:
    names = {"RS": "RS", "PN": "polarity_negation", "HS": "hypernym", "AR": "antonym", "US": "RD"}
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["original_sentence", "modified_sentence", "modification_type", "semantic_relationship", "paraphrase"])
        for s, p, f, rule in TRIPLES:
            w.writerow([s, f, names[rule], "Predicted Relationship: contradiction with 96.28% confidence.", p])
    return path


def compare_app(tmp_path: Path, models=("bow", "tfidf")):
    settings = settings_for(models, **{"models.cache_dir": str(tmp_path / "cache")})
    return app_for(tmp_path, models=models, settings=settings)


async def load_file(app, pilot, path: Path) -> None:
    await pilot.press("ctrl+o")
    await type_text(pilot, str(path))
    await pilot.press("enter")
    await settle(app, pilot)


def results_table(screen: CompareScreen) -> list[list[str]]:
    table = screen.query_one("#results", DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.mark.parametrize("layout", ["jsonl", "sentencesmith-csv"])
def test_compare_on_a_small_triples_file(tmp_path: Path, layout: str) -> None:
    path = (
        write_jsonl(tmp_path / "triples.jsonl")
        if layout == "jsonl"
        else write_sentencesmith_csv(tmp_path / "triples.csv")
    )

    async def scenario() -> None:
        app = compare_app(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("f3")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, CompareScreen)
            assert sorted(screen.selected_models()) == ["bow", "tfidf"]
            await load_file(app, pilot, path)
            info = str(screen.query_one("#source-info", Static).render())
            assert "6 usable triple(s)" in info
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            assert not screen.running
            rows = screen.rows
            assert [r["model"] for r in rows] == sorted([r["model"] for r in rows], key=lambda m: -next(x["hm"] for x in rows if x["model"] == m))
            expected = {m.name: m for m in evaluate_triples(read_triples(path), ["bow", "tfidf"], n_boot=0).models}
            for r in rows:
                assert r["tacc"] == pytest.approx(expected[r["model"]].tacc, abs=1e-6)  # rounded as in the saved JSON
                assert r["auc"] == pytest.approx(expected[r["model"]].auc, abs=1e-6)
                assert r["tacc_RS"] == pytest.approx(expected[r["model"]].per_rule["RS"].tacc, abs=1e-6)
            # the bag of words never separates a role swap
            bow = next(r for r in rows if r["model"] == "bow")
            assert bow["tacc_RS"] == 0.0
            table = results_table(screen)
            assert len(table) == 2 and "█" in "".join(table[0])
            # export the table
            await pilot.press("ctrl+s", "ctrl+u")
            await type_text(pilot, str(tmp_path / "table.csv"))
            await pilot.press("enter")
            await pilot.pause()
        with open(tmp_path / "table.csv", newline="", encoding="utf-8") as fh:
            exported = list(csv.DictReader(fh))
        assert [e["model"] for e in exported] == [r["model"] for r in rows]
        assert float(exported[0]["tacc_RS"]) == pytest.approx(rows[0]["tacc_RS"])
        assert exported[0]["seed"] == "13" and exported[0]["dataset"] == path.stem
        # the columns of `smithtui eval --out-csv` on the same file and seed, in the same order
        from smithtui.cli import main

        cli_csv = tmp_path / "cli.csv"
        assert main(["eval", "--triples", str(path), "--models", "bow,tfidf", "--blind", "none", "--seed", "13",
                     "--n-boot", "0", "--no-cache", "-q", "--out-csv", str(cli_csv)]) == 0  # fmt: skip
        with open(cli_csv, newline="", encoding="utf-8") as fh:
            cli = list(csv.DictReader(fh))
        assert list(cli[0]) == list(exported[0])
        by_model = {r["model"]: r for r in cli}
        for e in exported:
            assert e["tacc"] == by_model[e["model"]]["tacc"] and e["hm"] == by_model[e["model"]]["hm"]

    run(scenario())


def test_compare_on_the_basket_with_minilm(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = compare_app(tmp_path, models=("bow", "minilm"))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await craft(app, pilot, SENTENCE, PARAPHRASE)
            await pilot.press("escape", "a", "a", "a")
            accepted = len(app.curation.basket)
            assert accepted >= 2
            await pilot.press("f3")
            await pilot.pause()
            screen = app.screen
            assert f"{accepted} usable triple(s)" in str(screen.query_one("#source-info", Static).render())
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            assert {r["model"] for r in screen.rows} == {"bow", "minilm"}
            assert all(r["ok"] and 0.0 <= r["tacc"] <= 1.0 for r in screen.rows)
            assert str(screen.query_one("#progress-label", Static).render()) == "done"

    run(scenario())


def test_compare_error_paths_leave_the_app_usable(tmp_path: Path) -> None:
    good = write_jsonl(tmp_path / "triples.jsonl")
    malformed = tmp_path / "broken.csv"
    malformed.write_text('original_sentence,modified_sentence,paraphrase\n"a","b","c","d","e"\n', encoding="utf-8")
    nothing = tmp_path / "empty.jsonl"
    nothing.write_text('{"source": "a", "foil": "b"}\n', encoding="utf-8")

    async def scenario() -> None:
        app = compare_app(tmp_path, models=("bow", "no-such-model"))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("f3")
            await pilot.pause()
            screen = app.screen
            # nothing to run on yet: a message, no worker
            await pilot.press("ctrl+r")
            assert any("no usable triples" in n for n in notices(app, "warning"))
            # an unknown file, a malformed CSV: messages; the source stays what it was
            await load_file(app, pilot, tmp_path / "nope.jsonl")
            assert any("file not found" in n for n in notices(app, "error"))
            await load_file(app, pilot, malformed)
            assert any("more fields than the header" in n for n in notices(app, "error"))
            assert screen.source == "basket"
            # a file with no paraphrases at all
            await load_file(app, pilot, nothing)
            assert any("no paraphrase column" in n for n in notices(app, "error"))
            # a configured model that does not exist: reported in its row, the other still scores
            await load_file(app, pilot, good)
            models = screen.query_one("#compare-models", SelectionList)
            assert "no-such-model" in models.selected
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            by_model = {r["model"]: r for r in screen.rows}
            assert by_model["bow"]["ok"] and "error" not in by_model["bow"]
            assert "unknown embedder" in by_model["no-such-model"]["error"]
            assert "no-such-model" in str(screen.query_one("#compare-note", Static).render())
            assert [c.strip() for c in results_table(screen)[-1][:2]] == ["no-such-m…", "error"]

    run(scenario())


def test_cancel_a_running_evaluation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Real MiniLM, slowed per encode call, so the cancel key always lands mid-run however fast the machine is.
    from core.embed.registry import get_embedder

    minilm = get_embedder("minilm")
    real_encode = minilm.encode

    calls: list[int] = []

    def slow_encode(texts):
        calls.append(len(texts))
        time.sleep(0.5)
        return real_encode(texts)

    monkeypatch.setattr(minilm, "encode", slow_encode)
    path = tmp_path / "many.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for n in range(400):
            fh.write(
                json.dumps(
                    {
                        "source": f"Guest number {n} booked room {n * 7} at the hotel on the hill.",
                        "paraphrase": f"At the hotel on the hill, room {n * 7} was booked by guest {n}.",
                        "foil": f"Guest number {n} did not book room {n * 7} at the hotel on the hill.",
                        "rule": "PN",
                    }
                )
                + "\n"
            )

    async def scenario() -> None:
        app = compare_app(tmp_path, models=("minilm",))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("f3")
            await pilot.pause()
            screen = app.screen
            await load_file(app, pilot, path)
            bar = screen.query_one("#progress")
            assert bar.total == 1 and bar.progress == 0  # still (not the indeterminate animation) before a run
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert screen.running
            started = time.monotonic()
            while screen.counts[0] == 0 and time.monotonic() - started < 30:
                await pilot.pause(0.1)
            label = str(screen.query_one("#progress-label", Static).render())
            # the current model, the counts and the time left while it runs
            assert "minilm: embedding" in label and "(1/1 models)" in screen.stage and "ETA" in label, label
            assert label.startswith("ETA")  # first, so an 80-column screen still shows it
            await pilot.press("escape")
            await settle(app, pilot)
            assert not screen.running
            assert str(screen.query_one("#progress-label", Static).render()) == "cancelled"
            assert screen.rows == []
            assert 0 < len(calls) < 8  # stopped between chunks, well before the 1,200 texts were embedded
            # and it runs again afterwards
            await pilot.press("ctrl+r")
            await pilot.press("escape")
            await settle(app, pilot)
            assert not screen.running

    run(scenario())


def test_ranked_table_rows_sort_by_score_and_put_failures_last(tmp_path: Path) -> None:
    ts = read_triples(write_jsonl(tmp_path / "t.jsonl"))
    res = evaluate_triples(ts, ["no-such-model", "bow", "tfidf"], n_boot=0)
    rows = table_rows(res.to_dict(), ranked=True)
    assert rows[-1]["model"] == "no-such-model" and rows[-1]["error"]
    assert rows[0]["hm"] >= rows[1]["hm"]
