"""ldmatrix's rows distribution at trace time (bbx.trace.copy_mma): partition_S of an ldmatrix.x4
copy made from a tiled MMA gives each lane the row it hands the instruction, on targets with
ldmatrix (NVIDIA's MMAs), as the header's Copy_Traits<LdMatrix8x8x16bOp>::src_thrval_remap does.

* the remap is the header's, offset for offset (a g++ program);
* an independent model of the instruction — lane 8j + r gives the address of row r of matrix j;
  thread t receives elements 2(t%4), 2(t%4)+1 of row t/4 of each matrix (.trans: those rows'
  column t/4) — applied to the rows partition puts in each thread's register values the tile
  elements its MMA fragment holds (the fragment's (thread, value) -> tile layout);
* partition_S of a shared-memory tile is in that distribution on the CUDA target and in the
  fragment's on the others (where each thread reads its own values).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bbx.cxx import ast as c
from bbx.targets import toolchain
from bbx.targets.registry import parse_target
from bbx.trace import layout as L
from bbx.trace.copy import LdMatrix8x8x16bOp, make_copy_atom
from bbx.trace.copy_mma import TiledCopyMma, make_tiled_copy_A, make_tiled_copy_B, src_thrval_remap
from bbx.trace.layout_algebra import composition
from bbx.trace.mma import MmaF16BF16Op
from bbx.trace.pointer import Pointer
from bbx.trace.scalar import Float16, Float32
from bbx.trace.target import tracing_for
from bbx.trace.tensor import Tensor
from bbx.trace.tiled_mma import make_tiled_mma

#: (transpose, matrices, threads, values)
REMAPS = [(tr, n, t, v) for tr in (False, True) for n in (1, 2, 4) for t in (32, 128)
          for v in (8, 16, 32)]


def test_remap_is_the_headers(tmp_path: Path) -> None:
    lines = ["#include <bbx/bbx.hpp>", "#include <cstdio>", "using namespace bbx;",
             "int main() {"]
    expected: list[str] = []
    for k, (tr, n, t, v) in enumerate(REMAPS):
        remap = src_thrval_remap(tr, n, t, v)
        traits = f"Copy_Traits<LdMatrix8x8x16bOp<{'true' if tr else 'false'}, {n}>, half_t, 16>"
        lines.append(f"  {{ auto l = {traits}::src_thrval_remap<{t}, {v}>();")
        lines.append(f'    std::printf("{k}:"); for (int i = 0; i < {t * v}; ++i) '
                     'std::printf(" %d", int(l(i))); std::printf("\\n"); }')
        expected.append(f"{k}:" + "".join(f" {int(remap(i))}" for i in range(t * v)))
        assert L.size(remap) == t * v
    lines += ["}", ""]
    src = tmp_path / "remap.cpp"
    src.write_text("\n".join(lines))
    exe = tmp_path / "remap"
    try:
        toolchain.compile_source(toolchain.host_command(src, exe, opt="-O0", extra_flags=["-w"]))
    except FileNotFoundError:
        pytest.skip("no host C++ compiler")
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == expected


def _copies(target: str, transpose: bool) -> list[TiledCopyMma]:
    with tracing_for(parse_target(target)):
        mma = make_tiled_mma(MmaF16BF16Op(Float16, Float32, (16, 8, 16)), L.make_layout((2, 2, 1)),
                             (32, 32, 16))
        atom = make_copy_atom(LdMatrix8x8x16bOp(transpose, 4), Float16)
        return [make_tiled_copy_A(atom, mma), make_tiled_copy_B(atom, mma)]


def _smem_tile(copy: TiledCopyMma) -> Tensor:
    m, k = copy.tiler_mn
    return Tensor(Pointer(c.Id("smem"), Float16, "smem"), L.make_layout((m, k)))


@pytest.mark.parametrize("transpose", [False, True])
def test_rows_partition_delivers_the_fragment(transpose: bool) -> None:
    """Each lane's rows, through the model of ldmatrix.x4, fill every thread's fragment values
    with the tile elements of the fragment's layout (tile index = m + M k of the copy's tile)."""
    with tracing_for(parse_target("cuda")):
        for copy in _copies("cuda", transpose):
            tile = _smem_tile(copy)
            assert copy.reads_rows(tile)
            rows = copy.src_thrval2mn(tile)  # (thread, (1, values)) -> tile index
            frag = copy.layout_tv  # (thread, value) -> tile index
            threads, values = int(L.size(frag[0])), int(L.size(frag[1]))
            for warp in range(threads // 32):
                for instr in range(values // 8):
                    # row r of matrix j: the 8 tile elements lane 8j + r reads
                    matrix = [[[int(rows((32 * warp + 8 * j + r, (0, 8 * instr + e))))
                                for e in range(8)] for r in range(8)] for j in range(4)]
                    for lane in range(32):
                        t = 32 * warp + lane
                        for j in range(4):
                            for b in range(2):
                                if transpose:
                                    got = matrix[j][2 * (lane % 4) + b][lane // 4]
                                else:
                                    got = matrix[j][lane // 4][2 * (lane % 4) + b]
                                assert got == int(frag((t, 8 * instr + 2 * j + b))), (
                                    t, instr, j, b)


@pytest.mark.parametrize("target", ["cuda", "cpu", "gfx942"])
def test_partition_s_distribution_follows_the_target(target: str) -> None:
    with tracing_for(parse_target(target)):
        for copy in _copies(target, False):
            tile = _smem_tile(copy)
            rows = copy.reads_rows(tile)
            assert rows == (target == "cuda")
            expected = copy.src_thrval2mn(tile) if rows else copy.thrval2mn()
            assert (copy.src_thrval2mn(tile) == copy.thrval2mn()) == (not rows)
            part = copy.get_slice(5).partition_S(tile)  # the thread's offset in its pointer
            base = int(part.iterator.offset)
            flat = [base + int(part.trace_layout(i))
                    for i in range(int(L.size(part.trace_layout)))]
            values = int(L.size(copy.layout_tv[1]))
            assert flat == [int(expected((5, (0, v)))) for v in range(values)]
            gmem = Tensor(Pointer(c.Id("g"), Float16, "gmem"), tile.trace_layout)
            assert not copy.reads_rows(gmem)


def test_rows_layout_is_the_fragments_composed_with_the_remap() -> None:
    with tracing_for(parse_target("cuda")):
        copy = _copies("cuda", True)[0]
        threads, values = int(L.size(copy.layout_tv[0])), int(L.size(copy.layout_tv[1]))
        remap = src_thrval_remap(True, 4, threads, values)
        rows = copy.src_thrval2mn(_smem_tile(copy))
        ref = composition(copy.layout_tv, remap)
        for t in range(threads):
            for v in range(values):
                assert int(rows((t, (0, v)))) == int(ref((t, v)))
