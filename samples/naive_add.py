"""Naive elementwise add: one element per thread, indices from thread/block ids.

Run: python samples/naive_add.py [--m 64] [--n 96]
"""

import argparse

import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def naive_add_kernel(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    bdim, _, _ = cute.arch.block_dim()

    thread_idx = bidx * bdim + tidx

    # Map the linear thread index onto (row, column) of the row-major tensors.
    m, n = gA.shape
    mi = thread_idx // n
    ni = thread_idx % n

    if thread_idx < m * n:
        gC[mi, ni] = gA[mi, ni] + gB[mi, ni]


@cute.jit
def naive_add(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):
    num_threads_per_block = 256
    m, n = mA.shape
    naive_add_kernel(mA, mB, mC).launch(
        grid=[(m * n + num_threads_per_block - 1) // num_threads_per_block, 1, 1],
        block=[num_threads_per_block, 1, 1],
    )


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--m", type=int, default=64)
    parser.add_argument("--n", type=int, default=96)
    args = parser.parse_args()

    a = torch.randn(args.m, args.n, dtype=torch.float32, device=device)
    b = torch.randn(args.m, args.n, dtype=torch.float32, device=device)
    c = torch.full_like(a, float("nan"))  # poisoned: every element must be written
    compiled = cute.compile(naive_add, from_dlpack(a), from_dlpack(b), from_dlpack(c))
    compiled(from_dlpack(a), from_dlpack(b), from_dlpack(c))
    torch.testing.assert_close(c, a + b)
    print("PASS")


if __name__ == "__main__":
    main()
