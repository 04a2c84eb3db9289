"""Objects holding run-time values passed to a `.launch`ed kernel by staged execution: a frozen
dataclass of tensors and Python constants, an object of the DSL's value protocol
(`__extract_mlir_values__` / `__new_from_mlir_values__`), and a tuple nesting both — each
run-time leaf a kernel parameter, each Python leaf a constant of the kernel — against torch on
random inputs."""

from __future__ import annotations

import random
from pathlib import Path

from .staged_script import run_staged

SCRIPT = '''
from dataclasses import dataclass

import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@dataclass(frozen=True)
class Params:
    threads: int
    src: cute.Tensor
    dst: cute.Tensor
    scale: cutlass.Float32


class Offset:
    """A run-time number and a Python one, carried by the DSL's value protocol."""

    def __init__(self, base, step):
        self.base, self.step = base, step

    def __extract_mlir_values__(self):
        return [self.base]

    def __new_from_mlir_values__(self, values):
        return Offset(values[0], self.step)


@cute.kernel
def kernel(params: Params, pair: tuple, n: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    idx = bidx * params.threads + tidx
    offset, extra = pair
    if idx < n:
        params.dst[idx] = params.src[idx] * params.scale + extra[idx] + offset.base * offset.step


@cute.jit
def host(mSrc: cute.Tensor, mDst: cute.Tensor, mExtra: cute.Tensor, scale: cutlass.Float32,
         base: cutlass.Float32, threads: cutlass.Constexpr[int]):
    n = mSrc.shape[0]
    params = Params(threads=threads, src=mSrc, dst=mDst, scale=scale)
    kernel(params, (Offset(base, {step}), mExtra), n).launch(
        grid=[cute.ceil_div(n, threads), 1, 1], block=[threads, 1, 1])


n = {n}
src, extra = torch.randn(n), torch.randn(n)
dst = torch.full((n,), float("nan"))
scale, base = {scale}, {base}
host(from_dlpack(src), from_dlpack(dst), from_dlpack(extra), cutlass.Float32(scale),
     cutlass.Float32(base), {threads})
torch.testing.assert_close(dst, src * scale + extra + base * {step})
print("PASS")
'''


def test_dataclass_protocol_object_and_tuple_arguments(tmp_path: Path) -> None:
    rng = random.Random()
    params = {"n": rng.randint(40, 300), "threads": rng.choice([32, 64]),
              "scale": round(rng.uniform(-2, 2), 3), "base": round(rng.uniform(-2, 2), 3),
              "step": rng.randint(1, 5)}
    proc = run_staged(tmp_path, SCRIPT.format(**params))
    assert proc.returncode == 0 and "PASS" in proc.stdout, (params, proc.stdout[-4000:])
