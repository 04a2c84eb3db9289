"""The suite's order: with one worker per core (pytest-xdist, a file per worker), the files that
take longest start first, so that no worker is left with one of them at the end. The list is
from `pytest --durations` of a whole run (2026-11-27); a file not in it keeps its place."""

from __future__ import annotations

import pytest

#: slowest first (seconds of one worker on a 2-core machine, rounded)
LONGEST_FIRST = (
    "tests/shim/test_upstream_scripts.py",  # ~26 upstream scripts, 40-190 s each
    "tests/amd/test_samples_amd.py",  # builds every sample for gfx942/gfx950
    "tests/dsl/test_registry_examples.py",  # one unit of every registry example per target
    "tests/runtime_cpp/",  # the C++ unit tests (CTest)
    "tests/amd/test_register_resources.py",
    "tests/tools/",  # corpus and fuzzing
    "tests/mma/",
    "tests/e2e/test_norm_samples.py",
    "tests/e2e/test_quack.py",  # QuACK's kernels, ~30 builds
    "tests/layout/test_differential_pycute.py",
)


def _rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    for rank, prefix in enumerate(LONGEST_FIRST):
        if path.startswith(prefix):
            return rank
    return len(LONGEST_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the rest keep their order
