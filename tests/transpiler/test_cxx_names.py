"""Python names that C++ cannot take as they are: keywords (`new`, `default`) and the names of
functions and types that generated code uses unqualified (`size = cute.size(a)` would declare
`auto size = size(a);`). They get a trailing underscore in C++; the kernel runs on the simulator
against torch."""

from __future__ import annotations

from pathlib import Path

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
    """The module is `long.py` too: its C++ namespace is `bbx_gen::long_`."""
    run_driver_on_simulator(tmp_path, {"long.py": KERNEL}, DRIVER)


def test_module_namespaces_are_identifiers() -> None:
    assert [module_namespace(name) for name in ("long.py", "2d.py", "my-kernels.py", "new.py")] \
        == ["long_", "m_2d", "my_kernels", "new_"]
