"""bbx's AMD code next to AMD's own DSL, FlyDSL, on the same ops, dtype and targets (issue 29):
the reduction kernels (RMSNorm, softmax, LayerNorm forward) built by both for gfx942 and gfx950
without a GPU, and read by the same `bbx inspect` (bbx.targets.amd.report), so that every figure
is measured the same way for both.

    python benchmarks/amd_vs_flydsl.py --flydsl-src DIR [--ops rmsnorm,softmax,layernorm]
        [--n 8192] [--dtypes bf16] [--archs gfx942,gfx950] [--venv /tmp/bbx-flydsl-venv]
        [--json FILE]

FlyDSL (`pip install flydsl`, Apache-2.0) is installed into a throw-away venv (--venv; created
on first use, it borrows this interpreter's torch through a .pth file) and is never a bbx
dependency. Its kernels are not in the wheel: --flydsl-src is a checkout of ROCm/FlyDSL (its
`kernels/` package). Each FlyDSL kernel is compiled with COMPILE_ONLY=1 by
benchmarks/flydsl_compile_norms.py; its final ISA (`22_final_isa.s`) is assembled with
llvm-mc-22 and linked with ld.lld-22 into a code object. bbx's kernels are the samples' own
specializations, built as benchmarks/amd_inspect_norms.py builds them.

Columns: VGPR, SGPR, AGPR, scratch bytes, static LDS, waves per SIMD (bbx: also with the
launch's dynamic LDS, see amd_inspect_norms.py), global loads in the kernel, the most of them in
flight at once in code order (bbx.targets.amd.memory's vmcnt model), and `s_waitcnt vmcnt`
waits, full (vmcnt(0)) / partial. Needs clang++-22, llvm-mc-22 and ld.lld-22 (scripts/setup.sh).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bbx.targets.amd import report

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import amd_inspect_norms as norms  # noqa: E402

FLYDSL_REQUIREMENT = "flydsl==0.5.0"


def flydsl_python(venv: Path) -> Path:
    """The throw-away venv's interpreter, with FlyDSL installed and this torch reachable."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = subprocess.run([str(python), "-c", "import flydsl"], capture_output=True)
    if probe.returncode != 0:
        print(f"installing {FLYDSL_REQUIREMENT} into {venv}", file=sys.stderr)
        subprocess.run([str(python), "-m", "pip", "-q", "--disable-pip-version-check",
                        "install", FLYDSL_REQUIREMENT], check=True)
    import torch

    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True)
    (Path(site.stdout.strip()) / "bbx_borrowed_torch.pth").write_text(
        str(Path(torch.__file__).resolve().parents[1]) + "\n")
    return python


def _tool(name: str) -> str:
    found = shutil.which(f"{name}-22") or shutil.which(name)
    if found is None:
        raise SystemExit(f"{name}-22 not found (scripts/setup.sh installs llvm-22 and lld-22)")
    return found


def flydsl_inspect(python: Path, src: Path, case: norms.Case, work: Path) -> dict[str, Any]:
    """Compile FlyDSL's kernel for `case` and inspect its code object: the kernel's report, or
    {"error": ...}."""
    rocm = work / "rocm"
    (rocm / "llvm" / "bin").mkdir(parents=True, exist_ok=True)
    lld = rocm / "llvm" / "bin" / "ld.lld"
    if not lld.exists():
        lld.symlink_to(_tool("ld.lld"))
    dump = work / "dump"
    env = dict(os.environ, COMPILE_ONLY="1", ARCH=case.arch, FLYDSL_GPU_ARCH=case.arch,
               FLYDSL_DEBUG_DUMP_ASM="1", FLYDSL_DUMP_DIR=str(dump), ROCM_PATH=str(rocm))
    proc = subprocess.run([str(python), str(HERE / "flydsl_compile_norms.py"), str(src),
                           case.sample, str(case.n), case.dtype],
                          capture_output=True, text=True, env=env)
    isa = sorted(dump.glob("*/22_final_isa.s"))
    if proc.returncode != 0 or not isa:
        return {"error": (proc.stderr or proc.stdout).strip().splitlines()[-1:]}
    code = work / "co"
    code.mkdir(exist_ok=True)
    obj = work / "kernel.o"
    subprocess.run([_tool("llvm-mc"), "-triple", "amdgcn-amd-amdhsa-unknown",
                    f"-mcpu={case.arch}", "-filetype=obj", str(isa[0]), "-o", str(obj)],
                   check=True)
    subprocess.run([_tool("ld.lld"), "-shared", str(obj), "-o", str(code / "kernel.hsaco")],
                   check=True)
    return report.inspect(code)["kernels"][0]


def bbx_inspect(case: norms.Case, work: Path) -> dict[str, Any]:
    row = norms.build_and_inspect(case, work)
    if row.error:
        return {"error": row.error.splitlines()[-1:]}
    threads, launch_lds = norms.launch_shape(case)
    kernel = row.kernels[0]
    kernel["launch_waves"] = norms.launch_waves(kernel, case.arch, threads, launch_lds)
    return kernel


COLUMNS = ("op", "dtype", "N", "arch", "who", "VGPR", "SGPR", "AGPR", "scratch", "LDS",
           "waves/SIMD", "global loads", "in flight", "vmcnt waits full/partial")


def table_row(case: norms.Case, who: str, k: dict[str, Any]) -> tuple[str, ...]:
    lead = (case.sample, case.dtype, str(case.n), case.arch, who)
    if "error" in k:
        return (*lead, "failed: " + " ".join(k["error"]))
    waves = str(k["waves_per_simd"])
    if "launch_waves" in k:
        waves += f" ({k['launch_waves']} at launch)"
    mem = k["memory"]
    return (*lead, str(k["vgpr"]), str(k["sgpr"]), str(k["agpr"]), str(k["scratch_bytes"]),
            str(k["lds_bytes"]), waves, str(mem["global_loads"]), str(mem["loads_in_flight"]),
            f"{mem['vmcnt_waits_full']}/{mem['vmcnt_waits_partial']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flydsl-src", type=Path, default=os.environ.get("FLYDSL_SRC"),
                        help="a checkout of ROCm/FlyDSL (its kernels/ package)")
    parser.add_argument("--ops", default="rmsnorm,softmax,layernorm")
    parser.add_argument("--n", default="8192")
    parser.add_argument("--dtypes", default="bf16")
    parser.add_argument("--archs", default="gfx942,gfx950")
    parser.add_argument("--venv", type=Path, default=Path("/tmp/bbx-flydsl-venv"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.flydsl_src is None or not (args.flydsl_src / "kernels").is_dir():
        parser.error("--flydsl-src must name a checkout of ROCm/FlyDSL (with kernels/)")

    import bbx.hook  # noqa: F401  (serves `cutlass` to the samples, for their launch figures)

    python = flydsl_python(args.venv)
    cases = [norms.Case(op, "", arch, int(n), dt) for op in args.ops.split(",")
             for dt in args.dtypes.split(",") for n in args.n.split(",")
             for arch in args.archs.split(",")]
    with tempfile.TemporaryDirectory(prefix="bbx_vs_flydsl_") as tmp:
        jobs = [(c, who, Path(tmp) / f"{i:03d}_{who}") for i, c in enumerate(cases)
                for who in ("FlyDSL", "bbx")]

        def run(job: tuple[norms.Case, str, Path]) -> dict[str, Any]:
            case, who, work = job
            work.mkdir(parents=True)
            if who == "bbx":
                return bbx_inspect(case, work / "build")
            return flydsl_inspect(python, args.flydsl_src.resolve(), case, work)

        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = list(pool.map(run, jobs))
    rows = [table_row(case, who, k) for (case, who, _), k in zip(jobs, results, strict=True)]
    widths = [max(len(r[i]) if i < len(r) else 0 for r in [COLUMNS, *rows])
              for i in range(len(COLUMNS))]
    for r in [COLUMNS, *rows]:
        print("  ".join(cell.rjust(widths[i]) for i, cell in enumerate(r)))
    if args.json:
        args.json.write_text(json.dumps(
            [{"case": vars(c), "who": who, "kernel": k}
             for (c, who, _), k in zip(jobs, results, strict=True)], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
