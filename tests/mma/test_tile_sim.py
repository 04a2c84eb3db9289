"""bbx::tile (HipKittens-style shared and register tiles, load_async / load / store, mma_ABt) on
the simulator: tests/mma/kernels/tile_kernels.hpp's 4-wave GEMM, built for gfx942 tiles
(16x16x16) and gfx950 tiles (16x16x32), against numpy, in checked mode."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mma_build import KERNELS, assert_gemm, build_host, gemm_inputs, gemm_result


@pytest.fixture(scope="module", params=["942", "950"])
def tile_sim(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, str]:
    arch = request.param
    exe = build_host(
        KERNELS / "tile_sim.cpp",
        tmp_path_factory.mktemp("tile") / f"tile_sim_{arch}",
        extra=[f"-DBBX_MFMA_ARCH={arch}"],
    )
    return exe, f"gfx{arch}"


@pytest.mark.parametrize(("dtype", "m", "n", "k"), [("f16", 128, 128, 96), ("bf16", 64, 128, 64)])
def test_tile_gemm_matches_numpy(
    tile_sim: tuple[Path, str], dtype: str, m: int, n: int, k: int
) -> None:
    exe, arch = tile_sim
    abits, bbits, av, bv = gemm_inputs(dtype, m, n, k, int.from_bytes(os.urandom(4), "little"))
    text = f"{dtype} {arch} {m} {n} {k}\n"
    text += " ".join(f"{x:x}" for x in abits.ravel()) + "\n"
    text += " ".join(f"{x:x}" for x in bbits.ravel()) + "\n"
    env = dict(os.environ, BBX_SIM_CHECK="1", BBX_SIM_THREADS="2")
    res = subprocess.run([str(exe)], input=text, capture_output=True, text=True, env=env)
    c = gemm_result(res, m, n)
    assert_gemm(c, av, bv)
    assert np.abs(c).max() > 0
