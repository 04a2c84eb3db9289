"""The numeric types as DSL names: `cutlass.Float32` is a type (a template argument), a cast
when called (`cutlass.Float32(x)`), and has static attributes (`.width`, `.is_integer`, ...)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from ..cxx.literals import INT64_MIN, UINT64_MAX, bool_literal, float_literal
from .entry import Attribute, Constant, Entry, Functor
from .lowerer import Lowerer
from .numeric import EXPORTING_MODULES, NUMERIC_TYPES, NumericType
from .registry import Registry

_FLOAT_CTYPES = frozenset(t.cxx for t in NUMERIC_TYPES if t.is_float)


@dataclass(frozen=True, eq=False)
class NumericTypeEntry(Entry):
    row: NumericType
    example: str | None = None

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        return Val(k.TYPE, type=c.Type(self.row.cxx), node=node)

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        bound = lw.bind(node, ["x"], f"'{name}'", 1)
        return cast(lw, bound["x"], self.row.cxx, node)


def cast(lw: Lowerer, arg: cst.BaseExpression, ctype: str, node: cst.CSTNode) -> Val:
    """`T(x)`: a literal becomes a typed constant, anything else `to<T>(x)`."""
    return cast_value(lw, lw.lower(arg), ctype, arg, node)


def cast_value(
    lw: Lowerer, val: Val, ctype: str, arg: cst.CSTNode, node: cst.CSTNode
) -> Val:
    """The lowered value `val` (of the expression `arg`) converted to `ctype`."""
    if val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, (int, float, bool)):
        v = val.kind.value
        if ctype in _FLOAT_CTYPES:
            return Val(k.dynamic(ctype), float_literal(float(v), ctype), node=node)
        if ctype == "bool":
            return Val(k.dynamic(ctype), bool_literal(bool(v)), node=node)
        if isinstance(v, float) and not math.isfinite(v):
            raise lw.error(arg, "bad-conversion",
                           f"`{lw.code(node)}` converts {v} to an integer ({ctype})",
                           "NaN and infinities have no integer value (Python's int() refuses "
                           "them too)")
        if not INT64_MIN <= int(v) <= UINT64_MAX:
            raise lw.error(arg, "bad-conversion",
                           f"`{lw.code(node)}` converts {v!r} to an integer ({ctype})",
                           "it does not fit a 64-bit integer")
        if ctype == "int32_t":
            return Val(k.dynamic(ctype), c.Lit(str(int(v))), node=node)
        return Val(
            k.dynamic(ctype), c.Construct(c.Type(ctype), (c.Lit(str(int(v))),), False), node=node
        )
    x = lw.materialize(val, False, arg)
    kind = Kind(Cat.TENSOR_SSA) if val.kind.cat is Cat.TENSOR_SSA else k.dynamic(ctype)
    return Val(kind, c.Call(c.Id("to"), (x,), (c.Type(ctype),)), node=node)


def _type_of(receiver: Val, obj: c.Expr) -> c.CxxType:
    return receiver.type if receiver.type is not None else c.Decltype(obj, decay=True)


def _width(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
    bits = c.Type("sizeof_bits_v", (_type_of(receiver, obj),))
    return Val(k.STATIC, c.Construct(c.Type("Int", (c.TypeValue(bits),))), node=node)


def _trait(trait: str, attribute: str) -> Attribute:
    """A static property of a dtype (`dtype.is_integer`): a C++ `bool_constant`."""

    def lower(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
        value = c.Type(trait, (_type_of(receiver, obj),))
        constant = c.Type("std::bool_constant", (c.TypeValue(value),))
        return Val(k.STATIC, c.Construct(constant), node=node)

    return Attribute(custom=lower, example=f"b = cutlass.Float16.{attribute}")


def register(r: Registry) -> None:
    for row in NUMERIC_TYPES:
        names = [f"{m}.{row.dsl_name}" for m in EXPORTING_MODULES]
        r.add(names, NumericTypeEntry(row, example=f"y = cutlass.{row.dsl_name}(1)"))
        for m in EXPORTING_MODULES:  # the type's zero, in the type (`cutlass.Float32.zero`)
            r.add(f"{m}.{row.dsl_name}.zero", Constant(
                0.0 if row.is_float else 0, example=f"y = cutlass.{row.dsl_name}.zero"))
        if row.is_float:
            for m in EXPORTING_MODULES:
                r.add(f"{m}.{row.dsl_name}.inf", Constant(
                    float("inf"), example=f"y = cutlass.{row.dsl_name}.inf"))
                r.add(f"{m}.{row.dsl_name}.nan", Constant(
                    float("nan"), example=f"y = cutlass.{row.dsl_name}.nan"))
    r.add_member(Cat.TYPE, "width", Attribute(custom=_width, example="v = cutlass.Float16.width"))
    for attribute in ("is_integer", "is_float", "signed"):
        trait = "bbx::is_signed_v" if attribute == "signed" else f"bbx::{attribute}_v"
        r.add_member(Cat.TYPE, attribute, _trait(trait, attribute))
    for op, cxx in (("ADD", "plus"), ("MUL", "multiplies"), ("MAX", "maximum"),
                    ("MIN", "minimum")):  # fmt: skip
        r.add(f"cutlass.cute.ReductionOp.{op}", Functor(
            cxx, example=f"s = ssa.reduce(cute.ReductionOp.{op}, 0.0, 0)"))
