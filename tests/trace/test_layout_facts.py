"""Static facts of trace-time layouts and tensors that GEMM scripts branch on:
`layout.max_alignment` against the header's `max_alignment` (bbx/layout/alignment.hpp) on
random layouts (one g++ program of static_asserts), and `tensor.leading_dim` /
`utils.LayoutEnum.from_tensor` of row- and column-major tensors with run-time extents."""

from __future__ import annotations

from pathlib import Path

import pytest

from bbx.cxx import ast as c
from bbx.cxx.printer import expr_text
from bbx.targets import toolchain
from bbx.trace import layout as L
from bbx.trace.context import TraceContext, activate
from bbx.trace.errors import TraceError
from bbx.trace.layout_cxx import cxx_value
from bbx.trace.layout_enum import LayoutEnum
from bbx.trace.pointer import Pointer
from bbx.trace.run_time_int import RunTimeInt
from bbx.trace.scalar import Float32, Int32
from bbx.trace.tensor import Tensor

from . import layout_cases as lc


def test_max_alignment_is_the_headers(tmp_path: Path) -> None:
    r = lc.rng(55_000)
    layouts = [L.Layout((8, 4), (1, 8)), L.Layout((8, 4), (1, 16)), L.Layout((6, 4), (1, 8))]
    while len(layouts) < 120:
        shape = lc.random_shape(r, max_size=256)
        stride = (lc.random_injective_stride(r, shape) if r.random() < 0.7
                  else lc.random_stride_like(r, shape))
        layouts.append(L.make_layout(shape, stride))
    assert [x.max_alignment for x in layouts[:3]] == [32, 8, 2]  # the header's examples
    lines = ["#include <bbx/layout.hpp>", "using namespace bbx;"]
    for k, layout in enumerate(layouts):
        lines.append(f"static_assert(decltype(max_alignment({expr_text(cxx_value(layout))}))"
                     f"::value == {layout.max_alignment}, \"{k}: {layout}\");")
    lines.append("int main() {}")
    src = tmp_path / "alignment.cpp"
    src.write_text("\n".join(lines) + "\n")
    try:
        toolchain.compile_source(toolchain.host_command(src, tmp_path / "alignment", opt="-O0",
                                                        extra_flags=["-w"]))
    except FileNotFoundError:
        pytest.skip("no host C++ compiler")


def _tensor(stride_of_dynamic: int) -> Tensor:
    """A (M, K) tensor of run-time extents: column-major (stride (1, M)) when
    `stride_of_dynamic` is 1, else row-major (stride (K, 1))."""
    m = RunTimeInt(Int32.run_time(c.Id("m")))
    k = RunTimeInt(Int32.run_time(c.Id("k")))
    stride = (1, m) if stride_of_dynamic == 1 else (k, 1)
    return Tensor(Pointer(c.Id("p"), Float32, "gmem"), L.Layout((m, k), stride))


def test_leading_dim_and_layout_enum() -> None:
    with activate(TraceContext("f")):
        col, row = _tensor(1), _tensor(0)
        assert (col.leading_dim, row.leading_dim) == (0, 1)
        assert LayoutEnum.from_tensor(col) is LayoutEnum.COL_MAJOR
        assert LayoutEnum.from_tensor(row) is LayoutEnum.ROW_MAJOR
        assert LayoutEnum.ROW_MAJOR.is_k_major_a() and LayoutEnum.ROW_MAJOR.is_k_major_b()
        assert LayoutEnum.ROW_MAJOR.is_n_major_c() and not LayoutEnum.ROW_MAJOR.is_m_major_a()
        assert LayoutEnum.COL_MAJOR.is_m_major_a() and LayoutEnum.COL_MAJOR.is_n_major_b()
        assert LayoutEnum.COL_MAJOR.is_m_major_c() and not LayoutEnum.COL_MAJOR.is_k_major_b()
        # a mode of extent 1 does not count; no static stride 1 at all is an error
        assert Tensor(Pointer(c.Id("p"), Float32, "gmem"), L.Layout((1, 4), (1, 1))).leading_dim \
            == 1
        with pytest.raises(TraceError, match="leading dimension"):
            LayoutEnum.from_tensor(Tensor(Pointer(c.Id("p"), Float32, "gmem"),
                                          L.Layout((4, 4), (8, 2))))
