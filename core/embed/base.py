"""The shared machinery of every embedder: lazy, thread-safe loading, settings, normalisation.

A backend subclasses :class:`BaseEmbedder` and implements ``_load()`` (import the heavy
library, read the weights) and ``_encode(texts)``. Loading happens on the first
``encode`` (or an explicit :meth:`BaseEmbedder.load`), once, under a lock.

>>> normalise_rows(np.array([[3.0, 4.0], [0.0, 0.0]], dtype=np.float32)).tolist()
[[0.6000000238418579, 0.800000011920929], [0.0, 0.0]]
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from core.errors import ConfigError, InputError


@dataclass(frozen=True)
class EmbedSettings:
    """Per-model settings. ``prefix`` is prepended to every text (e5: ``"query: "``).

    ``max_length`` is in the model's tokens (0: the model's own limit); ``batch_size`` and
    ``threads`` change speed, not vectors, so they are not part of the cache key.
    """

    normalize: bool = True
    prefix: str = ""
    max_length: int = 0
    batch_size: int = 32
    threads: int = 0  # 0: all cores

    def key_fields(self) -> dict[str, Any]:
        """The settings that change the vectors (the cache key uses these)."""
        return {"normalize": self.normalize, "prefix": self.prefix, "max_length": self.max_length}

    def with_overrides(self, overrides: Mapping[str, Any] | None) -> EmbedSettings:
        """A copy with ``overrides`` applied, values coerced to the field types.

        >>> EmbedSettings().with_overrides({"batch_size": "8", "normalize": "false"}).batch_size
        8
        """
        if not overrides:
            return self
        fields = asdict(self)
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in fields:
                raise ConfigError(f"unknown embedder setting {key!r}", hint=f"settings are: {', '.join(fields)}")
            kind = type(fields[key])
            try:
                if kind is bool and isinstance(value, str):
                    changes[key] = value.strip().lower() in ("1", "true", "yes", "on")
                else:
                    changes[key] = kind(value)
            except (TypeError, ValueError) as exc:
                raise ConfigError(
                    f"embedder setting {key}={value!r} is not a {kind.__name__}", hint="fix the value"
                ) from exc
        out = replace(self, **changes)
        if out.batch_size < 1 or out.max_length < 0 or out.threads < 0:
            raise ConfigError(
                "batch_size must be >= 1, max_length and threads >= 0", hint="0 means the default for those two"
            )
        return out

    def thread_count(self) -> int:
        """Threads to use: the setting, or every core this process may run on."""
        if self.threads > 0:
            return self.threads
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except (AttributeError, OSError):  # pragma: no cover - non-Linux
            return max(1, os.cpu_count() or 1)


def normalise_rows(vectors: np.ndarray) -> np.ndarray:
    """L2-normalise rows as float32; an all-zero row (no known words) stays zero."""
    v = np.asarray(vectors, dtype=np.float32)
    if v.ndim != 2:
        v = v.reshape(len(v), -1)
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return np.divide(v, norms, out=np.zeros_like(v), where=norms > 0).astype(np.float32, copy=False)


def text_list(texts: Sequence[str], *, hint: str = "wrap it: encode([text])") -> list[str]:
    """``texts`` as a list of strings; one string instead of a list, or an item that is not a string,
    raises :class:`InputError` (``hint`` goes with the first).

    >>> text_list(("a", "b"))
    ['a', 'b']
    >>> text_list(["a", None])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    core.errors.InputError: text 1 is NoneType, not a string (hint: ...)
    """
    if isinstance(texts, str):
        raise InputError("encode() takes a list of texts, not one string", hint=hint)
    items = list(texts)
    for i, t in enumerate(items):
        if not isinstance(t, str):
            raise InputError(f"text {i} is {type(t).__name__}, not a string", hint="drop missing (NaN) texts first")
    return items


class BaseEmbedder:
    """Lazy, thread-safe embedder; subclasses implement ``_load`` and ``_encode``.

    ``info`` is available before loading (what the cache key needs); loading fills in
    anything only the weights can tell (e.g. ``dim`` of an arbitrary model folder).
    """

    kind = "base"
    cacheable = True  # lexical baselines set False: they are cheaper to recompute than to look up

    def __init__(
        self,
        name: str,
        model_id: str,
        *,
        version: str,
        settings: EmbedSettings,
        dim: int | None = None,
        location: str = "",
    ) -> None:
        self.name = name
        self.model_id = model_id
        self.version = version
        self.settings = settings
        self.dim = dim
        self.location = location
        self.load_seconds = 0.0
        self._loaded = False
        self._load_lock = threading.Lock()
        self._encode_lock = threading.Lock()

    # -- provenance -------------------------------------------------------------------
    @property
    def info(self) -> dict[str, object]:
        return {
            "name": self.name,
            "model_id": self.model_id,
            "kind": self.kind,
            "version": self.version,
            "dim": self.dim,
            "location": self.location,
            "settings": asdict(self.settings),
        }

    def cache_identity(self) -> dict[str, object]:
        """What identifies the vectors: model, version, kind and the vector-changing settings."""
        return {
            "model_id": self.model_id,
            "kind": self.kind,
            "version": self.version,
            "settings": self.settings.key_fields(),
        }

    # -- loading ----------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self._loaded

    def load(self) -> BaseEmbedder:
        """Load the weights once (thread-safe); returns self."""
        if self._loaded:
            return self
        with self._load_lock:
            if not self._loaded:
                start = time.perf_counter()
                self._load()
                self.load_seconds = time.perf_counter() - start
                self._loaded = True
        return self

    def _load(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- encoding ---------------------------------------------------------------------
    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` as float32 rows ``(len(texts), dim)``, L2-normalised unless configured off."""
        items = text_list(texts)
        self.load()
        if not items:
            return np.zeros((0, self.dim or 0), dtype=np.float32)
        items = self._prepare(items)
        with self._encode_lock:
            vectors = np.asarray(self._encode(items), dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(items):
            raise RuntimeError(f"{self.name}: backend returned shape {vectors.shape} for {len(items)} texts")
        if self.dim is None:
            self.dim = int(vectors.shape[1])
        return normalise_rows(vectors) if self.settings.normalize else vectors

    def _prepare(self, texts: list[str]) -> list[str]:
        """Apply the prefix (backends with their own prompt handling override this)."""
        prefix = self.settings.prefix
        return [prefix + t for t in texts] if prefix else texts

    def _encode(self, texts: list[str]) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} ({self.model_id} {self.version})>"
