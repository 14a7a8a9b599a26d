"""Finding a backend's model weights (a local folder or the Hugging Face hub cache) and reading its files.

Every check here runs before any weights load or batch starts, and none touches the
network: a hub id that is not in the local cache fails at once with a hint instead of
spending ~50 s on hub retries.

>>> looks_like_path("./models/nli"), looks_like_path("juliussteen/DeBERTa-v3-FaithAug")
(True, False)

Offline mode, the cache lookup, devices and loading once live in :mod:`core.hub`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from core.errors import ModelMissingError
from core.hub import cached_snapshot, hub_reachable, is_offline, offline_setting

TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "spiece.model",
    "sentencepiece.bpe.model",
    "vocab.json",
    "vocab.txt",
)


def looks_like_path(spec: str) -> bool:
    """A model spec that can only be a filesystem path (a hub id is ``name`` or ``org/name``)."""
    return spec.startswith(("/", "./", "../", "~", ".\\")) or spec.count("/") > 1 or "\\" in spec or spec in (".", "..")


def locate_model(spec: str, *, what: str, setting: str) -> str:
    """Resolve a model spec to a local folder, or to a hub id that can really be downloaded.

    ``what`` names the model in messages ("NLI model"), ``setting`` the config key to fix.
    Raises :class:`ModelMissingError` for an empty spec, a missing folder, or a hub id
    that is neither cached nor downloadable (offline, or the hub unreachable).
    """
    spec = spec.strip()
    if not spec:
        raise ModelMissingError(f"no {what} configured", hint=f"set {setting} to a model folder or a hub id")
    path = Path(spec).expanduser()
    if path.is_dir():
        return str(path.resolve())
    if path.exists():
        raise ModelMissingError(f"{what} {spec!r} is a file, not a model folder", hint=f"set {setting} to the folder")
    if looks_like_path(spec):
        raise ModelMissingError(f"{what} folder not found: {spec}", hint=f"set {setting} to an existing folder")
    cached = cached_snapshot(spec)
    if cached is not None:
        return str(cached)
    name = spec.rsplit("/", 1)[-1]
    get = (
        f"where there is network run `huggingface-cli download {spec} --local-dir {name}`, copy that folder here "
        f"and set {setting} to it (a copied Hugging Face cache works too)"
    )
    if is_offline():
        raise ModelMissingError(
            f"{what} {spec!r} is not a folder here and not in the Hugging Face cache, and the hub is offline "
            f"({offline_setting()})",
            hint=get,
        )
    if not hub_reachable():
        raise ModelMissingError(f"{what} {spec!r} is not cached and the Hugging Face hub is not reachable", hint=get)
    return spec


def has_tokenizer(folder: str | Path) -> bool:
    """Whether a folder holds tokenizer files."""
    return any((Path(folder) / name).exists() for name in TOKENIZER_FILES)


def read_json(path: Path, *, what: str, hint: str) -> dict[str, Any]:
    """A JSON object from ``path``, or :class:`ModelMissingError` saying what is wrong."""
    if not path.exists():
        raise ModelMissingError(f"{what}: {path.name} is missing in {path.parent}", hint=hint)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelMissingError(f"{what}: cannot read {path}: {exc}", hint=hint) from exc
    if not isinstance(data, dict):
        raise ModelMissingError(f"{what}: {path} is not a JSON object", hint=hint)
    return data


def quiet_transformers() -> None:
    """Silence transformers' progress bars and info logs (they would garble the terminal UI)."""
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
