"""The platform's lane renaming (bbx/platform/lane_renaming.hpp, the m16n8-exact mode's pi) on the
simulator: a kernel of every lane operation (tests/mma/kernels/lane_ops_kernels.hpp: thread, lane
and warp indices; xor, indexed, up and down shuffles of several widths, run-time sources and the
DSL's clamped forms; ballots, any/all/uni votes, the active mask, warp reductions, NVIDIA's quad
reduction) on fresh random inputs gives every logical thread the same results with renaming on
(the functions' Renamed = true: the kernel runs on other physical lanes) and off; and a block the
renaming cannot serve is a kernel error that says why."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mma_build import KERNELS, build_host

OUTPUTS = 40


@pytest.fixture(scope="module")
def lane_ops(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_host(KERNELS / "lane_ops_sim.cpp", tmp_path_factory.mktemp("lanes") / "lane_ops")


def _run(exe: Path, how: str, block: tuple[int, int],
         values: np.ndarray) -> subprocess.CompletedProcess[str]:
    text = f"{how} {block[0]} {block[1]}\n" + " ".join(str(int(v)) for v in values) + "\n"
    env = dict(os.environ, BBX_SIM_CHECK="1", BBX_SIM_THREADS="1")
    return subprocess.run([str(exe)], input=text, capture_output=True, text=True, env=env,
                          check=False)


@pytest.mark.parametrize("block", [(64, 1), (128, 1), (256, 1), (64, 2), (128, 3)])
def test_every_lane_operation_is_the_same_renamed(lane_ops: Path, block: tuple[int, int]) -> None:
    n = block[0] * block[1]
    rng = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
    values = rng.integers(-100000, 100000, n + 2)
    plain, renamed = (_run(lane_ops, how, block, values) for how in ("plain", "renamed"))
    assert plain.returncode == 0 and renamed.returncode == 0, (plain.stderr, renamed.stderr)
    want = np.array(plain.stdout.split(), dtype=np.int64).reshape(n, OUTPUTS)
    got = np.array(renamed.stdout.split(), dtype=np.int64).reshape(n, OUTPUTS)
    assert (want[:, 0] == np.arange(n)).all()  # the reference run indexes threads as CUDA does
    differ = sorted({int(c) for c in np.nonzero(want != got)[1]})
    assert not differ, f"outputs {differ} differ with lane renaming"


def test_a_block_of_partial_waves_is_refused(lane_ops: Path) -> None:
    res = _run(lane_ops, "renamed", (32, 2), np.arange(66))
    assert res.returncode == 2
    assert "lane renaming (the m16n8-exact MMA mode) needs 64-lane waves" in res.stderr
