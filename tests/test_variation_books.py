"""Books in: Gutenberg stripping, re-joined line wraps, offsets into the source, headings, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import InputError
from core.variation.books import book_from_text, is_heading, paragraphs, read_book, strip_gutenberg

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "sample_data" / "tiny_book.txt"

GUTENBERG = """The Project Gutenberg eBook of A Tale

This eBook is for the use of anyone anywhere. Licence text here.

*** START OF THE PROJECT GUTENBERG EBOOK A TALE ***

CHAPTER I

The miller rose early and walked to
the river.  The water was high after the rain.

He looked at the wheel for a long time. Then he went home.

*** END OF THE PROJECT GUTENBERG EBOOK A TALE ***

Section 5. General Information About Project Gutenberg electronic works. Donations are welcome.
"""


def test_gutenberg_markers_strip_front_and_back_matter() -> None:
    book = book_from_text(GUTENBERG, splitter="spacy")
    assert book.gutenberg_stripped
    texts = book.texts
    assert texts[0] == "The miller rose early and walked to the river."
    assert not any("Gutenberg" in t or "Licence" in t or "Donations" in t for t in texts)
    assert [h.text for h in book.headings] == ["CHAPTER I"]
    assert book.headings[0].before == 0


def test_offsets_point_into_the_source_and_wraps_are_rejoined() -> None:
    text = TINY.read_text(encoding="utf-8")
    book = read_book(TINY)
    assert len(book) >= 20
    for s in book.sentences:
        assert " ".join(text[s.start : s.end].split()) == s.text
        assert "\n" not in s.text
    # the heading lines and the title page are not sentences
    assert not any(t.startswith("Chapter") or t == "Finis" for t in book.texts)
    assert {h.text for h in book.headings} >= {"Chapter 1", "Chapter 2", "Finis"}
    assert [s.id for s in book.sentences] == list(range(len(book)))


def test_plain_text_without_markers_keeps_everything() -> None:
    start, end, found = strip_gutenberg("One. Two. Three.")
    assert (start, end, found) == (0, 16, False)


def test_paragraph_offsets() -> None:
    text = "  First line\nwraps here.\n\n\nSecond one.\n"
    paras = paragraphs(text)
    assert [p.text for p in paras] == ["First line wraps here.", "Second one."]
    assert text[paras[0].start : paras[0].end].replace("\n", " ") == paras[0].text


@pytest.mark.parametrize("line", ["Chapter 12", "CHAPTER XLII", "VOLUME II", "Finis", "by", "(1818)"])
def test_headings(line: str) -> None:
    assert is_heading(line)


@pytest.mark.parametrize("line", ["Yes.", "\"Oh!\"", "It was a dark and stormy night, and the rain fell."])
def test_not_headings(line: str) -> None:
    assert not is_heading(line)


def test_rules_splitter_keeps_titles_together() -> None:
    book = book_from_text("Mr. Smith came home. He was tired! Was he hungry? No.", splitter="rules")
    assert book.texts == ["Mr. Smith came home.", "He was tired!", "Was he hungry?", "No."]


def test_max_sentences_truncates_and_says_so() -> None:
    book = read_book(TINY, max_sentences=5)
    assert len(book) == 5
    assert book.truncated_from is not None and book.truncated_from > 5


def test_empty_file(tmp_path: Path) -> None:
    p = tmp_path / "empty.txt"
    p.write_text("   \n\n")
    with pytest.raises(InputError, match="empty"):
        read_book(p)


def test_one_sentence(tmp_path: Path) -> None:
    p = tmp_path / "one.txt"
    p.write_text("Only one sentence lives in this file.\n")
    with pytest.raises(InputError, match="only 1 sentence"):
        read_book(p)


def test_headings_only(tmp_path: Path) -> None:
    p = tmp_path / "h.txt"
    p.write_text("Chapter 1\n\nChapter 2\n")
    with pytest.raises(InputError, match="no sentences"):
        read_book(p)


def test_binary_data(tmp_path: Path) -> None:
    p = tmp_path / "b.txt"
    p.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(InputError, match=r"binary|not readable"):
        read_book(p)


def test_unknown_encoding(tmp_path: Path) -> None:
    # invalid UTF-8 that cp1252 cannot decode either (0x81, 0x8d are undefined there)
    p = tmp_path / "enc.txt"
    p.write_bytes(b"Some text \x81\x8d\x8f\x90 more. " * 10)
    with pytest.raises(InputError, match="not readable"):
        read_book(p)


def test_utf16_book_is_read(tmp_path: Path) -> None:
    p = tmp_path / "u16.txt"
    p.write_text(TINY.read_text(encoding="utf-8"), encoding="utf-16")
    assert read_book(p).texts == read_book(TINY).texts


def test_missing_and_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        read_book(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="folder"):
        read_book(tmp_path)


@pytest.mark.shared_data
def test_real_austen_novel(shared_data: Path) -> None:
    path = shared_data / "books" / "austen_persuasion.txt"
    book = read_book(path)
    src = path.read_text(encoding="utf-8")
    assert 3000 < len(book) < 5000
    assert book.texts[0].startswith("Sir Walter Elliot, of Kellynch Hall")
    assert sum(h.text.startswith("Chapter") for h in book.headings) == 24
    for s in book.sentences[::250]:
        assert " ".join(src[s.start : s.end].split()) == s.text
