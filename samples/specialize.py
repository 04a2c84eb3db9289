"""Compile-time specialization: `cutlass.const_expr` branches and `cutlass.range_constexpr`
loops on `cutlass.Constexpr` parameters, module constants and pure-Python helpers. Every
configuration becomes its own C++ instantiation; unsupported ones fail at compile time.

Run: python samples/specialize.py [--mode relu|square|identity] [--passes 2]
"""

import argparse
import math

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack

THREADS = 128
VEC = 4


def elems_per_block(threads, vec):
    return threads * vec


@cute.jit
def activation(x, mode: cutlass.Constexpr):
    if cutlass.const_expr(mode == "relu"):
        return cute.where(x > 0.0, x, 0.0 * x)
    elif cutlass.const_expr(mode == "square"):
        return x * x
    elif cutlass.const_expr(mode == "identity"):
        return x
    else:
        raise ValueError("unsupported activation mode")


@cute.kernel
def specialize_kernel(
    gX: cute.Tensor,
    gY: cute.Tensor,
    mode: cutlass.Constexpr,
    passes: cutlass.Constexpr,
    bias: cutlass.Float32,
):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    tile = cute.make_layout((VEC, THREADS), stride=(THREADS, 1))
    blkX = cute.composition(gX[None, bidx], tile)[None, tidx]
    blkY = cute.composition(gY[None, bidx], tile)[None, tidx]

    frg = cute.make_fragment_like(blkX)
    cute.autovec_copy(blkX, frg)
    v = frg.load()
    for p in cutlass.range_constexpr(passes):
        v = activation(v, mode)
        if cutlass.const_expr(p == 0):
            v = v + bias
    # log2 of a constant is folded when the module is translated.
    for i in cutlass.range_constexpr(int(math.log2(VEC))):
        v = v + (0.0 * i) * v
    frg.store(v)
    cute.autovec_copy(frg, blkY)


@cute.jit
def specialize(
    mX: cute.Tensor,
    mY: cute.Tensor,
    bias: cutlass.Float32,
    mode: cutlass.Constexpr = "relu",
    passes: cutlass.Constexpr = 1,
):
    if cutlass.const_expr(passes > 4):
        raise ValueError("at most 4 passes")
    gX = cute.zipped_divide(mX, tiler=(elems_per_block(THREADS, VEC),))
    gY = cute.zipped_divide(mY, tiler=(elems_per_block(THREADS, VEC),))
    specialize_kernel(gX, gY, mode, passes, bias).launch(
        grid=[cute.size(gX, mode=[1]), 1, 1], block=[THREADS, 1, 1]
    )


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=["relu", "square", "identity"], default="relu")
    parser.add_argument("--passes", type=int, default=2)
    args = parser.parse_args()

    x = torch.randn(THREADS * VEC * 16, dtype=torch.float32, device=device)
    y = torch.full_like(x, float("nan"))  # poisoned: every element must be written
    bias = 0.25
    specialize(from_dlpack(x), from_dlpack(y), cutlass.Float32(bias), args.mode, args.passes)

    ref = x.clone()
    for p in range(args.passes):
        ref = {"relu": torch.relu, "square": lambda t: t * t, "identity": lambda t: t}[args.mode](
            ref
        )
        if p == 0:
            ref = ref + bias
    torch.testing.assert_close(y, ref)
    print("PASS")


if __name__ == "__main__":
    main()
