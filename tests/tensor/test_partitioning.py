"""Host partitioning checks of the tensor layer, driving
runtime_cpp/tests/tensor/test_partitioning.cpp:
tiled-copy coverage (every element of a 2-D tile exactly once over all thread ids) and predicated
copies of ragged tiles (identity-tensor predication) that must not touch anything out of bounds,
on random data and shapes for several seeds. A sabotaged run (predicate ignored) must fail, which
shows the poison/bounds checks can see a violation."""

from __future__ import annotations

import subprocess

import pytest
from conftest import CPP_TESTS, compile_host


@pytest.fixture(scope="module")
def partition_prog(tmp_path_factory):
    out = tmp_path_factory.mktemp("tensor") / "test_partitioning"
    return compile_host(CPP_TESTS / "test_partitioning.cpp", out)


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 12345])
def test_coverage_and_ragged_predicated_copy(partition_prog, seed):
    res = subprocess.run(
        [str(partition_prog), str(seed), "12"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stdout
    assert res.stdout.strip().endswith("ok")


def test_checks_detect_out_of_bounds(partition_prog):
    res = subprocess.run(
        [str(partition_prog), "5", "2", "sabotage"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    assert res.returncode != 0
    assert "out-of-bounds" in res.stdout
