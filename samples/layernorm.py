"""LayerNorm forward: y[r, :] = (x[r, :] - mean) * rsqrt(var + eps) * w + b; the weight and the
bias are optional (pass None).

The launch shape follows the row width n (a constructor argument) and the element type (read
from the tensors); every choice below is a Python value when the kernel is traced:

* vector width: 128-bit accesses (8 bf16 or 4 f32 elements), narrower when n is not a multiple
  of 128 bits (the rows' starts are then not 128-bit aligned);
* threads per row: n / 32, so that each thread keeps 32 values of the row in registers; a power
  of two up to a warp (the row's sums are a few butterfly shuffles inside the warp, and a block
  of 128 threads takes several rows), then whole warps (their partial sums meet in shared
  memory);
* up to max_threads * 32 columns (16384 with the defaults, 32768 for f32 on sm_90:
  default_max_threads) the whole row stays in registers and x is read once. Wider rows are
  looped over in tiles of 16 values per thread: a first pass sums the moments tile by tile and
  keeps the first tiles in shared memory (as many as `smem_cache_bytes` holds), a second pass
  reads the other tiles again — most recently read first, so that they come from L2 — then the
  cached ones, and writes y.

Both moments come from one pass and one row reduction, of the values shifted by the row's first
element: any shift inside the row's range keeps E[d^2] - E[d]^2 free of the cancellation that
E[x^2] - E[x]^2 suffers when |mean| >> std.

Why (NVIDIA H100: 132 SMs, each 64K registers, 228 KB of shared memory, 2048 threads; a
memory-bound kernel needs some 20 KB of loads in flight per SM). A thread holding 32 values
issues 4 (bf16) or 8 (f32) 16-byte loads at once and needs 56-64 registers (ptxas -v, sm_90), so
an SM runs about 1000 threads: at 1024 columns 8 blocks of 4 rows (64 KB bf16 in flight), at
8192 4 rows of 16 KB, at 32768 (f32 on sm_90; other rows of 16K-32K values are looped over
by 512 threads, see default_max_threads) one 1024-thread row of 128 KB. The
weight and bias are read after the reduction, not kept beside x (that would need 96 registers in
f32). Past 32768 no register file holds a row (bf16 131072 = 256 KB): with 16 values per thread
a looped block needs 48 registers, one 1024-thread block per SM keeps 192 KB of its row in
shared memory and reads the rest again from L2.

Run: python samples/layernorm.py [--rows 8] [--n 1000,4096] [--dtype f32|bf16] [--no-affine]
                                 [--offset 1000]
     python samples/layernorm.py --bench [--dtype bf16] [--shapes 4096x32768,...]   (GPU)
"""

import argparse
import math
from typing import Any

import cutlass
import cutlass.cute as cute
import cutlass.utils
from cutlass.cute.runtime import from_dlpack
from cutlass.cutlass_dsl import BaseDSL

#: Values of its row that a thread holds in registers at a time (as f32) when the whole row fits
#: in max_threads threads: with the weight, addresses and predicates this stays within 64
#: registers (ptxas, sm_90), so that 1024-thread blocks fit the 64K registers of an SM.
VALUES_PER_THREAD = 32
#: The same for rows looped over in tiles: fewer, so that pass 2 (x and the weight/bias of a
#: tile) stays within 64 registers too, and the shared-memory cache is filled in finer steps
#: (bf16 tiles of 32 KB, f32 tiles of 64 KB at 1024 threads).
LOOPED_VALUES_PER_THREAD = 16
#: Threads per block at least: short rows are packed several to a block.
MIN_BLOCK_THREADS = 128
#: The shapes timed by --bench (M x n).
BENCH_SHAPES = "32768x8192,16384x4096,65536x1024,4096x32768,2048x131072"
#: --dtype names -> element types.
CUTLASS_TYPES = {"f32": cutlass.Float32, "bf16": cutlass.BFloat16}



def default_max_threads(n: int, width: int) -> int:
    """Threads per row at most, by default, for rows of n values of `width` bits. Rows of up to
    16384 values take n / 32 threads anyway. Rows of up to 32768 are looped over in tiles by 512
    threads (H100, 4096x32768 bf16: 90-93% of a device copy vs 83% held whole by 1024), except
    32-bit rows on sm_90 and later, held whole by 1024 threads (f32: 93-94% vs 88-89% looped; on
    AMD that block spills, 148 B of scratch at its 128 VGPRs per lane, and bbx answers sm_80
    there). Wider rows are looped over by 1024 threads, which keep more of a row in flight
    (2048x131072)."""
    if n > 32768:
        return 1024
    if width == 32 and BaseDSL._get_dsl().get_arch_enum() >= cutlass.Arch.sm_90:
        return 1024
    return 512


def default_smem_cache_bytes() -> int:
    """The looped rows' shared-memory cache, by default: 192 KiB where the target has that
    much, else what it has less 32 KiB (gfx942's LDS is 64 KiB, gfx950's 160 KiB)."""
    return min(192 * 1024, cutlass.utils.get_smem_capacity_in_bytes() - 32 * 1024)

class LayerNorm:
    """LayerNorm over the last dimension of a row-major (M, n) tensor of `dtype` elements; the
    weight and the bias are (1, n) tensors of the same type, or None. The tensors must be n wide
    (n is static in their type: see row_major)."""

    def __init__(
        self, dtype: type[cutlass.Numeric], n: int = 8192, max_threads: int | None = None,
        smem_cache_bytes: int | None = None,
    ):
        if max_threads is None:
            max_threads = default_max_threads(n, dtype.width)
        if smem_cache_bytes is None:
            smem_cache_bytes = default_smem_cache_bytes()
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
        # A row is processed in `tiles` tiles of tile_n columns (1: the whole row in registers).
        self.tile_n = int(threads_per_row * values_per_thread)
        self.tiles = int(math.ceil(n / (threads_per_row * values_per_thread)))
        # Whether the tiles reach past n: then the padding must be kept out of the moments.
        self.padded = n % (threads_per_row * values_per_thread) != 0
        # The largest power of two (up to 16) dividing n: every row start is aligned to it.
        self.n_align = int(math.gcd(n, 16))
        self.smem_cache_bytes = int(smem_cache_bytes)
        # Reduction buffer: (rows_per_block, warps_per_row, 2) floats, 16-byte aligned.
        self.reduction_bytes = int(-(-rows_per_block * warps_per_row * 2 * 4 // 16) * 16)

    @cute.jit
    def __call__(
        self,
        mY: cute.Tensor,
        mX: cute.Tensor,
        mW: cute.Tensor,
        mB: cute.Tensor,
        eps: cutlass.Float32,
    ):
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
        # Looped rows: tiles kept in shared memory between the passes (the kernel computes the
        # same number). The last tile is always read again from global memory: it was read just
        # before, so it is in L2.
        tile_bytes = self.rows_per_block * self.tile_n * width // 8
        cached_tiles = min(self.tiles - 1, self.smem_cache_bytes // tile_bytes)
        self.kernel(mY, mX, mW, mB, eps, tiled_copy).launch(
            grid=[cute.ceil_div(mX.shape[0], self.rows_per_block), 1, 1],
            block=[self.threads, 1, 1],
            smem=self.reduction_bytes + cached_tiles * tile_bytes,
        )

    @cute.jit
    def row_sum2(self, a: cutlass.Float32, b: cutlass.Float32, buf: cute.Tensor):
        """The sums of `a` and of `b` over the threads of each row: butterfly shuffles inside the
        warp (the threads of a row are consecutive lanes), then, for rows of several warps, the
        warps' partial sums through shared memory (`buf`: rows_per_block x warps_per_row x 2),
        one barrier for both."""
        for i in cutlass.range_constexpr(self.shuffle_steps):
            a = a + cute.arch.shuffle_sync_bfly(a, offset=1 << i)
            b = b + cute.arch.shuffle_sync_bfly(b, offset=1 << i)
        if cutlass.const_expr(self.warps_per_row > 1):
            warp = cute.arch.warp_idx()
            row = warp // self.warps_per_row
            if cute.arch.lane_idx() == 0:
                buf[row, warp % self.warps_per_row, 0] = a
                buf[row, warp % self.warps_per_row, 1] = b
            cute.arch.sync_threads()
            a = cutlass.Float32(0.0)
            b = cutlass.Float32(0.0)
            for w in cutlass.range_constexpr(self.warps_per_row):
                a = a + buf[row, w, 0]
                b = b + buf[row, w, 1]
        return a, b

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
        """This thread's share of a row tile in registers, 0 where its predicate is off."""
        tTgT = thr_copy.partition_S(gT)
        tTrT = cute.make_fragment_like(tTgT)
        tTrT.fill(0.0)
        # The skipped vectors keep the constant fill.
        cute.copy(tiled_copy, tTgT, tTrT, pred=tTpT)
        return tTrT

    @cute.jit
    def shifted(self, tTrT: cute.Tensor, shift: cutlass.Float32, tTpT: cute.Tensor):
        """The tile's values minus shift, and 0 in the vectors past the row's end (when the
        tiles have any)."""
        d = tTrT.load().to(cutlass.Float32) - shift
        if cutlass.const_expr(self.padded):
            # The vector predicates spread over the vectors' elements.
            mask = cute.make_rmem_tensor(tTrT.shape, cutlass.Boolean)
            for i in cutlass.range_constexpr(cute.size(mask, mode=[1])):
                for j in cutlass.range_constexpr(cute.size(mask, mode=[0])):
                    mask[j, i] = tTpT[0, i]
            d = cute.where(mask.load(), d, cute.full_like(d, 0.0))
        return d

    @cute.jit
    def store_tile(
        self, tiled_copy: cute.TiledCopy, thr_copy: cute.ThrCopy, tTrT: cute.Tensor,
        mean: cutlass.Float32, rstd: cutlass.Float32, mW: cute.Tensor, mB: cute.Tensor,
        has_weight: cutlass.Constexpr, has_bias: cutlass.Constexpr, t: cutlass.Int32,
        gY: cute.Tensor, tTpT: cute.Tensor,
    ):
        """y = (x - mean) * rstd * w + b for this thread's share of tile t of a row (x: the
        register tile tTrT). The weight and the bias are read here, after the reduction (they
        are shared by every row, so they come from cache), not kept in registers beside x."""
        y = (tTrT.load().to(cutlass.Float32) - mean) * rstd
        if cutlass.const_expr(has_weight):
            gW = cute.local_tile(mW[0, None], (self.tile_n,), (t,))
            y = y * self.load_tile(tiled_copy, thr_copy, gW, tTpT).load().to(cutlass.Float32)
        if cutlass.const_expr(has_bias):
            gB = cute.local_tile(mB[0, None], (self.tile_n,), (t,))
            y = y + self.load_tile(tiled_copy, thr_copy, gB, tTpT).load().to(cutlass.Float32)
        tYgY = thr_copy.partition_D(gY)
        tYrY = cute.make_fragment_like(tYgY)
        tYrY.store(y.to(tYrY.element_type))
        cute.copy(tiled_copy, tYrY, tYgY, pred=tTpT)

    @cute.kernel
    def kernel(
        self,
        mY: cute.Tensor,
        mX: cute.Tensor,
        mW: cute.Tensor,
        mB: cute.Tensor,
        eps: cutlass.Float32,
        tiled_copy: cute.TiledCopy,
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        row_in_block = tidx // self.threads_per_row
        row = bidx * self.rows_per_block + row_in_block
        thr_copy = tiled_copy.get_slice(tidx % self.threads_per_row)

        smem = cutlass.utils.SmemAllocator()
        reduction_buffer = smem.allocate_tensor(
            cutlass.Float32,
            cute.make_layout((self.rows_per_block, self.warps_per_row, 2)),
            byte_alignment=16,
        )

        # This thread's row of x, y and of the (row, column) coordinates, as (tile_n, tiles).
        # Rows past the end (the last block's) are predicated off like columns past n.
        idX = cute.make_identity_tensor(mX.shape)
        gX = cute.local_tile(mX[row, None], (self.tile_n,), (None,))
        gY = cute.local_tile(mY[row, None], (self.tile_n,), (None,))
        cX = cute.local_tile(idX[row, None], (self.tile_n,), (None,))
        n = mX.shape[1]
        # Whether the weight and the bias are given (static: None is its own specialization).
        has_weight = mW is not None
        has_bias = mB is not None

        # The shift: the row's first element (its load overlaps the row's).
        shift = cutlass.Float32(0.0)
        if row < mX.shape[0]:
            shift = mX[row, 0].to(cutlass.Float32)

        if cutlass.const_expr(self.tiles == 1):
            # The whole row in registers: x is read once.
            tXpX = self.vector_predicate(thr_copy, cX[None, 0], mX.shape)
            tXrX = self.load_tile(tiled_copy, thr_copy, gX[None, 0], tXpX)
            d = self.shifted(tXrX, shift, tXpX)
            sum_d, sum_d2 = self.row_sum2(
                d.reduce(cute.ReductionOp.ADD, 0.0, 0),
                (d * d).reduce(cute.ReductionOp.ADD, 0.0, 0),
                reduction_buffer,
            )
            mean_d = sum_d / n
            var = cute.arch.fmax(sum_d2 / n - mean_d * mean_d, 0.0)
            rstd = cute.math.rsqrt(var + eps, fastmath=True)
            self.store_tile(tiled_copy, thr_copy, tXrX, shift + mean_d, rstd, mW, mB,
                            has_weight, has_bias, 0, gY[None, 0], tXpX)  # fmt: skip
        else:
            # The first `cached_tiles` tiles of each row stay in shared memory between the
            # passes (as in __call__). Each thread reads back only what it wrote: no barrier.
            tile_bytes = self.rows_per_block * self.tile_n * mX.element_type.width // 8
            cached_tiles = min(self.tiles - 1, self.smem_cache_bytes // tile_bytes)
            if cutlass.const_expr(cached_tiles > 0):
                sX = smem.allocate_tensor(
                    mX.element_type,
                    cute.make_layout((self.tile_n, cached_tiles, self.rows_per_block)),
                    byte_alignment=16,
                )
            # Pass 1: both moments of the shifted values, tile by tile.
            sum_d = cutlass.Float32(0.0)
            sum_d2 = cutlass.Float32(0.0)
            for t in cutlass.range(self.tiles, unroll=1):
                tXpX = self.vector_predicate(thr_copy, cX[None, t], mX.shape)
                tXrX = self.load_tile(tiled_copy, thr_copy, gX[None, t], tXpX)
                if cutlass.const_expr(cached_tiles > 0):
                    if t < cached_tiles:
                        cute.autovec_copy(tXrX, thr_copy.partition_D(sX[None, t, row_in_block]))
                d = self.shifted(tXrX, shift, tXpX)
                sum_d = sum_d + d.reduce(cute.ReductionOp.ADD, 0.0, 0)
                sum_d2 = sum_d2 + (d * d).reduce(cute.ReductionOp.ADD, 0.0, 0)
            row_d, row_d2 = self.row_sum2(sum_d, sum_d2, reduction_buffer)
            mean_d = row_d / n
            var = cute.arch.fmax(row_d2 / n - mean_d * mean_d, 0.0)
            rstd = cute.math.rsqrt(var + eps, fastmath=True)
            # Pass 2. First the tiles not kept in shared memory, the last one first: the tiles
            # read last in pass 1 are the likeliest to be still in L2.
            for i in cutlass.range(self.tiles - cached_tiles, unroll=1):
                t = self.tiles - 1 - i
                tXpX = self.vector_predicate(thr_copy, cX[None, t], mX.shape)
                tXrX = self.load_tile(tiled_copy, thr_copy, gX[None, t], tXpX)
                self.store_tile(tiled_copy, thr_copy, tXrX, shift + mean_d, rstd, mW, mB,
                                has_weight, has_bias, t, gY[None, t], tXpX)  # fmt: skip
            # Then the tiles kept in shared memory.
            if cutlass.const_expr(cached_tiles > 0):
                for t in cutlass.range(cached_tiles, unroll=1):
                    tXpX = self.vector_predicate(thr_copy, cX[None, t], mX.shape)
                    tXrX = cute.make_fragment_like(thr_copy.partition_S(gX[None, t]))
                    cute.autovec_copy(thr_copy.partition_D(sX[None, t, row_in_block]), tXrX)
                    self.store_tile(tiled_copy, thr_copy, tXrX, shift + mean_d, rstd, mW, mB,
                                    has_weight, has_bias, t, gY[None, t], tXpX)  # fmt: skip


def row_major(t: Any) -> Any:
    """A row-major (M, n) torch tensor as the kernel takes it: n static, M dynamic. Every row
    then starts as aligned as n allows, which is what lets the kernel use vector accesses."""
    return from_dlpack(t, assumed_align=16).mark_compact_shape_dynamic(mode=0, stride_order=(0, 1))


def bench(args: argparse.Namespace) -> None:
    """GB/s of the kernel, of torch's layer_norm and of a device copy for each M x n of
    --shapes (bytes read plus bytes written; cute.testing.benchmark: CUDA events)."""
    for shape in args.shapes.split(","):
        m, n = (int(d) for d in shape.split("x"))
        bench_shape(args, m, n)


def bench_shape(args: argparse.Namespace, m: int, n: int) -> None:
    import cutlass.cute.testing as testing
    import torch
    import torch.nn.functional as F

    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    eps = 1e-5
    x = torch.randn(m, n, dtype=dtype, device="cuda")
    w = torch.randn(n, dtype=dtype, device="cuda")
    b = torch.randn(n, dtype=dtype, device="cuda")
    y = torch.empty_like(x)
    tY, tX = row_major(y), row_major(x)
    tW, tB = (from_dlpack(t.view(1, n), assumed_align=16) for t in (w, b))
    op = LayerNorm(CUTLASS_TYPES[args.dtype], n, args.max_threads, cache_bytes(args))
    compiled = cute.compile(op, tY, tX, tW, tB, cutlass.Float32(eps))
    compiled(tY, tX, tW, tB, cutlass.Float32(eps))
    torch.testing.assert_close(y, F.layer_norm(x, (n,), w, b, eps), rtol=2e-2, atol=2e-2)
    no_args = testing.JitArguments()
    kernel_args = testing.JitArguments(tY, tX, tW, tB, cutlass.Float32(eps))
    us = {
        "bbx": testing.benchmark(compiled, kernel_arguments=kernel_args),
        "torch": testing.benchmark(lambda: F.layer_norm(x, (n,), w, b, eps),
                                   kernel_arguments=no_args),  # fmt: skip
        "copy": testing.benchmark(lambda: y.copy_(x), kernel_arguments=no_args),
    }
    op_bytes = 2 * x.nbytes + w.nbytes + b.nbytes
    moved = {"bbx": op_bytes, "torch": op_bytes, "copy": 2 * x.nbytes}
    gbs = {k: moved[k] / t / 1e3 for k, t in us.items()}
    shares = (f"{k} {v:.0f} GB/s ({100 * v / gbs['copy']:.1f}%)" for k, v in gbs.items())
    print(f"layernorm {args.dtype} {m}x{n}: " + ", ".join(shares))


def cache_bytes(args: argparse.Namespace) -> int | None:
    return None if args.smem_cache_kb is None else args.smem_cache_kb * 1024


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    import torch.nn.functional as F

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--n", default="1000", help="comma-separated row widths (one build each)")
    parser.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    parser.add_argument("--no-affine", action="store_true", help="no weight and no bias")
    parser.add_argument("--offset", type=float, default=1.0, help="mean of the rows (std 3)")
    parser.add_argument("--max-threads", type=int, default=None,
                        help="threads per row at most (default: default_max_threads)")
    parser.add_argument("--smem-cache-kb", type=int, default=None,
                        help="looped rows: smem cache (default: default_smem_cache_bytes)")
    parser.add_argument("--bench", action="store_true", help="time --shapes (needs a GPU)")
    parser.add_argument("--shapes", default=BENCH_SHAPES, help="comma-separated MxN for --bench")
    args = parser.parse_args()
    if args.bench:
        bench(args)
        return
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    tol = {"f32": (1e-5, 1e-5), "bf16": (2e-2, 2e-2)}[args.dtype]
    # x - mean loses the low bits of x: an input rounding error of |x| * eps becomes an output
    # error of |x| * eps / std, whatever the algorithm. The absolute tolerance grows with it.
    atol = tol[1] * (1 + abs(args.offset) / 30)

    for n in (int(w) for w in args.n.split(",")):
        x = torch.randn(args.rows, n, dtype=dtype, device=device) * 3 + args.offset
        w = None if args.no_affine else torch.randn(n, dtype=dtype, device=device)
        b = None if args.no_affine else torch.randn(n, dtype=dtype, device=device)
        y = torch.full_like(x, float("nan"))  # poisoned: every element must be written
        eps = 1e-5
        tY, tX = row_major(y), row_major(x)
        tW, tB = (
            None if t is None else from_dlpack(t.view(1, n), assumed_align=16) for t in (w, b)
        )
        op = LayerNorm(CUTLASS_TYPES[args.dtype], n, args.max_threads, cache_bytes(args))
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
