"""Registers, stack and scratch of every kernel bbx builds for the samples, NVIDIA's GEMM examples
and (CUDA only) NVIDIA's flash attention v2, per target — no GPU needed (issue 30).

    python benchmarks/resource_report.py [--targets cuda,gfx942,gfx950] [--only SUBSTRING]
                                         [--skip SUBSTRING] [--corpus DIR] [--json FILE]

Each case is one `bbx build` (the samples' specs are those of tests/amd/conftest.py; the GEMMs'
those of benchmarks/amd_gemm_inspect.py; attention: bf16, head dim 128, 128x64 blocks, 128
threads, as `flash_attention_v2.py`'s own defaults, causal and not). Figures are the compilers'
own: on sm_90 ptxas's report (`nvcc -Xptxas -v`, kept in the bundle's compiler.log: registers,
stack frame and spill bytes per thread, and the device functions left as calls); on
gfx942/gfx950 `bbx inspect` (the code object's metadata: VGPR, AGPR, scratch bytes per lane,
VGPR spills). Every kernel should show 0 stack and 0 scratch: a register tensor indexed with
constants after unrolling lives in registers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from amd_gemm_inspect import CASES as GEMM_CASES  # noqa: E402

from bbx.targets import ptxas_report  # noqa: E402
from bbx.targets.amd.report import short_names  # noqa: E402
from tests.amd.conftest import CASES as SAMPLE_CASES  # noqa: E402

ATTENTION = "cute/ampere/kernel/attention/flash_attention_v2.py"
QKVO = "bf16[?,?,?,?{div=8}]:stride(?{div=8},?{div=8},?{div=8},1)@16"


@dataclass(frozen=True)
class Case:
    label: str
    function: str  # FILE.py:NAME
    args: tuple[str, ...]
    consts: tuple[str, ...] = ()
    init: tuple[str, ...] = ()
    cuda_only: bool = False


def cases(corpus: Path) -> list[Case]:
    found = [Case(c.id, f"{ROOT / 'samples' / c.function}", c.args, c.consts, c.init)
             for c in SAMPLE_CASES]
    found += [Case(label, f"{corpus / script}:{entry}", tuple(args), (), tuple(init))
              for label, script, entry, init, args in GEMM_CASES]
    for causal in (False, True):
        found.append(Case(
            f"flash_attention_v2 {'causal' if causal else 'non-causal'}",
            f"{corpus / ATTENTION}:FlashAttentionForwardAmpere", (QKVO,) * 4 + ("f32",), (),
            ("head_dim=128", "m_block_size=128", "n_block_size=64", "num_threads=128",
             f"is_causal={causal}"), cuda_only=True))
    return found


@dataclass
class Row:
    case: str
    target: str
    kernel: str = ""
    registers: int = 0  # CUDA registers, or AMD architectural VGPRs
    agpr: int = 0
    stack_bytes: int = 0  # CUDA stack frame, or AMD scratch, per thread
    spill_bytes: int = 0  # CUDA spill stores, or AMD VGPR spills (count)
    calls: int = 0  # CUDA: device functions left as calls in the unit
    error: str = ""


def bbx(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bbx.cli", *args], cwd=ROOT,
                          capture_output=True, text=True,
                          env={**os.environ, "BBX_TRACEBACK": ""})


def build(case: Case, target: str, out: Path) -> list[Row]:
    args = ["build", case.function, "--target", target, "-o", str(out)]
    args += [a for spec in case.args for a in ("--arg", spec)]
    args += [a for c in case.consts for a in ("--const", c)]
    args += [a for i in case.init for a in ("--init", i)]
    built = bbx(*args)
    if built.returncode != 0:
        message = (built.stdout + built.stderr).strip().splitlines()
        return [Row(case.label, target, error=message[-1] if message else "build failed")]
    if target == "cuda":
        kernels = ptxas_report.from_bundle(out)
        names = short_names([k.symbol for k in kernels])
        return [Row(case.label, target, names[k.symbol], k.registers, 0, k.stack_bytes,
                    k.spill_store_bytes, len(k.calls)) for k in kernels]
    inspected = bbx("inspect", str(out), "--json")
    if inspected.returncode != 0:
        return [Row(case.label, target, error=inspected.stderr.strip()[-200:])]
    return [Row(case.label, target, k["name"], k["vgpr"], k["agpr"], k["scratch_bytes"],
                k["vgpr_spills"]) for k in json.loads(inspected.stdout)["kernels"]]


def table(rows: list[Row]) -> str:
    head = (f"{'case':34s} {'target':7s} {'kernel':44s} {'regs':>5s} {'AGPR':>5s} "
            f"{'stack/scratch':>13s} {'spill':>6s} {'calls':>5s}")
    lines = [head, "-" * len(head)]
    for r in rows:
        if r.error:
            lines.append(f"{r.case:34s} {r.target:7s} build failed: {r.error[:120]}")
            continue
        kernel = r.kernel if len(r.kernel) <= 44 else "..." + r.kernel[-41:]
        lines.append(f"{r.case:34s} {r.target:7s} {kernel:44s} {r.registers:5d} {r.agpr:5d} "
                     f"{r.stack_bytes:13d} {r.spill_bytes:6d} {r.calls:5d}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--targets", default="cuda,gfx942,gfx950")
    parser.add_argument("--only", default="", help="only the cases whose label contains this")
    parser.add_argument("--skip", default="", help="not the cases whose label contains this")
    parser.add_argument("--corpus", default=os.environ.get(
        "BBX_CUTLASS_CORPUS", str(ROOT.parent / "shared" / "corpus" / "cutlass")))
    parser.add_argument("--json", help="also write the rows as JSON")
    args = parser.parse_args()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bbx-resources-") as tmp:
        selected = [c for c in cases(Path(args.corpus)) if args.only in c.label
                    and not (args.skip and args.skip in c.label)]
        for i, case in enumerate(selected):
            for target in args.targets.split(","):
                if case.cuda_only and target != "cuda":
                    continue
                rows += build(case, target, Path(tmp) / f"{i}_{target}")
                print(table(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    print(table(rows))
    if args.json:
        out: list[dict[str, Any]] = [asdict(r) for r in rows]
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
