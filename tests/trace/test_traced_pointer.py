"""Raw pointers and `cutlass.Vector` under staged execution (BBX_STAGED=1), on the simulator in
checked mode against numpy on fresh random inputs: `tensor.iterator.raw_ptr() + n`,
`load(count=N, alignment=)` as a vector and its `reduce`, `store` of a vector, a TensorSSA and
a scalar, `p[i]` reads and writes, `masked_load` with a run-time mask and a pass-through
(masked-off lanes are not read), `masked_store` with a run-time mask, vector arithmetic with a
run-time scalar, `cutlass.vector.broadcast_to`, 2-D slices and `outerproduct`, `toint` and
`align`; and the diagnostics of a non-Boolean mask and of a vector reduce with an unknown op."""

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

N = {n}


@cute.kernel
def kernel(mX: cute.Tensor, mY: cute.Tensor, mOut: cute.Tensor, mRed: cute.Tensor,
           limit: cutlass.Int32, scale: cutlass.Float32):
    tidx, _, _ = cute.arch.thread_idx()
    src = mX.iterator.raw_ptr() + tidx * N
    values = src.load(count=N, alignment=4 * N)
    out = mRed.iterator.raw_ptr() + tidx * 3
    out.store(values.reduce("add"))
    out[1] = values.reduce("max")
    out[2] = values.reduce("min", acc=src[0])
    mask = cutlass.Vector.from_elements([tidx * N + i < limit for i in range(N)],
                                        cutlass.Boolean)
    fallback = cutlass.vector.broadcast_to(scale, (N,))
    loaded = src.masked_load(mask, fallback, alignment=4)
    dst = mOut.iterator.raw_ptr() + tidx * N
    dst.store(loaded * scale + cutlass.Float32(1.0))
    keep = cutlass.Vector.from_elements([tidx * N + i >= limit for i in range(N)],
                                        cutlass.Boolean)
    (mY.iterator.raw_ptr() + tidx * N).masked_store(values - scale, keep)


@cute.kernel
def shapes(mM: cute.Tensor, mAddr: cute.Tensor, a0: cutlass.Float32, b0: cutlass.Float32):
    a = cutlass.Vector.from_elements((a0, 2.0, -1.5), cutlass.Float32)
    b = cutlass.Vector.from_elements((b0, 0.5, 3.0, -2.0), cutlass.Float32)
    m = cutlass.vector.outerproduct(a, b)
    p = mM.iterator.raw_ptr()
    for i in cutlass.range_constexpr(3):
        for j in cutlass.range_constexpr(4):
            p[i * 4 + j] = m[i, j]
    row = cutlass.vector.broadcast_to(b, (2, 4))
    sub = row[:, 1:3] + a[0]
    p[12] = sub[0, 0]
    p[13] = sub[1, 1]
    p[14] = m[2, -1]
    (p + 15).store(cute.full(4, a0, cutlass.Float32) * b[1])  # a TensorSSA, 1-D
    base = p.toint()
    mAddr[0] = (p + 3).toint() - base
    up = (p + 1).align(16)
    mAddr[1] = up.toint() % 16
    mAddr[2] = up.toint() - base
    mAddr[3] = p.align(4).toint() - base  # already 4-byte aligned: the same pointer


@cute.jit
def host(mX: cute.Tensor, mY: cute.Tensor, mOut: cute.Tensor, mRed: cute.Tensor,
         mM: cute.Tensor, mAddr: cute.Tensor, limit: cutlass.Int32, scale: cutlass.Float32,
         a0: cutlass.Float32, b0: cutlass.Float32):
    kernel(mX, mY, mOut, mRed, limit, scale).launch(grid=[1, 1, 1], block=[{threads}, 1, 1])
    shapes(mM, mAddr, a0, b0).launch(grid=[1, 1, 1], block=[1, 1, 1])


x = torch.tensor(np.load("x.npy"))
y = torch.full_like(x, -9.0)
out = torch.full_like(x, float("nan"))
red = torch.full(({threads} * 3,), float("nan"))
m = torch.full((19,), float("nan"))
addr = torch.full((4,), -1, dtype=torch.int64)
host(from_dlpack(x), from_dlpack(y), from_dlpack(out), from_dlpack(red), from_dlpack(m),
     from_dlpack(addr),
     cutlass.Int32({limit}), cutlass.Float32({scale}), cutlass.Float32({a0}),
     cutlass.Float32({b0}))
for name, t in (("y", y), ("out", out), ("red", red), ("m", m), ("addr", addr)):
    np.save(name + ".npy", t.numpy())
print("DONE")
'''


def test_raw_pointer_vectors_and_masks(tmp_path: Path) -> None:
    rng = np.random.default_rng()
    n, threads = int(rng.choice([2, 4, 8])), int(rng.integers(2, 9))
    size = n * threads
    limit = int(rng.integers(1, size))
    scale, a0, b0 = (round(float(v), 3) for v in rng.uniform(-2, 2, 3))
    x = rng.uniform(-4, 4, size).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    proc = run_staged(tmp_path, SCRIPT.format(n=n, threads=threads, limit=limit, scale=scale,
                                               a0=a0, b0=b0))
    assert proc.returncode == 0 and "DONE" in proc.stdout, proc.stdout[-4000:]
    s = np.float32(scale)
    rows = x.reshape(threads, n)
    red = np.load(tmp_path / "red.npy").reshape(threads, 3)
    np.testing.assert_allclose(red[:, 0], rows.astype(np.float64).sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(red[:, 1], rows.max(1))
    np.testing.assert_array_equal(red[:, 2], rows.min(1))
    inside = np.arange(size) < limit
    loaded = np.where(inside, x, s)  # masked-off lanes take the pass-through
    np.testing.assert_allclose(np.load(tmp_path / "out.npy"), loaded * s + np.float32(1.0),
                               rtol=1e-6)
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy"),
                                  np.where(inside, np.float32(-9.0), x - s))
    a = np.array([a0, 2.0, -1.5], dtype=np.float32)
    b = np.array([b0, 0.5, 3.0, -2.0], dtype=np.float32)
    outer = np.outer(a, b)
    sub = np.broadcast_to(b, (2, 4))[:, 1:3] + a[0]
    expected = np.concatenate([outer.ravel(), [sub[0, 0], sub[1, 1], outer[2, -1]],
                               np.full(4, a[0] * b[1])])
    np.testing.assert_allclose(np.load(tmp_path / "m.npy"), expected, rtol=1e-6)
    # toint differences are bytes; align(16) of (p + 1) rounds up to the next 16-byte boundary
    # (torch's allocations are at least 16-byte aligned: that is p itself + 16)
    np.testing.assert_array_equal(np.load(tmp_path / "addr.npy"), [12, 0, 16, 0])


BAD = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def kernel(mX: cute.Tensor):
    p = mX.iterator.raw_ptr()
    {line}


@cute.jit
def host(mX: cute.Tensor):
    kernel(mX).launch(grid=[1, 1, 1], block=[1, 1, 1])


host(from_dlpack(torch.zeros(4)))
'''


def test_masked_load_needs_a_boolean_mask(tmp_path: Path) -> None:
    line = "p.masked_load(cutlass.Vector.from_elements((1, 0), cutlass.Int32))"
    proc = run_staged(tmp_path, BAD.format(line=line))
    assert proc.returncode != 0 and "driver.py:11:" in proc.stdout, proc.stdout[-3000:]
    assert "the mask is not a Boolean vector" in proc.stdout
    assert "Traceback" not in proc.stdout


def test_vector_reduce_names_its_ops(tmp_path: Path) -> None:
    proc = run_staged(tmp_path, BAD.format(line='p[0] = p.load(count=4).reduce("mean")'))
    assert proc.returncode != 0 and "driver.py:11:" in proc.stdout, proc.stdout[-3000:]
    assert "op is one of 'add', 'mul', 'max', 'min'" in proc.stdout
    assert "Traceback" not in proc.stdout

