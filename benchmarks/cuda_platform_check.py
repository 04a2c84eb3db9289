#!/usr/bin/env python3
"""Real-GPU check of the CUDA platform mapping against the CPU simulator.

Compiles tests/platform/kernels/platform_main.cpp twice — with nvcc as a real CUDA program
(sm_90 by default) and with g++ for the simulator — runs both on the same random inputs
(mt19937 words from one seed, identical on both), checks each against the numpy references
of tests/platform/platform_reference.py and diffs the CUDA outputs against the simulator's
(wave 32, the CUDA warp size): integers, shuffles, votes and the transpose must match exactly,
float sums to rounding.

Usage: benchmarks/cuda_platform_check.py [--seed N] [--arch sm_90] [--compile-only]
Exit status 0 when everything matches.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
INCLUDE = ROOT / "runtime_cpp" / "include"
KERNELS = ROOT / "tests" / "platform" / "kernels"
sys.path.insert(0, str(ROOT / "tests" / "platform"))
from platform_reference import check_suite, read_arrays  # noqa: E402


def run(cmd: list[str], **kw) -> None:
    print("$", " ".join(map(str, cmd)), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--compile-only", action="store_true")
    args = ap.parse_args()
    nvcc = shutil.which("nvcc")
    cxx = shutil.which("g++") or shutil.which("c++")
    if nvcc is None or cxx is None:
        sys.exit("needs nvcc and g++")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        run(
            [
                nvcc,
                "-std=c++20",
                f"-arch={args.arch}",
                "-O2",
                "-x",
                "cu",
                f"-I{INCLUDE}",
                f"-I{KERNELS}",
                KERNELS / "platform_main.cpp",
                "-o",
                d / "platform_cuda",
            ]
        )
        sim_cmd = [
            cxx,
            "-std=c++20",
            "-O1",
            "-pthread",
            f"-I{INCLUDE}",
            f"-I{KERNELS}",
            KERNELS / "platform_main.cpp",
            "-o",
            d / "platform_sim",
        ]
        try:
            run([*sim_cmd, "-lboost_context"])
        except subprocess.CalledProcessError:
            print("# no libboost_context here: simulator built with the ucontext back end")
            run([*sim_cmd, "-DBBX_SIM_UCONTEXT=1"])
        if args.compile_only:
            print("compile-only: both programs built")
            return 0
        print(f"seed={seed}")
        run([d / "platform_cuda", "suite", seed, d / "cuda.bin"])
        env = dict(os.environ, BBX_SIM_WAVE="32")
        env.pop("BBX_SIM_CHECK", None)
        run([d / "platform_sim", "suite", seed, d / "sim.bin"], env=env)
        cuda, simr = read_arrays(d / "cuda.bin"), read_arrays(d / "sim.bin")
    bad = 0
    for name, arrays in (("cuda", cuda), ("simulator", simr)):
        fails = check_suite(arrays)
        print(f"{name} vs numpy: {'OK' if not fails else fails}")
        bad += len(fails)
    for key in sorted(set(cuda) | set(simr)):
        if key not in cuda or key not in simr:
            print(f"  {key}: only in {'cuda' if key in cuda else 'simulator'}")
            bad += 1
            continue
        a, b = cuda[key], simr[key]
        if a.shape != b.shape:
            ok = False
        elif a.dtype.kind == "f" and key in ("red_f_w16", "red_f_w32", "br_out", "at_sum"):
            ok = np.allclose(a, b, rtol=1e-5, atol=1e-3)
        else:
            ok = np.array_equal(a, b)
        if not ok:
            bad += 1
            idx = np.flatnonzero(a != b)[:5] if a.shape == b.shape else []
            print(f"  {key}: cuda != simulator at {list(idx)}")
    print(f"cuda vs simulator: {'OK' if bad == 0 else f'{bad} mismatch(es)'} (seed={seed})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
