"""Row-wise softmax: y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)).

The launch shape follows the row width n (a constructor argument) and the element type (read
from the tensors); every choice below is a Python value when the kernel is traced:

* vector width: 128-bit accesses (8 bf16 or 4 f32 elements), narrower when n is not a multiple
  of 128 bits (the rows' starts are then not 128-bit aligned); elements past the row's end are
  -inf, which adds exp(-inf) = 0;
* threads per row: n / 32, so that each thread keeps 32 values of the row in registers; a power
  of two up to a warp (the row's reductions are a few butterfly shuffles inside the warp, and a
  block of 128 threads takes several rows), then whole warps (their partial results meet in
  shared memory);
* up to max_threads * 32 columns (16384 with the defaults: default_max_threads) the whole row
  stays in registers and x is read once. Wider rows are looped over in tiles of 16 values per
  thread: a first pass keeps a running (max, sum) per thread and the first tiles in shared
  memory (as many as `smem_cache_bytes` holds), a second pass reads the other tiles again — most
  recently read first, so that they come from L2 — then the cached ones, and writes y.

Two ways to combine the threads' results:

* two-pass (default): the row max, then the row sum of exp(x - max) (two row reductions);
* ``online``: every thread reduces its values to a (max, sum) pair, and the pairs are combined
  in one row reduction, rescaling the sums to the larger max (Milakov & Gimelshein, "Online
  normalizer calculation for softmax"); the output then needs no second exponential.

Why (NVIDIA H100: 132 SMs, each 64K registers, 228 KB of shared memory, 2048 threads; a
memory-bound kernel needs some 20 KB of loads in flight per SM). A thread holding 32 values
issues 4 (bf16) or 8 (f32) 16-byte loads at once and needs 48-63 registers (ptxas -v, sm_90), so
an SM runs 1000-1300 threads: at 1024 columns 10 blocks of 4 rows (80 KB bf16 in flight), at
8192 5 rows of 16 KB, at 32768 (max_threads=1024; by default such rows are looped over by 512
threads, see default_max_threads) one 1024-thread row of 64 KB (bf16) or 128 KB (f32). Past that
no register file holds a row (bf16 131072 = 256 KB): with 16 values per thread a looped block
needs 44-51 registers, one 1024-thread block per SM keeps 192 KB of its row in shared memory and
reads the rest again from L2.

Run: python samples/softmax.py [--rows 8] [--n 1000,4096] [--dtype f32|bf16] [--online]
     python samples/softmax.py --bench [--dtype bf16] [--shapes 4096x32768,...]   (GPU)
"""

import argparse
import math
from typing import Any

import cutlass
import cutlass.cute as cute
import cutlass.utils
from cutlass.cute.runtime import from_dlpack

#: Values of its row that a thread holds in registers at a time (as f32) when the whole row fits
#: in max_threads threads: with addresses and predicates this stays within 64 registers (ptxas,
#: sm_90), so that 1024-thread blocks fit the 64K registers of an SM.
VALUES_PER_THREAD = 32
#: The same for rows looped over in tiles: fewer, so that the shared-memory cache is filled in
#: finer steps (bf16 tiles of 32 KB, f32 tiles of 64 KB at 1024 threads).
LOOPED_VALUES_PER_THREAD = 16
#: Threads per block at least: short rows are packed several to a block.
MIN_BLOCK_THREADS = 128
#: The shapes timed by --bench (M x n).
BENCH_SHAPES = "32768x8192,16384x4096,65536x1024,4096x32768,2048x131072"



def default_max_threads(n: int) -> int:
    """Threads per row at most, by default. Rows of up to 16384 values take n / 32 threads
    anyway; rows of up to 32768 are looped over in tiles by 512 threads rather than held whole
    by 1024 (H100, 4096x32768 bf16: softmax 96.8% of a device copy vs 88.6%; on AMD a 1024-thread
    block leaves 128 VGPRs per lane); wider rows by 1024 threads, which keep more of a row in
    flight (2048x131072)."""
    return 512 if n <= 32768 else 1024


def default_smem_cache_bytes() -> int:
    """The looped rows' shared-memory cache, by default: 192 KiB where the target has that
    much, else what it has less 32 KiB (gfx942's LDS is 64 KiB, gfx950's 160 KiB)."""
    return min(192 * 1024, cutlass.utils.get_smem_capacity_in_bytes() - 32 * 1024)

class Softmax:
    """Softmax over the last dimension of a row-major (M, n) tensor. The tensors must be n wide
    (n is static in their type: see row_major)."""

    def __init__(
        self,
        n: int = 8192,
        online: bool = False,
        max_threads: int | None = None,
        smem_cache_bytes: int | None = None,
    ):
        self.online = online
        max_threads = default_max_threads(n) if max_threads is None else max_threads
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
        # The largest power of two (up to 16) dividing n: every row start is aligned to it.
        self.n_align = int(math.gcd(n, 16))
        self.smem_cache_bytes = int(smem_cache_bytes)
        # Reduction buffer: (rows_per_block, warps_per_row, 2) floats, 16-byte aligned.
        self.reduction_bytes = int(-(-rows_per_block * warps_per_row * 2 * 4 // 16) * 16)

    @cute.jit
    def __call__(self, mY: cute.Tensor, mX: cute.Tensor):
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
        self.kernel(mY, mX, tiled_copy).launch(
            grid=[cute.ceil_div(mX.shape[0], self.rows_per_block), 1, 1],
            block=[self.threads, 1, 1],
            smem=self.reduction_bytes + cached_tiles * tile_bytes,
        )

    @cute.jit
    def row_reduce(
        self, val: cutlass.Float32, op: cutlass.Constexpr, init: cutlass.Float32, buf: cute.Tensor
    ):
        """`op` of `val` over the threads of each row (`init`: op's identity): butterfly shuffles
        inside the warp (the threads of a row are consecutive lanes), then, for rows of several
        warps, the warps' partial results through shared memory (`buf`: rows_per_block x
        warps_per_row)."""
        for i in cutlass.range_constexpr(self.shuffle_steps):
            val = op(val, cute.arch.shuffle_sync_bfly(val, offset=1 << i))
        if cutlass.const_expr(self.warps_per_row > 1):
            warp = cute.arch.warp_idx()
            if cute.arch.lane_idx() == 0:
                buf[warp // self.warps_per_row, warp % self.warps_per_row] = val
            cute.arch.sync_threads()
            val = init
            for w in cutlass.range_constexpr(self.warps_per_row):
                val = op(val, buf[warp // self.warps_per_row, w])
        return val

    @cute.jit
    def rescale(self, s: cutlass.Float32, m: cutlass.Float32, m_new: cutlass.Float32):
        """A sum of exp2(x - m) re-expressed as a sum of exp2(x - m_new), m_new >= m."""
        # All-padding sums have m == -inf: rescale against 0 so that -inf - -inf never occurs.
        m_safe = m_new if m_new != -cutlass.Float32.inf else cutlass.Float32(0.0)
        return s * cute.math.exp2(m - m_safe, fastmath=True)

    @cute.jit
    def row_reduce_online(self, m: cutlass.Float32, s: cutlass.Float32, buf: cute.Tensor):
        """Combine per-thread (max, sum of exp2(x - max)) pairs over the threads of each row
        (`buf`: rows_per_block x warps_per_row x 2)."""
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

    @cute.jit
    def store_tile(
        self, tiled_copy: cute.TiledCopy, thr_copy: cute.ThrCopy, y,
        gY: cute.Tensor, tTpT: cute.Tensor,
    ):
        tYgY = thr_copy.partition_D(gY)
        tYrY = cute.make_fragment_like(tYgY)
        tYrY.store(y.to(tYrY.element_type))
        cute.copy(tiled_copy, tYrY, tYgY, pred=tTpT)

    @cute.kernel
    def kernel(self, mY: cute.Tensor, mX: cute.Tensor, tiled_copy: cute.TiledCopy):
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

        if cutlass.const_expr(self.tiles == 1):
            # The whole row in registers: x is read once.
            tXpX = self.vector_predicate(thr_copy, cX[None, 0], mX.shape)
            tXrX = self.load_tile(tiled_copy, thr_copy, gX[None, 0], tXpX)
            # Work in base 2: exp(x - max) == exp2(x * log2(e) - max * log2(e)).
            x = tXrX.load().to(cutlass.Float32) * math.log2(math.e)
            if cutlass.const_expr(self.online):
                thread_max = x.reduce(cute.ReductionOp.MAX, -cutlass.Float32.inf, 0)
                # A thread holding only padding has max -inf: its values are taken against 0.
                thread_max_safe = (
                    thread_max if thread_max != -cutlass.Float32.inf else cutlass.Float32(0.0)
                )
                e = cute.math.exp2(x - thread_max_safe, fastmath=True)
                row_max, row_sum = self.row_reduce_online(
                    thread_max, e.reduce(cute.ReductionOp.ADD, 0.0, 0), reduction_buffer
                )
                # exp2(x - row_max) == e * exp2(thread_max - row_max): no second exponential.
                scale = self.rescale(cute.arch.rcp_approx(row_sum), thread_max, row_max)
                self.store_tile(tiled_copy, thr_copy, e * scale, gY[None, 0], tXpX)
            else:
                row_max = self.row_reduce(
                    x.reduce(cute.ReductionOp.MAX, -cutlass.Float32.inf, 0),
                    lambda a, b: cute.arch.fmax(a, b),
                    -cutlass.Float32.inf,
                    reduction_buffer[None, None, 0],
                )
                e = cute.math.exp2(x - row_max, fastmath=True)
                row_sum = self.row_reduce(
                    e.reduce(cute.ReductionOp.ADD, 0.0, 0),
                    lambda a, b: a + b,
                    0.0,
                    reduction_buffer[None, None, 1],
                )
                y = e * cute.arch.rcp_approx(row_sum)
                self.store_tile(tiled_copy, thr_copy, y, gY[None, 0], tXpX)
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
            # Pass 1: a running (max, sum of exp2(x - max)) per thread, tile by tile.
            thread_max = -cutlass.Float32.inf
            thread_sum = cutlass.Float32(0.0)
            for t in cutlass.range(self.tiles, unroll=1):
                tXpX = self.vector_predicate(thr_copy, cX[None, t], mX.shape)
                tXrX = self.load_tile(tiled_copy, thr_copy, gX[None, t], tXpX)
                if cutlass.const_expr(cached_tiles > 0):
                    if t < cached_tiles:
                        cute.autovec_copy(tXrX, thr_copy.partition_D(sX[None, t, row_in_block]))
                x = tXrX.load().to(cutlass.Float32) * math.log2(math.e)
                tile_max = cute.arch.fmax(
                    thread_max, x.reduce(cute.ReductionOp.MAX, -cutlass.Float32.inf, 0)
                )
                tile_max_safe = (
                    tile_max if tile_max != -cutlass.Float32.inf else cutlass.Float32(0.0)
                )
                tile_sum = cute.math.exp2(x - tile_max_safe, fastmath=True).reduce(
                    cute.ReductionOp.ADD, 0.0, 0
                )
                thread_sum = self.rescale(thread_sum, thread_max, tile_max) + tile_sum
                thread_max = tile_max
            if cutlass.const_expr(self.online):
                row_max, row_sum = self.row_reduce_online(
                    thread_max, thread_sum, reduction_buffer
                )
            else:
                row_max = self.row_reduce(
                    thread_max,
                    lambda a, b: cute.arch.fmax(a, b),
                    -cutlass.Float32.inf,
                    reduction_buffer[None, None, 0],
                )
                row_sum = self.row_reduce(
                    self.rescale(thread_sum, thread_max, row_max),
                    lambda a, b: a + b,
                    0.0,
                    reduction_buffer[None, None, 1],
                )
            inv_sum = cute.arch.rcp_approx(row_sum)
            # Pass 2. First the tiles not kept in shared memory, the last one first: the tiles
            # read last in pass 1 are the likeliest to be still in L2.
            for i in cutlass.range(self.tiles - cached_tiles, unroll=1):
                t = self.tiles - 1 - i
                tXpX = self.vector_predicate(thr_copy, cX[None, t], mX.shape)
                tXrX = self.load_tile(tiled_copy, thr_copy, gX[None, t], tXpX)
                x = tXrX.load().to(cutlass.Float32) * math.log2(math.e)
                y = cute.math.exp2(x - row_max, fastmath=True) * inv_sum
                self.store_tile(tiled_copy, thr_copy, y, gY[None, t], tXpX)
            # Then the tiles kept in shared memory.
            if cutlass.const_expr(cached_tiles > 0):
                for t in cutlass.range(cached_tiles, unroll=1):
                    tXpX = self.vector_predicate(thr_copy, cX[None, t], mX.shape)
                    tXrX = cute.make_fragment_like(thr_copy.partition_S(gX[None, t]))
                    cute.autovec_copy(thr_copy.partition_D(sX[None, t, row_in_block]), tXrX)
                    x = tXrX.load().to(cutlass.Float32) * math.log2(math.e)
                    y = cute.math.exp2(x - row_max, fastmath=True) * inv_sum
                    self.store_tile(tiled_copy, thr_copy, y, gY[None, t], tXpX)


def row_major(t: Any) -> Any:
    """A row-major (M, n) torch tensor as the kernel takes it: n static, M dynamic. Every row
    then starts as aligned as n allows, which is what lets the kernel use vector accesses."""
    return from_dlpack(t, assumed_align=16).mark_compact_shape_dynamic(mode=0, stride_order=(0, 1))


def bench(args: argparse.Namespace) -> None:
    """GB/s of the kernel, of torch.softmax and of a device copy for each M x n of --shapes
    (bytes read plus bytes written; cute.testing.benchmark: CUDA events)."""
    for shape in args.shapes.split(","):
        m, n = (int(d) for d in shape.split("x"))
        bench_shape(args, m, n)


def bench_shape(args: argparse.Namespace, m: int, n: int) -> None:
    import cutlass.cute.testing as testing
    import torch

    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    x = torch.randn(m, n, dtype=dtype, device="cuda")
    y = torch.empty_like(x)
    tY, tX = row_major(y), row_major(x)
    op = Softmax(n, args.online, args.max_threads, cache_bytes(args))
    compiled = cute.compile(op, tY, tX)
    compiled(tY, tX)
    torch.testing.assert_close(y, torch.softmax(x, dim=-1), rtol=2e-2, atol=1e-3)
    no_args = testing.JitArguments()
    us = {
        "bbx": testing.benchmark(compiled, kernel_arguments=testing.JitArguments(tY, tX)),
        "torch": testing.benchmark(lambda: torch.softmax(x, dim=-1), kernel_arguments=no_args),
        "copy": testing.benchmark(lambda: y.copy_(x), kernel_arguments=no_args),
    }
    gbs = {k: 2 * x.nbytes / t / 1e3 for k, t in us.items()}
    shares = (f"{k} {v:.0f} GB/s ({100 * v / gbs['copy']:.1f}%)" for k, v in gbs.items())
    print(f"softmax {args.dtype} {m}x{n}: " + ", ".join(shares))


def cache_bytes(args: argparse.Namespace) -> int | None:
    return None if args.smem_cache_kb is None else args.smem_cache_kb * 1024


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--n", default="1000", help="comma-separated row widths (one build each)")
    parser.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    parser.add_argument("--online", action="store_true")
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
    tol = {"f32": (1e-5, 1e-6), "bf16": (2e-2, 1e-3)}[args.dtype]

    for n in (int(w) for w in args.n.split(",")):
        x = torch.randn(args.rows, n, dtype=dtype, device=device) * 4
        y = torch.full_like(x, float("nan"))  # poisoned: every element must be written
        tY, tX = row_major(y), row_major(x)
        op = Softmax(n, args.online, args.max_threads, cache_bytes(args))
        compiled = cute.compile(op, tY, tX)
        compiled(tY, tX)
        ref = torch.softmax(x.double(), dim=-1).to(dtype)
        torch.testing.assert_close(y, ref, rtol=tol[0], atol=tol[1])
        mode = "online" if args.online else "two-pass"
        print(f"softmax ({mode}) {args.dtype} {args.rows}x{n}: ok")
    print("PASS")


if __name__ == "__main__":
    main()
