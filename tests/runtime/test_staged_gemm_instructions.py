"""Staged execution generates GEMM code as fast as the translated path (issue 27, "same speed"),
checked without a GPU: NVIDIA's tensorop_gemm.py (fp16, M-major A, N-major B and C, the upstream
script's defaults) specialized both ways, compiled to sm_80 PTX (nvcc) and to gfx942 machine code
(clang-22, disassembled by llvm-objdump), and the memory instructions of the main kernel counted:

* CUDA: ldmatrix for the LdMatrix shared-to-register copies, 16-byte cp.async for the global-to-
  shared ones, and vector (not 16-bit) shared-memory loads and stores, as many as translated;
* gfx942: as many 128-bit LDS reads and global loads, no 16-bit LDS writes beyond the translated
  path's, and no scratch.

Skipped without the corpus or the compilers."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from bbx.runtime.bundle import BuildRequest, generate
from bbx.targets.registry import parse_target

ROOT = Path(__file__).resolve().parents[2]
#: the corpus as tests/shim/test_upstream_scripts.py finds it (a worktree under /work/wt too)
CORPUS = next((p for p in (Path(os.environ.get("BBX_CUTLASS_CORPUS", "/nonexistent")),
                           ROOT.parent / "shared" / "corpus" / "cutlass",
                           ROOT.parent.parent / "shared" / "corpus" / "cutlass") if p.is_dir()),
              ROOT.parent / "shared" / "corpus" / "cutlass")
SCRIPT = CORPUS / "cute" / "ampere" / "kernel" / "dense_gemm" / "tensorop_gemm.py"
INCLUDE = ROOT / "runtime_cpp" / "include"
OBJDUMP = next((p for p in ("/usr/lib/llvm-22/bin/llvm-objdump", shutil.which("llvm-objdump-22"))
                if p and Path(p).is_file()), None)

INIT = ("ab_dtype=cutlass.Float16", "c_dtype=cutlass.Float16", "acc_dtype=cutlass.Float32",
        "atom_layout_mnk=(2, 2, 1)")
#: the arguments TensorOpGemm.__call__ gets from `bmm` (M-major A, N-major B and C), 16-byte
#: aligned with strides divisible by 8, as torch allocates them
ARGS = ("f16[?,?,?]:stride(1,?{div=8},?{div=8})@16", "f16[?,?,?]:stride(1,?{div=8},?{div=8})@16",
        "f16[?,?,?]:stride(?{div=8},1,?{div=8})@16")


def _sources(target: str, staged: bool, out: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The specialization's unit and module in `out`; returns the unit."""
    monkeypatch.setenv("BBX_STAGED", "1" if staged else "0")
    generated = generate(BuildRequest(SCRIPT, "TensorOpGemm", parse_target(target), ARGS,
                                      init=INIT, output=out))
    out.mkdir(parents=True, exist_ok=True)
    for name, text in generated.texts.items():
        (out / name).write_text(text)
    unit = out / "unit.cpp"
    unit.write_text(generated.unit.text)
    return unit


def _run(command: list[str]) -> None:
    proc = subprocess.run(command, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _ptx_counts(unit: Path) -> Counter[str]:
    ptx = unit.with_suffix(".ptx")
    _run(["nvcc", "-std=c++20", "-arch=sm_80", "-O3", "--expt-relaxed-constexpr", "-x", "cu",
          "-DBBX_DEVICE_ONLY_UNIT", f"-I{INCLUDE}", f"-I{unit.parent}", "-ptx", str(unit),
          "-o", str(ptx)])
    kernels = re.split(r"^\.(?:visible )?\.?entry", ptx.read_text(), flags=re.M)[1:]
    main = max(kernels, key=len)  # the GEMM kernel
    return Counter({
        "ldmatrix": len(re.findall(r"\bldmatrix\.", main)),
        "cp.async 16B": len(re.findall(r"cp\.async\.c[ag]\.shared\.global\S* \[[^]]*\], "
                                       r"\[[^]]*\], 16", main)),
        "ld.shared.u16": len(re.findall(r"\bld\.shared\.[bu]16\b", main)),
        "st.shared.u16": len(re.findall(r"\bst\.shared\.[bu]16\b", main)),
        "ld.global": len(re.findall(r"\bld(?:\.global)?\.[bu]16\b", main)),
    })


def _gfx942_counts(unit: Path) -> Counter[str]:
    obj = unit.with_suffix(".o")
    _run(["clang++-22", "-std=c++20", "-x", "hip", "--offload-arch=gfx942",
          "--offload-device-only", "-nogpuinc", "-nogpulib", "--no-gpu-bundle-output",
          "-DBBX_HEADER_FREE", "-O3", "-mcode-object-version=5", "-DBBX_DEVICE_ONLY_UNIT",
          f"-I{INCLUDE}", f"-I{unit.parent}", "-c", str(unit), "-o", str(obj)])
    assert OBJDUMP is not None
    text = subprocess.run([OBJDUMP, "-d", "--mcpu=gfx942", str(obj)], capture_output=True,
                          text=True, check=True).stdout
    ops = Counter(m.group(1) for m in re.finditer(r"^\s+([a-z_0-9]+)\s", text, flags=re.M))
    return Counter({
        "ds_read_b128": ops["ds_read_b128"],
        "global/flat dwordx4 loads": ops["global_load_dwordx4"] + ops["flat_load_dwordx4"],
        "ds_write_b16": ops["ds_write_b16"],
        "ds_read_u16": ops["ds_read_u16"],
        "scratch": sum(n for op, n in ops.items() if op.startswith("scratch_")),
    })


needs_corpus = pytest.mark.skipif(not SCRIPT.is_file(), reason=f"no corpus script {SCRIPT}")


@needs_corpus
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_cuda_memory_instructions_match_translated(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    staged = _ptx_counts(_sources("cuda", True, tmp_path / "staged", monkeypatch))
    translated = _ptx_counts(_sources("cuda", False, tmp_path / "translated", monkeypatch))
    assert translated["ldmatrix"] > 0 and translated["cp.async 16B"] > 0, translated
    assert staged["ldmatrix"] >= translated["ldmatrix"], (staged, translated)
    assert staged["cp.async 16B"] >= translated["cp.async 16B"], (staged, translated)
    for narrow in ("ld.shared.u16", "st.shared.u16", "ld.global"):
        assert staged[narrow] <= translated[narrow], (narrow, staged, translated)


@needs_corpus
@pytest.mark.skipif(shutil.which("clang++-22") is None or OBJDUMP is None,
                    reason="no clang++-22 / llvm-objdump (LLVM 22)")
def test_gfx942_memory_instructions_match_translated(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    staged = _gfx942_counts(_sources("gfx942", True, tmp_path / "staged", monkeypatch))
    translated = _gfx942_counts(_sources("gfx942", False, tmp_path / "translated", monkeypatch))
    assert translated["ds_read_b128"] > 0 and translated["global/flat dwordx4 loads"] > 0
    for wide in ("ds_read_b128", "global/flat dwordx4 loads"):
        assert staged[wide] >= translated[wide], (wide, staged, translated)
    for narrow in ("ds_write_b16", "ds_read_u16"):
        assert staged[narrow] <= translated[narrow], (narrow, staged, translated)
    assert staged["scratch"] == 0, staged
