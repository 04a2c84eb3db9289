"""Build and numeric helpers shared by the MMA tests (tests/mma/); imported by name (not through
conftest, whose module name other test directories share)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bbx.targets import toolchain

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
INCLUDE = ROOT / "runtime_cpp" / "include"
KERNELS = HERE / "kernels"


def build_host(source: Path, out: Path, extra: list[str] | None = None) -> Path:
    """Compile a simulator program (g++ -O1; the simulator is header-only)."""
    try:
        cmd = toolchain.host_command(
            source, out, opt="-O1", extra_includes=[KERNELS], extra_flags=extra or []
        )
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout[-8000:]}"
    return out


def build_amd(source: Path, out: Path, arch: str,
              extra_flags: list[str] | None = None) -> tuple[dict[str, str], str]:
    """Compile a device test kernel for `arch` (clang-22, device only) and return its functions'
    disassembly by symbol and the code object's notes (llvm-readelf --notes); skips the test
    where the AMD tools are not installed."""
    objdump = toolchain.objdump()
    readelf = shutil.which("llvm-readelf-22") or shutil.which("llvm-readelf")
    if toolchain.amd_compiler() is None or objdump is None or readelf is None:
        pytest.skip("clang++-22 / llvm-objdump-22 / llvm-readelf-22 not installed")

    def run(cmd: list[str]) -> str:
        res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             check=False)
        assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout[-8000:]}"
        return res.stdout

    run(toolchain.amd_device_command(source, out, arch, extra_includes=[KERNELS],
                                     extra_flags=extra_flags or []))
    functions: dict[str, str] = {}
    name = None
    for line in run([objdump, "-d", str(out)]).splitlines():
        m = re.match(r"^[0-9a-f]+ <(\S+)>:", line)
        if m:
            name = m.group(1)
            functions[name] = ""
        elif name:
            functions[name] += line + "\n"
    return functions, run([readelf, "--notes", str(out)])


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bit patterns, rounding to nearest even."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return (((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF).astype(np.uint16)


def gemm_inputs(dtype: str, m: int, n: int, k: int, seed: int) -> tuple[np.ndarray, ...]:
    """Random A (m x k), B (n x k) as 16-bit patterns and their exact float64 values."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((n, k)).astype(np.float32)
    if dtype == "f16":
        a16, b16 = a.astype(np.float16), b.astype(np.float16)
        return (
            a16.view(np.uint16),
            b16.view(np.uint16),
            a16.astype(np.float64),
            b16.astype(np.float64),
        )
    ab, bb = bf16_bits(a), bf16_bits(b)
    av = (ab.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    bv = (bb.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return ab, bb, av, bv


def gemm_result(res: subprocess.CompletedProcess[str], m: int, n: int) -> np.ndarray:
    """C printed as hex f32 words, row-major."""
    assert res.returncode == 0, res.stderr
    words = np.array([int(x, 16) for x in res.stdout.split()], dtype=np.uint32)
    return words.view(np.float32).astype(np.float64).reshape(m, n)


def assert_gemm(c: np.ndarray, av: np.ndarray, bv: np.ndarray) -> None:
    """C == A @ B^T up to f32 accumulation: at most K roundings of partial sums bounded by
    sum |a||b|."""
    ref = av @ bv.T
    mag = np.abs(av) @ np.abs(bv).T
    k = av.shape[1]
    bound = (k + 2) * 2.0**-24 * mag
    bad = np.abs(c - ref) > bound
    assert not bad.any(), (
        f"{int(bad.sum())} wrong; worst {np.abs(c - ref).max()} (bound {bound.max()})"
    )
