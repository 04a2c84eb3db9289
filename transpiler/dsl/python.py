"""Python's own names used in DSL code: builtins (`abs`, `min`, `int(...)`), `operator`
functions as values, and `math` (compile-time only)."""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis import meta as m
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from .entry import Custom, Functor, Marker
from .lowerer import Lowerer
from .registry import Registry

#: Builtins allowed inside pure-Python (compile-time) expressions, evaluated in Python.
META_BUILTINS = frozenset(
    {"int", "float", "bool", "min", "max", "abs", "round", "len", "str", "isinstance", "tuple",
     "list", "divmod", "sum", "any", "all", "range", "type", "getattr", "hasattr", "sorted",
     "reversed", "enumerate", "zip"}
)  # fmt: skip

_OPERATOR_FUNCTORS = {
    "add": "plus", "sub": "minus", "mul": "multiplies", "truediv": "divides_op",
}  # fmt: skip


def _elementwise(cxx: str) -> Custom:
    """`abs(x)`, `min(a, b)`, `max(a, b)` on run-time values (static when all are static)."""

    def call(lw: Lowerer, node: cst.Call, name: str) -> Val:
        vals = [lw.lower(a.value) for a in node.args]
        static = lw.static_context(*vals)
        args = tuple(
            lw.materialize(v, static, a.value) for v, a in zip(vals, node.args, strict=True)
        )
        if static:
            kind = k.STATIC
        elif vals and vals[0].kind.cat is not Cat.LITERAL:
            kind = vals[0].kind
        else:
            kind = k.VALUE
        return Val(kind, c.Call(c.Id(cxx), args), node=node)

    def value(lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        functor = {"min": "minimum", "max": "maximum"}.get(cxx)
        if functor is None:
            return Custom().lower_value(lw, node, name)
        return Val(Kind(Cat.FUNC), c.Construct(c.Type(functor)), node=node)

    example = "y = abs(x)" if cxx == "abs" else f"y = {cxx}(x, x)"
    return Custom(call=call, value=value, example=example)


def _is_static_number(v: Val) -> bool:
    """A number C++ knows at instantiation (`C<v>`): not a Python literal (folded before), not a
    run-time value."""
    return v.kind.cat in (Cat.STATIC, Cat.CONSTEXPR) or (
        v.kind.cat is Cat.META and v.kind.meta_kind == m.STATIC_INT
    )


def _conversion(ctype: str) -> Custom:
    static_cxx = {"int32_t": "to_int", "float": "to_float", "bool": "to_bool"}[ctype]

    def call(lw: Lowerer, node: cst.Call, name: str) -> Val:
        if len(node.args) != 1 or node.args[0].keyword is not None:
            raise lw.error(node, "bad-arguments", f"{name}(...) takes one positional argument")
        arg = lw.lower(node.args[0].value)
        if _is_static_number(arg):  # int(math.log2(width)): a static number stays static
            x = lw.materialize(arg, True, node.args[0].value)
            return Val(k.STATIC, c.Call(c.Id(f"static_math::{static_cxx}"), (x,)), node=node)
        x = lw.value(node.args[0].value)
        return Val(k.dynamic(ctype), c.Call(c.Id("to"), (x,), (c.Type(ctype),)), node=node)

    name = {"int32_t": "int", "float": "float", "bool": "bool"}[ctype]
    return Custom(call=call, example=f"v = {name}(x)")


#: `math` functions C++ computes on static numbers (bbx/layout/static_math.hpp), by arity.
STATIC_MATH = {"log2": 1, "log": 1, "log10": 1, "sqrt": 1, "floor": 1, "ceil": 1, "trunc": 1,
               "isqrt": 1, "gcd": 2, "lcm": 2}  # fmt: skip


def _static_math(name: str, arity: int) -> Custom:
    """`math.<name>(x)`: folded in Python when its arguments are Python values (bbx.analysis.fold);
    computed by C++ at instantiation when they are static numbers only C++ knows (a type's width,
    a static shape); refused on run-time values."""

    def call(lw: Lowerer, node: cst.Call, resolved: str) -> Val:
        if len(node.args) != arity or any(a.keyword is not None or a.star for a in node.args):
            raise lw.error(
                node, "bad-arguments", f"{resolved}(...) takes {arity} positional argument(s)"
            )
        vals = [lw.lower(a.value) for a in node.args]
        if not all(_is_static_number(v) or v.kind.cat is Cat.LITERAL for v in vals):
            raise lw.error(
                node,
                "runtime-math",
                f"'{resolved}' applied to a run-time value",
                "Python's math module only works on values known when the kernel is compiled "
                "(Python numbers, static shapes, a type's width); use cute.math on run-time values",
            )
        args = tuple(lw.materialize(v, True, a.value) for v, a in zip(vals, node.args, strict=True))
        return Val(k.STATIC, c.Call(c.Id(f"static_math::{name}"), args), node=node)

    operands = ", ".join(["rA.element_type.width", "12"][:arity])
    width = "rA.element_type.width"
    return Custom(call=call, example=f"v = int(math.{name}({operands})) + {width} / 3")


def register(r: Registry) -> None:
    for name, arity in STATIC_MATH.items():
        r.add(f"math.{name}", _static_math(name, arity))
    for name in ("abs", "min", "max"):
        r.add(f"builtins.{name}", _elementwise(name))
    r.add("builtins.int", _conversion("int32_t"))
    r.add("builtins.float", _conversion("float"))
    r.add("builtins.bool", _conversion("bool"))
    r.add("builtins.range", Marker(
        "as the iterable of a `for` loop", example="for i in range(n):\n    rA[0] = 0.0"))
    r.add("builtins.print", Marker(
        "as a statement (it runs at trace time in CuTe DSL)", example='print("trace time")'))
    for name, cxx in _OPERATOR_FUNCTORS.items():
        r.add(f"operator.{name}", Functor(
            cxx, example=f"s = ssa.reduce(operator.{name}, 0.0, 0)"))
