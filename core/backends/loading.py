"""Finding model weights (local folder or Hugging Face hub cache), checking devices, loading once.

Every check here runs before any weights load or batch starts, and none touches the
network: a hub id that is not in the local cache fails at once with a hint instead of
spending ~50 s on hub retries.

>>> looks_like_path("./models/nli"), looks_like_path("juliussteen/DeBERTa-v3-FaithAug")
(True, False)
>>> is_offline({"HF_HUB_OFFLINE": "1"})
True
"""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from core.errors import ConfigError, ModelMissingError

T = TypeVar("T")

TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "spiece.model",
    "sentencepiece.bpe.model",
    "vocab.json",
    "vocab.txt",
)
_TRUE = ("1", "true", "yes", "on")


def is_offline(environ: Mapping[str, str] | None = None) -> bool:
    """True when ``HF_HUB_OFFLINE`` or ``TRANSFORMERS_OFFLINE`` is set to a true value."""
    env = os.environ if environ is None else environ
    return any(env.get(k, "").strip().lower() in _TRUE for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def looks_like_path(spec: str) -> bool:
    """A model spec that can only be a filesystem path (a hub id is ``name`` or ``org/name``)."""
    return spec.startswith(("/", "./", "../", "~", ".\\")) or spec.count("/") > 1 or "\\" in spec or spec in (".", "..")


def hub_cached_snapshot(repo_id: str) -> Path | None:
    """The local snapshot folder of a hub model, or None when it is not cached (never hits the network)."""
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(repo_id, local_files_only=True))
    except Exception:  # not cached, malformed id, huggingface_hub missing: all mean "not here"
        return None


def hub_reachable(timeout: float = 3.0) -> bool:
    """Whether the hub endpoint accepts a TCP connection within ``timeout`` seconds."""
    from urllib.parse import urlparse

    host = urlparse(os.environ.get("HF_ENDPOINT", "https://huggingface.co")).hostname or "huggingface.co"
    try:
        with socket.create_connection((host, 443), timeout=timeout):
            return True
    except OSError:
        return False


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
    cached = hub_cached_snapshot(spec)
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
            "(HF_HUB_OFFLINE=1)",
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


def resolve_device(device: str) -> str:
    """``cpu``, ``cuda``, ``cuda:N`` or ``auto`` to a torch device string, checking that it exists."""
    wanted = (device or "cpu").strip().lower()
    if wanted == "cpu":
        return "cpu"
    if wanted != "auto" and not (wanted == "cuda" or (wanted.startswith("cuda:") and wanted[5:].isdigit())):
        raise ConfigError(f"unknown device {device!r}", hint="use cpu, cuda, cuda:N or auto")
    import torch

    if not torch.cuda.is_available():
        if wanted == "auto":
            return "cpu"
        raise ConfigError(
            f"device {device!r} requested but no CUDA GPU is available here",
            hint='set pipeline.device = "cpu" (or SMITH_PIPELINE__DEVICE=cpu, or --device cpu)',
        )
    if wanted == "auto":
        return "cuda:0"
    index = int(wanted[5:]) if ":" in wanted else 0
    if index >= torch.cuda.device_count():
        raise ConfigError(
            f"device {device!r} requested but only {torch.cuda.device_count()} CUDA GPU(s) exist",
            hint="use cuda:0 .. cuda:N-1",
        )
    return f"cuda:{index}"


def quiet_transformers() -> None:
    """Silence transformers' progress bars and info logs (they would garble the terminal UI)."""
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()


_CACHE: dict[tuple[Any, ...], Any] = {}
_CACHE_LOCK = threading.Lock()


def load_once(key: tuple[Any, ...], factory: Callable[[], T]) -> T:
    """The object cached under ``key``, built by ``factory`` on first use (once per process)."""
    with _CACHE_LOCK:
        if key not in _CACHE:
            _CACHE[key] = factory()
        return _CACHE[key]


def loaded_keys() -> list[tuple[Any, ...]]:
    """Keys of the models loaded in this process (for `smithtui models` and tests)."""
    with _CACHE_LOCK:
        return list(_CACHE)
