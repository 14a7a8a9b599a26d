"""The foil pipeline: parse → enumerate edits → sample → realize → validate → records.

Backends are chosen by name through :mod:`core.backends` and created lazily, once.
Per-sentence failures become error records; the run goes on.

Sampling is deterministic: each sentence's edits are sampled with a seed derived
from the run seed and the sentence text, so a sentence gets the same foils
whatever its position in the input.

>>> sentence_seed(13, "The cat sat.") == sentence_seed(13, "The cat sat.")
True
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.config import PipelineSettings, Settings
from core.errors import ConfigError
from core.export import error_record, foil_record
from core.inputs import InputRow, screen_sentence
from core.progress import ProgressCallback, check_cancel, report
from core.protocols import Generator, Parser, Validator
from core.provenance import environment
from core.types import RULES, Edit, FoilCandidate, ParsedSentence, Verdict

REPLACEMENT_TRIES = 32
"""How many replacement edits a sampled slot tries when the realizer refuses its edit."""


def sentence_seed(seed: int, text: str) -> int:
    """A per-sentence seed, stable across processes and input order."""
    digest = hashlib.sha256(f"{seed}\x1f{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


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
        return cls(settings=settings)

    # -- backends, created once -------------------------------------------------
    @property
    def parser(self) -> Parser:
        with self._lock:
            if self._parser is None:
                from core.backends import make_parser

                self._parser = make_parser(self.settings)
            return self._parser

    @property
    def generator(self) -> Generator:
        with self._lock:
            if self._generator is None:
                from core.backends import make_generator

                self._generator = make_generator(self.settings)
            return self._generator

    @property
    def validators(self) -> list[Validator]:
        parser = self.parser
        with self._lock:
            if self._validators is None:
                from core.backends import make_validators

                self._validators = list(make_validators(self.settings, parser))
            return self._validators

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
        from core.rules import enumerate_edits

        if not parsed.ok:
            return {rule: [] for rule in (rules or self.settings.rules)}
        from core.lexicon import LexicalOptions

        return enumerate_edits(parsed, tuple(rules or self.settings.rules), LexicalOptions.from_settings(self.settings))

    def sample(self, parsed: ParsedSentence, by_rule: dict[str, list[Edit]]) -> list[Edit]:
        """``per_rule`` edits of each rule, sampled with the sentence's seed."""
        from core.rules import sample_edits

        return sample_edits(by_rule, self.settings.per_rule, sentence_seed(self.settings.seed, parsed.text))

    def realize(self, edits: Sequence[Edit]) -> list[FoilCandidate]:
        if not edits:
            return []
        realizations = self.generator.generate(edits)
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

    def decide(self, verdicts: Sequence[Verdict]) -> tuple[bool, str]:
        """Keep or drop a foil by the configured filter policies; says which policy decided."""
        try:
            from core.backends.policies import apply_policies
        except ImportError:  # policies module not available: every validator must pass
            failed = [v for v in verdicts if v.passed is not True]
            if failed:
                return False, f"{failed[0].validator}: {failed[0].reason}"
            return True, "all validators passed"
        decision = apply_policies(self.settings.policies, verdicts)
        return decision.kept, decision.reason

    def foils_for(self, sentence: str, *, validate: bool = True, sample: bool = False) -> list[FoilCandidate]:
        """All (or sampled) foils of one sentence, realized; convenient for spot checks."""
        parsed = self.parse_one(sentence)
        if not parsed.ok:
            return []
        by_rule = self.edits(parsed)
        edits = self.sample(parsed, by_rule) if sample else [e for rule in by_rule.values() for e in rule]
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
            "rules": list(s.rules),
            "parser": s.parser,
            "generator": s.generator,
            "validators": list(s.validators),
            "policies": list(s.policies),
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
    ) -> Iterator[dict[str, Any]]:
        """Yield one record per foil (and one error record per failed sentence)."""
        rows = list(rows)
        prov = self.provenance()
        done = 0
        for start in range(0, len(rows), batch_size):
            check_cancel(cancel)
            batch = rows[start : start + batch_size]
            yield from self._run_batch(batch, prov, validate)
            done += len(batch)
            report(progress, done, len(rows))

    def _run_batch(self, batch: Sequence[InputRow], prov: dict[str, Any], validate: bool) -> list[dict[str, Any]]:
        """The records of one batch. Built with automatic garbage collection paused (see
        :mod:`core.collector`): the batch allocates many short-lived objects and mid-batch full
        collections used to cost more than the rules themselves."""
        from core.collector import paused

        with paused():
            return list(self._batch_records(batch, prov, validate))

    def _batch_records(
        self, batch: Sequence[InputRow], prov: dict[str, Any], validate: bool
    ) -> Iterator[dict[str, Any]]:
        usable: list[tuple[InputRow, str]] = []
        for row in batch:
            cleaned, problem = screen_sentence(row.sentence)
            if problem is not None:
                yield error_record(row.id, row.sentence, row.paraphrase, "input", problem, prov)
            else:
                usable.append((row, cleaned))
        parsed_all = self.parse([text for _, text in usable]) if usable else []
        from core.rules import reserve_edits

        jobs: list[tuple[InputRow, Edit]] = []
        # id(row) -> (all edits by rule, picked, seed); rows are keyed by identity (ids may repeat in a file)
        enumerated: dict[int, tuple[dict[str, list[Edit]], list[Edit], int]] = {}
        for (row, _), parsed in zip(usable, parsed_all, strict=True):
            if not parsed.ok:
                yield error_record(row.id, row.sentence, row.paraphrase, "parse", parsed.error or "parse failed", prov)
                continue
            try:
                by_rule = self.edits(parsed)
                edits = self.sample(parsed, by_rule)
            except Exception as exc:  # a rule bug must not stop the run; the record says what happened
                yield error_record(row.id, row.sentence, row.paraphrase, "rules", f"{type(exc).__name__}: {exc}", prov)
                continue
            if not edits:
                yield error_record(row.id, row.sentence, row.paraphrase, "rules", "no rule applies", prov)
            enumerated[id(row)] = (by_rule, edits, sentence_seed(self.settings.seed, parsed.text))
            jobs.extend((row, e) for e in edits)
        candidates = self.realize([e for _, e in jobs])
        # An edit the realizer refuses is replaced by the rule's next edit for that sentence (seeded order),
        # up to REPLACEMENT_TRIES times per slot; the last refusal stays as the slot's error record.
        reserves: dict[tuple[int, str], list[Edit]] = {}  # (id(row), rule) -> replacements, made on first need

        def reserve(row: InputRow, rule: str) -> list[Edit]:
            key = (id(row), rule)
            if key not in reserves:
                by_rule, picked, seed = enumerated[id(row)]
                reserves[key] = reserve_edits(by_rule, picked, seed, rules=(rule,))[rule]
            return reserves[key]

        failing = [i for i, c in enumerate(candidates) if c.realization.error is not None]
        for _ in range(REPLACEMENT_TRIES):
            retry = [(i, reserve(jobs[i][0], jobs[i][1].rule)) for i in failing]
            retry = [(i, rest.pop(0)) for i, rest in retry if rest]
            if not retry:
                break
            for (i, edit), cand in zip(retry, self.realize([e for _, e in retry]), strict=True):
                jobs[i] = (jobs[i][0], edit)
                candidates[i] = cand
            failing = [i for i, _ in retry if candidates[i].realization.error is not None]
        ok = [i for i, c in enumerate(candidates) if c.realization.error is None]
        verdicts: list[list[Verdict]] = [[] for _ in candidates]
        if validate and ok:
            for i, v in zip(ok, self.validate([candidates[i] for i in ok]), strict=True):
                verdicts[i] = v
        for (row, _), cand, vs in zip(jobs, candidates, verdicts, strict=True):
            if cand.realization.error is not None:
                kept, why = False, f"realization failed: {cand.realization.error}"
            elif validate:
                kept, why = self.decide(vs)
            else:
                kept, why = True, "not validated"
            yield foil_record(
                cand, vs, row_id=row.id, paraphrase=row.paraphrase, kept=kept, decided_by=why, provenance=prov
            )
