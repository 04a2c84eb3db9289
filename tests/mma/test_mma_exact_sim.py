"""The m16n8-exact MMA of the header (bbx/atom/mma_exact.hpp, gemm_m16n8_exact) run by the
simulator's lane-exact MFMA emulation (tests/mma/kernels/mma_exact_sim.cpp): every logical
thread loads NVIDIA's A and C fragments (CuTe's SM80 layouts) and B in the mode's sigma order,
the wave runs swapped-operand MFMA 16x16x16 pairs, and the C fragments stored back through
NVIDIA's layout are C + A @ B^T of fresh random f16/bf16 inputs (numpy, float64), for W = 2, 4, 8
warps along M, N 16/32 and one or two k16 blocks, on gfx942 and gfx950. A wrong register gather,
B layout or lane renaming in the header gives wrong numbers here."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mma_build import KERNELS, bf16_bits, build_host


@pytest.fixture(scope="module")
def exact_sim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_host(KERNELS / "mma_exact_sim.cpp", tmp_path_factory.mktemp("mma") / "exact_sim")


@pytest.fixture(scope="module")
def exact_sim_renamed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same, built with the platform's lane renaming (-DBBX_LANE_RENAMING)."""
    return build_host(KERNELS / "mma_exact_sim.cpp",
                      tmp_path_factory.mktemp("mma") / "exact_sim_renamed", ["-DBBX_LANE_RENAMING"])


def _inputs(dtype: str, shape: tuple[int, int], rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    x = rng.standard_normal(shape).astype(np.float32)
    if dtype == "f16":
        h = x.astype(np.float16)
        return h.view(np.uint16), h.astype(np.float64)
    bits = bf16_bits(x)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def _run(exe: Path, dtype: str, arch: str, warps: int, mma_n: int, kblocks: int,
         who: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(C the kernel leaves, C + A @ B^T in float64, the error bound of f32 accumulation)."""
    rng = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
    m, n, k = 16 * warps, 8 * mma_n, 16 * kblocks
    abits, av = _inputs(dtype, (m, k), rng)
    bbits, bv = _inputs(dtype, (n, k), rng)
    c = rng.standard_normal((m, n)).astype(np.float32)
    text = f"{dtype} {arch} {warps} {mma_n} {kblocks} {who}\n"
    text += " ".join(f"{x:x}" for x in abits.ravel()) + "\n"
    text += " ".join(f"{x:x}" for x in bbits.ravel()) + "\n"
    text += " ".join(f"{x:x}" for x in c.view(np.uint32).ravel()) + "\n"
    env = dict(os.environ, BBX_SIM_CHECK="1", BBX_SIM_THREADS="1")
    res = subprocess.run([str(exe)], input=text, capture_output=True, text=True, env=env,
                         check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    got = np.array([int(x, 16) for x in res.stdout.split()], dtype=np.uint32)
    got = got.view(np.float32).astype(np.float64).reshape(m, n)
    ref = c.astype(np.float64) + av @ bv.T
    bound = (k + 2) * 2.0**-24 * (np.abs(c) + np.abs(av) @ np.abs(bv).T)
    return got, ref, bound


SHAPES = [(2, 2, 1), (2, 4, 2), (4, 2, 2), (8, 4, 1)]


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize(("warps", "mma_n", "kblocks"), SHAPES)
def test_exact_gemm_leaves_nvidia_fragments(exact_sim: Path, dtype: str, arch: str, warps: int,
                                            mma_n: int, kblocks: int) -> None:
    got, ref, bound = _run(exact_sim, dtype, arch, warps, mma_n, kblocks, "hand")
    m, n = got.shape
    bad = np.abs(got - ref) > bound
    assert not bad.any(), f"{int(bad.sum())} of {m * n} wrong; worst {np.abs(got - ref).max()}"


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize(("warps", "mma_n", "kblocks"), SHAPES)
def test_the_platform_renames_the_lanes(exact_sim_renamed: Path, arch: str, warps: int,
                                        mma_n: int, kblocks: int) -> None:
    """With BBX_LANE_RENAMING the kernel indexes by thread_idx() (the logical thread) and the
    simulator runs it on the renamed physical lanes: NVIDIA's fragments again."""
    got, ref, bound = _run(exact_sim_renamed, "f16", arch, warps, mma_n, kblocks, "platform")
    assert not (np.abs(got - ref) > bound).any()


def test_without_renaming_the_fragments_are_wrong(exact_sim: Path) -> None:
    """The negative control: the same kernel without lane renaming computes garbage."""
    got, ref, bound = _run(exact_sim, "f16", "gfx942", 2, 2, 1, "platform")
    assert (np.abs(got - ref) > bound).mean() > 0.5
