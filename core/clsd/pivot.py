"""The pivot condition: every source and candidate translated to English, then compared monolingually.

Pivot texts come from a file in the set's own layout (see
:func:`core.clsd.data.read_clsd` with ``condition="pivot"``) or from a translation
backend. The backend here is any Hugging Face seq2seq model, by hub id (when it is
cached locally) or by folder path: Marian, M2M100, NLLB, mBART and T5-style
models (``prefix="translate German to English: "``).

A translated set can be written back in the published layout (:func:`write_clsd`)
and reused as ``--pivot`` without translating again.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from core.clsd.tasks import LANGUAGE_NAMES, PIVOT, CLSDDataset, CLSDItem, CLSDTask, RowIssue, norm_text
from core.errors import InputError, ModelMissingError
from core.hub import is_offline, resolve_device
from core.progress import ProgressCallback, check_cancel, report
from core.textio import atomic_write_csv

NLLB_CODES: Mapping[str, str] = {"de": "deu_Latn", "fr": "fra_Latn", "en": "eng_Latn", "es": "spa_Latn", "it": "ita_Latn"}
MBART_CODES: Mapping[str, str] = {"de": "de_DE", "fr": "fr_XX", "en": "en_XX", "es": "es_XX", "it": "it_IT"}


@runtime_checkable
class Translator(Protocol):
    """Texts in one language to texts in another, batch-first, order kept."""

    name: str

    @property
    def info(self) -> dict[str, Any]: ...

    def translate(
        self,
        texts: Sequence[str],
        *,
        source_lang: str,
        target_lang: str = "en",
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[str]: ...


class HFSeq2SeqTranslator:
    """A transformers seq2seq model (hub id available locally, or a folder) used as a translator."""

    name = "hf-seq2seq"

    def __init__(
        self,
        model: str,
        *,
        device: str = "cpu",
        batch_size: int = 16,
        max_new_tokens: int = 256,
        num_beams: int = 1,
        prefix: str = "",
        lang_codes: Mapping[str, str] | None = None,
    ) -> None:
        if not model:
            raise InputError("no translation model named", hint="pass a Hugging Face model id or a local folder")
        self.model_id = model
        self.device = resolve_device(device)
        self.batch_size = max(1, batch_size)
        self.max_new_tokens = max_new_tokens
        self.num_beams = num_beams
        self.prefix = prefix
        self.lang_codes = dict(lang_codes or {})
        self._model: Any = None
        self._tokenizer: Any = None

    @property
    def info(self) -> dict[str, Any]:
        from core.provenance import package_version

        return {
            "backend": self.name,
            "model": self.model_id,
            "num_beams": self.num_beams,
            "max_new_tokens": self.max_new_tokens,
            "prefix": self.prefix,
            "transformers": package_version("transformers"),
        }

    def _load(self) -> tuple[Any, Any]:
        if self._model is not None:
            return self._tokenizer, self._model
        try:
            from transformers import AutoModelForSeq2SeqLM, AutoTokenizer
        except ImportError as exc:
            raise ModelMissingError("transformers is not installed", hint="pip install 'transformers>=4.40'") from exc
        local = Path(self.model_id).is_dir()
        kwargs = {"local_files_only": True} if (local or is_offline()) else {}
        try:
            tokenizer = AutoTokenizer.from_pretrained(self.model_id, **kwargs)
            model = AutoModelForSeq2SeqLM.from_pretrained(self.model_id, **kwargs)
        except (OSError, ValueError) as exc:
            raise ModelMissingError(
                f"translation model {self.model_id!r} cannot be loaded ({type(exc).__name__}: {str(exc)[:200]})",
                hint="give a local folder with config.json, the weights and a tokenizer, or a hub id that is "
                "cached (HF_HUB_OFFLINE=1 forbids downloads)",
            ) from exc
        model.eval()
        model.to(self.device)
        self._tokenizer, self._model = tokenizer, model
        return tokenizer, model

    def _code(self, tokenizer: Any, lang: str) -> str | None:
        """The model's own code for ``lang`` (``de``, ``deu_Latn``, ``de_DE``), or None when it has none."""
        candidates = [self.lang_codes.get(lang), lang, NLLB_CODES.get(lang), MBART_CODES.get(lang), f"__{lang}__"]
        vocab = tokenizer.get_vocab() if hasattr(tokenizer, "get_vocab") else {}
        for code in candidates:
            if not code:
                continue
            if hasattr(tokenizer, "get_lang_id"):
                try:
                    tokenizer.get_lang_id(code)
                    return code
                except (KeyError, AttributeError, ValueError):
                    continue
            if code in vocab and code != lang:
                return code
        return None

    def translate(
        self,
        texts: Sequence[str],
        *,
        source_lang: str,
        target_lang: str = "en",
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[str]:
        """Translate ``texts``; batches run shortest first and the output keeps the input order."""
        if not texts:
            return []
        import torch

        tokenizer, model = self._load()
        gen: dict[str, Any] = {"max_new_tokens": self.max_new_tokens, "num_beams": self.num_beams}
        src_code = self._code(tokenizer, source_lang)
        tgt_code = self._code(tokenizer, target_lang)
        if src_code and hasattr(tokenizer, "src_lang"):
            tokenizer.src_lang = src_code
        if tgt_code:
            if hasattr(tokenizer, "get_lang_id"):
                gen["forced_bos_token_id"] = tokenizer.get_lang_id(tgt_code)
            else:
                gen["forced_bos_token_id"] = tokenizer.convert_tokens_to_ids(tgt_code)
        prefix = self.prefix.format(
            source=LANGUAGE_NAMES.get(source_lang, source_lang), target=LANGUAGE_NAMES.get(target_lang, target_lang)
        )
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[str] = [""] * len(texts)
        done = 0
        for start in range(0, len(order), self.batch_size):
            check_cancel(cancel)
            idx = order[start : start + self.batch_size]
            batch = [prefix + texts[i] for i in idx]
            enc = tokenizer(batch, return_tensors="pt", padding=True, truncation=True)
            enc = {k: v.to(self.device) for k, v in enc.items()}
            with torch.no_grad():
                ids = model.generate(**enc, **gen)
            decoded = tokenizer.batch_decode(ids, skip_special_tokens=True)
            for i, text in zip(idx, decoded, strict=True):
                out[i] = norm_text(text)
            done += len(idx)
            report(progress, done, len(texts))
        return out


def make_translator(model: str, **kwargs: Any) -> Translator:
    """The translation backend for ``model`` (a hub id or a folder)."""
    return HFSeq2SeqTranslator(model, **kwargs)


def translate_dataset(
    data: CLSDDataset,
    translator: Translator,
    *,
    target_lang: str = "en",
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> CLSDDataset:
    """The pivot set of ``data``: each usable row's source and candidates translated to ``target_lang``.

    Every distinct text is translated once per source language. Rows whose
    translated distractor equals the translated target (or translates to nothing)
    become :class:`RowIssue` values of the pivot task.
    """
    by_lang: dict[str, list[str]] = {}
    for task in data.tasks.values():
        for item in task.items:
            by_lang.setdefault(task.source_lang, []).append(item.source)
            by_lang.setdefault(task.target_lang, []).extend(item.candidates)
    unique = {lang: list(dict.fromkeys(texts)) for lang, texts in by_lang.items()}
    total = sum(len(v) for v in unique.values())
    translated: dict[tuple[str, str], str] = {}
    offset = 0
    for lang, texts in unique.items():
        check_cancel(cancel)
        if lang == target_lang:
            translated.update({(lang, t): t for t in texts})
        else:
            base = offset

            def sub(done: int, _total: int, base: int = base) -> None:
                report(progress, base + done, total)

            outs = translator.translate(texts, source_lang=lang, target_lang=target_lang, progress=sub, cancel=cancel)
            if len(outs) != len(texts):
                raise InputError(f"translator returned {len(outs)} texts for {len(texts)}", hint="a backend bug")
            translated.update({(lang, t): o for t, o in zip(texts, outs, strict=True)})
        offset += len(texts)
        report(progress, offset, total)
    tasks: dict[str, CLSDTask] = {}
    for key, task in data.tasks.items():
        items: list[CLSDItem] = []
        issues: list[RowIssue] = []
        for item in task.items:
            n = item.line
            src = translated[(task.source_lang, item.source)]
            tgt = translated[(task.target_lang, item.target)]
            dis = tuple(translated[(task.target_lang, d)] for d in item.distractors)
            problems = _issues(item.id, n, src, tgt, dis, task.distractor_columns)
            if problems:
                issues.extend(problems)
            else:
                items.append(CLSDItem(item.id, src, tgt, dis, item.line))
        tasks[key] = replace(
            task, items=tuple(items), issues=tuple(issues), condition=PIVOT, text_lang=target_lang, path=""
        )
    return replace(data, tasks=tasks, condition=PIVOT, path=f"{data.path} (translated by {translator.info.get('model')})")


def _issues(
    rid: str, line: int, src: str, tgt: str, dis: Sequence[str], cols: Sequence[str]
) -> list[RowIssue]:
    out: list[RowIssue] = []
    if not src:
        out.append(RowIssue(rid, line, "empty source"))
    if not tgt:
        out.append(RowIssue(rid, line, "empty target"))
    for col, d in zip(cols, dis, strict=True):
        if not d:
            out.append(RowIssue(rid, line, "empty distractor", col))
        elif d == tgt:
            out.append(RowIssue(rid, line, "distractor equals target", col))
    return out


def write_clsd(data: CLSDDataset, path: str | os.PathLike[str]) -> int:
    """Write a (pivot) set back in the published layout (``Index, <Language>, <lang>_adv1..``); returns rows.

    Only the published two-language layout round-trips; generic sets are written
    as ``id, source, target, adv1..``.
    """
    rows: dict[str, dict[str, str]] = {}
    columns: list[str] = ["Index"]
    if data.layout == "clsd":
        for task in data.tasks.values():
            src_name = LANGUAGE_NAMES.get(task.source_lang, task.source_lang)
            tgt_name = LANGUAGE_NAMES.get(task.target_lang, task.target_lang)
            for name in (src_name, tgt_name, *task.distractor_columns):
                if name not in columns:
                    columns.append(name)
            for item in task.items:
                row = rows.setdefault(item.id, {"Index": item.id})
                row[src_name] = item.source
                row[tgt_name] = item.target
                row.update(dict(zip(task.distractor_columns, item.distractors, strict=True)))
    else:
        task = next(iter(data.tasks.values()))
        columns = ["id", "source", "target", *[f"adv{j + 1}" for j in range(len(task.distractor_columns))]]
        for item in task.items:
            rows[item.id] = {"id": item.id, "source": item.source, "target": item.target} | {
                f"adv{j + 1}": d for j, d in enumerate(item.distractors)
            }
    return atomic_write_csv(path, rows.values(), columns)

