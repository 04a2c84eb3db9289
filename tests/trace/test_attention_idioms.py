"""Tensor idioms of attention kernels by staged execution (flash_attention_v2.py uses each):
`cute.basic_copy`, a tensor made on a shared-memory pointer with a swizzled (composed) layout,
`cute.composition` of a partitioned identity tensor's layout (coordinate-basis strides, the
masking view of the accumulator), and Python's `min`/`max` of run-time numbers (the causal
bound; the DSL redirects them to `cutlass.min`/`max`). On the simulator against torch, random
sizes."""

from __future__ import annotations

import random
from pathlib import Path

from .staged_script import run_staged

SCRIPT = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack

R, C = {r}, {c}


@cute.kernel
def kernel(mX: cute.Tensor, mSwz: cute.Tensor, mCopy: cute.Tensor, mRows: cute.Tensor,
           mCols: cute.Tensor, mExt: cute.Tensor, mFloat: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    mExt[tidx, 0] = min(tidx, R // 2)
    mExt[tidx, 1] = max(tidx + 1, 3, min(C, 2))
    mExt[tidx, 2] = cutlass.min((tidx, R - tidx))
    mFloat[tidx] = max(mX[tidx, 0], mX[tidx, 1])
    smem = cutlass.utils.SmemAllocator()
    raw = smem.allocate_array(cutlass.Float32, R * C)
    swz = cute.make_composed_layout(cute.make_swizzle(2, 0, 3), 0, cute.make_layout((R, C)))
    sX = cute.make_tensor(raw, swz)
    for j in cutlass.range_constexpr(C):
        sX[tidx, j] = mX[tidx, j]
    cute.arch.sync_threads()
    flat = cute.make_tensor(raw, cute.make_layout(R * C))
    for j in cutlass.range_constexpr(C):
        mSwz[tidx * C + j] = flat[tidx * C + j]
    row = cute.make_rmem_tensor((C,), cutlass.Float32)
    cute.basic_copy(mX[tidx, None], row)
    for j in cutlass.range_constexpr(C):
        mCopy[tidx, j] = row[j] * 2.0
    cS = cute.make_identity_tensor((R, C))
    # the transposed view of the coordinates: a layout over the identity tensor's basis strides
    cT = cute.make_tensor(cS.iterator, cute.composition(
        cS.layout, cute.make_layout((C, R), stride=(R, 1))))
    for j in cutlass.range_constexpr(C):
        r, c = cT[j, tidx]
        mRows[tidx, j] = r
        mCols[tidx, j] = c


@cute.jit
def host(mX: cute.Tensor, mSwz: cute.Tensor, mCopy: cute.Tensor, mRows: cute.Tensor,
         mCols: cute.Tensor, mExt: cute.Tensor, mFloat: cute.Tensor):
    kernel(mX, mSwz, mCopy, mRows, mCols, mExt, mFloat).launch(
        grid=(1, 1, 1), block=(R, 1, 1), smem=R * C * 4)


x = torch.randn(R, C)
swz = torch.full((R * C,), float("nan"))
copied = torch.full((R, C), float("nan"))
rows, cols = (torch.full((R, C), -1, dtype=torch.int32) for _ in range(2))
ext = torch.full((R, 3), -1, dtype=torch.int32)
fl = torch.full((R,), float("nan"))
host(from_dlpack(x), from_dlpack(swz), from_dlpack(copied), from_dlpack(rows), from_dlpack(cols),
     from_dlpack(ext), from_dlpack(fl))
t = torch.arange(R)
expected_ext = torch.stack([torch.clamp(t, max=R // 2), torch.clamp(t + 1, min=3),
                            torch.minimum(t, R - t)], dim=1).to(torch.int32)
assert torch.equal(ext, expected_ext), ext
torch.testing.assert_close(fl, torch.maximum(x[:, 0], x[:, 1]))

# element (i, j) of the swizzled tensor lives at Swizzle<2,0,3>(i + j * R)
offsets = torch.tensor([[i + j * R for j in range(C)] for i in range(R)])
swizzled = offsets ^ ((offsets >> 3) & 3)
expected = torch.full((R * C,), float("nan"))
expected[swizzled.flatten()] = x.flatten()
torch.testing.assert_close(swz, expected)
torch.testing.assert_close(copied, x * 2.0)
# cT[j, i] = cS at linear index j * R + i of the (C, R):(R, 1) layout, i.e. column-major (R, C)
lin = torch.tensor([[j * R + i for j in range(C)] for i in range(R)])
assert torch.equal(rows, (lin % R).to(torch.int32)), rows
assert torch.equal(cols, (lin // R).to(torch.int32)), cols
print("PASS")
'''


def test_attention_idioms(tmp_path: Path) -> None:
    r, c = random.choice([8, 16, 32]), random.choice([4, 8])
    proc = run_staged(tmp_path, SCRIPT.format(r=r, c=c))
    assert proc.returncode == 0 and "PASS" in proc.stdout, ((r, c), proc.stdout[-4000:])
