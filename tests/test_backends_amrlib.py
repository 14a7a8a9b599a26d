"""amrlib parse/generate backends, proven on a tiny BART parser and a tiny T5 generator built here."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import penman
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tiny_models import FIXTURES, ROUNDTRIP_SENTENCES, TinyModels, one_torch_thread, session_models

from core.errors import ConfigError, GraphError, ModelMissingError
from core.foils.neural.amrlib import (
    AmrlibGenerator,
    AmrlibParser,
    amrlib_graph_string,
    inspect_amrlib_model,
)
from core.types import Edit, ParsedSentence

GOLD = dict(FIXTURES)


@pytest.fixture(scope="session")
def tiny(tmp_path_factory) -> TinyModels:
    return session_models(tmp_path_factory)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    yield from one_torch_thread()


@pytest.fixture(scope="module")
def parser(tiny: TinyModels) -> AmrlibParser:
    return AmrlibParser(str(tiny.parse_dir), tokenizer=str(tiny.tokenizer_dir), batch_size=4, num_beams=4)


@pytest.fixture(scope="module")
def generator(tiny: TinyModels) -> AmrlibGenerator:
    return AmrlibGenerator(str(tiny.generate_dir), batch_size=4, num_beams=4, num_ret_seq=3)


def same_graph(a: penman.Graph, b: penman.Graph) -> bool:
    """Equal up to variable names: compare triples with variables replaced by their concepts."""

    def labelled(g: penman.Graph) -> list[tuple[str, str, str]]:
        concept = {i.source: i.target for i in g.instances()}
        return sorted((concept[s], r, concept.get(t, t)) for s, r, t in g.triples if r != ":instance")

    return labelled(a) == labelled(b) and sorted(i.target for i in a.instances()) == sorted(
        i.target for i in b.instances()
    )


def edit_of(parsed: ParsedSentence, graph: penman.Graph, rule: str = "PN") -> Edit:
    return Edit(rule=rule, variant="test", description="test edit", nodes=(), source=parsed, edited=graph)


def test_parser_reads_the_fixture_sentences(parser: AmrlibParser):
    sentences = [s for s, _ in FIXTURES]
    parsed = parser.parse(sentences)
    assert [p.text for p in parsed] == sentences
    for p in parsed:
        assert p.ok, p.error
        assert p.parser == "amrlib" and p.alignment == {} and p.tokens == ()
        assert same_graph(p.graph, penman.decode(GOLD[p.text])), (p.text, p.penman)
        assert p.metadata["clipped"] == "false"


def test_parser_batches_like_one_at_a_time(tiny: TinyModels, parser: AmrlibParser):
    sentences = [s for s, _ in FIXTURES]
    single = AmrlibParser(str(tiny.parse_dir), tokenizer=str(tiny.tokenizer_dir), batch_size=1, num_beams=4)
    batched = [penman.encode(p.graph) for p in parser.parse(sentences)]
    one_by_one = [penman.encode(single.parse([s])[0].graph) for s in sentences]
    assert batched == one_by_one


def test_parser_reports_per_sentence_problems_as_values(parser: AmrlibParser):
    seen = []
    out = parser.parse(
        ["The dog chased the cat.", "   ", "The girl is happy."], progress=lambda d, t: seen.append((d, t))
    )
    assert [p.ok for p in out] == [True, False, True]
    assert out[1].error == "empty sentence"
    assert seen[-1] == (3, 3)


def test_transformers5_shim_resets_legacy_no_repeat_ngram(tiny: TinyModels, parser: AmrlibParser):
    # the folder is saved like the released BART parsers: no_repeat_ngram_size=3 in config.json
    assert json.loads((tiny.parse_dir / "config.json").read_text())["no_repeat_ngram_size"] == 3
    parser.load()
    from core.foils.neural.amrlib import _load_inference

    inference, _ = _load_inference(parser.model, parser.device)
    assert inference.model.generation_config.no_repeat_ngram_size == 0


def test_models_load_once_per_process(tiny: TinyModels, parser: AmrlibParser):
    from core.foils.neural.amrlib import _load_inference

    again = AmrlibParser(str(tiny.parse_dir), tokenizer=str(tiny.tokenizer_dir), batch_size=2)
    assert _load_inference(again.model, again.device)[0] is _load_inference(parser.model, parser.device)[0]


def test_pipeline_round_trips_the_fixture_sentences(parser: AmrlibParser, generator: AmrlibGenerator):
    parsed = parser.parse(list(ROUNDTRIP_SENTENCES))
    out = generator.generate([edit_of(p, p.graph) for p in parsed])
    assert [r.text for r in out] == list(ROUNDTRIP_SENTENCES)
    for r in out:
        assert r.error is None and r.generator == "amrlib" and r.clipped is False
        assert r.alternatives[0] == r.text and 1 <= len(r.alternatives) <= 3
        assert r.changed_spans == ()


def test_generator_batches_like_one_at_a_time(tiny: TinyModels, generator: AmrlibGenerator):
    graphs = [penman.decode(g) for _, g in FIXTURES]
    single = AmrlibGenerator(str(tiny.generate_dir), batch_size=1, num_beams=4, num_ret_seq=3)
    batched = generator.generate_graphs(graphs)
    one_by_one = [single.generate_graphs([g])[0] for g in graphs]
    assert [r.alternatives for r in batched] == [r.alternatives for r in one_by_one]
    assert [r.text for r in batched] == [s for s, _ in FIXTURES]


def test_rules_on_an_amrlib_graph_reach_the_generator(parser: AmrlibParser, generator: AmrlibGenerator):
    from core.foils.rules.edits import enumerate_edits

    parsed = parser.parse(["The dog chased the cat."])[0]
    edits = enumerate_edits(parsed, ("PN", "RS", "US"), {"US": ("leaf",)})  # "The dog chased." needs the opt-in leaf drop
    main = [e for e in edits["PN"] if e.variant == "main-predicate"]
    assert main and edits["RS"] and edits["US"]
    out = generator.generate(main + edits["RS"] + edits["US"])
    assert out[0].text == "The dog did not chase the cat."
    assert out[0].changed_spans == ((8, 21),)  # "did not chase"
    assert all(r.error is None for r in out)


def test_edits_amrlib_cannot_serialize_are_per_record_errors(parser: AmrlibParser, generator: AmrlibGenerator):
    parsed = parser.parse(["The dog chased the cat."])[0]
    g = parsed.graph
    disconnected = penman.Graph([t for t in g.triples if t[1] != ":ARG1"], top=g.top)  # cat now floats free
    spaced = penman.Graph([(s, r, "domestic animal" if t == "dog" else t) for s, r, t in g.triples], top=g.top)
    empty = penman.Graph([])
    out = generator.generate([edit_of(parsed, x) for x in (disconnected, g, spaced, empty)])
    assert out[1].text == "The dog chased the cat." and out[1].error is None
    assert "cannot serialize" in out[0].error
    assert "domestic animal" in out[2].error
    assert "empty" in out[3].error
    with pytest.raises(GraphError):
        amrlib_graph_string(disconnected)


def test_nbest_and_clip_flag(tiny: TinyModels, tmp_path: Path):
    clipped_dir = tmp_path / "clipped"
    shutil.copytree(tiny.generate_dir, clipped_dir)
    config = json.loads((clipped_dir / "config.json").read_text())
    config["task_specific_params"]["translation_amr_to_text"]["max_in_len"] = 6
    (clipped_dir / "config.json").write_text(json.dumps(config))
    gen = AmrlibGenerator(str(clipped_dir), num_beams=4, num_ret_seq=4)
    assert gen.num_beams == 4
    out = gen.generate_graphs([penman.decode(GOLD["The boy ate an apple."])])[0]
    assert out.clipped is True
    assert 1 <= len(out.alternatives) <= 4 and out.alternatives[0] == out.text


def test_tense_tags_use_the_configured_spacy_model(generator: AmrlibGenerator):
    tagged = AmrlibGenerator(generator.model.model_dir, use_tense=True)
    line = tagged.model_input(penman.decode(GOLD["The dog chased the cat."]), "The dog chased the cat.")
    assert "chase-01~VBD" in line
    assert generator.model_input(penman.decode(GOLD["The dog chased the cat."])).startswith("(c / chase-01 :ARG0")


# -- bad input: clear errors before any batch ------------------------------------------


def test_missing_folder(tmp_path: Path):
    with pytest.raises(ModelMissingError, match="folder not found") as err:
        AmrlibParser(str(tmp_path / "nope"))
    assert "amrlib-models/releases" in err.value.hint


def test_folder_without_meta(tiny: TinyModels):
    with pytest.raises(ModelMissingError, match=r"amrlib_meta\.json") as err:
        AmrlibGenerator(str(tiny.no_meta_dir))
    assert "not an amrlib model folder" in err.value.hint


def test_generate_model_given_as_parser(tiny: TinyModels):
    with pytest.raises(ConfigError, match="generate model, not a parse model"):
        AmrlibParser(str(tiny.generate_dir))


def test_hub_tokenizer_while_offline_fails_fast(tiny: TinyModels, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    start = time.perf_counter()
    with pytest.raises(ModelMissingError, match="facebook/bart-large") as err:
        inspect_amrlib_model(str(tiny.parse_dir), "stog")  # config names a hub tokenizer, none passed
    assert time.perf_counter() - start < 5
    assert "amr_parse_tokenizer" in err.value.hint


def test_gpu_requested_where_none_exists(tiny: TinyModels):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(ConfigError, match="no CUDA GPU"):
        AmrlibGenerator(str(tiny.generate_dir), device="cuda")
    with pytest.raises(ConfigError, match="unknown device"):
        AmrlibGenerator(str(tiny.generate_dir), device="gpu0")


def test_bad_batch_settings(tiny: TinyModels):
    with pytest.raises(ConfigError, match="batch_size"):
        AmrlibGenerator(str(tiny.generate_dir), batch_size=0)


def test_hub_tokenizer_from_a_populated_cache(tiny: TinyModels, tmp_path: Path, monkeypatch):
    """A released model's hub tokenizer is found offline when it sits in the Hugging Face cache."""
    import huggingface_hub.constants

    snapshot = tmp_path / "hub" / "models--facebook--bart-large" / "snapshots" / "0123abc"
    shutil.copytree(tiny.tokenizer_dir, snapshot)
    (tmp_path / "hub" / "models--facebook--bart-large" / "refs").mkdir()
    (tmp_path / "hub" / "models--facebook--bart-large" / "refs" / "main").write_text("0123abc")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = inspect_amrlib_model(str(tiny.parse_dir), "stog")
    assert Path(model.tokenizer) == snapshot
    parser = AmrlibParser(str(tiny.parse_dir), batch_size=2)
    assert parser.parse(["The girl is happy."])[0].ok
