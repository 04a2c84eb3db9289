"""A launch without `smem=` of a kernel that makes a SmemAllocator gets the bytes its allocations
take, as the DSL counts them (bbx.lowering.smem_sizing): run on the simulator (checked mode),
the kernel reads its dynamic shared memory size, compared with the DSL's layout rules computed
here. Allocations in a `const_expr` branch: staged execution counts those its trace makes (the
DSL's rule); the translated launch cannot replay them and falls back to the target's default."""

from __future__ import annotations

from pathlib import Path

from bbx import settings
from bbx.translate import translate_source

from .conftest import run_driver_on_simulator

KERNELS = '''
import cutlass
import cutlass.cute as cute


@cute.struct
class Shared:
    vals: cute.struct.MemRange[cutlass.Float32, 40]
    n: cutlass.Int32


class Sized:
    def __init__(self, rows: int, staged: bool):
        self.rows = rows
        self.staged = staged

    @cute.kernel
    def kernel(self, mX: cute.Tensor, mOut: cute.Tensor, sL: cute.Layout):
        tidx, _, _ = cute.arch.thread_idx()
        smem = cutlass.utils.SmemAllocator()
        shared = smem.allocate(Shared)
        buf = smem.allocate_tensor(mX.element_type, sL, 64)
        smem.allocate_array(cutlass.Int16, self.rows * 3)
        buf[tidx] = mX[tidx] * 2.0
        if tidx == 0:
            shared.n = 7
        cute.arch.sync_threads()
        mOut[tidx] = buf[31 - tidx]
        if tidx == 0:
            mOut[32] = cutlass.Float32(cute.arch.dynamic_smem_size())

    @cute.kernel
    def staged_kernel(self, mOut: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        if cutlass.const_expr(self.staged):
            smem = cutlass.utils.SmemAllocator()
            buf = smem.allocate_tensor(cutlass.Float32, cute.make_layout(32), 16)
            buf[tidx] = 1.0
        if tidx == 0:
            mOut[0] = cutlass.Float32(cute.arch.dynamic_smem_size())

    @cute.jit
    def __call__(self, mX: cute.Tensor, mOut: cute.Tensor, mStaged: cute.Tensor):
        layout = cute.make_layout((8, 4), stride=(4, 1))
        self.kernel(mX, mOut, layout).launch(grid=[1, 1, 1], block=[32, 1, 1])
        self.staged_kernel(mStaged).launch(grid=[1, 1, 1], block=[32, 1, 1])
'''

DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from sized_kernels import Sized


def align(offset, a):
    return (offset + a - 1) // a * a


for rows in (5, 9):
    x = torch.randn(32)
    out, staged = torch.full((33,), float("nan")), torch.full((1,), float("nan"))
    Sized(rows, True)(*(from_dlpack(t) for t in (x, out, staged)))
    assert torch.equal(out[:32], (x * 2.0).flip(0)), "the kernel computes"
    # the DSL's bump allocator: a struct (its size rounded to its alignment), then the tensor
    # at 64 bytes, then rows * 3 Int16
    offset = 40 * 4 + 4
    offset = align(offset, 64) + 8 * 4 * 4
    offset = align(offset, 2) + rows * 3 * 2
    assert int(out[32]) == offset, (rows, int(out[32]), offset)
    # allocations in a taken const_expr branch: the DSL passes the 128 bytes they take
    assert int(staged[0]) == TAKEN_BRANCH_BYTES, int(staged[0])
# a const_expr branch not taken allocates nothing: the DSL passes 0
staged = torch.full((1,), float("nan"))
Sized(5, False)(*(from_dlpack(t) for t in (x, out, staged)))
assert int(staged[0]) == SKIPPED_BRANCH_BYTES, int(staged[0])
print("PASS")
'''


def test_launch_gets_the_allocators_bytes_on_simulator(tmp_path: Path) -> None:
    """Staged execution counts what the trace allocates, as the DSL does (checked against
    NVIDIA's compiler: a launch without smem= of the const_expr kernel passes 128 bytes); the
    translated path cannot replay allocations in a const_expr branch and passes the target's
    default (64 KiB here) whether the branch is taken or not."""
    staged = settings.enabled("BBX_STAGED")
    driver = DRIVER.replace("TAKEN_BRANCH_BYTES", "128" if staged else "65536")
    driver = driver.replace("SKIPPED_BRANCH_BYTES", "0" if staged else "65536")
    run_driver_on_simulator(tmp_path, {"sized_kernels.py": KERNELS}, driver)


def test_the_launch_replays_only_the_allocations() -> None:
    result = translate_source(KERNELS, "sized_kernels.py")
    assert result.ok, result.render_diagnostics()
    text = result.text or ""
    launch = text[text.index("void Sized_call("):]
    assert "SmemAllocator{smem_sizing}" in launch and "return smem.size();" in launch
    assert "thread_idx" not in launch and "sync_threads" not in launch  # nothing else replayed
    assert "bbx::smem_allocator_default_bytes" in launch  # the const_expr-branch kernel
