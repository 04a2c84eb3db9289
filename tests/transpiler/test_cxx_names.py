"""Python names that C++ cannot take as they are: keywords (`new`, `default`) and the names of
functions and types that generated code uses unqualified (`size = cute.size(a)` would declare
`auto size = size(a);`). They get a trailing underscore in C++; the kernel runs on the simulator
against torch."""

from __future__ import annotations

from pathlib import Path

import pytest

from bbx.translate import module_namespace

from .conftest import run_driver_on_simulator, translate_snippet

KERNEL = '''
import cutlass
import cutlass.cute as cute
import cutlass.utils


@cute.struct
class Storage:
    new: cute.struct.MemRange[cutlass.Float32, 32]
    default: cutlass.Int32


@cute.kernel
def names_kernel(copy: cute.Tensor, float: cute.Tensor, scale: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    size = cute.size(copy)
    new = copy[tidx] * 2.0
    storage = cutlass.utils.SmemAllocator().allocate(Storage)
    storage.new[tidx] = scale(new)
    cute.arch.sync_threads()
    for register in range(1):
        float[tidx] = storage.new[(tidx + 1) % 32] + size + register


@cute.jit
def names(copy: cute.Tensor, float: cute.Tensor):
    names_kernel(copy, float, lambda this: this + 1.0).launch(
        grid=[1, 1, 1], block=[32, 1, 1], smem=Storage.size_in_bytes()
    )
'''

DRIVER = """
import torch
from cutlass.cute.runtime import from_dlpack

from long import names

x = torch.randn(32)
y = torch.full_like(x, float("nan"))
names(from_dlpack(x), from_dlpack(y))
torch.testing.assert_close(y, (x * 2 + 1).roll(-1) + 32)
print("PASS")
"""


def test_reserved_names_are_renamed() -> None:
    result = translate_snippet(KERNEL, "name_kernels.py", header=False)
    assert result.text is not None, result.render_diagnostics()
    text = result.text
    assert "auto size_ = size(copy_);" in text
    assert "auto new_ = copy_(tidx) * 2.0f;" in text
    assert "field_t<NewField> new_;" in text
    assert "storage->new_(tidx)" in text


def test_reserved_names_run_on_simulator(tmp_path: Path) -> None:
    """The module is `long.py` too: its C++ namespace is `bbx_gen::py_long`."""
    run_driver_on_simulator(tmp_path, {"long.py": KERNEL}, DRIVER)


def test_module_namespaces_are_identifiers() -> None:
    assert [module_namespace(name) for name in ("long.py", "2d.py", "my-kernels.py", "new.py")] \
        == ["py_long", "py_2d", "py_my_kernels", "py_new"]


# A module named like functions of the header library that its generated code calls
# (`local_tile`, `make_tensor`, `make_layout`): its namespace must not hide them.
HEADER_NAMED = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def k(mX: cute.Tensor, mY: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    gX = cute.local_tile(mX, (4,), (tidx,))
    gY = cute.local_tile(mY, (4,), (tidx,))
    r = cute.make_rmem_tensor(cute.make_layout((4,)), cutlass.Float32)
    cute.copy(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32), gX, r)
    r.store(r.load() * 2.0)
    cute.autovec_copy(r, gY)


@cute.jit
def run(mX: cute.Tensor, mY: cute.Tensor):
    k(mX, mY).launch(grid=(1, 1, 1), block=(8, 1, 1))
'''

HEADER_NAMED_DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from {module} import run

x = torch.randn(32)
y = torch.full_like(x, float("nan"))
run(from_dlpack(x), from_dlpack(y))
assert torch.equal(y, x * 2.0), (y, x)
print("PASS")
'''


@pytest.mark.parametrize("staged", [True, False])
@pytest.mark.parametrize("module", ["local_tile", "make_tensor", "make_layout"])
def test_modules_named_like_header_functions_run(tmp_path: Path, module: str,
                                                 staged: bool) -> None:
    run_driver_on_simulator(tmp_path, {f"{module}.py": HEADER_NAMED},
                            HEADER_NAMED_DRIVER.format(module=module), staged=staged)
