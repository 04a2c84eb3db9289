"""The tracer's MMA facts against the header library's (one g++ program per MFMA architecture):

* each atom's traits (bbx.trace.mma_traits: Shape_MNK, ThrID, A/B/C thread-value layouts) are
  the C++ `MMA_Traits<instruction>` types exactly (static_assert on the spelled types);
* tiled MMAs — SIMT ones with permutations, and NVIDIA's warp MmaF16BF16Op, which becomes MFMA
  atoms on AMD and the simulator by bbx/atom/mma_dsl.hpp's rules — have the header's thread
  layout, tile and (thread, value) -> tile layouts of A, B and C (shape as a type, offsets
  printed for every index): the tracer's choice of MFMA atom and wave layout is the header's.

The MFMA lane layouts are also checked against the AMD Matrix Instruction Calculator's table
(/work/shared/data/mfma_layouts.json), an independent reference, where it is present."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bbx.cxx.printer import expr_text, type_text
from bbx.targets import toolchain
from bbx.targets.registry import parse_target
from bbx.trace import layout as L
from bbx.trace.layout_cxx import cxx_type, cxx_value
from bbx.trace.mma import MmaF16BF16Op, MmaUniversalOp, TiledMma
from bbx.trace.mma_traits import MmaTraits, mfma_f16, sm80_16x8x16, universal_fma
from bbx.trace.scalar import BFloat16, Float16, Float32
from bbx.trace.target import tracing_for
from bbx.trace.tiled_mma import make_tiled_mma

MFMA_TABLE = Path("/work/shared/data/mfma_layouts.json")

ATOMS: list[MmaTraits] = [
    universal_fma(Float32), universal_fma(Float16),
    sm80_16x8x16(Float16, Float32), sm80_16x8x16(BFloat16, Float32),
    sm80_16x8x16(Float16, Float16),
    *(mfma_f16(m, k, ab, Float32) for m, k in ((16, 16), (16, 32), (32, 8), (32, 16))
      for ab in (Float16, BFloat16)),
]


def _tile(p: Any) -> str:
    if p is None:
        return "_"
    if isinstance(p, L.Layout):
        return expr_text(cxx_value(p))
    return f"Int<{p}>{{}}"


def _cxx_op(op: Any) -> str:
    if isinstance(op, MmaUniversalOp):
        return "MmaUniversalOp(type_c<float>{})"
    ab = "half_t" if op.ab_dtype is Float16 else "bfloat16_t"
    acc = "float" if op.acc_dtype is Float32 else "half_t"
    shape = "make_shape(_16{}, _8{}, _16{})"
    return f"MmaF16BF16Op(type_c<{ab}>{{}}, type_c<{acc}>{{}}, {shape})"


#: (op, atom layout, permutation) of the tiled MMAs compared
TILED: list[tuple[Any, L.Layout, tuple[Any, Any, Any]]] = [
    (MmaUniversalOp(Float32), L.Layout((16, 16, 1), (16, 1, 0)),
     (L.Layout((16, 4), (4, 1)), L.Layout((16, 4), (4, 1)), None)),
    (MmaUniversalOp(Float32), L.Layout((4, 8, 1), (1, 4, 0)), (None, None, None)),
    (MmaUniversalOp(Float32), L.Layout((8, 4, 1), (4, 1, 0)), (L.Layout((8, 2), (2, 1)), 8, 2)),
    (MmaF16BF16Op(Float16, Float32, (16, 8, 16)), L.make_layout((2, 2, 1)), (32, 32, 16)),
    (MmaF16BF16Op(BFloat16, Float32, (16, 8, 16)), L.make_layout((2, 2, 1)), (32, 32, 16)),
    (MmaF16BF16Op(Float16, Float32, (16, 8, 16)), L.make_layout((4, 2, 1)), (64, 32, 16)),
    (MmaF16BF16Op(Float16, Float16, (16, 8, 16)), L.make_layout((2, 4, 1)), (None, None, None)),
]


def _tiled(arch_target: str) -> list[TiledMma]:
    with tracing_for(parse_target(arch_target)):
        return [make_tiled_mma(op, layout, perm) for op, layout, perm in TILED]


def _dump(lines: list[str], key: str, layout: L.Layout, expr: str) -> None:
    """static_assert on the shape's type; the offsets of every index printed under `key`."""
    shape = expr_text(cxx_value(L.make_layout(layout.shape)))
    lines.append(f"  {{ auto l = {expr};")
    lines.append("    static_assert(std::is_same_v<std::remove_cvref_t<decltype(l.shape())>, "
                 f"std::remove_cvref_t<decltype({shape}.shape())>>, \"{key}: shape\");")
    lines.append(f'    std::printf("{key}:");')
    lines.append(f"    for (int i = 0; i < {int(L.size(layout))}; ++i) "
                 'std::printf(" %d", int(l(i)));')
    lines.append('    std::printf("\\n"); }')


@pytest.mark.parametrize(("target", "mfma_arch"), [("cpu", 942), ("gfx950", 950)])
def test_atoms_and_tiled_mmas_agree_with_the_headers(target: str, mfma_arch: int,
                                                     tmp_path: Path) -> None:
    assert parse_target(target).mfma_arch == mfma_arch
    lines = ["#include <bbx/bbx.hpp>", "#include <cstdio>", "#include <type_traits>",
             "using namespace bbx;", "int main() {"]
    for n, atom in enumerate(ATOMS):
        traits = f"MMA_Traits<{atom.cxx_op}>"
        for member, value in (("Shape_MNK", L.make_layout(atom.shape_mnk).shape),
                              ("ThrID", atom.thr_id), ("ALayout", atom.layout_a),
                              ("BLayout", atom.layout_b), ("CLayout", atom.layout_c)):
            lines.append(f"  static_assert(std::is_same_v<typename {traits}::{member}, "
                         f"{type_text(cxx_type(value))}>, \"atom {n} {member}\");")
    tiled = _tiled(target)
    expected: dict[str, list[int]] = {}
    for n, (mma, (op, layout, perm)) in enumerate(zip(tiled, TILED, strict=True)):
        cxx = (f"make_tiled_mma({_cxx_op(op)}, {expr_text(cxx_value(layout))}, "
               f"make_tile({', '.join(_tile(p) for p in perm)}))")
        lines.append(f"  static_assert(decltype({cxx})::num_threads == {mma.size});")
        lines.append(f"  static_assert(std::is_same_v<decltype({cxx})::atom_type, "
                     f"MMA_Atom<{mma.atom.traits.cxx_op}>>, \"tiled {n}: atom\");")
        for i in range(3):
            lines.append(f"  static_assert(decltype(size({cxx}.get_tile_size(Int<{i}>{{}})))"
                         f"::value == {mma.get_tile_size(i)});")
        for name, got in (("vmnk", mma.thr_layout_vmnk), ("A", mma.tv_layout_A_tiled),
                          ("B", mma.tv_layout_B_tiled), ("C", mma.tv_layout_C_tiled)):
            key = f"t{n}{name}"
            what = "thr_layout_vmnk()" if name == "vmnk" else f"get_layout{name}_TV()"
            _dump(lines, key, got, f"{cxx}.{what}")
            expected[key] = [int(got(i)) for i in range(int(L.size(got)))]
    lines += ["}", ""]
    src = tmp_path / "mma_traits.cpp"
    src.write_text("\n".join(lines))
    exe = tmp_path / "mma_traits"
    try:
        toolchain.compile_source(toolchain.host_command(
            src, exe, opt="-O0", extra_flags=["-w", f"-DBBX_MFMA_ARCH={mfma_arch}"]))
    except FileNotFoundError:
        pytest.skip("no host C++ compiler")
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    got_cxx = {k: [int(v) for v in rest.split()]
               for k, _, rest in (line.partition(":") for line in out.splitlines())}
    assert got_cxx == expected


@pytest.mark.skipif(not MFMA_TABLE.is_file(), reason=f"no MFMA table at {MFMA_TABLE}")
@pytest.mark.parametrize(("m", "k"), [(16, 16), (16, 32), (32, 8), (32, 16)])
def test_mfma_lane_layouts_are_the_calculators(m: int, k: int) -> None:
    """(lane, element) -> matrix entry of the table, for A (row, k), B (col, k) and C
    (row, col), against the tracer's (T, V) -> column-major index layouts."""
    table = json.loads(MFMA_TABLE.read_text())
    arch = "gfx950" if (m, k) in ((16, 32), (32, 16)) else "gfx942"
    entry = next(e for e in table["entries"] if e.get("arch") == arch
                 and e.get("instruction") == f"v_mfma_f32_{m}x{m}x{k}_f16")
    traits = mfma_f16(m, k, Float16, Float32)
    rows = {"A": (traits.layout_a, m), "B": (traits.layout_b, m), "C": (traits.layout_c, m)}
    for operand, (layout, ld) in rows.items():
        cells = _cells(entry, operand)
        assert cells, f"no {operand} cells in the table's entry"
        for (lane, elem), (r, col) in cells.items():
            assert layout((lane, elem)) == r + ld * col, (operand, lane, elem)


def _cells(entry: dict[str, Any], operand: str) -> dict[tuple[int, int], tuple[int, int]]:
    """(lane, element) -> (M or N index, K index) for A and B, (M index, N index) for C, from
    the table's rows: a [lane, elem, block, i, k], b [lane, elem, block, k, j],
    c [lane, elem, block, i, j] (its README)."""
    found: dict[tuple[int, int], tuple[int, int]] = {}
    for lane, elem, _block, x, y in entry[operand.lower()]:
        found[(lane, elem)] = (y, x) if operand == "B" else (x, y)
    return found
