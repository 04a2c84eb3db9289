"""The traced C++ of tensor code reads like the Python (golden-free checks on the text): Python
lines (and the comments above them) precede their statements, variables and arrays carry the
Python names, static index math is folded into constant offsets, and the output is
deterministic."""

from __future__ import annotations

import re

from bbx.trace.entry import dynamic, trace_function
from bbx.trace.scalar import Float32, Int32
from bbx.trace.tensor_param import dynamic_tensor

from . import tensor_kernels as k

I32 = dynamic(Int32)
FDYN = dynamic_tensor(Float32, (None, None))


def test_python_lines_and_names() -> None:
    text = trace_function(k.add_tiles, [FDYN, FDYN, FDYN, I32, I32]).text
    assert ("void add_tiles(float* a, int32_t a_shape0, int32_t a_shape1, float* b, "
            "int32_t b_shape0, int32_t b_shape1") in text, text
    assert "// one (4, 8) tile per block coordinate" in text
    assert "// tensor_kernels.py:" in text and "gA = cute.local_tile(a, (4, 8), (bx, by))" in text
    # the tile's run-time offset is computed once, named after the tile
    assert re.search(r"int32_t gA_offset = bx \* \(4 \* a_shape1\) \+ by \* 8;", text), text
    assert "float v[32] = {" in text and "c[gC_offset] = v[0];" in text


def test_static_index_math_is_folded() -> None:
    f43, f3 = dynamic_tensor(Float32, (4, 3)), dynamic_tensor(Float32, (3,))
    text = trace_function(k.static_offsets, [f43, f3]).text
    assert "float ld = x[10];" in text and "y[2] = ld + ld_1;" in text, text
    text = trace_function(k.divided_views, [dynamic_tensor(Float32, (8, 6)),
                                            dynamic_tensor(Float32, (4,))]).text
    indices = re.findall(r"x\[([^\]]*)\]", text)
    assert indices and all(i.isdigit() for i in indices), text
    assert "make_layout" not in text and "Int<" not in text


def test_register_tensors_are_named_arrays_with_constant_indices() -> None:
    f42 = dynamic_tensor(Float32, (4, 2))
    text = trace_function(k.fragment_math, [f42, f42]).text
    assert "float frag[8];" in text and "frag[7] = ld[7];" in text, text
    assert "float v[8] = {frag[0], frag[1]," in text
    assert "y[7] = v[7] > 0.0f ? bbx::exp(v[7]) : v[7] * 0.5f;" in text


def test_a_bound_read_takes_the_python_name() -> None:
    text = trace_function(k.static_out_of_place, [dynamic_tensor(Float32, (4,))]).text
    assert "float first = x[0];" in text and "x[3] = first;" in text, text


def test_output_is_deterministic() -> None:
    spec = [dynamic_tensor(Float32, (None, 16)), dynamic_tensor(Float32, (None,)), I32]
    assert trace_function(k.tile_row_max, spec).text == trace_function(k.tile_row_max,
                                                                       spec).text
