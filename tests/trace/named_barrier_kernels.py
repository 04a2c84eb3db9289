"""Kernels that exchange values through shared memory across `cutlass.pipeline.NamedBarrier`s
(128 threads, 4 DSL warps), for the simulator's tests (tests/trace/test_traced_named_barrier.py)
and the AMD ISA's (tests/amd/test_named_barrier_isa.py): `script(body, x, shift)` is a driver
whose kernel runs `body`; run as `__main__` it saves the kernel's output to out.npy, and its
`host(mX, mOut)` (i32[128], i32[128, 2]) is what `bbx build` specializes."""

from __future__ import annotations

import textwrap

THREADS = 128

SCRIPT = '''
import numpy as np
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack
from cutlass.pipeline import NamedBarrier

T = {threads}
SHIFT = {shift}


@cute.kernel
def kernel(mX: cute.Tensor, mOut: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    smem = cutlass.utils.SmemAllocator()
    buf = smem.allocate_array(cutlass.Int32, T)
{body}


@cute.jit
def host(mX: cute.Tensor, mOut: cute.Tensor):
    kernel(mX, mOut).launch(grid=(1, 1, 1), block=(T, 1, 1), smem=T * 4)


if __name__ == "__main__":
    x = torch.tensor({x}, dtype=torch.int32)
    out = torch.full((T, 2), -7, dtype=torch.int32)
    host(from_dlpack(x), from_dlpack(out))
    np.save("out.npy", out.numpy())
    print("DONE")
'''

# Every thread writes, meets barrier 1 (the whole block), reads a neighbour's value; then again
# after a second meeting, over the values of the first exchange.
FULL_BLOCK = '''
    bar = NamedBarrier(barrier_id=1, num_threads=T)
    buf[tidx] = mX[tidx] * 3
    bar.arrive_and_wait()
    first = buf[(tidx + SHIFT) % T]
    mOut[tidx, 0] = first
    bar.sync()
    buf[tidx] = first + tidx
    bar.arrive_and_wait()
    mOut[tidx, 1] = buf[T - 1 - tidx]
'''

# Warps 0-1 and warps 2-3 each meet their own barrier of 64 threads and exchange within their
# half only.
HALVES = '''
    half = tidx // 64
    base = half * 64
    bar = NamedBarrier(barrier_id=2 + half, num_threads=64)
    buf[tidx] = mX[tidx] * 3
    bar.arrive_and_wait()
    first = buf[base + (tidx - base + SHIFT) % 64]
    mOut[tidx, 0] = first
    bar.arrive_and_wait()
    buf[tidx] = first + tidx
    bar.arrive_and_wait()
    mOut[tidx, 1] = buf[base + 63 - (tidx - base)]
'''

# Warps 0-1 produce (write, arrive without waiting) into one half of the buffer per phase;
# warps 2-3 wait on the same barrier's whole-block count and read what they produced. The
# second phase needs the consumers to have read the first: a second barrier (5) orders that.
PRODUCER_CONSUMER = '''
    full = NamedBarrier(barrier_id=4, num_threads=T)
    empty = NamedBarrier(barrier_id=5, num_threads=T)
    if tidx < 64:
        buf[tidx] = mX[tidx] * 3
        full.arrive()
        empty.arrive_and_wait()
        buf[tidx] = mX[tidx + 64] + tidx
        full.arrive()
    else:
        full.arrive_and_wait()
        mOut[tidx, 0] = buf[(tidx + SHIFT) % 64]
        empty.arrive()
        full.arrive_and_wait()
        mOut[tidx, 1] = buf[63 - (tidx - 64)]
'''


def script(body: str, x: list[int], shift: int) -> str:
    """The driver of a kernel that runs `body` on input `x` with the exchange offset `shift`."""
    return SCRIPT.format(threads=THREADS, shift=shift, x=x,
                         body=textwrap.indent(textwrap.dedent(body), "    "))
