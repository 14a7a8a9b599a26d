"""The results table of an evaluation: one builder and one writer for the CLI and the Compare screen.

:func:`table_rows` flattens a result (``EvalResult.to_dict()`` or its saved JSON) into one row
per model; :func:`table_records` adds the dataset label and the seed; :func:`write_table` writes
those records as CSV (``smithtui eval --out-csv``, Compare's ctrl+s) or JSONL.

>>> result = {"dataset": {"rules": {"PN": 1}}, "params": {"seed": 13}, "models": [
...     {"name": "bow", "ok": True, "tacc": 0.5, "tacc_ci": None, "auc": 0.6, "hm": 0.55, "hm_ci": None,
...      "n": 2, "ties": 0, "per_rule": {"PN": {"tacc": 0.0, "n": 1}}, "timings": {"total_s": 0.1}},
...     {"name": "gone", "ok": False, "error": "no such model"}]}
>>> [r["model"] for r in table_rows(result, ranked=True)], table_records({"t": result})[0]["seed"]
(['bow', 'gone'], 13)
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def table_rows(result: Mapping[str, Any], *, ranked: bool = False) -> list[dict[str, Any]]:
    """Flat rows (model, TACC with CI, AUC, HM, per-rule TACC, n, seconds) from a result dict (or saved JSON).

    ``ranked`` orders them by HM, best first, with the models that failed last.
    """
    rules = list(result.get("dataset", {}).get("rules", {}))
    rows = []
    for m in result.get("models", []):
        row: dict[str, Any] = {"model": m["name"], "ok": m["ok"]}
        if m["ok"]:
            row.update(
                tacc=m["tacc"], tacc_lo=(m["tacc_ci"] or [None])[0], tacc_hi=(m["tacc_ci"] or [None, None])[1],
                auc=m["auc"], hm=m["hm"], hm_lo=(m["hm_ci"] or [None])[0], hm_hi=(m["hm_ci"] or [None, None])[1],
                n=m["n"], ties=m["ties"],
            )  # fmt: skip
            for r in rules:
                pr = m["per_rule"].get(r)
                row[f"tacc_{r}"] = pr["tacc"] if pr else None
                row[f"n_{r}"] = pr["n"] if pr else 0
            row["seconds"] = m["timings"].get("total_s")
        else:
            row["error"] = m["error"]
        rows.append(row)
    if ranked:
        rows.sort(key=_rank)
    return rows


def _rank(row: Mapping[str, Any]) -> tuple[bool, float]:
    hm = row.get("hm")
    finite = isinstance(hm, (int, float)) and not math.isnan(hm)
    return (not row["ok"], -(float(hm) if finite else -1.0))


def table_records(results: Mapping[str, Mapping[str, Any]], *, ranked: bool = False) -> list[dict[str, Any]]:
    """The exported rows: ``dataset`` (the label of each result), the :func:`table_rows` columns, ``seed``."""
    out = []
    for label, result in results.items():
        seed = result.get("params", {}).get("seed")
        out.extend({"dataset": label, **row, "seed": seed} for row in table_rows(result, ranked=ranked))
    return out


def table_columns(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every column of ``records`` in first-seen order, ``error`` and ``seed`` last."""
    cols = list(dict.fromkeys(k for r in records for k in r if k not in ("error", "seed")))
    return [*cols, *(c for c in ("error", "seed") if any(c in r for r in records))]


def write_table(
    path: str | os.PathLike[str],
    results: Mapping[str, Mapping[str, Any]],
    *,
    fmt: str | None = None,
    ranked: bool = False,
) -> Path:
    """Write the table of ``results`` ({label: result dict}) atomically; returns the path written.

    ``fmt`` is ``"csv"`` or ``"jsonl"``; None tells it from the suffix (``.csv``, ``.jsonl``/``.json``).
    ``ranked`` orders each result's models as :func:`table_rows` does (the Compare screen's order).
    """
    from core.errors import InputError, SmithError
    from core.textio import atomic_write_csv, atomic_write_jsonl

    target = Path(path).expanduser()
    suffix = target.suffix.lower()
    if fmt is None:
        if suffix not in (".csv", ".jsonl", ".json"):
            raise InputError(f"cannot tell the format of {target.name!r}", hint="end the name with .csv or .jsonl")
        fmt = "csv" if suffix == ".csv" else "jsonl"
    records = table_records(results, ranked=ranked)
    try:
        if fmt == "jsonl":
            atomic_write_jsonl(target, records)
        else:
            atomic_write_csv(target, records, table_columns(records))
    except OSError as exc:
        raise SmithError(f"cannot write {target}: {exc.strerror or exc}", hint="free some space or pick another folder") from exc
    return target
