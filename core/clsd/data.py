"""Reading CLSD evaluation sets: the published layout, pivot files, swap annotations, any language pair.

The published layout (``Index, French, German, de_adv1..4, fr_adv1..4``) holds both directions:
DE→FR compares a German source with the French target and ``fr_adv*``; FR→DE compares the French
source with the German target and ``de_adv*``. What a set is (items, tasks, datasets) lives in
:mod:`core.clsd.tasks`; swap annotations and their join to a task in :mod:`core.clsd.swaps`.

Rows that cannot be scored fairly are not dropped silently: an empty source, target or distractor,
or a distractor identical to the target, makes the row an :class:`RowIssue` (excluded from P@1 and
counted by reason).

>>> clsd_languages(["Index", "French", "German", "de_adv1", "fr_adv1"])
{'de': ('German', ['de_adv1']), 'fr': ('French', ['fr_adv1'])}
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from core.clsd.swaps import SwapAnnotation, parse_details
from core.clsd.tasks import (
    ADV_COLUMN,
    DIRECT,
    LANGUAGE_NAMES,
    PIVOT,
    CLSDDataset,
    CLSDItem,
    CLSDTask,
    RowIssue,
    direction_key,
    direction_label,
    norm_text,
)
from core.errors import InputError
from core.textio import read_rows, table_format


def _find(columns: Sequence[str], name: str) -> str | None:
    lowered = {c.strip().lower(): c for c in columns}
    return lowered.get(name.lower())


def _require(columns: Sequence[str], names: Sequence[str], path: str, layout: str) -> dict[str, str]:
    found: dict[str, str] = {}
    missing: list[str] = []
    for name in names:
        col = _find(columns, name)
        if col is None:
            missing.append(name)
        else:
            found[name] = col
    if missing:
        raise InputError(
            f"{path}: missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)} for the {layout} layout",
            hint=f"columns are: {', '.join(c for c in columns if c) or '(none)'}",
        )
    return found


def _id_column(columns: Sequence[str], wanted: str | None, path: str) -> str | None:
    if wanted:
        col = _find(columns, wanted)
        if col is None:
            raise InputError(f"{path}: id column {wanted!r} not found", hint=f"columns are: {', '.join(columns)}")
        return col
    for cand in ("index", "id", "rowindex"):
        col = _find(columns, cand)
        if col is not None:
            return col
    if columns and columns[0].strip() in ("", "Unnamed: 0"):
        return columns[0]  # pandas' unnamed index column
    return None


def _row_id(row: Mapping[str, Any], id_col: str | None, line: int) -> str:
    if id_col is not None:
        value = norm_text(row.get(id_col))
        if value:
            return value
    return str(line - 2)  # 0-based position of the data row


def _make_task(
    rows: Sequence[Mapping[str, Any]],
    *,
    set_name: str,
    path: str,
    source_lang: str,
    target_lang: str,
    source_col: str,
    target_col: str,
    distractor_cols: Sequence[str],
    id_col: str | None,
    condition: str,
    text_lang: str = "",
) -> CLSDTask:
    items: list[CLSDItem] = []
    issues: list[RowIssue] = []
    seen_ids: Counter[str] = Counter()
    for n, row in enumerate(rows, 2):
        rid = _row_id(row, id_col, n)
        seen_ids[rid] += 1
        if seen_ids[rid] > 1:
            rid = f"{rid}#{seen_ids[rid]}"
        source = norm_text(row.get(source_col))
        target = norm_text(row.get(target_col))
        distractors = tuple(norm_text(row.get(c)) for c in distractor_cols)
        problems: list[RowIssue] = []
        if not source:
            problems.append(RowIssue(rid, n, "empty source", source_col))
        if not target:
            problems.append(RowIssue(rid, n, "empty target", target_col))
        for col, text in zip(distractor_cols, distractors, strict=True):
            if not text:
                problems.append(RowIssue(rid, n, "empty distractor", col))
            elif target and text == target:
                problems.append(RowIssue(rid, n, "distractor equals target", col))
        if problems:
            issues.extend(problems)
        else:
            items.append(CLSDItem(rid, source, target, distractors, n))
    return CLSDTask(
        set_name=set_name,
        direction=direction_key(source_lang, target_lang),
        source_lang=source_lang,
        target_lang=target_lang,
        source_column=source_col,
        target_column=target_col,
        distractor_columns=tuple(distractor_cols),
        items=tuple(items),
        issues=tuple(issues),
        condition=condition,
        path=path,
        text_lang=text_lang,
    )


def _read(path: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], list[str]]:
    fmt = table_format(path)
    if fmt == "txt":
        raise InputError(f"{path}: expected a CSV, TSV or JSONL file", hint="CLSD sets are tables with a header row")
    rows = read_rows(path, fmt=fmt)
    if not rows:
        raise InputError(f"{path} has a header but no rows", hint="add at least one row")
    columns = list(rows[0].keys())
    return rows, columns


def clsd_languages(columns: Sequence[str]) -> dict[str, tuple[str, list[str]]]:
    """Languages of the published layout present in ``columns``: code -> (text column, distractor columns).

    >>> clsd_languages(["Index", "French", "German", "de_adv1", "fr_adv2", "fr_adv1"])["fr"]
    ('French', ['fr_adv1', 'fr_adv2'])
    """
    advs: dict[str, list[tuple[int, str]]] = {}
    for col in columns:
        m = ADV_COLUMN.match(col.strip())
        if m:
            advs.setdefault(m.group(1).lower(), []).append((int(m.group(2)), col))
    out: dict[str, tuple[str, list[str]]] = {}
    for code, cols in advs.items():
        text_col = _find(columns, LANGUAGE_NAMES.get(code, code)) or _find(columns, code)
        out[code] = (text_col or "", [c for _, c in sorted(cols)])
    return out


def check_distractor_columns(path: str, by_language: dict[str, list[str]]) -> None:
    """Refuse gaps in ``xx_adv1..k`` and directions with fewer distractors than the others.

    >>> check_distractor_columns("s.csv", {"fr": ["fr_adv1", "fr_adv2"], "de": ["de_adv1", "de_adv3"]})
    Traceback (most recent call last):
    core.errors.InputError: s.csv: distractor columns fr: fr_adv1, fr_adv2; de: de_adv1, de_adv3 (de_adv2 missing) (hint: add the missing column(s), or pass --allow-uneven-distractors to score each direction with the columns it has)
    """
    problems: list[str] = []
    for code, cols in by_language.items():
        numbers = sorted(int(m.group(2)) for c in cols if (m := ADV_COLUMN.match(c.strip())))
        gaps = [f"{code}_adv{k}" for k in range(1, (numbers[-1] if numbers else 0) + 1) if k not in numbers]
        if gaps:
            problems.append(f"{', '.join(gaps)} missing")
    counts = {len(cols) for cols in by_language.values()}
    if problems or len(counts) > 1:
        listed = "; ".join(f"{code}: {', '.join(cols)}" for code, cols in by_language.items())
        raise InputError(
            f"{path}: distractor columns {listed}" + (f" ({'; '.join(problems)})" if problems else " (uneven)"),
            hint="add the missing column(s), or pass --allow-uneven-distractors to score each direction "
            "with the columns it has",
        )


def read_clsd(
    path: str | os.PathLike[str],
    *,
    name: str | None = None,
    condition: str = DIRECT,
    languages: tuple[str, str] = ("de", "fr"),
    id_column: str | None = None,
    allow_uneven: bool = False,
) -> CLSDDataset:
    """Read the published CLSD layout; both directions come from one file.

    The distractor columns of each direction must be numbered 1..k and, when both
    directions are present, equally many: a missing ``de_adv3`` would otherwise be scored
    with three distractors without a note (P@1 against 3 is easier than against 4).
    ``allow_uneven=True`` accepts that, scoring each direction with the columns it has.

    A direction exists when its target language has distractor columns
    (``fr_adv*`` for DE→FR); a file with only one set of distractors gives one task.

    ``condition="pivot"`` reads a pivot file (the same rows in English, possibly with
    a leading unnamed index column): the tasks keep their direction keys, the texts
    are English.
    """
    p = str(path)
    rows, columns = _read(path)
    a, b = languages
    names = [LANGUAGE_NAMES.get(a, a), LANGUAGE_NAMES.get(b, b)]
    found = clsd_languages(columns)
    if a not in found and b not in found:
        _require(columns, [*names, f"{b}_adv1", f"{a}_adv1"], p, "CLSD")
    _require(columns, names, p, "CLSD")
    if not allow_uneven:
        check_distractor_columns(p, {code: found[code][1] for code in (a, b) if code in found})
    id_col = _id_column(columns, id_column, p)
    set_name = name or Path(p).stem
    tasks: dict[str, CLSDTask] = {}
    text_lang = "en" if condition == PIVOT else ""
    for src, tgt in ((a, b), (b, a)):
        if tgt not in found:
            continue  # a one-direction file: no distractors in this target language
        src_col = _find(columns, LANGUAGE_NAMES.get(src, src)) or ""
        tgt_col, adv_cols = found[tgt]
        tasks[direction_key(src, tgt)] = _make_task(
            rows,
            set_name=set_name,
            path=p,
            source_lang=src,
            target_lang=tgt,
            source_col=src_col,
            target_col=tgt_col,
            distractor_cols=adv_cols,
            id_col=id_col,
            condition=condition,
            text_lang=text_lang,
        )
    return CLSDDataset(set_name, p, "clsd", tasks, condition, len(rows))


def _expand_columns(columns: Sequence[str], spec: Sequence[str] | str, path: str) -> list[str]:
    parts = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else [s.strip() for s in spec]
    out: list[str] = []
    missing: list[str] = []
    for part in parts:
        if not part:
            continue
        if any(ch in part for ch in "*?["):
            matched = [c for c in columns if fnmatch.fnmatch(c.lower(), part.lower())]
            if not matched:
                missing.append(part)
            out.extend(sorted(matched, key=_natural_key))
        else:
            col = _find(columns, part)
            if col is None:
                missing.append(part)
            else:
                out.append(col)
    if missing:
        raise InputError(
            f"{path}: missing distractor column{'s' if len(missing) > 1 else ''} {', '.join(missing)}",
            hint=f"columns are: {', '.join(c for c in columns if c)}",
        )
    if not out:
        raise InputError(f"{path}: no distractor columns named", hint="pass e.g. --distractor-cols 'adv1,adv2' or 'adv*'")
    return out


def _natural_key(text: str) -> tuple[Any, ...]:
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text.lower()))


def read_generic(
    path: str | os.PathLike[str],
    *,
    source_column: str,
    target_column: str,
    distractor_columns: Sequence[str] | str,
    id_column: str | None = None,
    source_lang: str = "src",
    target_lang: str = "tgt",
    name: str | None = None,
    condition: str = DIRECT,
) -> CLSDDataset:
    """Read any language pair: one direction, columns named by the caller.

    ``distractor_columns`` is a list or a comma-separated string; entries may be
    glob patterns (``"adv*"``).
    """
    p = str(path)
    rows, columns = _read(path)
    found = _require(columns, [source_column, target_column], p, "generic")
    advs = _expand_columns(columns, distractor_columns, p)
    id_col = _id_column(columns, id_column, p)
    set_name = name or Path(p).stem
    task = _make_task(
        rows,
        set_name=set_name,
        path=p,
        source_lang=source_lang,
        target_lang=target_lang,
        source_col=found[source_column],
        target_col=found[target_column],
        distractor_cols=advs,
        id_col=id_col,
        condition=condition,
        text_lang="en" if condition == PIVOT else "",
    )
    return CLSDDataset(set_name, p, "generic", {task.direction: task}, condition, len(rows))


def sniff_layout(path: str | os.PathLike[str]) -> str:
    """``'clsd'`` when the file has the published distractor columns (``de_adv1``...), else ``'generic'``."""
    _, columns = _read(path)
    return "clsd" if clsd_languages(columns) else "generic"


def read_dataset(path: str | os.PathLike[str], **kwargs: Any) -> CLSDDataset:
    """Read a set in whichever layout it has: the published one, else generic (columns required in ``kwargs``)."""
    if not kwargs.get("source_column") and sniff_layout(path) == "clsd":
        columns = _read(path)[1]
        langs = sorted(k for k, v in clsd_languages(columns).items() if v[0])
        named = sorted(c for c, n in LANGUAGE_NAMES.items() if _find(columns, n) and c not in langs)
        langs = (langs + named + ["de", "fr"])[:2] if len(langs) < 2 else langs
        pair = kwargs.get("languages") or (("de", "fr") if {"de", "fr"} <= set(langs) else tuple(langs[:2]))
        allowed = {k: v for k, v in kwargs.items() if k in ("name", "condition", "id_column", "allow_uneven")}
        return read_clsd(path, languages=pair, **allowed)
    needed = ("source_column", "target_column", "distractor_columns")
    absent = [k for k in needed if not kwargs.get(k)]
    if absent:
        raise InputError(
            f"{path} is not in the published CLSD layout (Index, French, German, de_adv1.., fr_adv1..)",
            hint="name the source, target and distractor columns (--source-col, --target-col, --distractor-cols)",
        )
    allowed = {k: v for k, v in kwargs.items() if k not in ("languages", "allow_uneven")}
    return read_generic(path, **allowed)


# ---------------------------------------------------------------------------------------------- pivot alignment


@dataclass(frozen=True)
class PivotAlignment:
    """The pivot task restricted to rows the direct task also scores, and what did not line up."""

    task: CLSDTask
    missing_ids: tuple[str, ...]  # direct rows absent from the pivot file
    extra_ids: tuple[str, ...]  # pivot rows absent from the direct file


def align_pivot(direct: CLSDTask, pivot: CLSDTask) -> PivotAlignment:
    """Line the pivot rows up with the direct rows by id (rows must describe the same sentences)."""
    direct_ids = [i.id for i in direct.items] + [i.id for i in direct.issues]
    pivot_ids = {i.id for i in pivot.items} | {i.id for i in pivot.issues}
    if len(pivot.distractor_columns) != len(direct.distractor_columns):
        raise InputError(
            f"pivot {pivot.path} has {len(pivot.distractor_columns)} distractors per row, "
            f"the direct set {len(direct.distractor_columns)}",
            hint="the pivot file must translate the same columns",
        )
    missing = tuple(i for i in dict.fromkeys(direct_ids) if i not in pivot_ids)
    known = set(direct_ids)
    extra = tuple(sorted(i for i in pivot_ids if i not in known))
    return PivotAlignment(pivot, missing, extra)


def check_pivot(direct: CLSDDataset, pivot: CLSDDataset) -> CLSDDataset:
    """Check that a pivot set fits a direct set (same directions, overlapping ids) and return it.

    Raises :class:`InputError` when no row id is shared (a different file).
    """
    tasks: dict[str, CLSDTask] = {}
    for key, task in direct.tasks.items():
        if key not in pivot.tasks:
            raise InputError(
                f"pivot file {pivot.path} has no direction {direction_label(key)}",
                hint=f"its directions are: {', '.join(map(direction_label, pivot.tasks)) or '(none)'}",
            )
        ids = {i.id for i in task.items} | {i.id for i in task.issues}
        ptask = pivot.tasks[key]
        ptask = replace(
            ptask,
            items=tuple(i for i in ptask.items if i.id in ids),
            issues=tuple(i for i in ptask.issues if i.id in ids),
        )
        aligned = align_pivot(task, ptask)
        shared = len({i.id for i in task.items} & {i.id for i in aligned.task.items})
        if task.items and not shared:
            raise InputError(
                f"pivot file {pivot.path} shares no row id with {direct.path}",
                hint="the pivot file must hold the same rows (same Index values)",
            )
        missing = tuple(RowIssue(rid, 0, "missing from the pivot file") for rid in aligned.missing_ids)
        tasks[key] = replace(aligned.task, set_name=direct.name, issues=aligned.task.issues + missing)
    return replace(pivot, tasks=tasks, name=direct.name)


# ---------------------------------------------------------------------------------------------- swap annotations

_SWAP_REQUIRED = ("AdversarialText", "AdversarialExample", "RowIndex")


def read_swaps(path: str | os.PathLike[str], *, dataset: str | None = None) -> list[SwapAnnotation]:
    """Read a single-token-swap annotation file (UTF-8 or UTF-16 with BOM, columns in any order).

    ``dataset`` keeps only rows of that ``Dataset`` value (e.g. ``"wmt19"``).
    """
    p = str(path)
    rows, columns = _read(path)
    found = _require(columns, _SWAP_REQUIRED, p, "swap annotation")
    opt = {n: _find(columns, n) for n in ("Dataset", "Operation", "Details", "POSTag", "EntityType", "SemanticallyEquivalent")}
    originals = {code: _find(columns, f"OriginalText{name}") for code, name in LANGUAGE_NAMES.items()}
    out: list[SwapAnnotation] = []
    for n, row in enumerate(rows, 2):
        ds = norm_text(row.get(opt["Dataset"])) if opt["Dataset"] else ""
        if dataset and ds and ds.lower() != dataset.lower():
            continue
        column = norm_text(row.get(found["AdversarialExample"]))
        m = ADV_COLUMN.match(column)
        lang = m.group(1).lower() if m else ""
        orig_col = originals.get(lang)
        if not orig_col:
            raise InputError(
                f"{p}, line {n}: no OriginalText{LANGUAGE_NAMES.get(lang, lang or '?')} column for {column or '(empty)'}",
                hint=f"columns are: {', '.join(columns)}",
            )
        details = norm_text(row.get(opt["Details"])) if opt["Details"] else ""
        operation, old, new = parse_details(details)
        if opt["Operation"] and operation == "other":
            operation = norm_text(row.get(opt["Operation"])).lower() or "other"
        eq_raw = norm_text(row.get(opt["SemanticallyEquivalent"])) if opt["SemanticallyEquivalent"] else ""
        equivalent: bool | None
        try:
            equivalent = bool(float(eq_raw)) if eq_raw else None
        except ValueError:
            equivalent = eq_raw.lower() in ("true", "yes")
        out.append(
            SwapAnnotation(
                dataset=ds,
                row_id=_int_text(norm_text(row.get(found["RowIndex"]))),
                column=column,
                language=lang,
                operation=operation,
                old=old,
                new=new,
                pos=norm_text(row.get(opt["POSTag"])).upper() if opt["POSTag"] else "",
                entity_type=norm_text(row.get(opt["EntityType"])) if opt["EntityType"] else "",
                equivalent=equivalent,
                original=norm_text(row.get(orig_col)),
                adversarial=norm_text(row.get(found["AdversarialText"])),
                line=n,
            )
        )
    return out


def _int_text(value: str) -> str:
    """``'45.0'`` -> ``'45'`` (pandas writes integer ids as floats when a column has blanks)."""
    try:
        f = float(value)
    except ValueError:
        return value
    return str(int(f)) if f.is_integer() else value


def limit_rows(data: CLSDDataset, n: int) -> CLSDDataset:
    """The first ``n`` data rows of the file (usable and excluded alike), in every task."""
    if n < 0:
        raise InputError(f"row limit must be >= 0, got {n}", hint="pass --limit N with N >= 0")
    last = n + 1  # data rows start on line 2
    tasks = {
        key: replace(
            task,
            items=tuple(i for i in task.items if i.line <= last),
            issues=tuple(i for i in task.issues if i.line <= last),
        )
        for key, task in data.tasks.items()
    }
    return replace(data, tasks=tasks, n_rows=min(n, data.n_rows))
