"""Domain types shared by every stage of the pipeline.

All are frozen dataclasses; graphs are :class:`penman.Graph` objects that stages
never mutate in place (rules work on copies).

>>> tok = Token(i=0, text="Cats", lemma="cat", pos="NOUN", tag="NNS", dep="nsubj", head=1, idx=0)
>>> tok.text
'Cats'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import penman

RULES: tuple[str, ...] = ("PN", "RS", "US", "AR", "HS")
"""The five SentenceSmith edit rules, in the paper's order of presentation."""

RULE_NAMES: Mapping[str, str] = {
    "PN": "polarity negation",
    "RS": "role swap",
    "US": "underspecification",
    "AR": "antonym replacement",
    "HS": "hypernym substitution",
}


@dataclass(frozen=True)
class Token:
    """One token of the source sentence, as the parser saw it."""

    i: int
    text: str
    lemma: str
    pos: str  # universal POS (NOUN, VERB, ...)
    tag: str  # fine-grained tag (NNS, VBD, ...)
    dep: str  # dependency label
    head: int  # index of the head token (self for the root)
    idx: int  # character offset in the source text
    whitespace: str = " "  # whitespace that follows the token in the source
    ent_type: str = ""


@dataclass(frozen=True)
class ParsedSentence:
    """A sentence with its AMR-style graph and the node -> token alignment.

    ``alignment`` maps a graph variable (``"c"``) to the indices of the tokens it
    stands for; graphs from parsers without alignments (amrlib) have an empty map.
    """

    text: str
    graph: penman.Graph
    tokens: tuple[Token, ...] = ()
    alignment: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    metadata: Mapping[str, str] = field(default_factory=dict)
    parser: str = ""
    error: str | None = None  # set when the parser could not parse this sentence

    @property
    def ok(self) -> bool:
        return self.error is None

    @cached_property
    def penman(self) -> str:
        """The graph in PENMAN notation (encoded once: every foil record of the sentence repeats it)."""
        from core.foils.amr.graph import write_penman

        return write_penman(self.graph, indent=3)


@dataclass(frozen=True)
class Edit:
    """One applicable graph edit, enumerated by a rule.

    ``details`` carries what the realizer needs, e.g. ``{"old_concept": "happy-01",
    "new_concept": "unhappy-01"}`` for AR, ``{"swap": ("c2", "m")}`` for RS.

    ``edited`` is the edited graph, or a function that builds it: rules enumerate every
    applicable edit but a run samples a few, so they hand over builders and :attr:`graph`
    builds the graph on first use (once).

    >>> from core.foils.amr.graph import decode
    >>> p = ParsedSentence("Cats sleep.", decode("(s / sleep-01 :ARG0 (c / cat))"))
    >>> e = Edit("US", "leaf", "drop leaf cat", ("c", "s"), p, lambda: decode("(s / sleep-01)"))
    >>> e.graph.triples
    [('s', ':instance', 'sleep-01')]
    """

    rule: str  # one of RULES
    variant: str  # e.g. "main-predicate", "any-node", "unnegate", "agent-patient", "two-leaf"
    description: str  # human readable, e.g. "negate chase-01 (main predicate)"
    nodes: tuple[str, ...]  # graph variables touched
    source: ParsedSentence
    edited: penman.Graph | Callable[[], penman.Graph] = field(repr=False, compare=False)
    details: Mapping[str, Any] = field(default_factory=dict)

    @cached_property
    def graph(self) -> penman.Graph:
        """The edited graph (built now if the rule handed over a builder)."""
        return self.edited if isinstance(self.edited, penman.Graph) else self.edited()

    @cached_property
    def key(self) -> str:
        """A stable identifier of the edit within its sentence (sampling sorts by it)."""
        return f"{self.rule}:{self.variant}:{','.join(self.nodes)}:{self.description}"


@dataclass(frozen=True)
class Realization:
    """A generated foil: its text, the character spans that changed, or an error."""

    text: str
    changed_spans: tuple[tuple[int, int], ...] = ()
    generator: str = ""
    error: str | None = None
    alternatives: tuple[str, ...] = ()  # n-best from neural generators
    clipped: bool = False
    tokens: tuple[str, ...] = ()  # the foil's tokens, when the generator knows them (the aligned realizer does)


@dataclass(frozen=True)
class Verdict:
    """A validator's judgement of one (source, foil) pair.

    ``passed`` is None when the validator could not judge (the ``reason`` says why).
    """

    validator: str
    passed: bool | None
    score: float
    reason: str
    probabilities: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class FoilCandidate:
    """An edit together with its realization: what validators and exporters see."""

    edit: Edit
    realization: Realization

    @property
    def source_text(self) -> str:
        return self.edit.source.text

    @property
    def text(self) -> str:
        return self.realization.text
