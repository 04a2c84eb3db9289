"""The AMD hot loop of NVIDIA's tensorop_gemm.py (issue 29), read from clang-22's gfx942 code by
`bbx inspect`: guards of the global -> LDS copies' instruction sequence.

* A predicated cp.async copy (CopyG2SOp through `copy_if`, the prologue's and the k-tile loop's
  loads of A and B) whose chunk goes through a register is one branch-free load and one LDS
  store per chunk (platform/amd/async_copy_hooks.hpp, g2s_chunk_zfill): no exec-mask branch per
  chunk in the k-tile loop, and the prologue's loads all in flight before the first LDS store
  waits for one (a branch per chunk kept one load in flight: load, s_waitcnt vmcnt(0), store).
* The LdMatrix shared -> register copies of K-major operands (atom/copy_ldmatrix.hpp,
  ldmatrix_fragment_copy) read each MFMA operand's 4 contiguous values with one 64-bit LDS read,
  aligned by ldmatrix's promise: no run-time alignment test whose element-wise fallback (48
  ds_read_u16 and their packing, 24 exec-mask branches) sat in the k-tile loop next to them.

Built by staged execution (BBX_STAGED=1) for gfx942, device code only; skipped without clang-22,
llvm-objdump-22 or the corpus.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("BBX_CUTLASS_CORPUS", ROOT.parent / "shared" / "corpus" / "cutlass"))
TENSOROP = CORPUS / "cute" / "ampere" / "kernel" / "dense_gemm" / "tensorop_gemm.py"
#: M-major A and B, N-major C (the upstream script's defaults), bf16
M_MAJOR = "bf16[?{div=8},?,?]:stride(1,?{div=8},?{div=8})@16"
K_MAJOR = "bf16[?,?{div=8},?]:stride(?{div=8},1,?{div=8})@16"
MNN_ARGS = (M_MAJOR, M_MAJOR, K_MAJOR)
KKM_ARGS = (K_MAJOR, K_MAJOR, M_MAJOR)
INIT = ("ab_dtype=cutlass.BFloat16", "c_dtype=cutlass.BFloat16", "acc_dtype=cutlass.Float32",
        "atom_layout_mnk=(2,2,1)")

pytestmark = [
    pytest.mark.skipif(not TENSOROP.is_file(), reason=f"no corpus script {TENSOROP}"),
    pytest.mark.skipif(None in (shutil.which("clang++-22"), shutil.which("llvm-objdump-22")),
                       reason="no clang++-22 / llvm-objdump-22"),
]


def _bbx(*args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", *args], cwd=ROOT,
                          env={**os.environ, "BBX_STAGED": "1", "BBX_TRACEBACK": ""},
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def _inspect_gemm(out: Path, args: tuple[str, ...]) -> dict[str, Any]:
    """`bbx inspect`'s figures of the GEMM kernel (the largest of the module) built for gfx942."""
    _bbx("build", f"{TENSOROP}:TensorOpGemm", "--target", "gfx942", "-o", str(out),
         *(x for value in INIT for x in ("--init", value)),
         *(x for spec in args for x in ("--arg", spec)))
    kernels = json.loads(_bbx("inspect", str(out), "--json"))["kernels"]
    return max(kernels, key=lambda k: k["instructions"])


@pytest.fixture(scope="module")
def mnn_gfx942(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _inspect_gemm(tmp_path_factory.mktemp("tensorop_mnn_gfx942"), MNN_ARGS)


@pytest.fixture(scope="module")
def kkm_gfx942(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _inspect_gemm(tmp_path_factory.mktemp("tensorop_kkm_gfx942"), KKM_ARGS)


def test_predicated_g2s_chunks_do_not_branch_in_the_k_tile_loop(mnn_gfx942: dict[str, Any]) -> None:
    loop = mnn_gfx942["hot_loop"]
    assert loop is not None and loop["mfma"] == 64 and loop["global_loads"] == 8, loop
    assert loop["exec_branches"] == 0, loop


def test_predicated_g2s_loads_are_in_flight_together(mnn_gfx942: dict[str, Any]) -> None:
    memory = mnn_gfx942["memory"]
    # the prologue's copies of 3 k-tiles (8 loads each) are issued before the first store waits
    assert memory["loads_in_flight"] >= 8, memory
    assert memory["vmcnt_waits_partial"] > 0, memory
    assert mnn_gfx942["scratch_bytes"] == 0


def test_k_major_operands_are_read_64_bits_at_a_time(kkm_gfx942: dict[str, Any]) -> None:
    loop = kkm_gfx942["hot_loop"]
    assert loop is not None and loop["mfma"] == 64, loop
    widths = loop["lds_read_widths"]
    # 64 MFMA of 16x16x16: 2 k-blocks x (4 A + 8 B) operands of 8 bytes, paired or not
    assert set(widths) <= {"ds_read_b64", "ds_read2_b64", "ds_read2st64_b64"}, widths
    assert 12 <= loop["lds_reads"] <= 24, loop
    assert loop["exec_branches"] == 0, loop
    assert kkm_gfx942["scratch_bytes"] == 0
