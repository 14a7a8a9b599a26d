"""The whole study and the ``smithtui variation`` command, with the real lexical baselines and static-64."""

from __future__ import annotations

import csv
import json
import re
import threading
from pathlib import Path

import numpy as np
import pytest

from core.errors import CancelledError, InputError
from core.variation.books import read_book
from core.variation.run import RegistrySource, VariationConfig, run_variation
from smithtui.cli import main

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "sample_data" / "tiny_book.txt"


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> RegistrySource:
    return RegistrySource(tmp_path_factory.mktemp("emb-cache"))


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory, source: RegistrySource):
    out = tmp_path_factory.mktemp("variation-out")
    second = out.parent / "second_book.txt"
    second.write_text(TINY.read_text(encoding="utf-8").replace("lighthouse", "windmill"), encoding="utf-8")
    events = []
    config = VariationConfig(models=("bow", "tfidf", "static-64"), block_rows=5, pool_size=8)
    run = run_variation([TINY, second, out.parent / "missing.txt"], config, source, out, on_event=events.append)
    return run, out, events


def test_run_writes_every_result(tiny_run) -> None:
    run, out, _ = tiny_run
    assert len(run.books) == 2 and run.mean is not None and run.mean.books == 2
    doc = json.loads((out / "results.json").read_text())
    assert doc["config"]["models"] == ["bow", "tfidf", "static-64"]
    assert set(doc["models"]) == {"bow", "tfidf", "static-64"}
    assert doc["models"]["static-64"]["model_id"]
    assert "numpy" in doc["environment"]["packages"]
    book = doc["books"][0]
    assert book["book"]["sha256"] and book["book"]["n_sentences"] == len(read_book(TINY))
    for name in ("series_corr", "ssm_corr", "paf", "naf", "ddaf"):
        assert np.array(book["agreement"][name]).shape == (3, 3)
        assert np.array(doc["mean"][name]).shape == (3, 3)
    assert book["agreement"]["params"] == {"diagonal": "exclude", "ddof": 0, "threshold": 0.0}
    assert book["top_passages"] and book["top_passages"][0]["before"]
    assert doc["errors"][0]["book"].endswith("missing.txt")
    rows = list(csv.DictReader((out / "tiny_book" / "novelty.csv").open()))
    assert len(rows) == len(read_book(TINY))
    assert {"novelty_bow", "novelty_tfidf", "novelty_static-64", "ensemble", "votes", "spread", "text"} <= set(rows[0])
    series = list(csv.DictReader((out / "tiny_book" / "series.csv").open()))
    assert len(series) == len(rows) - 1
    assert np.load(out / "tiny_book" / "ssm_pooled.npz")["bow"].shape == (8, 8)
    for fig in ("tiny_book_ssm", "tiny_book_series", "tiny_book_correlation", "tiny_book_fractions", "mean_correlation"):
        data = (out / "figures" / f"{fig}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 200_000
    assert "| bow | tfidf |" in (out / "agreement.md").read_text()


def test_lexical_baselines_agree_with_each_other_most(tiny_run) -> None:
    run, _, _ = tiny_run
    top = run.books[0].agreement.ranked_pairs("ssm_corr")[0]
    assert set(top[:2]) == {"bow", "tfidf"}


def test_the_off_topic_sentence_is_novel(tiny_run) -> None:
    run, _, _ = tiny_run
    ids = {p.text.split()[0] for p in run.books[0].passages[:3]}
    assert "Quantum" in ids


def test_events_cover_every_stage(tiny_run) -> None:
    _, _, events = tiny_run
    stages = {e.stage for e in events}
    assert {"read", "embed", "analyse", "write", "done"} <= stages
    assert any(e.stage == "embed" and e.model == "static-64" and e.done == e.total for e in events)


def test_cancel(source: RegistrySource, tmp_path: Path) -> None:
    ev = threading.Event()
    ev.set()
    with pytest.raises(CancelledError):
        run_variation([TINY], VariationConfig(models=("bow",)), source, tmp_path, cancel=ev)


def test_no_usable_book(source: RegistrySource, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(InputError, match="no usable book"):
        run_variation([empty], VariationConfig(models=("bow",)), source, tmp_path / "out")


def test_config_errors() -> None:
    with pytest.raises(InputError, match="no models"):
        VariationConfig(models=())
    with pytest.raises(InputError, match="twice"):
        VariationConfig(models=("bow", "bow"))


def test_cli_runs_headless(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "res"
    rc = main(
        ["variation", "--book", str(TINY), "--models", "bow,tfidf", "--out", str(out), "--no-figures",
         "--cache-dir", str(tmp_path / "cache"), "--novelty", "global", "--top", "3"]
    )
    assert rc == 0
    printed = capsys.readouterr().out
    assert "most agreeing: bow~tfidf" in printed
    doc = json.loads((out / "results.json").read_text())
    assert doc["config"]["novelty"]["mode"] == "global"
    assert len(doc["books"][0]["top_passages"]) == 3
    assert not (out / "figures").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b"Just one sentence here.", "only 1 sentence"),
        (bytes(range(256)) * 50, "binary|not readable"),
        (b"abc \x81\x8d\x8f def. " * 20, "not readable"),
    ],
    ids=["empty", "one-sentence", "binary", "unknown-encoding"],
)
def test_cli_bad_books_give_clear_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    rc = main(["variation", "--book", str(bad), "--models", "bow", "--out", str(tmp_path / "o"), "--cache-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 2
    assert re.search(message, err) and "Traceback" not in err


def test_cli_unknown_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["variation", "--book", str(TINY), "--models", "bow,minilmm", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 2 and "unknown embedder 'minilmm'" in err and "minilm" in err


def test_figures_redraw_from_the_written_files(tiny_run, tmp_path: Path) -> None:
    from core.variation.run import redraw_figures

    _, out, _ = tiny_run
    paths = redraw_figures(out, tmp_path / "figs", pool=4)
    names = {p.name for p in paths}
    assert {"tiny_book_ssm.png", "tiny_book_series.png", "mean_correlation.png", "mean_fractions.png"} <= names
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in paths)
