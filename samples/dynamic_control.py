"""Dynamic (run-time) control flow: `if`/`elif`/`else`, ternaries, `for` over a run-time range,
`cutlass.range(..., unroll=N)` and `while`, all on values only known when the kernel runs.

Each thread owns one row of a (rows x cols) matrix: it clamps the row, computes a running
maximum, finds the first column where the prefix sum reaches `threshold` and writes summaries.

Run: python samples/dynamic_control.py [--rows 64] [--cols 37]
"""

import argparse

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def row_stats_kernel(
    mX: cute.Tensor, mOut: cute.Tensor, threshold: cutlass.Float32, lo: cutlass.Float32
):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    bdim, _, _ = cute.arch.block_dim()
    row = bidx * bdim + tidx
    rows, cols = mX.shape

    if row < rows:
        # Running maximum over a dynamic trip count.
        best = cutlass.Float32(-3.0e38)
        for j in range(cols):
            v = mX[row, j]
            if v > best:
                best = v
            elif v < lo:
                mX[row, j] = lo
            else:
                mX[row, j] = v

        # Unrolled by 4, with a start and a step.
        total = cutlass.Float32(0.0)
        for j in cutlass.range(0, cols, 1, unroll=4):
            total += mX[row, j]

        # First column where the prefix sum reaches the threshold.
        k = 0
        prefix = cutlass.Float32(0.0)
        while k < cols and prefix < threshold:
            prefix += mX[row, k]
            k += 1

        sign = 1.0 if total >= 0.0 else -1.0
        mOut[row, 0] = best
        mOut[row, 1] = total * sign
        mOut[row, 2] = cutlass.Float32(k)


@cute.jit
def row_stats(mX: cute.Tensor, mOut: cute.Tensor, threshold: cutlass.Float32, lo: cutlass.Float32):
    rows, _ = mX.shape
    threads = 64
    row_stats_kernel(mX, mOut, threshold, lo).launch(
        grid=[(rows + threads - 1) // threads, 1, 1], block=[threads, 1, 1]
    )


def reference(x, threshold: float, lo: float):
    """The kernel's function, row by row in float32 on the host (it also clamps x in place)."""
    import torch

    out = torch.empty(x.shape[0], 3, dtype=torch.float32)
    for r in range(x.shape[0]):
        row = x[r].clone()
        best = torch.tensor(-3.0e38)
        for j in range(row.numel()):
            if row[j] > best:
                best = row[j].clone()
            elif row[j] < lo:
                row[j] = lo
        total = torch.tensor(0.0)
        for v in row:
            total = total + v
        k, prefix = 0, torch.tensor(0.0)
        while k < row.numel() and prefix < threshold:
            prefix = prefix + row[k]
            k += 1
        out[r] = torch.stack([best, total.abs(), torch.tensor(float(k))])
    return out


def main() -> None:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=64)
    parser.add_argument("--cols", type=int, default=37)
    args = parser.parse_args()

    x = torch.randn(args.rows, args.cols, dtype=torch.float32, device=device)
    # Poisoned: every output must be written.
    out = torch.full((args.rows, 3), float("nan"), dtype=torch.float32, device=device)
    threshold, lo = 1.5, -1.0
    expected = reference(x.cpu(), threshold, lo).to(device)
    row_stats(from_dlpack(x), from_dlpack(out), cutlass.Float32(threshold), cutlass.Float32(lo))
    torch.testing.assert_close(out, expected)

    print("PASS")


if __name__ == "__main__":
    main()
