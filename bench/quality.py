"""Judged foil quality: generate the default pipeline's kept foils, list what is unjudged, report rates.

The protocol (questions, fluency scale, what is faithful per rule) is ``docs/quality-protocol.md``.
Sentences: ``sample_data/quality/{everyday,news,literary}.txt``, one per line; sentence ids are
``<register>-<line number>`` (``news-007``). Judgements: ``sample_data/quality/judgements.jsonl``, one
JSON object per distinct (source, rule, foil), reused by every round that produces the same foil.

    .venv/bin/python bench/quality.py generate --label before
    .venv/bin/python bench/quality.py todo --label before [--limit 40]
    .venv/bin/python bench/quality.py report --label after --baseline before

A foil is *usable* when its meaning changed, it is faithful to its rule and its fluency is at most 1;
*coverage* is the share of (sentence, rule) cells with at least one usable kept foil.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.errors import InputError  # noqa: E402

DATA = ROOT / "sample_data" / "quality"
REGISTERS: tuple[str, ...] = ("everyday", "news", "literary")
RULES: tuple[str, ...] = ("PN", "RS", "US", "AR", "HS")
FOIL_FIELDS = ("register", "sentence_id", "source", "rule", "variant", "foil", "description")
YES_NO = ("yes", "no")

Key = tuple[str, str, str]  # (source, rule, foil)


@dataclass(frozen=True)
class Judgement:
    """One judge's reading of one distinct (source, rule, foil)."""

    meaning_changed: bool
    faithful: bool
    fluency: int  # 0 as fluent as the source, 1 slightly worse, 2 clearly worse, 3 not English
    note: str = ""

    @property
    def usable(self) -> bool:
        return self.meaning_changed and self.faithful and self.fluency <= 1


# -- files -------------------------------------------------------------------------------------------
def read_sentences(data: Path = DATA) -> list[tuple[str, str, str]]:
    """(register, sentence id, text) for every non-empty line of the three register files."""
    out = []
    for register in REGISTERS:
        path = data / f"{register}.txt"
        if not path.exists():
            raise InputError(f"missing sentence file {path}", hint="one sentence per line in sample_data/quality/")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                out.append((register, f"{register}-{n:03d}", line.strip()))
    return out


def foils_path(label: str, data: Path = DATA) -> Path:
    return data / f"foils-{label}.jsonl"


def read_foils(label: str, data: Path = DATA) -> list[dict[str, Any]]:
    path = foils_path(label, data)
    if not path.exists():
        raise InputError(f"no foils for label {label!r} at {path}", hint=f"run: bench/quality.py generate --label {label}")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def parse_judgement(obj: Mapping[str, Any], where: str) -> tuple[Key, Judgement]:
    """Check one judgements-file object; a malformed one is an error naming its line."""
    for name in ("source", "rule", "foil", "meaning_changed", "faithful", "fluency", "judge", "date"):
        if name not in obj:
            raise InputError(f"{where}: judgement lacks {name!r}", hint="see docs/quality-protocol.md for the fields")
    if obj["meaning_changed"] not in YES_NO or obj["faithful"] not in YES_NO:
        raise InputError(f"{where}: meaning_changed and faithful must be 'yes' or 'no'", hint="write yes/no as strings")
    if obj["fluency"] not in (0, 1, 2, 3):
        raise InputError(f"{where}: fluency must be 0, 1, 2 or 3, got {obj['fluency']!r}", hint="0 = as fluent as source")
    j = Judgement(obj["meaning_changed"] == "yes", obj["faithful"] == "yes", obj["fluency"], str(obj.get("note", "")))
    if not j.usable and not j.note.strip():
        raise InputError(f"{where}: a failing judgement needs a note", hint="say in a few words what is wrong")
    return (obj["source"], obj["rule"], obj["foil"]), j


def read_judgements(path: Path) -> dict[Key, Judgement]:
    """Every judgement by (source, rule, foil); a second judgement of the same triple is an error."""
    out: dict[Key, Judgement] = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{n}: not JSON ({exc.msg})", hint="one JSON object per line") from exc
        key, j = parse_judgement(obj, f"{path.name}:{n}")
        if key in out:
            raise InputError(f"{path.name}:{n}: a second judgement of the same foil", hint="one judgement per (source, rule, foil)")
        out[key] = j
    return out


IMPOSSIBLE_SWAP = "absurd swap"
"""Note prefix (protocol convention) of an RS foil that swaps two arguments of one predicate as the rule
says, but the arguments cannot trade places (an impossible situation): judged not faithful."""


def lenient_rs(judgements: Mapping[Key, Judgement]) -> dict[Key, Judgement]:
    """The judgements with impossible-but-structural RS swaps counted as faithful (``report --lenient-rs``),
    for comparison with judging that accepts any agent-patient swap.

    >>> j = {("s", "RS", "f"): Judgement(True, False, 1, "absurd swap: the soup brought the waiter")}
    >>> lenient_rs(j)[("s", "RS", "f")].usable
    True
    """
    out = dict(judgements)
    for key, j in judgements.items():
        if key[1] == "RS" and j.note.startswith(IMPOSSIBLE_SWAP):
            out[key] = Judgement(j.meaning_changed, True, j.fluency, j.note)
    return out


def key_of(foil: Mapping[str, Any]) -> Key:
    return (foil["source"], foil["rule"], foil["foil"])


# -- subsets -----------------------------------------------------------------------------------------
def judging_order(sentences: Sequence[tuple[str, str, str]], seed: int) -> list[str]:
    """Sentence ids in a seeded random order, registers taking turns: judging in this order, any
    prefix of whole rounds is a seeded random subset with the same count per register."""
    rng = random.Random(seed)
    per_register = []
    for register in REGISTERS:
        ids = [sid for reg, sid, _ in sentences if reg == register]
        rng.shuffle(ids)
        per_register.append(ids)
    return [sid for rnd in zip(*per_register, strict=False) for sid in rnd]


def sample_sentences(sentences: Sequence[tuple[str, str, str]], per_register: int, seed: int) -> set[str]:
    """The first ``per_register`` sentences of each register in :func:`judging_order` (ids).

    >>> rows = [(reg, f"{reg}-{i:03d}", "x") for reg in REGISTERS for i in range(1, 6)]
    >>> small, large = sample_sentences(rows, 2, 1), sample_sentences(rows, 3, 1)
    >>> len(small), small <= large
    (6, True)
    """
    order = judging_order(sentences, seed)
    return set(order[: per_register * len(REGISTERS)])


# -- counting ----------------------------------------------------------------------------------------
@dataclass
class Tally:
    """Counts of one (register, rule) group or an aggregate of groups."""

    kept: int = 0
    judged: int = 0
    meaning: int = 0
    faithful: int = 0
    fluent: int = 0  # fluency 0
    broken: int = 0  # fluency 3
    usable: int = 0
    cells: int = 0  # (sentence, rule) cells
    covered: int = 0  # cells with >= 1 usable kept foil

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def rates(self) -> dict[str, float | None]:
        def pct(n: int, d: int) -> float | None:
            return 100.0 * n / d if d else None

        j = self.judged
        return {
            "meaning": pct(self.meaning, j),
            "faithful": pct(self.faithful, j),
            "fluent": pct(self.fluent, j),
            "not_english": pct(self.broken, j),
            "usable": pct(self.usable, j),
            "coverage": pct(self.covered, self.cells),
        }


def tally(
    sentences: Sequence[tuple[str, str, str]],
    foils: Iterable[Mapping[str, Any]],
    judgements: Mapping[Key, Judgement],
    only: set[str] | None = None,
) -> dict[tuple[str, str], Tally]:
    """One :class:`Tally` per (register, rule) over the sentences (``only``: just these ids).

    Every sentence contributes one cell per rule, whether or not the rule produced a foil; a cell is
    covered when at least one of its kept foils was judged usable.
    """
    groups = {(reg, rule): Tally() for reg in REGISTERS for rule in RULES}
    ids = {sid: reg for reg, sid, _ in sentences if only is None or sid in only}
    usable_cells: set[tuple[str, str]] = set()
    for foil in foils:
        sid, rule = foil["sentence_id"], foil["rule"]
        if sid not in ids:
            continue
        t = groups[(ids[sid], rule)]
        t.kept += 1
        j = judgements.get(key_of(foil))
        if j is None:
            continue
        t.judged += 1
        t.meaning += j.meaning_changed
        t.faithful += j.faithful
        t.fluent += j.fluency == 0
        t.broken += j.fluency == 3
        t.usable += j.usable
        if j.usable:
            usable_cells.add((sid, rule))
    for sid, reg in ids.items():
        for rule in RULES:
            groups[(reg, rule)].cells += 1
            groups[(reg, rule)].covered += (sid, rule) in usable_cells
    return groups


def aggregate(groups: Mapping[tuple[str, str], Tally], register: str | None, rule: str | None) -> Tally:
    total = Tally()
    for (reg, r), t in groups.items():
        if (register is None or reg == register) and (rule is None or r == rule):
            total.add(t)
    return total


def table(groups: Mapping[tuple[str, str], Tally]) -> list[str]:
    """Markdown rows: per register and rule, per register, per rule, overall."""
    head = "| register | rule | kept | judged | meaning changed | faithful | as fluent | not English | usable | coverage |"
    lines = [head, "|" + "---|" * 10]

    def row(reg: str, rule: str, t: Tally) -> str:
        cells = [f"{v:.0f}%" if v is not None else "-" for v in t.rates().values()]
        return f"| {reg} | {rule} | {t.kept} | {t.judged} | " + " | ".join(cells) + " |"

    for reg in REGISTERS:
        for rule in RULES:
            lines.append(row(reg, rule, groups[(reg, rule)]))
        lines.append(row(f"**{reg}**", "all", aggregate(groups, reg, None)))
    for rule in RULES:
        lines.append(row("all", rule, aggregate(groups, None, rule)))
    lines.append(row("**all**", "**all**", aggregate(groups, None, None)))
    return lines


def variant_rows(foils: Iterable[Mapping[str, Any]], judgements: Mapping[Key, Judgement], only: set[str] | None = None) -> list[str]:
    """Markdown rows: kept and usable foils per (rule, variant), judged foils only."""
    counts: dict[tuple[str, str], list[int]] = {}
    for foil in foils:
        j = judgements.get(key_of(foil))
        if j is None or (only is not None and foil["sentence_id"] not in only):
            continue
        c = counts.setdefault((foil["rule"], foil["variant"]), [0, 0])
        c[0] += 1
        c[1] += j.usable
    lines = ["| rule | variant | judged | usable |", "|---|---|---|---|"]
    for (rule, variant), (n, u) in sorted(counts.items(), key=lambda kv: (RULES.index(kv[0][0]), kv[0][1])):
        lines.append(f"| {rule} | {variant} | {n} | {100 * u / n:.0f}% |")
    return lines


def comparison(label: str, groups: Mapping[tuple[str, str], Tally], baseline: str, base: Mapping[tuple[str, str], Tally]) -> str:
    """One line: overall kept, usable, as-fluent and coverage of ``label`` against ``baseline``."""
    now, then = aggregate(groups, None, None), aggregate(base, None, None)
    r, b = now.rates(), then.rates()

    def fmt(v: float | None) -> str:
        return f"{v:.0f}%" if v is not None else "-"

    parts = [f"kept {then.kept} -> {now.kept}"]
    for name in ("usable", "meaning", "fluent", "not_english", "coverage"):
        parts.append(f"{name} {fmt(b[name])} -> {fmt(r[name])}")
    return f"{baseline} -> {label}: " + ", ".join(parts)


# -- subcommands -------------------------------------------------------------------------------------
def generate(label: str, data: Path = DATA) -> Path:
    """Run the default pipeline (validation on, default seed) and write every kept foil, in a stable order."""
    from core.config import Settings
    from core.foils.pipeline import FoilPipeline
    from core.inputs import InputRow
    from core.textio import atomic_write_jsonl

    sentences = read_sentences(data)
    pipe = FoilPipeline.from_settings(Settings())
    register = {sid: reg for reg, sid, _ in sentences}
    order = {sid: n for n, (_, sid, _) in enumerate(sentences)}
    rows = [InputRow(id=sid, sentence=text) for _, sid, text in sentences]
    kept, errors = [], []
    for rec in pipe.run(rows, validate=True):
        if rec.get("error"):
            errors.append(f"{rec.get('row_id')}: {rec['error']}")
        if rec.get("kept") and rec.get("foil"):
            sid = rec["row_id"]
            kept.append(
                {
                    "register": register[sid],
                    "sentence_id": sid,
                    "source": rec["source"],
                    "rule": rec["rule"],
                    "variant": rec["variant"],
                    "foil": rec["foil"],
                    "description": rec["description"],
                }
            )
    kept.sort(key=lambda f: (order[f["sentence_id"]], RULES.index(f["rule"]), f["variant"], f["foil"]))
    prov = pipe.provenance()
    meta = {"label": label, "seed": prov["seed"], "per_rule": prov["per_rule"], "validators": prov["validators"]}
    path = foils_path(label, data)
    atomic_write_jsonl(path, [{**f, "run": meta} for f in kept])
    print(f"{len(kept)} kept foils of {len(sentences)} sentences -> {path}")
    if errors:  # a parse or rule failure must not pass for a sentence without foils
        print(f"{len(errors)} records carry an error (first: {errors[0]})", file=sys.stderr)
    if sentences and not kept:
        print("warning: no foil was kept: check the parser and WordNet set-up", file=sys.stderr)
    return path


def todo(
    label: str, judgements: Path, limit: int | None, only: set[str] | None, seed: int = 13, data: Path = DATA
) -> list[dict[str, Any]]:
    """The kept foils of ``label`` that no judgement covers yet (each distinct triple once), whole
    sentences in :func:`judging_order`."""
    done = read_judgements(judgements)
    rank = {sid: n for n, sid in enumerate(judging_order(read_sentences(data), seed))}
    seen: set[Key] = set()
    out = []
    for foil in sorted(read_foils(label, data), key=lambda f: rank.get(f["sentence_id"], len(rank))):
        key = key_of(foil)
        if key in done or key in seen or (only is not None and foil["sentence_id"] not in only):
            continue
        seen.add(key)
        out.append(foil)
    return out[:limit] if limit else out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    for name in ("generate", "todo", "report"):
        p = sub.add_parser(name)
        p.add_argument("--label", required=True)
        p.add_argument("--data", type=Path, default=DATA, help="folder of the sentence, foil and judgement files")
        if name != "generate":
            p.add_argument("--judgements", type=Path, default=None, help="default: <data>/judgements.jsonl")
            p.add_argument("--subset", type=int, default=0, help="judge only N seeded random sentences per register")
            p.add_argument("--subset-seed", type=int, default=13)
        if name == "todo":
            p.add_argument("--limit", type=int, default=0)
            p.add_argument("--text", action="store_true", help="readable blocks instead of JSON lines")
        if name == "report":
            p.add_argument("--baseline", default="", help="a second label to compare with in one line")
            p.add_argument("--variants", action="store_true", help="also print usable rates per rule variant")
            p.add_argument("--lenient-rs", action="store_true", help="count impossible RS swaps as faithful")
    args = ap.parse_args(argv)
    data: Path = args.data
    if args.command == "generate":
        generate(args.label, data)
        return
    judgements_file = args.judgements or data / "judgements.jsonl"
    only = sample_sentences(read_sentences(data), args.subset, args.subset_seed) if args.subset else None
    if args.command == "todo":
        items = todo(args.label, judgements_file, args.limit or None, only, args.subset_seed, data)
        for foil in items:
            if args.text:
                print(f"{foil['sentence_id']} {foil['rule']}/{foil['variant']}: {foil['description']}")
                print(f"  S: {foil['source']}\n  F: {foil['foil']}")
            else:
                print(json.dumps({k: foil[k] for k in FOIL_FIELDS}, ensure_ascii=False))
        print(f"# {len(items)} unjudged", file=sys.stderr)
        return
    sentences = read_sentences(data)
    judged = read_judgements(judgements_file)
    if args.lenient_rs:
        judged = lenient_rs(judged)
    groups = tally(sentences, read_foils(args.label, data), judged, only)
    scope = f", {args.subset} sentences per register (seed {args.subset_seed})" if only else ""
    scope += ", impossible RS swaps counted faithful" if args.lenient_rs else ""
    print(f"label {args.label}{scope}")
    print("\n".join(table(groups)))
    if args.variants:
        print("\n".join(variant_rows(read_foils(args.label, data), judged, only)))
    if args.baseline:
        base = tally(sentences, read_foils(args.baseline, data), judged, only)
        print(comparison(args.label, groups, args.baseline, base))


if __name__ == "__main__":
    main()
