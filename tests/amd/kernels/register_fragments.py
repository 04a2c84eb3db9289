"""Attention-style register work (issue 30): each thread keeps several register fragments (an
accumulator, scores, values, per-row max and sum), passes them all to a large @cute.jit helper
called from three sites (the first step peeled, then two loops, as flash attention does), loops
over them with range_constexpr, takes row views of the accumulator and rescales them through
TensorSSA values.

Per thread t, over steps s of scores S[s, t] and values V[s, t] (ROWS x COLS each):
    m[r] = max_{s,c} S[s,t,r,c]
    O[t,r,c] = sum_s exp(S[s,t,r,c] - m[r]) * V[s,t,r,c] / sum_{s,c'} exp(S[s,t,r,c'] - m[r])
computed online (running max, rescaled accumulator), checked against numpy in float64.

Run: python register_fragments.py [--threads 256] [--steps 5]
"""

import argparse
import math

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack

ROWS = 4
COLS = 32
THREADS = 64


@cute.jit
def online_step(acc: cute.Tensor, row_max: cute.Tensor, row_sum: cute.Tensor,
                scores: cute.Tensor, values: cute.Tensor, mS: cute.Tensor, mV: cute.Tensor,
                step: cutlass.Int32, t: cutlass.Int32, is_first: cutlass.Constexpr):
    for r in cutlass.range_constexpr(ROWS):
        for c in cutlass.range_constexpr(COLS):
            scores[r, c] = mS[step, t, r * COLS + c]
            values[r, c] = mV[step, t, r * COLS + c]
    for r in cutlass.range_constexpr(ROWS):
        m = row_max[r]
        for c in cutlass.range_constexpr(COLS):
            m = cute.arch.fmax(m, scores[r, c])
        correction = cute.math.exp(row_max[r] - m)
        if cutlass.const_expr(is_first):
            correction = cutlass.Float32(0.0)
        row_max[r] = m
        acc_row = acc[r, None]
        acc_row.store(acc_row.load() * correction)
        total = row_sum[r] * correction
        for c in cutlass.range_constexpr(COLS):
            p = cute.math.exp(scores[r, c] - m)
            total = total + p
            acc[r, c] = acc[r, c] + p * values[r, c]
        row_sum[r] = total


@cute.kernel
def fragments_kernel(mS: cute.Tensor, mV: cute.Tensor, mO: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    t = bidx * THREADS + tidx
    acc = cute.make_rmem_tensor(cute.make_layout((ROWS, COLS)), cutlass.Float32)
    acc.fill(0.0)
    scores = cute.make_fragment_like(acc)
    values = cute.make_fragment_like(acc)
    row_max = cute.make_rmem_tensor(cute.make_layout(ROWS), cutlass.Float32)
    row_max.fill(-math.inf)
    row_sum = cute.make_fragment_like(row_max)
    row_sum.fill(0.0)
    online_step(acc, row_max, row_sum, scores, values, mS, mV, 0, t, True)
    # two loops calling the same helper (as attention's masked and unmasked blocks do)
    half = (mS.shape[0] + 1) // 2
    for step in range(1, half):
        online_step(acc, row_max, row_sum, scores, values, mS, mV, step, t, False)
    for step in range(half, mS.shape[0]):
        online_step(acc, row_max, row_sum, scores, values, mS, mV, step, t, False)
    for r in cutlass.range_constexpr(ROWS):
        acc_row = acc[r, None]
        acc_row.store(acc_row.load() / row_sum[r])
        for c in cutlass.range_constexpr(COLS):
            mO[t, r * COLS + c] = acc[r, c]


@cute.jit
def register_fragments(mS: cute.Tensor, mV: cute.Tensor, mO: cute.Tensor):
    fragments_kernel(mS, mV, mO).launch(grid=[mO.shape[0] // THREADS, 1, 1],
                                        block=[THREADS, 1, 1])


def main() -> None:
    import numpy as np
    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=2 * THREADS)
    parser.add_argument("--steps", type=int, default=5)
    args = parser.parse_args()
    s = torch.randn(args.steps, args.threads, ROWS * COLS, device="cuda") * 3
    v = torch.randn(args.steps, args.threads, ROWS * COLS, device="cuda")
    o = torch.zeros(args.threads, ROWS * COLS, device="cuda")
    register_fragments(from_dlpack(s, assumed_align=16), from_dlpack(v, assumed_align=16),
                       from_dlpack(o, assumed_align=16))
    torch.cuda.synchronize()
    s64 = s.cpu().double().numpy().reshape(args.steps, args.threads, ROWS, COLS)
    v64 = v.cpu().double().numpy().reshape(args.steps, args.threads, ROWS, COLS)
    m = s64.max(axis=(0, 3), keepdims=True)
    p = np.exp(s64 - m)
    ref = (p * v64).sum(axis=0) / p.sum(axis=(0, 3))[..., None]
    got = o.cpu().double().numpy().reshape(args.threads, ROWS, COLS)
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)
    print("PASS")


if __name__ == "__main__":
    main()
