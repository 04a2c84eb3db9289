#!/usr/bin/env python3
"""Simulator throughput: compiles benchmarks/sim_throughput.cpp (with the flags of CPU-target
specialization units, SimulatorBackend.unit_flags; Boost.Context back end and, with --ucontext,
the ucontext one) and prints the times of
  * a 1M-element elementwise kernel (256 threads/block)       target < 2 s
  * 64 barriers/block x 1,024 blocks x 256 threads             target < 10 s
  * 32-wide xor-shuffle reductions over 256K threads
  * the elementwise kernel over bbx tensors, element accesses and 16-byte vectors, with the
    tensors' spans registered as a specialization registers them (the global bounds check)
Usage: benchmarks/sim_throughput.py [--ucontext] [--threads N] [--headers DIR ...]
`--headers DIR` (repeatable) builds against another copy of runtime_cpp/include, e.g. one of an
earlier commit (`git archive <commit> runtime_cpp | tar -x -C /tmp/base`), so that before and
after are measured in one run; each binary runs once per `--rounds`, alternating.
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


def build(out: Path, ucontext: bool, include: Path) -> None:
    from bbx.targets import toolchain
    from bbx.targets.simulator import SimulatorBackend

    simulator = SimulatorBackend()
    try:
        cxx = simulator.compiler_path()
    except FileNotFoundError:
        sys.exit("no C++ compiler")
    cmd = [
        cxx,
        *simulator.unit_flags(),
        f"-I{include}",
        str(ROOT / "benchmarks" / "sim_throughput.cpp"),
        "-o",
        str(out),
        *toolchain.fast_linker_flags(),
    ]
    cmd += ["-DBBX_SIM_UCONTEXT=1"] if ucontext else ["-lboost_context"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    backend = "ucontext" if ucontext else "boost.context"
    print(f"# built {backend} back end against {include} in {time.perf_counter() - t0:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ucontext", action="store_true", help="also run the ucontext back end")
    ap.add_argument(
        "--threads", type=int, default=None, help="BBX_SIM_THREADS (default: all cores)"
    )
    ap.add_argument("--headers", type=Path, action="append", default=None,
                    help="a runtime_cpp/include to build against (repeatable; default: this one)")
    ap.add_argument("--rounds", type=int, default=1, help="runs of each binary, alternating")
    args = ap.parse_args()
    includes = args.headers or [ROOT / "runtime_cpp" / "include"]
    env = dict(os.environ)
    env.pop("BBX_SIM_CHECK", None)
    if args.threads:
        env["BBX_SIM_THREADS"] = str(args.threads)
    print(
        f"# host cores: {os.cpu_count()}, BBX_SIM_THREADS={env.get('BBX_SIM_THREADS', 'default')}"
    )
    with tempfile.TemporaryDirectory() as d:
        exes = []
        for k, include in enumerate(includes):
            for uc in [False, True] if args.ucontext else [False]:
                exe = Path(d) / f"bench{k}_{'uc' if uc else 'fc'}"
                build(exe, uc, include.resolve())
                exes.append((include, exe))
        for r in range(args.rounds):
            for include, exe in exes:
                print(f"## {exe.name} ({include}), round {r + 1}", flush=True)
                subprocess.run([str(exe)], check=True, env=env)


if __name__ == "__main__":
    main()
