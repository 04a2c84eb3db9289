"""`cute.arch` bit operations, warp masks / votes / reductions, atomics with `sem=`/`scope=`,
explicit loads and stores and the dynamic shared-memory size, run on the CPU simulator (wave64,
checked mode) against Python/numpy references on fresh random inputs."""

from __future__ import annotations

from pathlib import Path

from transpiler.conftest import run_driver_on_simulator

KERNELS = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def bits_kernel(mX: cute.Tensor, mY: cute.Tensor, mS: cute.Tensor, mO: cute.Tensor,
                mW: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * 64 + tidx
    x = mX[i]
    y = mY[i]
    s = mS[i]
    u = cutlass.Uint32(x)
    mO[0, i] = cute.arch.popc(x)
    mO[1, i] = cutlass.Int32(cute.arch.clz(x))
    mO[2, i] = cute.arch.brev(x)
    mO[3, i] = cutlass.Int32(cute.arch.bfind(x))
    mO[4, i] = cutlass.Int32(cute.arch.bfind(u))
    mO[5, i] = cute.arch.bfe(x, s, y & 63)
    mO[6, i] = cutlass.Int32(cute.arch.bfe(u, s, y & 63))
    mO[7, i] = cute.arch.bfi(y, x, s, (y >> 8) & 63)
    mO[8, i] = cute.arch.mul_hi(x, y)
    mO[9, i] = cutlass.Int32(cute.arch.mul_hi(u, cutlass.Uint32(y)))
    mW[i] = cute.arch.mul_wide(x, y)


@cute.kernel
def warp_kernel(mV: cute.Tensor, mF: cute.Tensor, mO: cute.Tensor, mFO: cute.Tensor,
                mEx: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    v = mV[tidx]
    f = mF[tidx]
    mO[0, tidx] = cutlass.Int32(cute.arch.lanemask_lt())
    mO[1, tidx] = cutlass.Int32(cute.arch.lanemask_le())
    mO[2, tidx] = cutlass.Int32(cute.arch.lanemask_eq())
    mO[3, tidx] = cutlass.Int32(cute.arch.lanemask_gt())
    mO[4, tidx] = cutlass.Int32(cute.arch.lanemask_ge())
    mO[5, tidx] = cutlass.Int32(cute.arch.vote_uni_sync(v > 0))
    mO[6, tidx] = cute.arch.warp_redux_sync(v, "add")
    mO[7, tidx] = cute.arch.warp_redux_sync(v, "max")
    mO[8, tidx] = cute.arch.warp_redux_sync(v, "min")
    mO[9, tidx] = cute.arch.warp_redux_sync(v, "umax")
    mO[10, tidx] = cute.arch.warp_redux_sync(v, "xor")
    mO[11, tidx] = cute.arch.warp_redux_sync(v, "or")
    mO[12, tidx] = cute.arch.warp_redux_sync(v, "and")
    mO[13, tidx] = cutlass.Int32(cute.arch.activemask())
    mFO[0, tidx] = cute.arch.warp_redux_sync(f, "fmax")
    mFO[1, tidx] = cute.arch.warp_redux_sync(f, "fmin", nan=True)
    mFO[2, tidx] = cute.arch.warp_redux_sync(f, "fmax", abs=True)
    # a lane reads its neighbour's word after a warp barrier (the simulator runs a lane until
    # it blocks: without the barrier lane 0 would read before lane 1 has written)
    mEx[tidx] = v * 3
    cute.arch.sync_warp()
    lane = cute.arch.lane_idx()
    mO[14, tidx] = mEx[tidx - lane + (lane + 1) % 32]


@cute.kernel
def atomic_kernel(mV: cute.Tensor, mF: cute.Tensor, mAcc: cute.Tensor, mFAcc: cute.Tensor,
                  mOld: cute.Tensor, mSmem: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * 64 + tidx
    v = mV[i]
    f = mF[i]
    cute.arch.atomic_and(mAcc.iterator, v)
    cute.arch.atomic_or(mAcc.iterator + 1, v, sem="release", scope="gpu")
    cute.arch.atomic_xor(mAcc.iterator + 2, v, sem="relaxed", scope="cta")
    mOld[i] = cute.arch.atomic_exch(mAcc.iterator + 3, v, sem="acq_rel")
    cute.arch.atomic_max(mAcc.iterator + 4, v, sem="acquire", scope="sys")
    cute.arch.atomic_add(mAcc.iterator + 5, 1, sem="acq_rel", scope="gpu")
    won = cute.arch.atomic_cas(mAcc.iterator + 6, cmp=-1, val=i, sem="acq_rel")
    if won == -1:
        cute.arch.atomic_add(mAcc.iterator + 7, 1)
    cute.arch.atomic_fmax(mFAcc.iterator, f)
    cute.arch.atomic_fmin(mFAcc.iterator + 1, f, sem="relaxed", scope="gpu")
    cute.arch.atomic_max_float32(mFAcc.iterator + 2, cute.math.abs(f))
    if tidx == 0:
        mSmem[bidx] = cute.arch.dynamic_smem_size()
        t0 = cute.arch.clock64()
        w = cute.arch.load(mV.iterator + i, cutlass.Int32, sem="acquire", scope="gpu")
        cute.arch.store(mSmem.iterator + 4 + bidx, w + 1, sem="release")
        t1 = cute.arch.clock64()
        if t1 < t0:
            mSmem[bidx] = -1
        cute.arch.fence_acq_rel_gpu()


@cute.kernel
def packed_kernel(mP: cute.Tensor, mQ: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    a = (mP[tidx, 0], mP[tidx, 1])
    b = (mP[tidx, 2], mP[tidx, 3])
    s0, s1 = cute.arch.add_packed_f32x2(a, b)
    d0, d1 = cute.arch.sub_packed_f32x2(a, b, rnd="rn")
    m0, m1 = cute.arch.mul_packed_f32x2(a, b)
    f0, f1 = cute.arch.fma_packed_f32x2(a, b, (s0, d1))
    mQ[tidx, 0] = s0
    mQ[tidx, 1] = s1
    mQ[tidx, 2] = d0
    mQ[tidx, 3] = d1
    mQ[tidx, 4] = m0
    mQ[tidx, 5] = m1
    mQ[tidx, 6] = f0
    mQ[tidx, 7] = f1


@cute.jit
def run_packed(mP: cute.Tensor, mQ: cute.Tensor):
    packed_kernel(mP, mQ).launch(grid=[1, 1, 1], block=[32, 1, 1])


@cute.jit
def run_all(mX: cute.Tensor, mY: cute.Tensor, mS: cute.Tensor, mO: cute.Tensor,
            mW: cute.Tensor, mV: cute.Tensor, mF: cute.Tensor, mWO: cute.Tensor,
            mFO: cute.Tensor, mEx: cute.Tensor, mAV: cute.Tensor, mAF: cute.Tensor,
            mAcc: cute.Tensor, mFAcc: cute.Tensor, mOld: cute.Tensor, mSmem: cute.Tensor):
    bits_kernel(mX, mY, mS, mO, mW).launch(grid=[4, 1, 1], block=[64, 1, 1])
    warp_kernel(mV, mF, mWO, mFO, mEx).launch(grid=[1, 1, 1], block=[64, 1, 1])
    atomic_kernel(mAV, mAF, mAcc, mFAcc, mOld, mSmem).launch(
        grid=[4, 1, 1], block=[64, 1, 1], smem=100)
'''

DRIVER = '''
import numpy as np
import torch
from cutlass.cute.runtime import from_dlpack

from arch_kernels import run_all, run_packed

rng = np.random.default_rng()
M32 = (1 << 32) - 1


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def bfe(x, pos, ln, signed):
    pos &= 0xFF
    ln &= 0xFF
    msb = 31
    sbit = 0 if (not signed or ln == 0) else (x >> min(pos + ln - 1, msb)) & 1
    d = 0
    for i in range(32):
        bit = (x >> (pos + i)) & 1 if (i < ln and pos + i <= msb) else sbit
        d |= bit << i
    return d


def bfi(a, b, pos, ln):
    pos &= 0xFF
    ln &= 0xFF
    f = b
    for i in range(ln):
        if pos + i > 31:
            break
        f = (f & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
    return f


def bfind(x, signed):
    if signed and (x >> 31):
        x = ~x & M32
    return 0xFFFFFFFF if x == 0 else x.bit_length() - 1


N = 256
X = rng.integers(-2**31, 2**31, N, dtype=np.int64)
X[:8] = [0, -1, 1, -2**31, 2**31 - 1, 12345, -12345, 2**16]
Y = rng.integers(-2**31, 2**31, N, dtype=np.int64)
S = rng.integers(0, 40, N, dtype=np.int64)
t = lambda a, d=torch.int32: torch.from_numpy(np.asarray(a)).to(d)  # noqa: E731
o = torch.zeros((10, N), dtype=torch.int32)
w = torch.zeros(N, dtype=torch.int64)

V = rng.integers(-1000, 1000, 64).astype(np.int32)
V[32:] = np.abs(V[32:]) + 1          # the second warp: every predicate v > 0 holds
F = rng.standard_normal(64).astype(np.float32) * 100
F[3] = np.nan
F[40] = -np.inf
wo = torch.zeros((15, 64), dtype=torch.int32)
fo = torch.zeros((3, 64), dtype=torch.float32)
ex = torch.zeros(64, dtype=torch.int32)

AV = rng.integers(0, 2**31, N).astype(np.int32)
AF = (rng.standard_normal(N) * 10).astype(np.float32)
AF[7] = -np.inf
acc = torch.tensor([-1, 0, 0, -7, -2**31, 0, -1, 0], dtype=torch.int32)
facc = torch.tensor([-np.inf, np.inf, 0.0], dtype=torch.float32)
old = torch.zeros(N, dtype=torch.int32)
smem = torch.zeros(8, dtype=torch.int32)

run_all(*(from_dlpack(a) for a in (
    t(X), t(Y), t(S), o, w, t(V), torch.from_numpy(F), wo, fo, ex, t(AV), torch.from_numpy(AF),
    acc, facc, old, smem)))

o = o.numpy()
for i in range(N):
    x, y, s = int(X[i]) & M32, int(Y[i]) & M32, int(S[i])
    want = [
        bin(x).count("1"), 32 - x.bit_length(), int(f"{x:032b}"[::-1], 2),
        bfind(x, True), bfind(x, False),
        bfe(x, s, y & 63, True), bfe(x, s, y & 63, False), bfi(y, x, s, (s32(y) >> 8) & 63),
        (s32(x) * s32(y)) >> 32, (x * y) >> 32,
    ]
    got = [int(v) & M32 for v in o[:, i]]
    assert got == [v & M32 for v in want], (i, hex(x), hex(y), s, got, want)
assert (w.numpy() == X * Y).all(), "mul_wide"

wo, fo = wo.numpy(), fo.numpy()
for lane in range(64):
    ln = lane % 32
    masks = [(1 << ln) - 1, (2 << ln) - 1, 1 << ln, M32 & ~((2 << ln) - 1), M32 & ~((1 << ln) - 1)]
    assert [int(v) & M32 for v in wo[:5, lane]] == masks, (lane, "lane masks")
    warp = V[lane - ln: lane - ln + 32].astype(np.int64)
    uni = bool((warp > 0).all() or (warp <= 0).all())
    assert wo[5, lane] == uni, "vote_uni_sync"
    assert wo[6, lane] == warp.sum(), "redux add"
    assert wo[7, lane] == warp.max() and wo[8, lane] == warp.min(), "redux max/min"
    assert int(wo[9, lane]) & M32 == max(int(v) & M32 for v in warp), "redux umax"
    x_, o_, a_ = 0, 0, M32
    for v in warp:
        x_ ^= int(v) & M32
        o_ |= int(v) & M32
        a_ &= int(v) & M32
    assert [int(v) & M32 for v in wo[10:13, lane]] == [x_, o_, a_], "redux xor/or/and"
    assert int(wo[13, lane]) & M32 == M32, "activemask"
    fw = F[lane - ln: lane - ln + 32]
    assert fo[0, lane] == np.nanmax(fw), "fmax ignores NaN"
    assert np.isnan(fo[1, lane]) == np.isnan(fw).any(), "fmin(nan=True) propagates NaN"
    if not np.isnan(fw).any():
        assert fo[1, lane] == fw.min()
    assert fo[2, lane] == np.nanmax(np.abs(fw)), "fmax(abs=True)"
    assert wo[14, lane] == 3 * V[lane - ln + (ln + 1) % 32], "sync_warp exchange"

acc = acc.numpy()
a_, o_, x_ = -1, 0, 0
for v in AV.astype(np.int64):
    a_ &= int(v)
    o_ |= int(v)
    x_ ^= int(v)
assert acc[0] == a_ and acc[1] == o_ and acc[2] == x_, "atomic and/or/xor"
olds = sorted([int(v) for v in old.numpy()] + [int(acc[3])])
assert olds == sorted([-7] + [int(v) for v in AV]), "atomic_exch returns every value once"
assert acc[4] == AV.max(), "atomic_max"
assert acc[5] == N, "atomic_add"
assert acc[6] in range(N) and acc[7] == 1, "exactly one atomic_cas wins"
facc = facc.numpy()
assert facc[0] == AF.max() and facc[1] == AF.min(), "atomic_fmax / atomic_fmin"
assert facc[2] == np.abs(AF).max(), "atomic_max_float32"
smem = smem.numpy()
assert (smem[:4] == 100).all(), ("dynamic_smem_size", smem)
assert (smem[4:] == AV[::64] + 1).all(), "load / store"

P = rng.standard_normal((32, 4)).astype(np.float32)
Q = torch.zeros((32, 8), dtype=torch.float32)
run_packed(from_dlpack(torch.from_numpy(P)), from_dlpack(Q))
q = Q.numpy()
a0, a1, b0, b1 = (P[:, i] for i in range(4))
for got, want in ((q[:, 0], a0 + b0), (q[:, 1], a1 + b1), (q[:, 2], a0 - b0), (q[:, 3], a1 - b1),
                  (q[:, 4], a0 * b0), (q[:, 5], a1 * b1)):
    np.testing.assert_array_equal(got, want)
# fused: a * b + c rounded once (float64 product and sum, then float32)
f0 = (a0.astype(np.float64) * b0 + (a0 + b0).astype(np.float64)).astype(np.float32)
f1 = (a1.astype(np.float64) * b1 + (a1 - b1).astype(np.float64)).astype(np.float32)
np.testing.assert_array_equal(q[:, 6], f0)
np.testing.assert_array_equal(q[:, 7], f1)
print("PASS")
'''


def test_arch_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"arch_kernels.py": KERNELS}, DRIVER)
