"""Shaped `cutlass.Vector` values (row-major n-D vectors, bbx::Value<T, N, vshape<...>>):
`cutlass.vector.broadcast_to`, 2-D indexing `v[i, j]`, slices with `:` / `a:b` / steps on each
mode, `cutlass.vector.outerproduct` (with and without an accumulator), elementwise arithmetic
and `.shape` of 2-D values, run on the CPU simulator on random inputs against torch."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from transpiler.conftest import run_driver_on_simulator

from bbx.targets import toolchain
from bbx.translate import translate_source

ROOT = Path(__file__).resolve().parents[2]
COMMON = ROOT / "tests" / "golden" / "instantiate" / "common.hpp"

KERNELS = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def vector_kernel(mX: cute.Tensor, mY: cute.Tensor, mB: cute.Tensor, mS: cute.Tensor,
                  mO: cute.Tensor, mA: cute.Tensor, mC: cute.Tensor, mE: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    row = cutlass.Vector.from_elements(
        (mX[tidx, 0], mX[tidx, 1], mX[tidx, 2], mX[tidx, 3]), cutlass.Float32)
    col = cutlass.Vector.from_elements((mY[tidx, 0], mY[tidx, 1], mY[tidx, 2]), cutlass.Float32)

    m = cutlass.vector.broadcast_to(row, (3, 4))          # (3, 4): row on every row
    for i in cutlass.range_constexpr(3):
        for j in cutlass.range_constexpr(4):
            mB[tidx, i, j] = m[i, j]

    o = cutlass.vector.outerproduct(col, row)             # (3, 4): col[i] * row[j]
    s = o[1:, 1:3]                                        # (2, 2)
    mS[tidx, 0] = s[0, 0]
    mS[tidx, 1] = s[0, 1]
    mS[tidx, 2] = s[1, 0]
    mS[tidx, 3] = s[-1, -1]
    r = o[0, :]                                           # (1, 4): row 0 kept as a mode
    mS[tidx, 4] = r[0, 3]
    e = row[::2]                                          # 1-D strided slice: (2,)
    mS[tidx, 5] = e[1]
    t = o[:, -1:]                                         # (3, 1)
    mS[tidx, 6] = t[2, 0]

    for i in cutlass.range_constexpr(3):
        for j in cutlass.range_constexpr(4):
            mO[tidx, i, j] = o[i, j]

    a = cutlass.vector.outerproduct(col, row, m * 2.0)    # acc + col[i] * row[j]
    one = cutlass.Vector.from_elements((1.0,), cutlass.Float32)
    c = cutlass.vector.outerproduct(col, one)             # (3, 1): col as a column
    cb = cutlass.vector.broadcast_to(c, (3, 4))           # column repeated along the rows
    d = a - cb + cutlass.vector.broadcast_to(mY[tidx, 0], (3, 4))
    for i in cutlass.range_constexpr(3):
        for j in cutlass.range_constexpr(4):
            mA[tidx, i, j] = a[i, j]
            mC[tidx, i, j] = d[i, j]
    mE[tidx, 0] = m.shape[0] * 10 + m.shape[1]
    mE[tidx, 1] = s.shape[0] * 10 + s.shape[1]
    mE[tidx, 2] = t.shape[0] * 10 + t.shape[1]


@cute.jit
def run_all(mX: cute.Tensor, mY: cute.Tensor, mB: cute.Tensor, mS: cute.Tensor,
            mO: cute.Tensor, mA: cute.Tensor, mC: cute.Tensor, mE: cute.Tensor):
    vector_kernel(mX, mY, mB, mS, mO, mA, mC, mE).launch(grid=[1, 1, 1], block=[32, 1, 1])
'''

DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from vector_kernels import run_all

X = torch.randn(32, 4)
Y = torch.randn(32, 3)
B = torch.zeros(32, 3, 4)
S = torch.zeros(32, 7)
O = torch.zeros(32, 3, 4)
A = torch.zeros(32, 3, 4)
C = torch.zeros(32, 3, 4)
E = torch.zeros(32, 3, dtype=torch.int32)
run_all(*(from_dlpack(t) for t in (X, Y, B, S, O, A, C, E)))

torch.testing.assert_close(B, X[:, None, :].expand(32, 3, 4), rtol=0, atol=0)
outer = Y[:, :, None] * X[:, None, :]
torch.testing.assert_close(O, outer, rtol=0, atol=0)
sub = outer[:, 1:, 1:3]
want_s = torch.stack([sub[:, 0, 0], sub[:, 0, 1], sub[:, 1, 0], sub[:, -1, -1],
                      outer[:, 0, 3], X[:, 2], outer[:, 2, 3]], dim=1)
torch.testing.assert_close(S, want_s, rtol=0, atol=0)
# fused (MLIR lowers an accumulating outerproduct to vector.fma): the exact product and sum,
# rounded once (through double: the float product is exact there)
acc = Y[:, :, None].double() * X[:, None, :].double() + 2.0 * X[:, None, :].double()
torch.testing.assert_close(A, acc.float(), rtol=0, atol=0)
want_c = A - Y[:, :, None] + Y[:, 0, None, None]
torch.testing.assert_close(C, want_c)
assert E.tolist() == [[34, 22, 31]] * 32, E
print("PASS")
'''


def test_vector_shapes_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"vector_kernels.py": KERNELS}, DRIVER)


#: What the DSL rejects of shaped Vectors and bbx rejects where only C++ knows the shapes:
#: (kernel statements, the static_assert's message).
REJECTED = {
    "broadcast_mismatch": (
        "m = cutlass.vector.broadcast_to(row, (2, 3))",
        "broadcast_to: each dimension of the source (aligned at the right) must be 1",
    ),
    "outerproduct_2d": (
        "m = cutlass.vector.outerproduct(cutlass.vector.broadcast_to(row, (2, 4)), row)",
        "outerproduct: 'a' must be 1-D",
    ),
    "index_count": (
        "m = cutlass.vector.broadcast_to(row, (2, 4))\n    y = m[1]",
        "Vector indexing: one index per dimension",
    ),
    "index_out_of_bounds": (
        "m = cutlass.vector.broadcast_to(row, (2, 4))\n    y = m[2, 0]",
        "Vector index out of bounds",
    ),
    "dynamic_2d_index": (
        "m = cutlass.vector.broadcast_to(row, (2, 4))\n    y = m[n, 0]",
        "Dynamic Vector indexing is only supported for 1-D vectors",
    ),
    "strided_2d_slice": (
        "m = cutlass.vector.broadcast_to(row, (2, 4))\n    y = m[:, ::2]",
        "Multi-dimensional strided Vector slices are not supported",
    ),
    "empty_slice": ("y = row[3:1]", "Empty vector slices are not supported"),
    "elementwise_sizes": (
        "m = cutlass.vector.broadcast_to(row, (2, 4))\n    y = m + m[:, 1:]",
        "elementwise operation on Vectors of different shapes",
    ),
    "elementwise_shapes": (
        "m = cutlass.vector.broadcast_to(cutlass.Float32(1.0), (2, 4))\n"
        "    y = m + cutlass.vector.broadcast_to(cutlass.Float32(1.0), (4, 2))",
        "elementwise operation on Vectors of different shapes",
    ),
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_rejected_vector_shapes_are_static_asserts(name: str, tmp_path: Path) -> None:
    body, message = REJECTED[name]
    source = (
        "import cutlass\nimport cutlass.cute as cute\n\n\n@cute.kernel\n"
        "def k(a: cute.Tensor, n: cutlass.Int32):\n"
        "    row = cutlass.Vector.from_elements((1.0, 2.0, 3.0, 4.0), cutlass.Float32)\n"
        f"    {body}\n    a[0] = row[0]\n"
    )
    result = translate_source(source, "rejected.py")
    assert result.ok, result.render_diagnostics()
    (tmp_path / "rejected.hip").write_text(result.text or "")
    unit = tmp_path / "unit.cpp"
    unit.write_text(
        '#include "rejected.hip"\n'
        f'#include "{COMMON}"\n'
        "template __global__ void bbx_gen::py_rejected::k<bbx_inst::EmptyMeta, "
        "bbx::block_threads_t<bbx::Int<1>, bbx::Int<1>, bbx::Int<1>>, bbx_inst::Vec, int>"
        "(bbx_inst::Vec, int);\n"
    )
    try:
        cmd = toolchain.host_command(unit, tmp_path / "unit.o", object_only=True,
                                     extra_flags=["-fsyntax-only"])
    except FileNotFoundError as err:
        pytest.skip(str(err))
    cmd = cmd[: cmd.index("-o")] if "-o" in cmd else cmd
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode != 0, "compiled: " + (result.text or "")
    assert message in done.stderr, done.stderr[-4000:]
