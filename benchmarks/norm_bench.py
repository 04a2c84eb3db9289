"""Bandwidth of the reduction / normalisation samples on the CUDA target, next to the torch op
and a device-to-device copy measured in the same run (CUDA events, median). GB/s counts the
bytes each op must move: softmax/norms read x and write y (plus the weight/bias row); cross-
entropy reads the logits and the labels and writes one f32 loss per row.

    python benchmarks/norm_bench.py [--m 32768] [--n 8192] [--iters 50] [--dtypes bf16,f32]
                                    [--threads 128,256,512]   (block sizes to sweep; default:
                                                               the samples' own default)

Needs an NVIDIA GPU with a CUDA torch; builds the samples through bbx (BBX_TARGET=cuda).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_timing import median_ms  # noqa: E402


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "samples" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _bench_dtype(
    dtype_name: str, m: int, n: int, iters: int, threads: int | None
) -> list[tuple[str, float, int]]:
    import cutlass
    import torch
    import torch.nn.functional as F
    from cutlass.cute.runtime import from_dlpack

    dtype = {"bf16": torch.bfloat16, "f32": torch.float32}[dtype_name]
    tol = {"bf16": 2e-2, "f32": 1e-4}[dtype_name]
    dev = "cuda"
    x = torch.randn(m, n, device=dev, dtype=dtype)
    w = torch.randn(n, device=dev, dtype=dtype)
    b = torch.randn(n, device=dev, dtype=dtype)
    label = torch.randint(0, n, (m,), device=dev, dtype=torch.int64)
    y = torch.full_like(x, float("nan"))
    loss = torch.full((m,), float("nan"), device=dev)
    out = torch.empty_like(x)

    def dyn(t: Any) -> Any:
        return from_dlpack(t, assumed_align=16).mark_layout_dynamic(leading_dim=t.dim() - 1)

    tX, tY, tLoss, tLabel = dyn(x), dyn(y), dyn(loss), dyn(label)
    tW, tB = dyn(w.view(1, n)), dyn(b.view(1, n))
    eps = cutlass.Float32(1e-5)
    io = 2 * x.numel() * x.element_size()
    row = n * x.element_size()
    ce_bytes = x.numel() * x.element_size() + m * 8 + m * 4
    results: list[tuple[str, float, int]] = []

    softmax, rmsnorm, layernorm, cross_entropy = (
        _load(s) for s in ("softmax", "rmsnorm", "layernorm", "cross_entropy")
    )
    block = {} if threads is None else {"threads": threads}
    tag = "" if threads is None else f" t={threads}"
    ops: list[tuple[str, Callable[[], Any], Callable[[], Any], int]] = []
    for online in (False, True):
        op = softmax.cute.compile(softmax.Softmax(online=online, max_n=n, **block), tY, tX)
        ref = lambda: torch.softmax(x, dim=-1)  # noqa: E731
        name = ("softmax online" if online else "softmax two-pass") + tag
        ops.append((name, lambda op=op: op(tY, tX), ref, io))
    rms = rmsnorm.cute.compile(rmsnorm.RMSNorm(max_n=n, **block), tY, tX, tW, eps)
    ops.append(("rmsnorm" + tag, lambda: rms(tY, tX, tW, eps),
                lambda: F.rms_norm(x, (n,), w, 1e-5), io + row))  # fmt: skip
    ln = layernorm.cute.compile(layernorm.LayerNorm(max_n=n, **block), tY, tX, tW, tB, eps)
    ops.append(("layernorm" + tag, lambda: ln(tY, tX, tW, tB, eps),
                lambda: F.layer_norm(x, (n,), w, b, 1e-5), io + 2 * row))  # fmt: skip
    ce = cross_entropy.cute.compile(cross_entropy.CrossEntropy(max_n=n, **block), tLoss, tX, tLabel)
    ops.append(("cross_entropy" + tag, lambda: ce(tLoss, tX, tLabel),
                lambda: F.cross_entropy(x, label, reduction="none"), ce_bytes))  # fmt: skip

    for name, run, ref, nbytes in ops:
        y.fill_(float("nan"))
        loss.fill_(float("nan"))
        run()
        torch.cuda.synchronize()
        got = loss if name.startswith("cross_entropy") else y
        expect = ref()
        torch.testing.assert_close(got.float(), expect.float(), rtol=tol, atol=tol)
        results.append((f"bbx {name}", median_ms(run, iters), nbytes))
        results.append((f"torch {name}", median_ms(ref, iters), nbytes))
    results.append(("device copy", median_ms(lambda: out.copy_(x), iters), io))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--m", type=int, default=32768)
    parser.add_argument("--n", type=int, default=8192)
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--dtypes", default="bf16,f32")
    parser.add_argument("--threads", default="", help="comma-separated block sizes to sweep")
    args = parser.parse_args()
    os.environ.setdefault("BBX_TARGET", "cuda")

    import torch

    import bbx.hook  # noqa: F401  (serves `cutlass`, translates DSL modules, dispatches jit calls)

    card = torch.cuda.get_device_name()
    for dtype_name in args.dtypes.split(","):
        sweep = [int(t) for t in args.threads.split(",") if t] or [None]
        results = [
            r for t in sweep for r in _bench_dtype(dtype_name, args.m, args.n, args.iters, t)
        ]
        copy_ms, copy_bytes = next((ms, nb) for name, ms, nb in results if name == "device copy")
        copy_gbs = copy_bytes / copy_ms / 1e6
        print(f"# {card}, {dtype_name} {args.m}x{args.n}, median of {args.iters}")
        print(f"{'op':26s} {'ms':>8s} {'GB/s':>8s}  % of copy")
        for name, ms, nbytes in results:
            gbs = nbytes / ms / 1e6
            print(f"{name:26s} {ms:8.3f} {gbs:8.1f}  {100 * gbs / copy_gbs:5.1f}%")


if __name__ == "__main__":
    main()
