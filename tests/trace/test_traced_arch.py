"""The `cute.arch` names with their own trace face (`bbx.dsl.arch_face`) and `cute.math.sincos`
under staged execution (BBX_STAGED=1), on the simulator in checked mode against numpy on fresh
random inputs: `warp_redux_sync` computed where it is called (every lane) and used in a branch,
atomics with `sem=` / `scope=` returning the pointee's type (a Float32 add, an unused max, CAS,
`atomic_fmin`), `load` / `store` with orders, `fma_packed_f32x2`, `sincos`, and an unsigned
`cutlass.full(...).with_signedness(False)` shift; and the located diagnostics of an order the
operation does not take and of an unknown reduction kind. Two warps of 32 lanes."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .staged_script import run_staged

SCRIPT = '''
import numpy as np
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def kernel(mV: cute.Tensor, mF: cute.Tensor, mAcc: cute.Tensor, mFAcc: cute.Tensor,
           mOut: cute.Tensor, mOutF: cute.Tensor, mCopy: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    v = mV[tidx]
    f = mF[tidx]
    low = cute.arch.warp_redux_sync(v, "min")  # every lane reduces here (the simulator checks
    mixed = cute.arch.warp_redux_sync(v, "xor")  # that all 32 arrive); each half writes one
    if tidx % 2 == 0:
        mOut[tidx, 0] = low
    else:
        mOut[tidx, 0] = mixed
    mOut[tidx, 1] = cute.arch.atomic_add(mAcc.iterator, v, sem="acq_rel", scope="gpu")
    cute.arch.atomic_max(mAcc.iterator + 1, v)  # the old value unused: it still runs
    mOut[tidx, 2] = cute.arch.atomic_cas(mAcc.iterator + 2, cmp=-1, val=tidx, sem="acquire")
    mOutF[tidx, 0] = cute.arch.atomic_add(mFAcc.iterator, 1.0)  # a Float32 old value
    cute.arch.atomic_fmin(mFAcc.iterator + 1, f, sem="relaxed", scope="cta")
    cute.arch.store(mCopy.iterator + tidx, v * 3, sem="release", scope="gpu")
    mOut[tidx, 3] = cute.arch.load(mV.iterator + tidx, cutlass.Int32, sem="acquire") + 1
    p0, p1 = cute.arch.fma_packed_f32x2((f, 2.0), (f, f), (1.0, f))
    mOutF[tidx, 1] = p0
    mOutF[tidx, 2] = p1
    s, c = cute.math.sincos(f)
    mOutF[tidx, 3] = s
    mOutF[tidx, 4] = c
    u = cutlass.full(2, v).with_signedness(False)
    mOut[tidx, 4] = (u >> 28)[1]


@cute.jit
def host(mV: cute.Tensor, mF: cute.Tensor, mAcc: cute.Tensor, mFAcc: cute.Tensor,
         mOut: cute.Tensor, mOutF: cute.Tensor, mCopy: cute.Tensor):
    kernel(mV, mF, mAcc, mFAcc, mOut, mOutF, mCopy).launch(grid=[1, 1, 1], block=[64, 1, 1])


v = torch.tensor({v}, dtype=torch.int32)
f = torch.tensor({f}, dtype=torch.float32)
acc = torch.tensor([0, -(2 ** 31), -1], dtype=torch.int32)
facc = torch.tensor([0.0, float("inf")], dtype=torch.float32)
out = torch.full((64, 5), -7, dtype=torch.int32)
outf = torch.full((64, 5), float("nan"), dtype=torch.float32)
copy = torch.zeros(64, dtype=torch.int32)
host(*(from_dlpack(t) for t in (v, f, acc, facc, out, outf, copy)))
for name, t in (("acc", acc), ("facc", facc), ("out", out), ("outf", outf), ("copy", copy)):
    np.save(name + ".npy", t.numpy())
print("DONE")
'''


def test_arch_names_with_their_own_trace_face(tmp_path: Path) -> None:
    rng = np.random.default_rng()
    v = rng.integers(-2**31, 2**31, 64).astype(np.int32)
    v[rng.integers(0, 64)] = -rng.integers(1, 2**20)  # a negative value for the unsigned shift
    f = (rng.standard_normal(64) * 3).astype(np.float32)
    proc = run_staged(tmp_path, SCRIPT.format(v=v.tolist(), f=f.tolist()))
    assert proc.returncode == 0 and "DONE" in proc.stdout, proc.stdout[-4000:]
    acc, facc = np.load(tmp_path / "acc.npy"), np.load(tmp_path / "facc.npy")
    out, outf = np.load(tmp_path / "out.npy"), np.load(tmp_path / "outf.npy")
    warps = v.reshape(2, 32)
    lows = np.repeat(warps.min(1), 32)
    xors = np.repeat(np.bitwise_xor.reduce(warps, axis=1), 32)
    even = np.arange(64) % 2 == 0
    np.testing.assert_array_equal(out[:, 0], np.where(even, lows, xors))
    # atomic_add: the old values and the values after each add are one chain from 0 to the sum
    wrap = 2**32
    total = int(v.astype(np.int64).sum())
    olds = out[:, 1].astype(np.int64)
    afters = (olds + v + 2**31) % wrap - 2**31
    assert sorted([0, *afters.tolist()]) == sorted([*olds.tolist(), (total + 2**31) % wrap - 2**31])
    assert acc[0] == (total + 2**31) % wrap - 2**31 and acc[1] == v.max()
    # CAS(-1 -> tidx): one lane swaps and sees -1; every other lane sees its tidx
    winner = int(acc[2])
    assert 0 <= winner < 64 and out[winner, 2] == -1
    assert (np.delete(out[:, 2], winner) == winner).all()
    # the Float32 add returns 0, 1, ..., 63 in some order
    assert sorted(outf[:, 0].tolist()) == list(range(64)) and facc[0] == 64.0
    assert facc[1] == f.min()
    np.testing.assert_array_equal(np.load(tmp_path / "copy.npy"), v * np.int32(3))
    np.testing.assert_array_equal(out[:, 3], v + np.int32(1))
    f64 = f.astype(np.float64)
    np.testing.assert_array_equal(outf[:, 1], (f64 * f64 + 1.0).astype(np.float32))  # fused
    np.testing.assert_array_equal(outf[:, 2], (f64 * 2.0 + f64).astype(np.float32))
    np.testing.assert_allclose(outf[:, 3], np.sin(f64), rtol=2e-6, atol=2e-7)
    np.testing.assert_allclose(outf[:, 4], np.cos(f64), rtol=2e-6, atol=2e-7)
    np.testing.assert_array_equal(out[:, 4], (v.view(np.uint32) >> 28).astype(np.int32))


BAD = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def kernel(mX: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    mX[tidx] = {call}


@cute.jit
def host(mX: cute.Tensor):
    kernel(mX).launch(grid=[1, 1, 1], block=[32, 1, 1])


host(from_dlpack(torch.zeros(32, dtype=torch.int32)))
'''


def test_an_order_the_load_does_not_take_is_located(tmp_path: Path) -> None:
    call = 'cute.arch.load(mX.iterator, cutlass.Int32, sem="release")'
    proc = run_staged(tmp_path, BAD.format(call=call))
    assert proc.returncode != 0
    assert "driver.py:11:" in proc.stdout and 'sem= must be one of "relaxed", "acquire"' in (
        proc.stdout), proc.stdout[-3000:]
    assert "Traceback" not in proc.stdout


def test_an_unknown_reduction_kind_is_located(tmp_path: Path) -> None:
    proc = run_staged(tmp_path, BAD.format(call='cute.arch.warp_redux_sync(mX[tidx], "sum")'))
    assert proc.returncode != 0
    assert "driver.py:11:" in proc.stdout and "kind= must be one of" in proc.stdout, (
        proc.stdout[-3000:])
    assert "Traceback" not in proc.stdout
