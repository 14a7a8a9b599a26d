"""sentence-transformers backend: a hub id (online, or already in the local hub cache) or a model folder."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from core.embed.base import BaseEmbedder
from core.hub import is_offline


def folder_fingerprint(path: str | os.PathLike[str]) -> str:
    """A cheap identity of a model folder: hash of file names, sizes and modification times.

    >>> import tempfile; len(folder_fingerprint(tempfile.mkdtemp()))
    16
    """
    digest = hashlib.sha256()
    root = Path(path)
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        st = f.stat()
        digest.update(f"{f.relative_to(root)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def folder_dim(path: str | os.PathLike[str]) -> int | None:
    """The output dimension a sentence-transformers folder declares, read without loading it."""
    root = Path(path)
    for cfg in [*sorted(root.glob("*_Pooling/config.json")), root / "config.json"]:
        try:
            data = json.loads(cfg.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for key in ("word_embedding_dimension", "hidden_size", "d_model"):
            if isinstance(data.get(key), int):
                return int(data[key])
    return None


class SentenceTransformerEmbedder(BaseEmbedder):
    """Any sentence-transformers model; ``location`` is a folder or a hub id."""

    kind = "sentence-transformers"

    def _load(self) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(self.settings.thread_count())
        try:  # no "Loading weights" bars on the user's terminal
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
        except ImportError:  # pragma: no cover
            pass
        local = Path(self.location).is_dir()
        self._model = SentenceTransformer(self.location, device="cpu", local_files_only=local or is_offline())
        if self.settings.max_length:
            self._model.max_seq_length = self.settings.max_length
        getter = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(getter())

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(
            texts,
            batch_size=self.settings.batch_size,
            normalize_embeddings=False,  # BaseEmbedder normalises (or not) for every backend alike
            convert_to_numpy=True,
            show_progress_bar=False,
        )
