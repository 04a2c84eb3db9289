"""Reinterpreting views and layout numbers by staged execution, where the tracer's own rules
apply: `cute.recast_tensor` of a shared-memory tensor (the pointer's alignment kept, as the DSL
keeps it) and of a tensor at a run-time offset, `cute.crd2idx` and
`cute.make_layout_image_mask` at run-time coordinates, `cute.assume` (its fact reaches the C++),
`cute.make_ptr` of an address with an offset. Run on the simulator in checked mode against
numpy and Python models; unsupported uses are located errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from .staged_script import run_staged

SCRIPT = '''
import numpy as np
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def kernel(mH: cute.Tensor, mW: cute.Tensor, mRow: cute.Tensor, mO: cute.Tensor,
           k: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    smem = cutlass.utils.SmemAllocator()
    sH = smem.allocate_tensor(cutlass.Float16, cute.make_layout((8, 16), stride=(16, 1)), 16)
    for j in cutlass.range_constexpr(16):
        sH[tidx, j] = mH[tidx, j]
    cute.arch.sync_threads()
    words = cute.recast_tensor(sH, cutlass.Int32)  # (8, 8) words, 16-byte aligned
    for j in cutlass.range_constexpr(8):
        mW[tidx, j] = words[tidx, j]
    # row k of mH (a run-time offset) as 8 words
    row = cute.recast_tensor(cute.make_tensor(mH.iterator + k * 16, cute.make_layout(16)),
                             cutlass.Int32)
    mRow[tidx] = row[tidx]
    cute.arch.sync_threads()  # mW is read back below
    if tidx == 0:
        lay = cute.make_layout((4, 8), stride=(8, 1))
        mO[0] = cute.crd2idx((k % 4, k % 8), lay)
        mO[1] = cutlass.Int32(cute.make_layout_image_mask(
            cute.make_layout((2, 4), stride=(1, 2)), (k % 2, 0), 1))
        mO[2] = cute.assume(k * 16, divby=16) // 16
        p = cute.make_ptr(cutlass.Int32, mW.iterator.toint() + 4 * 8, cute.AddressSpace.gmem,
                          assumed_align=16)
        mO[3] = cute.make_tensor(p, cute.make_layout(8))[3]


@cute.jit
def run(mH: cute.Tensor, mW: cute.Tensor, mRow: cute.Tensor, mO: cute.Tensor, k: cutlass.Int32):
    kernel(mH, mW, mRow, mO, k).launch(grid=[1, 1, 1], block=[8, 1, 1])


rng = np.random.default_rng()
H = rng.standard_normal((8, 16)).astype(np.float16)
W = torch.zeros((8, 8), dtype=torch.int32)
R = torch.zeros(8, dtype=torch.int32)
O = torch.full((4,), -99, dtype=torch.int32)
k = K_VALUE
run(from_dlpack(torch.from_numpy(H)), from_dlpack(W), from_dlpack(R), from_dlpack(O), k)
assert (W.numpy() == H.view(np.int32)).all(), "recast_tensor of shared memory"
assert (R.numpy() == H[k].view(np.int32)).all(), "recast_tensor at a run-time offset"
o = O.numpy()
assert o[0] == (k % 4) * 8 + (k % 8), (k, o)
assert o[1] == sum(1 << ((k % 2) + 2 * i) for i in range(4)), (k, o)
assert o[2] == k, (k, o)
assert o[3] == W.numpy()[1, 3], o
print("PASS")
'''

ERROR_KERNEL = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def kernel(mX: cute.Tensor):
    r = cute.make_rmem_tensor((4,), cutlass.Float32)
    {line}


@cute.jit
def run(mX: cute.Tensor):
    kernel(mX).launch(grid=[1, 1, 1], block=[1, 1, 1])


run(from_dlpack(torch.zeros(8)))
'''


def test_views_and_layout_numbers_on_simulator(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    k = int(np.random.default_rng().integers(0, 8))
    monkeypatch.setenv("BBX_EMIT_DIR", str(tmp_path / "emit"))
    proc = run_staged(tmp_path, SCRIPT.replace("K_VALUE", str(k)))
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-6000:]
    text = "\n".join(p.read_text() for p in (tmp_path / "emit").glob("*.hip"))
    assert "recast_ptr<int32_t>(" in text  # the bbx pointer, whose type keeps its alignment
    assert "assume<16, false>(" in text


@pytest.mark.parametrize(("line", "message"), [
    ("cute.recast_tensor(r, cutlass.Int32)",
     "cute.recast_tensor of a register tensor"),
    ("cute.recast_tensor(mX, cutlass.Boolean)",
     "cute.recast_tensor from Float32 to Boolean"),
    ("cute.make_ptr(cutlass.Float32, mX.iterator.toint(), cute.AddressSpace.tmem)",
     "cute.make_ptr in AddressSpace.tmem"),
    ("cute.assume(mX[0], divby=4)", "cute.assume of a Float32"),
    ("cute.dice(cute.make_layout((2, 2)), (cute.arch.thread_idx()[0], None))",
     "cute.dice(..., "),
])
def test_unsupported_uses_are_located(tmp_path: Path, line: str, message: str) -> None:
    proc = run_staged(tmp_path, ERROR_KERNEL.replace("{line}", line))
    assert proc.returncode != 0
    assert f"driver.py:11:5: error: {message}" in proc.stdout, proc.stdout[-4000:]
    assert "Traceback" not in proc.stdout
