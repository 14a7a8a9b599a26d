"""Each rule's variants: the paper's definitions are the defaults, the released code's behaviours are opt-in.

>>> DEFAULT_VARIANTS["US"]
('modifier', 'adjunct', 'optional-argument')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.errors import ConfigError

PN_VARIANTS: tuple[str, ...] = ("main-predicate", "clause-predicate", "determiner", "any-node")
RS_VARIANTS: tuple[str, ...] = ("agent-patient", "recipient", "comparison", "clauses", "agent-patient-any", "two-leaf")
US_VARIANTS: tuple[str, ...] = ("modifier", "adjunct", "optional-argument", "object", "leaf")
VARIANTS: Mapping[str, tuple[str, ...]] = {
    "PN": (*PN_VARIANTS, "unnegate"),
    "RS": RS_VARIANTS,
    "US": US_VARIANTS,
    "AR": ("antonym", "converse", "indirect"),
    "HS": ("hypernym", "abstract", "verb"),
}
OPT_IN: frozenset[str] = frozenset(
    {
        "PN:any-node",
        "RS:agent-patient-any",
        "RS:two-leaf",
        "US:object",
        "US:leaf",
        "AR:indirect",
        "HS:abstract",
        "HS:verb",
    }
)
"""The released code's behaviours: labelled variants a user asks for by name (``--variants PN:any-node``);
they are not part of the defaults because most of what they produce is not a usable foil (docs/foil-rules.md)."""
RELEASED_VARIANTS: Mapping[str, tuple[str, ...]] = {
    "PN": ("main-predicate", "any-node"),
    "RS": ("agent-patient-any", "two-leaf"),
    "US": ("leaf",),
    "AR": ("antonym", "indirect"),
    "HS": ("hypernym", "abstract", "verb"),
}
"""The first round's defaults (the paper plus the released code's behaviours): ``--variants
PN:main-predicate,PN:any-node,RS:agent-patient-any,RS:two-leaf,US:leaf`` reproduces its edits (its
unconstrained agent-patient swap is now labelled ``agent-patient-any``; its antonyms of a satellite adjective's
head, ``AR:indirect``; its hypernyms of abstract nouns,
``HS:abstract``; its verb hypernyms, ``HS:verb``)."""
DEFAULT_VARIANTS: Mapping[str, tuple[str, ...]] = {
    rule: tuple(v for v in names if f"{rule}:{v}" not in OPT_IN) for rule, names in VARIANTS.items()
}


def _check_variants(rule: str, variants: Sequence[str], known: Sequence[str]) -> None:
    unknown = [v for v in variants if v not in known]
    if unknown:
        raise ConfigError(
            f"unknown {rule} variant(s): {', '.join(unknown)}", hint=f"{rule} variants are: {', '.join(known)}"
        )


def parse_variants(entries: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The variants per rule from ``RULE:variant`` entries; rules not named keep :data:`DEFAULT_VARIANTS`.

    >>> parse_variants(["PN:main-predicate", "PN:any-node"])["PN"]
    ('main-predicate', 'any-node')
    >>> parse_variants([])["RS"] == DEFAULT_VARIANTS["RS"]
    True
    """
    chosen: dict[str, list[str]] = {}
    for entry in entries:
        rule, sep, variant = str(entry).strip().partition(":")
        rule = rule.strip().upper()
        if not sep or rule not in VARIANTS:
            raise ConfigError(f"bad rule variant {entry!r}", hint="write RULE:variant, e.g. PN:any-node or RS:two-leaf")
        _check_variants(rule, [variant.strip()], VARIANTS[rule])
        chosen.setdefault(rule, []).append(variant.strip())
    return {rule: tuple(chosen.get(rule, DEFAULT_VARIANTS[rule])) for rule in VARIANTS}
