"""Cross-entropy forward: loss[r] = logsumexp(x[r, :]) - x[r, label[r]], one block per row;
rows whose label is `ignore_index` get loss 0 (torch's reduction="none").

Each thread holds its share of the logits in registers (128-bit vector loads, predicated on the
ragged right edge and padded with -inf). The row max and the sum of exp(x - max) are block
reductions (warp butterfly shuffles, then shared memory across warps); the target logit is
gathered directly from global memory. The number of classes is a run-time value: one build
serves every width up to `max_n`.

Run: python samples/cross_entropy.py [--rows 8] [--n 1000,4096] [--dtype f32|bf16]
"""

import argparse
import math
import operator

import cutlass
import cutlass.cute as cute
import cutlass.utils
from cutlass.cute.runtime import from_dlpack


class CrossEntropy:
    """Per-row cross-entropy of (M, N) logits against int64 labels (M,), N <= max_n."""

    def __init__(self, ignore_index: int = -100, max_n: int = 16384, threads: int = 256):
        self.ignore_index = ignore_index
        self.max_n = max_n
        self.threads = threads
        self.num_warps = threads // 32

    @cute.jit
    def __call__(self, mLoss: cute.Tensor, mX: cute.Tensor, mLabel: cute.Tensor):
        m, _ = mX.shape
        vec = 128 // mX.element_type.width  # elements per 128-bit access
        thr_layout = cute.make_layout((1, self.threads), stride=(self.threads, 1))
        val_layout = cute.make_layout((1, vec), stride=(vec, 1))
        atom = cute.make_copy_atom(
            cute.nvgpu.CopyUniversalOp(), mX.element_type, num_bits_per_copy=128
        )
        tiled_copy = cute.make_tiled_copy_tv(atom, thr_layout, val_layout)
        idX = cute.make_identity_tensor(mX.shape)
        self.kernel(mLoss, mX, mLabel, idX, tiled_copy).launch(
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

    @cute.kernel
    def kernel(
        self,
        mLoss: cute.Tensor,
        mX: cute.Tensor,
        mLabel: cute.Tensor,
        idX: cute.Tensor,
        tiled_copy: cute.TiledCopy,
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()

        smem = cutlass.utils.SmemAllocator()
        reduction_buffer = smem.allocate_tensor(
            cutlass.Float32, cute.make_layout((self.num_warps, 2)), byte_alignment=16
        )

        tiler = (1, self.max_n)
        gX = cute.local_tile(mX, tiler, (bidx, 0))
        cX = cute.local_tile(idX, tiler, (bidx, 0))
        thr_copy = tiled_copy.get_slice(tidx)
        tXgX = thr_copy.partition_S(gX)
        tXcX = thr_copy.partition_S(cX)

        tXpX = cute.make_rmem_tensor(tXcX.shape, cutlass.Boolean)
        for i in range(cute.size(tXpX)):
            tXpX[i] = cute.elem_less(tXcX[i], mX.shape)

        tXrX = cute.make_fragment_like(tXgX)
        tXrX.fill(-cutlass.Float32.inf)
        cute.copy(tiled_copy, tXgX, tXrX, pred=tXpX)
        x = tXrX.load().to(cutlass.Float32)

        row_max = self.block_reduce(
            x.reduce(cute.ReductionOp.MAX, -cutlass.Float32.inf, 0),
            lambda a, b: cute.arch.fmax(a, b),
            reduction_buffer[None, 0],
            -cutlass.Float32.inf,
        )
        log2e = math.log2(math.e)
        row_sum = self.block_reduce(
            cute.math.exp2((x - row_max) * log2e, fastmath=True).reduce(
                cute.ReductionOp.ADD, 0.0, 0
            ),
            operator.add,
            reduction_buffer[None, 1],
            0.0,
        )
        lse = row_max + cute.math.log(row_sum, fastmath=True)

        if tidx == 0:
            label = cutlass.Int32(mLabel[bidx])
            loss = cutlass.Float32(0.0)
            if label != self.ignore_index:
                loss = lse - mX[bidx, label].to(cutlass.Float32)
            mLoss[bidx] = loss


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    import torch.nn.functional as F

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--n", default="1000", help="comma-separated widths (one build)")
    parser.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    parser.add_argument("--max-n", type=int, default=16384, help="widest row (the tile)")
    args = parser.parse_args()
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    tol = {"f32": (1e-5, 1e-5), "bf16": (1e-5, 1e-4)}[args.dtype]
    ignore_index = -100

    op = CrossEntropy(ignore_index=ignore_index, max_n=args.max_n)
    compiled = None
    for n in (int(w) for w in args.n.split(",")):
        x = torch.randn(args.rows, n, dtype=dtype, device=device) * 3
        label = torch.randint(0, n, (args.rows,), dtype=torch.int64, device=device)
        label[::3] = ignore_index  # every third row is ignored
        loss = torch.full((args.rows,), float("nan"), device=device)  # poisoned
        tLoss = from_dlpack(loss).mark_layout_dynamic()
        tX = from_dlpack(x, assumed_align=16).mark_layout_dynamic(leading_dim=1)
        tLabel = from_dlpack(label).mark_layout_dynamic()
        if compiled is None:
            compiled = cute.compile(op, tLoss, tX, tLabel)
        compiled(tLoss, tX, tLabel)
        ref = F.cross_entropy(x.float(), label, ignore_index=ignore_index, reduction="none")
        torch.testing.assert_close(loss, ref, rtol=tol[0], atol=tol[1])
        print(f"cross_entropy {args.dtype} {args.rows}x{n}: ok")
    print("PASS")


if __name__ == "__main__":
    main()
