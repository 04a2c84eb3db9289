"""LayerNorm forward: y[r, :] = (x[r, :] - mean) * rsqrt(var + eps) * w + b, one block per row;
the weight and the bias are optional (pass None).

Each thread holds its share of the row in registers (128-bit vector loads, predicated on the
ragged right edge). Both moments come from one pass and one block reduction (butterfly
shuffles per warp, shared memory across warps) of the values shifted by the row's first
element. The width is a run-time value: one build serves every width up to `max_n`.

Run: python samples/layernorm.py [--rows 8] [--n 1000,4096] [--dtype f32|bf16] [--no-affine]
                                 [--offset 1000]
"""

import argparse

import cutlass
import cutlass.cute as cute
import cutlass.utils
from cutlass.cute.runtime import from_dlpack


class LayerNorm:
    """LayerNorm over the last dimension of a row-major (M, N) tensor, N <= max_n."""

    def __init__(self, max_n: int = 16384, threads: int = 256):
        self.max_n = max_n
        self.threads = threads
        self.num_warps = threads // 32

    @cute.jit
    def __call__(
        self,
        mY: cute.Tensor,
        mX: cute.Tensor,
        mW: cute.Tensor,
        mB: cute.Tensor,
        eps: cutlass.Float32,
    ):
        m, _ = mX.shape
        vec = 128 // mX.element_type.width  # elements per 128-bit access
        thr_layout = cute.make_layout((1, self.threads), stride=(self.threads, 1))
        val_layout = cute.make_layout((1, vec), stride=(vec, 1))
        atom = cute.make_copy_atom(
            cute.nvgpu.CopyUniversalOp(), mX.element_type, num_bits_per_copy=128
        )
        tiled_copy = cute.make_tiled_copy_tv(atom, thr_layout, val_layout)
        idX = cute.make_identity_tensor(mX.shape)
        # Occupancy hint: each thread keeps max_n / threads elements of x (f32), w and b (their
        # own type) in registers, plus about 16 registers of addresses and loop state. Saying
        # how many blocks of that fit in an SM's 64K registers stops the compiler from spending
        # registers it does not need (bf16, 8192 wide: 91 -> 80 registers, 2 -> 3 blocks).
        row_regs = (self.max_n // self.threads) * (32 + 2 * mX.element_type.width) // 32
        blocks_per_sm = 65536 // (self.threads * (row_regs + 16))
        self.kernel(mY, mX, mW, mB, idX, tiled_copy, eps).launch(
            grid=[m, 1, 1],
            block=[self.threads, 1, 1],
            smem=self.num_warps * 2 * 4,
            min_blocks_per_mp=blocks_per_sm,
        )

    @cute.jit
    def block_sum2(self, a: cutlass.Float32, b: cutlass.Float32, buf: cute.Tensor):
        """The block-wide sums of a and of b, with one barrier."""
        lane = cute.arch.lane_idx()
        warp = cute.arch.warp_idx()
        for i in cutlass.range_constexpr(5):
            a = a + cute.arch.shuffle_sync_bfly(a, offset=1 << i)
            b = b + cute.arch.shuffle_sync_bfly(b, offset=1 << i)
        if lane == 0:
            buf[warp, 0] = a
            buf[warp, 1] = b
        cute.arch.sync_threads()
        block_a = cutlass.Float32(0.0)
        block_b = cutlass.Float32(0.0)
        if lane < self.num_warps:
            block_a = buf[lane, 0]
            block_b = buf[lane, 1]
        for i in cutlass.range_constexpr(5):
            block_a = block_a + cute.arch.shuffle_sync_bfly(block_a, offset=1 << i)
            block_b = block_b + cute.arch.shuffle_sync_bfly(block_b, offset=1 << i)
        return block_a, block_b

    @cute.kernel
    def kernel(
        self,
        mY: cute.Tensor,
        mX: cute.Tensor,
        mW: cute.Tensor,
        mB: cute.Tensor,
        idX: cute.Tensor,
        tiled_copy: cute.TiledCopy,
        eps: cutlass.Float32,
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        n = mX.shape[1]

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

        # Predicate the ragged right edge: only columns < n are read or written.
        tXpX = cute.make_rmem_tensor(tXcX.shape, cutlass.Boolean)
        for i in range(cute.size(tXpX)):
            tXpX[i] = cute.elem_less(tXcX[i], mX.shape)

        tXrX = cute.make_fragment_like(tXgX)
        tXrX.fill(0.0)
        cute.copy(tiled_copy, tXgX, tXrX, pred=tXpX)
        # The weight and bias rows (same type and tiling as x) are fetched with x, so that their
        # latency hides behind the reductions instead of following them.
        if cutlass.const_expr(mW is not None):
            tXgW = thr_copy.partition_S(cute.local_tile(mW, tiler, (0, 0)))
            tXrW = cute.make_fragment_like(tXgW)
            tXrW.fill(0.0)
            cute.copy(tiled_copy, tXgW, tXrW, pred=tXpX)
        if cutlass.const_expr(mB is not None):
            tXgB = thr_copy.partition_S(cute.local_tile(mB, tiler, (0, 0)))
            tXrB = cute.make_fragment_like(tXgB)
            tXrB.fill(0.0)
            cute.copy(tiled_copy, tXgB, tXrB, pred=tXpX)

        # Both moments in one pass and one block reduction, of the values shifted by the row's
        # first element: any shift inside the row's range keeps E[d^2] - E[d]^2 free of the
        # cancellation that E[x^2] - E[x]^2 suffers when |mean| >> std.
        shift = gX[0, 0].to(cutlass.Float32)
        x = tXrX.load().to(cutlass.Float32)
        d = cute.where(tXpX.load(), x - shift, cute.full_like(x, 0.0))
        sum_d, sum_d2 = self.block_sum2(
            d.reduce(cute.ReductionOp.ADD, 0.0, 0),
            (d * d).reduce(cute.ReductionOp.ADD, 0.0, 0),
            reduction_buffer,
        )
        mean_d = sum_d / n
        var = cute.arch.fmax(sum_d2 / n - mean_d * mean_d, 0.0)
        rstd = cute.math.rsqrt(var + eps, fastmath=True)
        y = (d - mean_d) * rstd

        if cutlass.const_expr(mW is not None):
            y = y * tXrW.load().to(cutlass.Float32)
        if cutlass.const_expr(mB is not None):
            y = y + tXrB.load().to(cutlass.Float32)

        tXrY = cute.make_fragment_like(tXrX)
        tXrY.store(y.to(mY.element_type))
        cute.copy(tiled_copy, tXrY, tXgY, pred=tXpX)


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    import torch.nn.functional as F

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--n", default="1000", help="comma-separated widths (one build)")
    parser.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    parser.add_argument("--no-affine", action="store_true", help="no weight and no bias")
    parser.add_argument("--max-n", type=int, default=16384)
    parser.add_argument("--offset", type=float, default=1.0, help="mean of the rows (std 3)")
    args = parser.parse_args()
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    tol = {"f32": (1e-5, 1e-5), "bf16": (2e-2, 2e-2)}[args.dtype]
    # x - mean loses the low bits of x: an input rounding error of |x| * eps becomes an output
    # error of |x| * eps / std, whatever the algorithm. The absolute tolerance grows with it.
    atol = tol[1] * (1 + abs(args.offset) / 30)

    op = LayerNorm(max_n=args.max_n)
    compiled = None
    for n in (int(w) for w in args.n.split(",")):
        x = torch.randn(args.rows, n, dtype=dtype, device=device) * 3 + args.offset
        w = None if args.no_affine else torch.randn(n, dtype=dtype, device=device)
        b = None if args.no_affine else torch.randn(n, dtype=dtype, device=device)
        y = torch.full_like(x, float("nan"))  # poisoned: every element must be written
        eps = 1e-5
        tY, tX = (
            from_dlpack(t, assumed_align=16).mark_layout_dynamic(leading_dim=1) for t in (y, x)
        )
        tW, tB = (
            None
            if t is None
            else from_dlpack(t.view(1, n), assumed_align=16).mark_layout_dynamic(leading_dim=1)
            for t in (w, b)
        )
        if compiled is None:
            compiled = cute.compile(op, tY, tX, tW, tB, cutlass.Float32(eps))
        compiled(tY, tX, tW, tB, cutlass.Float32(eps))
        ref = F.layer_norm(
            x.double(),
            (n,),
            None if w is None else w.double(),
            None if b is None else b.double(),
            eps,
        ).to(dtype)
        torch.testing.assert_close(y, ref, rtol=tol[0], atol=atol)
        affine = "no affine" if args.no_affine else "affine"
        print(f"layernorm ({affine}) {args.dtype} {args.rows}x{n}: ok")
    print("PASS")


if __name__ == "__main__":
    main()
