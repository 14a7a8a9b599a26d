"""POS of the swapped word: real HanTa (German), spaCy (French, English); stanza refuses cleanly without models."""

from __future__ import annotations

import collections

import pytest

from core.clsd.data import read_dataset, read_swaps
from core.clsd.pos import (
    STTS_TO_UPOS,
    UPOS,
    StanzaTagger,
    find_single_token_swap,
    make_tagger,
    stts_to_upos,
    tag_spans,
    tokenize_de,
)
from core.clsd.swaps import match_swaps
from core.errors import ConfigError, ModelMissingError


def test_stts_map_covers_the_tagset_with_universal_tags():
    assert set(STTS_TO_UPOS.values()) <= set(UPOS)
    assert stts_to_upos("VA(FIN)") == "AUX" and stts_to_upos("NNI") == "NOUN" and stts_to_upos("PTKNEG") == "PART"
    assert stts_to_upos("WHATEVER") == "X"


def test_single_token_swaps():
    s = find_single_token_swap("Die Regierung hat die Steuern erhöht.", "Die Regierung hat die Steuern gesenkt.")
    assert (s.position, s.old, s.new) == (5, "erhöht", "gesenkt")
    assert "Die Regierung hat die Steuern erhöht."[slice(*s.old_span)] == "erhöht"
    assert find_single_token_swap("a b.", "a b!") is None  # punctuation only
    assert find_single_token_swap("a b c", "a b c d") is None  # an addition, not a swap
    assert find_single_token_swap("same", "same") is None


def test_german_tokens_keep_offsets():
    text = "Am 3.10. gab die CDU-Fraktion 85,98 Prozent."
    for tok, start, end in tokenize_de(text):
        assert text[start:end] == tok
    assert "85,98" in [t for t, _, _ in tokenize_de(text)]


def test_hanta_tags_german_swaps():
    tagger = make_tagger("de")
    texts = ["Die Regierung hat die Steuern erhöht.", "Berlin hat 3 Millionen Einwohner.", "Das Auto ist rot."]
    spans = [(30, 36), (0, 6), (13, 16)]
    assert tag_spans(tagger, texts, spans) == ["VERB", "PROPN", "ADJ"]


def test_spacy_tags_french_and_english():
    fr = make_tagger("fr")
    assert fr.name == "spacy"
    assert tag_spans(fr, ["Le chat dort sur le canapé."], [(3, 7)]) == ["NOUN"]
    en = make_tagger("en")
    assert tag_spans(en, ["The government raised taxes."], [(15, 21)]) == ["VERB"]


def test_backend_errors_are_clear():
    with pytest.raises(ConfigError, match="HanTa tags German only"):
        make_tagger("fr", "hanta")
    with pytest.raises(ConfigError, match="unknown POS backend"):
        make_tagger("de", "treetagger")
    with pytest.raises(ModelMissingError) as err:
        make_tagger("xx", "spacy")
    assert "stanza" in err.value.hint
    with pytest.raises(ModelMissingError) as err:
        StanzaTagger("de", model_dir="/nonexistent/stanza").tag(["Ein Satz."])
    assert "stanza" in err.value.message


@pytest.mark.shared_data
def test_hanta_agrees_with_the_published_annotations(shared_data):
    data = read_dataset(shared_data / "clsd" / "CLSD_wmt2019_adversarial_dataset.csv")
    task = data.task("fr-de")
    swaps = read_swaps(shared_data / "clsd" / "DE_wmt1921_swaps_ner_pos.tsv", dataset="wmt19")
    texts, spans, gold = [], [], []
    for ann, k, j in match_swaps(task, swaps).matched:
        swap = find_single_token_swap(task.items[k].target, task.items[k].distractors[j])
        if swap is not None and ann.pos:
            texts.append(task.items[k].target)
            spans.append(swap.old_span)
            gold.append(ann.pos)
    got = tag_spans(make_tagger("de"), texts, spans)
    agree = sum(g == p for g, p in zip(gold, got, strict=True)) / len(gold)
    assert len(gold) > 300 and agree > 0.85
    confusions = collections.Counter((g, p) for g, p in zip(gold, got, strict=True) if g != p)
    assert confusions.most_common(1)[0][0] == ("PROPN", "NOUN")  # party names tagged as common nouns
