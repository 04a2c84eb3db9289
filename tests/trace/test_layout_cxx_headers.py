"""The C++ spelling of trace-time layouts against the header library: ~100 random layouts and
operation results are written (type and value spelling) into ONE g++ program over
runtime_cpp/include, which checks that the value has the spelled type and prints each layout's
offsets for all indices; they must be the Python offsets. Big static integers (2^32, -2^40,
-2^31, 2^31 - 1) are among them. For most cases the program also runs the same operation in the
headers (coalesce, complement, composition, logical_product, zipped_divide, raked_product, a
swizzle composition) on the spelled operands: the function must be the same. A second program
checks the headers' operations where they follow CuTe rather than pycute (weak composition
condition, inverses, ordered layouts, upcast, zipped products, tilers, shape_div): printout and
offsets as the Python algebra's, plus the operation's brute-force property. Layouts with
run-time leaves (symbolic proxies spelled as C++ expressions over `int` variables) are spelled
and checked the same way. Seed printed on failure (BBX_SEED)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bbx.cxx.printer import expr_text, type_text
from bbx.targets import toolchain
from bbx.trace import int_tuple as it
from bbx.trace import layout as L
from bbx.trace import layout_algebra as A
from bbx.trace import layout_recast as R
from bbx.trace.layout_cxx import cxx_type, cxx_value, int_tuple_value
from bbx.trace.swizzle import Swizzle, make_composed_layout

from . import layout_cases as lc
from .symbolic import Sym, ev


def _v(obj: object, role: str = "shape") -> str:
    if isinstance(obj, tuple):
        return expr_text(int_tuple_value(obj, role))
    return expr_text(cxx_value(obj))


def _cases() -> list[tuple[object, str | None]]:
    """(a Python layout, the same operation written for the headers or None)."""
    r = lc.rng(90_000)
    out: list[tuple[object, str | None]] = [
        (L.make_layout((4, 2), (2**32, 3)), None),
        (L.make_layout((2, (3, 2)), (-(2**40), (1, 2**31))), None),
        (L.make_layout((3, 2), (-(2**31), 2**31 - 1)), None),
        (L.make_layout(3, -1), None),
        (make_composed_layout(Swizzle(3, 4, 3), 0, L.make_layout((8, 64), (64, 1))), None),
        (make_composed_layout(Swizzle(2, 1, -2), 16, L.make_layout((4, 8))), None),
    ]
    sw = Swizzle(3, 3, 3)
    sw_outer = L.make_layout((8, 64), (64, 1))
    out.append((A.composition(sw, sw_outer), f"composition({_v(sw)}, {_v(sw_outer)})"))
    while len(out) < 100:
        shape = lc.random_shape(r, max_size=128)
        a = L.make_layout(shape, lc.random_stride_like(r, shape))
        b = L.make_layout(shape, lc.random_injective_stride(r, shape))
        kind = len(out) % 8
        try:
            if kind == 0:
                out.append((a, None))
            elif kind == 1:
                out.append((L.coalesce(a), f"coalesce({_v(a)})"))
            elif kind == 2:
                n = L.cosize(b) * 2
                out.append((A.complement(b, n), f"complement({_v(b)}, Int<{n}>{{}})"))
            elif kind == 3:
                inv = A.right_inverse(b)
                assert inv is not None
                out.append((A.composition(b, inv), f"composition({_v(b)}, {_v(inv)})"))
            elif kind == 4:
                blk = L.make_layout((2, 3))
                out.append((A.logical_product(blk, b), f"logical_product({_v(blk)}, {_v(b)})"))
            elif kind == 5:
                m = L.make_layout((r.choice([4, 8, 12]), r.choice([2, 4, 8])))
                tile = (r.choice([1, 2, 4]), r.choice([1, 2]))
                out.append((A.zipped_divide(m, tile),
                            f"zipped_divide({_v(m)}, {_v(tile, 'tile')})"))
            elif kind == 6:
                blk = L.make_layout((r.choice([1, 2, 3]), r.choice([2, 4])))
                til = L.make_layout((2, r.choice([1, 3])))
                out.append((A.raked_product(blk, til), f"raked_product({_v(blk)}, {_v(til)})"))
            else:
                inv2 = A.left_inverse(b)
                assert inv2 is not None
                out.append((inv2, None))
        except A.LayoutAlgebraError:  # an operation refused: pick another case
            pass
    return out


#: run-time inputs of the dynamic cases: C++ `int` variables of the program
ENV = {"n": 6, "m": 12, "t": 96}


def _dynamic_cases() -> list[object]:
    """Layouts with run-time leaves (symbolic proxies spelled as C++ expressions over ENV)."""
    n, m, t = Sym.var("n"), Sym.var("m"), Sym.var("t")
    mn = L.make_layout((m, n))
    return [
        L.make_layout((n, 4), (1, n)),
        L.coalesce(L.make_layout((2, (n, 4)), (1, (2, 2 * n)))),
        A.zipped_divide(mn, (4, 2)),
        A.logical_divide(mn, (L.make_layout(4, 2), None)),
        A.composition(L.make_layout((4, m), (m, 1)), L.make_layout((2, 8), (8, 1))),
        A.composition(mn, L.make_layout(n * 2, 1)),
        A.logical_product(L.make_layout(n), L.make_layout(3)),
        A.complement(L.make_layout(4, n), t),
        make_composed_layout(Swizzle(2, 0, 2), n, L.make_layout((4, 4), (4, 1))),
    ]


def _dynamic_size(obj: object) -> int:
    return int(ev(L.size(obj), ENV))


def _size(obj: object) -> int:
    return int(L.size(obj))


def test_spelled_layouts_compute_the_same_offsets_in_cpp(tmp_path: Path) -> None:
    cases = _cases()
    lines = ["#include <bbx/layout.hpp>", "#include <cstdio>", "#include <cstdlib>",
             "#include <type_traits>", "using namespace bbx;",
             "template <class L> void dump(int k, L const& l, long long n) {",
             '  std::printf("%d:", k);',
             '  for (long long i = 0; i < n; ++i) std::printf(" %lld", (long long)l(i));',
             '  std::printf("\\n");', "}", "int main(int argc, char** argv) {", "  (void)argc;"]
    lines += [f"  int {name} = std::atoi(argv[{i + 1}]);" for i, name in enumerate(ENV)]
    dynamic = _dynamic_cases()
    for k, obj in enumerate(dynamic):
        lines.append(f"  {{ auto l = {expr_text(cxx_value(obj))};")
        lines.append(f"    static_assert(std::is_same_v<decltype(l), {type_text(cxx_type(obj))}>);")
        lines.append(f"    dump({2000 + k}, l, {_dynamic_size(obj)}); }}")
    ops = 0
    for k, (obj, op) in enumerate(cases):
        lines.append(f"  {{ auto l = {expr_text(cxx_value(obj))};")
        lines.append(f"    static_assert(std::is_same_v<decltype(l), {type_text(cxx_type(obj))}>);")
        lines.append(f"    dump({k}, l, {_size(obj)}); }}")
        if op is not None:  # the headers' own result of the operation
            lines.append(f"  dump({1000 + k}, {op}, {_size(obj)});")
            ops += 1
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

    args = [str(v) for v in ENV.values()]
    run = subprocess.run([str(exe), *args], capture_output=True, text=True, check=True)
    got = {}
    for line in run.stdout.splitlines():
        k, _, rest = line.partition(":")
        got[int(k)] = [int(v) for v in rest.split()]
    assert len(got) == len(cases) + ops + len(dynamic) and ops > 60
    for k, obj in enumerate(dynamic):
        expected = [ev(obj(i), ENV) for i in range(_dynamic_size(obj))]  # type: ignore[operator]
        assert got[2000 + k] == expected, f"dynamic case {k}: {obj}"
    for k, (obj, op) in enumerate(cases):
        expected = [obj(i) for i in range(_size(obj))]  # type: ignore[operator]
        assert got[k] == expected, f"seed={lc.SEED} case {k}: {obj}"
        if op is not None:
            assert got[1000 + k] == expected, f"seed={lc.SEED} headers differ: {op} vs {obj}"
    assert any(abs(v) >= 2**32 for v in got[0]) and any(v <= -(2**40) for v in got[1])


# ---- the headers' operations against the Python algebra (CuTe's semantics) ---------------------
#
# Each case runs one header operation on spelled operands; the program prints the result's
# printout and its offsets. Both must be the Python algebra's (so the shape counts, not only the
# function), and a brute-force property of the operation is checked on the headers' offsets.


def _ordered_case(r: object) -> tuple[object, object]:
    import random

    assert isinstance(r, random.Random)
    shape = tuple(r.choice([1, 2, 3, 4]) if r.random() < 0.7 else (r.choice([2, 3]), 2)
                  for _ in range(r.randint(2, 4)))
    order = tuple(r.randint(0, 2) for _ in shape)  # ties are likely; leaves over sub-shapes
    return shape, order


def _algebra_cases() -> list[tuple[str, object, str, list[object]]]:
    """(property, the Python result, the headers' operation, property operands)."""
    r = lc.rng(91_000)
    out: list[tuple[str, object, str, list[object]]] = []

    def compose(a: L.Layout, b: object) -> None:
        tile = (f"make_tile({', '.join(_v(e) for e in b)})" if isinstance(b, tuple)
                else _v(b))
        out.append(("composition", A.composition(a, b), f"composition({_v(a)}, {tile})", [a, b]))

    # 1. CuTe's weak stride condition (the strong one refuses these)
    compose(L.make_layout((6, 2), (1, 7)), L.make_layout(2, 4))
    compose(L.make_layout((6, 4), (1, 6)), L.make_layout((2, 3), (4, 8)))
    while sum(1 for c in out if c[0] == "composition") < 25:
        shape = lc.random_shape(r, max_size=96)
        a = L.make_layout(shape, lc.random_stride_like(r, shape, allow_zero=False))
        b = L.make_layout(r.choice([1, 2, 3, 4]), r.choice([2, 3, 4, 5, 6, 8]))
        try:
            res = A.composition(a, b)
        except A.LayoutAlgebraError:
            continue
        out.append(("composition", res, f"composition({_v(a)}, {_v(b)})", [a, b]))
    # 6. a tiler drops the modes it does not reach
    compose(L.make_layout((4, 6, 2)), (2, 3))
    compose(L.make_layout((4, 6, 2), (12, 1, 6)), (L.make_layout(2, 2),))
    # 2. right_inverse skips a mode that does not continue the inverse
    inv_in = [L.make_layout((6, (5, 5, 8)), (1, (16, 6, 3))), L.make_layout((2, 3), (3, 1))]
    while len(inv_in) < 14:
        shape = lc.random_shape(r, max_size=128)
        inv_in.append(L.make_layout(shape, lc.random_stride_like(r, shape)))
    for a in inv_in:
        out.append(("right_inverse", A.right_inverse(a), f"right_inverse({_v(a)})", [a]))
    # 3. left_inverse: CuTe's construction
    linv_in = [L.make_layout(2, 2), L.make_layout((4, 2), (2, 16))]
    while len(linv_in) < 12:
        shape = lc.random_shape(r, max_size=128)
        linv_in.append(L.make_layout(shape, lc.random_injective_stride(r, shape)))
    for a in linv_in:
        out.append(("left_inverse", A.left_inverse(a), f"left_inverse({_v(a)})", [a]))
    # 4. make_ordered_layout: equal orders start at the same stride; weakly congruent orders
    orders: list[tuple[object, object]] = [((4, 2, 3), (1, 0, 1)), ((4, (2, 3)), (1, 0))]
    orders += [_ordered_case(r) for _ in range(10)]
    for shape, order in orders:
        out.append(("none", L.make_ordered_layout(shape, order),
                    f"make_ordered_layout({_v(shape)}, {_v(order)})", []))
    # 5. upcast rounds shapes up
    ups = [(L.make_layout(3, 1), 2), (L.make_layout((3, 4), (1, -4)), 2)]
    while len(ups) < 10:
        shape = lc.random_shape(r, max_size=96)
        n = r.choice([2, 4, 8])
        stride = lc.unflatten_like([r.choice([0, 1, 2, 4, 8, 16, -2]) for _ in lc.flat(shape)],
                                   shape)
        ups.append((L.make_layout(shape, stride), n))
    for a, n in ups:
        out.append(("none", R.upcast(a, n), f"upcast<{n}>({_v(a)})", []))
    # 6. blocked / raked products are zipped, not coalesced
    for _ in range(8):
        blk = L.make_layout(r.choice([2, (2, 1), (2, 2), (1, 3)]))
        til = L.make_layout(r.choice([3, (2, 3), (1, 2), (3, 1)]))
        for name, fn in (("blocked_product", A.blocked_product),
                         ("raked_product", A.raked_product)):
            out.append(("none", fn(blk, til), f"{name}({_v(blk)}, {_v(til)})", []))
    return out


def _brute_force_holds(prop: str, got: list[int], operands: list[object]) -> bool:
    """The operation's defining property, checked on the headers' offsets."""
    if prop == "composition":
        a, b = operands
        if isinstance(b, tuple):
            return True  # mode by mode: the printout and offsets are compared with Python's
        return got == [a(b(i)) for i in range(len(got))]  # type: ignore[operator]
    if prop == "right_inverse":
        (a,) = operands
        return all(a(g) == i for i, g in enumerate(got))  # type: ignore[operator]
    if prop == "left_inverse":
        (a,) = operands
        return all(got[a(i)] == i for i in range(_size(a)))  # type: ignore[operator]
    return True


def test_header_operations_follow_cute_as_the_python_algebra(tmp_path: Path) -> None:
    cases = _algebra_cases()
    lines = ["#include <bbx/layout.hpp>", "#include <bbx/layout/to_string.hpp>",
             "#include <cstdio>", "using namespace bbx;",
             "template <class L> void dump(int k, L const& l, long long n) {",
             '  std::printf("%d|%s|", k, to_string(l).c_str());',
             '  for (long long i = 0; i < n; ++i) std::printf(" %lld", (long long)l(i));',
             '  std::printf("\\n");', "}", "int main() {"]
    for k, (_, res, op, _ops) in enumerate(cases):
        lines.append(f"  dump({k}, {op}, {_size(res)});")
    lines.append('  std::printf("shape_div|%lld\\n", (long long)shape_div(Int<-2>{}, _4{}));')
    lines += ["}", ""]
    src = tmp_path / "algebra.cpp"
    src.write_text("\n".join(lines))
    exe = tmp_path / "algebra"
    try:
        toolchain.compile_source(toolchain.host_command(src, exe, opt="-O0", extra_flags=["-w"]))
    except FileNotFoundError:
        pytest.skip("no host C++ compiler")
    import subprocess

    run = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    rows = dict(line.split("|", 1) for line in run.stdout.splitlines())
    assert rows.pop("shape_div") == str(it.shape_div(-2, 4))  # CuTe: (a + b - 1) / b
    assert len(rows) == len(cases)
    for k, (prop, res, op, operands) in enumerate(cases):
        printed, _, offsets = rows[str(k)].partition("|")
        got = [int(v) for v in offsets.split()]
        where = f"seed={lc.SEED} {op}"
        assert printed == str(res).replace(" ", ""), f"{where}: headers {printed}, Python {res}"
        assert got == [res(i) for i in range(len(got))], where  # type: ignore[operator]
        assert _brute_force_holds(prop, got, operands), where

