"""Kernel classes constructed inside `@cute.jit` code (bbx.lowering.kernel_objects): the
construction is evaluated in Python when the specialization is built (`__init__` runs with the
static arguments), and calling the object calls the class's generated `__call__` with the
object's configuration as a Meta struct nested in the caller's.

- a class of the same module (defined after the function that builds it), built from a tensor's
  `element_type`, a literal, a literal tuple and a Constexpr parameter, on the simulator against
  torch;
- a class of another module found through an absolute import that resolves against a directory
  the importing module puts on `sys.path` (`..` of its own directory, a namespace package);
- a run-time constructor argument is a located diagnostic.
"""

from __future__ import annotations

from pathlib import Path

from bbx.translate import translate_file, translate_source

from .conftest import run_driver_on_simulator

SCALE_CLASS = '''
class Axpy:
    """out = alpha * x + y, one element per thread, `threads` threads per block."""

    def __init__(self, dtype, alpha: float, tile: tuple, offset: int = 0):
        self.dtype = dtype
        self.alpha = alpha
        self.threads = tile[0] * tile[1]
        self.offset = offset

    @cute.jit
    def __call__(self, x: cute.Tensor, y: cute.Tensor, out: cute.Tensor, stream: cuda.CUstream):
        n = cute.size(x.shape)
        self.kernel(x, y, out, n).launch(
            grid=[cute.ceil_div(n, self.threads), 1, 1], block=[self.threads, 1, 1],
            stream=stream)

    @cute.kernel
    def kernel(self, x: cute.Tensor, y: cute.Tensor, out: cute.Tensor, n: cutlass.Int32):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        i = bidx * self.threads + tidx
        if i < n:
            out[i] = x[i] * self.alpha + y[i] + cutlass.Float32(self.offset)
'''

SAME_MODULE = '''
import cuda.bindings.driver as cuda

import cutlass
import cutlass.cute as cute


@cute.jit
def axpy(x: cute.Tensor, y: cute.Tensor, out: cute.Tensor, offset: cutlass.Constexpr,
         stream: cuda.CUstream):
    print(f"building Axpy for {x.element_type}")
    op = Axpy(x.element_type, 2.5, (2, 32), offset=offset)
    op(x, y, out, stream)
''' + SCALE_CLASS

SAME_MODULE_DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack
import cuda.bindings.driver as cuda

from objects import axpy

stream = cuda.CUstream(torch.cuda.current_stream().cuda_stream)
for n, offset in ((200, 0), (64, 3)):
    x, y = torch.randn(n), torch.randn(n)
    out = torch.zeros(n)
    axpy(from_dlpack(x), from_dlpack(y), from_dlpack(out), offset, stream)
    torch.testing.assert_close(out, 2.5 * x + y + offset)
print("PASS")
'''


def test_same_module_object_runs_on_simulator(tmp_path: Path) -> None:
    result = translate_source(SAME_MODULE, "objects.py")
    assert result.ok, result.render_diagnostics()
    text = result.text or ""
    member = "Axpy_x_element_type_2p5_2_32_offset"
    assert f"{member}  <- Axpy(x.element_type, 2.5, (2, 32), offset=offset)  (kernel object)" \
        in text
    assert f"Axpy_call<typename Meta::{member}>(x, y, out, stream);" in text
    # the object's __call__ is emitted before the function that calls it
    assert text.index("void Axpy_call(") < text.index("void axpy(")
    run_driver_on_simulator(tmp_path, {"objects.py": SAME_MODULE}, SAME_MODULE_DRIVER)


CROSS_MODULE_LIB = '''
import cuda.bindings.driver as cuda

import cutlass
import cutlass.cute as cute
''' + SCALE_CLASS

CROSS_MODULE_APP = '''
import os
import sys

import cuda.bindings.driver as cuda

import cutlass
import cutlass.cute as cute

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kernels.blas.axpy_op import Axpy


@cute.jit
def run_axpy(x: cute.Tensor, y: cute.Tensor, out: cute.Tensor, stream: cuda.CUstream):
    op = Axpy(x.element_type, -1.5, (4, 16))
    op(x, y, out, stream)
'''

CROSS_MODULE_DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack
import cuda.bindings.driver as cuda

from app import run_axpy

stream = cuda.CUstream(torch.cuda.current_stream().cuda_stream)
x, y = torch.randn(300), torch.randn(300)
out = torch.zeros(300)
run_axpy(from_dlpack(x), from_dlpack(y), from_dlpack(out), stream)
torch.testing.assert_close(out, -1.5 * x + y)
print("PASS")
'''


def test_object_of_a_class_imported_through_sys_path(tmp_path: Path) -> None:
    lib = tmp_path / "kernels" / "blas"  # a namespace package: no __init__.py
    lib.mkdir(parents=True)
    (lib / "axpy_op.py").write_text(CROSS_MODULE_LIB)
    apps = tmp_path / "apps"
    apps.mkdir()
    (apps / "app.py").write_text(CROSS_MODULE_APP)
    result = translate_file(apps / "app.py")
    assert result.ok, result.render_diagnostics()
    text = result.text or ""
    assert '#include "axpy_op.hip"' in text
    assert ("bbx_gen::py_axpy_op::Axpy_call<typename Meta::Axpy_x_element_type_neg_1p5_4_16>"
            "(x, y, out, stream);") in text
    assert result.dependencies == [lib / "axpy_op.py"]
    run_driver_on_simulator(tmp_path, {}, CROSS_MODULE_DRIVER, python_path=apps)


def test_run_time_constructor_argument_is_a_located_diagnostic() -> None:
    source = SAME_MODULE.replace(
        "out: cute.Tensor, offset: cutlass.Constexpr,", "out: cute.Tensor, offset: cutlass.Int32,")
    result = translate_source(source, "objects.py")
    assert not result.ok
    rendered = result.render_diagnostics()
    assert ("objects.py:12:52: error: argument 'offset' of 'Axpy(...)' (`offset`) is a run-time "
            "value (dynamic int32_t), but the DSL builds kernel objects at trace time"
            ) in rendered, rendered
    assert "[kernel-object-argument]" in rendered
    assert "Traceback" not in rendered


def test_object_used_as_a_value_is_a_located_diagnostic() -> None:
    source = SAME_MODULE.replace("    op(x, y, out, stream)\n", "    z = op\n    z.foo(x)\n")
    result = translate_source(source, "objects.py")
    assert not result.ok
    rendered = result.render_diagnostics()
    assert "objects.py:14:5: error: method 'foo' of a meta kernel object is not supported" in (
        rendered), rendered
