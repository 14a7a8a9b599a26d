"""Builders for the tiny neural fixtures: amrlib parse/generate model dirs and an NLI classifier.

No weights can be downloaded on these machines, so the neural backends are proven on models
built here, in seconds, on one CPU thread:

* a tiny **BART** trained to parse the fixture sentences into amrlib's serialized graph form,
  written as an amrlib model dir (``amrlib_meta.json`` with ``.parse_xfm.inference``) whose
  config names a hub tokenizer (``facebook/bart-large``, like the released models), so the
  tokenizer must be passed as ``tok_name_or_path``;
* a tiny **T5** trained to generate the fixture sentences from their graphs, written as an
  amrlib ``.generate_xfm.inference`` model dir that carries its own tokenizer;
* a locally trained WordLevel tokenizer shared by both (in its own directory);
* a tiny **BERT** 3-label sequence classifier trained on a handful of premise/hypothesis
  pairs, with labels named in an unusual order and case (``CONTRADICTION``, ``Neutral``,
  ``entailment``) to exercise label mapping; plus variants with unnamed labels (same weights)
  and with two labels, and a seq2seq dir that lacks ``amrlib_meta.json``.

Everything is seeded; training stops as soon as greedy decoding (or argmax) reproduces every
target. ``build_tiny_models(root)`` reuses a complete earlier build in ``root``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

BUILD_VERSION = "tiny-models-v4"

# (sentence, gold graph). Variables follow amrlib's deserializer convention (first letter, then
# a counter) so the generator sees at inference exactly what the parser produces.
FIXTURES: tuple[tuple[str, str], ...] = (
    ("The dog chased the cat.", "(c / chase-01 :ARG0 (d / dog) :ARG1 (c2 / cat))"),
    ("The dog did not chase the cat.", "(c / chase-01 :polarity - :ARG0 (d / dog) :ARG1 (c2 / cat))"),
    ("The cat chased the dog.", "(c / chase-01 :ARG0 (c2 / cat) :ARG1 (d / dog))"),
    ("The girl is happy.", "(h / happy-01 :ARG1 (g / girl))"),
    ("The girl is unhappy.", "(u / unhappy-01 :ARG1 (g / girl))"),
    ("The boy ate an apple.", "(e / eat-01 :ARG0 (b / boy) :ARG1 (a / apple))"),
    ("The boy ate a fruit.", "(e / eat-01 :ARG0 (b / boy) :ARG1 (f / fruit))"),
)
ROUNDTRIP_SENTENCES: tuple[str, ...] = (
    "The dog chased the cat.",
    "The girl is happy.",
    "The boy ate an apple.",
)

# NLI training pairs: (premise, hypothesis, label). Contradiction is symmetric; entailment is
# not (a hypernym foil is entailed forwards, neutral backwards).
NLI_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("The dog chased the cat.", "The dog did not chase the cat.", "contradiction"),
    ("The dog did not chase the cat.", "The dog chased the cat.", "contradiction"),
    ("The girl is happy.", "The girl is unhappy.", "contradiction"),
    ("The girl is unhappy.", "The girl is happy.", "contradiction"),
    ("The boy ate an apple.", "The boy ate a fruit.", "entailment"),
    ("The boy ate a fruit.", "The boy ate an apple.", "neutral"),
    ("The dog chased the cat.", "The dog chased the cat.", "entailment"),
    ("The girl is happy.", "The girl is happy.", "entailment"),
    ("The dog chased the cat.", "The girl is happy.", "neutral"),
    ("The girl is happy.", "The boy ate an apple.", "neutral"),
)
NLI_ID2LABEL = {0: "CONTRADICTION", 1: "Neutral", 2: "entailment"}

PAD, EOS, UNK, CLS, SEP = "[PAD]", "[EOS]", "[UNK]", "[CLS]", "[SEP]"


@dataclass(frozen=True)
class TinyModels:
    """Paths of one build."""

    root: Path
    tokenizer_dir: Path  # WordLevel tokenizer for the seq2seq models
    parse_dir: Path  # amrlib parse model (BART), no tokenizer inside
    generate_dir: Path  # amrlib generate model (T5), tokenizer inside
    no_meta_dir: Path  # a seq2seq model dir without amrlib_meta.json
    nli_dir: Path  # 3 named labels, unusual order
    nli_unnamed_dir: Path  # same weights, labels LABEL_0..2
    nli_two_label_dir: Path  # a 2-label classifier


def _serialize(graph: str) -> str:
    """The sequence an amrlib parse_xfm model is trained to emit for ``graph``."""
    from amrlib.models.parse_xfm.penman_serializer import PenmanSerializer

    return PenmanSerializer(graph).get_graph_string()


def _oneline(graph: str) -> str:
    """The input an amrlib generate_xfm model sees for ``graph`` (no tense tags)."""
    from amrlib.models.generate_xfm.model_input_helper import ModelInputHelper

    return ModelInputHelper.gstring_to_oneline(graph)


def _wordlevel_tokenizer(texts: Sequence[str], *, lowercase: bool, pair: bool):
    """A WordLevel tokenizer over the whitespace tokens of ``texts``, wrapped for transformers."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    specials = [PAD, EOS, UNK, CLS, SEP]
    words: list[str] = []
    for text in texts:
        for word in (text.lower() if lowercase else text).split():
            if word not in words:
                words.append(word)
    vocab = {tok: i for i, tok in enumerate(specials + words)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token=UNK))
    if lowercase:
        tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    if pair:
        tok.post_processor = processors.TemplateProcessing(
            single=f"{CLS} $A {SEP}",
            pair=f"{CLS} $A {SEP} $B:1 {SEP}:1",
            special_tokens=[(CLS, vocab[CLS]), (SEP, vocab[SEP])],
        )
        extra = {"cls_token": CLS, "sep_token": SEP}
    else:
        tok.post_processor = processors.TemplateProcessing(single=f"$A {EOS}", special_tokens=[(EOS, vocab[EOS])])
        extra = {"eos_token": EOS}
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token=PAD, unk_token=UNK, **extra)


def _train_seq2seq(model, tokenizer, pairs: Sequence[tuple[str, str]], *, max_steps: int, lr: float) -> int:
    """Full-batch Adam until greedy decoding reproduces every target; returns the steps taken."""
    import torch

    inputs = tokenizer([p[0] for p in pairs], padding=True, return_tensors="pt")
    labels = tokenizer([p[1] for p in pairs], padding=True, return_tensors="pt")["input_ids"]
    labels[labels == tokenizer.pad_token_id] = -100
    targets = [p[1] for p in pairs]
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    step = 0
    while step < max_steps:
        model.train()
        for _ in range(25):
            loss = model(**inputs, labels=labels).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        model.eval()
        with torch.no_grad():  # beam search (what amrlib runs) must reproduce every target too
            greedy = model.generate(**inputs, max_length=48, num_beams=1, do_sample=False)
            beams = model.generate(**inputs, max_length=48, num_beams=4, num_return_sequences=1)
        decoded = tokenizer.batch_decode(greedy, skip_special_tokens=True) + tokenizer.batch_decode(
            beams, skip_special_tokens=True
        )
        if decoded == targets + targets and loss.item() < 0.02:
            break
    model.eval()
    return step


def _train_classifier(model, tokenizer, triples: Sequence[tuple[str, str, int]], *, max_steps: int, lr: float) -> int:
    """Full-batch Adam until every pair is classified with probability > 0.95; returns steps."""
    import torch

    enc = tokenizer([t[0] for t in triples], [t[1] for t in triples], padding=True, return_tensors="pt")
    labels = torch.tensor([t[2] for t in triples])
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    step = 0
    while step < max_steps:
        model.train()
        for _ in range(20):
            loss = model(**enc, labels=labels).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        model.eval()
        with torch.no_grad():
            probs = model(**enc).logits.softmax(-1)
        if bool((probs[torch.arange(len(triples)), labels] > 0.95).all()):
            break
    model.eval()
    return step


def _write_meta(model_dir: Path, kind: str) -> None:
    module = ".parse_xfm.inference" if kind == "stog" else ".generate_xfm.inference"
    meta = {
        "model_type": kind,
        "version": "0.0.1",
        "date": "2026-11-01",
        "inference_module": module,
        "inference_class": "Inference",
        "model_fn": "model.safetensors",
        "kwargs": {},
    }
    (model_dir / "amrlib_meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")


def _legacy_generation_config(model_dir: Path) -> None:
    """Write generation settings into config.json as models saved by transformers 4.x did.

    The released BART-based amrlib parsers carry ``no_repeat_ngram_size: 3`` (from
    facebook/bart-large) there and no generation_config.json; the backend must neutralise it.
    """
    (model_dir / "generation_config.json").unlink(missing_ok=True)
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    config.update(no_repeat_ngram_size=3, num_beams=4, early_stopping=True)
    (model_dir / "config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")


def _save_tokenizer(tokenizer, folder: Path) -> None:
    """Save with a class name that transformers 4.x and 5.x both resolve."""
    tokenizer.save_pretrained(folder)
    path = folder / "tokenizer_config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    config["tokenizer_class"] = "PreTrainedTokenizerFast"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")


def _build_seq2seq(root: Path, seed: int) -> dict[str, Path]:
    import torch
    from transformers import BartConfig, BartForConditionalGeneration, T5Config, T5ForConditionalGeneration

    parse_pairs = [(s, _serialize(g)) for s, g in FIXTURES]
    gen_pairs = [(_oneline(g), s) for s, g in FIXTURES]
    texts = [t for pair in parse_pairs + gen_pairs for t in pair]
    texts.append(":polarity - :ARG2 :mod")  # tokens rules may add to a graph
    tokenizer = _wordlevel_tokenizer(texts, lowercase=False, pair=False)
    tok_dir = root / "tokenizer"
    _save_tokenizer(tokenizer, tok_dir)
    pad, eos = tokenizer.pad_token_id, tokenizer.eos_token_id

    torch.manual_seed(seed)
    parse_cfg = BartConfig(
        vocab_size=len(tokenizer),
        d_model=64,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=128,
        decoder_ffn_dim=128,
        max_position_embeddings=64,
        pad_token_id=pad,
        eos_token_id=eos,
        bos_token_id=eos,
        decoder_start_token_id=eos,
        forced_bos_token_id=None,
        forced_eos_token_id=eos,
        dropout=0.0,
        attention_dropout=0.0,
        task_specific_params={
            "parse_amr": {"model_name_or_path": "facebook/bart-large", "max_in_len": 32, "max_out_len": 48}
        },
    )
    parser = BartForConditionalGeneration(parse_cfg)
    _train_seq2seq(parser, tokenizer, parse_pairs, max_steps=800, lr=5e-3)
    parse_dir = root / "model_parse_tiny_bart"
    parser.save_pretrained(parse_dir)
    _legacy_generation_config(parse_dir)
    _write_meta(parse_dir, "stog")

    torch.manual_seed(seed)
    gen_cfg = T5Config(
        vocab_size=len(tokenizer),
        d_model=64,
        d_ff=128,
        d_kv=32,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=2,
        dropout_rate=0.0,
        pad_token_id=pad,
        eos_token_id=eos,
        decoder_start_token_id=pad,
        task_specific_params={
            "translation_amr_to_text": {"model_name_or_path": "t5-base", "max_in_len": 48, "max_out_len": 32}
        },
    )
    generator = T5ForConditionalGeneration(gen_cfg)
    _train_seq2seq(generator, tokenizer, gen_pairs, max_steps=800, lr=5e-3)
    generate_dir = root / "model_generate_tiny_t5"
    generator.save_pretrained(generate_dir)
    _save_tokenizer(tokenizer, generate_dir)
    _write_meta(generate_dir, "gtos")

    no_meta_dir = root / "model_without_meta"
    shutil.copytree(generate_dir, no_meta_dir)
    (no_meta_dir / "amrlib_meta.json").unlink()
    return {"tokenizer_dir": tok_dir, "parse_dir": parse_dir, "generate_dir": generate_dir, "no_meta_dir": no_meta_dir}


def _build_nli(root: Path, seed: int) -> dict[str, Path]:
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    label2id = {v.lower(): k for k, v in NLI_ID2LABEL.items()}
    tokenizer = _wordlevel_tokenizer([t for p in NLI_PAIRS for t in p[:2]], lowercase=True, pair=True)
    torch.manual_seed(seed)
    cfg = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        pad_token_id=tokenizer.pad_token_id,
        id2label=dict(NLI_ID2LABEL),
        label2id={v: k for k, v in NLI_ID2LABEL.items()},
    )
    model = BertForSequenceClassification(cfg)
    _train_classifier(model, tokenizer, [(p, h, label2id[lab]) for p, h, lab in NLI_PAIRS], max_steps=600, lr=3e-3)
    nli_dir = root / "nli_tiny_bert"
    model.save_pretrained(nli_dir)
    _save_tokenizer(tokenizer, nli_dir)

    unnamed = root / "nli_tiny_bert_unnamed"
    shutil.copytree(nli_dir, unnamed)
    config = json.loads((unnamed / "config.json").read_text(encoding="utf-8"))
    config["id2label"] = {str(i): f"LABEL_{i}" for i in range(3)}
    config["label2id"] = {f"LABEL_{i}": i for i in range(3)}
    (unnamed / "config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")

    torch.manual_seed(seed)
    two = BertForSequenceClassification(
        BertConfig(**{**cfg.to_dict(), "id2label": {0: "no", 1: "yes"}, "label2id": {"no": 0, "yes": 1}})
    )
    two_dir = root / "nli_two_labels"
    two.save_pretrained(two_dir)
    _save_tokenizer(tokenizer, two_dir)
    return {"nli_dir": nli_dir, "nli_unnamed_dir": unnamed, "nli_two_label_dir": two_dir}


def build_tiny_models(root: str | Path, *, seed: int = 0) -> TinyModels:
    """Build (or reuse a complete earlier build of) every tiny fixture under ``root``."""
    import torch
    from transformers.utils import logging as hf_logging

    root = Path(root)
    stamp = root / "BUILD_OK"
    names = {
        "tokenizer_dir": "tokenizer",
        "parse_dir": "model_parse_tiny_bart",
        "generate_dir": "model_generate_tiny_t5",
        "no_meta_dir": "model_without_meta",
        "nli_dir": "nli_tiny_bert",
        "nli_unnamed_dir": "nli_tiny_bert_unnamed",
        "nli_two_label_dir": "nli_two_labels",
    }
    if not (stamp.exists() and stamp.read_text(encoding="utf-8") == f"{BUILD_VERSION} seed={seed}"):
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        hf_logging.disable_progress_bar()
        try:
            _build_seq2seq(root, seed)
            _build_nli(root, seed)
        finally:
            torch.set_num_threads(threads)
        stamp.write_text(f"{BUILD_VERSION} seed={seed}", encoding="utf-8")
    return TinyModels(root=root, **{k: root / v for k, v in names.items()})


def session_models(tmp_path_factory) -> TinyModels:
    """The body of a session fixture: one build per test session (``$SMITH_TINY_MODELS`` to reuse a folder)."""
    import os

    root = os.environ.get("SMITH_TINY_MODELS") or tmp_path_factory.getbasetemp() / "tiny-models"
    return build_tiny_models(root)


def one_torch_thread():
    """Generator for a module fixture: torch on one thread while the module runs, then restored."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


if __name__ == "__main__":  # build into a folder to inspect: python tests/tiny_models.py DIR
    import sys
    import time

    start = time.perf_counter()
    built = build_tiny_models(sys.argv[1] if len(sys.argv) > 1 else ".cache/tiny-models")
    print(f"built in {time.perf_counter() - start:.1f}s under {built.root}")
