"""Cold build time of one specialization, and time to first result from a warm cache.

    python benchmarks/first_call.py [--sample samples/elementwise_add.py] [--target cpu]

Runs the sample's jit function twice, each time in a fresh process against the same new cache
directory: the first process builds the specialization (cold), the second finds it (warm).
Each process reports the time for its imports (torch, bbx.hook, the DSL shim) and, separately,
from the sample module's import (translation) to the first result, which is what bbx adds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import importlib.util, json, sys, time
t0 = time.perf_counter()
import torch
import bbx.hook
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack
t1 = time.perf_counter()
spec = importlib.util.spec_from_file_location("sample_under_test", sys.argv[1])
sample = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sample)
a, b = torch.randn(1000, 515), torch.randn(1000, 515)
c = torch.full_like(a, float("nan"))
args = [from_dlpack(t).mark_layout_dynamic() for t in (a, b, c)]
sample.elementwise_add(*args)
t2 = time.perf_counter()
assert torch.allclose(c, a + b)
print(json.dumps({"imports_s": t1 - t0, "first_result_s": t2 - t1}))
"""


def run_once(sample: Path, cache: Path, target: str) -> dict[str, float]:
    env = {**os.environ, "BBX_CACHE_DIR": str(cache), "BBX_TARGET": target}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(sample)], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"first_call: the sample failed:\n{proc.stdout}{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sample", type=Path, default=ROOT / "samples" / "elementwise_add.py")
    parser.add_argument("--target", default="cpu")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bbx-first-call-") as cache:
        cold = run_once(args.sample, Path(cache), args.target)
        warm = run_once(args.sample, Path(cache), args.target)
    print(f"target {args.target}, {args.sample.name}: elementwise_add on f32 1000x515")
    print(f"  cold: imports {cold['imports_s']:.2f} s, build + first result "
          f"{cold['first_result_s']:.2f} s   (target <= 30 s)")
    print(f"  warm: imports {warm['imports_s']:.2f} s, first result beyond imports "
          f"{warm['first_result_s']:.3f} s   (target < 0.5 s)")


if __name__ == "__main__":
    main()
