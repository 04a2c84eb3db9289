"""Generate the AMD MFMA instruction structs and their thread/value layouts from the MFMA
register-layout table (tests/mma/data/mfma_layouts.json.gz, a copy of
../shared/data/mfma_layouts.json: AMD's matrix instruction calculator output and the sources its
README names).

Writes five headers (checked in; regenerate after changing this script or the data):
  runtime_cpp/include/bbx/arch/mma_amd.hpp        one struct per instruction; its fma() calls
                                                  the instruction's platform hook
  runtime_cpp/include/bbx/platform/amd/mfma_hooks.hpp   the hooks on AMD: the clang builtins
  runtime_cpp/include/bbx/platform/cpu/mfma_hooks.hpp   on the simulator: its lane-exact emulation
  runtime_cpp/include/bbx/platform/cuda/mfma_hooks.hpp  on CUDA: a static error naming the
                                                  instruction
  runtime_cpp/include/bbx/atom/mma_traits_amd.hpp the layouts: MMA_Traits (CuTe form) and the
                                                  emulation layouts of every entry

    python scripts/gen_mfma_traits.py            # regenerate the headers
    python scripts/gen_mfma_traits.py --check    # exit 1 when the checked-in headers are stale
    python scripts/gen_mfma_traits.py --refresh-data ../shared/data/mfma_layouts.json

Each operand table row [lane, elem, block, row, col] becomes a CuTe layout (T64, V) -> index of a
column-major (rows, cols, blocks) array: A -> (M, K), B -> (N, K), C -> (M, N), the conventions of
CuTe's MMA_Traits. The layouts are found by factoring the table (lane part + element part, each a
product of strided modes) and are verified against every row before anything is written.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "mma" / "data" / "mfma_layouts.json.gz"
ARCH_OUT = ROOT / "runtime_cpp" / "include" / "bbx" / "arch" / "mma_amd.hpp"
ATOM_OUT = ROOT / "runtime_cpp" / "include" / "bbx" / "atom" / "mma_traits_amd.hpp"
PLATFORM_DIR = ROOT / "runtime_cpp" / "include" / "bbx" / "platform"
AMD_HOOKS_OUT = PLATFORM_DIR / "amd" / "mfma_hooks.hpp"
CPU_HOOKS_OUT = PLATFORM_DIR / "cpu" / "mfma_hooks.hpp"
CUDA_HOOKS_OUT = PLATFORM_DIR / "cuda" / "mfma_hooks.hpp"

KEPT_FIELDS = (
    "arch instruction variant m n k blocks a_elem_bits b_elem_bits c_elem_bits a_vgprs b_vgprs "
    "c_vgprs operand_types builtin builtin_arg_types builtin_return_type builtin_emits "
    "layout_source elements_per_lane cycles"
).split()

# f8f6f4 format codes (cbsz for A, blgp for B) and the table variant that holds their layout.
F8F6F4_CODES = {
    0: ("fp8_e4m3fn", 8),
    1: ("bf8_e5m2", 8),
    2: ("fp6_e2m3", 6),
    3: ("bf6_e3m2", 6),
    4: ("fp4_e2m1", 4),
}
F8F6F4_VARIANT_BITS = {8: "fp8_or_bf8", 6: "fp6_or_bf6", 4: "fp4"}


def load_entries() -> list[dict]:
    with gzip.open(DATA, "rt") as f:
        return json.load(f)["entries"]


def refresh_data(source: Path) -> None:
    """Copy the fields bbx uses from the shared table into the repository's compressed copy."""
    full = json.loads(source.read_text())
    entries = []
    for e in full["entries"]:
        if e["d"] != e["c"]:
            raise SystemExit(f"{e['instruction']}: D layout differs from C; bbx assumes D == C")
        kept = {k: e[k] for k in KEPT_FIELDS}
        kept.update({op: e[op] for op in "abc"})
        entries.append(kept)
    out = {
        "schema_version": full["schema_version"],
        "date": full["date"],
        "source": full["source"],
        "conventions": full["conventions"],
        "note": "Subset of ../shared/data/mfma_layouts.json (every entry; fields used by bbx; d "
        "omitted: equal to c). Regenerate with scripts/gen_mfma_traits.py --refresh-data PATH.",
        "entries": entries,
    }
    text = json.dumps(out, separators=(",", ":"), sort_keys=True)
    with gzip.GzipFile(DATA, "wb", mtime=0) as f:
        f.write(text.encode())


# ---- layout factoring ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Mode:
    shape: tuple[int, ...]
    stride: tuple[int, ...]

    def __call__(self, n: int) -> int:
        total = 0
        for s, d in zip(self.shape, self.stride, strict=True):
            total += (n % s) * d
            n //= s
        return total

    def cpp(self) -> tuple[str, str]:
        if len(self.shape) == 1:
            return f"Int<{self.shape[0]}>", f"Int<{self.stride[0]}>"
        shapes = ", ".join(f"Int<{s}>" for s in self.shape)
        strides = ", ".join(f"Int<{d}>" for d in self.stride)
        return f"Shape<{shapes}>", f"Stride<{strides}>"


def factor(values: list[int]) -> Mode:
    """Modes (shape_i, stride_i), leftmost fastest, with values[n] = sum_i digit_i(n) * stride_i."""
    size = len(values)
    if values[0] != 0:
        raise ValueError("a layout must map 0 to 0")
    shapes: list[int] = []
    strides: list[int] = []
    step = 1
    while step < size:
        stride = values[step]
        run = 2
        while step * run <= size and size % (step * run) == 0:
            if all(values[step * j] == j * stride for j in range(run)):
                run *= 2
            else:
                break
        run //= 2
        while run > 1 and not all(values[step * j] == j * stride for j in range(run)):
            run //= 2
        if run < 2:
            raise ValueError(f"no strided mode at {step}")
        shapes.append(run)
        strides.append(stride)
        step *= run
    if not shapes:
        shapes, strides = [1], [0]
    mode = Mode(tuple(shapes), tuple(strides))
    if [mode(n) for n in range(size)] != values:
        raise ValueError("values are not a strided layout")
    return mode


@dataclass(frozen=True)
class OperandLayout:
    thr: Mode
    val: Mode
    elems: int

    def cpp(self) -> str:
        ts, td = self.thr.cpp()
        vs, vd = self.val.cpp()
        return f"Layout<Shape<{ts}, {vs}>, Stride<{td}, {vd}>>"


def operand_layout(rows: list[list[int]], dims: tuple[int, int, int], elems: int) -> OperandLayout:
    """rows: [lane, elem, block, r, c]; index = r + c*R + block*R*C, i.e. column-major
    (R, C, blocks)."""
    rdim, cdim, _ = dims
    index = {}
    for lane, elem, block, r, c in rows:
        index[(lane, elem)] = r + c * rdim + block * rdim * cdim
    if len(index) != 64 * elems or len(set(index.values())) != 64 * elems:
        raise ValueError("the table is not a bijection of (lane, elem)")
    thr = factor([index[(t, 0)] for t in range(64)])
    val = factor([index[(0, v)] for v in range(elems)])
    for (lane, elem), idx in index.items():
        if thr(lane) + val(elem) != idx:
            raise ValueError(f"(lane {lane}, elem {elem}) is not lane part + element part")
    return OperandLayout(thr, val, elems)


def b_rows_as_nk(rows: list[list[int]]) -> list[list[int]]:
    """B rows are [lane, elem, block, k, j]; CuTe's B layout indexes (N, K): swap to (j, k)."""
    return [[lane, elem, block, j, k] for lane, elem, block, k, j in rows]


# ---- instruction model ---------------------------------------------------------------------
CPP_FORMAT = {
    "FP16": "f16",
    "BF16": "bf16",
    "FP32": "f32",
    "int8": "i8",
    "int32": "i32",
}


def operand_format(entry: dict, op: str) -> str:
    text = entry["operand_types"][op]
    if text.startswith("FP8"):
        return "fp8_arch"  # E4M3FNUZ on gfx942, E4M3FN (OCP) on gfx950
    for key, fmt in CPP_FORMAT.items():
        if text.startswith(key):
            return fmt
    raise ValueError(f"{entry['instruction']}: unknown operand type {text!r}")


def struct_name(entry: dict) -> str:
    """v_mfma_f32_16x16x16_f16 -> MFMA_F32_16x16x16_F16 (the shape keeps its lower-case x)."""
    name = entry["instruction"][len("v_mfma_") :]
    parts = [p if re.fullmatch(r"\d+x\d+x\d+(_16b)?", p) else p.upper() for p in name.split("_")]
    prefix = "MFMA_SCALE_" if "f8f6f4" in name else "MFMA_"
    return prefix + "_".join(parts)


VALUE_TYPE = {
    "f16": "half_t",
    "bf16": "bfloat16_t",
    "f32": "float",
    "i8": "int8_t",
    "i32": "int32_t",
    "fp8_arch": "uint8_t",
}
VECTOR_ELEM = {
    "_Float16": "_Float16",
    "short": "short",
    "__bf16": "__bf16",
    "float": "float",
    "int": "int",
    "long": "long",
}


def clang_type(text: str) -> tuple[str, int]:
    """'_Float16 x4' -> ('_Float16', 4); 'long' -> ('long', 1)."""
    parts = text.split(" x")
    base = parts[0].strip()
    count = int(parts[1]) if len(parts) > 1 else 1
    if base not in VECTOR_ELEM:
        raise ValueError(f"unknown builtin operand type {text!r}")
    return base, count


@dataclass
class Instruction:
    name: str
    mnemonic: str
    builtin: str
    archs: list[str]
    m: int
    n: int
    k: int
    blocks: int
    fmt: dict[str, str]
    elems: dict[str, int]
    bits: dict[str, int]
    builtin_types: list[tuple[str, int]]
    ret_type: tuple[str, int]
    layouts: dict[str, OperandLayout]
    sources: dict[str, str]
    cycles: dict[str, int | None]
    f8f6f4: bool = False
    f8f6f4_layouts: dict[int, dict[str, OperandLayout]] | None = None


def build_instructions(entries: list[dict]) -> list[Instruction]:
    by_name: dict[str, Instruction] = {}
    order: list[str] = []
    for e in entries:
        name = struct_name(e)
        m, n, k, blocks = e["m"], e["n"], e["k"], e["blocks"]
        a = operand_layout(e["a"], (m, k, blocks), e["elements_per_lane"]["a"])
        b = operand_layout(b_rows_as_nk(e["b"]), (n, k, blocks), e["elements_per_lane"]["b"])
        c = operand_layout(e["c"], (m, n, blocks), e["elements_per_lane"]["c"])
        if name in by_name:
            ins = by_name[name]
            if ins.f8f6f4:
                bits = e["a_elem_bits"]
                assert ins.f8f6f4_layouts is not None
                ins.f8f6f4_layouts[bits] = {"a": a, "b": b}
                continue
            if (ins.layouts["a"], ins.layouts["b"], ins.layouts["c"]) != (a, b, c):
                raise SystemExit(f"{name}: the layout differs between architectures")
            if ins.builtin != e["builtin"]:
                raise SystemExit(f"{name}: the builtin differs between architectures")
            ins.archs.append(e["arch"])
            ins.sources[e["arch"]] = e["layout_source"]
            ins.cycles[e["arch"]] = e["cycles"]
            continue
        is_f8f6f4 = "f8f6f4" in e["instruction"]
        ins = Instruction(
            name=name,
            mnemonic=e["instruction"],
            builtin=e["builtin"],
            archs=[e["arch"]],
            m=m,
            n=n,
            k=k,
            blocks=blocks,
            fmt={"c": "f32"} if is_f8f6f4 else {op: operand_format(e, op) for op in "abc"},
            elems={op: e["elements_per_lane"][op] for op in "abc"},
            bits={op: e[f"{op}_elem_bits"] for op in "abc"},
            builtin_types=[clang_type(t) for t in e["builtin_arg_types"][:3]],
            ret_type=clang_type(e["builtin_return_type"]),
            layouts={"a": a, "b": b, "c": c},
            sources={e["arch"]: e["layout_source"]},
            cycles={e["arch"]: e["cycles"]},
            f8f6f4=is_f8f6f4,
            f8f6f4_layouts={e["a_elem_bits"]: {"a": a, "b": b}} if is_f8f6f4 else None,
        )
        by_name[name] = ins
        order.append(name)
    return [by_name[n] for n in order]


# ---- C++ emission --------------------------------------------------------------------------
HEADER_NOTE = (
    "// GENERATED by scripts/gen_mfma_traits.py from tests/mma/data/mfma_layouts.json.gz\n"
    "// (a copy of "
    "// ../shared/data/mfma_layouts.json). Do not edit: change the script and regenerate.\n"
)


def arch_guard(archs: list[str]) -> str:
    return " || ".join(f"defined(__{a}__)" for a in archs)


def arch_mask(archs: list[str]) -> str:
    return " | ".join(f"mfma_arch::{a}" for a in archs)


def regs(op: str, ins: Instruction) -> str:
    if ins.f8f6f4 and op in "ab":
        return "mfma_regs<std::uint32_t, 8>"  # the builtin's int x8; formats pick the bits used
    value = VALUE_TYPE[ins.fmt[op]]
    return f"mfma_regs<{value}, {ins.elems[op]}>"


def emit_arch_struct(ins: Instruction) -> str:
    archs = ", ".join(ins.archs)
    lines: list[str] = []
    if ins.f8f6f4:
        lines.append(
            f"// {ins.mnemonic} ({archs}): D({ins.m}x{ins.n} f32) = A({ins.m}x{ins.k}) * "
            f"B({ins.k}x{ins.n}) + C, A/B formats by code"
        )
        lines.append(
            "// (0 fp8 e4m3, 1 bf8 e5m2, 2 fp6 e2m3, 3 bf6 e3m2, 4 fp4 e2m1; "
            "cbsz for A, blgp for B)."
        )
        lines.append(f"// clang: {ins.builtin}(a, b, c, FmtA, FmtB, 0, 0, 0, 0): unscaled when the")
        lines.append(
            "// op-selects and scales are 0. Registers: 8 ints per operand "
            "(6 used by fp6, 4 by fp4)."
        )
        lines.append("template <int FmtA, int FmtB>")
        lines.append(f"struct {ins.name} {{")
        lines.append("  static_assert(FmtA >= 0 && FmtA <= 4 && FmtB >= 0 && FmtB <= 4,")
        lines.append(f'                "{ins.mnemonic}: format codes are 0..4");')
        lines.append("  static constexpr int fmt_a = FmtA, fmt_b = FmtB;")
    else:
        fa, fb, fc = (ins.fmt[o] for o in "abc")
        lines.append(
            f"// {ins.mnemonic} ({archs}): D({ins.m}x{ins.n} {fc}) = A({ins.m}x{ins.k} {fa}) * "
            f"B({ins.k}x{ins.n} {fb}) + C" + (f", {ins.blocks} blocks" if ins.blocks > 1 else "")
        )
        lines.append(f"// clang: {ins.builtin}(a, b, c, 0, 0, 0)")
        lines.append(f"struct {ins.name} {{")
    lines.append(f'  static constexpr char const* mnemonic = "{ins.mnemonic}";')
    lines.append(
        f"  static constexpr int M = {ins.m}, N = {ins.n}, K = {ins.k}, blocks = {ins.blocks};"
    )
    lines.append(f"  static constexpr unsigned archs = {arch_mask(ins.archs)};")
    if ins.f8f6f4:
        lines.append("  static constexpr mfma_format format_a = mfma_f8f6f4_format(FmtA);")
        lines.append("  static constexpr mfma_format format_b = mfma_f8f6f4_format(FmtB);")
        lines.append("  static constexpr mfma_format format_c = mfma_format::f32;")
        lines.append(
            "  static constexpr int a_elems = 32, b_elems = 32, c_elems = "
            + str(ins.elems["c"])
            + ";"
        )
    else:
        for op in "abc":
            lines.append(
                f"  static constexpr mfma_format format_{op} = mfma_format::{ins.fmt[op]};"
            )
        lines.append(
            f"  static constexpr int a_elems = {ins.elems['a']}, b_elems = {ins.elems['b']}, "
            f"c_elems = {ins.elems['c']};"
        )
    lines.append(f"  using ARegisters = {regs('a', ins)};")
    lines.append(f"  using BRegisters = {regs('b', ins)};")
    lines.append(f"  using CRegisters = {regs('c', ins)};")
    lines.append("  using DRegisters = CRegisters;")
    tmpl = f"{ins.name}<FmtA, FmtB>" if ins.f8f6f4 else ins.name
    lines.append(f"  template <class Self = {tmpl}>")
    lines.append(
        "  BBX_HOST_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b,"
    )
    lines.append("                                  CRegisters const& c) {")
    lines.append(f"    ::bbx::arch::{hook_name(ins)}<Self>(d, a, b, c);")
    lines.append("  }")
    lines.append("};")
    return "\n".join(lines)


def emit_arch(instructions: list[Instruction]) -> str:
    out = [
        "// bbx/arch/mma_amd.hpp — AMD MFMA instructions (gfx942 / gfx950), one struct per "
        "instruction.",
        HEADER_NOTE.rstrip("\n"),
        "//",
        "// Each struct holds what the instruction is (shape, formats, register counts, the",
        "// targets that have it) and `fma(d, a, b, c)`, which calls the instruction's platform",
        "// hook (arch::mfma_<builtin>, platform/mfma_hooks.hpp): the clang builtin on AMD device",
        "// code, the simulator's lane-exact emulation on the CPU target (platform/cpu/mfma.hpp),",
        "// a static error on CUDA.",
        "// Registers are `mfma_regs<T, n>`: the n elements one lane holds, in the builtin's order",
        "// (element e of an operand occupies bits [e*w, e*w+w) of its VGPRs). Which matrix",
        "// element",
        "// each (lane, element) holds is the layout in atom/mma_traits_amd.hpp.",
        "#pragma once",
        "",
        '#include "bbx/arch/mma_amd_common.hpp"',
        '#include "bbx/platform/mfma_hooks.hpp"',
        "",
        "namespace bbx::arch {",
        "",
    ]
    for ins in instructions:
        out.append(emit_arch_struct(ins))
        out.append("")
    out.append("}  // namespace bbx::arch")
    out.append("")
    out.append('#include "bbx/platform/mfma_emulation.hpp"  // the simulator\'s mfma_emulate')
    return "\n".join(out) + "\n"


# ---- the platform hooks: one function per instruction and target ---------------------------
def hook_name(ins: Instruction) -> str:
    """__builtin_amdgcn_mfma_f32_16x16x16f16 -> mfma_f32_16x16x16f16."""
    prefix = "__builtin_amdgcn_"
    if not ins.builtin.startswith(prefix):
        raise SystemExit(f"{ins.name}: builtin {ins.builtin!r} is not an amdgcn builtin")
    return ins.builtin[len(prefix) :]


HOOK_SIGNATURE = (
    "template <class Op, class D, class A, class B, class C>\n"
    "BBX_HOST_DEVICE void {name}(D& d, A const& a, B const& b, C const& c) {{"
)


def hooks_header(title: str, lines: list[str], includes: list[str]) -> str:
    out = [
        title,
        HEADER_NOTE.rstrip("\n"),
        "//",
        "// One hook per MFMA instruction, `template <class Op> mfma_<builtin>(d, a, b, c)`,",
        "// called by the instruction's struct in arch/mma_amd.hpp (Op); the same names on every",
        "// target (platform/mfma_hooks.hpp includes the one of the target).",
        "#pragma once",
        "",
        *includes,
        "",
        *lines,
    ]
    return "\n".join(out) + "\n"


def emit_amd_hook(ins: Instruction) -> list[str]:
    archs = ", ".join(ins.archs)
    lines = [f"// {ins.mnemonic} ({archs})", HOOK_SIGNATURE.format(name=hook_name(ins))]
    lines.append("#if defined(__HIP_DEVICE_COMPILE__)")
    lines.append(f"#  if {arch_guard(ins.archs)}")
    for alias, (base, count) in zip(("va_t", "vb_t", "vc_t"), ins.builtin_types, strict=True):
        if count == 1:
            lines.append(f"  typedef {base} {alias};")
        else:
            lines.append(
                f"  typedef {base} {alias} "
                f"__attribute__((__vector_size__({count} * sizeof({base}))));"
            )
    call_args = (
        "__builtin_bit_cast(va_t, a), __builtin_bit_cast(vb_t, b), __builtin_bit_cast(vc_t, c)"
    )
    if ins.f8f6f4:
        call = f"{ins.builtin}({call_args}, Op::fmt_a, Op::fmt_b, 0, 0, 0, 0)"
    else:
        call = f"{ins.builtin}({call_args}, 0, 0, 0)"
    lines.append(f"  d = __builtin_bit_cast(D, {call});")
    lines.append("#  else")
    lines.append(
        f'  static_assert(dependent_false<Op>, "{ins.mnemonic} exists on {archs} only; '
        'this AMD target does not have it");'
    )
    lines.append("#  endif")
    lines.append("#else")
    lines.append("  (void)d, (void)a, (void)b, (void)c;  // host pass of a HIP build: never called")
    lines.append("#endif")
    lines.append("}")
    return lines


def emit_amd_hooks(instructions: list[Instruction]) -> str:
    lines = ["namespace bbx::arch {", ""]
    for ins in instructions:
        lines += [*emit_amd_hook(ins), ""]
    lines.append("}  // namespace bbx::arch")
    return hooks_header(
        "// bbx/platform/amd/mfma_hooks.hpp — the MFMA hooks on AMD: the clang builtins.",
        lines,
        ['#include "bbx/config.hpp"'],
    )


def emit_cpu_hooks(instructions: list[Instruction]) -> str:
    lines = [
        "namespace bbx::sim {",
        "// Defined in bbx/platform/cpu/mfma.hpp: one MFMA of the caller's 64-lane wave.",
        "template <class Op, class D, class A, class B, class C>",
        "void mfma_emulate(D& d, A const& a, B const& b, C const& c);",
        "}  // namespace bbx::sim",
        "",
        "namespace bbx::arch {",
        "",
    ]
    for ins in instructions:
        lines.append(f"// {ins.mnemonic}")
        lines.append(HOOK_SIGNATURE.format(name=hook_name(ins)))
        lines.append("  ::bbx::sim::mfma_emulate<Op>(d, a, b, c);")
        lines.append("}")
        lines.append("")
    lines.append("}  // namespace bbx::arch")
    return hooks_header(
        "// bbx/platform/cpu/mfma_hooks.hpp — the MFMA hooks on the simulator: its lane-exact\n"
        "// emulation (platform/cpu/mfma.hpp).",
        lines,
        ['#include "bbx/config.hpp"'],
    )


def emit_cuda_hooks(instructions: list[Instruction]) -> str:
    lines = ["namespace bbx::arch {", ""]
    for ins in instructions:
        lines.append(HOOK_SIGNATURE.format(name=hook_name(ins)))
        lines.append(
            f'  static_assert(dependent_false<Op>, "{ins.mnemonic} is an AMD instruction: the CUDA '
            "target uses the DSL's own MMA atoms\");"
        )
        lines.append("  (void)d, (void)a, (void)b, (void)c;")
        lines.append("}")
        lines.append("")
    lines.append("}  // namespace bbx::arch")
    return hooks_header(
        "// bbx/platform/cuda/mfma_hooks.hpp — the MFMA hooks on CUDA: each is a static error\n"
        "// naming the instruction (CUDA builds use the DSL's own MMA atoms).",
        lines,
        ['#include "bbx/config.hpp"'],
    )


def layout_comment(ins: Instruction) -> str:
    srcs = ", ".join(f"{a}: {s}" for a, s in ins.sources.items())
    return f"// {ins.mnemonic}: layout source {srcs}"


def emit_traits(ins: Instruction) -> str:
    lines = [layout_comment(ins)]
    if ins.f8f6f4:
        assert ins.f8f6f4_layouts is not None
        lines.append("template <int FmtA, int FmtB>")
        lines.append(f"struct MfmaLayouts<arch::{ins.name}<FmtA, FmtB>> {{")
        for bits, lay in sorted(ins.f8f6f4_layouts.items()):
            lines.append(f"  // {bits}-bit formats")
            lines.append(f"  using A{bits} = {lay['a'].cpp()};")
            lines.append(f"  using B{bits} = {lay['b'].cpp()};")
        lines.append(
            "  static constexpr int bits_of(int fmt) { return fmt <= 1 ? 8 : fmt <= 3 ? 6 : 4; }"
        )
        lines.append(
            "  using ALayout = std::conditional_t<bits_of(FmtA) == 8, A8, "
            "std::conditional_t<bits_of(FmtA) == 6, A6, A4>>;"
        )
        lines.append(
            "  using BLayout = std::conditional_t<bits_of(FmtB) == 8, B8, "
            "std::conditional_t<bits_of(FmtB) == 6, B6, B4>>;"
        )
        lines.append(f"  using CLayout = {ins.layouts['c'].cpp()};")
        lines.append("};")
        return "\n".join(lines)
    lines.append("template <>")
    lines.append(f"struct MfmaLayouts<arch::{ins.name}> {{")
    blk = ",blocks" if ins.blocks > 1 else ""
    for op, dims in (("a", "M,K"), ("b", "N,K"), ("c", "M,N")):
        layout = ins.layouts[op].cpp()
        lines.append(
            f"  using {op.upper()}Layout = {layout};  // (T64,V{ins.elems[op]}) -> ({dims}{blk})"
        )
    lines.append("};")
    if ins.blocks == 1:
        vt = {op: VALUE_TYPE[ins.fmt[op]] for op in "abc"}
        if ins.fmt["a"] == "fp8_arch":
            return "\n".join(lines)  # no bbx value type for the fp8 formats: emulation layouts only
        lines.append("template <>")
        lines.append(f"struct MMA_Traits<arch::{ins.name}> : MfmaLayouts<arch::{ins.name}> {{")
        lines.append(f"  using ValTypeD = {vt['c']};")
        lines.append(f"  using ValTypeA = {vt['a']};")
        lines.append(f"  using ValTypeB = {vt['b']};")
        lines.append(f"  using ValTypeC = {vt['c']};")
        lines.append(f"  using Shape_MNK = Shape<Int<{ins.m}>, Int<{ins.n}>, Int<{ins.k}>>;")
        lines.append("  using ThrID = Layout<Int<64>, Int<1>>;")
        lines.append("};")
    return "\n".join(lines)


def emit_atom(instructions: list[Instruction]) -> str:
    out = [
        "// bbx/atom/mma_traits_amd.hpp — thread/value layouts of the AMD MFMA instructions.",
        HEADER_NOTE.rstrip("\n"),
        "//",
        "// MfmaLayouts<Op> (every instruction, used by the simulator's emulation):",
        "//   ALayout: (T64, V) -> column-major index of (M, K[, blocks])",
        "//   BLayout: (T64, V) -> column-major index of (N, K[, blocks])",
        "//   CLayout: (T64, V) -> column-major index of (M, N[, blocks])  (D is laid out as C)",
        "// MMA_Traits<Op> (single-block instructions with a bbx value type): CuTe's",
        "// MMA_Traits, i.e.",
        "// the same layouts plus ValType{A,B,C,D}, Shape_MNK and ThrID (one 64-lane wave).",
        "#pragma once",
        "",
        "#include <type_traits>",
        "",
        '#include "bbx/arch/mma_amd.hpp"',
        '#include "bbx/atom/mma_traits.hpp"',
        "",
        "namespace bbx {",
        "",
        "template <class Op>",
        "struct MfmaLayouts;",
        "",
    ]
    for ins in instructions:
        out.append(emit_traits(ins))
        out.append("")
    out.append("}  // namespace bbx")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="fail when the headers are stale")
    parser.add_argument(
        "--refresh-data",
        type=Path,
        metavar="JSON",
        help="first copy the used fields of this mfma_layouts.json into the repository",
    )
    args = parser.parse_args(argv)
    if args.refresh_data:
        refresh_data(args.refresh_data)
    instructions = build_instructions(load_entries())
    hooks = [hook_name(ins) for ins in instructions]
    if len(set(hooks)) != len(hooks):
        raise SystemExit("two instructions share a builtin: their platform hooks would collide")
    outputs = {
        ARCH_OUT: emit_arch(instructions),
        ATOM_OUT: emit_atom(instructions),
        AMD_HOOKS_OUT: emit_amd_hooks(instructions),
        CPU_HOOKS_OUT: emit_cpu_hooks(instructions),
        CUDA_HOOKS_OUT: emit_cuda_hooks(instructions),
    }
    stale = [p for p, text in outputs.items() if not p.exists() or p.read_text() != text]
    if args.check:
        for p in stale:
            print(
                f"{p.relative_to(ROOT)}: stale; run python scripts/gen_mfma_traits.py",
                file=sys.stderr,
            )
        return 1 if stale else 0
    for p in stale:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(outputs[p])
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
