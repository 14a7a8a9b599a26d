"""The one word diff (core.textdiff) as the workbench, the amrlib generator and the CLSD screen use it."""

from __future__ import annotations

from core.textdiff import WHITESPACE, changed_spans
from smithtui.screens.clsd import diff_words


def test_word_tokens_fold_case_and_split_punctuation() -> None:
    spans = changed_spans("The cat sat on the mat.", "the cat did not sit on the mat!")
    foil = "the cat did not sit on the mat!"
    assert [foil[s:e] for s, e in spans] == ["did not sit", "!"]


def test_whitespace_tokens_keep_case_and_punctuation_attached() -> None:
    foil = "The dog did not chase the cat."
    assert changed_spans("The dog chased the cat.", foil, words=WHITESPACE, fold_case=False) == ((8, 21),)
    assert changed_spans("a b c.", "A b c", words=WHITESPACE, fold_case=False) == ((0, 1), (4, 5))


def test_a_deletion_leaves_no_span_and_identical_text_none() -> None:
    assert changed_spans("The big dog barks.", "The dog barks.") == ()
    assert changed_spans("Same words here.", "Same words here.") == ()


def test_clsd_diff_words_highlights_exactly_the_changed_spans() -> None:
    text = diff_words("Die Katze schläft auf dem Sofa.", "Die  Katze schläft unter dem Sofa.")
    assert text.plain == "Die Katze schläft unter dem Sofa."  # whitespace normalised as before
    assert [(s.start, s.end) for s in text.spans] == [(18, 23)]
