"""`cute.copy(atom, src, dst, pred=...)` follows the DSL's predicate rule: one entry per atom
copy (mode 0 of a partition is (AtomV, ...), and pred drops AtomV). A per-atom predicate runs on
the CPU simulator against torch on a ragged row; a per-element predicate on a 4-value atom —
which NVIDIA's compiler refuses ("'cute.copy' op expects pred to have compatible shape") — is
refused with bbx's message naming the rule and the Python line: by staged execution while it
traces the call, by the translated path's build (the header's static_assert)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from transpiler.conftest import ROOT, run_driver_on_simulator

from bbx import settings

KERNELS = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def copy_kernel(mX: cute.Tensor, mY: cute.Tensor, PER_ELEMENT: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    atom = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), mX.element_type,
                               num_bits_per_copy=128)
    tiled = cute.make_tiled_copy_tv(atom, cute.make_layout((1, 8), stride=(8, 1)),
                                    cute.make_layout((1, 4), stride=(4, 1)))
    thr = tiled.get_slice(tidx)
    cX = cute.make_identity_tensor(mX.shape)
    gX = cute.local_tile(mX, (1, 32), (0, 0))
    gY = cute.local_tile(mY, (1, 32), (0, 0))
    gC = cute.local_tile(cX, (1, 32), (0, 0))
    tX, tY, tC = thr.partition_S(gX), thr.partition_D(gY), thr.partition_S(gC)
    r = cute.make_fragment_like(tX)
    r.fill(0.0)
    if cutlass.const_expr(PER_ELEMENT):
        pred = cute.make_rmem_tensor(tC.shape, cutlass.Boolean)
        for i in cutlass.range_constexpr(cute.size(pred)):
            pred[i] = cute.elem_less(tC[i], mX.shape)
        cute.copy(atom, tX, r, pred=pred)
    else:
        # one predicate per 4-element vector (a thread has one): shape (1, 1, 1)
        pred = cute.make_rmem_tensor((1, 1, 1), cutlass.Boolean)
        pred[0] = cute.elem_less(tC[0], mX.shape)
        cute.copy(atom, tX, r, pred=pred)
    r.store(r.load() * 2.0)
    cute.copy(atom, r, tY, pred=pred)


@cute.jit
def run(mX: cute.Tensor, mY: cute.Tensor, PER_ELEMENT: cutlass.Constexpr):
    copy_kernel(mX, mY, PER_ELEMENT).launch(grid=[1, 1, 1], block=[8, 1, 1])
'''

VALID = '''
import torch
from cutlass.cute.runtime import from_dlpack

from copy_kernels import run

x = torch.randn(1, 20)  # 5 of the 8 vectors of a 32-wide tile
y = torch.full((1, 20), float("nan"))
run(from_dlpack(x, assumed_align=16), from_dlpack(y, assumed_align=16), False)
torch.testing.assert_close(y, x * 2)
print("PASS")
'''

INVALID = '''
import torch
from cutlass.cute.runtime import from_dlpack

from copy_kernels import run

x = torch.randn(1, 20)
y = torch.zeros(1, 20)
run(from_dlpack(x, assumed_align=16), from_dlpack(y, assumed_align=16), True)
'''


def test_per_atom_predicate_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"copy_kernels.py": KERNELS}, VALID)


def test_per_element_predicate_is_refused_with_the_rule(tmp_path: Path) -> None:
    (tmp_path / "copy_kernels.py").write_text(KERNELS)
    (tmp_path / "driver.py").write_text(INVALID)
    env = {**os.environ, "BBX_CACHE_DIR": str(tmp_path / "cache"), "BBX_TARGET": "cpu",
           "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(tmp_path / "driver.py")],
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600)
    assert proc.returncode != 0
    tail = proc.stdout[-4000:]
    assert "the CuTe DSL's rule" in proc.stdout, tail
    if settings.enabled("BBX_STAGED"):  # refused while tracing, at the call
        assert "copy_kernels.py:25:9: error: cute.copy(atom, src, dst, pred=...): a predicate " \
               "of shape ((4, 1), 1, 1) for a copy of shape ((4, 1), 1, 1)" in tail, tail
        assert "(AtomV = 4 here): one entry per atom copy, size 1 with 1 in mode 0" in tail, tail
        assert "        cute.copy(atom, tX, r, pred=pred)\n" in tail, tail
    else:  # the header's static_assert, at the generated line and its Python line
        assert "from Python copy_kernels.py:25: cute.copy(atom, tX, r, pred=pred)" in tail, tail
    assert "Traceback" not in proc.stdout
