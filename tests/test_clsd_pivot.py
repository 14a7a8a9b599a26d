"""The pivot condition through a real Hugging Face seq2seq backend: a tiny T5 translator trained here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.clsd.data import check_pivot, read_clsd
from core.clsd.pivot import HFSeq2SeqTranslator, make_translator, translate_dataset, write_clsd
from core.clsd.tasks import PIVOT, CLSDDataset, CLSDItem, CLSDTask
from core.errors import CancelledError, InputError, ModelMissingError

# (text, English) pairs the tiny model learns; German sources, French candidates.
PAIRS = (
    ("Die Katze schläft .", "The cat sleeps ."),
    ("Der Hund bellt .", "The dog barks ."),
    ("Le chat dort .", "The cat sleeps ."),
    ("Le chien dort .", "The dog sleeps ."),
    ("Le chat mange .", "The cat eats ."),
    ("Le chien aboie .", "The dog barks ."),
    ("Le chien jappe .", "The dog barks ."),  # a synonym: its translation collides with the target's
)


def _build_translator(folder: Path) -> Path:
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast, T5Config, T5ForConditionalGeneration

    words: list[str] = []
    for a, b in PAIRS:
        for w in f"{a} {b}".split():
            if w not in words:
                words.append(w)
    vocab = {t: i for i, t in enumerate(["[PAD]", "[EOS]", "[UNK]", *words])}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.post_processor = processors.TemplateProcessing(single="$A [EOS]", special_tokens=[("[EOS]", vocab["[EOS]"])])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]", eos_token="[EOS]")
    torch.manual_seed(0)
    cfg = T5Config(
        vocab_size=len(vocab), d_model=32, d_ff=64, d_kv=16, num_layers=1, num_decoder_layers=1, num_heads=2,
        dropout_rate=0.0, pad_token_id=0, eos_token_id=1, decoder_start_token_id=0,
    )
    model = T5ForConditionalGeneration(cfg)
    inputs = tokenizer([a for a, _ in PAIRS], padding=True, return_tensors="pt")
    labels = tokenizer([b for _, b in PAIRS], padding=True, return_tensors="pt")["input_ids"]
    labels[labels == 0] = -100
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(600):
        loss = model(**inputs, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 49:
            with torch.no_grad():
                out = tokenizer.batch_decode(model.generate(**inputs, max_new_tokens=8), skip_special_tokens=True)
            if out == [b for _, b in PAIRS]:
                break
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    cfg_path = folder / "tokenizer_config.json"
    conf = json.loads(cfg_path.read_text(encoding="utf-8"))
    conf["tokenizer_class"] = "PreTrainedTokenizerFast"
    cfg_path.write_text(json.dumps(conf), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def translator_dir(tmp_path_factory) -> Path:
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield _build_translator(tmp_path_factory.mktemp("tiny-translator"))
    finally:
        torch.set_num_threads(before)


def _toy_set() -> CLSDDataset:
    items = (
        CLSDItem("r1", "Die Katze schläft .", "Le chat dort .", ("Le chien dort .", "Le chat mange ."), 2),
        CLSDItem("r2", "Der Hund bellt .", "Le chien aboie .", ("Le chien jappe .", "Le chien dort ."), 3),
    )
    task = CLSDTask("toy", "de-fr", "de", "fr", "German", "French", ("fr_adv1", "fr_adv2"), items)
    return CLSDDataset("toy", "toy.csv", "clsd", {"de-fr": task})


def test_translator_translates_and_keeps_order(translator_dir):
    tr = HFSeq2SeqTranslator(str(translator_dir), batch_size=2)
    seen = []
    texts = ["Le chien aboie .", "Die Katze schläft .", "Le chat mange ."]
    out = tr.translate(texts, source_lang="fr", progress=lambda d, t: seen.append((d, t)))
    assert out == ["The dog barks .", "The cat sleeps .", "The cat eats ."]
    assert seen[-1] == (3, 3)
    assert tr.info["model"] == str(translator_dir)


def test_translated_pivot_set_reports_collisions(translator_dir, tmp_path):
    pivot = translate_dataset(_toy_set(), make_translator(str(translator_dir)))
    task = pivot.task("de-fr")
    assert pivot.condition == PIVOT and task.text_lang == "en"
    assert task.items[0].source == "The cat sleeps ." and task.items[0].target == "The cat sleeps ."
    assert task.items[0].distractors == ("The dog sleeps .", "The cat eats .")
    # r2: "Le chien jappe" and "Le chien aboie" both become "The dog barks ." -> excluded, counted
    assert [i.id for i in task.items] == ["r1"]
    assert task.excluded_counts() == {"distractor equals target": 1}
    # the translated set round-trips through the published layout and lines up with the direct set
    path = tmp_path / "pivot.csv"
    assert write_clsd(pivot, path) == 1
    reread = read_clsd(path, languages=("de", "fr"), condition=PIVOT)
    assert reread.task("de-fr").items[0].distractors == ("The dog sleeps .", "The cat eats .")


def test_cancel_stops_translation(translator_dir):
    import threading

    cancel = threading.Event()
    cancel.set()
    with pytest.raises(CancelledError):
        translate_dataset(_toy_set(), make_translator(str(translator_dir)), cancel=cancel)


def test_missing_translation_model_is_a_clear_error(tmp_path):
    with pytest.raises(ModelMissingError) as err:
        HFSeq2SeqTranslator(str(tmp_path / "no-such-model")).translate(["Hallo ."], source_lang="de")
    assert "cannot be loaded" in err.value.message and "HF_HUB_OFFLINE" in err.value.hint
    with pytest.raises(InputError):
        HFSeq2SeqTranslator("")


@pytest.mark.shared_data
def test_published_pivot_file_is_used_as_is(shared_data):
    direct = read_clsd(shared_data / "clsd" / "CLSD_wmt2019_adversarial_dataset.csv")
    pivot = check_pivot(
        direct, read_clsd(shared_data / "clsd" / "MT_M2M_CLSD_wmt2019_adversarial_dataset.csv", condition=PIVOT)
    )
    first = pivot.task("fr-de").items[0]
    assert first.source.startswith("Kipping at die Linke") and first.target.startswith("Kipping: Europe")


def test_cli_translates_the_pivot_and_saves_it(translator_dir, tmp_path):
    from smithtui.cli import main

    data = tmp_path / "toy.csv"
    data.write_text(
        "Index,German,French,fr_adv1,fr_adv2\n"
        "r1,Die Katze schläft .,Le chat dort .,Le chien dort .,Le chat mange .\n"
        "r2,Der Hund bellt .,Le chien aboie .,Le chien jappe .,Le chien dort .\n",
        encoding="utf-8",
    )
    out, saved = tmp_path / "r.json", tmp_path / "pivot.csv"
    code = main(["clsd", "--data", str(data), "--translate", str(translator_dir), "--save-pivot", str(saved),
                 "--models", "bow", "--out", str(out), "--no-pos"])
    assert code == 0
    summary = {(s["direction"], s["condition"]): s for s in json.loads(out.read_text(encoding="utf-8"))["summary"]}
    assert summary[("de-fr", "pivot")]["excluded"] == {"distractor equals target": 1}
    assert summary[("de-fr", "pivot")]["p_at_1"] == 1.0  # in English the bag of words sees the match
    assert read_clsd(saved, condition=PIVOT).task("de-fr").items[0].target == "The cat sleeps ."
