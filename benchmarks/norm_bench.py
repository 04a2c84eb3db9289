"""Bandwidth of the reduction samples (softmax, RMSNorm, LayerNorm, cross-entropy) on the CUDA
target across row widths, next to textbook Triton kernels with one program per row
(`benchmarks/device/norm_triton.py`), the torch ops and a device-to-device copy — all measured
in the same run on the same card (CUDA events, median of --iters samples of 10 calls each).
GB/s counts the bytes each op must move: softmax and the norms read x and write y (plus the
weight/bias row); cross-entropy reads the logits and the labels and writes one f32 per row.

    python benchmarks/norm_bench.py [--shapes MxN,...] [--dtypes bf16,f32] [--ops OP,...]
                                    [--iters 30] [--variant max_threads=512 ...] [--prebuild]

Default shapes: 32768x8192, 16384x4096, 65536x1024, 4096x32768, 2048x131072; default ops:
softmax, rmsnorm, layernorm, cross_entropy (softmax_online can be added).

--variant adds a build of every bbx op with these constructor arguments (repeatable; the
samples' defaults are always measured). --prebuild only builds (fills BBX_CACHE_DIR), so that
several processes can build in parallel before the measuring run (benchmarks/device/norm_sweep.sh).
The closing table gives each op as % of the copy and checks the targets of issue 17: >= 90% of
copy for N <= 32768, >= the best of Triton and torch beyond, never below Triton by more than 5
points of copy.

Needs an NVIDIA GPU with a CUDA torch; builds the samples through bbx (BBX_TARGET=cuda). Triton
is optional: without it the Triton column says so.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_timing import median_ms  # noqa: E402
from sample_loading import load_sample  # noqa: E402

SHAPES = "32768x8192,16384x4096,65536x1024,4096x32768,2048x131072"
OPS = ("softmax", "rmsnorm", "layernorm", "cross_entropy")
ALL_OPS = (*OPS, "softmax_online")
#: widest rows that must stay at >= 90% of copy (issue 17)
REGISTER_LIMIT = 32768


def _triton() -> ModuleType | None:
    try:
        import triton  # noqa: F401
    except ImportError:
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent / "device"))
    import norm_triton

    return norm_triton


@dataclass
class Row:
    op: str
    impl: str  # "bbx", "bbx max_threads=512", "triton", "torch"
    ms: float
    nbytes: int


class Workspace:
    """The tensors of one (M, N, dtype) case, and the bbx views of them."""

    def __init__(self, m: int, n: int, dtype_name: str) -> None:
        import torch
        from cutlass.cute.runtime import from_dlpack

        self.m, self.n, self.dtype_name = m, n, dtype_name
        self.dtype = {"bf16": torch.bfloat16, "f32": torch.float32}[dtype_name]
        dev = "cuda"
        self.x = torch.randn(m, n, device=dev, dtype=self.dtype)
        self.w = torch.randn(n, device=dev, dtype=self.dtype)
        self.b = torch.randn(n, device=dev, dtype=self.dtype)
        self.label = torch.randint(0, n, (m,), device=dev, dtype=torch.int64)
        self.y = torch.empty_like(self.x)
        self.loss = torch.empty(m, device=dev)
        self.out = torch.empty_like(self.x)

        def rows(t: Any) -> Any:  # (M dynamic, N static), as the samples' drivers pass them
            return from_dlpack(t, assumed_align=16).mark_compact_shape_dynamic(
                mode=0, stride_order=(0, 1)
            )

        self.tX, self.tY = rows(self.x), rows(self.y)
        self.tW = from_dlpack(self.w.view(1, n), assumed_align=16)
        self.tB = from_dlpack(self.b.view(1, n), assumed_align=16)
        self.tLoss = from_dlpack(self.loss).mark_layout_dynamic()
        self.tLabel = from_dlpack(self.label).mark_layout_dynamic()
        size = self.x.element_size()
        self.io = 2 * m * n * size
        self.bytes = {
            "softmax": self.io,
            "softmax_online": self.io,
            "rmsnorm": self.io + n * size,
            "layernorm": self.io + 2 * n * size,
            "cross_entropy": m * n * size + m * 8 + m * 4,
        }


def build_bbx(op: str, ws: Workspace, variant: dict[str, Any]) -> Callable[[], Any]:
    """Compile the sample for this case; returns a call with the workspace's arguments."""
    import cutlass

    eps = cutlass.Float32(1e-5)
    n = ws.n
    if op in ("softmax", "softmax_online"):
        mod = load_sample("softmax")
        k = mod.cute.compile(mod.Softmax(n, online=op == "softmax_online", **variant), ws.tY, ws.tX)
        return lambda: k(ws.tY, ws.tX)
    if op == "rmsnorm":
        mod = load_sample("rmsnorm")
        k = mod.cute.compile(mod.RMSNorm(n, **variant), ws.tY, ws.tX, ws.tW, eps)
        return lambda: k(ws.tY, ws.tX, ws.tW, eps)
    if op == "layernorm":
        mod = load_sample("layernorm")
        dtype = {"bf16": cutlass.BFloat16, "f32": cutlass.Float32}[ws.dtype_name]
        k = mod.cute.compile(mod.LayerNorm(dtype, n, **variant), ws.tY, ws.tX, ws.tW, ws.tB, eps)
        return lambda: k(ws.tY, ws.tX, ws.tW, ws.tB, eps)
    mod = load_sample("cross_entropy")
    ce_variant = {k: v for k, v in variant.items() if k != "smem_cache_bytes"}
    k = mod.cute.compile(mod.CrossEntropy(n, **ce_variant), ws.tLoss, ws.tX, ws.tLabel)
    return lambda: k(ws.tLoss, ws.tX, ws.tLabel)


def torch_op(op: str, ws: Workspace) -> Callable[[], Any]:
    import torch
    import torch.nn.functional as F

    n = ws.n
    return {
        "softmax": lambda: torch.softmax(ws.x, dim=-1),
        "softmax_online": lambda: torch.softmax(ws.x, dim=-1),
        "rmsnorm": lambda: F.rms_norm(ws.x, (n,), ws.w, 1e-5),
        "layernorm": lambda: F.layer_norm(ws.x, (n,), ws.w, ws.b, 1e-5),
        "cross_entropy": lambda: F.cross_entropy(ws.x, ws.label, reduction="none"),
    }[op]


def triton_op(op: str, ws: Workspace, tr: ModuleType) -> Callable[[], Any]:
    return {
        "softmax": lambda: tr.softmax(ws.x, ws.y),
        "softmax_online": lambda: tr.softmax(ws.x, ws.y),
        "rmsnorm": lambda: tr.rmsnorm(ws.x, ws.w, ws.y, 1e-5),
        "layernorm": lambda: tr.layernorm(ws.x, ws.w, ws.b, ws.y, 1e-5),
        "cross_entropy": lambda: tr.cross_entropy(ws.x, ws.label, ws.loss),
    }[op]


def checked(op: str, ws: Workspace, run: Callable[[], Any], what: str) -> None:
    """Run once on a poisoned output and compare with torch (same dtype)."""
    import torch

    out = ws.loss if op == "cross_entropy" else ws.y
    out.fill_(float("nan"))
    run()
    torch.cuda.synchronize()
    expect = torch_op(op, ws)()
    tol = {torch.bfloat16: 2e-2, torch.float32: 1e-4}[ws.dtype]
    try:
        torch.testing.assert_close(out.float(), expect.float(), rtol=tol, atol=tol)
    except AssertionError as err:
        raise SystemExit(f"{what} {op} {ws.m}x{ws.n} {ws.dtype}: wrong result\n{err}") from None


def variant_label(variant: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in variant.items())


def bench_case(
    m: int, n: int, dtype_name: str, ops: list[str], variants: list[dict[str, Any]],
    iters: int, prebuild: bool,
) -> tuple[list[Row], float]:
    # The number of rows is dynamic in every build: one row is enough to build.
    ws = Workspace(1 if prebuild else m, n, dtype_name)
    tr = None if prebuild else _triton()
    rows: list[Row] = []
    for op in ops:
        for variant in variants:
            run = build_bbx(op, ws, variant)
            if prebuild:
                continue
            impl = ("bbx " + variant_label(variant)).strip()
            checked(op, ws, run, impl)
            rows.append(Row(op, impl, median_ms(run, iters), ws.bytes[op]))
        if prebuild:
            continue
        if tr is not None:
            run = triton_op(op, ws, tr)
            checked(op, ws, run, "triton")
            rows.append(Row(op, "triton", median_ms(run, iters), ws.bytes[op]))
        rows.append(Row(op, "torch", median_ms(torch_op(op, ws), iters), ws.bytes[op]))
    copy_ms = 0.0 if prebuild else median_ms(lambda: ws.out.copy_(ws.x), iters)
    copy_gbs = ws.io / copy_ms / 1e6 if copy_ms else 0.0
    return rows, copy_gbs


def percent(row: Row, copy_gbs: float) -> float:
    return 100 * row.nbytes / row.ms / 1e6 / copy_gbs


def verdict(n: int, bbx: float, triton: float | None, torch_pct: float) -> str:
    misses = []
    if n <= REGISTER_LIMIT and bbx < 90:
        misses.append("<90% of copy")
    if n > REGISTER_LIMIT and bbx < max(triton or 0.0, torch_pct):
        misses.append("< best peer")
    if triton is not None and bbx < triton - 5:
        misses.append("< Triton-5")
    return "ok" if not misses else "MISS (" + ", ".join(misses) + ")"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", default=SHAPES, help="comma-separated MxN")
    parser.add_argument("--dtypes", default="bf16,f32")
    parser.add_argument("--ops", default=",".join(OPS), help=f"any of {','.join(ALL_OPS)}")
    parser.add_argument("--iters", type=int, default=30)
    parser.add_argument("--variant", action="append", default=[],
                        help="extra bbx build: constructor arguments k=v[,k=v] (repeatable)")
    parser.add_argument("--prebuild", action="store_true", help="only build (fill the cache)")
    args = parser.parse_args()
    os.environ.setdefault("BBX_TARGET", "cuda")
    ops = [o for o in args.ops.split(",") if o]
    for o in ops:
        if o not in ALL_OPS:
            parser.error(f"--ops: unknown op {o!r} (known: {', '.join(ALL_OPS)})")
    variants: list[dict[str, Any]] = [{}]
    for spec in args.variant:
        kv = (item.split("=", 1) for item in spec.split(",") if item)
        variants.append({k: ast.literal_eval(v) for k, v in kv})
    shapes = [tuple(int(d) for d in s.split("x")) for s in args.shapes.split(",") if s]

    import torch

    import bbx.hook  # noqa: F401  (serves `cutlass`, translates DSL modules, dispatches jit calls)

    if not args.prebuild:
        card = torch.cuda.get_device_name()
        print(f"# {card}; median of {args.iters} x 10 calls; % of a device copy of the same x")
        if _triton() is None:
            print("# Triton is not installed: the Triton peer is skipped")
    summary: list[str] = []
    for dtype_name in args.dtypes.split(","):
        for m, n in shapes:
            rows, copy_gbs = bench_case(m, n, dtype_name, ops, variants, args.iters,
                                        args.prebuild)  # fmt: skip
            torch.cuda.empty_cache()  # the case's tensors are gone
            if args.prebuild:
                print(f"built {dtype_name} {m}x{n}: {', '.join(ops)}", flush=True)
                continue
            print(f"\n## {dtype_name} {m}x{n} (copy {copy_gbs:.0f} GB/s)")
            print(f"{'op':15s} {'impl':34s} {'ms':>8s} {'GB/s':>8s} {'% copy':>7s}")
            for r in rows:
                gbs = r.nbytes / r.ms / 1e6
                pct = percent(r, copy_gbs)
                print(f"{r.op:15s} {r.impl:34s} {r.ms:8.3f} {gbs:8.1f} {pct:6.1f}%")
            for op in ops:
                pct = {r.impl: percent(r, copy_gbs) for r in rows if r.op == op}
                tri = pct.get("triton")
                best_bbx = max((v, k) for k, v in pct.items() if k.startswith("bbx"))
                summary.append(
                    f"| {dtype_name} | {m}x{n} | {op} | {pct['bbx']:.1f}% | "
                    f"{best_bbx[0]:.1f}% ({best_bbx[1]}) | "
                    f"{'-' if tri is None else f'{tri:.1f}%'} | {pct['torch']:.1f}% | "
                    f"{verdict(n, pct['bbx'], tri, pct['torch'])} |"
                )
            sys.stdout.flush()
    if summary:
        print("\n| dtype | M x N | op | bbx | best bbx variant | Triton | torch | target |")
        print("|---|---|---|---|---|---|---|---|")
        print("\n".join(summary))


if __name__ == "__main__":
    main()
