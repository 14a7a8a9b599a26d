"""Filter policies as data: which foils to keep, decided from validator verdicts.

A policy is a short string, parsed once:

* ``contradiction>0.9``: the paper's main filter (forward NLI contradiction probability);
  any label (``entailment``, ``neutral``, ``contradiction``), operator (``>``, ``>=``,
  ``<``, ``<=``) and direction prefix (``fwd.``, the default; ``rev.``; ``both.``; ``either.``);
* ``neutral in [0.5,0.8]``: the paper's ablation (a probability within an interval;
  ``[``/``]`` inclusive, ``(``/``)`` exclusive; also ``0.5..0.8``);
* ``not mutual entailment``: drop foils that NLI finds entailed in both directions
  (entailment is the top label both ways; ``not mutual entailment>0.5`` uses a threshold);
* ``roundtrip`` (or any validator name such as ``nli``): keep when that validator passed;
* ``fluency>=-1.0``: the foil's relative fluency (:mod:`core.foils.fluency`: mean per-token log-probability
  of foil minus source) compared with a threshold; bare ``fluency`` uses ``pipeline.fluency_threshold``
  (the pipeline's ``fluency`` verdict). A foil the scorer did not score (``pipeline.fluency = none``)
  passes, and the reason says so.

Policies combine by conjunction: a list, or one string joined with ``and``/``;``. Every
decision says which policy decided and why.

>>> from core.types import Verdict
>>> v = Verdict("nli", True, 0.97, "", {"fwd.contradiction": 0.97, "fwd.neutral": 0.02, "fwd.entailment": 0.01})
>>> d = apply_policies(["contradiction>0.9"], [v])
>>> d.kept, d.reason
(True, 'contradiction>0.9: fwd.contradiction 0.970 > 0.9')
>>> apply_policies(["neutral in [0.5,0.8]"], [v]).reason
'neutral in [0.5,0.8]: fwd.neutral 0.020 is outside [0.5,0.8]'
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from core.errors import ConfigError
from core.foils.fluency import VERDICT as FLUENCY
from core.types import Verdict

LABELS = ("entailment", "neutral", "contradiction")
_OPS: dict[str, Callable[[float, float], bool]] = {
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
}
_NUM = r"([0-9]*\.?[0-9]+)"
_LABEL = r"(?:(fwd|rev|both|either)\.)?(entailment|neutral|contradiction)"
_THRESHOLD_RE = re.compile(rf"^{_LABEL}\s*(>=|<=|>|<)\s*{_NUM}$")
_RANGE_RE = re.compile(rf"^{_LABEL}\s+in\s+(?:([\[(])\s*{_NUM}\s*,\s*{_NUM}\s*([\])])|{_NUM}\s*\.\.\s*{_NUM})$")
_MUTUAL_RE = re.compile(rf"^not\s+mutual\s+entailment(?:\s*(>=|>)\s*{_NUM})?$")
_NAME_RE = re.compile(r"^[a-z][a-z0-9_-]*$")
_FLUENCY_RE = re.compile(r"^fluency(>=|<=|>|<)(-?[0-9]*\.?[0-9]+)$")
FORMS = "contradiction>0.9, rev.entailment<0.5, neutral in [0.5,0.8], not mutual entailment, roundtrip, fluency>=-1.0"


@dataclass(frozen=True)
class PolicyCheck:
    """One policy's judgement of one record; ``passed`` is None when it could not judge."""

    policy: str
    passed: bool | None
    reason: str


@dataclass(frozen=True)
class Decision:
    """Keep or drop, the policy that decided, why, and every policy's check."""

    kept: bool
    policy: str
    reason: str
    checks: tuple[PolicyCheck, ...] = field(default=())


def _probability(verdicts: Sequence[Verdict], key: str) -> tuple[float | None, str]:
    """The first verdict's probability under ``key``, or None with the reason it is missing."""
    for v in verdicts:
        if key in v.probabilities:
            return float(v.probabilities[key]), ""
    nli = [v for v in verdicts if v.validator.startswith("nli")]
    if nli:
        return None, f"NLI could not judge: {nli[0].reason}"
    return None, "no NLI verdict (add 'nli' to pipeline.validators)"


def _directions(direction: str) -> tuple[str, ...]:
    return ("fwd", "rev") if direction in ("both", "either") else (direction,)


@dataclass(frozen=True)
class Policy:
    """Base: a parsed policy; ``text`` is its canonical spelling."""

    text: str

    def check(self, verdicts: Sequence[Verdict]) -> PolicyCheck:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True)
class ProbabilityPolicy(Policy):
    """A label probability compared with a threshold or tested against an interval."""

    direction: str = "fwd"
    label: str = "contradiction"
    op: str = ">"
    value: float = 0.9
    low: float | None = None
    high: float | None = None
    closed: tuple[bool, bool] = (True, True)

    def _one(self, p: float) -> bool:
        if self.low is None or self.high is None:
            return _OPS[self.op](p, self.value)
        lo_ok = p >= self.low if self.closed[0] else p > self.low
        hi_ok = p <= self.high if self.closed[1] else p < self.high
        return lo_ok and hi_ok

    def _condition(self) -> str:
        if self.low is None:
            return f"{self.op} {self.value:g}"
        return f"{'[' if self.closed[0] else '('}{self.low:g},{self.high:g}{']' if self.closed[1] else ')'}"

    def check(self, verdicts: Sequence[Verdict]) -> PolicyCheck:
        parts, results = [], []
        for d in _directions(self.direction):
            p, missing = _probability(verdicts, f"{d}.{self.label}")
            if p is None:
                return PolicyCheck(self.text, None, missing)
            ok = self._one(p)
            results.append(ok)
            if self.low is None:
                parts.append(f"{d}.{self.label} {p:.3f} {self.op if ok else 'not ' + self.op} {self.value:g}")
            else:
                parts.append(f"{d}.{self.label} {p:.3f} is {'within' if ok else 'outside'} {self._condition()}")
        passed = any(results) if self.direction == "either" else all(results)
        return PolicyCheck(self.text, passed, "; ".join(parts))


@dataclass(frozen=True)
class MutualEntailmentPolicy(Policy):
    """Drops a foil entailed both ways (a paraphrase, not a foil)."""

    threshold: float | None = None  # None: entailment is the top label in both directions

    def check(self, verdicts: Sequence[Verdict]) -> PolicyCheck:
        entailed: list[bool] = []
        shown: list[str] = []
        for d in ("fwd", "rev"):
            probs: dict[str, float] = {}
            for label in LABELS:
                p, missing = _probability(verdicts, f"{d}.{label}")
                if p is None:
                    return PolicyCheck(self.text, None, missing)
                probs[label] = p
            if self.threshold is None:
                entailed.append(max(probs, key=lambda k: probs[k]) == "entailment")
            else:
                entailed.append(probs["entailment"] > self.threshold)
            shown.append(f"{d}.entailment {probs['entailment']:.3f}")
        mutual = all(entailed)
        rule = "top label" if self.threshold is None else f"> {self.threshold:g}"
        verdict = "mutual entailment" if mutual else "not mutual entailment"
        return PolicyCheck(self.text, not mutual, f"{verdict} ({', '.join(shown)}; entailment {rule})")


@dataclass(frozen=True)
class ValidatorPolicy(Policy):
    """Keep when the named validator's verdict passed (``roundtrip``: the foil engine's graph check)."""

    validator: str = "roundtrip"

    def check(self, verdicts: Sequence[Verdict]) -> PolicyCheck:
        mine = [v for v in verdicts if v.validator == self.validator or v.validator.startswith(self.validator + ":")]
        if not mine:
            return PolicyCheck(self.text, None, f"no {self.validator} verdict (add it to pipeline.validators)")
        v = mine[0]
        state = {True: "passed", False: "failed", None: "could not judge"}[v.passed]
        return PolicyCheck(self.text, v.passed, f"{self.validator} {state}: {v.reason}" if v.reason else state)


@dataclass(frozen=True)
class FluencyPolicy(Policy):
    """Keep when the foil's relative fluency (foil minus source) passes a threshold.

    >>> v = Verdict("fluency", True, -0.42, "trigram: foil -4.10, source -3.68")
    >>> parse_policy("fluency >= -1").check([v]).passed
    True
    >>> parse_policy("fluency>-0.3").check([v]).reason
    'fluency -0.420 not > -0.3 (trigram: foil -4.10, source -3.68)'
    """

    op: str = ">="
    value: float = -1.0

    def check(self, verdicts: Sequence[Verdict]) -> PolicyCheck:
        mine = [v for v in verdicts if v.validator == FLUENCY]
        if not mine:
            return PolicyCheck(self.text, None, "no fluency score (set pipeline.fluency to a scorer)")
        v = mine[0]
        if v.score != v.score:  # NaN: the configured scorer is "none"
            return PolicyCheck(self.text, True, f"not scored: {v.reason}")
        ok = _OPS[self.op](v.score, self.value)
        return PolicyCheck(self.text, ok, f"fluency {v.score:.3f} {self.op if ok else 'not ' + self.op} {self.value:g} ({v.reason})")


def _float(text: str, policy: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"policy {policy!r}: {value} is not a probability", hint="use a number between 0 and 1")
    return value


@lru_cache(maxsize=256)
def parse_policy(text: str) -> Policy:
    """Parse one policy string (see the module docstring for the forms).

    >>> parse_policy("Contradiction > 0.9")
    ProbabilityPolicy(text='contradiction>0.9', direction='fwd', label='contradiction', op='>', value=0.9, low=None, high=None, closed=(True, True))
    """
    raw = " ".join(str(text).strip().lower().split())
    if m := _THRESHOLD_RE.match(raw.replace(" ", "")):
        direction, label, op, value = m.groups()
        canon = f"{direction + '.' if direction else ''}{label}{op}{float(value):g}"
        return ProbabilityPolicy(canon, direction or "fwd", label, op, _float(value, raw))
    if m := _RANGE_RE.match(raw):
        direction, label, left, lo, hi, right, lo2, hi2 = m.groups()
        low, high = (lo, hi) if lo is not None else (lo2, hi2)
        closed = (left != "(", right != ")") if left else (True, True)
        a, b = _float(low, raw), _float(high, raw)
        if a > b:
            raise ConfigError(f"policy {text!r}: empty interval", hint="write the lower bound first")
        canon = f"{direction + '.' if direction else ''}{label} in {'[' if closed[0] else '('}{a:g},{b:g}{']' if closed[1] else ')'}"
        return ProbabilityPolicy(canon, direction or "fwd", label, "in", 0.0, a, b, closed)
    if m := _MUTUAL_RE.match(raw):
        op, value = m.groups()
        threshold = _float(value, raw) if value is not None else None
        return MutualEntailmentPolicy(
            "not mutual entailment" + (f">{threshold:g}" if threshold is not None else ""), threshold
        )
    if m := _FLUENCY_RE.match(raw.replace(" ", "")):
        op, value = m.groups()
        return FluencyPolicy(f"fluency{op}{float(value):g}", op, float(value))
    if _NAME_RE.match(raw):
        return ValidatorPolicy(raw, raw)
    raise ConfigError(f"unknown filter policy {text!r}", hint=f"policies look like: {FORMS}")


def _rejoin(items: Iterable[str]) -> list[str]:
    """Undo comma splitting inside brackets (``"neutral in [0.5", "0.8]"`` from a CLI list)."""
    out: list[str] = []
    for item in items:
        if out and out[-1].count("[") + out[-1].count("(") > out[-1].count("]") + out[-1].count(")"):
            out[-1] = f"{out[-1]},{item}"
        else:
            out.append(item)
    return out


def parse_policies(policies: str | Sequence[str | Policy]) -> list[Policy]:
    """Parse a list (or one ``and``/``;``-joined string) of policies.

    >>> [p.text for p in parse_policies("contradiction>0.9 and roundtrip")]
    ['contradiction>0.9', 'roundtrip']
    >>> [p.text for p in parse_policies(["neutral in [0.5", "0.8]"])]
    ['neutral in [0.5,0.8]']
    """
    items = [policies] if isinstance(policies, str) else list(policies)
    parsed: list[Policy] = []
    texts: list[str] = []
    for item in items:
        if isinstance(item, Policy):
            parsed.append(item)
            continue
        for part in re.split(r"\s+and\s+|;", str(item)):
            if part.strip():
                texts.append(part.strip())
    parsed.extend(parse_policy(t) for t in _rejoin(texts))
    return parsed


def apply_policies(policies: str | Sequence[str | Policy], verdicts: Sequence[Verdict]) -> Decision:
    """Keep a record when every policy passes; otherwise the first policy that did not pass decides.

    A policy that cannot judge (its validator did not run or could not score) drops the record.
    """
    parsed = parse_policies(policies)
    if not parsed:
        return Decision(True, "none", "no filter policy configured")
    checks = tuple(p.check(verdicts) for p in parsed)
    for check in checks:
        if check.passed is not True:
            why = check.reason if check.passed is False else f"undecided: {check.reason}"
            return Decision(False, check.policy, f"{check.policy}: {why}", checks)
    return Decision(
        True, " and ".join(c.policy for c in checks), "; ".join(f"{c.policy}: {c.reason}" for c in checks), checks
    )


def apply_policies_many(
    policies: str | Sequence[str | Policy], verdicts: Sequence[Sequence[Verdict]]
) -> list[Decision]:
    """:func:`apply_policies` for each record's verdicts (policies parsed once)."""
    parsed = parse_policies(policies)
    return [apply_policies(parsed, vs) for vs in verdicts]
