"""Inputs of the tools tests: our samples, and NVIDIA's CuTe-DSL examples beside the repository
(`<repository>/../shared/corpus/cutlass`, as on CI), skipped with a message where absent."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
CORPUS = ROOT.parent / "shared" / "corpus" / "cutlass"


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the CuTe-DSL corpus is not at {CORPUS} (expected beside the repository)")
    return CORPUS
