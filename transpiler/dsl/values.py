"""Register values beyond arithmetic: `cutlass.Vector` and the TensorSSA methods that build,
take apart, reinterpret and combine them (`from_elements`, `to_elements`, `bitcast`, `reshape`,
`apply_op`, `with_signedness`...), `cutlass.full` / `cutlass.full_like`, and `bitcast` of a
scalar. C++: bbx/tensor/value_ops.hpp. bbx's register values are flat (`Value<T, N>`), so a
TensorSSA and a `cutlass.Vector` are one C++ type; shape-only operations keep the elements.
"""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from .builder import method
from .control import ANNOTATION
from .entry import RECEIVER, Custom, CustomMethod, Function, Marker, params
from .lowerer import Lowerer
from .registry import Registry
from .roles import literal_value

SSA = Kind(Cat.TENSOR_SSA)
_VALUES = (Cat.TENSOR_SSA,)


def _from_elements(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`from_elements(scalars, dtype)`: a literal tuple or list of scalars -> Value<T, N>."""
    bound = lw.bind(node, ["scalars", "dtype"], f"'{name}'", 2)
    scalars = bound["scalars"]
    if not isinstance(scalars, (cst.Tuple, cst.List)) or not scalars.elements:
        raise lw.error(scalars, "bad-arguments",
                       "from_elements needs a tuple or list of scalars written out",
                       "e.g. cutlass.Vector.from_elements((a, b, c, d), cutlass.Float32)")
    t = lw.as_type(bound["dtype"])
    args = tuple(lw.value(e.value) for e in scalars.elements)
    return Val(SSA, c.Call(c.Id("from_elements"), args, (t,)), node=node)


def _vector(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`cutlass.Vector(v)` of a register value: the same value (one C++ type for both)."""
    bound = lw.bind(node, ["v", "dtype"], f"'{name}'", 1)
    val = lw.lower(bound["v"])
    if val.kind.cat is not Cat.TENSOR_SSA:
        raise lw.error(bound["v"], "bad-arguments",
                       "cutlass.Vector(...) takes a register value (a TensorSSA or a Vector)",
                       "build one from scalars with cutlass.Vector.from_elements((...), dtype)")
    x = lw.materialize(val, False, bound["v"])
    if "dtype" in bound:
        return Val(SSA, c.Call(c.Id("to"), (x,), (lw.as_type(bound["dtype"]),)), node=node)
    return Val(SSA, x, node=node)


def _vector_value(lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
    """`cutlass.Vector` itself is a class: an annotation, or called."""
    return Marker(f"{ANNOTATION} or called").lower_value(lw, node, name)


def _full(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`cutlass.full(shape, fill_value, dtype=None)`: dtype from the fill value when omitted
    (a Python float is Float32, an int Int32, a bool Boolean, as the DSL infers)."""
    from .roles import SHAPE

    bound = lw.bind(node, ["shape", "fill_value", "dtype"], f"'{name}'", 2)
    shape = lw.value(bound["shape"], True, SHAPE)
    fill = lw.lower(bound["fill_value"])
    t: c.CxxType
    if "dtype" in bound:
        t = lw.as_type(bound["dtype"])
    elif fill.kind.cat is Cat.LITERAL:
        v = fill.kind.value
        ctype = "bool" if isinstance(v, bool) else "float" if isinstance(v, float) else "int32_t"
        t = c.Type(ctype)
    elif fill.kind.cat is Cat.DYNAMIC and fill.kind.ctype:
        t = c.Type(fill.kind.ctype)
    else:
        t = c.Decltype(lw.materialize(fill, False, bound["fill_value"]), decay=True)
    x = lw.materialize(fill, False, bound["fill_value"])
    return Val(SSA, c.Call(c.Id("full"), (shape, x), (t,)), node=node)


def _identity(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`v.to_vector()`, `TensorSSA.from_vector(v)`: the same register value."""
    lw.bind(node, ["force_flatten", "dtype", "shape"], f"'.{name}'", 0)
    return Val(receiver.kind, obj, node=node)


def _from_vector(lw: Lowerer, node: cst.Call, name: str) -> Val:
    bound = lw.bind(node, ["value", "dtype", "shape"], f"'{name}'", 1)
    val = lw.lower(bound["value"])
    x = lw.materialize(val, False, bound["value"])
    if "dtype" in bound:
        x = c.Call(c.Id("to"), (x,), (lw.as_type(bound["dtype"]),))
    return Val(SSA, x, node=node)


def _with_signedness(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    bound = lw.bind(node, ["signed"], f"'.{name}'", 1)
    signed = literal_value(lw, bound["signed"])
    if not isinstance(signed, bool):
        raise lw.error(bound["signed"], "bad-arguments", "signed= must be a literal True or False")
    call = c.Call(c.Id("with_signedness"), (obj,), (c.Lit("true" if signed else "false"),))
    return Val(receiver.kind, call, node=node)


def _apply_op(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`v.apply_op(op, other, flip=False)`: op a functor (`operator.add`, a lambda)."""
    bound = lw.bind(node, ["op", "other", "flip"], f"'.{name}'", 2)
    flip = literal_value(lw, bound["flip"]) if "flip" in bound else False
    if not isinstance(flip, bool):
        raise lw.error(bound["flip"], "bad-arguments", "flip= must be a literal True or False")
    op = lw.materialize(lw.lower(bound["op"]), False, bound["op"])
    other = lw.value(bound["other"])
    call = c.Call(c.Id("apply_op"), (obj, op, other), (c.Lit("true" if flip else "false"),))
    return Val(SSA, call, node=node)


def _bitcast(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    bound = lw.bind(node, ["dtype"], f"'.{name}'", 1)
    t = lw.as_type(bound["dtype"])
    if receiver.kind.cat is Cat.TENSOR_SSA:
        kind = SSA
    else:
        kind = k.dynamic(t.name if isinstance(t, c.Type) and not t.args else None)
    return Val(kind, c.Call(c.Id("bitcast"), (obj,), (t,)), node=node)


def register(r: Registry) -> None:
    r.add(["cutlass.Vector.from_elements", "cutlass.cute.TensorSSA.from_elements"], Custom(
        call=_from_elements,
        example="v = cutlass.Vector.from_elements((1.0, 2.0, x, x), cutlass.Float32)\n"
        "w = cute.TensorSSA.from_elements((n, n), cutlass.Int32)"))
    r.add("cutlass.cute.TensorSSA.from_vector", Custom(
        call=_from_vector, example="v = cute.TensorSSA.from_vector(ssa, dtype=cutlass.Float16)"))
    r.add("cutlass.Vector", Custom(
        call=_vector, value=_vector_value,
        example="v = cutlass.Vector(ssa)\nw: cutlass.Vector = v"))
    r.add(["cutlass.full", "cutlass.vector.full"], Custom(  # one object in the DSL
        call=_full, example="v = cutlass.full((4, 8), 2.0)\nw = cutlass.full(8, n, cutlass.Int64)"))
    r.add(["cutlass.full_like", "cutlass.vector.full_like"], Function(
        "full_like", params("a:any fill_value:value dtype:type_c"), SSA, 2,
        example="v = cutlass.full_like(ssa, 3.0)\nw = cutlass.full_like(ssa, 1, cutlass.Int32)"))
    # TensorSSA members.
    r.add_member(_VALUES, "to_elements", method(
        "to_elements", "", k.VALUE, member=False,
        example="e = ssa.to_elements()\nx0 = e[0]"))
    r.add_member(_VALUES, "reshape", method(
        "reshape", "shape:shape", RECEIVER, member=False,
        example="v = ssa.reshape((8, 4))"))
    r.add_member(_VALUES, "to_vector", CustomMethod(_identity, example="v = ssa.to_vector()"))
    r.add_member(_VALUES, "with_signedness", CustomMethod(
        _with_signedness,
        example="v = cute.TensorSSA.from_elements((n, n), cutlass.Int32).with_signedness(False)"))
    r.add_member(_VALUES, "apply_op", CustomMethod(
        _apply_op, example="v = ssa.apply_op(operator.add, 1.0)\n"
        "w = ssa.apply_op(operator.sub, ssa, flip=True)"))
    r.add_member(_VALUES, "bitcast", CustomMethod(
        _bitcast, example="v = ssa.bitcast(cutlass.Int32)"))
    r.add_member((Cat.DYNAMIC, Cat.VALUE), "bitcast", CustomMethod(
        _bitcast, example="b = x.bitcast(cutlass.Uint32)"))
