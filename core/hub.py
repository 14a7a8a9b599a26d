"""Model access in one place: offline mode, the Hugging Face cache, the device, loading once.

Every model loader asks here, so the answers agree everywhere:

- :func:`is_offline` — ``HF_HUB_OFFLINE`` or ``TRANSFORMERS_OFFLINE`` set to ``1``/``true``/``yes``/``on``
  (any case) forbids downloads;
- :func:`cached_snapshot` — the local snapshot folder of a hub model, read from the cache layout
  (no network, no heavy import);
- :func:`hub_reachable` — whether the hub endpoint answers at all;
- :func:`resolve_device` — ``cpu`` / ``cuda`` / ``cuda:N`` / ``auto`` to a torch device that exists;
- :func:`load_once` — a process-wide cache of loaded models (embedders, NLI, amrlib), one build per key.

>>> is_offline({"HF_HUB_OFFLINE": "1"}), is_offline({"TRANSFORMERS_OFFLINE": "On"}), is_offline({"HF_HUB_OFFLINE": "0"})
(True, True, False)
>>> resolve_device(" CPU ")
'cpu'
>>> load_once(("doctest", 1), lambda: [1, 2]) is load_once(("doctest", 1), lambda: [3])
True
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from core.errors import ConfigError

T = TypeVar("T")

OFFLINE_VARS = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
_TRUE = ("1", "true", "yes", "on")


def is_offline(environ: Mapping[str, str] | None = None) -> bool:
    """True when ``HF_HUB_OFFLINE`` or ``TRANSFORMERS_OFFLINE`` is set to a true value (1/true/yes/on, any case).

    >>> is_offline({"HF_HUB_OFFLINE": " YES "}), is_offline({"HF_HUB_OFFLINE": "false"}), is_offline({})
    (True, False, False)
    """
    return bool(offline_setting(environ))


def offline_setting(environ: Mapping[str, str] | None = None) -> str:
    """The setting that makes us offline, as messages quote it (``HF_HUB_OFFLINE=1``), or ``""`` when online.

    >>> offline_setting({"HF_HUB_OFFLINE": "0", "TRANSFORMERS_OFFLINE": "True"})
    'TRANSFORMERS_OFFLINE=True'
    """
    env = os.environ if environ is None else environ
    return next((f"{k}={env[k].strip()}" for k in OFFLINE_VARS if env.get(k, "").strip().lower() in _TRUE), "")


def hub_cache_dir() -> Path:
    """The Hugging Face hub cache folder (``HF_HUB_CACHE`` / ``HF_HOME``, as huggingface_hub reads them)."""
    try:
        from huggingface_hub import constants
    except ImportError:  # huggingface_hub is optional for the packaged models
        home = os.environ.get("HF_HOME", os.path.join(os.path.expanduser("~"), ".cache", "huggingface"))
        return Path(os.environ.get("HF_HUB_CACHE", os.path.join(home, "hub")))
    return Path(constants.HF_HUB_CACHE)


def cached_snapshot(repo_id: str, revision: str = "main") -> Path | None:
    """The local snapshot folder of hub model ``repo_id``, or None when it is not cached (never hits the network).

    The commit is the folder's name (``snapshot.name``), which results record as the model version.

    >>> cached_snapshot("someone/not-a-cached-model") is None
    True
    """
    if not repo_id or repo_id.count("/") > 1 or repo_id.startswith((".", "/", "~")):
        return None
    repo = hub_cache_dir() / f"models--{repo_id.replace('/', '--')}"
    try:
        commit = (repo / "refs" / revision).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        commit = revision  # a revision given as a commit has no ref file
    snapshot = repo / "snapshots" / commit
    return snapshot if commit and snapshot.is_dir() else None


def hub_reachable(timeout: float = 3.0) -> bool:
    """Whether the hub endpoint (``HF_ENDPOINT``) accepts a TCP connection within ``timeout`` seconds."""
    from urllib.parse import urlparse

    host = urlparse(os.environ.get("HF_ENDPOINT", "https://huggingface.co")).hostname or "huggingface.co"
    try:
        with socket.create_connection((host, 443), timeout=timeout):
            return True
    except OSError:
        return False


def resolve_device(device: str) -> str:
    """``cpu``, ``cuda``, ``cuda:N`` or ``auto`` to a torch device string, checking that it exists.

    >>> resolve_device("gpu0")
    Traceback (most recent call last):
    ...
    core.errors.ConfigError: unknown device 'gpu0' (hint: use cpu, cuda, cuda:N or auto)
    """
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


_LOADED: dict[tuple[Any, ...], Any] = {}
_KEY_LOCKS: dict[tuple[Any, ...], threading.Lock] = {}
_LOCK = threading.Lock()


def load_once(key: tuple[Any, ...], factory: Callable[[], T]) -> T:
    """The object cached under ``key``, built by ``factory`` on first use (once per process, thread-safe).

    Two threads asking for the same key build it once; different keys build in parallel. A factory
    that raises caches nothing, so the next call tries again.
    """
    with _LOCK:
        if key in _LOADED:
            return _LOADED[key]
        lock = _KEY_LOCKS.setdefault(key, threading.Lock())
    with lock:
        with _LOCK:
            if key in _LOADED:
                return _LOADED[key]
        value = factory()
        with _LOCK:
            _LOADED[key] = value
        return value


def loaded_keys() -> list[tuple[Any, ...]]:
    """Keys of the models loaded in this process (for `smithtui models` and tests)."""
    with _LOCK:
        return list(_LOADED)
