"""Round-trip validation: re-parse every foil and check that the edited graph came back.

A foil is kept when (1) the intended change is in the re-parse (PN: the negation is on the
corresponding node, or gone for un-negation; RS: the swapped roles; US: the node gone; AR/HS: the
new concept present and the old one gone) and (2) the rest of the edited graph survived: triple
F1 between the re-parse and the edited graph, under a concept-based node alignment
(:mod:`core.foils.validate.match`), reaches ``threshold``. Variables are never compared by name: a
re-parse names them afresh.

``Verdict.score`` = F1 × the fraction of the intended change found, so a foil that lost its
change ranks low even when everything else matches. ``passed`` is None when there was nothing to
judge (the realizer or a parser reported an error); a foil identical to its source fails.

Other validators (e.g. an NLI classifier) implement the same :class:`~core.protocols.Validator`
protocol: ``name`` and ``score(candidates) -> list[Verdict]``.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import penman

from core.errors import ConfigError, SmithError
from core.foils.amr.diff import graph_diff
from core.foils.amr.nodes import ADJUNCT_ROLES
from core.foils.validate import match as gm
from core.progress import ProgressCallback, check_cancel, report
from core.protocols import Parser
from core.types import FoilCandidate, ParsedSentence, Verdict

DEFAULT_THRESHOLD = 0.75
METRICS = ("triples", "smatch")
# A negation written on a modal above the node ("cannot remember") counts as negating the node.
MODAL_CONCEPTS = frozenset({"possible-01", "obligate-01", "recommend-01", "permit-01", "likely-01"})


@dataclass(frozen=True)
class ChangeCheck:
    """One part of the intended change and whether the re-parse shows it."""

    ok: bool
    text: str  # what was checked, e.g. "negation present on chase-01"
    note: str = ""  # e.g. "on the modal possible-01"


def _normalise(text: str) -> str:
    return " ".join(text.split())


class RoundTripValidator:
    """Validator backend ``roundtrip``: parse the foils again and compare with the edited graphs.

    ``parser``: any :class:`~core.protocols.Parser` (the offline ``dep`` parser by default in the
    pipeline); ``threshold``: minimum F1 of the re-parse against the edited graph; ``metric``:
    ``"triples"`` (deterministic greedy alignment, fast) or ``"smatch"`` (the reference package;
    its random restarts are unseeded).
    """

    name = "roundtrip"

    def __init__(self, parser: Parser, threshold: float = DEFAULT_THRESHOLD, *, metric: str = "triples") -> None:
        if not 0.0 <= float(threshold) <= 1.0:
            raise ConfigError(f"round-trip threshold {threshold} is outside 0..1", hint="use e.g. 0.75")
        if metric not in METRICS:
            raise ConfigError(f"unknown round-trip metric {metric!r}", hint=f"choose one of {', '.join(METRICS)}")
        self.parser = parser
        self.threshold = float(threshold)
        self.metric = metric

    @property
    def info(self) -> dict[str, object]:
        """Provenance: settings and the parser used for the re-parse."""
        parser_info = getattr(self.parser, "info", None)
        return {
            "validator": self.name,
            "threshold": self.threshold,
            "metric": self.metric,
            "parser": parser_info if isinstance(parser_info, dict) else getattr(self.parser, "name", "?"),
        }

    def score(
        self,
        candidates: Sequence[FoilCandidate],
        *,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[Verdict]:
        """One :class:`Verdict` per candidate; all foils are re-parsed in one batch."""
        verdicts: list[Verdict | None] = [None] * len(candidates)
        todo: list[int] = []
        for n, cand in enumerate(candidates):
            early = self._precheck(cand)
            if early is None:
                todo.append(n)
            else:
                verdicts[n] = early
        texts = list(dict.fromkeys(candidates[n].text for n in todo))
        parsed: dict[str, ParsedSentence] = {}
        failure = ""
        if texts:
            check_cancel(cancel)
            try:
                parsed = dict(zip(texts, self.parser.parse(texts), strict=True))
            except SmithError as exc:
                failure = f"re-parse failed: {exc}"
            except ValueError:
                failure = "re-parse failed: the parser returned a different number of graphs"
        for done, n in enumerate(todo, start=1):
            check_cancel(cancel)
            cand = candidates[n]
            reparse = parsed.get(cand.text)
            if reparse is None:
                verdicts[n] = self._verdict(None, 0.0, failure or "re-parse failed")
            else:
                verdicts[n] = self.judge(cand, reparse)
            report(progress, done, len(todo))
        return [v for v in verdicts if v is not None]

    def _precheck(self, cand: FoilCandidate) -> Verdict | None:
        if cand.realization.error:
            return self._verdict(None, 0.0, f"not realized: {cand.realization.error}")
        if not cand.edit.source.ok:
            return self._verdict(None, 0.0, f"source not parsed: {cand.edit.source.error}")
        if _normalise(cand.text) == _normalise(cand.source_text):
            return self._verdict(False, 0.0, "no change: the foil is identical to the source")
        if not cand.text.strip():
            return self._verdict(False, 0.0, "empty foil")
        synonym = synonym_substitution(cand)
        if synonym:
            return self._verdict(False, 0.0, synonym)
        return None

    def judge(self, cand: FoilCandidate, reparse: ParsedSentence) -> Verdict:
        """Compare one re-parse with the candidate's edited graph."""
        if not reparse.ok:
            return self._verdict(None, 0.0, f"re-parse failed: {reparse.error}")
        expected, found = cand.edit.graph, reparse.graph
        mapping = gm.align(expected, found)
        checks = check_change(cand.edit.source.graph, expected, found, mapping)
        matched, n_exp, n_found = gm.match_counts(expected, found, mapping)
        fscore = gm.smatch_f1(expected, found) if self.metric == "smatch" else gm.f1(matched, n_exp, n_found)
        kept, rest = preserved_share(cand.edit.source.graph, expected, found, mapping)
        preserved = f"{round(100 * kept / rest) if rest else 100}% of other triples preserved"
        found_share = sum(c.ok for c in checks) / len(checks) if checks else 0.0
        score = round(fscore * found_share, 4)
        if not checks:
            return self._verdict(False, 0.0, "the edit changed nothing in the graph")
        missing = [c for c in checks if not c.ok]
        label = "Smatch" if self.metric == "smatch" else "F1"
        broken = broken_reparse(cand.edit.source.graph, expected, found, common_words(cand.edit.source))
        if broken:
            return self._verdict(False, round(score * 0.5, 4), broken)
        if missing:
            lost = "; ".join(c.text for c in missing)
            return self._verdict(False, score, f"re-parse lost the change: {lost}; {label} {fscore:.2f}")
        present = "; ".join(c.text + (f" ({c.note})" if c.note else "") for c in checks)
        if fscore < self.threshold:
            return self._verdict(
                False, score, f"{present}, but the rest changed too: {label} {fscore:.2f} < {self.threshold:.2f}"
            )
        return self._verdict(True, score, f"{present}; {preserved} ({label} {fscore:.2f})")

    def _verdict(self, passed: bool | None, score: float, reason: str) -> Verdict:
        return Verdict(validator=self.name, passed=passed, score=score, reason=reason)


# ---------------------------------------------------------------- broken re-parses

_CONTENT = re.compile(r"^[a-z][a-z'-]*[a-z](-\d+)?$")
_FUNCTION_CONCEPTS = frozenset({"and", "or", "multi-sentence", "name", "person", "thing", "amr-unknown"})


def common_words(parsed: ParsedSentence) -> frozenset[str]:
    """Concepts of ``parsed`` that stand for a common noun, verb, adjective or adverb (not a name, a number
    or an entity type): the words a re-parse must keep. Empty for graphs without token alignments."""
    out = set()
    concepts = dict((v, c) for v, _, c in parsed.graph.instances())
    for var, idxs in parsed.alignment.items():
        toks = [parsed.tokens[i] for i in idxs if 0 <= i < len(parsed.tokens)]
        if var in concepts and toks and toks[0].pos in ("NOUN", "VERB", "ADJ", "ADV") and not toks[0].ent_type:
            out.add(str(concepts[var]))
    return frozenset(out)


def broken_reparse(
    source: penman.Graph, expected: penman.Graph, found: penman.Graph, keep: frozenset[str] = frozenset()
) -> str:
    """Why a re-parse that shows the intended change still does not vouch for the foil ("" when it does):

    - a concept built from punctuation or a fragment ("'s", "-") appears that the edited graph does not have;
    - a common word of the source (``keep``, see :func:`common_words`) that the edit did not touch is missing
      from the re-parse (the foil re-parsed into another sentence, even if most triples still match; names
      and entity types, which the parser reads unstably, are left to the F1 threshold);
    - the new negation sits on a time or place adverbial ("the meeting no yesterday"): English does not
      negate those with "no", so the change is there only because the parser is lenient.
    """
    want = Counter(gm.node_concepts(expected).values())
    have = Counter(gm.node_concepts(found).values())
    odd = sorted(c for c in have if not _CONTENT.match(str(c)) and not str(c)[:1].isdigit() and c not in want)
    if odd:
        return f"re-parse has a concept built from a fragment: {', '.join(map(str, odd))}"
    diff = graph_diff(source, expected)
    touched = {c for _, old, new in diff.concepts for c in (old, new)}
    lost = sorted(
        c
        for c, n in want.items()
        if have[c] < n and c in keep and c not in touched and c not in _FUNCTION_CONCEPTS
    )
    if lost:
        return f"re-parse changed other nodes: {', '.join(map(str, lost))} missing"
    concepts = gm.node_concepts(expected)
    for s, r, _ in diff.added:
        if r == ":polarity":
            roles = {role for _, role, target in expected.edges() if target == s}
            if roles & ADJUNCT_ROLES:
                return f"negation on the adverbial {concepts.get(s, s)} ({', '.join(sorted(roles))}) is not English negation"
    return ""


# ---------------------------------------------------------------- non-changes


def synonym_substitution(cand: FoilCandidate) -> str | None:
    """Why an AR/HS foil changes nothing, or None: its new word is a synonym of the old one in the
    chosen sense (``Edit.details["sense"]``; without one, in any sense of the old word): "car" ->
    "automobile", "chilly" -> "cold". Such a foil keeps the meaning, so it is never a foil.
    """
    edit = cand.edit
    details = edit.details or {}
    old, new = details.get("old_lemma"), details.get("new_lemma")
    if edit.rule not in ("AR", "HS") or not old or not new:
        return None
    from core.foils.rules.lexicon import is_synonym, wordnet_available

    if not wordnet_available():
        return None
    where = is_synonym(str(old), str(new), details.get("sense"), details.get("pos"))
    if where is None:
        return None
    return f"no change: {new!r} is a synonym of {old!r} in this sense ({where})"


# ---------------------------------------------------------------- the intended change


def preserved_share(
    source: penman.Graph, expected: penman.Graph, found: penman.Graph, mapping: dict[str, str]
) -> tuple[int, int]:
    """(kept, total) over the edited graph's triples that the edit did not add or re-label."""
    diff = graph_diff(source, expected)
    changed_vars = {v for v, _, _ in diff.concepts}
    added = {(s, r, gm.value(t) if r != gm.INSTANCE else t) for s, r, t in diff.added}
    rest = [t for t in gm.triples(expected) if t not in added and not (t[1] == gm.INSTANCE and t[0] in changed_vars)]
    variables = set(gm.node_concepts(expected))
    found_triples = gm.triples(found)
    kept = sum(1 for t in rest if gm.translate(t, mapping, variables) in found_triples)
    return kept, len(rest)


def _is_var(graph_concepts: dict[str, str], value: str) -> bool:
    return value in graph_concepts


def check_change(
    source: penman.Graph, expected: penman.Graph, found: penman.Graph, mapping: dict[str, str]
) -> list[ChangeCheck]:
    """Each added/removed triple and concept change from ``source`` to ``expected``, checked in ``found``.

    >>> src = penman.decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))")
    >>> exp = penman.decode("(c / chase-01 :polarity - :ARG0 (c2 / cat) :ARG1 (m / mouse))")
    >>> got = penman.decode("(x / chase-01 :ARG0 (y / cat) :ARG1 (z / mouse))")
    >>> check_change(src, exp, got, gm.align(exp, got))
    [ChangeCheck(ok=False, text='no negation on chase-01', note='')]
    """
    diff = graph_diff(source, expected)
    cs, ce, cf = gm.node_concepts(source), gm.node_concepts(expected), gm.node_concepts(found)
    names = {**cs, **ce}
    found_triples = gm.triples(found)
    have = Counter(cf.values())
    want = Counter(ce.values())
    checks: list[ChangeCheck] = []

    def edges_to(graph_edges, src_var, role, concept, concepts) -> int:
        return sum(1 for s, r, t in graph_edges if s == src_var and r == role and concepts.get(t) == concept)

    for s, r, t in diff.added:
        if r == gm.INSTANCE:
            checks.append(ChangeCheck(have[t] >= want[t], f"{t} present"))
        elif _is_var(names, t):
            ok = s in mapping and t in mapping and (mapping[s], r, mapping[t]) in found_triples
            text = f"{names[s]} {r} {names[t]}" + ("" if ok else " not found")
            checks.append(ChangeCheck(ok, text))
        elif r == ":polarity":
            ok = s in mapping and (mapping[s], r, gm.value(t)) in found_triples
            note = ""
            if not ok and s in mapping:
                modal = _negated_modal_above(found, cf, mapping[s], expected, mapping)
                ok, note = modal is not None, f"on the modal {modal}" if modal else ""
            checks.append(
                ChangeCheck(ok, f"negation present on {names[s]}" if ok else f"no negation on {names[s]}", note)
            )
        else:
            ok = s in mapping and (mapping[s], r, gm.value(t)) in found_triples
            checks.append(ChangeCheck(ok, f"{names[s]} {r} {gm.value(t)}" + ("" if ok else " not found")))
    for s, r, t in diff.removed:
        if r == gm.INSTANCE:
            if t in want or s not in ce:  # a node dropped (US)
                checks.append(
                    ChangeCheck(have[t] <= want[t], f"{t} gone" if have[t] <= want[t] else f"{t} still there")
                )
        elif _is_var(names, t):
            concept = names[t]
            if s not in mapping:
                continue
            n_found = edges_to(found.edges(), mapping[s], r, concept, cf)
            n_want = edges_to(expected.edges(), s, r, concept, ce)
            ok = n_found <= n_want
            text = f"no {names[s]} {r} {concept}" if ok else f"{names[s]} {r} {concept} still there"
            checks.append(ChangeCheck(ok, text))
        elif r == ":polarity":
            ok = s not in mapping or (mapping[s], r, gm.value(t)) not in found_triples
            checks.append(ChangeCheck(ok, f"negation gone from {names[s]}" if ok else f"{names[s]} still negated"))
        else:
            ok = s not in mapping or (mapping[s], r, gm.value(t)) not in found_triples
            checks.append(ChangeCheck(ok, f"no {names[s]} {r} {gm.value(t)}" if ok else f"{names[s]} {r} still there"))
    for _, old, new in diff.concepts:
        ok_new, ok_old = concept_count(found, cf, new) >= want[new], have[old] <= want[old]
        text = f"{new} replaces {old}"
        if not ok_new:
            text = f"{new} missing"
        elif not ok_old:
            text = f"{old} still there"
        checks.append(ChangeCheck(ok_new and ok_old, text))
    return checks


def _negated_modal_above(
    found: penman.Graph, concepts: dict[str, str], var: str, expected: penman.Graph, mapping: dict[str, str]
) -> str | None:
    """A negated modal whose ``:ARG1`` is ``var`` ("cannot remember"), unless the edited graph negates it too."""
    negated = {s for s, r, t in found.attributes() if r == ":polarity" and gm.value(t) == "-"}
    expected_negated = {
        mapping[s] for s, r, t in expected.attributes() if r == ":polarity" and gm.value(t) == "-" and s in mapping
    }
    for s, r, t in found.edges():
        if t == var and r == ":ARG1" and concepts.get(s) in MODAL_CONCEPTS and s in negated - expected_negated:
            return concepts[s]
    return None


def concept_count(found: penman.Graph, concepts: dict[str, str], concept: str) -> int:
    """Nodes of ``concept`` in ``found``; a multi-word concept (``delivery-boy``) also counts as its
    head word with the other words as modifiers (``boy :mod delivery``), as a parse of the phrase reads.
    """
    exact = sum(1 for c in concepts.values() if c == concept)
    words = concept.split("-")
    if words and words[-1].isdigit():
        words = words[:-1]
    if exact or len(words) < 2:
        return exact
    head, rest = words[-1], set(words[:-1])
    neighbours: dict[str, set[str]] = {}
    for s, _, t in found.edges():
        neighbours.setdefault(s, set()).add(concepts.get(t, ""))
        neighbours.setdefault(t, set()).add(concepts.get(s, ""))
    return sum(
        1
        for v, c in concepts.items()
        if c.split("-")[0] == head and rest <= {n.split("-")[0] for n in neighbours.get(v, set())}
    )
