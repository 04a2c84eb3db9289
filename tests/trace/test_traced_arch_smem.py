"""`cute.arch.alloc_smem` and `cute.arch.get_dyn_smem` by staged execution: static shared arrays
of alloc_smem and of `cutlass.Array(..., space=smem)` in one kernel each have storage of their
own (one sequence of sites), apart from the dynamic shared memory; get_dyn_smem is where a
`SmemAllocator` starts (the launch passes what the allocator took). This is NVIDIA's 4.8.1
layout (checked in its PTX for sm_90a: alloc_smem is a `__static_shmem__` array of its own, the
launch passes only the allocator's 128 bytes, get_dyn_smem is the dynamic base the allocator's
tensor starts at). Run on the simulator in checked mode against torch on random inputs; a
host-side call and a bad alignment are located errors."""

from __future__ import annotations

from pathlib import Path

from .staged_script import run_staged

SCRIPT = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def kernel(mX: cute.Tensor, mOut: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    arr = cutlass.Array(cutlass.Float32, 32, space=cutlass.AddressSpace.smem, alignment=16)
    sA = cute.make_tensor(cute.arch.alloc_smem(cutlass.Float32, 32, alignment=16),
                          cute.make_layout(32))
    smem = cutlass.utils.SmemAllocator()
    sDyn = smem.allocate_tensor(cutlass.Float32, cute.make_layout(32), 16)
    sB = cute.make_tensor(cute.arch.alloc_smem(cutlass.Float32, 32), cute.make_layout(32))
    base = cute.make_tensor(cute.arch.get_dyn_smem(cutlass.Float32, 16), cute.make_layout(32))
    x = mX[tidx]
    arr[tidx] = x
    sA[tidx] = x * 2.0
    sB[tidx] = x * 3.0
    sDyn[tidx] = x * 4.0
    cute.arch.sync_threads()
    r = 31 - tidx
    mOut[0, tidx] = arr[r]
    mOut[1, tidx] = sA[r]
    mOut[2, tidx] = sB[r]
    mOut[3, tidx] = base[r]  # the allocator's first tensor starts the dynamic shared memory
    mOut[4, tidx] = cutlass.Float32(cute.arch.dynamic_smem_size())


@cute.jit
def run(mX: cute.Tensor, mOut: cute.Tensor):
    kernel(mX, mOut).launch(grid=[1, 1, 1], block=[32, 1, 1])


x = torch.randn(32)
out = torch.full((5, 32), float("nan"))
run(from_dlpack(x), from_dlpack(out))
flipped = x.flip(0)
for row, scale in enumerate((1.0, 2.0, 3.0, 4.0)):
    torch.testing.assert_close(out[row], flipped * scale)
assert (out[4] == 32 * 4).all(), out[4]
print("PASS")
'''

HOST_CALL = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.jit
def run(mX: cute.Tensor):
    p = cute.arch.alloc_smem(cutlass.Float32, 8)


run(from_dlpack(torch.zeros(8)))
'''

OVER_ALIGNED = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def kernel(mX: cute.Tensor):
    p = cute.arch.get_dyn_smem(cutlass.Float32, 128)


@cute.jit
def run(mX: cute.Tensor):
    kernel(mX).launch(grid=[1, 1, 1], block=[32, 1, 1], smem=512)


run(from_dlpack(torch.zeros(8)))
'''


def test_static_and_dynamic_shared_memory_on_simulator(tmp_path: Path) -> None:
    proc = run_staged(tmp_path, SCRIPT)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-6000:]


def test_alloc_smem_in_a_host_function_is_located(tmp_path: Path) -> None:
    proc = run_staged(tmp_path, HOST_CALL)
    assert proc.returncode != 0
    assert "driver.py:10:9: error: cute.arch.alloc_smem in a host function" in proc.stdout, \
        proc.stdout[-4000:]
    assert "Traceback" not in proc.stdout


def test_get_dyn_smem_beyond_the_base_alignment_is_located(tmp_path: Path) -> None:
    proc = run_staged(tmp_path, OVER_ALIGNED)
    assert proc.returncode != 0
    assert "driver.py:10:9: error: cute.arch.get_dyn_smem(..., alignment=128)" in proc.stdout, \
        proc.stdout[-4000:]
    assert "16-byte aligned" in proc.stdout and "Traceback" not in proc.stdout
