"""`cutlass.Pointer` accesses — `ptr.load()`, `ptr.load(count=N)` (a Vector), `ptr.store(v)`,
pointer arithmetic, `iterator.raw_ptr()`, `smem.allocate(cutlass.Int32)` — and `Vector.reduce`
with a literal op and with an op chosen by a Constexpr string, run on the CPU simulator (checked
mode) against torch on fresh random inputs."""

from __future__ import annotations

from pathlib import Path

from transpiler.conftest import run_driver_on_simulator

KERNELS = '''
import cutlass
import cutlass.cute as cute

WIDTH = 8


@cute.kernel
def row_kernel(mX: cute.Tensor, mS: cute.Tensor, mM: cute.Tensor, mY: cute.Tensor,
               OP: cutlass.Constexpr):
    row, _, _ = cute.arch.block_idx()
    src = mX.iterator.raw_ptr() + row * WIDTH
    values = src.load(count=WIDTH)
    (mS.iterator + row).store(values.reduce("add"))
    (mM.iterator + row).store(values.reduce(OP, acc=src.load()))
    # a shared-memory scalar: store, then load it back
    smem = cutlass.utils.SmemAllocator()
    cell = smem.allocate(cutlass.Int32)
    cell.store(row * 3)
    dst = mY.iterator + row * WIDTH
    dst.store(values * cutlass.Float32(cell.load()))


@cute.jit
def rows(mX: cute.Tensor, mS: cute.Tensor, mM: cute.Tensor, mY: cute.Tensor,
         OP: cutlass.Constexpr):
    row_kernel(mX, mS, mM, mY, OP).launch(grid=[mX.shape[0], 1, 1], block=[1, 1, 1])
'''

DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from pointer_kernels import rows

x = torch.randn(5, 8)
for op, ref in (("max", torch.amax), ("min", torch.amin)):
    s = torch.full((5,), float("nan"))
    m = torch.full((5,), float("nan"))
    y = torch.full_like(x, float("nan"))
    rows(from_dlpack(x), from_dlpack(s), from_dlpack(m), from_dlpack(y), op)
    torch.testing.assert_close(s, x.sum(1), rtol=1e-6, atol=1e-6)
    assert torch.equal(m, ref(x, 1)), (op, m, ref(x, 1))
    assert torch.equal(y, x * torch.arange(5).mul(3).float()[:, None])
print("PASS")
'''


def test_pointer_accesses_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"pointer_kernels.py": KERNELS}, DRIVER)


MASKED = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def masked_kernel(mX: cute.Tensor, mY: cute.Tensor):
    src = mX.iterator.raw_ptr()
    dst = mY.iterator.raw_ptr()
    keep = cutlass.Vector.from_elements((True, False, True, True), cutlass.Boolean)
    odd = cutlass.Vector.from_elements((False, True, False, True), cutlass.Boolean)
    values = src.masked_load(keep)  # lane 1 not read: zero
    dst.store(values)
    fill = cute.full(4, -1.0, cutlass.Float32)
    (dst + 4).store(src.masked_load(odd, fill, alignment=16))
    (dst + 8).masked_store(values + 10.0, odd)  # lanes 0 and 2 keep what was there


@cute.jit
def masked(mX: cute.Tensor, mY: cute.Tensor):
    masked_kernel(mX, mY).launch(grid=[1, 1, 1], block=[1, 1, 1])
'''

MASKED_DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from masked_kernels import masked

x = torch.randn(4)
y = torch.randn(12)
before = y.clone()
masked(from_dlpack(x, assumed_align=16), from_dlpack(y, assumed_align=16))
expected = before.clone()
expected[0:4] = torch.tensor([x[0], 0.0, x[2], x[3]])
expected[4:8] = torch.tensor([-1.0, x[1], -1.0, x[3]])
expected[9] = 0.0 + 10.0
expected[11] = x[3] + 10.0
assert torch.equal(y, expected), (y, expected)
print("PASS")
'''


def test_masked_pointer_accesses_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"masked_kernels.py": MASKED}, MASKED_DRIVER)
