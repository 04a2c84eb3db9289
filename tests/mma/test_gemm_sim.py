"""A whole small GEMM on the simulator (tests/mma/kernels/gemm_kernels.hpp: tensorop_gemm's
structure — cpasync copies into 3 shared-memory stages with commit/wait groups, TiledMMA
partitions, LdMatrix s2r copies through make_tiled_copy_A/B and retile, gemm per k-block) against
numpy, for f16 and bf16 on gfx942 MFMA atoms, f16 on gfx950's 16x16x32, and a SIMT
MmaUniversalOp GEMM; and the simulator's async-copy checks (a missing cp_async_wait_group is
reported in checked mode, and gives stale data without it)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mma_build import KERNELS, assert_gemm, build_host, gemm_inputs, gemm_result


@pytest.fixture(scope="module")
def gemm_sim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_host(KERNELS / "gemm_sim.cpp", tmp_path_factory.mktemp("mma") / "gemm_sim")


def _run(
    exe: Path, variant: str, m: int, n: int, k: int, dtype: str, check: bool = False
) -> tuple[subprocess.CompletedProcess[str], np.ndarray, np.ndarray]:
    seed = int.from_bytes(os.urandom(4), "little")
    abits, bbits, av, bv = gemm_inputs(dtype, m, n, k, seed)
    text = f"{variant} {m} {n} {k}\n"
    text += " ".join(f"{x:x}" for x in abits.ravel()) + "\n"
    text += " ".join(f"{x:x}" for x in bbits.ravel()) + "\n"
    env = dict(os.environ, BBX_SIM_CHECK="1" if check else "0", BBX_SIM_THREADS="2")
    res = subprocess.run([str(exe)], input=text, capture_output=True, text=True, env=env)
    return res, av, bv


@pytest.mark.parametrize(
    ("variant", "dtype", "m", "n", "k"),
    [
        ("f16", "f16", 64, 64, 64),
        ("f16", "f16", 128, 128, 128),
        ("bf16", "bf16", 128, 64, 96),
        ("f16_950", "f16", 128, 128, 128),
        ("fma", "f16", 128, 64, 64),
    ],
)
def test_gemm_matches_numpy(
    gemm_sim: Path, variant: str, dtype: str, m: int, n: int, k: int
) -> None:
    res, av, bv = _run(gemm_sim, variant, m, n, k, dtype)
    assert_gemm(gemm_result(res, m, n), av, bv)


def test_gemm_clean_in_checked_mode(gemm_sim: Path) -> None:
    res, av, bv = _run(gemm_sim, "f16", 64, 128, 96, "f16", check=True)
    assert_gemm(gemm_result(res, 64, 128), av, bv)


def test_missing_wait_is_reported_in_checked_mode(gemm_sim: Path) -> None:
    res, _, _ = _run(gemm_sim, "nowait", 64, 64, 64, "f16", check=True)
    assert res.returncode == 2, res.stderr
    assert "which an asynchronous copy (cp.async) issued by thread" in res.stderr
    assert "has not written yet: wait for it with cp_async_wait_group" in res.stderr
    assert "gemm_kernels.hpp:" in res.stderr  # the copy's call site in the kernel


def test_missing_wait_reads_stale_data(gemm_sim: Path) -> None:
    res, av, bv = _run(gemm_sim, "nowait", 64, 64, 64, "f16")
    c = gemm_result(res, 64, 64)
    assert np.abs(c - av @ bv.T).max() > 1.0
