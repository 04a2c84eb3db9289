"""The DSL's numeric types while tracing: promotion rules, static values computed in Python with
the types' wrap-around, run-time values as C++ expressions (named by binding, given a variable on
second use), and the errors of using a run-time value as a Python value."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bbx.cxx import ast as c
from bbx.cxx.printer import expr_text, stmt_lines
from bbx.trace import control
from bbx.trace.context import TraceContext, activate
from bbx.trace.errors import TraceError
from bbx.trace.scalar import (
    BFloat16,
    Boolean,
    Float16,
    Float32,
    Float64,
    Int8,
    Int32,
    Int64,
    Numeric,
    Uint8,
    Uint32,
    promote,
)


@pytest.fixture
def ctx() -> Iterator[TraceContext]:
    context = TraceContext("t")
    with activate(context):
        yield context


def _arg(ctx: TraceContext, dtype: type[Numeric], name: str) -> Numeric:
    ctx.names.reserve(name)
    return dtype.run_time(c.Id(name))


def _text(x: Numeric) -> str:
    return expr_text(x.expr())


def _body(ctx: TraceContext) -> list[str]:
    return [line.strip() for s in ctx.root.stmts if not isinstance(s, c.Comment)
            for line in stmt_lines(s, 0)]


@pytest.mark.parametrize("a, b, promote_bool, expected", [
    (Int32, Int32, False, Int32),
    (Int32, Float32, False, Float32),
    (Int64, Int32, False, Int64),
    (Int8, Int32, False, Int32),
    (Uint32, Int32, False, Uint32),  # unsigned at least as wide wins
    (Uint8, Int32, False, Int32),
    (Boolean, Boolean, True, Int32),
    (Boolean, Boolean, False, Boolean),
    (Boolean, Int32, False, Int32),
    (Float16, Int32, False, Float32),  # an integer wider than the float widens it
    (Float16, Float32, False, Float32),
    (BFloat16, Float16, False, Float16),
    (Float64, Float32, False, Float64),
])
def test_promotion(a: type[Numeric], b: type[Numeric], promote_bool: bool,
                   expected: type[Numeric]) -> None:
    assert promote(a, b, promote_bool) is expected
    assert promote(b, a, promote_bool) is expected


def test_python_numbers_take_dsl_types() -> None:
    assert type(Int32(3) + 1) is Int32
    assert type(Int32(3) + 1.5) is Float32
    assert type(Int64(3) + 1) is Int64
    assert type(Int32(3) + True) is Int32
    assert type(Int32(7) / 2) is Float32 and (Int32(7) / 2).value == 3.5
    assert type(Int32(3) < 4) is Boolean


def test_static_values_wrap_like_the_type() -> None:
    assert Int32(2**31).value == -(2**31)
    assert Int8(200).value == -56
    assert Uint8(-1).value == 255
    assert (Int32(2**31 - 1) + 1).value == -(2**31)
    assert Int32(-3.7).value == -3  # toward zero
    assert (Int32(-7) // 2).value == -4 and (Int32(-7) % 2).value == 1  # Python's, as the DSL
    assert Boolean(5).value is True
    assert (Boolean(True) + Boolean(True)).value is True  # computed in Int32, typed Boolean


def test_static_python_protocols() -> None:
    assert bool(Int32(0)) is False and int(Int32(4)) == 4 and float(Float32(0.5)) == 0.5
    assert list(range(Int32(3))) == [0, 1, 2]
    assert {Int32(1): "x"}[Int32(1)] == "x"
    assert str(Float32) == "Float32" and Int32.width == 32 and Int32.max == 2**31 - 1
    assert Float32.inf == float("inf") and Boolean.min == -1 and Uint8.signed is False


def test_run_time_expressions(ctx: TraceContext) -> None:
    x, y = _arg(ctx, Int32, "x"), _arg(ctx, Int32, "y")
    f = _arg(ctx, Float32, "f")
    assert _text(x + 1) == "x + 1"
    assert _text(2 - x) == "2 - x"
    assert _text(x * 2.5) == "float(x) * 2.5f"
    assert _text(x / y) == "float(x) / float(y)"
    assert _text(x // y) == "floordiv(x, y)"
    assert _text(x % 3) == "x % 3"
    assert _text(f // 2) == "floor(f / 2.0f)"
    assert _text(f % 2) == "scalar::rem(f, 2.0f)"
    assert _text(Int64(x) + 1) == "int64_t(x) + int64_t(1)"
    assert _text(Int8(x) + 1) == "int32_t(int8_t(x)) + 1"  # a Python int is an Int32
    assert _text(Int8(x) + Int8(1)) == "int8_t(int8_t(x) + int8_t(1))"  # C++ computes in int
    assert _text(-x) == "-x" and _text(~x) == "~x" and _text(abs(f)) == "abs(f)"
    assert _text(Int32(f)) == "int32_t(f)"
    b = x < y
    assert type(b) is Boolean and _text(b) == "x < y"
    assert _text(control.not_(x <= y)) == "!(x <= y)"
    assert _text(control.not_(x)) == "x == 0"
    assert _text(control.and_(x > 0, lambda: y > 0)) == "x > 0 && y > 0"
    assert _text(control.or_(x, lambda: 5)) == "x != 0 ? x : 5"
    assert _text(control.compare(0, ("<", "<"), (lambda: x, lambda: y))) == "x > 0 && x < y"


def test_python_short_circuits_before_run_time_values(ctx: TraceContext) -> None:
    x = _arg(ctx, Int32, "x")
    assert control.and_(False, lambda: x > 0) is False
    assert control.or_(3, lambda: x > 0) == 3
    assert _text(control.and_(True, lambda: x > 0)) == "x > 0"
    assert control.compare(1, ("<", "<"), (lambda: 0, lambda: x)) is False


def test_membership_of_run_time_values(ctx: TraceContext) -> None:
    x, y = _arg(ctx, Int32, "x"), _arg(ctx, Int32, "y")
    assert _text(control.compare(x, ("in",), (lambda: (0, 1),))) == "x == 0 || x == 1"
    assert _text(control.compare(x, ("not in",), (lambda: [2],))) == "!(x == 2)"
    assert _text(control.compare(3, ("in",), (lambda: (y, 4),))) == "y == 3"
    assert control.compare(x, ("in",), (lambda: (5, x),)) is True  # `is` before `==`
    assert control.compare(3, ("in",), (lambda: (1, 3),)) is True  # static stays Python
    assert control.compare("a", ("not in",), (lambda: {"b": 1},)) is True


def test_binding_names_values(ctx: TraceContext) -> None:
    x = _arg(ctx, Int32, "x")
    s = control.bind(x * 3 + 1, "scaled")
    assert _text(s) == "scaled"
    assert control.bind(x, "alias") is x  # a variable stays itself
    assert _body(ctx) == ["int32_t scaled = x * 3 + 1;"]


def test_second_use_gets_a_variable(ctx: TraceContext) -> None:
    x = _arg(ctx, Int32, "x")
    t = x * x
    u = t + t  # two uses of one unnamed value: computed once
    assert _text(u) == "tmp + tmp"
    assert _body(ctx) == ["int32_t tmp = x * x;"]


@pytest.mark.parametrize("use, what", [
    (bool, "Python bool"), (int, "Python int"), (float, "Python float"),
    (lambda v: [0, 1][v], "Python integer"), (hash, "dictionary key"),
])
def test_run_time_values_are_not_python_values(ctx: TraceContext, use: object,
                                               what: str) -> None:
    x = _arg(ctx, Int32, "x")
    with pytest.raises(TraceError) as info:
        use(x)  # type: ignore[operator]
    assert info.value.diagnostic.code == "dynamic-to-static"
    assert what in info.value.diagnostic.what
    assert info.value.diagnostic.path == __file__


def test_bitwise_operators_need_integers(ctx: TraceContext) -> None:
    x = _arg(ctx, Int32, "x")
    with pytest.raises(TraceError, match="bitwise"):
        x & 1.5


def test_casts_of_static_values_stay_static() -> None:
    assert Float32(Int32(3)).value == 3.0 and Float32(Int32(3)).is_static
    assert Int32(Float32(2.9)).value == 2
    assert Int32(Int32(5)).to(int) == 5
