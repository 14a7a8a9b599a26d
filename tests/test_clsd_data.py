"""CLSD readers: the published layout (both directions), pivot files, swap annotations, the generic layout."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.clsd.data import (
    PIVOT,
    check_pivot,
    limit_rows,
    read_clsd,
    read_dataset,
    read_generic,
    read_swaps,
    sniff_layout,
)
from core.clsd.swaps import match_swaps
from core.errors import InputError

DATA = Path(__file__).parent / "data"
TINY = DATA / "clsd_tiny.csv"
TINY_PIVOT = DATA / "clsd_tiny_pivot.csv"


def test_both_directions_use_the_target_languages_distractors():
    data = read_clsd(TINY)
    assert set(data.tasks) == {"de-fr", "fr-de"}
    de_fr = data.task("de-fr")
    assert (de_fr.source_column, de_fr.target_column) == ("German", "French")
    assert de_fr.distractor_columns == ("fr_adv1", "fr_adv2", "fr_adv3", "fr_adv4")
    first = de_fr.items[0]
    assert first.source == "Die Katze schläft auf dem Sofa."
    assert first.target == "Le chat dort sur le canapé."
    assert first.distractors[1] == "Le chien dort sur le canapé."
    fr_de = data.task("fr-de")
    assert fr_de.distractor_columns == ("de_adv1", "de_adv2", "de_adv3", "de_adv4")
    assert fr_de.items[0].candidates[0] == "Die Katze schläft auf dem Sofa."


def test_bad_rows_are_reported_counted_and_excluded():
    fr_de = read_clsd(TINY).task("fr-de")
    # row 4 has an empty de_adv3, row 5 has de_adv1 identical to the German target
    assert [i.id for i in fr_de.items] == ["0", "1", "2", "3"]
    assert fr_de.excluded_counts() == {"empty distractor": 1, "distractor equals target": 1}
    assert {(i.id, i.column) for i in fr_de.issues} == {("4", "de_adv3"), ("5", "de_adv1")}
    assert fr_de.n_rows == 6
    assert "row 5 (line 7): distractor equals target (de_adv1)" in [i.describe() for i in fr_de.issues]
    assert len(read_clsd(TINY).task("de-fr").items) == 6  # the French side of those rows is fine


def test_missing_columns_are_named(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("Index,French,de_adv1,de_adv2\n0,a,c,d\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_clsd(bad)
    assert "missing column German" in err.value.message and "columns are: Index, French" in err.value.hint
    bad.write_text("Index,French,German\n0,a,b\n", encoding="utf-8")
    with pytest.raises(InputError, match="missing columns fr_adv1, de_adv1"):
        read_clsd(bad)
    one_way = tmp_path / "one_way.csv"
    one_way.write_text("Index,French,German,de_adv1,de_adv2\n0,a,b,c,d\n", encoding="utf-8")
    assert list(read_clsd(one_way).tasks) == ["fr-de"]


def test_generic_layout_with_globs_and_missing_columns():
    data = read_generic(
        DATA / "clsd_generic_en_es.tsv",
        source_column="english",
        target_column="spanish",
        distractor_columns="foil_*",
        id_column="pair_id",
        source_lang="en",
        target_lang="es",
    )
    task = data.task("en-es")
    assert task.distractor_columns == ("foil_a", "foil_b", "foil_c")
    assert [i.id for i in task.items] == ["a1", "a2", "a3"]
    assert sniff_layout(DATA / "clsd_generic_en_es.tsv") == "generic"
    with pytest.raises(InputError, match="missing distractor column foil_z"):
        read_generic(DATA / "clsd_generic_en_es.tsv", source_column="english", target_column="spanish",
                     distractor_columns="foil_a,foil_z")
    with pytest.raises(InputError, match="missing column german"):
        read_generic(DATA / "clsd_generic_en_es.tsv", source_column="german", target_column="spanish",
                     distractor_columns="foil_a")
    with pytest.raises(InputError) as err:
        read_dataset(DATA / "clsd_generic_en_es.tsv")
    assert "--source-col" in err.value.hint


def test_wrong_encodings_and_binary_input(tmp_path):
    # cp1252 (a legacy export) is sniffed and read; binary data is refused with a clear error
    legacy = tmp_path / "legacy.csv"
    legacy.write_bytes(TINY.read_text(encoding="utf-8").encode("cp1252"))
    assert read_clsd(legacy).task("de-fr").items[0].source == "Die Katze schläft auf dem Sofa."
    utf16 = tmp_path / "utf16.csv"
    utf16.write_bytes(TINY.read_text(encoding="utf-8").encode("utf-16"))
    assert len(read_clsd(utf16).task("fr-de").items) == 4
    blob = tmp_path / "blob.csv"
    blob.write_bytes(bytes(range(256)) * 20)
    with pytest.raises(InputError, match=r"binary|not readable"):
        read_clsd(blob)
    with pytest.raises(InputError, match="not found"):
        read_clsd(tmp_path / "absent.csv")


def test_pivot_file_with_leading_index_column_lines_up_by_id():
    direct = read_clsd(TINY)
    pivot = check_pivot(direct, read_clsd(TINY_PIVOT, condition=PIVOT))
    de_fr = pivot.task("de-fr")
    assert de_fr.condition == PIVOT and de_fr.text_lang == "en"
    assert de_fr.items[0].source == "The cat is sleeping on the sofa."
    assert de_fr.items[0].target == "The cat sleeps on the sofa."
    # fr-de: row 4 (empty) and row 5 (the translation of de_adv1 equals the target) are excluded again
    assert pivot.task("fr-de").excluded_counts() == {"empty distractor": 1, "distractor equals target": 1}


def test_pivot_of_another_file_is_refused(tmp_path):
    lines = TINY_PIVOT.read_text(encoding="utf-8").splitlines()
    shifted = [",".join([str(100 + n), str(100 + n), *line.split(",")[2:]]) for n, line in enumerate(lines[1:])]
    other = tmp_path / "shifted.csv"
    other.write_text("\n".join([lines[0], *shifted]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="shares no row id"):
        check_pivot(read_clsd(TINY), read_clsd(other, condition=PIVOT))


def test_pivot_rows_missing_from_the_file_are_counted(tmp_path):
    lines = TINY_PIVOT.read_text(encoding="utf-8").splitlines()
    short = tmp_path / "short.csv"
    short.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")  # rows 0-2 only
    pivot = check_pivot(read_clsd(TINY), read_clsd(short, condition=PIVOT))
    assert pivot.task("de-fr").excluded_counts() == {"missing from the pivot file": 3}


def test_swap_annotations_utf8_and_utf16_in_any_column_order():
    de = read_swaps(DATA / "clsd_swaps_de.tsv", dataset="tiny")
    assert [(s.row_id, s.column, s.operation, s.old, s.new, s.pos) for s in de] == [
        ("0", "de_adv2", "swap", "Katze", "Hund", "NOUN"),
        ("1", "de_adv2", "swap", "Berlin", "Hamburg", "PROPN"),
        ("2", "de_adv1", "swap", "erhöht.", "gesenkt.", "VERB"),
        ("2", "de_adv4", "addition", "", "nicht", ""),
    ]
    fr = read_swaps(DATA / "clsd_swaps_fr.tsv")  # UTF-16 with a BOM, RowIndex first
    assert [(s.row_id, s.language, s.old, s.new) for s in fr] == [
        ("0", "fr", "chat", "chien"),
        ("2", "fr", "augmenté", "baissé"),
        ("3", "fr", "acheté", "vendu"),
    ]
    data = read_clsd(TINY)
    matched = match_swaps(data.task("de-fr"), fr)
    assert len(matched.matched) == 3 and not matched.unmatched
    assert match_swaps(data.task("fr-de"), fr).matched == ()  # French annotations do not touch German targets
    de_match = match_swaps(data.task("fr-de"), de)
    assert len(de_match.matched) == 4


def test_swap_file_without_required_columns(tmp_path):
    bad = tmp_path / "swaps.tsv"
    bad.write_text("Dataset\tDetails\nwmt19\tSwap: 'a' with 'b'\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_swaps(bad)
    assert "AdversarialText, AdversarialExample, RowIndex" in err.value.message


def test_limit_rows_keeps_file_order():
    data = limit_rows(read_clsd(TINY), 5)
    assert [i.id for i in data.task("fr-de").items] == ["0", "1", "2", "3"]
    assert data.task("fr-de").excluded_counts() == {"empty distractor": 1}
    assert len(data.task("de-fr").items) == 5


@pytest.mark.shared_data
def test_the_published_set_and_its_pivot(shared_data):
    data = read_dataset(shared_data / "clsd" / "CLSD_wmt2019_adversarial_dataset.csv")
    assert data.layout == "clsd" and data.n_rows == 1473
    assert {k: len(t.items) for k, t in data.tasks.items()} == {"de-fr": 1473, "fr-de": 1473}
    pivot = check_pivot(
        data, read_clsd(shared_data / "clsd" / "MT_M2M_CLSD_wmt2019_adversarial_dataset.csv", condition=PIVOT)
    )
    # machine translation collapses some distractors onto the target: reported, excluded, counted
    assert pivot.task("de-fr").excluded_counts() == {"distractor equals target": 14}
    assert pivot.task("fr-de").excluded_counts() == {"distractor equals target": 17}
    swaps = read_swaps(shared_data / "clsd" / "DE_wmt1921_swaps_ner_pos.tsv", dataset="wmt19")
    assert len(swaps) == 385
    matched = match_swaps(data.task("fr-de"), swaps)
    assert len(matched.matched) == 380 and len(matched.unmatched) == 5  # the set was edited after annotation
