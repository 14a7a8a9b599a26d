"""New distractors for new data: from the foil engine's rules (English) or an OpenAI-compatible chat endpoint.

* ``foils`` (English, offline): the SentenceSmith edits (negation, role swap,
  underspecification, antonym, hypernym) through :class:`core.foils.pipeline.FoilPipeline`;
  candidates that pass validation come first, rules are taken round-robin, every
  choice is seeded.
* ``llm`` (any language, **off by default**): one chat request per sentence to the
  endpoint named in ``[clsd] llm_url`` / ``llm_model`` with a prompt in the style
  of the CLSD paper (keep the words, change the meaning). Requests use ``urllib``
  with a timeout; an unreachable endpoint raises :class:`EndpointError` (nothing
  else is affected), a bad answer for one sentence is that row's error value.

>>> parse_answer('```json\\n["Der Hund bellt.", "Die Katze bellt."]\\n```')
['Der Hund bellt.', 'Die Katze bellt.']
>>> parse_answer("1. Erste Zeile\\n2) Zweite Zeile")
['Erste Zeile', 'Zweite Zeile']
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.clsd.tasks import LANGUAGE_NAMES, norm_text
from core.errors import ConfigError, InputError, SmithError
from core.progress import ProgressCallback, check_cancel, report


class EndpointError(SmithError):
    """The chat endpoint cannot be reached or answered with something unusable."""


@dataclass(frozen=True)
class Distractor:
    """One generated distractor and where it came from (``foil:AR``, ``llm:<model>``)."""

    text: str
    origin: str
    detail: str = ""
    validated: bool | None = None  # the foil engine's validators kept it (None: not judged)


@dataclass(frozen=True)
class DistractorSet:
    """The distractors generated for one row; ``error`` says why fewer than asked came back."""

    id: str
    source: str
    target: str
    distractors: tuple[Distractor, ...] = ()
    error: str | None = None


# ------------------------------------------------------------------------------------------------ foil engine


def _stable_seed(seed: int, text: str) -> int:
    import hashlib

    return seed * 1_000_003 + int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16)


def foil_distractors(pipeline: Any, sentence: str, *, k: int = 4, seed: int = 13) -> DistractorSet:
    """Up to ``k`` English distractors of ``sentence`` from the foil engine (validated ones first)."""
    text = norm_text(sentence)
    try:
        candidates = pipeline.foils_for(text, validate=False)
    except SmithError as exc:
        return DistractorSet("", text, text, (), f"foil engine: {exc}")
    verdicts = pipeline.validate(candidates) if candidates else []
    pool: dict[str, Distractor] = {}
    for cand, v in zip(candidates, verdicts or [[]] * len(candidates), strict=False):
        foil = norm_text(cand.text)
        if not foil or foil == text or foil in pool:
            continue
        kept: bool | None
        try:
            kept, _reason = pipeline.decide(v) if v else (None, "")
        except SmithError:
            kept = None
        pool[foil] = Distractor(foil, f"foil:{cand.edit.rule}", cand.edit.description, kept)
    rng = random.Random(_stable_seed(seed, text))
    ordered = sorted(pool.values(), key=lambda d: (d.origin, d.text))
    rng.shuffle(ordered)
    ordered.sort(key=lambda d: 0 if d.validated else 1)  # stable: validated first, shuffled within
    chosen: list[Distractor] = []
    by_rule: dict[str, list[Distractor]] = {}
    for d in ordered:
        by_rule.setdefault(d.origin, []).append(d)
    while len(chosen) < k and any(by_rule.values()):
        for rule in list(by_rule):
            if by_rule[rule] and len(chosen) < k:
                chosen.append(by_rule[rule].pop(0))
    error = None if len(chosen) >= k else f"the foil engine found {len(chosen)} distractors of {k}"
    return DistractorSet("", text, text, tuple(chosen), error)


def load_foil_pipeline(settings: Any) -> Any:
    """The foil engine, imported lazily (a first-party module: an import error there is a bug and shows)."""
    from core.foils.pipeline import FoilPipeline

    return FoilPipeline.from_settings(settings)


# ------------------------------------------------------------------------------------------------ chat endpoint

PROMPT = (
    "Here is a sentence in {language}:\n\n{sentence}\n\n"
    "Write {k} new sentences in {language} that keep as many words of the original as possible but change its "
    "meaning. Change only one or two words each time: replace a name, a place, a number or a date, replace a verb, "
    "noun or adjective by one with a different meaning, add or remove a negation, or reverse a relation. Every "
    "sentence must be fluent and grammatical, and none may be a paraphrase of the original. Answer with a JSON "
    "list of {k} strings and nothing else."
)
SYSTEM = "You write adversarial examples that test whether multilingual sentence embeddings capture meaning."


@dataclass(frozen=True)
class ChatEndpoint:
    """An OpenAI-compatible chat completions endpoint."""

    url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = 30.0
    temperature: float = 0.7
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings: Any) -> ChatEndpoint:
        """From ``[clsd]``; :class:`ConfigError` when the endpoint is off or not configured."""
        c = settings.clsd
        if not c.llm_enabled:
            raise ConfigError(
                "the LLM distractor endpoint is off",
                hint="set [clsd] llm_enabled = true, llm_url and llm_model (or SMITH_CLSD__LLM_ENABLED=1)",
            )
        if not c.llm_url or not c.llm_model:
            raise ConfigError("the LLM endpoint needs a URL and a model", hint="set [clsd] llm_url and llm_model")
        return cls(c.llm_url, c.llm_model, c.llm_api_key_env, float(c.llm_timeout))

    @property
    def completions_url(self) -> str:
        base = self.url.rstrip("/")
        return base if base.endswith("/chat/completions") else f"{base}/chat/completions"

    def chat(self, messages: Sequence[dict[str, str]], *, seed: int | None = None) -> str:
        """Send one chat request; the assistant's text, or :class:`EndpointError`."""
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), "temperature": self.temperature}
        if seed is not None:
            body["seed"] = seed
        body.update(self.extra)
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env, "") if self.api_key_env else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(
            self.completions_url, data=json.dumps(body).encode("utf-8"), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            snippet = exc.read()[:300].decode("utf-8", "replace") if exc.fp else ""
            raise EndpointError(
                f"the chat endpoint {self.completions_url} answered HTTP {exc.code} {exc.reason}: {snippet}".strip(),
                hint="check [clsd] llm_model and the API key variable " + (self.api_key_env or "(none)"),
            ) from exc
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise EndpointError(
                f"cannot reach the chat endpoint {self.completions_url}: {reason}",
                hint="check that the server runs and [clsd] llm_url; the LLM endpoint is optional "
                "(leave llm_enabled off to use the foil engine)",
            ) from exc
        try:
            payload = json.loads(raw.decode("utf-8"))
            return str(payload["choices"][0]["message"]["content"])
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError, IndexError, TypeError) as exc:
            raise EndpointError(
                f"the chat endpoint {self.completions_url} did not answer in the OpenAI chat format",
                hint="it must return {'choices': [{'message': {'content': ...}}]}",
            ) from exc


_NUMBERED = re.compile(r"^\s*(?:[-*•]|\d+[.)]|\(\d+\))\s*")


def parse_answer(text: str) -> list[str]:
    """Sentences from a model's answer: a JSON list (code fences allowed), else one per line."""
    body = text.strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", body, re.DOTALL)
    if fenced:
        body = fenced.group(1).strip()
    try:
        value = json.loads(body)
    except json.JSONDecodeError:
        value = None
    if isinstance(value, dict):
        value = next((v for v in value.values() if isinstance(v, list)), None)
    if isinstance(value, list):
        return [norm_text(v) for v in value if isinstance(v, str) and norm_text(v)]
    lines = [_NUMBERED.sub("", line).strip().strip('"') for line in body.splitlines()]
    return [norm_text(line) for line in lines if norm_text(line)]


def llm_distractors(
    endpoint: ChatEndpoint, sentence: str, *, language: str, k: int = 4, seed: int = 13
) -> DistractorSet:
    """Up to ``k`` distractors of ``sentence`` (in ``language``, a code or a name) from the chat endpoint.

    Connection failures raise :class:`EndpointError`; an unusable answer is the set's ``error``.
    """
    text = norm_text(sentence)
    lang = LANGUAGE_NAMES.get(language, language)
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": PROMPT.format(language=lang, sentence=text, k=k)},
    ]
    answer = endpoint.chat(messages, seed=_stable_seed(seed, text) % (2**31))
    seen: dict[str, Distractor] = {}
    for cand in parse_answer(answer):
        if cand != text and cand not in seen:
            seen[cand] = Distractor(cand, f"llm:{endpoint.model}")
    chosen = tuple(list(seen.values())[:k])
    error = None if len(chosen) >= k else f"the endpoint gave {len(chosen)} usable distractors of {k}"
    return DistractorSet("", text, text, chosen, error)


# ------------------------------------------------------------------------------------------------ batch


@dataclass(frozen=True)
class PairRow:
    """A source sentence and its true translation, to which distractors will be added."""

    id: str
    source: str
    target: str


def generate(
    rows: Sequence[PairRow],
    *,
    backend: str,
    language: str,
    settings: Any,
    k: int = 4,
    seed: int | None = None,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[DistractorSet]:
    """Distractors of each row's *target* (so they are in the target language), one set per row.

    ``backend``: ``foils`` (English only) or ``llm`` (needs ``[clsd] llm_enabled``).
    """
    seed = settings.clsd.seed if seed is None else seed
    if backend == "foils":
        if language not in ("en", "English"):
            raise InputError(
                f"the foil engine writes English distractors, not {LANGUAGE_NAMES.get(language, language)}",
                hint="use --backend llm for other languages (an OpenAI-compatible endpoint)",
            )
        pipeline = load_foil_pipeline(settings)

        def make(target: str) -> DistractorSet:
            return foil_distractors(pipeline, target, k=k, seed=seed)

    elif backend == "llm":
        endpoint = ChatEndpoint.from_settings(settings)

        def make(target: str) -> DistractorSet:
            return llm_distractors(endpoint, target, language=language, k=k, seed=seed)

    else:
        raise ConfigError(f"unknown distractor backend {backend!r}", hint="use 'foils' or 'llm'")
    for n, row in enumerate(rows, 1):
        check_cancel(cancel)
        if not norm_text(row.target):
            yield DistractorSet(row.id, row.source, row.target, (), "empty target")
        else:
            out = make(row.target)
            yield DistractorSet(row.id, row.source, norm_text(row.target), out.distractors, out.error)
        report(progress, n, len(rows))


def distractor_rows(sets: Sequence[DistractorSet], k: int) -> tuple[list[dict[str, str]], list[str]]:
    """Rows and columns of the generic layout: ``id, source, target, adv1..k, origins, error``."""
    columns = ["id", "source", "target", *[f"adv{j + 1}" for j in range(k)], "origins", "error"]
    rows: list[dict[str, str]] = []
    for s in sets:
        row = {"id": s.id, "source": s.source, "target": s.target, "error": s.error or ""}
        for j in range(k):
            row[f"adv{j + 1}"] = s.distractors[j].text if j < len(s.distractors) else ""
        row["origins"] = "|".join(d.origin for d in s.distractors[:k])
        rows.append(row)
    return rows, columns
