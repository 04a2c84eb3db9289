"""Row-wise softmax: y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)), one block per row.

Each thread holds its share of the row in registers (128-bit vector loads; the ragged right edge
is predicated and padded with -inf, which contributes exp(-inf) = 0). Two reduction schemes:

* ``two_pass``: a block-wide max, then a block-wide sum of exp(x - max) (two block reductions);
* ``online``: every thread reduces its values to a (max, sum) pair, and the pairs are combined
  across the warp and the block in one reduction, rescaling the sums to the larger max
  (Milakov & Gimelshein, "Online normalizer calculation for softmax").

The width is a run-time value: one build serves every width up to `max_n`.

Run: python samples/softmax.py [--rows 8] [--n 1000,4096] [--dtype f32|bf16] [--online]
"""

import argparse
import math
import operator

import cutlass
import cutlass.cute as cute
import cutlass.utils
from cutlass.cute.runtime import from_dlpack


class Softmax:
    """Softmax over the last dimension of a row-major (M, N) tensor, N <= max_n."""

    def __init__(self, online: bool = False, max_n: int = 16384, threads: int = 256):
        self.online = online
        self.max_n = max_n
        self.threads = threads
        self.num_warps = threads // 32

    @cute.jit
    def __call__(self, mY: cute.Tensor, mX: cute.Tensor):
        m, _ = mX.shape
        vec = 128 // mX.element_type.width  # elements per 128-bit access
        thr_layout = cute.make_layout((1, self.threads), stride=(self.threads, 1))
        val_layout = cute.make_layout((1, vec), stride=(vec, 1))
        atom = cute.make_copy_atom(
            cute.nvgpu.CopyUniversalOp(), mX.element_type, num_bits_per_copy=128
        )
        tiled_copy = cute.make_tiled_copy_tv(atom, thr_layout, val_layout)
        idX = cute.make_identity_tensor(mX.shape)
        self.kernel(mY, mX, idX, tiled_copy).launch(
            grid=[m, 1, 1], block=[self.threads, 1, 1], smem=self.num_warps * 2 * 4
        )

    @cute.jit
    def warp_reduce(self, val: cutlass.Float32, op: cutlass.Constexpr):
        for i in cutlass.range_constexpr(int(math.log2(cute.arch.WARP_SIZE))):
            val = op(val, cute.arch.shuffle_sync_bfly(val, offset=1 << i))
        return val

    @cute.jit
    def block_reduce(
        self, val: cutlass.Float32, op: cutlass.Constexpr, buf: cute.Tensor, init: cutlass.Float32
    ):
        lane = cute.arch.lane_idx()
        warp = cute.arch.warp_idx()
        val = self.warp_reduce(val, op)
        if lane == 0:
            buf[warp] = val
        cute.arch.sync_threads()
        block_val = init
        if lane < self.num_warps:
            block_val = buf[lane]
        return self.warp_reduce(block_val, op)

    @cute.jit
    def rescale(self, s: cutlass.Float32, m: cutlass.Float32, m_new: cutlass.Float32):
        """A sum of exp2(x - m) re-expressed as a sum of exp2(x - m_new), m_new >= m."""
        # All-padding pairs have m == -inf: rescale against 0 so that -inf - -inf never occurs.
        m_safe = m_new if m_new != -cutlass.Float32.inf else cutlass.Float32(0.0)
        return s * cute.math.exp2(m - m_safe, fastmath=True)

    @cute.jit
    def block_reduce_online(self, m: cutlass.Float32, s: cutlass.Float32, buf: cute.Tensor):
        """Combine per-thread (max, sum of exp2(x - max)) pairs over the block."""
        lane = cute.arch.lane_idx()
        warp = cute.arch.warp_idx()
        for i in cutlass.range_constexpr(int(math.log2(cute.arch.WARP_SIZE))):
            m_other = cute.arch.shuffle_sync_bfly(m, offset=1 << i)
            s_other = cute.arch.shuffle_sync_bfly(s, offset=1 << i)
            m_new = cute.arch.fmax(m, m_other)
            s = self.rescale(s, m, m_new) + self.rescale(s_other, m_other, m_new)
            m = m_new
        if lane == 0:
            buf[warp, 0] = m
            buf[warp, 1] = s
        cute.arch.sync_threads()
        block_m = -cutlass.Float32.inf
        block_s = cutlass.Float32(0.0)
        if lane < self.num_warps:
            block_m = buf[lane, 0]
            block_s = buf[lane, 1]
        for i in cutlass.range_constexpr(int(math.log2(cute.arch.WARP_SIZE))):
            m_other = cute.arch.shuffle_sync_bfly(block_m, offset=1 << i)
            s_other = cute.arch.shuffle_sync_bfly(block_s, offset=1 << i)
            m_new = cute.arch.fmax(block_m, m_other)
            block_s = self.rescale(block_s, block_m, m_new) + self.rescale(s_other, m_other, m_new)
            block_m = m_new
        return block_m, block_s

    @cute.kernel
    def kernel(
        self, mY: cute.Tensor, mX: cute.Tensor, idX: cute.Tensor, tiled_copy: cute.TiledCopy
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()

        smem = cutlass.utils.SmemAllocator()
        reduction_buffer = smem.allocate_tensor(
            cutlass.Float32, cute.make_layout((self.num_warps, 2)), byte_alignment=16
        )

        tiler = (1, self.max_n)
        gX = cute.local_tile(mX, tiler, (bidx, 0))
        gY = cute.local_tile(mY, tiler, (bidx, 0))
        cX = cute.local_tile(idX, tiler, (bidx, 0))
        thr_copy = tiled_copy.get_slice(tidx)
        tXgX = thr_copy.partition_S(gX)
        tXgY = thr_copy.partition_D(gY)
        tXcX = thr_copy.partition_S(cX)

        tXpX = cute.make_rmem_tensor(tXcX.shape, cutlass.Boolean)
        for i in range(cute.size(tXpX)):
            tXpX[i] = cute.elem_less(tXcX[i], mX.shape)

        tXrX = cute.make_fragment_like(tXgX)
        tXrX.fill(-cutlass.Float32.inf)
        cute.copy(tiled_copy, tXgX, tXrX, pred=tXpX)
        # Work in base 2: exp(x - max) == exp2(x * log2(e) - max * log2(e)).
        x = tXrX.load().to(cutlass.Float32) * math.log2(math.e)

        row_max = -cutlass.Float32.inf
        row_sum = cutlass.Float32(0.0)
        if cutlass.const_expr(self.online):
            thread_max = x.reduce(cute.ReductionOp.MAX, -cutlass.Float32.inf, 0)
            # A thread that holds only padding has max -inf: its sum is taken against 0 (it is 0).
            thread_max_safe = (
                thread_max if thread_max != -cutlass.Float32.inf else cutlass.Float32(0.0)
            )
            thread_sum = cute.math.exp2(x - thread_max_safe, fastmath=True).reduce(
                cute.ReductionOp.ADD, 0.0, 0
            )
            row = self.block_reduce_online(thread_max, thread_sum, reduction_buffer)
            row_max = row[0]
            row_sum = row[1]
        else:
            row_max = self.block_reduce(
                x.reduce(cute.ReductionOp.MAX, -cutlass.Float32.inf, 0),
                lambda a, b: cute.arch.fmax(a, b),
                reduction_buffer[None, 0],
                -cutlass.Float32.inf,
            )
            row_sum = self.block_reduce(
                cute.math.exp2(x - row_max, fastmath=True).reduce(cute.ReductionOp.ADD, 0.0, 0),
                operator.add,
                reduction_buffer[None, 1],
                0.0,
            )

        y = cute.math.exp2(x - row_max, fastmath=True) * cute.arch.rcp_approx(row_sum)
        tXrY = cute.make_fragment_like(tXrX)
        tXrY.store(y.to(mY.element_type))
        cute.copy(tiled_copy, tXrY, tXgY, pred=tXpX)


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--n", default="1000", help="comma-separated widths (one build)")
    parser.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    parser.add_argument("--max-n", type=int, default=16384, help="widest row (the tile)")
    parser.add_argument("--online", action="store_true")
    args = parser.parse_args()
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    tol = {"f32": (1e-5, 1e-6), "bf16": (2e-2, 1e-3)}[args.dtype]

    op = Softmax(online=args.online, max_n=args.max_n)
    compiled = None
    for n in (int(w) for w in args.n.split(",")):
        x = torch.randn(args.rows, n, dtype=dtype, device=device) * 4
        y = torch.full_like(x, float("nan"))  # poisoned: every element must be written
        tY, tX = (
            from_dlpack(t, assumed_align=16).mark_layout_dynamic(leading_dim=1) for t in (y, x)
        )
        if compiled is None:
            compiled = cute.compile(op, tY, tX)
        compiled(tY, tX)
        ref = torch.softmax(x.float(), dim=-1).to(dtype)
        torch.testing.assert_close(y, ref, rtol=tol[0], atol=tol[1])
        mode = "online" if args.online else "two-pass"
        print(f"softmax ({mode}) {args.dtype} {args.rows}x{n}: ok")
    print("PASS")


if __name__ == "__main__":
    main()
