"""`@cute.jit` helpers imported from another module of the same package: translated as calls
into the helper module's namespace, which the caller's `.hip` includes; built and run on the CPU
simulator through `bbx run`."""

from __future__ import annotations

from pathlib import Path

import pytest

from bbx.targets import toolchain
from bbx.translate import translate_file

from .conftest import GOLDEN, run_driver_on_simulator

HELPERS = '''
import cutlass
import cutlass.cute as cute


@cute.jit
def warp_sum(v):
    for i in cutlass.range_constexpr(5):
        v = v + cute.arch.shuffle_sync_bfly(v, offset=1 << i)
    return v


@cute.jit
def scaled(x, factor: cutlass.Constexpr):
    return x * factor


def plain(x):
    return x
'''

KERNEL = '''
import cutlass
import cutlass.cute as cute

from . import helpers
from .helpers import warp_sum


@cute.kernel
def row_sum_kernel(gX: cute.Tensor, gY: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    s = warp_sum(gX[bidx, tidx])
    if tidx == 0:
        gY[bidx] = helpers.scaled(s, 2.0)


@cute.jit
def row_sum(mX: cute.Tensor, mY: cute.Tensor):
    m, _ = mX.shape
    row_sum_kernel(mX, mY).launch(grid=[m, 1, 1], block=[32, 1, 1])
'''

DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from mypkg.kernel import row_sum

x = torch.randn(5, 32)
y = torch.zeros(5)
row_sum(from_dlpack(x), from_dlpack(y))
torch.testing.assert_close(y, 2.0 * x.sum(dim=1), rtol=1e-5, atol=1e-5)
print("PASS")
'''


def _package(tmp_path: Path, kernel: str = KERNEL) -> Path:
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text(HELPERS)
    (pkg / "kernel.py").write_text(kernel)
    return pkg


def test_imported_helpers_are_qualified_calls(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    result = translate_file(pkg / "kernel.py")
    assert result.ok, result.render_diagnostics()
    assert result.text is not None
    assert '#include <bbx/bbx.hpp>\n#include "helpers.hip"\n' in result.text
    assert "auto s = bbx_gen::py_helpers::warp_sum<Meta>(gX(bidx, tidx), Stream{});" in result.text
    assert "gY(bidx) = bbx_gen::py_helpers::scaled<Meta>(s, 2.0f, Stream{});" in result.text
    assert result.dependencies == [pkg / "helpers.py"]
    helpers = translate_file(pkg / "helpers.py")
    assert helpers.ok and helpers.dependencies == []
    assert "BBX_HOST_DEVICE auto warp_sum(V v, Stream stream)" in (helpers.text or "")


def test_translated_pair_compiles_for_cpu(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    for name in ("helpers", "kernel"):
        result = translate_file(pkg / f"{name}.py")
        assert result.ok and result.text is not None
        (tmp_path / f"{name}.hip").write_text(result.text)
    unit = tmp_path / "unit.cpp"
    unit.write_text(
        '#include "kernel.hip"\n'
        f'#include "{GOLDEN / "instantiate" / "common.hpp"}"\n\n'
        "using namespace bbx_inst;\n"
        "template void bbx_gen::py_kernel::row_sum<EmptyMeta, Mat, Vec>(Mat, Vec, bbx::Stream);\n"
    )
    try:
        cmd = toolchain.host_command(
            unit, tmp_path / "unit.o", object_only=True, extra_flags=["-fsyntax-only"]
        )
    except FileNotFoundError as err:
        pytest.skip(str(err))
    cmd = [a for a in cmd if a != "-c"]
    cmd = cmd[: cmd.index("-o")] if "-o" in cmd else cmd
    toolchain.compile_source(cmd)


def test_missing_module_is_a_located_diagnostic(tmp_path: Path) -> None:
    kernel = KERNEL.replace("from .helpers import warp_sum", "from .missing import warp_sum")
    pkg = _package(tmp_path, kernel)
    result = translate_file(pkg / "kernel.py", display_path="kernel.py")
    assert not result.ok
    rendered = result.render_diagnostics()
    assert "kernel.py:13:9: error: cannot find module '.missing'" in rendered
    assert "Traceback" not in rendered


def test_non_jit_function_is_a_located_diagnostic(tmp_path: Path) -> None:
    kernel = KERNEL.replace("helpers.scaled(s, 2.0)", "helpers.plain(s)")
    pkg = _package(tmp_path, kernel)
    result = translate_file(pkg / "kernel.py", display_path="kernel.py")
    assert not result.ok
    assert "kernel.py:15:20: error: 'plain' of module '.helpers' is not a @cute.jit function" in (
        result.render_diagnostics()
    )


def test_runs_on_simulator(tmp_path: Path) -> None:
    _package(tmp_path)
    run_driver_on_simulator(tmp_path, {}, DRIVER)
