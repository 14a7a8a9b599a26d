"""An on-disk embedding cache: one SQLite file per model identity, one row per text.

The file name and its stored key come from the embedder's :meth:`cache_identity`
(model id, package version or hub revision, the settings that change vectors) and the
cache format; a row is keyed by the SHA-256 of the exact text. SQLite in WAL mode lets
many readers work while one process writes, and each chunk of new vectors is committed
in one transaction, so an interrupted run keeps every finished chunk and never leaves a
half-written row. A file that is corrupt, or was written by another cache format or for
another model, is moved aside (``*.bad-<time>``) with a warning and rebuilt: the run goes on.

>>> import tempfile
>>> from core.embed.lexical import LexicalEmbedder
>>> cache = EmbeddingCache(tempfile.mkdtemp())
>>> cache.encode(LexicalEmbedder("bow", weighting="binary"), ["a b", "a b", "c"]).shape
(3, 3)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.embed.base import text_list
from core.progress import ProgressCallback, check_cancel, report

CACHE_FORMAT = 1
"""Bumped when the file layout or the meaning of a stored vector changes."""

_LOOKUP_CHUNK = 500  # SQLite's bound-parameter limit is 999 on old builds


def text_key(text: str) -> bytes:
    """The row key of a text: the first 16 bytes of SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:16]


def identity_key(identity: dict[str, Any]) -> str:
    """Stable hex digest of an embedder's cache identity."""
    blob = json.dumps({"format": CACHE_FORMAT, **identity}, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:40] or "model"


class EmbeddingCache:
    """Embeds through a model only the texts it has not seen, and remembers the rest.

    ``stats`` counts, for the last :meth:`encode` call, the distinct texts (``unique``),
    cache ``hits``, texts ``embedded``, and ``seconds`` spent in the model.
    ``warnings`` collects problems the cache worked around (a corrupt file, a read-only folder).
    """

    def __init__(
        self, directory: str | os.PathLike[str] | None = None, *, enabled: bool = True, chunk_size: int = 256
    ) -> None:
        if directory is None:
            from core.config import load_settings

            directory = load_settings().cache_dir()
        self.directory = Path(directory).expanduser()
        self.enabled = enabled
        self.chunk_size = max(1, int(chunk_size))
        self.stats: dict[str, float] = {}
        self.warnings: list[str] = []
        self._read_only_files: set[Path] = set()
        self._lock = threading.Lock()

    # -- files ------------------------------------------------------------------------
    def path_for(self, embedder: Any) -> Path:
        """The SQLite file for ``embedder``'s identity."""
        key = identity_key(embedder.cache_identity())
        return self.directory / f"{_safe(getattr(embedder, 'name', 'model'))}-{key[:16]}.sqlite"

    def _warn(self, message: str) -> None:
        self.warnings.append(message)

    def _move_aside(self, path: Path, why: str) -> None:
        target = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
        failed: OSError | None = None
        for suffix in ("", "-wal", "-shm"):
            try:
                os.replace(str(path) + suffix, str(target) + suffix)
            except FileNotFoundError:
                pass
            except OSError as exc:
                failed = failed or exc
        if failed is not None:  # say what happened: it was not moved
            self._warn(f"embedding cache {path.name}: {why}; could not move it aside ({failed.strerror})")
        else:
            self._warn(f"embedding cache {path.name}: {why}; moved it to {target.name} and started a new one")

    def _read_only(self, path: Path) -> bool:
        """True when ``path`` exists but this process cannot write it or its folder (a read-only mount)."""
        return path.is_file() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))

    def _connect_read_only(self, path: Path, key: str) -> sqlite3.Connection | None:
        """Open an existing cache without writing to it (no WAL files, no new vectors stored)."""
        from urllib.parse import quote

        try:
            con = sqlite3.connect(
                f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True, timeout=60, check_same_thread=False
            )
            meta = dict(con.execute("SELECT k, v FROM meta").fetchall())
        except sqlite3.Error as exc:
            self._warn(f"embedding cache {path.name} is read-only and unreadable ({exc}); embedding without it")
            return None
        if meta.get("format") != str(CACHE_FORMAT) or meta.get("key") != key:
            con.close()
            self._warn(f"embedding cache {path.name} is read-only and for another model or format; embedding without it")
            return None
        self._read_only_files.add(path)
        self._warn(f"embedding cache {path.name} is read-only: using its vectors, storing no new ones")
        return con

    def _connect(self, path: Path, identity: dict[str, Any]) -> sqlite3.Connection | None:
        """Open (creating if needed) and check the file; None when caching is impossible here."""
        key = identity_key(identity)
        if self._read_only(path):
            return self._connect_read_only(path, key)
        for attempt in range(2):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                con = sqlite3.connect(str(path), timeout=60, isolation_level=None, check_same_thread=False)
            except (OSError, sqlite3.Error) as exc:
                self._warn(f"embedding cache unavailable at {path.parent} ({exc}); embedding without it")
                return None
            try:
                con.execute("PRAGMA busy_timeout = 60000")
                con.execute("PRAGMA journal_mode = WAL")
                con.execute("PRAGMA synchronous = NORMAL")
                con.execute("BEGIN IMMEDIATE")
                con.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
                con.execute("CREATE TABLE IF NOT EXISTS vectors (h BLOB PRIMARY KEY, v BLOB NOT NULL)")
                meta = dict(con.execute("SELECT k, v FROM meta").fetchall())
                if not meta:
                    from core import __version__

                    con.executemany(
                        "INSERT INTO meta (k, v) VALUES (?, ?)",
                        [
                            ("format", str(CACHE_FORMAT)),
                            ("key", key),
                            ("identity", json.dumps(identity, sort_keys=True, default=str)),
                            ("written_by", f"smithtui {__version__}"),
                            ("created", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
                        ],
                    )
                    con.execute("COMMIT")
                    return con
                con.execute("COMMIT")
                if meta.get("format") != str(CACHE_FORMAT):
                    why = f"written by cache format {meta.get('format')!r} ({meta.get('written_by', '?')}), expected {CACHE_FORMAT}"
                elif meta.get("key") != key:
                    why = "written for another model or version"
                else:
                    return con
            except sqlite3.DatabaseError as exc:
                if "readonly" in str(exc).replace("-", "").replace(" ", "") and path.is_file():
                    con.close()
                    return self._connect_read_only(path, key)
                why = f"unreadable ({exc})"
            con.close()
            if attempt == 0:
                self._move_aside(path, why)
        self._warn(f"embedding cache {path.name} could not be rebuilt; embedding without it")
        return None

    # -- lookups ----------------------------------------------------------------------
    def _lookup(self, con: sqlite3.Connection, keys: list[bytes], dim: int | None) -> dict[bytes, np.ndarray]:
        found: dict[bytes, np.ndarray] = {}
        bad = 0
        for start in range(0, len(keys), _LOOKUP_CHUNK):
            chunk = keys[start : start + _LOOKUP_CHUNK]
            marks = ",".join("?" * len(chunk))
            for h, blob in con.execute(f"SELECT h, v FROM vectors WHERE h IN ({marks})", chunk):
                if not isinstance(blob, bytes) or len(blob) % 4:
                    bad += 1
                    continue
                vec = np.frombuffer(blob, dtype=np.float32)
                if vec.size == 0 or (dim is not None and vec.size != dim) or not np.isfinite(vec).all():
                    bad += 1
                    continue
                found[bytes(h)] = vec
        if found:
            sizes = {v.size for v in found.values()}
            if len(sizes) > 1:  # rows of mixed width: keep the most common, re-embed the rest
                common = max(sizes, key=lambda s: sum(v.size == s for v in found.values()))
                bad += sum(v.size != common for v in found.values())
                found = {k: v for k, v in found.items() if v.size == common}
        if bad:
            self._warn(f"embedding cache: {bad} damaged vector(s) ignored and re-embedded")
        return found

    def _store(self, con: sqlite3.Connection, keys: list[bytes], vectors: np.ndarray) -> None:
        rows = [(k, np.ascontiguousarray(v, dtype=np.float32).tobytes()) for k, v in zip(keys, vectors, strict=True)]
        try:
            con.execute("BEGIN IMMEDIATE")
            con.executemany("INSERT OR REPLACE INTO vectors (h, v) VALUES (?, ?)", rows)
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            self._warn(f"embedding cache: could not store {len(rows)} vector(s) ({exc})")

    # -- the one entry point ----------------------------------------------------------
    def encode(
        self,
        embedder: Any,
        texts: Sequence[str],
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> np.ndarray:
        """Vectors for ``texts`` (in order): cached ones read back, the rest embedded once each.

        Distinct texts are embedded in length-sorted chunks (less padding); progress is
        reported as ``(distinct texts done, distinct texts)`` and ``cancel`` is checked
        between chunks. The model is loaded only if something is missing.
        """
        items = text_list(texts, hint="wrap it: [text]")
        unique = list(dict.fromkeys(items))
        total = len(unique)
        stats = {"unique": total, "hits": 0, "embedded": 0, "seconds": 0.0, "load_seconds": 0.0}
        self.stats = stats
        check_cancel(cancel)
        if not unique:
            return np.zeros((0, getattr(embedder, "dim", None) or 0), dtype=np.float32)
        index = {t: i for i, t in enumerate(unique)}
        if not getattr(embedder, "cacheable", True):
            start = time.perf_counter()
            vectors = np.asarray(embedder.encode(unique), dtype=np.float32)
            stats["seconds"] = time.perf_counter() - start
            stats["embedded"] = total
            report(progress, total, total)
            return vectors[[index[t] for t in items]]
        keys = [text_key(t) for t in unique]
        con, path, found = self._open_and_look_up(embedder, keys)
        stats["hits"] = len(found)
        report(progress, len(found), total)
        try:
            self._embed_missing(embedder, unique, keys, found, con, path, stats, progress, cancel)
        finally:
            if con is not None:
                con.close()
        dims = {v.size for v in found.values()}
        if len(dims) != 1:
            raise RuntimeError(f"embedding widths disagree: {sorted(dims)}")
        by_text = np.stack([found[k] for k in keys])
        return by_text[[index[t] for t in items]]

    def _open_and_look_up(
        self, embedder: Any, keys: list[bytes]
    ) -> tuple[sqlite3.Connection | None, Path | None, dict[bytes, np.ndarray]]:
        """The embedder's cache file (connection and path; None when disabled or unusable) and the vectors
        it already holds for ``keys``; an unreadable file is moved aside and started afresh."""
        if not self.enabled:
            return None, None, {}
        found: dict[bytes, np.ndarray] = {}
        identity = embedder.cache_identity()
        path = self.path_for(embedder)
        with self._lock:
            con = self._connect(path, identity)
        if con is not None:
            try:
                found = self._lookup(con, keys, getattr(embedder, "dim", None))
            except sqlite3.DatabaseError as exc:
                con.close()
                con = None
                with self._lock:
                    self._move_aside(path, f"unreadable ({exc})")
                    con = self._connect(path, identity)
        return con, path, found

    def _embed_missing(
        self,
        embedder: Any,
        unique: list[str],
        keys: list[bytes],
        found: dict[bytes, np.ndarray],
        con: sqlite3.Connection | None,
        path: Path | None,
        stats: dict[str, Any],
        progress: ProgressCallback | None,
        cancel: threading.Event | None,
    ) -> None:
        """Embed the texts ``found`` lacks, longest first in chunks (loading the model first if needed),
        into ``found`` and, when the file is writable, the cache; ``stats`` and progress follow along."""
        total = len(unique)
        done = len(found)
        missing = [i for i, k in enumerate(keys) if k not in found]
        missing.sort(key=lambda i: len(unique[i]), reverse=True)
        if missing and hasattr(embedder, "load") and not getattr(embedder, "loaded", True):
            check_cancel(cancel)
            began = time.perf_counter()
            embedder.load()
            stats["load_seconds"] = time.perf_counter() - began
        for start in range(0, len(missing), self.chunk_size):
            check_cancel(cancel)
            chunk = missing[start : start + self.chunk_size]
            began = time.perf_counter()
            vectors = np.asarray(embedder.encode([unique[i] for i in chunk]), dtype=np.float32)
            stats["seconds"] += time.perf_counter() - began
            chunk_keys = [keys[i] for i in chunk]
            for k, v in zip(chunk_keys, vectors, strict=True):
                found[k] = v
            if con is not None and path not in self._read_only_files:
                self._store(con, chunk_keys, vectors)
            stats["embedded"] += len(chunk)
            done += len(chunk)
            report(progress, done, total)
