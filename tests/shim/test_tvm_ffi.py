"""`cute.compile(..., options="--enable-tvm-ffi")` calls as NVIDIA's TVM-FFI functions do (QuACK
compiles every kernel so): the stream comes from the environment, Constexpr parameters are not
passed, tensors whose fake shapes share one `cute.sym_int()` must agree on it, and the params
come from `cutlass.cute._tvm_ffi_args_spec_converter._convert_single_arg` as patched at compile
time. On the simulator, against torch on fresh random inputs."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = '''
import torch
import cuda.bindings.driver as cuda
import cutlass
import cutlass.cute as cute
import cutlass.cute._tvm_ffi_args_spec_converter as converter

seen = []
original = converter._convert_single_arg


def patched(arg, arg_name, arg_type, ctx, **kwargs):
    seen.append(arg_name)
    return original(arg, arg_name, arg_type, ctx, **kwargs)


converter._convert_single_arg = patched


@cute.kernel
def kernel(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, scale: cutlass.Constexpr[float]):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * 64 + tidx
    if i < mA.shape[0]:
        mC[i] = mA[i] * scale + mB[i]


@cute.jit
def axpy(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, scale: cutlass.Constexpr[float],
         stream: cuda.CUstream):
    kernel(mA, mB, mC, scale).launch(grid=[cute.ceil_div(mA.shape[0], 64), 1, 1],
                                     block=[64, 1, 1], stream=stream)


n = cute.sym_int()
fakes = [cute.runtime.make_fake_tensor(cutlass.Float32, (n,), stride=(1,), assumed_align=4)
         for _ in range(3)]
stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
f = cute.compile(axpy, *fakes, {scale}, stream, options="--enable-tvm-ffi")
assert seen == ["mA", "mB", "mC", "stream"], seen
for m in {sizes}:
    a, b = torch.randn(m, device="cuda"), torch.randn(m, device="cuda")
    c = torch.full_like(a, float("nan"))
    f(a, b, c)
    torch.testing.assert_close(c, a * {scale} + b)
try:
    f(a, b, torch.empty(a.shape[0] + 1, device="cuda"))
except ValueError as e:
    print("refused:", e)
try:
    f(a, b, torch.empty(a.shape[0], 2, device="cuda"))
except ValueError as e:
    print("refused:", e)
print("PASS")
'''


def test_tvm_ffi_calls_follow_the_dsl_params(tmp_path: Path) -> None:
    rng = random.Random()
    scale = round(rng.uniform(-3.0, 3.0), 3)
    sizes = [rng.randint(1, 300) for _ in range(2)]
    (tmp_path / "driver.py").write_text(textwrap.dedent(SCRIPT.format(scale=scale,
                                                                      sizes=sizes)))
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu",
           "BBX_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(tmp_path / "driver.py")],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-4000:]
    # the DSL's TVM-FFI errors: a ValueError naming the field, the argument and the call
    assert ("refused: Mismatched mC.shape[0] on argument #2 when calling: "
            "`axpy(mA, mB, mC)`, expected to match mA.shape[0]") in proc.stdout, proc.stdout[-4000:]
    assert ("refused: Mismatched Tensor on argument #2 when calling: `axpy(mA, mB, mC)`, "
            "expected ndim=1") in proc.stdout, proc.stdout[-4000:]
