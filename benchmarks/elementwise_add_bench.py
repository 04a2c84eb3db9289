"""Bandwidth of the canonical elementwise-add sample on the CUDA target, next to torch.add and a
device-to-device copy measured in the same run (GB/s counts bytes read plus bytes written).

    python benchmarks/elementwise_add_bench.py [--m 16384] [--n 16384] [--iters 50]
                                               [--dtype f32|bf16|f16]

Needs an NVIDIA GPU with a CUDA torch; builds the sample through bbx (BBX_TARGET=cuda).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_timing import median_ms  # noqa: E402
from sample_loading import load_sample  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--m", type=int, default=16384)
    parser.add_argument("--n", type=int, default=16384)
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--dtype", choices=["f32", "bf16", "f16"], default="f32")
    args = parser.parse_args()
    os.environ.setdefault("BBX_TARGET", "cuda")

    import torch

    import bbx.hook  # noqa: F401  (serves `cutlass`, translates DSL modules, dispatches jit calls)

    sample = load_sample("elementwise_add")
    from cutlass.cute.runtime import from_dlpack

    m, n = args.m, args.n
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[args.dtype]
    a = torch.randn(m, n, device="cuda", dtype=dtype)
    b = torch.randn(m, n, device="cuda", dtype=dtype)
    c = torch.full_like(a, float("nan"))
    ta, tb, tc = (
        from_dlpack(t, assumed_align=16).mark_layout_dynamic(leading_dim=1) for t in (a, b, c)
    )
    compiled = sample.cute.compile(sample.elementwise_add, ta, tb, tc)
    compiled(ta, tb, tc)
    torch.cuda.synchronize()
    torch.testing.assert_close(c, a + b)

    elem_bytes = a.element_size() * m * n
    add_bytes, copy_bytes = 3 * elem_bytes, 2 * elem_bytes
    out = torch.empty_like(a)
    results = {
        "bbx elementwise_add": (median_ms(lambda: compiled(ta, tb, tc), args.iters), add_bytes),
        "torch.add": (median_ms(lambda: torch.add(a, b, out=out), args.iters), add_bytes),
        "device copy": (median_ms(lambda: out.copy_(a), args.iters), copy_bytes),
    }
    card = torch.cuda.get_device_name()
    print(f"# {card}, {args.dtype} {m}x{n}, median of {args.iters}")
    copy_gbs = results["device copy"][1] / results["device copy"][0] / 1e6
    for name, (ms, nbytes) in results.items():
        gbs = nbytes / ms / 1e6
        print(f"{name:22s} {ms:8.3f} ms {gbs:8.1f} GB/s  {100 * gbs / copy_gbs:5.1f}% of copy")


if __name__ == "__main__":
    main()
