"""NVIDIA's unmodified `flash_attention_v2.py` (Ampere FA2 forward) through bbx on an NVIDIA GPU,
next to torch's scaled_dot_product_attention (its flash backend) on the same shapes, one process.

    python benchmarks/device/fa2_bench.py CORPUS_FILE [--batch 4 --seqlen 8192 --heads 16
                                          --head-dim 128 --dtype BFloat16] [--causal] [--native]

`--native`: run the file on NVIDIA's own DSL (a throw-away install on PYTHONPATH, never a
dependency of bbx: benchmarks/device/native_compare.sh) instead of through bbx, for the
same-run comparison of issue 30.

The example's `run()` checks against torch itself and returns its own timing (testing.benchmark,
microseconds), which it does not print; this script prints it with TFLOP/s (4·B·H·S²·D flops,
halved when causal) and torch's figure measured the same way (CUDA events, median of 20).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("script")
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--seqlen", type=int, default=8192)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument("--head-dim", type=int, default=128)
    parser.add_argument("--dtype", default="BFloat16")
    parser.add_argument("--causal", action="store_true")
    parser.add_argument("--native", action="store_true")
    args = parser.parse_args()

    import torch

    if not args.native:
        import bbx.hook

        bbx.hook.install()
    import cutlass

    spec = importlib.util.spec_from_file_location("flash_attention_v2", args.script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["flash_attention_v2"] = module
    spec.loader.exec_module(module)

    b, s, h, d = args.batch, args.seqlen, args.heads, args.head_dim
    flops = 4 * b * h * s * s * d / (2 if args.causal else 1)
    us = module.run(getattr(cutlass, args.dtype), b, s, s, h, d, 0.5, 128, 64, 128, args.causal,
                    3, 20, False, False)
    who = "NVIDIA's DSL" if args.native else "bbx"
    print(f"{who} flash_attention_v2.py {args.dtype} B{b} S{s} H{h} D{d} causal={args.causal}: "
          f"{us / 1e3:.3f} ms = {flops / us / 1e6:.1f} TFLOP/s")

    dt = torch.bfloat16 if args.dtype == "BFloat16" else torch.float16
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=dt) for _ in range(3))
    times = []
    with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.FLASH_ATTENTION):
        for i in range(23):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=0.5,
                                                             is_causal=args.causal)
            end.record()
            torch.cuda.synchronize()
            if i >= 3:
                times.append(start.elapsed_time(end))
    ms = statistics.median(times)
    print(f"torch SDPA (flash) same shapes: {ms:.3f} ms = {flops / ms / 1e9:.1f} TFLOP/s")


if __name__ == "__main__":
    main()
