"""`bbx inspect`: per-kernel resources, occupancy and instruction mix of AMD code objects.

JSON (``bbx inspect --json``; keys sorted, kernels in code-object order)::

    {"kernels": [{
        "name": "bbx_gen::py_naive_add::naive_add_kernel",  # demangled, template arguments elided
        "symbol": "_ZN7bbx_gen9naive_add...",            # the mangled kernel symbol
        "arch": "gfx942",
        "vgpr": 6,             # architectural VGPRs per lane (vgpr_total - agpr)
        "vgpr_total": 6,       # unified VGPR file use per lane (.vgpr_count; occupancy uses it)
        "agpr": 0,             # accumulation VGPRs per lane
        "sgpr": 15,            # SGPRs per wave, including VCC
        "scratch_bytes": 0,    # per lane (.private_segment_fixed_size)
        "lds_bytes": 0,        # static LDS per work-group (.group_segment_fixed_size);
                               # dynamic LDS (a launch argument) is not in the code object
        "vgpr_spills": 0,      # .vgpr_spill_count (stores to scratch)
        "sgpr_spills": 0,      # .sgpr_spill_count (to VGPR lanes, or scratch)
        "max_workgroup_size": 1024,  # .max_flat_workgroup_size: the bound the compiler assumed
                               # (1024 without launch bounds: caps VGPRs at 128 per lane)
        "waves_per_simd": 8,   # the occupancy these allow (bbx.targets.amd.occupancy)
        "limited_by": ["hardware"],  # or the resources at the minimum
        "instructions": 93,    # all instructions of the kernel's symbol
        "instruction_mix": {"global_load_dword": 2, "s_waitcnt": 3, ...},  # bbx.targets.amd.isa_mix
        "memory": {"global_loads": 32, "loads_in_flight": 1,  # the whole kernel, straight-line
                   "vmcnt_waits_full": 35, "vmcnt_waits_partial": 0},  # (bbx.targets.amd.memory)
        "hot_loop": {"instructions": 235, "mfma": 64, "mfma_share": 0.2723,  # or null: the loop
                     "global_loads": 8, "lds_reads": 12,  # of the k-tiles (bbx.targets.amd.loops)
                     "lds_read_widths": {"ds_read_b64": 12},  # LDS reads by mnemonic
                     "cross_lane": 0,  # permutes, swizzles, readlanes, DPP
                     "exec_branches": 0,  # s_cbranch_execz/execnz: code some lanes skip
                     "loads_in_flight": 1, "vmcnt_waits_full": 9, "vmcnt_waits_partial": 0}
    }]}

Resource figures are the compiler's own (the code object's AMDGPU metadata note), never guessed
from the ISA.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from . import codeobject, isa_mix, loops, memory, occupancy

CODE_OBJECT_SUFFIXES = (".hsaco", ".co")


def short_names(symbols: list[str]) -> dict[str, str]:
    """Demangled names with template arguments and parameters elided (falls back to the
    symbol where llvm-cxxfilt is missing)."""
    tool = next((p for p in map(shutil.which, ("llvm-cxxfilt-22", "llvm-cxxfilt", "c++filt"))
                 if p), None)
    if tool is None or not symbols:
        return {s: s for s in symbols}
    proc = subprocess.run([tool], input="\n".join(symbols), stdout=subprocess.PIPE, text=True)
    lines = proc.stdout.splitlines()
    if proc.returncode != 0 or len(lines) != len(symbols):
        return {s: s for s in symbols}
    return {s: _strip_templates(d) for s, d in zip(symbols, lines, strict=True)}


def _strip_templates(name: str) -> str:
    out, depth = [], 0
    for ch in name:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    text = "".join(out)
    return text.split(" ")[-1] if " " in text else text  # drop a leading return type


def code_objects(path: Path) -> list[Path]:
    """A code object file, or those a `bbx build` directory holds (its manifest's outputs)."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise codeobject.CodeObjectError(f"bbx: no such file or directory: {path}")
    manifest = path / "manifest.json"
    found: list[Path] = []
    if manifest.is_file():
        data = json.loads(manifest.read_text())
        found = [path / name for name in data.get("code_objects", [])]
    found = found or sorted(p for p in path.iterdir() if p.suffix in CODE_OBJECT_SUFFIXES)
    if not found:
        raise codeobject.CodeObjectError(
            f"bbx: {path} holds no AMD code object (build with --target gfx942|gfx950|gfx90a)")
    return found


def inspect_code_object(path: Path) -> list[dict[str, Any]]:
    resources = codeobject.kernel_resources(path)
    disassembly = isa_mix.disassemble(path)
    by_symbol = isa_mix.mnemonics_by_symbol(disassembly)
    code = loops.instructions_by_symbol(disassembly)
    names = short_names([r.name for r in resources])
    kernels = []
    for r in resources:
        occ = occupancy.occupancy(r.arch, r.vgpr_total, r.sgpr, r.lds_bytes,
                                  r.max_flat_workgroup_size)
        mnemonics = by_symbol.get(r.name, [])
        kernels.append({
            "name": names[r.name], "symbol": r.name, "arch": r.arch,
            "vgpr": r.vgpr, "vgpr_total": r.vgpr_total, "agpr": r.agpr, "sgpr": r.sgpr,
            "scratch_bytes": r.scratch_bytes, "lds_bytes": r.lds_bytes,
            "vgpr_spills": r.vgpr_spills, "sgpr_spills": r.sgpr_spills,
            "max_workgroup_size": r.max_flat_workgroup_size,
            "waves_per_simd": occ.waves_per_simd, "limited_by": list(occ.limited_by),
            "instructions": len(mnemonics),
            "instruction_mix": isa_mix.instruction_mix(mnemonics),
            "memory": _memory(code.get(r.name, [])),
            "hot_loop": _hot_loop(code.get(r.name, [])),
        })
    return kernels


def _hot_loop(
    instructions: list[loops.Instruction],
) -> dict[str, float | int | dict[str, int]] | None:
    found = loops.hot_loop(instructions)
    return found.as_dict() if found is not None else None


def _memory(instructions: list[loops.Instruction]) -> dict[str, int]:
    mem = memory.parallelism(list(instructions))
    return {"global_loads": mem.loads, "loads_in_flight": mem.peak_loads_in_flight,
            "vmcnt_waits_full": mem.full_waits, "vmcnt_waits_partial": mem.partial_waits}


def inspect(path: Path) -> dict[str, Any]:
    return {"kernels": [k for co in code_objects(path) for k in inspect_code_object(co)]}


def to_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, sort_keys=True) + "\n"


_COLUMNS = (("arch", "arch"), ("vgpr", "VGPR"), ("agpr", "AGPR"), ("sgpr", "SGPR"),
            ("scratch_bytes", "scratch"), ("lds_bytes", "LDS"), ("waves_per_simd", "waves/SIMD"))


def to_table(report: dict[str, Any]) -> str:
    lines: list[str] = []
    for kernel in report["kernels"]:
        lines.append(f"kernel {kernel['name']}")
        header = "  ".join(title.rjust(max(len(title), 6)) for _, title in _COLUMNS)
        values = "  ".join(str(kernel[key]).rjust(max(len(title), 6)) for key, title in _COLUMNS)
        lines += ["  " + header, "  " + values]
        lines.append(f"  limited by: {', '.join(kernel['limited_by'])}; "
                     f"{kernel['instructions']} instructions; spills: "
                     f"{kernel['vgpr_spills']} VGPR, {kernel['sgpr_spills']} SGPR; "
                     f"work-group size bound {kernel['max_workgroup_size']}")
        mem = kernel["memory"]
        lines.append(f"  global loads: {mem['global_loads']}, at most {mem['loads_in_flight']} in "
                     f"flight; vmcnt waits: {mem['vmcnt_waits_full']} full, "
                     f"{mem['vmcnt_waits_partial']} partial")
        loop = kernel.get("hot_loop")
        if loop:
            lines.append(f"  hot loop: {loop['instructions']} instructions, {loop['mfma']} MFMA "
                         f"({100 * loop['mfma_share']:.1f}%), {loop['global_loads']} global loads "
                         f"(at most {loop['loads_in_flight']} in flight), {loop['lds_reads']} LDS "
                         f"reads ({_widths(loop['lds_read_widths'])}), {loop['cross_lane']} "
                         f"cross-lane, {loop['exec_branches']} exec branches, vmcnt waits "
                         f"{loop['vmcnt_waits_full']} full / {loop['vmcnt_waits_partial']} partial")
        mix = kernel["instruction_mix"]
        width = max((len(m) for m in mix), default=0)
        lines += [f"    {m.ljust(width)}  {n:5d}" for m, n in mix.items()]
        lines.append("")
    return "\n".join(lines)


def _widths(counts: dict[str, int]) -> str:
    """`ds_read_u16 96, ds_read_b128 16` — LDS reads by mnemonic."""
    return ", ".join(f"{m} {n}" for m, n in counts.items()) or "none"
