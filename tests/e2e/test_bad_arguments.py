"""Arguments that do not match a specialization are refused before any launch, with a message
naming the argument: wrong dtype, rank, device, and a non-unit stride where the
specialization has a static unit stride."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

DRIVER = textwrap.dedent(
    """
    import importlib.util, sys, torch
    import bbx.hook
    from cutlass.cute.runtime import from_dlpack
    import cutlass.cute as cute

    spec = importlib.util.spec_from_file_location("elementwise_add", sys.argv[1])
    sample = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sample)

    def dyn(t):
        return from_dlpack(t, assumed_align=16).mark_layout_dynamic(leading_dim=1)

    a, b = torch.randn(8, 16), torch.randn(8, 16)
    c = torch.full_like(a, float("nan"))
    compiled = cute.compile(sample.elementwise_add, dyn(a), dyn(b), dyn(c))
    case = sys.argv[2]
    if case == "dtype":
        bad = dyn(torch.randn(8, 16, dtype=torch.float64))
    elif case == "rank":
        bad = from_dlpack(torch.randn(8 * 16)).mark_layout_dynamic()
    elif case == "stride":
        bad = from_dlpack(torch.randn(16, 8).t()).mark_layout_dynamic(leading_dim=0)
    elif case == "device":
        bad = dyn(torch.randn(8, 16, device="meta"))
    compiled(dyn(a), dyn(b), bad)
    print("LAUNCHED")
    """
)

EXPECTED = {
    "dtype": ["'mC'", "f32", "f64"],
    "rank": ["'mC'", "rank"],
    "stride": ["'mC'", "stride"],
    "device": ["'mC'", "meta"],
}


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bbx-cache")


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_bad_argument_is_refused_before_launch(case: str, cache_dir: Path,
                                               tmp_path: Path) -> None:
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    env = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu"}
    proc = subprocess.run(
        [sys.executable, "-m", "bbx.cli", "run", str(driver),
         str(ROOT / "samples" / "elementwise_add.py"), case],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stdout[-4000:]
    assert "LAUNCHED" not in proc.stdout
    assert "Traceback" not in proc.stdout, proc.stdout[-4000:]
    message = proc.stdout.strip().splitlines()[-1]
    for word in EXPECTED[case]:
        assert word in message, message
