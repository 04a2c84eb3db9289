"""Plain Python helpers (not @cute.jit): they run while tracing."""
import math
from functools import partial

import cutlass.cute as cute


def tiled_copy_for(dtype, threads, vec):
    assert threads % 32 == 0, "whole warps"
    atom = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), dtype,
                               num_bits_per_copy=vec * dtype.width)
    return cute.make_tiled_copy_tv(atom, cute.make_layout(threads), cute.make_layout(vec))


def log2_int(n):
    return int(math.log2(n))


def copy_with(tiled_copy, src, dst, pred):
    cute.copy(tiled_copy, src, dst, pred=pred)


def predicated_copy(pred):
    return partial(copy_with, pred=pred)
