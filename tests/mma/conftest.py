"""Fixtures for the MMA tests (tests/mma/); the helpers live in mma_build.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mma_build import KERNELS, build_host  # noqa: E402


@pytest.fixture(scope="session")
def mfma_emulate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/mma/kernels/mfma_emulate.cpp built for the simulator."""
    return build_host(KERNELS / "mfma_emulate.cpp", tmp_path_factory.mktemp("mma") / "mfma_emulate")
