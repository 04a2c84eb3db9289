"""Recasting views (`recast_tensor` up and down in width, `recast_ptr`), pointers made from
integers (`make_ptr`, `inttoptr`, `toint`), and the layout helpers whose results are numbers
(`recast_layout`, `round_up`, `dice`, `make_layout_image_mask`, `assume`), run on the CPU
simulator against numpy (`ndarray.view`) and Python models of the layout algebra."""

from __future__ import annotations

from pathlib import Path

from transpiler.conftest import run_driver_on_simulator

KERNELS = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def views_kernel(mH: cute.Tensor, mW: cute.Tensor, mB: cute.Tensor, mF: cute.Tensor,
                 mG: cute.Tensor, mN: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    # (8, 16) f16 row-major seen as (8, 8) int32: pairs of halves in one word
    words = cute.recast_tensor(mH, cutlass.Int32)
    for j in cutlass.range_constexpr(8):
        mW[tidx, j] = words[tidx, j]
    # (8, 8) int32 row-major seen as (8, 32) uint8 (the first 16 bytes of each row)
    bytes_ = cute.recast_tensor(mW, cutlass.Uint8)
    for j in cutlass.range_constexpr(16):
        mB[tidx, j] = bytes_[tidx, j]
    # a pointer through its integer address and back, and a reinterpreting pointer
    addr = mF.iterator.toint()
    p = cute.make_ptr(cutlass.Float32, addr, cute.AddressSpace.gmem, assumed_align=4)
    q = cutlass.inttoptr(addr, cutlass.AddressSpace.gmem, cutlass.Float32)
    r = cute.recast_ptr(mF.iterator, dtype=cutlass.Int32)
    row = cute.make_tensor(p, cute.make_layout(8))
    row2 = cute.make_tensor(q, cute.make_layout(8))
    bits = cute.make_tensor(r, cute.make_layout(8))
    mG[tidx] = row[tidx] + row2[tidx]
    mN[0, tidx] = bits[tidx]


@cute.kernel
def algebra_kernel(mO: cute.Tensor, k: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    if tidx == 0:
        up = cute.recast_layout(32, 16, cute.make_layout((4, 8), stride=(8, 1)))
        down = cute.recast_layout(8, 32, cute.make_layout((4, 8), stride=(1, 4)))
        mO[0] = cute.size(up)
        mO[1] = cute.cosize(up)
        mO[2] = cute.crd2idx((3, 3), up)
        mO[3] = cute.size(down)
        mO[4] = cute.crd2idx((3, 30), down)
        rounded = cute.round_up((k, 17), (8, 4))
        mO[5] = rounded[0]
        mO[6] = rounded[1]
        diced = cute.dice(cute.make_layout((4, 8, 2), stride=(16, 1, 64)), (1, None, 1))
        mO[7] = cute.crd2idx((3, 1), diced)
        mO[8] = cute.size(diced)
        mO[9] = cutlass.Int32(cute.make_layout_image_mask(
            cute.make_layout((2, 4)), (1, 0), 1))
        mO[10] = cutlass.Int32(cute.make_layout_image_mask(
            cute.make_layout((4, 2), stride=(2, 1)), (0, 1), 0))
        mO[11] = cute.assume(k * 16, divby=16)


@cute.jit
def run_all(mH: cute.Tensor, mW: cute.Tensor, mB: cute.Tensor, mF: cute.Tensor,
            mG: cute.Tensor, mN: cute.Tensor, mO: cute.Tensor, k: cutlass.Int32):
    views_kernel(mH, mW, mB, mF, mG, mN).launch(grid=[1, 1, 1], block=[8, 1, 1])
    algebra_kernel(mO, k).launch(grid=[1, 1, 1], block=[32, 1, 1])
'''

DRIVER = '''
import numpy as np
import torch
from cutlass.cute.runtime import from_dlpack

from views_kernels import run_all

rng = np.random.default_rng()
H = rng.standard_normal((8, 16)).astype(np.float16)
W = torch.zeros((8, 8), dtype=torch.int32)
B = torch.zeros((8, 16), dtype=torch.uint8)
F = rng.standard_normal(8).astype(np.float32)
G = torch.zeros(8, dtype=torch.float32)
N = torch.zeros((1, 8), dtype=torch.int32)
O = torch.full((12,), -99, dtype=torch.int32)
k = int(rng.integers(1, 100))
run_all(*(from_dlpack(t) for t in (torch.from_numpy(H), W, B, torch.from_numpy(F), G, N, O)), k)

assert (W.numpy() == H.view(np.int32)).all(), "recast_tensor f16 -> i32"
assert (B.numpy() == W.numpy()[:, :4].copy().view(np.uint8)).all(), "recast_tensor i32 -> u8"
assert (G.numpy() == 2 * F).all(), "make_ptr / inttoptr of toint()"
assert (N.numpy()[0] == F.view(np.int32)).all(), "recast_ptr"

# recast_layout models: (4,8):(8,1) in 16-bit elements is (4,4):(4,1) in 32-bit ones;
# (4,8):(1,4) in 32-bit elements is (16,8):(1,16) in bytes
o = O.numpy()
assert list(o[:3]) == [16, 16, 3 * 4 + 3 * 1], o
assert o[3] == 128 and o[4] == 3 + 30 * 16, o
assert o[5] == -(-k // 8) * 8 and o[6] == 20, (k, o)
assert o[7] == 3 * 16 + 1 * 64 and o[8] == 8, o                  # dice keeps modes 0 and 2
mask = 0
for i in range(4):                                              # mode 1 of (2,4):(1,2) at 1
    mask |= 1 << (1 + 2 * i)
assert o[9] == mask, (o[9], mask)
mask = 0
for i in range(4):                                              # mode 0 of (4,2):(2,1) at 1
    mask |= 1 << (1 + 2 * i)
assert o[10] == mask, (o[10], mask)
assert o[11] == 16 * k
print("PASS")
'''


def test_views_and_layout_helpers_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"views_kernels.py": KERNELS}, DRIVER)
