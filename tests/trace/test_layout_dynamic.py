"""Dynamic leaves: the layout algebra on a symbolic stand-in for run-time integers (records an
expression, evaluates it later with C++ integer semantics) gives the same numbers as on ints;
what CuTe needs static raises StaticInfoRequired. Seed printed on failure (BBX_SEED)."""

from __future__ import annotations

from typing import Any

import pytest

from bbx.trace import int_tuple as T
from bbx.trace import layout as L
from bbx.trace import layout_algebra as A
from bbx.trace.dynamic_int import DynamicInt, StaticInfoRequired
from bbx.trace.swizzle import Swizzle, make_composed_layout

from . import layout_cases as lc
from .symbolic import Sym, ev


def _symbolize(x: Any, r: Any, env: dict[str, int]) -> Any:
    """Replace some leaves by variables (their values go to env)."""
    if isinstance(x, tuple):
        return tuple(_symbolize(e, r, env) for e in x)
    if r.random() < 0.5:
        name = f"v{len(env)}"
        env[name] = x
        return Sym.var(name)
    return x


def test_sym_is_a_dynamic_int() -> None:
    assert isinstance(Sym.var("n"), DynamicInt)
    assert T.is_dynamic((1, Sym.var("n"))) and not L.is_static(L.make_layout(Sym.var("n")))


def test_dynamic_leaves_evaluate_like_ints() -> None:
    r = lc.rng(70_000)
    refused = composed_count = 0
    for _ in range(200):
        shape = lc.random_shape(r, max_size=96)
        stride = lc.random_stride_like(r, shape)
        env: dict[str, int] = {}
        sshape, sstride = _symbolize(shape, r, env), _symbolize(stride, r, env)
        static, dynamic = L.make_layout(shape, stride), L.make_layout(sshape, sstride)
        msg = f"seed={lc.SEED} {static}"
        n = L.size(static)
        assert ev(L.size(dynamic), env) == n and ev(L.cosize(dynamic), env) == L.cosize(static)
        for i in range(0, n, max(1, n // 7)):
            assert ev(dynamic(i), env) == static(i), msg
            crd = T.idx2crd(i, shape)
            assert ev(T.idx2crd(i, sshape), env) == crd, msg
            assert ev(dynamic(crd), env) == static(crd), msg
        # coalesce keeps the function (it may keep more modes than with ints)
        assert ev(L.coalesce(dynamic), env)(n - 1) == static(n - 1)
        cd = ev(L.coalesce(dynamic), env)
        assert [cd(i) for i in range(n)] == [static(i) for i in range(n)], msg
        assert ev(T.shape_div(sshape, 1), env) == T.shape_div(shape, 1)
        assert ev(T.ceil_div(sshape, 3), env) == T.ceil_div(shape, 3)
        assert ev(T.prefix_product(sshape), env) == T.prefix_product(shape)
        # composition with a rank-1 layout m:k. CuTe (and bbx) assume the divisibility
        # conditions that involve a run-time value hold at run time, so m:1 takes a dynamic m
        # that is admissible (a product of leading extents of A) and A's dynamic leaves; m:k
        # (k > 1) a static m and A with dynamic strides only (its static checks still run).
        k = r.choice([1, 2, 3])
        if k == 1:
            extents = [s for s in lc.flat(shape) if s != 1] or [1]
            m = 1
            for e in extents[: r.randint(1, len(extents))]:
                m *= e
            env["m"] = m
            lhs, rhs = dynamic, L.make_layout(Sym.var("m"), 1)
        else:
            m = r.randrange(1, n + 1)
            lhs, rhs = L.make_layout(shape, _symbolize(stride, r, env)), L.make_layout(m, k)
        try:
            expected = A.composition(static, L.make_layout(m, k))
        except A.LayoutAlgebraError:
            continue
        try:
            composed = A.composition(lhs, rhs)
        except A.LayoutAlgebraError:  # StaticInfoRequired, or a mode kept apart by a dynamic
            refused += 1               # stride fails the static divisibility condition
            continue
        got = ev(composed, env)
        composed_count += 1
        assert [got(i) for i in range(m)] == [expected(i) for i in range(m)], msg
    assert composed_count > 4 * refused, f"seed={lc.SEED}: {composed_count} vs {refused}"
    print(f"dynamic compositions: {composed_count} checked, {refused} need static information")


def test_dynamic_divide_and_product() -> None:
    r = lc.rng(80_000)
    for _ in range(100):
        m, n = r.choice([4, 8, 12]), r.choice([2, 4, 6])
        tile = (r.choice([1, 2, 4]), r.choice([1, 2]))
        env = {"m": m, "n": n}
        static = L.make_layout((m, n))
        dynamic = L.make_layout((Sym.var("m"), Sym.var("n")))
        want = A.zipped_divide(static, tile)
        got = ev(A.zipped_divide(dynamic, tile), env)
        assert [got(i) for i in range(m * n)] == [want(i) for i in range(m * n)]
        blk = L.make_layout((Sym.var("m"), 2), (1, Sym.var("m")))
        prod = ev(A.logical_product(L.make_layout(Sym.var("m")), L.make_layout(3)), env)
        assert [prod(i) for i in range(m * 3)] == list(range(m * 3))
        assert ev(L.size(blk), env) == 2 * m


def test_static_information_required() -> None:
    n = Sym.var("n")
    with pytest.raises(StaticInfoRequired):
        A.complement(L.make_layout((4, 4), (n, 1)), 64)
    with pytest.raises(StaticInfoRequired):
        A.left_inverse(L.make_layout((4, 4), (n, 1)))
    with pytest.raises(StaticInfoRequired):
        L.make_ordered_layout((4, 4), (n, 0))
    # a rank-1 dynamic stride complements (CuTe allows it)
    c = A.complement(L.make_layout(4, n), Sym.var("t"))
    assert ev(L.size(c), {"n": 4, "t": 64}) == 16


def test_swizzled_layout_with_dynamic_offset() -> None:
    r = lc.rng(90_000)
    for b, m, sh in ((3, 4, 3), (2, 1, -2), (1, 3, 5)):
        outer = L.make_layout((8, 64), (64, 1))
        sw = Swizzle(b, m, sh)
        static = make_composed_layout(sw, 0, outer)
        sliced = static((None, Sym.var("j")))  # a run-time column: a dynamic offset
        for _ in range(20):
            j, i = r.randrange(64), r.randrange(8)
            assert ev(sliced(i), {"j": j}) == static((i, j))
        assert ev(sw(Sym.var("x")), {"x": 1234}) == sw(1234)
        assert L.is_static(static) and not L.is_static(sliced)
