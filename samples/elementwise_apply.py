"""Elementwise apply: c = op(a, b) with the operation passed as a `cutlass.Constexpr`
(a lambda or a function from `operator`), so each op gets its own specialization.

Run: python samples/elementwise_apply.py [--m 256] [--n 512]
"""

import argparse
import operator

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def apply_kernel(
    op: cutlass.Constexpr, gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor, tv: cute.Layout
):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()

    # (vec, threads) view of this block's tile; each thread takes one column.
    thrA = cute.composition(gA[None, bidx], tv)[None, tidx]
    thrB = cute.composition(gB[None, bidx], tv)[None, tidx]
    thrC = cute.composition(gC[None, bidx], tv)[None, tidx]

    frgA = cute.make_fragment_like(thrA)
    frgB = cute.make_fragment_like(thrB)
    cute.autovec_copy(thrA, frgA)
    cute.autovec_copy(thrB, frgB)

    frgC = cute.make_fragment_like(frgA)
    frgC.store(op(frgA.load(), frgB.load()))
    cute.autovec_copy(frgC, thrC)


@cute.jit
def elementwise_apply(op: cutlass.Constexpr, mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):
    """Each block handles threads * vec consecutive elements; the length must divide evenly."""
    threads = 128
    vec = 4
    tv = cute.make_layout((vec, threads), stride=(threads, 1))
    gA = cute.zipped_divide(mA, tiler=(threads * vec,))
    gB = cute.zipped_divide(mB, tiler=(threads * vec,))
    gC = cute.zipped_divide(mC, tiler=(threads * vec,))
    apply_kernel(op, gA, gB, gC, tv).launch(
        grid=[cute.size(gC, mode=[1]), 1, 1], block=[threads, 1, 1]
    )


@cute.jit
def scaled_add(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):
    elementwise_apply(lambda x, y: x + 2.0 * y, mA, mB, mC)


@cute.jit
def multiply(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):
    elementwise_apply(operator.mul, mA, mB, mC)


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=512 * 64)
    args = parser.parse_args()

    a = torch.randn(args.n, dtype=torch.float32, device=device)
    b = torch.randn(args.n, dtype=torch.float32, device=device)
    c = torch.full_like(a, float("nan"))  # poisoned: every element must be written
    ta, tb, tc = from_dlpack(a), from_dlpack(b), from_dlpack(c)

    scaled_add(ta, tb, tc)
    torch.testing.assert_close(c, a + 2.0 * b)
    multiply(ta, tb, tc)
    torch.testing.assert_close(c, a * b)
    elementwise_apply(operator.sub, ta, tb, tc)
    torch.testing.assert_close(c, a - b)
    print("PASS")


if __name__ == "__main__":
    main()
