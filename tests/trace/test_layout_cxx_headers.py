"""The C++ spelling of trace-time layouts against the header library: ~100 random layouts and
operation results are written (type and value spelling) into ONE g++ program over
runtime_cpp/include, which checks that the value has the spelled type and prints each layout's
offsets for all indices; they must be the Python offsets. Big static integers (2^32, -2^40,
-2^31, 2^31 - 1) are among them. For most cases the program also runs the same operation in the
headers (coalesce, complement, composition, logical_product, zipped_divide, raked_product, a
swizzle composition) on the spelled operands: the function must be the same (the shapes may be
grouped differently, e.g. the headers coalesce blocked/raked products by mode). Layouts with
run-time leaves (symbolic proxies spelled as C++ expressions over `int` variables) are spelled
and checked the same way. Seed printed on failure (BBX_SEED)."""

from __future__ import annotations

from pathlib import Path

import layout_cases as lc  # tests/trace is on sys.path (rootdir-less test folder)
import pytest
from symbolic import Sym, ev

from bbx.cxx.printer import expr_text, type_text
from bbx.targets import toolchain
from bbx.trace import layout as L
from bbx.trace import layout_algebra as A
from bbx.trace.layout_cxx import cxx_type, cxx_value, int_tuple_value
from bbx.trace.swizzle import Swizzle, make_composed_layout


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
