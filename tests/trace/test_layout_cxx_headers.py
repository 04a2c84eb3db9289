"""The C++ spelling of trace-time layouts against the header library: ~100 random layouts and
operation results are written (type and value spelling) into ONE g++ program over
runtime_cpp/include, which checks that the value has the spelled type and prints each layout's
offsets for all indices; they must be the Python offsets. Big static integers (2^32, -2^40) are
among them. Seed printed on failure (BBX_SEED)."""

from __future__ import annotations

from pathlib import Path

import layout_cases as lc  # tests/trace is on sys.path (rootdir-less test folder)
import pytest

from bbx.cxx.printer import expr_text, type_text
from bbx.targets import toolchain
from bbx.trace import layout as L
from bbx.trace import layout_algebra as A
from bbx.trace.layout_cxx import cxx_type, cxx_value
from bbx.trace.swizzle import Swizzle, make_composed_layout


def _cases() -> list[object]:
    r = lc.rng(90_000)
    out: list[object] = [
        L.make_layout((4, 2), (2**32, 3)),
        L.make_layout((2, (3, 2)), (-(2**40), (1, 2**31))),
        L.make_layout(3, -1),
        make_composed_layout(Swizzle(3, 4, 3), 0, L.make_layout((8, 64), (64, 1))),
        make_composed_layout(Swizzle(2, 1, -2), 16, L.make_layout((4, 8))),
    ]
    while len(out) < 100:
        shape = lc.random_shape(r, max_size=128)
        a = L.make_layout(shape, lc.random_stride_like(r, shape))
        b = L.make_layout(shape, lc.random_injective_stride(r, shape))
        kind = len(out) % 8
        try:
            if kind == 0:
                out.append(a)
            elif kind == 1:
                out.append(L.coalesce(a))
            elif kind == 2:
                out.append(A.complement(b, L.cosize(b) * 2))
            elif kind == 3:
                inv = A.right_inverse(b)
                assert inv is not None
                out.append(A.composition(b, inv))
            elif kind == 4:
                out.append(A.logical_product(L.make_layout((2, 3)), b))
            elif kind == 5:
                m = L.make_layout((r.choice([4, 8, 12]), r.choice([2, 4, 8])))
                out.append(A.zipped_divide(m, (r.choice([1, 2, 4]), r.choice([1, 2]))))
            elif kind == 6:
                blk = L.make_layout((r.choice([1, 2, 3]), r.choice([2, 4])))
                out.append(A.raked_product(blk, L.make_layout((2, r.choice([1, 3])))))
            else:
                inv2 = A.left_inverse(b)
                assert inv2 is not None
                out.append(inv2)
        except Exception as e:  # noqa: BLE001 - an operation refused: pick another case
            if not isinstance(e, A.LayoutAlgebraError):
                raise
    return out


def _size(obj: object) -> int:
    if isinstance(obj, L.Layout):
        return int(L.size(obj))
    return int(L.size(obj.outer))  # type: ignore[attr-defined]


def test_spelled_layouts_compute_the_same_offsets_in_cpp(tmp_path: Path) -> None:
    cases = _cases()
    lines = ["#include <bbx/layout.hpp>", "#include <cstdio>", "#include <type_traits>",
             "using namespace bbx;",
             "template <class L> void dump(int k, L const& l, long long n) {",
             '  std::printf("%d:", k);',
             '  for (long long i = 0; i < n; ++i) std::printf(" %lld", (long long)l(i));',
             '  std::printf("\\n");', "}", "int main() {"]
    for k, obj in enumerate(cases):
        lines.append(f"  {{ auto l = {expr_text(cxx_value(obj))};")
        lines.append(f"    static_assert(std::is_same_v<decltype(l), {type_text(cxx_type(obj))}>);")
        lines.append(f"    dump({k}, l, {_size(obj)}); }}")
    lines += ["}", ""]
    src = tmp_path / "spelled.cpp"
    src.write_text("\n".join(lines))
    exe = tmp_path / "spelled"
    try:
        toolchain.compile_source(toolchain.host_command(src, exe, opt="-O0",
                                                        extra_flags=["-w"]))
    except FileNotFoundError:
        pytest.skip("no host C++ compiler")
    import subprocess

    run = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    got = {}
    for line in run.stdout.splitlines():
        k, _, rest = line.partition(":")
        got[int(k)] = [int(v) for v in rest.split()]
    assert len(got) == len(cases)
    for k, obj in enumerate(cases):
        expected = [obj(i) for i in range(_size(obj))]  # type: ignore[operator]
        assert got[k] == expected, f"seed={lc.SEED} case {k}: {obj}"
    assert any(abs(v) >= 2**32 for v in got[0]) and any(v <= -(2**40) for v in got[1])
