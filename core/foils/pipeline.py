"""The foil pipeline: parse → enumerate edits → sample → realize → validate → records.

Backends are chosen by name through :mod:`core.foils.registry` and created lazily, once.
Per-sentence failures become error records; the run goes on.

Sampling is deterministic: each sentence's edits are sampled with a seed derived
from the run seed and the sentence text, so a sentence gets the same foils
whatever its position in the input.

>>> sentence_seed(13, "The cat sat.") == sentence_seed(13, "The cat sat.")
True
"""

from __future__ import annotations

import hashlib
import itertools
import math
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from core.config import PipelineSettings, Settings
from core.errors import ConfigError
from core.export import error_record, foil_record
from core.foils.fluency import SCORERS, FluencyScorer
from core.foils.fluency import VERDICT as FLUENCY
from core.foils.ranking import Ranked, rank_replacements
from core.foils.slots import Known, refill, replace_unrealizable, verdicts_for
from core.inputs import InputRow, screen_sentence
from core.progress import ProgressCallback, check_cancel, report
from core.protocols import Generator, Parser, Validator
from core.provenance import environment
from core.record import FoilRecord
from core.types import RULES, Edit, FoilCandidate, ParsedSentence, Verdict

if TYPE_CHECKING:
    from core.foils.events import Event


def annotate_records(rows: Sequence[InputRow], records: list[FoilRecord]) -> list[FoilRecord]:
    """Say what input screening found, on every record of its sentence (``input_notes``: control or bidi
    characters removed, not English), and never keep a foil that split a grapheme cluster (a word inserted
    inside an emoji sequence or between a letter and its accent): it is marked not kept, with the reason."""
    from core.inputs import broken_clusters, input_notes

    notes: dict[str, list[str]] = {}
    for row in rows:  # ids may repeat in a file: their notes are merged
        found = input_notes(row.sentence)
        if found:
            notes[row.id] = list(dict.fromkeys([*notes.get(row.id, []), *found]))
    out = []
    for record in records:
        row_notes = list(notes.get(record.row_id, ()))
        if record.has_foil:
            split = broken_clusters(record.source, str(record.foil))
            if split:
                record = record.with_decision(False, f"the edit split a grapheme cluster ({len(split)})")
                row_notes.append("split a grapheme cluster: the foil was not kept")
        out.append(replace(record, input_notes=tuple(row_notes)) if row_notes else record)
    return out


def sentence_seed(seed: int, text: str) -> int:
    """A per-sentence seed, stable across processes and input order."""
    digest = hashlib.sha256(f"{seed}\x1f{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def batched(items: Iterable[Any], size: int) -> Iterator[tuple[Any, ...]]:
    """Consecutive tuples of ``size`` items (the last may be shorter), read lazily.

    >>> list(batched(range(5), 2))
    [(0, 1), (2, 3), (4,)]
    """
    if size < 1:
        raise ValueError("batch size must be at least 1")
    it = iter(items)
    while chunk := tuple(itertools.islice(it, size)):
        yield chunk


@dataclass
class FoilPipeline:
    """Parse, edit, realize and validate, in batches.

    Create it with :meth:`from_settings`; the parser, generator and validators are
    built on first use.
    """

    settings: PipelineSettings = field(default_factory=PipelineSettings)
    _parser: Parser | None = None
    _generator: Generator | None = None
    _validators: list[Validator] | None = None
    _scorer: FluencyScorer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings | PipelineSettings | None = None) -> FoilPipeline:
        if settings is None:
            settings = PipelineSettings()
        if isinstance(settings, Settings):
            settings = settings.pipeline
        unknown = [r for r in settings.rules if r not in RULES]
        if unknown:
            raise ConfigError(f"unknown rule(s): {', '.join(unknown)}", hint=f"rules are: {', '.join(RULES)}")
        from core.foils.rules.edits import parse_variants

        parse_variants(settings.variants)  # a bad RULE:variant fails here, before any work
        if settings.fluency.strip().lower() not in SCORERS:
            raise ConfigError(
                f"unknown fluency scorer {settings.fluency!r} (pipeline.fluency)",
                hint=f"scorers are: {', '.join(SCORERS)}",
            )
        return cls(settings=settings)

    @property
    def _variants(self) -> dict[str, tuple[str, ...]]:
        from core.foils.rules.edits import parse_variants

        return parse_variants(self.settings.variants)

    # -- backends, created once -------------------------------------------------
    @property
    def parser(self) -> Parser:
        with self._lock:
            if self._parser is None:
                from core.foils.registry import make_parser

                self._parser = make_parser(self.settings)
            return self._parser

    @property
    def generator(self) -> Generator:
        with self._lock:
            if self._generator is None:
                from core.foils.registry import make_generator

                self._generator = make_generator(self.settings)
            return self._generator

    @property
    def validators(self) -> list[Validator]:
        parser = self.parser
        with self._lock:
            if self._validators is None:
                from core.foils.registry import make_validators

                self._validators = list(make_validators(self.settings, parser))
            return self._validators

    @property
    def scorer(self) -> FluencyScorer:
        """The fluency scorer named by ``pipeline.fluency`` (built once per process)."""
        with self._lock:
            if self._scorer is None:
                from core.foils.fluency import get_scorer

                self._scorer = get_scorer(self.settings.fluency)
            return self._scorer

    # -- stages --------------------------------------------------------------------
    def parse(self, sentences: Sequence[str]) -> list[ParsedSentence]:
        """Parse a batch; unusable sentences come back with ``error`` set."""
        return self.parser.parse(sentences)

    def parse_one(self, sentence: str) -> ParsedSentence:
        cleaned, problem = screen_sentence(sentence)
        if problem is not None:
            import penman

            return ParsedSentence(text=cleaned, graph=penman.Graph([]), error=problem, parser=self.settings.parser)
        return self.parse([cleaned])[0]

    def edits(self, parsed: ParsedSentence, rules: Sequence[str] | None = None) -> dict[str, list[Edit]]:
        """Every applicable edit of each rule (a rule that does not apply maps to [])."""
        from core.foils.rules.edits import enumerate_edits

        if not parsed.ok:
            return {rule: [] for rule in (rules or self.settings.rules)}
        from core.foils.rules.lexicon import LexicalOptions

        return enumerate_edits(
            parsed, tuple(rules or self.settings.rules), self._variants, LexicalOptions.from_settings(self.settings)
        )

    def rank(self, by_rule: dict[str, list[Edit]]) -> dict[str, list[Edit]]:
        """AR/HS: the most fluent replacement per node, none below ``fluency_threshold`` (:mod:`core.foils.ranking`)."""
        return self._ranked(by_rule).by_rule

    def _ranked(self, by_rule: dict[str, list[Edit]]) -> Ranked:
        """:meth:`rank` with the realizations and fluency of the kept AR/HS edits (reused by the batch run)."""
        if not self.settings.fluency_rank or self.settings.fluency == "none":
            return Ranked(by_rule)
        thresholds = {rule: self.settings.fluency_threshold_for(rule) for rule in by_rule}
        return rank_replacements(by_rule, self.generator, self.scorer, thresholds)

    def fluency(self, candidates: Sequence[FoilCandidate], known: Known | None = None) -> list[dict[str, Any] | None]:
        """Each realized candidate's ``{scorer, source, foil, delta}`` (None where the realization failed);
        what ``known`` holds for a candidate's edit and realization (from ranking) is reused, not scored again."""
        from core.foils.fluency import relative_fluency

        known = known or {}
        out: list[dict[str, Any] | None] = [None] * len(candidates)
        for i, c in enumerate(candidates):
            memo = known.get(id(c.edit))
            if memo is not None and memo[0] is c.realization:
                out[i] = memo[1]
        ok = [i for i, c in enumerate(candidates) if c.realization.error is None and out[i] is None]
        scores = relative_fluency(
            self.scorer, [candidates[i].source_text for i in ok], [candidates[i].realization.text for i in ok]
        )
        for i, fl in zip(ok, scores, strict=True):
            out[i] = fl
        return out

    def fluency_verdict(self, fluency: Mapping[str, Any], rule: str | None = None) -> Verdict:
        """The fluency score as a verdict for the filter policies (``fluency``, ``fluency>=-1.0``), against the
        threshold of the foil's ``rule`` (:meth:`PipelineSettings.fluency_threshold_for`)."""
        delta, threshold = fluency["delta"], self.settings.fluency_threshold_for(rule)
        if delta is None:
            return Verdict(FLUENCY, True, math.nan, f"scorer {fluency['scorer']!r} gives no score")
        reason = f"{fluency['scorer']}: foil {fluency['foil']:.2f}, source {fluency['source']:.2f}"
        return Verdict(FLUENCY, delta >= threshold, delta, f"delta {delta:+.3f} vs threshold {threshold:g}; {reason}")

    def sample(self, parsed: ParsedSentence, by_rule: dict[str, list[Edit]]) -> list[Edit]:
        """``per_rule`` edits of each rule, sampled with the sentence's seed."""
        from core.foils.rules.edits import sample_edits

        return sample_edits(by_rule, self.settings.per_rule, sentence_seed(self.settings.seed, parsed.text))

    def realize(self, edits: Sequence[Edit], known: Known | None = None) -> list[FoilCandidate]:
        """Realize each edit; an edit ``known`` holds (from ranking) is not realized again."""
        if not edits:
            return []
        known = known or {}
        todo = [e for e in edits if id(e) not in known]
        fresh = iter(self.generator.generate(todo) if todo else [])
        realizations = [known[id(e)][0] if id(e) in known else next(fresh) for e in edits]
        return [FoilCandidate(edit=e, realization=r) for e, r in zip(edits, realizations, strict=True)]

    def validate(self, candidates: Sequence[FoilCandidate]) -> list[list[Verdict]]:
        """Each validator's verdict for each candidate (validators run in batches)."""
        per_candidate: list[list[Verdict]] = [[] for _ in candidates]
        if not candidates:
            return per_candidate
        for validator in self.validators:
            for slot, verdict in zip(per_candidate, validator.score(candidates), strict=True):
                slot.append(verdict)
        return per_candidate

    def record(
        self,
        candidate: FoilCandidate,
        verdicts: Sequence[Verdict] | None,
        fluency: Mapping[str, Any] | None,
        *,
        row_id: str = "",
        paraphrase: str | None = None,
        provenance: Mapping[str, Any] | None = None,
        validated: bool = True,
    ) -> FoilRecord:
        """The foil record of one candidate with the keep/drop decision: what the CLI writes and the workbench
        curates. ``verdicts`` None means not validated: with ``validated`` (the workbench, validation still
        pending) nothing is decided yet (``kept`` None); without it (``--no-validate``) the foil is kept."""
        if candidate.realization.error is not None:
            kept, why = False, f"realization failed: {candidate.realization.error}"
        elif verdicts is None:
            kept, why = (None, "") if validated else (True, "not validated")
        else:
            kept, why = self.decide(verdicts, fluency, candidate.edit.rule)
        return foil_record(
            candidate, verdicts or (), row_id=row_id, paraphrase=paraphrase, kept=kept, decided_by=why,
            provenance=provenance, fluency=fluency,
        )  # fmt: skip

    def explore(
        self,
        sentence: str,
        paraphrase: str | None = None,
        *,
        models: Sequence[str] = (),
        embedder_for: Callable[[str], Any] | None = None,
        row_id: str = "",
        provenance: Mapping[str, Any] | None = None,
    ) -> Iterator[Event]:
        """One sentence stage by stage, every edit (none sampled): typed events (:mod:`core.foils.events`)
        ``Parsed``, ``EditsFound``, ``CandidatesRealized``, ``SpotChecked`` per model, ``FluencyScored``,
        ``Verdicts``, ``Decided`` (``StageFailed`` where a stage fails). Stop pulling to cancel.

        >>> pipe = FoilPipeline.from_settings()
        >>> [type(e).__name__ for e in pipe.explore("!!!")]
        ['Parsed']
        """
        from core.foils.events import explore

        return explore(
            self, sentence, paraphrase, models=models, embedder_for=embedder_for, row_id=row_id, provenance=provenance
        )

    def decide(
        self, verdicts: Sequence[Verdict], fluency: Mapping[str, Any] | None = None, rule: str | None = None
    ) -> tuple[bool, str]:
        """Keep or drop a foil by the configured filter policies; says which policy decided. ``fluency`` (the foil's
        ``{scorer, source, foil, delta}``) joins the verdicts as :meth:`fluency_verdict` against ``rule``'s threshold."""
        from core.foils.policies import apply_policies  # a first-party module: no fallback that keeps other foils

        if fluency is not None:
            verdicts = [*verdicts, self.fluency_verdict(fluency, rule)]
        decision = apply_policies(self.settings.policies, verdicts)
        return decision.kept, decision.reason

    def foils_for(self, sentence: str, *, validate: bool = True, sample: bool = False) -> list[FoilCandidate]:
        """All (or sampled) foils of one sentence, realized; convenient for spot checks."""
        parsed = self.parse_one(sentence)
        if not parsed.ok:
            return []
        by_rule = self.edits(parsed)
        edits = self.sample(parsed, self.rank(by_rule)) if sample else [e for rule in by_rule.values() for e in rule]
        candidates = [c for c in self.realize(edits) if c.realization.error is None]
        if validate:
            self.validate(candidates)
        return candidates

    # -- batch runs -------------------------------------------------------------
    def provenance(self) -> dict[str, Any]:
        s = self.settings
        return {
            "seed": s.seed,
            "per_rule": s.per_rule,
            "variants": {rule: list(v) for rule, v in self._variants.items()},
            "rules": list(s.rules),
            "parser": s.parser,
            "generator": s.generator,
            "validators": list(s.validators),
            "policies": list(s.policies),
            "fluency": {
                "scorer": s.fluency,
                "threshold": s.fluency_threshold,
                "antonym_threshold": s.antonym_fluency_threshold,
                "rank": s.fluency_rank,
                **self.scorer.info(),  # model, path, versions
            },
            "lexicon": {
                "sense_choice": s.sense_choice,
                "sense_margin": s.sense_margin,
                "hypernym_sense_margin": s.hypernym_sense_margin,
                "hypernym_min_zipf": s.hypernym_min_zipf,
            },
            "spacy_model": s.spacy_model,
            "frames_file": s.frames_file or None,
            "versions": environment()["packages"],
        }

    def run(
        self,
        rows: Iterable[InputRow],
        *,
        validate: bool = True,
        batch_size: int = 64,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        total: int | None = None,
        provenance: Mapping[str, Any] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Yield one JSON record per foil (:meth:`FoilRecord.to_json`; and one error record per failed sentence).

        ``rows`` is consumed as it goes, one batch at a time, so memory does not grow with
        the input. ``total`` is the count reported to ``progress`` (default: ``len(rows)``
        when known, else the rows seen so far). ``provenance`` replaces what each record
        carries (default: :meth:`provenance`; ``{}`` for none, e.g. when a manifest holds it).
        """
        prov = self.provenance() if provenance is None else dict(provenance)
        if total is None and isinstance(rows, Sized):
            total = len(rows)
        done = 0
        for batch in batched(rows, batch_size):
            check_cancel(cancel)
            yield from self._run_batch(batch, prov, validate)
            done += len(batch)
            report(progress, done, max(done, total or 0))

    def _run_batch(self, batch: Sequence[InputRow], prov: dict[str, Any], validate: bool) -> list[dict[str, Any]]:
        """The records of one batch, as JSON objects (what files, shards and workers carry). Built with automatic garbage collection paused (see
        :mod:`core.collector`): the batch allocates many short-lived objects and mid-batch full
        collections used to cost more than the rules themselves."""
        from core.collector import paused

        with paused():
            return [r.to_json() for r in annotate_records(batch, list(self._batch_records(batch, prov, validate)))]

    def _batch_records(
        self, batch: Sequence[InputRow], prov: dict[str, Any], validate: bool
    ) -> Iterator[FoilRecord]:
        usable: list[tuple[InputRow, str]] = []
        for row in batch:
            cleaned, problem = screen_sentence(row.sentence)
            if problem is not None:
                yield error_record(row.id, row.sentence, row.paraphrase, "input", problem, prov)
            else:
                usable.append((row, cleaned))
        parsed_all = self.parse([text for _, text in usable]) if usable else []
        from core.foils.rules.edits import reserve_edits

        jobs: list[tuple[InputRow, Edit]] = []
        # id(row) -> (all edits by rule, picked, seed); rows are keyed by identity (ids may repeat in a file)
        enumerated: dict[int, tuple[dict[str, list[Edit]], list[Edit], int]] = {}
        known: Known = {}  # the AR/HS foils ranking realized and scored, reused for the records
        for (row, _), parsed in zip(usable, parsed_all, strict=True):
            if not parsed.ok:
                yield error_record(row.id, row.sentence, row.paraphrase, "parse", parsed.error or "parse failed", prov)
                continue
            try:
                ranked = self._ranked(self.edits(parsed))
                by_rule = ranked.by_rule
                known.update(ranked.realized)
                edits = self.sample(parsed, by_rule)
            except Exception as exc:  # a rule bug must not stop the run; the record says what happened
                yield error_record(row.id, row.sentence, row.paraphrase, "rules", f"{type(exc).__name__}: {exc}", prov)
                continue
            if not edits:
                yield error_record(row.id, row.sentence, row.paraphrase, "rules", "no rule applies", prov)
            enumerated[id(row)] = (by_rule, edits, sentence_seed(self.settings.seed, parsed.text))
            jobs.extend((row, e) for e in edits)
        candidates = self.realize([e for _, e in jobs], known)
        # An edit the realizer refuses is replaced by the rule's next edit for that sentence (seeded order),
        # up to slots.REPLACEMENT_TRIES times per slot; the last refusal stays as the slot's error record.
        reserves: dict[tuple[int, str], list[Edit]] = {}  # (id(row), rule) -> replacements, made on first need

        def reserve(i: int) -> list[Edit]:
            row, edit = jobs[i]
            key = (id(row), edit.rule)
            if key not in reserves:
                by_rule, picked, seed = enumerated[id(row)]
                reserves[key] = reserve_edits(by_rule, picked, seed, rules=(edit.rule,))[edit.rule]
            return reserves[key]

        replace_unrealizable(self, jobs, candidates, range(len(jobs)), reserve, known)
        fluency = self.fluency(candidates, known)
        verdicts = verdicts_for(self, candidates, validate)
        dropped = refill(self, jobs, candidates, fluency, verdicts, reserve, known) if validate else {}
        for i, ((row, _), cand, vs, fl) in enumerate(zip(jobs, candidates, verdicts, fluency, strict=True)):
            for old, old_vs, old_fl in dropped.get(i, ()):
                yield self.record(old, old_vs, old_fl, row_id=row.id, paraphrase=row.paraphrase, provenance=prov)
            yield self.record(
                cand, vs if validate else None, fl, row_id=row.id, paraphrase=row.paraphrase, provenance=prov,
                validated=validate,
            )  # fmt: skip
