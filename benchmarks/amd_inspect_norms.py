"""AMD resources of the reduction samples (softmax, RMSNorm, LayerNorm, cross-entropy): for each
sample, target (gfx942, gfx950), row width and dtype, `bbx build` the specialization the
sample's driver compiles and print what `bbx inspect --json` reads from the code object —
VGPR, AGPR, SGPR, scratch, static LDS, spills, waves per SIMD — next to two figures the code
object cannot give:

* launch LDS: the dynamic shared memory the sample's `__call__` asks for at launch
  (`smem=self.reduction_bytes + cached_tiles * tile_bytes`, from the sample's own attributes);
* waves/SIMD (launch): the occupancy with that LDS and whole work-groups (a work-group of W waves
  spreads over the CU's 4 SIMDs; a CU holds as many work-groups as its registers and its LDS
  allow). `bbx inspect` gives the per-wave bound only. "no fit": the launch LDS exceeds the CU's;

and, from `bbx inspect`'s memory figures (bbx.targets.amd.memory), "loads in flight": the most
global loads a wave has outstanding at once (straight-line code order, branches ignored), next
to the kernel's global loads in total — how much memory-level parallelism one wave has.

Needs no GPU: AMD targets build device-only with clang++-22 when ROCm is absent. Build outputs
go to a temporary directory, removed at the end. Prints numbers only (a failed build prints
its error in place of the row).

    python benchmarks/amd_inspect_norms.py [--samples softmax,rmsnorm,layernorm,cross_entropy]
        [--archs gfx942,gfx950] [--n 1024,8192,32768] [--dtypes bf16,f32] [--variants]
        [--jobs 2] [--json FILE]

--variants adds softmax --online and LayerNorm without weight and bias (--no-affine).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sample_loading import load_sample  # noqa: E402

LDS_PER_CU = {"gfx90a": 64 * 1024, "gfx942": 64 * 1024, "gfx950": 160 * 1024}
WAVE = 64
SIMDS = 4


@dataclass(frozen=True)
class Case:
    sample: str
    variant: str  # "" or "online" / "no-affine"
    arch: str
    n: int
    dtype: str

    @property
    def label(self) -> str:
        return self.sample + (f" ({self.variant})" if self.variant else "")


@dataclass
class Row:
    case: Case
    kernels: list[dict[str, Any]] = field(default_factory=list)
    threads: int = 0
    launch_lds: int = 0
    error: str = ""


#: --dtypes names -> cutlass element types.
DTYPES = {"bf16": "BFloat16", "f16": "Float16", "f32": "Float32"}
CLASSES = {"softmax": "Softmax", "rmsnorm": "RMSNorm", "layernorm": "LayerNorm",
           "cross_entropy": "CrossEntropy"}


def build_args(case: Case) -> tuple[list[str], list[str]]:
    """(--init, --arg) of the specialization that the sample's driver compiles (see its main():
    row tensors marked compact with a dynamic row count, weight/bias as (1, n) views)."""
    n, dt = case.n, case.dtype
    row = f"{dt}[?,{n}]:stride({n},1)@16"
    vec = f"{dt}[1,{n}]:stride(1,1)@16"
    init = [f"n={n}"]
    if case.sample == "softmax":
        init.append(f"online={case.variant == 'online'}")
        args = [row, row]
    elif case.sample == "rmsnorm":
        args = [row, row, vec, "f32"]
    elif case.sample == "layernorm":  # LayerNorm(dtype, n): its launch shape follows both
        init.append(f"dtype=cutlass.{DTYPES[dt]}")
        wb = ["const(None)"] * 2 if case.variant == "no-affine" else [vec, vec]
        args = [row, row, *wb, "f32"]
    elif case.sample == "cross_entropy":
        args = ["f32[?]:stride(1)", row, "i64[?]:stride(1)"]
    else:
        raise ValueError(case.sample)
    return init, args


def launch_shape(case: Case) -> tuple[int, int]:
    """(threads per block, dynamic LDS bytes) of the sample's launch, as its __call__ computes
    them from the instance's attributes."""
    sample = load_sample(case.sample)
    cls = getattr(sample, CLASSES[case.sample])
    dtype = getattr(sample.cutlass, DTYPES[case.dtype])
    op = cls(dtype, case.n) if case.sample == "layernorm" else cls(case.n)
    width = {"bf16": 16, "f16": 16, "f32": 32}[case.dtype]
    smem = op.reduction_bytes
    if hasattr(op, "smem_cache_bytes"):
        tile_bytes = op.rows_per_block * op.tile_n * width // 8
        smem += min(op.tiles - 1, op.smem_cache_bytes // tile_bytes) * tile_bytes
    return op.threads, smem


def build_command(case: Case, out: Path) -> list[str]:
    """`bbx build` of the case's specialization into the bundle `out`."""
    init, args = build_args(case)
    return [sys.executable, "-m", "bbx.cli", "build",
            f"{ROOT / 'samples' / case.sample}.py:{CLASSES[case.sample]}", "--target", case.arch,
            *(x for v in init for x in ("--init", v)), *(x for a in args for x in ("--arg", a)),
            "-o", str(out)]


def inspect_kernels(out: Path) -> tuple[list[dict[str, Any]], str]:
    """(`bbx inspect --json`'s kernels of the bundle `out`, "") or ([], the error)."""
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "inspect", str(out), "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        return [], "inspect: " + (proc.stderr or proc.stdout).strip()
    return json.loads(proc.stdout)["kernels"], ""


def build_and_inspect(case: Case, out: Path) -> Row:
    row = Row(case)
    proc = subprocess.run(build_command(case, out), capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        row.error = (proc.stderr or proc.stdout).strip()
        return row
    row.kernels, row.error = inspect_kernels(out)
    return row


def launch_waves(kernel: dict[str, Any], arch: str, threads: int, launch_lds: int) -> str:
    """Waves per SIMD with whole work-groups and the launch's LDS (static + dynamic)."""
    waves_per_group = -(-threads // WAVE)
    per_simd = kernel["waves_per_simd"]  # the register / hardware bound per SIMD
    # Work-groups per CU the registers allow: each SIMD takes ceil(W / 4) waves of a group.
    groups = (SIMDS * per_simd) // waves_per_group if waves_per_group < SIMDS \
        else per_simd // -(-waves_per_group // SIMDS)
    lds = kernel["lds_bytes"] + launch_lds
    if lds > LDS_PER_CU[arch]:
        return "no fit"
    if lds > 0:
        groups = min(groups, LDS_PER_CU[arch] // lds)
    return f"{groups * waves_per_group / SIMDS:g}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", default="softmax,rmsnorm,layernorm,cross_entropy")
    parser.add_argument("--archs", default="gfx942,gfx950")
    parser.add_argument("--n", default="1024,8192,32768")
    parser.add_argument("--dtypes", default="bf16,f32")
    parser.add_argument("--variants", action="store_true",
                        help="also softmax --online and LayerNorm --no-affine")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    args = parser.parse_args()

    import bbx.hook  # noqa: F401  (serves `cutlass` to the samples, for their launch figures)

    variants = {"softmax": ["", "online"], "layernorm": ["", "no-affine"]} if args.variants \
        else {}
    cases = [Case(s, v, a, int(n), d)
             for s in args.samples.split(",") for v in variants.get(s, [""])
             for d in args.dtypes.split(",") for n in args.n.split(",")
             for a in args.archs.split(",")]
    launch = {}
    for c in cases:
        key = (c.sample, c.n, c.dtype)
        if key not in launch:
            launch[key] = launch_shape(c)
    with tempfile.TemporaryDirectory(prefix="bbx_amd_norms_") as tmp:
        dirs = {c: Path(tmp) / f"{i:03d}" for i, c in enumerate(cases)}
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            rows = list(pool.map(lambda c: build_and_inspect(c, dirs[c]), cases))
    for r in rows:
        r.threads, r.launch_lds = launch[(r.case.sample, r.case.n, r.case.dtype)]

    head = ("sample", "dtype", "N", "arch", "threads", "VGPR", "AGPR", "SGPR", "scratch",
            "LDS", "launch LDS", "spills v/s", "waves/SIMD", "(launch)", "limited by",
            "loads in flight")
    table: list[tuple[str, ...]] = []
    for r in rows:
        c = r.case
        lead = (c.label, c.dtype, str(c.n), c.arch, str(r.threads))
        if r.error:
            table.append((*lead, "build failed: " + r.error.splitlines()[-1]))
            continue
        for k in r.kernels:
            table.append((*lead, str(k["vgpr"]), str(k["agpr"]), str(k["sgpr"]),
                          str(k["scratch_bytes"]), str(k["lds_bytes"]), str(r.launch_lds),
                          f"{k['vgpr_spills']}/{k['sgpr_spills']}", str(k["waves_per_simd"]),
                          launch_waves(k, c.arch, r.threads, r.launch_lds),
                          ",".join(k["limited_by"]),
                          f"{k['memory']['loads_in_flight']}/{k['memory']['global_loads']}"))
    widths = [max([len(h), *(len(t[i]) for t in table if len(t) == len(head))])
              for i, h in enumerate(head)]
    print("  ".join(h.rjust(w) if i >= 1 else h.ljust(w)
                    for i, (h, w) in enumerate(zip(head, widths, strict=True))))
    for t in table:
        print("  ".join(v.rjust(widths[i]) if i >= 1 else v.ljust(widths[i])
                        for i, v in enumerate(t)))
    errors = [r for r in rows if r.error]
    for r in errors:
        print(f"\n{r.case.label} {r.case.dtype} N={r.case.n} {r.case.arch}:\n{r.error}")
    if args.json:
        args.json.write_text(json.dumps([
            {"sample": r.case.sample, "variant": r.case.variant, "arch": r.case.arch,
             "n": r.case.n, "dtype": r.case.dtype, "threads": r.threads,
             "launch_lds_bytes": r.launch_lds, "error": r.error,
             "kernels": [{k: v for k, v in kern.items() if k != "instruction_mix"}
                         for kern in r.kernels]}
            for r in rows], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
