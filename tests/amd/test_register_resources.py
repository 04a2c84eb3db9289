"""Register tensors stay in registers (issue 30): kernels whose register tensors are indexed with
constants after unrolling build with no scratch on gfx942 and no stack frame on sm_90.

* `kernels/register_fragments.py`, an attention-style kernel (fragments passed to a large helper
  called from three sites, range_constexpr loops, row views, TensorSSA rescaling): correct on the
  simulator against numpy; 0 scratch on gfx942 and a 0-byte stack frame on sm_90 (nvcc), also
  with the compilers' own inlining heuristics switched off (clang -fno-inline, nvcc -Xcicc
  -disable-inlining: only always_inline functions are inlined). That is the guard of
  bbx/config.hpp's BBX_INLINE: a device function or lambda of the header library or of generated
  code that is not always inlined stays a call there, takes the fragments by address and puts
  them in scratch/local memory (as nvcc did with flash attention's per-block helper, 3,920 bytes
  of stack per thread, before BBX_INLINE).
* NVIDIA's tensorop_gemm (bf16, both operand majors) and sgemm, unmodified from the corpus: 0
  scratch on gfx942 (the samples are checked by test_samples_amd.py).
* The ptxas report parser on ptxas's own output format.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bbx.targets import ptxas_report

ROOT = Path(__file__).resolve().parents[2]
KERNEL = Path(__file__).parent / "kernels" / "register_fragments.py"
FRAGMENT_ARGS = ("f32[?,?,?]:stride(?,?,1)@16", "f32[?,?,?]:stride(?,?,1)@16",
                 "f32[?,?]:stride(?,1)@16")
CORPUS = Path(os.environ.get("BBX_CUTLASS_CORPUS", ROOT.parent / "shared" / "corpus" / "cutlass"))
GEMMS = {
    "tensorop_gemm bf16 kkm": (
        "cute/ampere/kernel/dense_gemm/tensorop_gemm.py:TensorOpGemm",
        ("bf16[?,?{div=8},?]:stride(?{div=8},1,?{div=8})@16",) * 2
        + ("bf16[?{div=8},?,?]:stride(1,?{div=8},?{div=8})@16",),
        ("ab_dtype=cutlass.BFloat16", "c_dtype=cutlass.BFloat16", "acc_dtype=cutlass.Float32",
         "atom_layout_mnk=(2,2,1)")),
    "tensorop_gemm bf16 mnn": (
        "cute/ampere/kernel/dense_gemm/tensorop_gemm.py:TensorOpGemm",
        ("bf16[?{div=8},?,?]:stride(1,?{div=8},?{div=8})@16",) * 2
        + ("bf16[?,?{div=8},?]:stride(?{div=8},1,?{div=8})@16",),
        ("ab_dtype=cutlass.BFloat16", "c_dtype=cutlass.BFloat16", "acc_dtype=cutlass.Float32",
         "atom_layout_mnk=(2,2,1)")),
    "sgemm f32 mkn": (
        "cute/ampere/kernel/dense_gemm/sgemm.py:SGemm",
        ("f32[?,?]:stride(1,?)@16", "f32[?,?]:stride(?,1)@16", "f32[?,?]:stride(?,1)@16"), ()),
}


def bbx(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bbx.cli", *args], cwd=ROOT,
                          env={**os.environ, "BBX_TRACEBACK": "", **(env or {})},
                          capture_output=True, text=True, timeout=900)


def build(function: str, target: str, out: Path, args: tuple[str, ...],
          init: tuple[str, ...] = ()) -> Path:
    cmd = ["build", function, "--target", target, "-o", str(out)]
    cmd += [a for spec in args for a in ("--arg", spec)]
    cmd += [a for i in init for a in ("--init", i)]
    built = bbx(*cmd)
    assert built.returncode == 0, (built.stdout + built.stderr)[-6000:]
    return out


def amd_kernels(bundle: Path) -> list[dict]:
    inspected = bbx("inspect", str(bundle), "--json")
    assert inspected.returncode == 0, inspected.stderr
    kernels = json.loads(inspected.stdout)["kernels"]
    assert kernels, "no kernel in the code object"
    return kernels


def assert_no_scratch(kernels: list[dict]) -> None:
    for kernel in kernels:
        assert kernel["scratch_bytes"] == 0, kernel
        assert kernel["vgpr_spills"] == 0, kernel
        assert not any(m.startswith("scratch_") for m in kernel["instruction_mix"]), kernel


needs_clang = pytest.mark.skipif(
    shutil.which("clang++-22") is None or shutil.which("llvm-readelf-22") is None,
    reason="clang++-22 / llvm-readelf-22 not installed")


def test_register_fragments_on_the_simulator(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(KERNEL), "--steps", "5"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "BBX_TARGET": "cpu", "BBX_SIM_CHECK": "1",
                               "BBX_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0 and "PASS" in proc.stdout, (proc.stdout + proc.stderr)[-6000:]


def rebuild(bundle: Path, extra: list[str], output: str) -> str:
    """The bundle's compile command again with `extra` flags, writing `output`; its output."""
    (command,) = json.loads((bundle / "manifest.json").read_text())["commands"]
    command = [*command[:command.index("-o")], *extra, "-o", output]
    proc = subprocess.run(command, cwd=bundle, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-6000:]
    return proc.stdout + proc.stderr


@needs_clang
def test_register_fragments_without_scratch_on_gfx942(tmp_path: Path) -> None:
    bundle = build(f"{KERNEL}:register_fragments", "gfx942", tmp_path / "b", FRAGMENT_ARGS)
    assert_no_scratch(amd_kernels(bundle))
    rebuild(bundle, ["-fno-inline"], "no_inline.hsaco")
    assert_no_scratch(amd_kernels(bundle / "no_inline.hsaco"))


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
@pytest.mark.parametrize("inliner", [
    "nvcc",
    # without nvcc's inliner too: by staged execution the kernel has no stack either way (the
    # translated path's had 1,248 bytes since session 11: bbx::detail::tuple_base's
    # constructors stayed calls)
    "off",
])
def test_register_fragments_without_stack_on_sm90(inliner: str, tmp_path: Path) -> None:
    bundle = build(f"{KERNEL}:register_fragments", "cuda", tmp_path / "b", FRAGMENT_ARGS)
    if inliner == "nvcc":
        reports = [ptxas_report.from_bundle(bundle)]
    else:
        reports = [ptxas_report.parse(
            rebuild(bundle, ["-Xcicc", "-disable-inlining"], "no_inline.o"))]
    for (kernel,) in reports:
        assert kernel.arch == "sm_90" and "fragments_kernel" in kernel.symbol
        assert (kernel.stack_bytes, kernel.spill_store_bytes, kernel.spill_load_bytes) == (0, 0, 0)
        # no function of bbx or of the generated code stays a call (CUDA's own math wrappers may,
        # without the inliner: they take scalars)
        assert not [c for c in kernel.calls if "bbx" in c], kernel.calls
        # acc, scores and values (3 x 128 f32) and the row statistics live in registers
        assert kernel.registers > 128, kernel


@needs_clang
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no CUTLASS corpus at {CORPUS}")
@pytest.mark.parametrize("case", list(GEMMS))
def test_corpus_gemm_without_scratch_on_gfx942(case: str, tmp_path: Path) -> None:
    function, args, init = GEMMS[case]
    bundle = build(f"{CORPUS / function}", "gfx942", tmp_path / "b", args, init)
    assert_no_scratch(amd_kernels(bundle))


PTXAS_LOG = """\
ptxas info    : 1 bytes gmem
ptxas info    : Compiling entry function '_Z6kernelPf' for 'sm_90'
ptxas info    : Function properties for _Z6kernelPf
    3920 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 140 registers, used 2 barriers, 3920 bytes cumulative stack size
ptxas info    : Function properties for _Z6helperRA128_f
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_Z5otherv' for 'sm_90'
ptxas info    : Function properties for _Z5otherv
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 6 registers, used 0 barriers
"""


def test_ptxas_report_parser() -> None:
    first, second = ptxas_report.parse(PTXAS_LOG)
    assert (first.symbol, first.arch, first.registers) == ("_Z6kernelPf", "sm_90", 140)
    assert (first.stack_bytes, first.spill_store_bytes, first.spill_load_bytes) == (3920, 8, 12)
    assert first.calls == ["_Z6helperRA128_f"]
    assert (second.symbol, second.registers, second.stack_bytes) == ("_Z5otherv", 6, 0)
