"""Which WordNet sense a word has *in its sentence* (for the AR and HS rules).

Every sense of the lemma (for its part of speech) gets a score: the cosine between a **context
vector** (the sentence's other content words; the word's syntactic head and dependents count
twice) and a **gloss vector** (the sense's definition, examples and lemma names, plus the first
lemma of its hypernyms and similar adjectives), both sums of unit-length
en_core_web_md word vectors, plus :data:`PRIOR_WEIGHT` × the sense's frequency prior
(``log(1 + count) / log(1 + top count)``, counts from WordNet's tagged corpus). Gloss vectors
depend only on the synset and are cached; a sentence costs a few dozen vector look-ups.

Methods (``PipelineSettings.sense_choice``): ``vectors`` (the above; falls back to ``prior``,
recorded as such, when en_core_web_md is not installed) and ``prior`` (the most frequent sense,
the behaviour before sense choice). On the 54 hand-labelled words in context of
``tests/data/senses.tsv`` (``python bench/senses.py``): prior 26/54, vectors 36/54; all-MiniLM-L6-v2
glosses + prior reached 39/54 but cost ~10 ms a sentence, five times the whole speed budget.

>>> from core.types import Token
>>> def tokens(*words):  # (text, POS) pairs; every word's head is the first
...     return [Token(i, w, w, p, "", "", 0, 0) for i, (w, p) in enumerate(words)]
>>> choose_sense("bank", "NOUN", SentenceContext(tokens(("deposit", "VERB"), ("money", "NOUN"), ("bank", "NOUN"))), 2).synset
'depository_financial_institution.n.01'
>>> choose_sense("bank", "NOUN", SentenceContext(tokens(("sit", "VERB"), ("bank", "NOUN"), ("river", "NOUN"))), 1).synset
'bank.n.01'
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from core.embed.packaged import spacy_md_dir
from core.errors import SmithError
from core.foils.rules.lexicon import _QUERY_LOCK, _source_lemmas, sense_count, wn_pos, wordnet
from core.types import Token

log = logging.getLogger(__name__)

SENSE_METHODS = ("vectors", "prior")
PRIOR_WEIGHT = 0.3  # weight of the frequency prior beside the gloss cosine (best on tests/data/senses.tsv)
ATTESTED_MIN = 5
RARE_SHARE = 20
RARE_SENSE_PENALTY = 1.0
"""A sense seen less than 1/RARE_SHARE as often as the word's top sense (itself seen ATTESTED_MIN times or more)
loses this much: vectors happily pick a rare sense whose gloss shares words with the sentence ("the young doctor
treated the boy": doctor.n.03, "children take the roles of physician or patient", 1 occurrence against 73)."""
PERSON_SENSE_PENALTY = 0.5
"""Taken off an adjective sense whose gloss restricts it to persons ("used especially of persons") when the
adjective modifies a thing, and added to it when the adjective modifies a person or animal: WordNet's glosses state
these selectional restrictions, the vectors do not see them."""
_OF_PERSONS = re.compile(
    r"\b(of|for|to) (a )?(person|persons|people|human beings?)\b|\bused (especially )?of persons\b"
)
NEIGHBOUR_WEIGHT = 2.0  # the word's head and dependents count this much more than other context words
CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"})
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")

_LOCK = threading.Lock()
_VOCAB: Any = None  # en_core_web_md's Vocab, or False when it is not installed
_STOP: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SenseChoice:
    """The chosen sense of a word: its ``synset`` name, its ``score``, the ``runner_up`` sense and score (None for a word with one sense), and the
    ``method`` that chose it (``vectors``, ``prior``, or ``only`` for a single-sense word)."""

    synset: str
    score: float
    runner_up: str | None
    runner_up_score: float | None
    method: str

    def details(self) -> dict[str, Any]:
        """The keys an Edit records (``sense``, ``sense_score``, ``sense_runner_up``, ...)."""
        return {
            "sense": self.synset,
            "sense_score": round(self.score, 4),
            "sense_runner_up": self.runner_up,
            "sense_runner_up_score": None if self.runner_up_score is None else round(self.runner_up_score, 4),
            "sense_method": self.method,
        }


def _vocab() -> Any:
    """en_core_web_md's vocabulary (vectors only; no pipeline component loads), or None when absent."""
    global _VOCAB, _STOP
    if _VOCAB is None:
        with _LOCK:
            if _VOCAB is None:
                try:
                    import spacy
                    from spacy.lang.en.stop_words import STOP_WORDS

                    path = spacy_md_dir()
                    nlp = spacy.load(path, exclude=["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "ner", "senter"])  # fmt: skip
                    _STOP = frozenset(STOP_WORDS)
                    _VOCAB = nlp.vocab
                except (ImportError, OSError, ValueError, SmithError) as exc:  # fall back to the prior, recorded
                    log.warning("sense choice falls back to the frequency prior: en_core_web_md unavailable (%s)", exc)
                    _VOCAB = False
    return _VOCAB or None


def vectors_available() -> bool:
    """True when en_core_web_md's vectors load (loads them)."""
    return _vocab() is not None


_MATRIX: Any = None  # en_core_web_md's vector table, rows scaled to unit length


def _word_row(word: str) -> int | None:
    vocab = _vocab()
    if vocab is None or word in _STOP:
        return None
    row = vocab.vectors.key2row.get(vocab.strings[word])
    return None if row is None or row < 0 else int(row)


@lru_cache(maxsize=262144)
def word_vector(word: str) -> np.ndarray | None:
    """The unit en_core_web_md vector of a (lower-case) word; None for stop words and unknown words."""
    global _MATRIX
    row = _word_row(word)
    if row is None:
        return None
    if _MATRIX is None:
        with _LOCK:
            if _MATRIX is None:
                data = np.asarray(_vocab().vectors.data, dtype=np.float32)
                norms = np.linalg.norm(data, axis=1, keepdims=True)
                _MATRIX = data / np.where(norms == 0, 1, norms)
    return _MATRIX[row]


def _unit_vectors(words: Sequence[str]) -> np.ndarray:
    """Unit-length vectors of the words the vocabulary knows (rows), skipping stop words and unknowns."""
    rows = [v for v in (word_vector(w) for w in words) if v is not None]
    return np.array(rows, dtype=np.float32) if rows else np.zeros((0, 300), dtype=np.float32)


def _normalise(vec: np.ndarray) -> np.ndarray | None:
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm else None


@lru_cache(maxsize=65536)
def gloss_vector(synset_name: str, word: str) -> np.ndarray | None:
    """The unit gloss vector of a synset, without ``word`` itself (None when no gloss word has a vector).

    Sentence-independent, so cached: definition, examples, lemma names, and the first lemma of its
    hypernyms and similar adjectives (hyponyms would add 1/62 right on tests/data/senses.tsv at twice the cost).
    """
    wn = wordnet()
    with _QUERY_LOCK:
        synset = wn.synset(synset_name)
        text = synset.definition() + " " + " ".join(synset.examples())
        related = synset.hypernyms() + synset.similar_tos()
        names = [lem.name() for lem in synset.lemmas()] + [s.lemmas()[0].name() for s in related]
    words = [w.lower() for w in _WORD.findall(text)] + [w.lower() for n in names for w in n.split("_")]
    rows = _unit_vectors([w for w in words if w != word])
    return _normalise(rows.sum(axis=0)) if len(rows) else None


class SentenceContext:
    """A sentence's content words as vectors, built once per sentence and shared by its words.

    ``method``: ``vectors`` or ``prior`` (no vectors are loaded for ``prior``).
    """

    def __init__(self, tokens: Sequence[Token], method: str = "vectors") -> None:
        if method not in SENSE_METHODS:
            from core.errors import ConfigError

            raise ConfigError(f"unknown sense choice {method!r}", hint=f"choose one of {', '.join(SENSE_METHODS)}")
        self.tokens = {tok.i: tok for tok in tokens}
        self.method_asked = method
        self.method = method if method == "prior" or _vocab() is not None else "prior"
        self._rows: dict[int, np.ndarray] = {}
        self._chosen: dict[tuple[str, str, int | None], SenseChoice | None] = {}
        if self.method == "vectors":
            for tok in self.tokens.values():
                if tok.pos in CONTENT_POS:
                    word = (tok.lemma or tok.text).lower()
                    vec = word_vector(word)
                    if vec is not None:
                        self._rows[tok.i] = vec

    def vector(self, index: int | None) -> np.ndarray | None:
        """The unit context vector for the word at token ``index`` (that word left out), or None."""
        if not self._rows:
            return None
        target = self.tokens.get(index) if index is not None else None
        total = np.zeros(300, dtype=np.float32)
        for i, row in self._rows.items():
            if i == index:
                continue
            tok = self.tokens[i]
            near = target is not None and (tok.head == target.i or target.head == tok.i)
            total += (NEIGHBOUR_WEIGHT if near else 1.0) * row
        return _normalise(total)

    def head_kind(self, index: int | None) -> str:
        """For an adjective at ``index``, what it describes: "thing" (a noun that is no person or animal: "old
        castle"), "person" (a person or animal: "old locksmith"), or "" (unknown: a name, a pronoun, no noun)."""
        tok = self.tokens.get(index) if index is not None else None
        head = self.tokens.get(tok.head) if tok is not None and tok.dep in ("amod", "acomp") else None
        if tok is not None and tok.dep == "acomp":  # "the castle is old": the subject of the copula
            head = next((t for t in self.tokens.values() if t.head == tok.head and t.dep == "nsubj"), None)
        if head is None or head.pos != "NOUN":
            return ""
        from core.foils.rules.wordnet_facts import lexname

        kind = lexname((head.lemma or head.text).lower(), "n")
        return "" if not kind else "person" if kind in ("noun.person", "noun.animal") else "thing"

    def choose(self, lemma: str, pos: str, index: int | None) -> SenseChoice | None:
        """:func:`choose_sense` for a word of this sentence, remembered (AR and HS ask for the same words)."""
        key = (lemma, pos, index)
        if key not in self._chosen:
            self._chosen[key] = choose_sense(lemma, pos, self, index)
        return self._chosen[key]


_LAST_CONTEXT: tuple[Any, Any] = (None, None)  # (parsed, SentenceContext): RS, AR and HS share a sentence's senses


def context_for(parsed: Any, method: str = "vectors") -> SentenceContext:
    """The :class:`SentenceContext` of the :class:`~core.types.ParsedSentence` ``parsed``; the last one is reused
    (RS, AR and HS ask about the same sentence in turn)."""
    global _LAST_CONTEXT
    last_parsed, last = _LAST_CONTEXT  # one tuple read: safe when rules run in threads
    if last_parsed is parsed and last is not None and last.method_asked == method:
        return last
    context = SentenceContext(parsed.tokens, method)
    _LAST_CONTEXT = (parsed, context)
    return context


def choose_sense(lemma: str, pos: str, context: SentenceContext | None, index: int | None) -> SenseChoice | None:
    """The sense of ``lemma`` (as ``pos``) at token ``index`` of ``context``; None when WordNet has no sense.

    Ties keep WordNet's sense order. Without a context (or with method ``prior``) the score is the prior alone.
    """
    p = wn_pos(pos)
    if p is None or not lemma.strip():
        return None
    senses = _senses(lemma.strip().lower().replace(" ", "_"), p)
    if not senses:
        return None
    names = [name for name, _ in senses]
    counts = [count for _, count in senses]
    if len(senses) == 1:
        return SenseChoice(names[0], 1.0, None, None, "only")
    top = max(counts)
    priors = [math.log1p(c) / math.log1p(top) if top else 0.0 for c in counts]
    ctx = context.vector(index) if context is not None and context.method == "vectors" else None
    if ctx is None:
        scores = list(priors)
        method = "prior"
    else:
        key = lemma.strip().lower().replace(" ", "_")
        head = context.head_kind(index) if context is not None and p in ("a", "s") else ""
        scores = []
        for name, pr in zip(names, priors, strict=True):
            gv = gloss_vector(name, key)
            score = (float(ctx @ gv) if gv is not None else 0.0) + PRIOR_WEIGHT * pr
            if head and _of_persons(name):  # "the old locksmith" has lived long, "the old castle" has not
                score += PERSON_SENSE_PENALTY if head == "person" else -PERSON_SENSE_PENALTY
            scores.append(score)
        method = "vectors"
    if top >= ATTESTED_MIN:  # a rare sense does not beat a common one on word overlap alone ("doctor": not the game)
        scores = [
            sc if c * RARE_SHARE >= top else sc - RARE_SENSE_PENALTY for sc, c in zip(scores, counts, strict=True)
        ]
    order = sorted(range(len(senses)), key=lambda i: (-scores[i], i))
    best, second = order[0], order[1]
    return SenseChoice(names[best], scores[best], names[second], scores[second], method)


@lru_cache(maxsize=16384)
def _of_persons(synset_name: str) -> bool:
    """The sense's gloss restricts it to persons ("(used especially of persons) having lived ... long")."""
    wn = wordnet()
    with _QUERY_LOCK:
        return bool(_OF_PERSONS.search(wn.synset(synset_name).definition()))


@lru_cache(maxsize=65536)
def _senses(key: str, pos: str) -> tuple[tuple[str, int], ...]:
    """(synset name, corpus count of the word in it) for each sense of ``key`` as WordNet ``pos``, in sense order."""
    wn = wordnet()
    with _QUERY_LOCK:
        return tuple((lem.synset().name(), sense_count(lem)) for lem in _source_lemmas(wn, key, pos))


def first_sense(lemma: str, pos: str) -> str | None:
    """WordNet's first (most frequent) sense of ``lemma`` as ``pos``; None when it has none.

    >>> first_sense("brother", "NOUN")
    'brother.n.01'
    """
    p = wn_pos(pos)
    senses = _senses(lemma.strip().lower().replace(" ", "_"), p) if p and lemma.strip() else ()
    return senses[0][0] if senses else None


def clear_cache() -> None:
    """Forget cached gloss vectors and sense lists (tests)."""
    gloss_vector.cache_clear()
    _senses.cache_clear()
