"""NVIDIA-only code that the program switches off: a `const_expr` branch whose condition is known
only per specialization is translated as `if constexpr`; a construct in it that has no AMD
counterpart (here TMA, and a cluster barrier inside a helper) becomes a dependent static_assert.
The file translates with no diagnostic, builds and runs when the branch is off, and fails at
build time, naming the Python line, when a specialization takes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import run_driver_on_simulator, run_driver_refused, translate_snippet

KERNELS = '''
import cutlass
import cutlass.cute as cute
from cutlass.cute.nvgpu import cpasync


class AddOne:
    def __init__(self, use_tma: bool, cluster_n: int):
        self.use_tma = use_tma
        self.cluster_n = cluster_n

    @cute.jit
    def cluster_sum(self, x):
        cute.arch.cluster_arrive()
        return x

    @cute.kernel
    def kernel(self, mX: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        v = mX[tidx]
        if cutlass.const_expr(self.use_tma):
            atom = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), mX, None, (8,))
            v = v + atom
        else:
            v = v + 1.0
        if cutlass.const_expr(self.cluster_n > 1):
            v = self.cluster_sum(v)
        mX[tidx] = v

    @cute.jit
    def __call__(self, mX: cute.Tensor):
        self.kernel(mX).launch(grid=[1, 1, 1], block=[32, 1, 1])
'''

DRIVER = """
import torch
from cutlass.cute.runtime import from_dlpack

from nv_kernels import AddOne

x = torch.randn(32)
y = x.clone()
AddOne(use_tma={use_tma}, cluster_n=1)(from_dlpack(y))
assert torch.allclose(y, x + 1.0)
print("PASS")
"""


def _line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), start=1) if text in line)


def test_switched_off_nvidia_paths_translate_without_diagnostics() -> None:
    result = translate_snippet(KERNELS, name="nv_kernels.py", header=False)
    assert result.ok and not result.diagnostics, result.render_diagnostics()
    assert result.text is not None
    line = _line_of(result.source, "make_tiled_tma_atom")
    assert f'static_assert(dependent_false<Meta>, "nv_kernels.py:{line}:20: ' in result.text
    assert "cpasync.make_tiled_tma_atom: TMA (Hopper tensor-memory copies)" in result.text
    assert "arch.cluster_arrive: thread-block clusters" in result.text


def test_switched_off_branch_builds_and_runs(tmp_path: Path) -> None:
    run_driver_on_simulator(
        tmp_path, {"nv_kernels.py": KERNELS}, DRIVER.format(use_tma=False)
    )


@pytest.mark.parametrize("staged", [True, False])
def test_taken_branch_fails_at_build_time_with_the_python_line(tmp_path: Path,
                                                               staged: bool) -> None:
    out = run_driver_refused(tmp_path, {"nv_kernels.py": KERNELS}, DRIVER.format(use_tma=True),
                             staged=staged)
    line = _line_of(KERNELS, "make_tiled_tma_atom")
    if staged:  # refused where the trace meets it, as the DSL meets it
        assert (f"nv_kernels.py:{line}:48: error: 'cutlass.cute.nvgpu.cpasync."
                f"CopyBulkTensorTileG2SOp' is NVIDIA-only") in out, out
        assert "[nvidia-only-host]" in out, out
    else:  # the translated specialization's static_assert, at build time
        assert f"nv_kernels.py:{line}:20: cpasync.make_tiled_tma_atom: TMA" in out, out
