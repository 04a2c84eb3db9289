"""Python's own names used in DSL code: builtins (`abs`, `min`, `int(...)`), `operator`
functions as values, and `math` (compile-time only)."""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
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
        kind = vals[0].kind if vals and vals[0].kind.cat is not Cat.LITERAL else k.VALUE
        return Val(kind, c.Call(c.Id(cxx), args), node=node)

    def value(lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        functor = {"min": "minimum", "max": "maximum"}.get(cxx)
        if functor is None:
            return Custom().lower_value(lw, node, name)
        return Val(Kind(Cat.FUNC), c.Construct(c.Type(functor)), node=node)

    example = "y = abs(x)" if cxx == "abs" else f"y = {cxx}(x, x)"
    return Custom(call=call, value=value, example=example)


def _conversion(ctype: str) -> Custom:
    def call(lw: Lowerer, node: cst.Call, name: str) -> Val:
        if len(node.args) != 1 or node.args[0].keyword is not None:
            raise lw.error(node, "bad-arguments", f"{name}(...) takes one positional argument")
        x = lw.value(node.args[0].value)
        return Val(k.dynamic(ctype), c.Call(c.Id("to"), (x,), (c.Type(ctype),)), node=node)

    name = {"int32_t": "int", "float": "float", "bool": "bool"}[ctype]
    return Custom(call=call, example=f"v = {name}(x)")


def register(r: Registry) -> None:
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
