"""The host side of upstream scripts on an NVIDIA GPU (CUDA target), for a call of the lent
machine. Prints numbers and verdicts; exits non-zero if a check fails.

    python3 benchmarks/device/host_api_check.py [--corpus DIR]

1. ``testing.benchmark`` against torch's own events: a GPU busy-wait (``torch.cuda._sleep``) of
   known length timed both ways, on the default stream and on a side stream passed as a
   ``CUstream`` (the benchmark must record its events on that stream); ratio ~1.
2. ``tests/shim/scripts/upstream_style_add.py`` end to end through ``bbx run`` (CUstream
   parameters, fake tensors, ``stream_sync``, benchmark with L2 flush), f32 and f16.
3. With ``--corpus`` (NVIDIA's examples, not in this repository): issue 14's acceptance list
   through ``bbx run``, and ``elementwise_add.py --M 16384 --N 16384 --benchmark`` next to a
   device copy measured in the same run (GB/s = bytes read + written per second).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ACCEPTANCE = [
    ("experimental/primitives/tutorial/01_hello_world.py", []),
    ("cute/ampere/kernel/elementwise/elementwise_add.py", ["--M", "256", "--N", "384"]),
    ("cute/ampere/kernel/elementwise/elementwise_apply.py", ["--M", "256", "--N", "384"]),
    ("cute/hopper/kernel/cta_norm/cta_norm.py", ["--norm_type", "rms", "--M", "8", "--N", "256"]),
    ("cute/hopper/kernel/cta_norm/cta_norm.py", ["--norm_type", "layer", "--M", "8", "--N",
                                                  "256"]),
    ("dsl_tutorials/smem_allocator.py", []),
    ("dsl_tutorials/dynamic_smem_size.py", []),
    ("dsl_tutorials/dataclass_immutable.py", []),
    ("experimental/primitives/reduction/block_smem_reduce.py", []),
    ("experimental/primitives/reduction/thread_vector_reduce.py", []),
    ("experimental/primitives/reduction/warp_vector_reduce.py", []),
    ("experimental/primitives/shfl_sync.py", []),
    ("experimental/primitives/barrier_cta_sync.py", []),
    ("experimental/primitives/tutorial/07_vectorized_array.py", []),
]


def bbx_run(script: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BBX_TARGET": "cuda"}
    return subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(script), *args], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=900, check=False)


def check_benchmark_timing() -> bool:
    import importlib

    import torch

    importlib.import_module("bbx.hook")  # serves `cutlass`, and `cuda.bindings` where absent
    cuda = importlib.import_module("cuda.bindings.driver")
    testing = importlib.import_module("cutlass.cute.testing")

    cycles = 2_000_000
    ok = True
    for label, side in (("default stream", None), ("side stream", torch.cuda.Stream())):
        def busy(side: Any = side) -> None:
            if side is None:
                torch.cuda._sleep(cycles)
            else:
                with torch.cuda.stream(side):
                    torch.cuda._sleep(cycles)

        stream = None if side is None else cuda.CUstream(side.cuda_stream)
        ours_us = testing.benchmark(busy, kernel_arguments=testing.JitArguments(),
                                    warmup_iterations=3, iterations=20, stream=stream)
        reference = side or torch.cuda.current_stream()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record(reference)
        for _ in range(20):
            busy()
        end.record(reference)
        end.synchronize()
        torch_us = start.elapsed_time(end) * 1e3 / 20
        ratio = ours_us / torch_us
        good = 0.9 <= ratio <= 1.1
        ok &= good
        print(f"benchmark ({label}): {ours_us:.1f} us, torch events {torch_us:.1f} us, "
              f"ratio {ratio:.3f} {'OK' if good else 'FAIL'}")
    return ok


def check_upstream_style() -> bool:
    ok = True
    for args in (["--M", "1000", "--N", "4104"], ["--dtype", "Float16", "--M", "333",
                                                   "--N", "520"]):
        done = bbx_run(ROOT / "tests" / "shim" / "scripts" / "upstream_style_add.py", args)
        good = done.returncode == 0 and done.stdout.rstrip().endswith("PASS")
        ok &= good
        print(f"upstream_style_add.py {' '.join(args)}: {'PASS' if good else 'FAIL'}")
        print("  " + "\n  ".join(done.stdout.strip().splitlines()[-6:]))
    return ok


def copy_gbps(m: int, n: int) -> float:
    import torch

    src = torch.randn(m, n, device="cuda")
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(50):
        dst.copy_(src)
    end.record()
    end.synchronize()
    seconds = start.elapsed_time(end) / 1e3 / 50
    return 2 * src.numel() * src.element_size() / seconds / 1e9


def check_corpus(corpus: Path) -> bool:
    ok = True
    for script, args in ACCEPTANCE:
        done = bbx_run(corpus / script, args)
        good = done.returncode == 0
        ok &= good
        last = done.stdout.strip().splitlines()[-1:] or [""]
        print(f"{script} {' '.join(args)}: exit {done.returncode} | {last[0][:160]}")
    done = bbx_run(corpus / "cute/ampere/kernel/elementwise/elementwise_add.py",
                   ["--M", "16384", "--N", "16384", "--benchmark", "--iterations", "200"])
    found = re.search(r"Achieved memory throughput: ([\d.]+) GB/s", done.stdout)
    copy = copy_gbps(16384, 16384)
    if found:
        ours = float(found.group(1))
        print(f"elementwise_add 16384x16384 f32: {ours:.0f} GB/s; device copy {copy:.0f} GB/s; "
              f"{100 * ours / copy:.1f}% of copy (acceptance: >= 95%)")
        ok &= ours >= 0.95 * copy
    else:
        ok = False
        print("elementwise_add --benchmark did not report a throughput:\n" + done.stdout[-2000:])
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    os.environ["BBX_TARGET"] = "cuda"
    import torch

    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    ok = check_benchmark_timing()
    ok &= check_upstream_style()
    if args.corpus is not None:
        ok &= check_corpus(args.corpus)
    print("ALL OK" if ok else "SOME CHECKS FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
