"""Static violations of the layout algebra are static_asserts naming the operation and the
problem."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

INCLUDE = Path(__file__).resolve().parents[2] / "runtime_cpp" / "include"

CASES = {
    # A = (4,3):(1,5) cannot be coalesced; B = 6:1 splits unevenly over its first mode.
    "composition: shape divisibility condition violated": (
        "composition(make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _5{})),"
        " make_layout(_6{}, _1{}))"
    ),
    # CuTe's weak condition: B's stride 5 is neither a multiple of nor less than A's mode 4
    "composition: stride divisibility condition violated (B's stride is neither": (
        "composition(make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _5{})),"
        " make_layout(_2{}, _5{}))"
    ),
    # CuTe's weak condition admits it but builds a wrong layout (the Python algebra's rule):
    # stride 3 does not divide A's mode 4, and B's 4 elements do not fit in it
    "composition: stride divisibility condition violated (B's stride does not divide": (
        "composition(make_layout(make_shape(_4{}, _2{}, _4{}), make_stride(_0{}, _1{}, _6{})),"
        " make_layout(_4{}, _3{}))"
    ),
    "shape_div: static operands do not divide one another": "shape_div(_3{}, _2{})",
    "complement: the layout is not injective": (
        "complement(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{})), _8{})"
    ),
    "make_layout: shape and stride are not congruent": "make_layout(make_shape(_2{}, _2{}), _1{})",
    "logical_divide: the tiler has a larger rank than the layout": (
        "logical_divide(make_layout(_8{}), make_tile(_2{}, _2{}))"
    ),
}


@pytest.mark.parametrize("message", sorted(CASES))
def test_static_violation_is_a_static_assert(tmp_path, message):
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    src = tmp_path / "bad.cpp"
    src.write_text(
        f"#include <bbx/layout.hpp>\nusing namespace bbx;\nvoid f() {{ (void){CASES[message]}; }}\n"
    )
    r = subprocess.run(
        [cxx, "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)],
        capture_output=True,
        text=True,
    )
    assert r.returncode != 0, "expected a compile error"
    assert message in r.stderr, r.stderr[-3000:]
