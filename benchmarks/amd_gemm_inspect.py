"""NVIDIA's GEMM and attention examples built for AMD by bbx, and what the compiler made of them:
resources and the hot loop's instruction mix, next to HipKittens' hand-written BF16 GEMM.

    python benchmarks/amd_gemm_inspect.py [--corpus DIR] [--archs gfx942,gfx950] [--json F]

For `tensorop_gemm.py` (fp16 and bf16, A/B/C majors m/n/n and k/k/m) and `sgemm.py`, unmodified,
and `flash_attention_v2.py` (bf16, D128, 128x64 tiles, in the m16n8-exact mode),
`bbx build` a specialization for each target (clang-22, device only, no GPU needed) and
print `bbx inspect`'s figures: VGPR, AGPR, SGPR, scratch, waves per SIMD, and the hot loop (the
loop of the k-tiles, or attention's n-blocks: its instructions, its MFMA, their share, its
global loads and how many are in flight at once, its LDS reads by width, its cross-lane
instructions and its exec-mask branches). Every case is built by staged execution, the default
path; BBX_STAGED=0 builds the GEMMs by the translated path instead (being retired). HipKittens'
BF16 GEMM hot loop, compiled by the same clang (issue 15's figures, not run): 41.7% MFMA on gfx950,
51.4% on gfx942; published 1,610 TFLOP/s BF16 8192^3 on MI355X.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HIPKITTENS = {"gfx942": 51.4, "gfx950": 41.7}  # % MFMA in the BF16 GEMM hot loop

TENSOROP = "cute/ampere/kernel/dense_gemm/tensorop_gemm.py"
ATTENTION = "cute/ampere/kernel/attention/flash_attention_v2.py"
SGEMM = "cute/ampere/kernel/dense_gemm/sgemm.py"
#: (label, script, entry, --init values, --arg specs)
CASES: list[tuple[str, str, str, list[str], list[str]]] = []
for dtype, short in (("Float16", "f16"), ("BFloat16", "bf16")):
    for majors, args in (
        (
            "mnn",
            [
                f"{short}[?{{div=8}},?,?]:stride(1,?{{div=8}},?{{div=8}})@16",
                f"{short}[?{{div=8}},?,?]:stride(1,?{{div=8}},?{{div=8}})@16",
                f"{short}[?,?{{div=8}},?]:stride(?{{div=8}},1,?{{div=8}})@16",
            ],
        ),
        (
            "kkm",
            [
                f"{short}[?,?{{div=8}},?]:stride(?{{div=8}},1,?{{div=8}})@16",
                f"{short}[?,?{{div=8}},?]:stride(?{{div=8}},1,?{{div=8}})@16",
                f"{short}[?{{div=8}},?,?]:stride(1,?{{div=8}},?{{div=8}})@16",
            ],
        ),
    ):
        CASES.append(
            (
                f"tensorop_gemm {dtype} {majors}",
                TENSOROP,
                "TensorOpGemm",
                [
                    f"ab_dtype=cutlass.{dtype}",
                    f"c_dtype=cutlass.{dtype}",
                    "acc_dtype=cutlass.Float32",
                    "atom_layout_mnk=(2,2,1)",
                ],
                args,
            )
        )
CASES.append(
    (
        "sgemm f32 mkn",
        SGEMM,
        "SGemm",
        [],
        ["f32[?,?]:stride(1,?)@16", "f32[?,?]:stride(?,1)@16", "f32[?,?]:stride(?,1)@16"],
    )
)


QKVO = "bf16[?,?,?,?{div=8}]:stride(?{div=8},?{div=8},?{div=8},1)@16"
CASES.append(
    (
        "flash_attention_v2 bf16 D128",
        ATTENTION,
        "FlashAttentionForwardAmpere.__call__",
        ["head_dim=128", "m_block_size=128", "n_block_size=64", "num_threads=128",
         "is_causal=False"],
        [QKVO] * 4 + ["f32"],
    )
)
#: cases that exist only by staged execution (the m16n8-exact mode): BBX_STAGED=0 does not
#: switch them to the translated path
STAGED_ONLY = {"flash_attention_v2 bf16 D128"}


def staged_env(label: str) -> str:
    """BBX_STAGED for a case: staged execution (the default path) unless BBX_STAGED=0 asks for
    the translated one (being retired), which STAGED_ONLY cases lack."""
    return "0" if os.environ.get("BBX_STAGED") == "0" and label not in STAGED_ONLY else "1"


def build_and_inspect(
    corpus: Path, case: tuple[str, str, str, list[str], list[str]], arch: str, out: Path
) -> dict[str, Any]:
    label, script, entry, init, args = case
    cmd = [
        sys.executable,
        "-m",
        "bbx.cli",
        "build",
        f"{corpus / script}:{entry}",
        "--target",
        arch,
        "-o",
        str(out),
    ]
    cmd += [x for value in init for x in ("--init", value)]
    cmd += [x for spec in args for x in ("--arg", spec)]
    env = {**os.environ, "BBX_STAGED": staged_env(label)}
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        return {"case": label, "arch": arch, "error": (proc.stdout + proc.stderr)[-400:]}
    report = subprocess.run(
        [sys.executable, "-m", "bbx.cli", "inspect", str(out), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    kernels = json.loads(report.stdout)["kernels"]
    kernel = max(kernels, key=lambda k: k["instructions"])  # the GEMM kernel of the module
    return {
        "case": label,
        "arch": arch,
        **{
            k: kernel[k]
            for k in (
                "vgpr",
                "agpr",
                "sgpr",
                "scratch_bytes",
                "waves_per_simd",
                "instructions",
                "hot_loop",
            )
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--corpus",
        default=os.environ.get(
            "BBX_CUTLASS_CORPUS", str(ROOT.parent / "shared" / "corpus" / "cutlass")
        ),
    )
    parser.add_argument("--archs", default="gfx942,gfx950")
    parser.add_argument("--only", help="the cases whose label contains this text")
    parser.add_argument("--json", help="also write the rows as JSON")
    args = parser.parse_args()
    corpus = Path(args.corpus)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bbx-amd-gemm-") as tmp:
        for i, case in enumerate(CASES):
            if args.only and args.only not in case[0]:
                continue
            for arch in args.archs.split(","):
                rows.append(build_and_inspect(corpus, case, arch, Path(tmp) / f"{i}_{arch}"))
    print(
        f"{'case':28s} {'arch':7s} {'VGPR':>5s} {'AGPR':>5s} {'SGPR':>5s} {'scratch':>8s} "
        f"{'waves':>6s} {'loop instr':>11s} {'MFMA':>5s} {'MFMA %':>7s} {'HipKittens %':>13s} "
        f"{'loads':>6s} {'in flight':>10s} {'LDS reads':>10s} {'cross-lane':>11s} "
        f"{'exec br':>8s}  LDS read widths"
    )
    for r in rows:
        if "error" in r:
            print(f"{r['case']:28s} {r['arch']:7s} build failed: {r['error']!r}")
            continue
        loop = r["hot_loop"] or {"instructions": 0, "mfma": 0, "mfma_share": 0.0,
                                 "global_loads": 0, "loads_in_flight": 0, "lds_reads": 0,
                                 "cross_lane": 0, "exec_branches": 0, "lds_read_widths": {}}
        print(
            f"{r['case']:28s} {r['arch']:7s} {r['vgpr']:5d} {r['agpr']:5d} {r['sgpr']:5d} "
            f"{r['scratch_bytes']:8d} {r['waves_per_simd']:6d} {loop['instructions']:11d} "
            f"{loop['mfma']:5d} {100 * loop['mfma_share']:7.1f} {HIPKITTENS[r['arch']]:13.1f} "
            f"{loop['global_loads']:6d} {loop['loads_in_flight']:10d} {loop['lds_reads']:10d} "
            f"{loop['cross_lane']:11d} {loop['exec_branches']:8d}  "
            + " ".join(f"{m.removeprefix('ds_read')}:{n}"
                       for m, n in loop["lds_read_widths"].items())
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
