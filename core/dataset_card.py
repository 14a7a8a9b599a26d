"""A Hugging Face dataset card (``README.md`` with YAML front matter) next to every export.

The card says what the file holds so ``datasets.load_dataset(folder)`` finds it and its typed
features, and records how it was made: seed, package versions, settings, source files, counts per rule.

An existing ``README.md`` that this module did not write is never replaced: the card goes to
``<export name>.README.md`` instead.

>>> print(yaml_text({"configs": [{"config_name": "default", "data_files": "f.parquet"}]}), end="")
configs:
- config_name: "default"
  data_files: "f.parquet"
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.textio import atomic_writer, to_json
from core.types import RULE_NAMES

MARKER = "<!-- written by smithtui: regenerated on every export -->"
CARD_FORMATS = ("jsonl", "csv", "parquet", "st-triplets")


# -- a small YAML writer (JSON scalars are valid YAML) -------------------------------------------
def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return to_json(value)  # a NaN count or rate is null, never ".nan"-less NaN
    return json.dumps(str(value), ensure_ascii=False)


def _yaml_lines(value: Any, indent: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(item, Mapping | list | tuple) and item:
                lines.append(f"{pad}{key}:")
                lines.extend(_yaml_lines(item, indent + (0 if isinstance(item, list | tuple) else 2)))
            else:
                empty = "[]" if isinstance(item, list | tuple) else "{}" if isinstance(item, Mapping) else None
                lines.append(f"{pad}{key}: {empty or _scalar(item)}")
        return lines
    for item in value:
        if isinstance(item, Mapping | list | tuple) and item:
            inner = _yaml_lines(item, indent + 2)
            lines.append(f"{pad}- {inner[0].lstrip()}")
            lines.extend(inner[1:])
        else:
            lines.append(f"{pad}- {_scalar(item)}")
    return lines


def yaml_text(value: Mapping[str, Any]) -> str:
    """Block-style YAML for nested dicts and lists (strings quoted as JSON)."""
    return "\n".join(_yaml_lines(value, 0)) + "\n"


# -- Arrow schema → Hugging Face features --------------------------------------------------------
def _feature(arrow_type: Any) -> dict[str, Any]:
    import pyarrow as pa

    if pa.types.is_struct(arrow_type):
        return {"struct": [{"name": f.name, **_feature(f.type)} for f in arrow_type]}
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        inner = _feature(arrow_type.value_type)
        return {"list": inner.get("dtype", inner.get("struct", inner))}
    name = str(arrow_type)
    return {"dtype": {"double": "float64", "float": "float32", "halffloat": "float16"}.get(name, name)}


def hf_features(schema: Any) -> list[dict[str, Any]]:
    """The ``dataset_info.features`` YAML list of an Arrow schema (what ``datasets`` writes itself)."""
    return [{"name": f.name, **_feature(f.type)} for f in schema]


def _size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "n>1M"


def _features_for(fmt: str, records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]] | None:
    """Exact features of the written file, or None where the loader infers them (JSONL)."""
    from core.export import SENTENCESMITH_COLUMNS, ST_TRIPLET_COLUMNS, parquet_table

    if fmt == "parquet":
        return hf_features(parquet_table(records)[0].schema)
    if fmt == "csv":
        return [{"name": c, "dtype": "string"} for c in SENTENCESMITH_COLUMNS]
    if fmt == "st-triplets":
        return [{"name": c, "dtype": "string"} for c in ST_TRIPLET_COLUMNS]
    return None


def card_metadata(
    records: Sequence[Mapping[str, Any]],
    data_file: str,
    fmt: str,
    *,
    count: int,
    sources: Iterable[str | os.PathLike[str]] = (),
    license: str = "other",
) -> dict[str, Any]:
    """The YAML front matter of a card for ``data_file`` (a name relative to the card)."""
    from core.provenance import file_sha256
    from core.record import as_foil, as_json

    typed = [as_foil(r) for r in records]  # a malformed record fails here, with a hint
    foils = [r for r in typed if r.has_foil]  # a refused edit or failed sentence (foil None) is no foil
    per_rule = dict(sorted(Counter(str(r.rule) for r in foils).items()))
    prov = next((dict(r.provenance) for r in typed if r.provenance is not None), {})
    meta: dict[str, Any] = {
        "license": license,
        "pretty_name": "SentenceSmith foils (smithtui)",
        "language": ["en"],
        "task_categories": ["sentence-similarity"],
        "tags": ["foils", "hard-negatives", "amr", "sentencesmith", "smithtui"],
        "size_categories": [_size_category(count)],
        "configs": [{"config_name": "default", "data_files": [{"split": "train", "path": data_file}]}],
    }
    features = _features_for(fmt, [as_json(r) for r in records])
    if features is not None:
        meta["dataset_info"] = {"features": features}
    meta["smithtui"] = {
        "format": fmt,
        "rows": count,
        "records": len(records),
        "errors": len(typed) - len(foils),
        "counts_per_rule": per_rule,
        "seed": prov.get("seed"),
        "settings": {k: v for k, v in prov.items() if k not in ("versions", "seed")},
        "versions": prov.get("versions") or {},
        "source_files": [
            {"path": str(p), "sha256": file_sha256(p) if Path(p).is_file() else None} for p in sources
        ],
    }
    return meta


def card_text(meta: Mapping[str, Any]) -> str:
    """The whole card: front matter, then a short human-readable summary."""
    info = meta["smithtui"]
    data_file = meta["configs"][0]["data_files"][0]["path"]
    loader = {"parquet": "parquet", "st-triplets": data_file.rsplit(".", 1)[-1], "csv": "csv"}.get(info["format"], "json")
    loader = {"jsonl": "json", "ndjson": "json", "pq": "parquet"}.get(loader, loader)
    rules = "\n".join(
        f"| {rule} | {RULE_NAMES.get(rule, rule)} | {n} |" for rule, n in info["counts_per_rule"].items()
    )
    return (
        f"---\n{yaml_text(meta)}---\n{MARKER}\n\n# {meta['pretty_name']}\n\n"
        f"`{data_file}`: {info['rows']} rows ({info['format']}) from {info['records']} pipeline records, "
        f"{info['errors']} of them errors; seed {info['seed']}.\n\n"
        "Foils are meaning-changed versions of a source sentence made by one AMR-graph edit; with a "
        "paraphrase they form (anchor, positive, hard negative) triples for testing or training embedders.\n\n"
        f"```python\nfrom datasets import load_dataset\nds = load_dataset({loader!r}, data_files={data_file!r})\n```\n\n"
        f"| rule | name | foils |\n|---|---|---|\n{rules}\n"
    )


def write_dataset_card(
    export_path: str | os.PathLike[str],
    records: Sequence[Mapping[str, Any]],
    fmt: str,
    *,
    count: int,
    sources: Iterable[str | os.PathLike[str]] = (),
    license: str = "other",
) -> Path:
    """Write the card next to ``export_path`` (``README.md``, unless a README not ours is there). Returns its path."""
    export = Path(export_path)
    target = export.parent / "README.md"
    if target.exists() and MARKER not in target.read_text(encoding="utf-8", errors="replace"):
        target = export.parent / f"{export.name}.README.md"
    meta = card_metadata(list(records), export.name, fmt, count=count, sources=sources, license=license)
    with atomic_writer(target) as fh:
        fh.write(card_text(meta))
    return target
