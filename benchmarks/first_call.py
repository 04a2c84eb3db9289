"""Cold build time of one specialization, and time to first result from a warm cache.

    python benchmarks/first_call.py [--sample samples/elementwise_add.py] [--target cpu]
                                    [--runs 3]

Every figure comes from a fresh process:
  * one-time: with an empty shared cache, building what every specialization of the target and
    compiler shares (bbx's launcher module; on the CPU target the prebuilt header library:
    simulator runtime object and precompiled header) — once per compiler, flags and header
    library;
  * cold: with the shared part built and an empty specialization cache, from the sample
    module's import to the first result of its jit function (translate, build, load, run),
    `--runs` times, each with a new specialization cache (min and median printed), and the CPU
    time of the compiler processes;
  * warm: the same with the specialization cache filled — what bbx adds beyond imports
    (torch, bbx.hook, the DSL shim) and the tensors' creation; the kernel's own time (a second
    call) is printed beside.
The yardstick is `g++ -O2 -c` of an empty file timed in the same run, and the load average is
printed: on a shared machine, compare figures taken together.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PREPARE = r"""
import json, time
t0 = time.perf_counter()
from bbx.runtime.native import launcher_module
from bbx.runtime.prebuilt import prebuilt_for
from bbx.targets.registry import default_target
launcher_module()
prebuilt_for(default_target())
print(json.dumps({"one_time_s": time.perf_counter() - t0}))
"""

CHILD = r"""
import importlib.util, json, resource, sys, time
t0 = time.perf_counter()
import torch
import bbx.hook
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack
bbx.hook.install()
device = "cuda" if sys.argv[2] == "cuda" else "cpu"
a, b = torch.randn(1000, 515, device=device), torch.randn(1000, 515, device=device)
c = torch.full_like(a, float("nan"))
t1 = time.perf_counter()
spec = importlib.util.spec_from_file_location("sample_under_test", sys.argv[1])
sample = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sample)
args = [from_dlpack(t).mark_layout_dynamic() for t in (a, b, c)]
sample.elementwise_add(*args)
if device == "cuda":
    torch.cuda.synchronize()
t2 = time.perf_counter()
sample.elementwise_add(*args)
if device == "cuda":
    torch.cuda.synchronize()
t3 = time.perf_counter()
assert torch.allclose(c, a + b)
cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"imports_s": t1 - t0, "first_result_s": t2 - t1, "second_call_s": t3 - t2,
                  "compiler_cpu_s": cpu.ru_utime + cpu.ru_stime}))
"""


def run_child(code: str, args: list[str], env: dict[str, str]) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"first_call: the child failed:\n{proc.stdout}{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def yardstick_s(directory: Path) -> float:
    empty = directory / "empty.cpp"
    empty.write_text("")
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(["g++", "-O2", "-c", str(empty), "-o", str(directory / "empty.o")],
                       check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=Path, default=ROOT / "samples" / "elementwise_add.py")
    parser.add_argument("--target", default="cpu")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bbx-first-call-") as tmp:
        root = Path(tmp)
        env = {**os.environ, "BBX_TARGET": args.target,
               "BBX_SHARED_CACHE_DIR": str(root / "shared")}
        for name in ("BBX_CHECK_ARGS", "BBX_SIM_CHECK"):
            env.pop(name, None)
        stick = yardstick_s(root)
        one_time = run_child(PREPARE, [], {**env, "BBX_CACHE_DIR": str(root / "unused")})
        colds = []
        for run in range(args.runs):
            cache = root / f"cache{run}"
            colds.append(run_child(CHILD, [str(args.sample), args.target],
                                   {**env, "BBX_CACHE_DIR": str(cache)}))
        warm = run_child(CHILD, [str(args.sample), args.target],
                         {**env, "BBX_CACHE_DIR": str(root / "cache0")})
        stick_after = yardstick_s(root)
    cold_s = [c["first_result_s"] for c in colds]
    cpu_s = [c["compiler_cpu_s"] for c in colds]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"target {args.target}, {args.sample.name}: elementwise_add on f32 1000x515 "
          f"({os.cpu_count()} cores, load average {load})")
    print(f"  yardstick: g++ -O2 -c of an empty file {stick:.3f} s "
          f"({stick_after:.3f} s after the runs)")
    print(f"  one-time (launcher module, prebuilt header library): {one_time['one_time_s']:.1f} s")
    print(f"  cold: build + first result min {min(cold_s):.2f} s, median "
          f"{statistics.median(cold_s):.2f} s over {len(cold_s)} runs (compiler CPU median "
          f"{statistics.median(cpu_s):.2f} s)   (target <= 3 s)")
    print(f"  warm: imports {warm['imports_s']:.2f} s, first result beyond imports "
          f"{1e3 * warm['first_result_s']:.1f} ms, of which the kernel (a second call) "
          f"{1e3 * warm['second_call_s']:.1f} ms   (target <= 20 ms)")


if __name__ == "__main__":
    main()
