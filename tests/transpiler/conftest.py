"""Helpers shared by the transpiler tests."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bbx.translate import TranslationResult, translate_source

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
GOLDEN = ROOT / "tests" / "golden"

HEADER = "import cutlass\nimport cutlass.cute as cute\n\n"


def translate_snippet(
    body: str, name: str = "snippet.py", header: bool = True
) -> TranslationResult:
    source = (HEADER if header else "") + textwrap.dedent(body).lstrip("\n")
    return translate_source(source, name, display_path=name)


@pytest.fixture
def snippet():
    return translate_snippet
