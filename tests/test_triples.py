"""Reading triples: the paper's CSV, the foil engine's JSONL, generic tables; bad rows are counted."""

from __future__ import annotations

import json

import pytest

from core.errors import InputError
from core.evaluate.triples import detect_layout, read_triples, triples_from_records

PAWS = "sentencesmith/paws_samples_1737x6.csv"


def test_paws_file(shared_data):
    ts = read_triples(shared_data / PAWS)
    assert ts.layout == "sentencesmith"
    assert len(ts) == 1737 and ts.bad == ()
    assert ts.rule_counts() == {"PN": 687, "RS": 321, "US": 169, "AR": 473, "HS": 87}
    assert len(ts.sha256) == 64
    first = ts.triples[0]
    assert first.rule == "AR" and first.row == 2
    assert first.source.startswith("Winarsky is a member")
    assert first.foil.startswith("Winarsky is a non-member")
    assert len(ts.unique_texts()) == 3566


def test_foil_engine_jsonl(tmp_path):
    records = [
        {"id": "r1:PN", "source": "The cat sat.", "paraphrase": "A cat was sitting.", "foil": "The cat did not sit.",
         "rule": "PN", "variant": "main-predicate", "kept": True},
        {"id": "r2:error", "source": "Hm.", "paraphrase": None, "foil": None, "rule": None, "error": "no parse"},
        {"id": "r3:AR", "source": "She is happy.", "paraphrase": "She is glad.", "foil": "She is sad.", "rule": "AR",
         "kept": False},
        {"id": "r4:HS", "source": "A dog barked.", "paraphrase": None, "foil": "An animal barked.", "rule": "HS"},
        {"id": "r5:RS", "source": "Tom saw Ann.", "paraphrase": "Ann was seen by Tom.", "foil": "Ann saw Tom.",
         "rule": "RS"},
    ]  # fmt: skip
    path = tmp_path / "foils.jsonl"
    lines = [json.dumps(r) for r in records]
    lines.insert(2, "{not json")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ts = read_triples(path)
    assert ts.layout == "foil-engine"
    assert [t.rule for t in ts] == ["PN", "RS"]
    assert ts.triples[0].variant == "main-predicate" and ts.triples[0].id == "r1:PN"
    assert ts.bad_counts() == {
        "foil engine error": 1,
        "not valid JSON": 1,
        "rejected by the foil engine's filter": 1,
        "missing paraphrase": 1,
    }
    assert sorted(b.row for b in ts.bad) == [2, 3, 4, 5]  # file line numbers
    assert [t.row for t in ts] == [1, 6]
    kept_all = read_triples(path, include_rejected=True)
    assert [t.rule for t in kept_all] == ["PN", "AR", "RS"]


def test_nan_and_empty_cells_are_bad_rows(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(
        "original_sentence,modified_sentence,modification_type,semantic_relationship,paraphrase,source_file\n"
        "A cat sat.,A cat did not sit.,polarity_negation,x,A cat was sitting.,f\n"
        "A dog ran.,A dog walked.,hypernym,x,NaN,f\n"
        "  ,Nothing.,RD,x,Nothing at all.,f\n"
        "Ann saw Tom.,Tom saw Ann.,RS,x,,f\n",
        encoding="utf-8",
    )
    ts = read_triples(path)
    assert len(ts) == 1 and ts.triples[0].rule == "PN"
    assert ts.bad_counts() == {"missing paraphrase": 2, "missing source": 1}
    assert [b.row for b in ts.bad] == [3, 4, 5]


def test_generic_columns_detected_and_named(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("anchor\tpositive\tnegative\tcategory\nA b.\tA b!\tNot a b.\tneg\n", encoding="utf-8")
    ts = read_triples(path)
    assert ts.layout == "generic"
    assert ts.columns == {"source": "anchor", "paraphrase": "positive", "foil": "negative", "rule": "category"}
    assert ts.triples[0].rule == "neg"  # unknown rule names are kept verbatim

    other = tmp_path / "u.csv"
    other.write_text("s1,s2,s3\nx,y,z\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_triples(other)
    assert "no source column" in err.value.message and "s1, s2, s3" in err.value.hint
    ts = read_triples(other, columns={"source": "s1", "paraphrase": "s2", "foil": "s3"})
    assert (ts.triples[0].source, ts.triples[0].foil, ts.triples[0].rule) == ("x", "z", "")
    with pytest.raises(InputError, match="not found"):
        read_triples(other, columns={"source": "nope", "paraphrase": "s2", "foil": "s3"})


def test_utf16_file_and_unknown_suffix(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes("source,paraphrase,foil,rule\nÄ b.,Ä b!,Kein Ä.,PN\n".encode("utf-16"))
    assert read_triples(path).triples[0].source == "Ä b."
    with pytest.raises(InputError, match="suffix"):
        read_triples(tmp_path / "t.txt")
    with pytest.raises(InputError, match="not found"):
        read_triples(tmp_path / "missing.csv")


def test_layout_detection_and_records():
    assert detect_layout(["a", "b"]) == "generic"
    ts = triples_from_records([{"sentence": "a", "paraphrase": "b", "foil": "c", "rule": "antonym"}])
    assert ts.triples[0].rule == "AR"
    assert len(triples_from_records([])) == 0
    with pytest.raises(InputError, match="layout"):
        triples_from_records([{"a": 1}], layout="weird")
