"""bench/quality.py: the counting behind the judged quality benchmark, on a tiny hand-made data folder.

The folder holds two sentences per register, a hand-written foils file and a hand-written judgements
file, so every rate the report prints can be checked by hand; ``generate`` runs the real pipeline.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from core.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def load_quality():
    spec = importlib.util.spec_from_file_location("bench_quality", ROOT / "bench" / "quality.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


quality = load_quality()

SENTENCES = {
    "everyday": ["The dog chased the cat.", "We ate soup."],
    "news": ["The mayor opened a bridge.", "Prices rose."],
    "literary": ["She read a novel.", "He bowed to the ladies."],
}
# (register, sentence id, rule, foil); sources come from SENTENCES
FOILS = [
    ("everyday", "everyday-001", "PN", "The dog did not chase the cat."),
    ("everyday", "everyday-001", "RS", "The cat chased the dog."),
    ("everyday", "everyday-001", "HS", "The dog chased the feline."),
    ("everyday", "everyday-002", "PN", "We did not eat soup."),
    ("news", "news-001", "PN", "No mayor opened a bridge."),
    ("news", "news-001", "PN", "The mayor opened no bridge."),
    ("news", "news-002", "AR", "Prices fell."),
    ("literary", "literary-001", "US", "She read."),
    ("literary", "literary-002", "PN", "He bowed to no ladies."),
]


def judgement(source: str, rule: str, foil: str, m: str, f: str, fl: int, note: str = "") -> dict:
    return {"source": source, "rule": rule, "foil": foil, "meaning_changed": m, "faithful": f,
            "fluency": fl, "note": note, "judge": "test", "date": "2026-12-01"}


def source_of(sid: str) -> str:
    register, n = sid.rsplit("-", 1)
    return SENTENCES[register][int(n) - 1]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    for register, lines in SENTENCES.items():
        (tmp_path / f"{register}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [{"register": r, "sentence_id": s, "source": source_of(s), "rule": rule, "variant": "v",
             "foil": foil, "description": "d"} for r, s, rule, foil in FOILS]
    (tmp_path / "foils-before.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows), encoding="utf-8")
    judged = [
        judgement(source_of("everyday-001"), "PN", FOILS[0][3], "yes", "yes", 0),
        judgement(source_of("everyday-001"), "RS", FOILS[1][3], "yes", "yes", 1),  # usable at fluency 1
        judgement(source_of("everyday-001"), "HS", FOILS[2][3], "yes", "yes", 2, "stiff"),  # too stiff
        judgement(source_of("everyday-002"), "PN", FOILS[3][3], "yes", "yes", 0),
        judgement(source_of("news-001"), "PN", FOILS[4][3], "yes", "yes", 0),
        judgement(source_of("news-001"), "PN", FOILS[5][3], "yes", "no", 1, "object, fine"),
        judgement(source_of("news-002"), "AR", FOILS[6][3], "yes", "yes", 0),
        judgement(source_of("literary-001"), "US", FOILS[7][3], "no", "yes", 0, "same meaning"),
        # literary-002 PN left unjudged on purpose
    ]
    (tmp_path / "judgements.jsonl").write_text("".join(json.dumps(x) + "\n" for x in judged), encoding="utf-8")
    return tmp_path


def groups_of(data: Path):
    return quality.tally(
        quality.read_sentences(data), quality.read_foils("before", data), quality.read_judgements(data / "judgements.jsonl")
    )


def test_sentence_ids_follow_line_numbers(data: Path) -> None:
    rows = quality.read_sentences(data)
    assert rows[0] == ("everyday", "everyday-001", "The dog chased the cat.")
    assert [sid for _, sid, _ in rows if sid.startswith("news")] == ["news-001", "news-002"]


def test_rates_per_register_and_rule(data: Path) -> None:
    groups = groups_of(data)
    pn = groups[("everyday", "PN")]
    assert (pn.kept, pn.judged, pn.usable, pn.cells, pn.covered) == (2, 2, 2, 2, 2)
    hs = groups[("everyday", "HS")]
    assert (hs.kept, hs.usable, hs.fluent, hs.covered) == (1, 0, 0, 0)
    news_pn = groups[("news", "PN")]  # two foils of one sentence: one usable, one unfaithful
    assert news_pn.rates()["usable"] == 50.0 and news_pn.rates()["faithful"] == 50.0
    assert (news_pn.cells, news_pn.covered) == (2, 1)  # news-002 has no PN foil: an uncovered cell
    lit_pn = groups[("literary", "PN")]
    assert (lit_pn.kept, lit_pn.judged) == (1, 0) and lit_pn.rates()["usable"] is None


def test_overall_aggregate(data: Path) -> None:
    total = quality.aggregate(groups_of(data), None, None)
    assert (total.kept, total.judged) == (9, 8)
    rates = total.rates()
    assert rates["meaning"] == pytest.approx(100 * 7 / 8)
    assert rates["usable"] == pytest.approx(100 * 5 / 8)  # everyday PN x2, RS, news PN, news AR
    assert rates["fluent"] == pytest.approx(100 * 5 / 8)
    assert rates["not_english"] == 0.0
    assert total.cells == 6 * 5  # six sentences, five rules
    assert rates["coverage"] == pytest.approx(100 * 5 / 30)  # e1 PN, e1 RS, e2 PN, n1 PN, n2 AR


def test_todo_lists_unjudged_once_and_reuses_judgements(data: Path) -> None:
    todo = quality.todo("before", data / "judgements.jsonl", None, None, data=data)
    assert [(f["sentence_id"], f["rule"]) for f in todo] == [("literary-002", "PN")]
    # a later round that produces the same (source, rule, foil) needs no new judgement
    same = data / "foils-after.jsonl"
    same.write_text((data / "foils-before.jsonl").read_text(encoding="utf-8") * 2, encoding="utf-8")
    assert len(quality.todo("after", data / "judgements.jsonl", None, None, data=data)) == 1


def test_subset_is_a_prefix_of_the_judging_order(data: Path) -> None:
    rows = quality.read_sentences(data)
    one, two = quality.sample_sentences(rows, 1, 5), quality.sample_sentences(rows, 2, 5)
    assert len(one) == 3 and one <= two and len(two) == 6
    assert {sid.split("-")[0] for sid in one} == {"everyday", "news", "literary"}


def test_malformed_judgements_are_errors_with_a_line(data: Path) -> None:
    path = data / "bad.jsonl"
    bad = judgement("s", "PN", "f", "yes", "no", 0)  # failing without a note
    path.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=re.escape("bad.jsonl:1: a failing judgement needs a note")):
        quality.read_judgements(path)
    path.write_text(json.dumps({**bad, "fluency": 4, "note": "x"}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="fluency must be 0, 1, 2 or 3"):
        quality.read_judgements(path)
    ok = judgement("s", "PN", "f", "yes", "yes", 0)
    path.write_text(json.dumps(ok) + "\n" + json.dumps(ok) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=re.escape("bad.jsonl:2: a second judgement")):
        quality.read_judgements(path)


def test_report_prints_table_and_comparison(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    after = [json.loads(x) for x in (data / "foils-before.jsonl").read_text(encoding="utf-8").splitlines()]
    (data / "foils-after.jsonl").write_text("".join(json.dumps(x) + "\n" for x in after[:2]), encoding="utf-8")
    quality.main(["report", "--label", "after", "--baseline", "before", "--data", str(data)])
    out = capsys.readouterr().out
    assert "| everyday | PN | 1 | 1 | 100% | 100% | 100% | 0% | 100% | 50% |" in out
    assert out.strip().splitlines()[-1] == (
        "before -> after: kept 9 -> 2, usable 62% -> 100%, meaning 88% -> 100%, fluent 62% -> 50%, "
        "not_english 0% -> 0%, coverage 17% -> 7%"
    )


def test_generate_writes_kept_foils_in_stable_order(tmp_path: Path) -> None:
    for register, lines in SENTENCES.items():
        (tmp_path / f"{register}.txt").write_text("\n".join(lines[:1]) + "\n", encoding="utf-8")
    path = quality.generate("t", tmp_path)
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert rows, "the default pipeline keeps foils of these sentences"
    assert set(quality.FOIL_FIELDS) <= set(rows[0])
    assert all(r["run"]["seed"] == 13 and r["foil"] != r["source"] for r in rows)
    order = [(quality.REGISTERS.index(r["register"]), quality.RULES.index(r["rule"]), r["variant"], r["foil"]) for r in rows]
    assert order == sorted(order)
    again = quality.generate("t", tmp_path).read_text(encoding="utf-8")
    assert again == path.read_text(encoding="utf-8")


def test_variant_rows_count_judged_foils_only(data: Path) -> None:
    foils = quality.read_foils("before", data)
    rows = quality.variant_rows(foils, quality.read_judgements(data / "judgements.jsonl"))
    assert rows[2:] == ["| PN | v | 4 | 75% |", "| RS | v | 1 | 100% |", "| US | v | 1 | 0% |",
                        "| AR | v | 1 | 100% |", "| HS | v | 1 | 0% |"]


def test_lenient_rs_only_forgives_impossible_swaps(data: Path) -> None:
    judged = {
        ("s", "RS", "a"): quality.Judgement(True, False, 1, "absurd swap: the soup brought the waiter"),
        ("s", "RS", "b"): quality.Judgement(True, False, 1, "two-leaf swap of modifiers"),
        ("s", "PN", "c"): quality.Judgement(True, False, 1, "absurd swap: not an RS foil"),
    }
    lenient = quality.lenient_rs(judged)
    assert [lenient[k].usable for k in judged] == [True, False, False]
    assert not judged[("s", "RS", "a")].faithful  # the strict judgements are left as they were
