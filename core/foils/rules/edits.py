"""The five SentenceSmith edit rules together: enumerate every applicable :class:`~core.types.Edit`, sample with a seed.

Each rule is a pure function ``parsed -> list[Edit]`` (``[]`` means "not applicable") in its own module: PN
:mod:`~core.foils.rules.negation`, RS :mod:`~core.foils.rules.role_swap`, US :mod:`~core.foils.rules.underspecify`,
AR and HS :mod:`~core.foils.rules.substitute`. They share :mod:`~core.foils.rules.index` (the graph index and the
edit checks) and :mod:`~core.foils.rules.variants`. Edited graphs keep the source's printed layout where the shape
allows (docs/foil-rules.md); ``Edit.details`` follows docs/architecture.md.

>>> from core.foils.amr.graph import decode
>>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
>>> sorted((rule, len(found)) for rule, found in enumerate_edits(p, ("PN", "RS")).items())
[('PN', 1), ('RS', 1)]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from core.errors import ConfigError
from core.foils.rules.index import DROPPED, main_predicate, node_pos, split_concept
from core.foils.rules.lexicon import LexicalOptions
from core.foils.rules.negation import pn_edits
from core.foils.rules.role_swap import rs_edits
from core.foils.rules.substitute import DEFAULT_MAX_CANDIDATES, ar_edits, hs_edits
from core.foils.rules.underspecify import us_edits
from core.foils.rules.variants import DEFAULT_VARIANTS, OPT_IN, RELEASED_VARIANTS, VARIANTS, parse_variants
from core.types import RULES, Edit, ParsedSentence

__all__ = [
    "DEFAULT_MAX_CANDIDATES",
    "DEFAULT_VARIANTS",
    "DROPPED",
    "OPT_IN",
    "RELEASED_VARIANTS",
    "RULE_FUNCTIONS",
    "VARIANTS",
    "ar_edits",
    "enumerate_edits",
    "hs_edits",
    "main_predicate",
    "node_pos",
    "parse_variants",
    "pn_edits",
    "reserve_edits",
    "rs_edits",
    "sample_edits",
    "split_concept",
    "us_edits",
]

RULE_FUNCTIONS: dict[str, Callable[..., list[Edit]]] = {
    "PN": pn_edits,
    "RS": rs_edits,
    "US": us_edits,
    "AR": ar_edits,
    "HS": hs_edits,
}


def enumerate_edits(
    parsed: ParsedSentence,
    rules: Sequence[str] = RULES,
    variants: Mapping[str, Sequence[str]] | None = None,
    lexical: LexicalOptions | None = None,
) -> dict[str, list[Edit]]:
    """Every applicable edit of each rule in ``rules`` (a rule that does not apply maps to ``[]``), with each
    rule's ``variants`` (default :data:`DEFAULT_VARIANTS`; the released code's behaviours are opt-in);
    ``lexical`` configures AR/HS (sense choice, hypernym frequency; default :class:`LexicalOptions`).

    >>> from core.foils.amr.graph import decode
    >>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
    >>> {rule: len(edits) for rule, edits in enumerate_edits(p, ("PN", "US"), {"US": ("leaf",)}).items()}
    {'PN': 1, 'US': 2}
    """
    unknown = [r for r in rules if r not in RULE_FUNCTIONS]
    if unknown:
        raise ConfigError(f"unknown rule(s): {', '.join(unknown)}", hint=f"rules are: {', '.join(RULES)}")
    if not parsed.ok or not parsed.graph.triples:
        return {rule: [] for rule in rules}
    options = lexical or LexicalOptions()
    out = {}
    for rule in rules:
        wanted = (variants or {}).get(rule)
        chosen = tuple(wanted) if wanted else DEFAULT_VARIANTS[rule]
        if rule == "RS":
            out[rule] = rs_edits(parsed, chosen, sense_choice=options.sense_choice)
        elif rule in ("PN", "US"):
            out[rule] = RULE_FUNCTIONS[rule](parsed, chosen)
        else:
            out[rule] = RULE_FUNCTIONS[rule](parsed, options=options, variants=chosen)
    return out


def _rule_order(rule: str) -> tuple[int, str]:
    return (RULES.index(rule), rule) if rule in RULES else (len(RULES), rule)


def sample_edits(edits_by_rule: Mapping[str, Sequence[Edit]], per_rule: int, seed: int) -> list[Edit]:
    """Up to ``per_rule`` edits of each rule, chosen with ``seed``; deterministic and order-independent.

    Each rule draws from its own ``random.Random(f"{seed}:{rule}")`` over its edits sorted by
    ``Edit.key``, so the result does not depend on dict order, on list order, or on which other
    rules are present. Output: rules in :data:`RULES` order, each rule's picks in enumeration order.
    """
    if per_rule < 0:
        raise ConfigError(f"per_rule must be >= 0, got {per_rule}", hint="pass per_rule=1 or more")
    picked: list[Edit] = []
    for rule in sorted(edits_by_rule, key=_rule_order):
        edits = list(edits_by_rule[rule])
        if not edits or per_rule == 0:
            continue
        positions = sorted(range(len(edits)), key=lambda i: (edits[i].key, i))
        rng = random.Random(f"{seed}:{rule}")
        chosen = set(rng.sample(positions, min(per_rule, len(edits))))
        picked.extend(e for i, e in enumerate(edits) if i in chosen)
    return picked


def reserve_edits(
    edits_by_rule: Mapping[str, Sequence[Edit]],
    picked: Sequence[Edit],
    seed: int,
    rules: Sequence[str] | None = None,
) -> dict[str, list[Edit]]:
    """Per rule (of ``rules``, default all), the edits :func:`sample_edits` did not pick, in a seeded
    order: replacements to try when a picked edit cannot be realized on the surface (deterministic,
    order-independent like the sample; a rule's list does not depend on which other rules are asked for).
    """
    taken = {id(e) for e in picked}
    out: dict[str, list[Edit]] = {}
    for rule in sorted(edits_by_rule if rules is None else set(rules) & set(edits_by_rule), key=_rule_order):
        rest = sorted((e for e in edits_by_rule[rule] if id(e) not in taken), key=lambda e: e.key)
        random.Random(f"{seed}:{rule}:reserve").shuffle(rest)
        out[rule] = rest
    return out
