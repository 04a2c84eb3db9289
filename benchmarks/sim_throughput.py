#!/usr/bin/env python3
"""Simulator throughput: compiles benchmarks/sim_throughput.cpp (with the flags of CPU-target
specialization units, toolchain.simulator_flags; Boost.Context back end and, with --ucontext,
the ucontext one) and prints the times of
  * a 1M-element elementwise kernel (256 threads/block)       target < 2 s
  * 64 barriers/block x 1,024 blocks x 256 threads             target < 10 s
  * 32-wide xor-shuffle reductions over 256K threads
Usage: benchmarks/sim_throughput.py [--ucontext] [--threads N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(out: Path, ucontext: bool) -> None:
    from bbx.targets import toolchain

    try:
        cxx = toolchain.simulator_compiler().path
    except FileNotFoundError:
        sys.exit("no C++ compiler")
    cmd = [
        cxx,
        *toolchain.simulator_flags(toolchain.unit_opt("cpu")),
        f"-I{ROOT / 'runtime_cpp' / 'include'}",
        str(ROOT / "benchmarks" / "sim_throughput.cpp"),
        "-o",
        str(out),
        *toolchain.fast_linker_flags(),
    ]
    cmd += ["-DBBX_SIM_UCONTEXT=1"] if ucontext else ["-lboost_context"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    backend = "ucontext" if ucontext else "boost.context"
    print(f"# built {backend} back end in {time.perf_counter() - t0:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ucontext", action="store_true", help="also run the ucontext back end")
    ap.add_argument(
        "--threads", type=int, default=None, help="BBX_SIM_THREADS (default: all cores)"
    )
    args = ap.parse_args()
    env = dict(os.environ)
    env.pop("BBX_SIM_CHECK", None)
    if args.threads:
        env["BBX_SIM_THREADS"] = str(args.threads)
    print(
        f"# host cores: {os.cpu_count()}, BBX_SIM_THREADS={env.get('BBX_SIM_THREADS', 'default')}"
    )
    with tempfile.TemporaryDirectory() as d:
        for uc in [False, True] if args.ucontext else [False]:
            exe = Path(d) / ("bench_uc" if uc else "bench_fc")
            build(exe, uc)
            subprocess.run([str(exe)], check=True, env=env)


if __name__ == "__main__":
    main()
