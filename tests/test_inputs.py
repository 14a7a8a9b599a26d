"""Input files for the foil pipeline and per-sentence screening."""

from __future__ import annotations

import pytest

from core.errors import InputError
from core.inputs import MAX_CHARS, read_input_rows, screen_sentence


def test_text_file_one_sentence_per_line(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("First one.\n\n   \nSecond one.\n", encoding="utf-8")
    rows = read_input_rows(path)
    assert [(r.id, r.sentence) for r in rows] == [("L1", "First one."), ("L4", "Second one.")]


def test_csv_with_paraphrase_and_sentencesmith_columns(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("original_sentence,paraphrase\nA cat sat.,A cat was sitting.\nA dog ran.,\n", encoding="utf-8")
    rows = read_input_rows(path)
    assert rows[0].sentence == "A cat sat." and rows[0].paraphrase == "A cat was sitting."
    assert rows[1].paraphrase is None


def test_named_column_missing_lists_columns(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_input_rows(path, column="sentence")
    assert "columns are: a, b" in str(err.value)
    with pytest.raises(InputError, match="no sentence column"):
        read_input_rows(path)


def test_utf16_tsv(tmp_path):
    path = tmp_path / "p.tsv"
    path.write_text("text\nÜber den Fluss.\n", encoding="utf-16")
    assert read_input_rows(path)[0].sentence == "Über den Fluss."


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty sentence"),
        ("   \t ", "empty sentence"),
        ("x" * (MAX_CHARS + 1), "too long"),
        ("12 + 13 = 25", "no words"),
    ],
)
def test_screen_rejects_with_reason(text, problem):
    assert problem in (screen_sentence(text)[1] or "")


def test_screen_keeps_emoji_and_strips_controls():
    cleaned, problem = screen_sentence("The cat \x07sat 😀.\r\n")
    assert problem is None
    assert cleaned == "The cat sat 😀."
