"""Argument types that refuse nonsense at the command line (argparse turns them into one-line errors).

>>> positive_int("3")
3
>>> positive_int("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: must be at least 1, got 0
>>> rule_list("pn, rs")
'PN,RS'
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

RULE_NAMES = ("PN", "RS", "US", "AR", "HS")


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number ``>= low``."""

    def check(text: str) -> int:
        value = _int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    check.__name__ = f"int>={low}"
    return check


positive_int = at_least(1)
"""``--limit``, ``--per-rule``, ``--k``...: 1 or more."""

nonneg_int = at_least(0)
"""``--seed``, ``--n-boot`` (0: none)...: 0 or more."""


def unit_interval(text: str) -> float:
    """A number strictly between 0 and 1 (a confidence level)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (e.g. 0.95), got {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (a memory budget in MB)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {text}")
    return value


def rule_list(text: str) -> str:
    """A non-empty comma-separated subset of the rule names, upper-cased, without repeats."""
    names = list(dict.fromkeys(n.strip().upper() for n in text.split(",") if n.strip()))
    if not names:
        raise argparse.ArgumentTypeError(f"names no rule; use some of {','.join(RULE_NAMES)}")
    unknown = [n for n in names if n not in RULE_NAMES]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown rule {', '.join(unknown)}; use some of {','.join(RULE_NAMES)}")
    return ",".join(names)


def name_list(text: str) -> str:
    """A non-empty comma-separated list of names (models, directions)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("names nothing; give comma-separated names")
    return ",".join(dict.fromkeys(names))
