"""Traced MMAs (bbx.trace.mma): partitions by CuTe's thrfrg against the same construction in
pycute, and GEMM kernels — a SIMT one (MmaUniversalOp) and a warp one (MmaF16BF16Op, MFMA
atoms on the simulator) — traced by staged execution, run on the simulator on fresh random
inputs and compared with torch."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bbx.targets.registry import parse_target
from bbx.trace import layout as L
from bbx.trace.mma import MmaF16BF16Op, MmaUniversalOp, TiledMma
from bbx.trace.scalar import Float16, Float32
from bbx.trace.target import tracing_for
from bbx.trace.tiled_mma import make_tiled_mma

from . import layout_cases as lc
from .staged_script import run_staged

pycute = pytest.importorskip("pycute")


def _pycute_thrfrg(mma: TiledMma, layout: L.Layout, which: str) -> Any:
    """CuTe's thrfrg_{A,B,C} written in pycute: divide by the permutation, zip by the atom,
    compose the atom's TV layout, divide the rest by the threads."""
    p0, p1 = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[which]
    atom_tv = {"A": mma.atom.tv_layout_A, "B": mma.atom.tv_layout_B,
               "C": mma.atom.tv_layout_C}[which]

    def pl(x: Any) -> Any:
        return pycute.Layout(x.shape, x.stride) if isinstance(x, L.Layout) else x

    vmnk = mma.thr_layout_vmnk
    perm = mma.permutation_mnk
    t = pycute.logical_divide(pl(layout), (pl(perm[p0]), pl(perm[p1])))
    a = pycute.zipped_divide(t, (mma.atom.shape_mnk[p0], mma.atom.shape_mnk[p1]))
    tv = pycute.composition(a[0], pl(atom_tv))
    r = pycute.zipped_divide(a[1], (L.size(vmnk[p0 + 1]), L.size(vmnk[p1 + 1])))
    return pycute.make_layout(pycute.make_layout(tv[0], r[0]), pycute.make_layout(tv[1], r[1]))


def _text(x: object) -> str:
    return str(x).replace(" ", "").replace(",)", ")")


def _random_tiled(rng: random.Random) -> tuple[TiledMma, tuple[int, int, int]]:
    """A SIMT tiled MMA (random atom layout and M/N permutations) or a warp one, and a tile
    (M, N, K) it divides."""
    if rng.random() < 0.6:
        wm, wn = rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4, 8])
        layout = (L.make_layout((wm, wn, 1)) if rng.random() < 0.5
                  else L.Layout((wm, wn, 1), (wn, 1, 0)))
        vm, vn = rng.choice([1, 2, 4]), rng.choice([1, 2, 4])
        pm = L.Layout((wm, vm), (vm, 1)) if vm > 1 else None
        pn = L.Layout((wn, vn), (vn, 1)) if vn > 1 else None
        mma = make_tiled_mma(MmaUniversalOp(Float32), layout, (pm, pn, None))
    else:
        wm, wn = rng.choice([(2, 2), (4, 2), (2, 4), (4, 4)])
        mma = make_tiled_mma(MmaF16BF16Op(Float16, Float32, (16, 8, 16)),
                             L.make_layout((wm, wn, 1)), (16 * wm, 16 * wn, 16))
    tile = tuple(mma.get_tile_size(i) * rng.choice([1, 2]) for i in range(3))
    return mma, (tile[0], tile[1], tile[2])


@pytest.mark.parametrize("target", ["cpu", "gfx950", "cuda"])
def test_thread_value_partitions_are_cutes_thrfrg_in_pycute(target: str) -> None:
    rng = lc.rng(31_000)
    with tracing_for(parse_target(target)):
        for _ in range(10):
            mma, (m, n, k) = _random_tiled(rng)
            # (M, K, stages) shared-memory-like tiles, column- or row-major
            for which, (s0, s1) in (("A", (m, k)), ("B", (n, k)), ("C", (m, n))):
                layout = (L.make_layout((s0, s1, 2)) if rng.random() < 0.5
                          else L.Layout((s0, s1, 2), (s1, 1, s0 * s1)))
                got = mma.thrfrg(layout, *{"A": (0, 2), "B": (1, 2), "C": (0, 1)}[which],
                                 {"A": mma.atom.tv_layout_A, "B": mma.atom.tv_layout_B,
                                  "C": mma.atom.tv_layout_C}[which])
                want = _pycute_thrfrg(mma, layout, which)
                # the same shape and function (strides of extent-1 modes may differ: pycute
                # keeps what the division gives, CuTe's algebra its own)
                assert _text(got.shape) == _text(want.shape), (mma, which, got, want)
                assert [got(i) for i in range(L.size(got))] == \
                    [want(i) for i in range(pycute.size(want))], (mma, which, got, want)
                # the partition shape: (FrgV, Rest0, Rest1, stages)
                shape = {"A": mma.partition_shape_A, "B": mma.partition_shape_B,
                         "C": mma.partition_shape_C}[which]((s0, s1, 2))
                p0, p1 = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[which]
                vmnk = mma.thr_layout_vmnk
                threads = L.size(vmnk[0]) * L.size(vmnk[p0 + 1]) * L.size(vmnk[p1 + 1])
                assert L.size(L.make_layout(shape)) * threads == s0 * s1 * 2
                # every element of the tile is one thread's value exactly once
                tv = mma.thrfrg(L.make_layout((s0, s1)),
                                *{"A": (0, 2), "B": (1, 2), "C": (0, 1)}[which],
                                {"A": mma.atom.tv_layout_A, "B": mma.atom.tv_layout_B,
                                 "C": mma.atom.tv_layout_C}[which])
                offsets = sorted(tv(i) for i in range(L.size(tv)))
                if which == "C":
                    assert offsets == list(range(s0 * s1))


GEMM_SCRIPT = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack

M, N, K = {m}, {n}, {k}
WARP = {warp}


@cute.kernel
def kernel(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, tiled_mma: cute.TiledMma):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, bidy, _ = cute.arch.block_idx()
    bm, bn, bk = tiled_mma.get_tile_size(0), tiled_mma.get_tile_size(1), tiled_mma.get_tile_size(2)
    gA = cute.local_tile(mA, (bm, bk), (bidx, None))  # (BM, BK, k tiles)
    gB = cute.local_tile(mB, (bn, bk), (bidy, None))
    gC = cute.local_tile(mC, (bm, bn), (bidx, bidy))
    thr = tiled_mma.get_slice(tidx)
    tCgA = thr.partition_A(gA)  # (V, MMA_M, MMA_K, k tiles)
    tCgB = thr.partition_B(gB)
    tCgC = thr.partition_C(gC)
    tCrA = tiled_mma.make_fragment_A(tCgA[None, None, None, 0])
    tCrB = tiled_mma.make_fragment_B(tCgB[None, None, None, 0])
    tCrC = tiled_mma.make_fragment_C(tCgC)
    tCrC.fill(0.0)
    for kt in range(cute.size(gA, mode=[2])):
        cute.autovec_copy(tCgA[None, None, None, kt], tCrA)
        cute.autovec_copy(tCgB[None, None, None, kt], tCrB)
        for kb in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
            cute.gemm(tiled_mma, tCrC, tCrA[None, None, kb], tCrB[None, None, kb], tCrC)
    cute.autovec_copy(tCrC, tCgC)


@cute.jit
def host(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):
    if cutlass.const_expr(WARP):
        op = cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16))
        tiled_mma = cute.make_tiled_mma(op, cute.make_layout((2, 2, 1)),
                                        permutation_mnk=(32, 32, 16))
    else:
        op = cute.nvgpu.MmaUniversalOp(cutlass.Float32)
        tiled_mma = cute.make_tiled_mma(
            op, cute.make_layout((8, 4, 1), stride=(4, 1, 0)),
            permutation_mnk=(cute.make_layout((8, 2), stride=(2, 1)), None, 4))
    grid = (M // tiled_mma.get_tile_size(0), N // tiled_mma.get_tile_size(1), 1)
    kernel(mA, mB, mC, tiled_mma).launch(grid=grid, block=[cute.size(tiled_mma), 1, 1])


dtype = torch.float16 if WARP else torch.float32
a = torch.randn(M, K).to(dtype)
b = torch.randn(N, K).to(dtype)
c = torch.full((M, N), float("nan"))
host(from_dlpack(a), from_dlpack(b), from_dlpack(c))
ref = torch.einsum("mk,nk->mn", a.double(), b.double()).float()
torch.testing.assert_close(c, ref, atol=1e-3 * K, rtol=1e-3)
print("PASS")
'''



@pytest.mark.parametrize("warp", [False, True], ids=["simt", "warp-mfma"])
def test_a_traced_gemm_computes_what_torch_computes(warp: bool, tmp_path: Path) -> None:
    rng = random.Random()
    # tiles: SIMT 16 x 16 x 4 (8x4 threads, M permuted), warp 32 x 32 x 16
    tm, tn, tk = (32, 32, 16) if warp else (16, 16, 4)
    m, n, k = tm * rng.randint(1, 2), tn * rng.randint(1, 2), tk * rng.randint(1, 3)
    proc = run_staged(tmp_path, GEMM_SCRIPT.format(m=m, n=n, k=k, warp=warp))
    assert proc.returncode == 0 and "PASS" in proc.stdout, ((m, n, k), proc.stdout[-4000:])
