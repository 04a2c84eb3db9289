"""Sequence arguments of a jit function by staged execution: a list of tensors and a tuple of a
tensor and a scalar are Python sequences of proxies while tracing (their lengths and element
facts are the specialization's), each element a parameter of its own; calls with other
lengths make other specializations. Against torch on random inputs."""

from __future__ import annotations

import random
from pathlib import Path

from tests.trace.staged_script import run_staged

SCRIPT = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def kernel(inputs, pair, mOut: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * 64 + tidx
    bias, scale = pair
    if i < mOut.shape[0]:
        acc = bias[i]
        for t in inputs:
            acc = acc + t[i] * scale
        mOut[i] = acc


@cute.jit
def host(inputs, pair, mOut: cute.Tensor):
    kernel(inputs, pair, mOut).launch(grid=[cute.ceil_div(mOut.shape[0], 64), 1, 1],
                                      block=[64, 1, 1])


n = {n}
for count in {counts}:
    xs = [torch.randn(n) for _ in range(count)]
    bias, out = torch.randn(n), torch.full((n,), float("nan"))
    scale = {scale}
    host([from_dlpack(x) for x in xs], (from_dlpack(bias), cutlass.Float32(scale)),
         from_dlpack(out))
    torch.testing.assert_close(out, bias + sum(xs) * scale)
print("PASS")
'''


def test_lists_and_tuples_of_tensors_and_scalars(tmp_path: Path) -> None:
    rng = random.Random()
    params = {"n": rng.randint(50, 400), "counts": rng.sample([1, 2, 3, 4], 2),
              "scale": round(rng.uniform(-2, 2), 3)}
    proc = run_staged(tmp_path, SCRIPT.format(**params))
    assert proc.returncode == 0 and "PASS" in proc.stdout, (params, proc.stdout[-4000:])
