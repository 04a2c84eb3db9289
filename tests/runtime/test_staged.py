"""Staged execution end to end (BBX_STAGED=1, issue 27): `bbx run` runs a script whose jit function
is traced — its Python runs, the kernels it launches become C++ kernels — built and launched on
the simulator. Scripts are written per test with fresh random constants; what the kernels print
is compared with the same computation in Python."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

KERNELS = '''
import cutlass
import cutlass.cute as cute


class Printer:
    """Trace-time state on `self`: the kernel is a method, its launches counted in Python."""

    def __init__(self, scales):
        self.scales = scales
        self.launches = 0

    @cute.kernel
    def kernel(self, n: cutlass.Int32, offset: cutlass.Int32, scale: float):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        bdim, _, _ = cute.arch.block_dim()
        i = bidx * bdim + tidx
        if i < n:
            cute.printf("value {} {} {}", i, i * 3 + offset, scale)

    @cute.jit
    def __call__(self, n: cutlass.Int32, offset: cutlass.Int32):
        for scale in self.scales:  # a Python list: one kernel per scale
            self.kernel(n, offset, scale).launch(grid=[BLOCKS, 1, 1], block=[THREADS, 1, 1])
            self.launches += 1
'''

DRIVER = '''
import cutlass
from kernels import Printer

printer = Printer({scales})
printer(cutlass.Int32({n}), cutlass.Int32({offset}))
print("launches", printer.launches)
'''


def _run(tmp_path: Path, files: dict[str, str]) -> subprocess.CompletedProcess[str]:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu",
           "BBX_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(tmp_path / "driver.py")],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)


def test_a_traced_method_kernel_launched_per_python_value(tmp_path: Path) -> None:
    rng = random.Random()
    blocks, threads = rng.randint(1, 3), rng.choice([4, 8])
    n, offset = rng.randint(1, blocks * threads), rng.randint(-50, 50)
    scales = [round(rng.uniform(0.1, 9.9), 2) for _ in range(rng.randint(1, 3))]
    kernels = KERNELS.replace("BLOCKS", str(blocks)).replace("THREADS", str(threads))
    proc = _run(tmp_path, {"kernels.py": kernels, "driver.py": DRIVER.format(
        scales=scales, n=n, offset=offset)})
    assert proc.returncode == 0, proc.stdout
    printed = sorted(line for line in proc.stdout.splitlines() if line.startswith("value"))
    expected = sorted(f"value {i} {i * 3 + offset} {s}" for s in scales for i in range(n))
    assert printed == expected, proc.stdout
    assert f"launches {len(scales)}" in proc.stdout  # trace-time mutation of self, once


def test_thread_indices_in_a_host_function_are_a_located_error(tmp_path: Path) -> None:
    proc = _run(tmp_path, {"driver.py": '''
        import cutlass
        import cutlass.cute as cute


        @cute.jit
        def host(n: cutlass.Int32):
            tidx, _, _ = cute.arch.thread_idx()


        host(cutlass.Int32(4))
    '''})
    assert proc.returncode == 1, proc.stdout
    assert "driver.py:8:" in proc.stdout and "cute.arch.thread_idx() in a host function" \
        in proc.stdout, proc.stdout
    assert "Traceback" not in proc.stdout


def test_a_name_not_traced_yet_is_a_located_error(tmp_path: Path) -> None:
    proc = _run(tmp_path, {"driver.py": '''
        import cutlass
        import cutlass.cute as cute


        @cute.kernel
        def kernel(n: cutlass.Int32):
            crd = cute.slice_and_offset(n)


        @cute.jit
        def host(n: cutlass.Int32):
            kernel(n).launch(grid=[1, 1, 1], block=[64, 1, 1])


        host(cutlass.Int32(4))
    '''})
    assert proc.returncode == 1, proc.stdout
    assert "driver.py:8:" in proc.stdout and "cute.slice_and_offset is not traced yet" \
        in proc.stdout, proc.stdout
    assert "in the kernel launched at driver.py:13" in proc.stdout, proc.stdout
    assert "Traceback" not in proc.stdout


SAMPLES = sorted(p.stem for p in (ROOT / "samples").glob("*.py"))


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_sample_passes_its_own_check_by_staged_execution(sample: str,
                                                               tmp_path: Path) -> None:
    """Each sample (its kernels, a driver that checks them against torch on random inputs)
    traced instead of translated, on the simulator."""
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu",
           "BBX_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(ROOT / "samples" /
                                                                       f"{sample}.py")],
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=900)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-4000:]


def test_a_library_package_runs_as_written(tmp_path: Path) -> None:
    """tests/runtime/staged_library: inheritance across modules, plain helpers (a `partial`
    with a keyword), a dataclass config, `math.log2`, `assert` and `isinstance` on trace-time
    values, a jit helper returning tensors, trace-time mutation of `self`, `t[row, ...]` from a
    monkey-patch of the DSL's tensor class, and a wrapped `DSLPreprocessor.visit_If` — checked
    against torch on random shapes (the driver asserts)."""
    library = ROOT / "tests" / "runtime" / "staged_library"
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu",
           "BBX_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(library)}
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(library / "driver.py")],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-4000:]
