"""Device timing shared by the GPU benchmarks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def median_ms(fn: Callable[[], Any], iters: int, reps: int = 10) -> float:
    """Median over `iters` samples of the device time per call. Each sample times `reps`
    back-to-back calls between two CUDA events, so that the host-side work of a call (argument
    checks, packing) overlaps the device work of the previous one, as in real use; warm-up first.
    """
    import torch

    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / reps)
    times.sort()
    return times[len(times) // 2]
