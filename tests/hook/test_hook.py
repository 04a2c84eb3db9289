"""The import hook, the cutlass shim and jit objects, each run in a fresh interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

USER_MODULE = '''
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack

LOG = ["module-level code ran"]
ALIGN = cute.nvgpu.cpasync.CopyG2SOp  # unknown device-side names resolve at import time
import cutlass.pipeline as pipeline  # noqa: E402 - unimplemented submodules import as markers
import cutlass.utils.hopper_helpers as sm90_utils  # noqa: E402
from cutlass.cute.nvgpu import cpasync, tcgen05  # noqa: E402
PIPE = (pipeline.PipelineTmaAsync, sm90_utils.make_smem_layout_a, cpasync, tcgen05)


@cute.kernel
def scale_kernel(x: cute.Tensor, s: cutlass.Float32):
    tidx, _, _ = cute.arch.thread_idx()


@cute.jit
def scale(x: cute.Tensor, s: cutlass.Float32, n: cutlass.Constexpr[int] = 4):
    scale_kernel(x, s).launch(grid=[1, 1, 1], block=[32, 1, 1])


class Scaler:
    def __init__(self, vec: int):
        self.vec = vec
        self.dtype = cutlass.Float16
        self.buffer = object()  # not plain data: not part of the key

    @cute.jit
    def __call__(self, x: cute.Tensor):
        pass
'''

DRIVER = '''
import json, sys, warnings
import torch
import bbx.hook
import cutlass, cutlass.cute as cute, user_mod
from bbx.runtime import argspec, jit

calls = []
def dispatcher(fn, bound_self, specs, args):
    calls.append([fn.__qualname__, argspec.self_config(bound_self) if bound_self else None,
                  {k: str(v) for k, v in specs.items()}])
    return lambda values: sorted(values)

out = {"shim_file": cutlass.__file__, "dsl_modules": dict(bbx.hook.dsl_modules),
       "log": user_mod.LOG, "markers": [repr(m) for m in user_mod.PIPE][:2]}
out["installed_dispatcher"] = type(jit.set_dispatcher(None)).__name__
try:
    user_mod.scale(torch.zeros(4), 1.0)
except RuntimeError as exc:
    out["no_dispatcher"] = str(exc)
jit.set_dispatcher(dispatcher)
x = torch.zeros(8, 32)
out["call"] = user_mod.scale(x, cutlass.Float32(2.0))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    compiled = cute.compile(user_mod.scale, cute.runtime.from_dlpack(x), 2.0, n=8,
                            options="--generate-line-info")
out["warnings"] = [str(w.message) for w in caught]
out["compiled_call"] = compiled(x, 3.0)
try:
    compiled(torch.zeros(8, 16), 3.0)
except Exception as exc:
    out["mismatch"] = [type(exc).__name__, str(exc)]
cute.compile(user_mod.Scaler(8), x)
try:
    user_mod.scale_kernel(x, 1.0)
except Exception as exc:
    out["kernel_call"] = str(exc)
try:
    cute.make_layout((4, 8))
except RuntimeError as exc:
    out["device_only"] = str(exc)
out["numeric"] = [repr(cutlass.Float32(1.1)), repr(cutlass.Int8(200)), repr(cutlass.Uint8(-1)),
                  cutlass.Float32.width, cutlass.Int32.signed, cutlass.Uint32.signed,
                  cutlass.Float16.is_float, cutlass.Int16.is_integer, float(cutlass.BFloat16(3.3)),
                  cutlass.const_expr(5), list(cutlass.range(3)), list(cutlass.range_constexpr(2)),
                  bool(cutlass.Boolean(2))]
out["calls"] = calls
bbx.hook.install(); bbx.hook.install()
out["finders"] = sum(type(f).__name__ == "BbxFinder" for f in sys.meta_path)
print(json.dumps(out))
'''


def _run(tmp_path: Path, env_extra: dict[str, str] | None = None) -> dict[str, Any]:
    (tmp_path / "user_mod.py").write_text(USER_MODULE)
    (tmp_path / "driver.py").write_text(textwrap.dedent(DRIVER))
    env = {**os.environ, "PYTHONPATH": str(tmp_path), **(env_extra or {})}
    done = subprocess.run([sys.executable, str(tmp_path / "driver.py")], capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_hook_serves_shim_and_records_dsl_modules(tmp_path: Path) -> None:
    out = _run(tmp_path, {"BBX_FORCE_SHIM": "1"})
    assert out["shim_file"].endswith("shim/cutlass/__init__.py")
    assert out["dsl_modules"] == {"user_mod": str(tmp_path / "user_mod.py")}
    assert out["log"] == ["module-level code ran"]
    assert out["markers"] == ["<bbx device-only cutlass.pipeline.PipelineTmaAsync>",
                              "<bbx device-only cutlass.utils.hopper_helpers.make_smem_layout_a>"]
    assert out["finders"] == 1
    assert out["installed_dispatcher"] == "Dispatcher"  # import bbx.hook routes jit calls
    assert out["no_dispatcher"].startswith("bbx: no dispatcher installed")
    assert out["call"] == ["n", "s", "x"]
    assert out["warnings"] == []  # an option without effect on the result: accepted silently
    assert out["compiled_call"] == ["n", "s", "x"]
    assert out["mismatch"] == ["ArgumentError", "bbx: argument 'x' does not match its "
                               "specialization f32[8,32]:stride(32,1):cpu: extent of mode 1 is "
                               "16, expected 32; stride of mode 0 is 16, expected stride 32"]
    assert "called from host Python" in out["kernel_call"]
    assert "driver.py:40:5: error: 'cutlass.cute.make_layout' was called from host Python" in \
        out["device_only"]
    assert out["numeric"] == ["Float32(1.100000023841858)", "Int8(-56)", "Uint8(255)", 32, True,
                              False, True, True, 3.296875, 5, [0, 1, 2], [0, 1], True]
    assert out["calls"] == [
        ["scale", None, {"x": "f32[?,?]:stride(?,1)@16:cpu", "s": "f32", "n": "const(4)"}],
        ["scale", None, {"x": "f32[8,32]:stride(32,1):cpu", "s": "f32", "n": "const(8)"}],
        ["Scaler.__call__", [["dtype", "cutlass.Float16"], ["vec", "8"]],
         {"x": "f32[?,?]:stride(?,1)@16:cpu"}],
    ]


def test_real_package_without_cute_does_not_count(tmp_path: Path) -> None:
    fake = tmp_path / "site" / "cutlass"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("OLD_INTERFACE = True\n")
    out = _run(tmp_path, {"PYTHONPATH": f"{tmp_path}{os.pathsep}{tmp_path / 'site'}",
                          "BBX_FORCE_SHIM": "0"})
    assert out["shim_file"].endswith("shim/cutlass/__init__.py")


def test_dsl_source_scan() -> None:
    from bbx.hook import is_dsl_source

    assert is_dsl_source("import cutlass\nimport cutlass.cute as cute\n")
    assert is_dsl_source("from cutlass import cute\n")
    assert not is_dsl_source("import torch\n# cutlass.cute is great\n")
    assert not is_dsl_source("import cutlass_library\n")


CUDA_DRIVER = '''
import json, sys
import bbx.hook
import cuda.bindings.driver as cuda
out = {"file": getattr(cuda, "__file__", ""), "shim": getattr(cuda, "__bbx_shim__", False)}
if out["shim"]:
    s = cuda.CUstream(0x4D2)
    out["stream"] = [repr(s), int(s), s == cuda.CUstream(1234)]
    out["init"] = [int(r) for r in cuda.cuInit(0)]
    try:
        import cuda.bindings.nvrtc as nvrtc
        nvrtc.nvrtcCreateProgram()
    except Exception as exc:
        out["nvrtc"] = [type(exc).__module__, str(exc).splitlines()[0]]
print(json.dumps(out))
'''


def _run_cuda_driver(tmp_path: Path, extra_path: str = "") -> dict[str, Any]:
    (tmp_path / "drv.py").write_text(CUDA_DRIVER)
    env = {**os.environ, "PYTHONPATH": extra_path}
    done = subprocess.run([sys.executable, str(tmp_path / "drv.py")], capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_cuda_bindings_stand_in_only_where_absent(tmp_path: Path) -> None:
    out = _run_cuda_driver(tmp_path)
    assert out["shim"] is True and out["file"].endswith("shim/cuda/bindings/driver.py")
    assert out["stream"] == ["<CUstream 0x4d2>", 1234, True]
    assert out["init"] == [100]  # CUDA_ERROR_NO_DEVICE: this torch has no GPU
    assert out["nvrtc"][0] == "bbx.host_errors"
    assert "'cuda.bindings.nvrtc.nvrtcCreateProgram' is an NVIDIA-only host feature" in \
        out["nvrtc"][1]
    # A real cuda-python (here a fake one with bindings/driver.py) is never shadowed.
    real = tmp_path / "site" / "cuda" / "bindings"
    real.mkdir(parents=True)
    (real / "__init__.py").write_text("")
    (real / "driver.py").write_text("REAL = True\n")
    out = _run_cuda_driver(tmp_path, str(tmp_path / "site"))
    assert out["shim"] is False and out["file"] == str(real / "driver.py")


STANDIN_DRIVER = '''
import json, os, sys
import torch
import bbx.hook
out = {"before": torch.cuda.is_available(), "target": os.environ.get("BBX_TARGET")}
bbx.hook.install(cuda_standin=True)
out["during"] = [torch.cuda.is_available(), torch.zeros(2, device="cuda").device.type,
                 os.environ.get("BBX_TARGET")]
bbx.hook.uninstall()
out["after"] = [torch.cuda.is_available(), os.environ.get("BBX_TARGET")]
print(json.dumps(out))
'''


def test_install_with_cuda_standin_is_scoped(tmp_path: Path) -> None:
    (tmp_path / "standin.py").write_text(STANDIN_DRIVER)
    env = {k: v for k, v in os.environ.items() if k not in ("BBX_TARGET", "BBX_CUDA_STANDIN")}
    done = subprocess.run([sys.executable, str(tmp_path / "standin.py")], capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out == {"before": False, "target": None, "during": [True, "cpu", "cpu"],
                   "after": [False, None]}
