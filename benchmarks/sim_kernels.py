"""Run time of sample kernels on the CPU simulator, as specializations are built for it: what a
change of the CPU target's unit flags (SimulatorBackend.compile_flags, unit_opt) does to generated
code at run time (issue 16: a faster build must not make kernels slower).

    python benchmarks/sim_kernels.py [--opt -O1] [--repeat 15] [--threads 2]

Each kernel is built in a fresh build cache (the shared prebuilt library of these flags is
reused) and called `--repeat` times after one warm-up call; the minimum and median of the
kernel's wall time are printed, and the build time beside. `--opt` builds with another
optimisation level than the target's default (for comparisons; the prebuilt header library is
built for it on first use).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sample_loading import load_script  # noqa: E402


def load(name: str) -> Any:
    return load_script(ROOT / "samples" / f"{name}.py", f"bench_{name}")


def cases() -> list[tuple[str, Callable[[], Callable[[], None]]]]:
    import torch
    from cutlass.cute.runtime import from_dlpack

    def elementwise_add() -> Callable[[], None]:
        sample = load("elementwise_add")
        a, b = torch.randn(2048, 2048), torch.randn(2048, 2048)
        c = torch.empty_like(a)
        args = [from_dlpack(t).mark_layout_dynamic() for t in (a, b, c)]
        return lambda: sample.elementwise_add(*args)

    def softmax() -> Callable[[], None]:
        sample = load("softmax")
        x = torch.randn(512, 4096)
        y = torch.empty_like(x)
        op, tx, ty = sample.Softmax(n=4096), sample.row_major(x), sample.row_major(y)
        return lambda: op(ty, tx)

    def rmsnorm() -> Callable[[], None]:
        sample = load("rmsnorm")
        x = torch.randn(512, 4096)
        w, y = torch.randn(1, 4096), torch.empty_like(x)
        op = sample.RMSNorm(n=4096)
        tx, tw, ty = sample.row_major(x), sample.row_major(w), sample.row_major(y)
        return lambda: op(ty, tx, tw, 1e-5)

    return [("elementwise_add f32 2048x2048", elementwise_add),
            ("softmax f32 512x4096", softmax),
            ("rmsnorm f32 512x4096", rmsnorm)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opt", default=None, help="unit optimisation level, e.g. -O1")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--threads", type=int, default=None, help="BBX_SIM_THREADS")
    args = parser.parse_args()
    os.environ["BBX_TARGET"] = "cpu"
    if args.threads:
        os.environ["BBX_SIM_THREADS"] = str(args.threads)
    os.environ.pop("BBX_SIM_CHECK", None)
    tmp = tempfile.TemporaryDirectory(prefix="bbx-sim-kernels-")
    os.environ["BBX_CACHE_DIR"] = tmp.name
    import bbx.hook
    from bbx.targets import registry
    from bbx.targets.simulator import SimulatorBackend

    simulator = SimulatorBackend()
    if args.opt:
        opt = args.opt

        class SimulatorAtOpt(SimulatorBackend):
            """The simulator with units built at --opt."""

            def unit_opt(self) -> str:
                return opt

        simulator = SimulatorAtOpt()
        registry.register(simulator)  # replaces "cpu" in this process
    bbx.hook.install()
    flags = " ".join(simulator.unit_flags())
    print(f"# simulator kernels, unit flags: {flags} ({os.cpu_count()} cores, "
          f"BBX_SIM_THREADS={os.environ.get('BBX_SIM_THREADS', 'default')})")
    for label, make in cases():
        call = make()
        start = time.perf_counter()
        call()  # builds, then runs once
        build_s = time.perf_counter() - start
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        print(f"{label:32s} min {1e3 * min(times):8.2f} ms  median "
              f"{1e3 * statistics.median(times):8.2f} ms   (first call with build {build_s:.1f} s)")
        sys.stdout.flush()
    tmp.cleanup()


if __name__ == "__main__":
    main()
