"""Issue 33: every tensor argument is checked before anything can abort, and a refusal is one
located message (`file:line:col: error: ...`) naming the argument — never a traceback, never a
crash inside torch's DLPack import.

Each case runs `bbx run` on a small driver in its own process (a crash would be an exit by
signal); cases that need a built specialization share one cache.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

DRIVER = textwrap.dedent(
    """
    import importlib.util, sys
    import numpy as np
    import torch
    import bbx.hook
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import from_dlpack, make_ptr

    spec = importlib.util.spec_from_file_location("elementwise_add", sys.argv[1])
    sample = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sample)

    def dyn(t):
        return from_dlpack(t, assumed_align=16).mark_layout_dynamic(leading_dim=1)

    case = sys.argv[2]
    if case == "numpy-negative-stride":
        flipped = np.arange(64, dtype=np.float32).reshape(8, 8)[::-1]
        from_dlpack(flipped)
    elif case == "numpy-complex":
        from_dlpack(np.ones(8, dtype=np.complex64))
    elif case == "torch-complex":
        from_dlpack(torch.randn(4, 4, dtype=torch.complex64))
    elif case == "sparse":
        from_dlpack(torch.eye(4).to_sparse())
    elif case == "misaligned":
        view = torch.randn(65)[1:]
        from_dlpack(view, assumed_align=16)
    elif case == "align-not-power":
        from_dlpack(torch.randn(64), assumed_align=12)
    elif case == "pointer-misaligned":
        storage = torch.zeros(64, dtype=torch.float16)
        make_ptr(cutlass.Float16, storage.data_ptr() + 2, assumed_align=16)
    elif case == "negated-view":
        a = torch.randn(8, 16)
        sample.elementwise_add(a, a, torch.randn(8, 16, dtype=torch.complex64).conj().imag)
    elif case == "direct-complex":
        a = torch.randn(8, 16)
        sample.elementwise_add(a, a, torch.zeros(8, 16, dtype=torch.complex64))
    elif case == "direct-numpy":
        a = torch.randn(8, 16)
        sample.elementwise_add(a, a, np.zeros((8, 16), dtype=np.float32))
    elif case in ("compiled-sparse", "numpy-computes"):
        a, b = torch.randn(8, 16), torch.randn(8, 16)
        c = torch.full_like(a, float("nan"))
        compiled = cute.compile(sample.elementwise_add, dyn(a), dyn(b), dyn(c))
        if case == "compiled-sparse":
            compiled(dyn(a), dyn(b), c.to_sparse())
        else:  # numpy arrays through DLPack: the kernel reads and writes their memory
            x, y = torch.randn(8, 16).numpy(), torch.randn(8, 16).numpy()
            out = np.full_like(x, np.nan)
            compiled(dyn(x), dyn(y), dyn(out))
            assert np.array_equal(out, x + y), (out, x + y)
            print("OK computed")
            sys.exit(0)
    print("LAUNCHED")
    """
)

MC = "argument 'mC' of elementwise_add"

#: case -> (the driver's line the error must point at, words the message must contain)
REFUSED = {
    "numpy-negative-stride": ("from_dlpack(flipped)", [
        "from_dlpack(flipped)", "numpy.ndarray with a negative stride", "stride -8",
        "ascontiguousarray"]),
    "numpy-complex": ("from_dlpack(np.ones(", ["complex elements"]),
    "torch-complex": ("from_dlpack(torch.randn(", ["dtype complex64", "view_as_real"]),
    "sparse": ("from_dlpack(torch.eye(4)", ["sparse_coo tensor", "to_dense()"]),
    "misaligned": ("from_dlpack(view, assumed_align=16)", [
        "from_dlpack(view, assumed_align=16)", "is not divisible by assumed_align=16",
        "aligned to 4 bytes"]),
    "align-not-power": ("assumed_align=12)", ["assumed_align=12 is not a power of two"]),
    "pointer-misaligned": ("make_ptr(", [
        "make_ptr(storage.data_ptr() + 2, assumed_align=16)", "aligned to 2 bytes"]),
    "negated-view": (".conj().imag)", [MC, "resolve_neg()"]),
    "direct-complex": ("torch.zeros(8, 16, dtype=torch.complex64)", [MC, "dtype complex64"]),
    "direct-numpy": ("dtype=np.float32))", [MC, "numpy.ndarray", "from_dlpack(x)"]),
}


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bbx-cache")


def _run(case: str, cache_dir: Path,
         tmp_path: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    env = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu"}
    env.pop("BBX_TRACEBACK", None)
    proc = subprocess.run(
        [sys.executable, "-m", "bbx.cli", "run", str(driver),
         str(ROOT / "samples" / "elementwise_add.py"), case],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=900)
    assert proc.returncode in (0, 1), f"exit {proc.returncode}:\n{proc.stdout[-4000:]}"
    assert "Traceback" not in proc.stdout, proc.stdout[-4000:]
    return driver, proc


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_bad_tensor_argument_is_one_located_message(case: str, cache_dir: Path,
                                                    tmp_path: Path) -> None:
    driver, proc = _run(case, cache_dir, tmp_path)
    assert proc.returncode == 1, proc.stdout[-4000:]
    assert "LAUNCHED" not in proc.stdout
    line_text, words = REFUSED[case]
    line = next(i for i, text in enumerate(DRIVER.splitlines(), start=1) if line_text in text)
    assert re.match(rf"{re.escape(str(driver))}:{line}:\d+: error: ", proc.stdout), proc.stdout
    assert proc.stdout.rstrip().endswith("^"), proc.stdout  # the source line and a caret
    for word in words:
        assert word in proc.stdout, proc.stdout


def test_sparse_tensor_given_to_a_compiled_function_is_refused(cache_dir: Path,
                                                               tmp_path: Path) -> None:
    _, proc = _run("compiled-sparse", cache_dir, tmp_path)
    assert proc.returncode == 1 and "LAUNCHED" not in proc.stdout, proc.stdout[-4000:]
    assert "argument 'mC'" in proc.stdout and "sparse_coo tensor" in proc.stdout, proc.stdout


def test_numpy_arrays_through_dlpack_compute_right(cache_dir: Path, tmp_path: Path) -> None:
    _, proc = _run("numpy-computes", cache_dir, tmp_path)
    assert proc.returncode == 0 and "OK computed" in proc.stdout, proc.stdout[-4000:]
