"""Cross-entropy forward: loss[r] = logsumexp(x[r, :]) - x[r, label[r]]; rows whose label is
`ignore_index` get loss 0 (torch's reduction="none").

The launch shape follows the number of classes n (a constructor argument) and the element type
(read from the tensors); every choice below is a Python value when the kernel is traced:

* vector width: 128-bit accesses (8 bf16 or 4 f32 elements), narrower when n is not a multiple
  of 128 bits (the rows' starts are then not 128-bit aligned); elements past the row's end are
  -inf, which adds exp(-inf) = 0;
* threads per row: n / 32, so that each thread keeps 32 logits in registers; a power of two up
  to a warp (the row's reduction is a few butterfly shuffles inside the warp, and a block of 128
  threads takes several rows), then whole warps (their partial results meet in shared memory);
* up to max_threads * 32 columns (16384 with the default max_threads of 512: on an H100 at
  4096x32768 bf16 97.1% of a device copy vs 61.7% with 1024 threads, at 2048x131072 100.7% vs
  86.3%) a row is one tile; wider rows are
  looped over in tiles of 16 values per thread.

Either way the logits are read once: each thread keeps a running (max, sum of exp(x - max)) over
its tiles, and the pairs of a row are combined in one row reduction (Milakov & Gimelshein,
"Online normalizer calculation for softmax"); the target logit is then read directly from
global memory. Nothing is written but one loss per row, so the kernel is a streaming read at
every width (ptxas -v, sm_90: 45-48 registers).

Run: python samples/cross_entropy.py [--rows 8] [--n 1000,4096] [--dtype f32|bf16]
     python samples/cross_entropy.py --bench [--dtype bf16] [--shapes 4096x32768,...]   (GPU)
"""

import argparse
import math
from typing import Any

import cutlass
import cutlass.cute as cute
import cutlass.utils
from cutlass.cute.runtime import from_dlpack

#: Logits that a thread holds in registers at a time (as f32) when a row fits in max_threads
#: threads, and when it is looped over in tiles.
VALUES_PER_THREAD = 32
LOOPED_VALUES_PER_THREAD = 16
#: Threads per block at least: short rows are packed several to a block.
MIN_BLOCK_THREADS = 128
#: The shapes timed by --bench (M x n).
BENCH_SHAPES = "32768x8192,16384x4096,65536x1024,4096x32768,2048x131072"


class CrossEntropy:
    """Per-row cross-entropy of (M, n) logits against int64 labels (M,). The logits must be n
    wide (n is static in their type: see row_major)."""

    def __init__(self, n: int = 8192, ignore_index: int = -100, max_threads: int = 512):
        self.ignore_index = ignore_index
        # Threads per row: enough for n / VALUES_PER_THREAD values each; a power of two up to a
        # warp, then whole warps. Rows that would need more than max_threads are looped over in
        # tiles of LOOPED_VALUES_PER_THREAD values per thread.
        values_per_thread = VALUES_PER_THREAD
        threads_needed = math.ceil(n / VALUES_PER_THREAD)
        if threads_needed <= 32:
            threads_per_row = 1 << math.ceil(math.log2(threads_needed))
        elif threads_needed <= max_threads:
            threads_per_row = math.ceil(threads_needed / 32) * 32
        else:
            threads_per_row = max_threads
            values_per_thread = LOOPED_VALUES_PER_THREAD
        rows_per_block = max(1, MIN_BLOCK_THREADS // threads_per_row)
        warps_per_row = max(1, threads_per_row // 32)

        self.threads_per_row = int(threads_per_row)
        self.rows_per_block = int(rows_per_block)
        self.threads = int(rows_per_block * threads_per_row)
        self.warps_per_row = int(warps_per_row)
        self.shuffle_steps = int(math.log2(min(threads_per_row, 32)))
        # A row is processed in `tiles` tiles of tile_n columns.
        self.tile_n = int(threads_per_row * values_per_thread)
        self.tiles = int(math.ceil(n / (threads_per_row * values_per_thread)))
        # The largest power of two (up to 16) dividing n: every row start is aligned to it.
        self.n_align = int(math.gcd(n, 16))
        # Reduction buffer: (rows_per_block, warps_per_row, 2) floats.
        self.reduction_bytes = int(rows_per_block * warps_per_row * 2 * 4)

    @cute.jit
    def __call__(self, mLoss: cute.Tensor, mX: cute.Tensor, mLabel: cute.Tensor):
        # Vector width: 128-bit accesses, narrower when n (hence a row start) is not a multiple
        # of 128 bits.
        width = mX.element_type.width
        vec = min(128 // width, self.n_align)
        atom = cute.make_copy_atom(
            cute.nvgpu.CopyUniversalOp(), mX.element_type, num_bits_per_copy=vec * width
        )
        # Consecutive threads of a row take consecutive vectors (coalesced); each thread repeats
        # that pattern across the tile.
        tiled_copy = cute.make_tiled_copy_tv(
            atom, cute.make_layout(self.threads_per_row), cute.make_layout(vec)
        )
        self.kernel(mLoss, mX, mLabel, tiled_copy).launch(
            grid=[cute.ceil_div(mX.shape[0], self.rows_per_block), 1, 1],
            block=[self.threads, 1, 1],
            smem=self.reduction_bytes,
        )

    @cute.jit
    def rescale(self, s: cutlass.Float32, m: cutlass.Float32, m_new: cutlass.Float32):
        """A sum of exp2(x - m) re-expressed as a sum of exp2(x - m_new), m_new >= m."""
        # All-padding sums have m == -inf: rescale against 0 so that -inf - -inf never occurs.
        m_safe = m_new if m_new != -cutlass.Float32.inf else cutlass.Float32(0.0)
        return s * cute.math.exp2(m - m_safe, fastmath=True)

    @cute.jit
    def row_reduce_online(self, m: cutlass.Float32, s: cutlass.Float32, buf: cute.Tensor):
        """Combine per-thread (max, sum of exp2(x - max)) pairs over the threads of each row:
        butterfly shuffles inside the warp (the threads of a row are consecutive lanes), then,
        for rows of several warps, the warps' pairs through shared memory (`buf`:
        rows_per_block x warps_per_row x 2)."""
        for i in cutlass.range_constexpr(self.shuffle_steps):
            m_other = cute.arch.shuffle_sync_bfly(m, offset=1 << i)
            s_other = cute.arch.shuffle_sync_bfly(s, offset=1 << i)
            m_new = cute.arch.fmax(m, m_other)
            s = self.rescale(s, m, m_new) + self.rescale(s_other, m_other, m_new)
            m = m_new
        if cutlass.const_expr(self.warps_per_row > 1):
            warp = cute.arch.warp_idx()
            row = warp // self.warps_per_row
            if cute.arch.lane_idx() == 0:
                buf[row, warp % self.warps_per_row, 0] = m
                buf[row, warp % self.warps_per_row, 1] = s
            cute.arch.sync_threads()
            m = -cutlass.Float32.inf
            for w in cutlass.range_constexpr(self.warps_per_row):
                m = cute.arch.fmax(m, buf[row, w, 0])
            s = cutlass.Float32(0.0)
            for w in cutlass.range_constexpr(self.warps_per_row):
                s = s + self.rescale(buf[row, w, 1], buf[row, w, 0], m)
        return m, s

    @cute.jit
    def vector_predicate(self, thr_copy: cute.ThrCopy, cT: cute.Tensor, shape: cute.Shape):
        """One predicate per vector access of this thread's share of a coordinate tile. The DSL's
        copy takes predicates shaped like the partition without the atom's own values:
        (ATOM_REST, REST...) = (1, vectors)."""
        tTcT = thr_copy.partition_S(cT)
        tTpT = cute.make_rmem_tensor(
            (cute.size(tTcT, mode=[0, 1]), cute.size(tTcT, mode=[1])), cutlass.Boolean
        )
        for i in cutlass.range_constexpr(cute.size(tTpT, mode=[1])):
            # (row, column) of the vector's first element, inside the tensor's (M, N)?
            tTpT[0, i] = cute.elem_less(tTcT[0, i], shape)
        return tTpT

    @cute.jit
    def load_tile(
        self, tiled_copy: cute.TiledCopy, thr_copy: cute.ThrCopy, gT: cute.Tensor,
        tTpT: cute.Tensor,
    ):
        """This thread's share of a row tile in registers, -inf where its predicate is off
        (exp(-inf) = 0: padding adds nothing to the sums)."""
        tTgT = thr_copy.partition_S(gT)
        tTrT = cute.make_fragment_like(tTgT)
        tTrT.fill(-cutlass.Float32.inf)
        # The skipped vectors keep the constant fill.
        cute.copy(tiled_copy, tTgT, tTrT, pred=tTpT)
        return tTrT

    @cute.kernel
    def kernel(
        self,
        mLoss: cute.Tensor,
        mX: cute.Tensor,
        mLabel: cute.Tensor,
        tiled_copy: cute.TiledCopy,
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        row = bidx * self.rows_per_block + tidx // self.threads_per_row
        thr_copy = tiled_copy.get_slice(tidx % self.threads_per_row)

        smem = cutlass.utils.SmemAllocator()
        reduction_buffer = smem.allocate_tensor(
            cutlass.Float32,
            cute.make_layout((self.rows_per_block, self.warps_per_row, 2)),
            byte_alignment=16,
        )

        # This thread's row of logits and of the (row, column) coordinates, as (tile_n, tiles).
        # Rows past the end (the last block's) are predicated off like columns past n.
        idX = cute.make_identity_tensor(mX.shape)
        gX = cute.local_tile(mX[row, None], (self.tile_n,), (None,))
        cX = cute.local_tile(idX[row, None], (self.tile_n,), (None,))

        # A running (max, sum of exp2(x - max)) per thread, tile by tile, in base 2:
        # exp(x - max) == exp2(x * log2(e) - max * log2(e)).
        thread_max = -cutlass.Float32.inf
        thread_sum = cutlass.Float32(0.0)
        for t in cutlass.range(self.tiles, unroll=1):
            tXpX = self.vector_predicate(thr_copy, cX[None, t], mX.shape)
            tXrX = self.load_tile(tiled_copy, thr_copy, gX[None, t], tXpX)
            x = tXrX.load().to(cutlass.Float32) * math.log2(math.e)
            tile_max = cute.arch.fmax(
                thread_max, x.reduce(cute.ReductionOp.MAX, -cutlass.Float32.inf, 0)
            )
            tile_max_safe = tile_max if tile_max != -cutlass.Float32.inf else cutlass.Float32(0.0)
            tile_sum = cute.math.exp2(x - tile_max_safe, fastmath=True).reduce(
                cute.ReductionOp.ADD, 0.0, 0
            )
            thread_sum = self.rescale(thread_sum, thread_max, tile_max) + tile_sum
            thread_max = tile_max
        row_max, row_sum = self.row_reduce_online(thread_max, thread_sum, reduction_buffer)
        # logsumexp in base e: (max2 + log2(sum)) * ln(2)
        lse = (row_max + cute.math.log2(row_sum, fastmath=True)) * math.log(2.0)

        if tidx % self.threads_per_row == 0:
            if row < mX.shape[0]:
                label = cutlass.Int32(mLabel[row])
                loss = cutlass.Float32(0.0)
                if label != self.ignore_index:
                    loss = lse - mX[row, label].to(cutlass.Float32)
                mLoss[row] = loss


def row_major(t: Any) -> Any:
    """A row-major (M, n) torch tensor as the kernel takes it: n static, M dynamic. Every row
    then starts as aligned as n allows, which is what lets the kernel use vector accesses."""
    return from_dlpack(t, assumed_align=16).mark_compact_shape_dynamic(mode=0, stride_order=(0, 1))


def bench(args: argparse.Namespace) -> None:
    """GB/s of the kernel, of torch's cross_entropy and of a device copy of the logits for
    each M x n of --shapes (bytes read plus bytes written; cute.testing.benchmark: CUDA
    events)."""
    for shape in args.shapes.split(","):
        m, n = (int(d) for d in shape.split("x"))
        bench_shape(args, m, n)


def bench_shape(args: argparse.Namespace, m: int, n: int) -> None:
    import cutlass.cute.testing as testing
    import torch
    import torch.nn.functional as F

    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    x = torch.randn(m, n, dtype=dtype, device="cuda")
    label = torch.randint(0, n, (m,), dtype=torch.int64, device="cuda")
    loss = torch.empty(m, device="cuda")
    out = torch.empty_like(x)
    tX, tLoss, tLabel = row_major(x), from_dlpack(loss), from_dlpack(label)
    tLoss, tLabel = tLoss.mark_layout_dynamic(), tLabel.mark_layout_dynamic()
    compiled = cute.compile(CrossEntropy(n, -100, args.max_threads), tLoss, tX, tLabel)
    compiled(tLoss, tX, tLabel)
    ref = F.cross_entropy(x.float(), label, reduction="none")
    torch.testing.assert_close(loss, ref, rtol=1e-4, atol=1e-4)
    no_args = testing.JitArguments()
    us = {
        "bbx": testing.benchmark(compiled,
                                 kernel_arguments=testing.JitArguments(tLoss, tX, tLabel)),
        "torch": testing.benchmark(lambda: F.cross_entropy(x, label, reduction="none"),
                                   kernel_arguments=no_args),  # fmt: skip
        "copy": testing.benchmark(lambda: out.copy_(x), kernel_arguments=no_args),
    }
    op_bytes = x.nbytes + label.nbytes + loss.nbytes
    moved = {"bbx": op_bytes, "torch": op_bytes, "copy": 2 * x.nbytes}
    gbs = {k: moved[k] / t / 1e3 for k, t in us.items()}
    shares = (f"{k} {v:.0f} GB/s ({100 * v / gbs['copy']:.1f}%)" for k, v in gbs.items())
    print(f"cross_entropy {args.dtype} {m}x{n}: " + ", ".join(shares))


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    import torch.nn.functional as F

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--n", default="1000", help="comma-separated class counts (one build each)")
    parser.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    parser.add_argument("--max-threads", type=int, default=512, help="threads per row at most")
    parser.add_argument("--bench", action="store_true", help="time --shapes (needs a GPU)")
    parser.add_argument("--shapes", default=BENCH_SHAPES, help="comma-separated MxN for --bench")
    args = parser.parse_args()
    if args.bench:
        bench(args)
        return
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    tol = {"f32": (1e-5, 1e-5), "bf16": (1e-5, 1e-4)}[args.dtype]
    ignore_index = -100

    for n in (int(w) for w in args.n.split(",")):
        x = torch.randn(args.rows, n, dtype=dtype, device=device) * 3
        label = torch.randint(0, n, (args.rows,), dtype=torch.int64, device=device)
        label[::3] = ignore_index  # every third row is ignored
        loss = torch.full((args.rows,), float("nan"), device=device)  # poisoned
        tX = row_major(x)
        tLoss = from_dlpack(loss).mark_layout_dynamic()
        tLabel = from_dlpack(label).mark_layout_dynamic()
        op = CrossEntropy(n, ignore_index, args.max_threads)
        compiled = cute.compile(op, tLoss, tX, tLabel)
        compiled(tLoss, tX, tLabel)
        ref = F.cross_entropy(x.double(), label, ignore_index=ignore_index, reduction="none")
        torch.testing.assert_close(loss, ref.float(), rtol=tol[0], atol=tol[1])
        print(f"cross_entropy {args.dtype} {args.rows}x{n}: ok")
    print("PASS")


if __name__ == "__main__":
    main()
