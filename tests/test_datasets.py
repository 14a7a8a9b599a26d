"""Exports as Hugging Face datasets: typed Parquet, the README.md card, `eval --triples x.parquet`."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from core.dataset_card import MARKER, hf_features, write_dataset_card
from core.evaluate.triples import read_triples
from core.export import parquet_table
from smithtui.cli import main

PAIRS = Path(__file__).resolve().parents[1] / "sample_data" / "pairs.csv"
datasets = pytest.importorskip("datasets", reason="the ecosystem extra (datasets) is not installed")
yaml = pytest.importorskip("yaml")


def _load_dataset(*args, **kwargs):
    """datasets.load_dataset without its shared on-disk cache: pytest reuses temporary folder names, and the
    cache keyed on a folder's name would hand one run another run's rows."""
    import tempfile

    return datasets.load_dataset(*args, cache_dir=tempfile.mkdtemp(prefix="hf-datasets-"), **kwargs)


def _front_matter(card: Path) -> dict:
    text = card.read_text(encoding="utf-8")
    assert text.startswith("---\n") and MARKER in text
    return yaml.safe_load(text.split("---\n")[1])


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> dict[str, Path]:
    """One real run on sample pairs (spaCy parses, WordNet), exported in every format to its own folder."""
    root = tmp_path_factory.mktemp("exports")
    base = root / "jsonl" / "foils.jsonl"
    args = ["foils", "--input", str(PAIRS), "--paraphrase-column", "paraphrase", "--seed", "5", "--no-validate"]
    assert main([*args, "--out", str(base)]) == 0
    out = {"jsonl": base}
    for fmt, name in (("parquet", "foils.parquet"), ("csv", "foils.csv"), ("st-triplets", "triplets.csv")):
        out[fmt] = root / fmt / name
        assert main([*args, "--out", str(out[fmt]), "--format", fmt]) == 0
    return out


def test_parquet_columns_are_typed_not_json_strings(exports):
    schema = pq.read_schema(exports["parquet"])
    assert schema.field("nodes").type.value_type == pa.string()
    assert schema.field("changed_spans").type.value_type.value_type == pa.int64()
    assert schema.field("verdicts").type.value_type.field("validator").type == "string"
    assert str(schema.field("provenance").type).startswith("struct<seed: int64")
    rows = pq.read_table(exports["parquet"]).to_pylist()
    jsonl = [json.loads(x) for x in exports["jsonl"].read_text(encoding="utf-8").splitlines()]
    assert [r["foil"] for r in rows] == [r["foil"] for r in jsonl]  # same run, same seed
    first = next(r for r in rows if r["foil"])
    assert isinstance(first["changed_spans"][0], list) and isinstance(first["provenance"]["versions"], dict)


def test_load_dataset_reads_every_export_folder_with_typed_features(exports):
    ds = _load_dataset(str(exports["parquet"].parent), split="train")
    assert ds.features["nodes"] == datasets.List(datasets.Value("string"))
    assert ds.features["changed_spans"] == datasets.List(datasets.List(datasets.Value("int64")))
    assert isinstance(ds[0]["nodes"], list)
    direct = _load_dataset("parquet", data_files=str(exports["parquet"]), split="train")
    assert direct.features == ds.features
    for fmt in ("jsonl", "csv", "st-triplets"):
        loaded = _load_dataset(str(exports[fmt].parent), split="train")
        assert len(loaded) == _front_matter(exports[fmt].parent / "README.md")["smithtui"]["rows"]
    triplets = _load_dataset(str(exports["st-triplets"].parent), split="train")
    assert triplets.column_names == ["anchor", "positive", "negative", "rule", "id"]
    assert all(r["anchor"] != r["negative"] for r in triplets)


def test_card_front_matter(exports):
    meta = _front_matter(exports["parquet"].parent / "README.md")
    assert meta["license"] and meta["task_categories"] == ["sentence-similarity"]
    assert meta["configs"][0]["data_files"][0]["path"] == "foils.parquet"
    info = meta["smithtui"]
    assert info["seed"] == 5 and info["versions"]["numpy"]
    assert set(info["counts_per_rule"]) <= {"PN", "RS", "US", "AR", "HS"} and sum(info["counts_per_rule"].values()) > 5
    assert info["source_files"][0]["path"] == str(PAIRS) and len(info["source_files"][0]["sha256"]) == 64
    # our Arrow → features conversion is exactly what `datasets` itself writes
    own = datasets.Features.from_arrow_schema(pq.read_schema(exports["parquet"]))._to_yaml_list()
    assert meta["dataset_info"]["features"] == own


def test_card_never_replaces_a_readme_it_did_not_write(tmp_path):
    (tmp_path / "README.md").write_text("# my project\n", encoding="utf-8")
    records = [{"source": "A b.", "paraphrase": "B a.", "foil": "No b.", "rule": "PN"}]
    card = write_dataset_card(tmp_path / "f.parquet", records, "parquet", count=1)
    assert card.name == "f.parquet.README.md"
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "# my project\n"


def test_eval_reads_parquet_triples_like_jsonl(exports):
    from_parquet, from_jsonl = read_triples(exports["parquet"]), read_triples(exports["jsonl"])
    assert len(from_parquet) > 5
    assert [(t.source, t.paraphrase, t.foil, t.rule) for t in from_parquet] == [
        (t.source, t.paraphrase, t.foil, t.rule) for t in from_jsonl
    ]
    assert main(["eval", "--triples", str(exports["parquet"]), "--models", "bow", "--no-cache"]) == 0


def test_mixed_columns_fall_back_to_json_and_are_named():
    table, as_json = parquet_table([{"id": "a", "odd": 1}, {"id": "b", "odd": "x"}])
    assert as_json == ["odd"] and table.column("odd").to_pylist() == ["1", '"x"']
    assert hf_features(table.schema) == [{"name": "id", "dtype": "string"}, {"name": "odd", "dtype": "string"}]
