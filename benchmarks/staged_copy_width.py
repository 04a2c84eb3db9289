"""Memory access widths of the reduction samples (softmax, RMSNorm, LayerNorm, cross-entropy),
translated (`BBX_STAGED=0`) next to staged (the default): for each sample, target, row width and
dtype, `bbx build` the specialization the sample's driver compiles, both ways, and count the
wide and the narrow global (and shared) memory accesses of the code:

* AMD (gfx942, gfx950): the instruction mix `bbx inspect --json` reads from the code object;
  wide = `global_load_dwordx4` / `global_store_dwordx4` (and dwordx2/x3), narrow = the
  `global_load_ushort`/`_dword`/... and `global_store_short`/`_dword`/... ones; shared: the
  `ds_read_b128`/`ds_write_b128` (and b64, and the two-address `ds_read2_*`/`ds_write2_*`)
  against the narrower ones;
* CUDA (sm_90): the PTX of the bundle's own nvcc command (`-ptx` for `-c`); wide =
  `ld.global.v4`/`v2`, narrow = scalar `ld.global.*` (and `st.global`, `ld/st.shared`; a
  generic `ld`/`st`, which nvcc emits for shared memory it cannot tell apart, counts as
  shared).

Each count is static (instructions in the code, not executed accesses). A staged kernel that
copies element by element shows as many narrow accesses where the translated one has wide ones.

Needs no GPU: AMD targets build device-only with clang++-22 when ROCm is absent; CUDA needs nvcc.
Build outputs go to a temporary directory, removed at the end.

    python benchmarks/staged_copy_width.py [--samples softmax,rmsnorm,layernorm,cross_entropy]
        [--targets gfx942,cuda] [--n 4096,65536] [--dtypes bf16,f32] [--jobs 2] [--json FILE]

The default widths take both paths of each sample: a row held in registers (4096) and a row
looped over in tiles through shared memory (65536; cross-entropy loops without shared memory).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from amd_inspect_norms import Case, build_command, inspect_kernels  # noqa: E402

MODES = ("translated", "staged")
#: AMD instruction -> (space, direction, wide?)
_AMD = re.compile(r"^(global|buffer|flat|ds)_(load|store|read|write)(2)?_?(.*)$")
_AMD_WIDE = {"dwordx2", "dwordx3", "dwordx4", "b64", "b96", "b128"}
#: PTX memory instruction: ld.global.v4.u32, st.shared.f32, ld.global.nc.v2.f32, ld.v4.u32
#: (generic: no state space) ...
_PTX = re.compile(r"^\s*(?:@%p\d+\s+)?(ld|st)((?:\.[a-z0-9]+)*)\s", re.MULTILINE)
_PTX_SKIPPED = {"param", "const", "local"}


@dataclass
class Counts:
    """Memory instructions by (space, 'load'/'store', 'wide'/'narrow')."""

    by_kind: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    error: str = ""

    def text(self, space: str) -> str:
        """`wide/narrow` loads, then stores, of one space (`4/0 4/0`)."""
        if self.error:
            return "failed"
        return " ".join(f"{self.by_kind[(space, d, 'wide')]}/{self.by_kind[(space, d, 'narrow')]}"
                        for d in ("load", "store"))


def amd_counts(mix: dict[str, int], counts: Counts) -> None:
    for name, n in mix.items():
        m = _AMD.match(name)
        if not m:
            continue
        space = "shared" if m.group(1) == "ds" else "global"
        direction = "load" if m.group(2) in ("load", "read") else "store"
        wide = m.group(3) == "2" or m.group(4) in _AMD_WIDE  # ds_read2_*: two accesses in one
        counts.by_kind[(space, direction, "wide" if wide else "narrow")] += n


def ptx_counts(ptx: str, counts: Counts) -> None:
    """Global and shared accesses of PTX; a generic one (no state space: nvcc addresses shared
    memory so when it cannot tell the space) counts as shared."""
    for m in _PTX.finditer(ptx):
        suffixes = set(m.group(2).split(".")[1:])
        if suffixes & _PTX_SKIPPED:
            continue
        space = "global" if "global" in suffixes else "shared"
        direction = "load" if m.group(1) == "ld" else "store"
        wide = bool(suffixes & {"v2", "v4", "v8"})
        counts.by_kind[(space, direction, "wide" if wide else "narrow")] += 1


def build(case: Case, mode: str, out: Path) -> Counts:
    """`bbx build` of the case (staged or translated) and its access counts."""
    counts = Counts()
    env = {**os.environ, "BBX_STAGED": "1" if mode == "staged" else "0"}
    proc = subprocess.run(build_command(case, out), capture_output=True, text=True, cwd=ROOT,
                          env=env)
    if proc.returncode != 0:
        counts.error = (proc.stderr or proc.stdout).strip().splitlines()[-1]
        return counts
    if case.arch == "cuda":
        command = json.loads((out / "manifest.json").read_text())["commands"][-1]
        ptx_command = [*command[:command.index("-c")], "-ptx", command[command.index("-c") + 1],
                       "-o", "unit.ptx"]
        proc = subprocess.run(ptx_command, capture_output=True, text=True, cwd=out)
        if proc.returncode != 0:
            counts.error = f"{shlex.join(ptx_command)}: {proc.stderr.strip()}"
            return counts
        ptx_counts((out / "unit.ptx").read_text(), counts)
        return counts
    kernels, counts.error = inspect_kernels(out)
    for kernel in kernels:
        amd_counts(kernel["instruction_mix"], counts)
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", default="softmax,rmsnorm,layernorm,cross_entropy")
    parser.add_argument("--targets", default="gfx942,cuda")
    parser.add_argument("--n", default="4096,65536")
    parser.add_argument("--dtypes", default="bf16,f32")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the counts as JSON")
    args = parser.parse_args()

    cases = [Case(s, "", t, int(n), d) for s in args.samples.split(",")
             for d in args.dtypes.split(",") for n in args.n.split(",")
             for t in args.targets.split(",")]
    jobs = [(c, m) for c in cases for m in MODES]
    with tempfile.TemporaryDirectory(prefix="bbx_copy_width_") as tmp:
        dirs = {job: Path(tmp) / f"{i:03d}" for i, job in enumerate(jobs)}
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = dict(zip(jobs, pool.map(lambda j: build(*j, dirs[j]), jobs), strict=True))

    head = ("sample", "dtype", "N", "target", "global ld/st wide/narrow: translated", "staged",
            "shared ld/st wide/narrow: translated", "staged")
    table = [(c.sample, c.dtype, str(c.n), c.arch,
              results[(c, "translated")].text("global"), results[(c, "staged")].text("global"),
              results[(c, "translated")].text("shared"), results[(c, "staged")].text("shared"))
             for c in cases]
    widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(head)]
    for row in (head, *table):
        print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    for (c, m), r in results.items():
        if r.error:
            print(f"{c.sample} {c.dtype} {c.n} {c.arch} {m}: {r.error}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps([
            {"sample": c.sample, "dtype": c.dtype, "n": c.n, "target": c.arch, "mode": m,
             "error": r.error, "counts": {"/".join(k): v for k, v in sorted(r.by_kind.items())}}
            for (c, m), r in results.items()], indent=2) + "\n")
    return 1 if any(r.error for r in results.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
