"""RowScale: y[r, :] = x[r, :] * scale / norm(x[r, :]), one block per row (a class-based kernel).

The configuration lives on `self` (set in `__init__`); the generated C++ receives it through the
`Meta` struct that the specialization fills in.

Run: python samples/row_scale.py [--rows 8] [--n 256] [--norm l1|l2]
"""

import argparse
import math

import cutlass
import cutlass.cute as cute


class RowScale:
    """y[r, :] = x[r, :] * scale / sum(|x[r, :]|), one block per row, n == threads * vec."""

    def __init__(self, n: int, norm: str = "l1"):
        self.n = n
        self.norm = norm
        self.threads = 32
        self.vec = n // 32

    @cute.jit
    def __call__(self, mY: cute.Tensor, mX: cute.Tensor, scale: cutlass.Float32):
        m, _ = mX.shape
        atom = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), mX.element_type)
        tiled_copy = cute.make_tiled_copy_tv(
            atom, cute.make_layout(self.threads), cute.make_layout(self.vec)
        )
        self.kernel(mY, mX, tiled_copy, scale).launch(grid=[m, 1, 1], block=[self.threads, 1, 1])

    @cute.jit
    def warp_sum(self, v):
        for i in cutlass.range_constexpr(int(math.log2(32))):
            v = v + cute.arch.shuffle_sync_bfly(v, offset=1 << i)
        return v

    @cute.kernel
    def kernel(
        self, mY: cute.Tensor, mX: cute.Tensor, tiled_copy: cute.TiledCopy, scale: cutlass.Float32
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        gX = cute.local_tile(mX, tiler=(1, self.n), coord=(bidx, 0))[0, None]
        gY = cute.local_tile(mY, tiler=(1, self.n), coord=(bidx, 0))[0, None]
        thr = tiled_copy.get_slice(tidx)
        tXgX = thr.partition_S(gX)
        tYgY = thr.partition_D(gY)
        tXrX = cute.make_fragment_like(tXgX)
        cute.autovec_copy(tXgX, tXrX)
        acc = cutlass.Float32(0.0)
        for i in range(cute.size(tXrX)):
            if cutlass.const_expr(self.norm == "l1"):
                acc += abs(tXrX[i].to(cutlass.Float32))
            else:
                acc += tXrX[i].to(cutlass.Float32) * tXrX[i].to(cutlass.Float32)
        acc = self.warp_sum(acc)
        if acc == 0.0:
            acc = cutlass.Float32(1.0)
        tYrY = cute.make_fragment_like(tXrX)
        tYrY.store((tXrX.load().to(cutlass.Float32) * (scale / acc)).to(tYrY.element_type))
        cute.autovec_copy(tYrY, tYgY)


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    from cutlass.cute.runtime import from_dlpack

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--n", type=int, default=256)
    parser.add_argument("--norm", choices=["l1", "l2"], default="l1")
    args = parser.parse_args()

    x = torch.randn(args.rows, args.n, dtype=torch.float32, device=device)
    y = torch.full_like(x, float("nan"))  # poisoned: every element must be written
    scale = 2.0
    op = RowScale(args.n, args.norm)
    op(from_dlpack(y), from_dlpack(x), cutlass.Float32(scale))

    norm = (
        x.abs().sum(dim=1, keepdim=True) if args.norm == "l1" else (x * x).sum(dim=1, keepdim=True)
    )
    torch.testing.assert_close(y, x * scale / norm)
    print("PASS")


if __name__ == "__main__":
    main()
