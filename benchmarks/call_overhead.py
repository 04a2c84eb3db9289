"""Host time of one call of a compiled 3-tensor elementwise kernel (samples/elementwise_add.py),
next to `torch.add(a, b, out=c)` on the same tensors in the same run.

    python benchmarks/call_overhead.py [--target cpu|cuda] [--calls 20000] [--repeats 5]

What a call costs bbx on the host: reading and checking the three tensors against the
specialization, the generated host function (layouts, grid), and the launch. On the CUDA target
the tensors are tiny (4x128), so the asynchronous launch is the cost (the loop synchronizes once
at its end). On the CPU target the simulator runs kernels synchronously, so the host figure is
taken on an empty problem (0x128: everything but the kernel runs, the grid is empty); the time
with a tiny kernel on the simulator is printed beside it for scale.
Each figure is the best of `--repeats` loops of `--calls` calls.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sample_loading import load_sample  # noqa: E402


def per_call_us(fn: Callable[[], object], calls: int, repeats: int,
                sync: Callable[[], None]) -> float:
    for _ in range(min(calls, 200)):  # warm up
        fn()
    sync()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--target", default=os.environ.get("BBX_TARGET", "cpu"))
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    os.environ["BBX_TARGET"] = args.target

    import torch

    import bbx.hook  # noqa: F401  (serves `cutlass`, translates DSL modules, dispatches jit calls)

    sample = load_sample("elementwise_add")
    from cutlass.cute.runtime import from_dlpack

    device = "cuda" if args.target == "cuda" else "cpu"
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

    def tensors(m: int, n: int) -> tuple[torch.Tensor, ...]:
        a, b = torch.randn(m, n, device=device), torch.randn(m, n, device=device)
        return a, b, torch.full_like(a, float("nan"))

    def wrap(ts: tuple[torch.Tensor, ...]) -> list[object]:
        return [from_dlpack(t, assumed_align=16).mark_layout_dynamic(leading_dim=1) for t in ts]

    a, b, c = tensors(4, 128)
    compiled = sample.cute.compile(sample.elementwise_add, *wrap((a, b, c)))
    compiled(*wrap((a, b, c)))
    sync()
    torch.testing.assert_close(c, a + b)

    rows = []
    if device == "cpu":
        ea, eb, ec = tensors(0, 128)
        wrapped = wrap((ea, eb, ec))
        rows.append(("bbx elementwise_add, 0x128 (host path only)",
                     per_call_us(lambda: compiled(*wrapped), args.calls, args.repeats, sync)))
        rows.append(("torch.add, 0x128",
                     per_call_us(lambda: torch.add(ea, eb, out=ec), args.calls, args.repeats,
                                 sync)))
        wrapped_tiny = wrap((a, b, c))
        tiny_calls = max(1, args.calls // 20)
        rows.append(("bbx elementwise_add, 4x128 (with the simulated kernel)",
                     per_call_us(lambda: compiled(*wrapped_tiny), tiny_calls, args.repeats,
                                 sync)))
    else:
        wrapped = wrap((a, b, c))
        rows.append(("bbx elementwise_add, 4x128",
                     per_call_us(lambda: compiled(*wrapped), args.calls, args.repeats, sync)))
    rows.append(("torch.add, 4x128",
                 per_call_us(lambda: torch.add(a, b, out=c), args.calls, args.repeats, sync)))
    torch.testing.assert_close(c, a + b)
    where = torch.cuda.get_device_name() if device == "cuda" else "CPU simulator"
    print(f"# per-call host time, target {args.target} ({where}); best of {args.repeats} x "
          f"{args.calls} calls")
    reference = rows[1][1] if device == "cpu" else rows[-1][1]
    for name, us in rows:
        print(f"{name:56s} {us:8.2f} us  ({us / reference:5.2f}x torch.add)")


if __name__ == "__main__":
    main()
