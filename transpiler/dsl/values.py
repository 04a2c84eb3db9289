"""Register values beyond arithmetic: `cutlass.Vector` and the TensorSSA methods that build,
take apart, reinterpret and combine them (`from_elements`, `to_elements`, `bitcast`, `reshape`,
`apply_op`, `with_signedness`...), `cutlass.full` / `cutlass.full_like`, and `bitcast` of a
scalar; `cutlass.vector.broadcast_to` / `outerproduct` and the subscripts of a Vector
(`v[i, j]`, `v[:, a:b]`). C++: bbx/tensor/value.hpp, value_ops.hpp. A TensorSSA and a
`cutlass.Vector` are one C++ type, `Value<T, N, Shape>`: Shape (a row-major `vshape<...>`, as the
DSL's MLIR n-D vectors) lives in the C++ type, so what a shape allows (an index per mode, the
broadcast rule, 1-D operands of outerproduct) is checked there by static_asserts naming the DSL's
rule; the values `t.load()` returns are flat (`vshape<N>`).
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
    """`cutlass.full(shape, fill_value, dtype=None)`: a Vector of the static `shape`; dtype from
    the fill value when omitted (a Python float is Float32, an int Int32, a bool Boolean, as the
    DSL infers)."""
    from .roles import SHAPE

    bound = lw.bind(node, ["shape", "fill_value", "dtype"], f"'{name}'", 2)
    shape = lw.value(bound["shape"], True, SHAPE)
    fill = lw.lower(bound["fill_value"])
    t: c.CxxType
    if "dtype" in bound:
        t = lw.as_type(bound["dtype"])
    elif fill.kind.cat is Cat.LITERAL:
        (t,) = _scalar_type(fill)
    elif fill.kind.cat is Cat.DYNAMIC and fill.kind.ctype:
        t = c.Type(fill.kind.ctype)
    else:
        t = c.Decltype(lw.materialize(fill, False, bound["fill_value"]), decay=True)
    x = lw.materialize(fill, False, bound["fill_value"])
    # MLIR's vector.broadcast of the fill value: a Vector of that (row-major) shape
    return Val(SSA, c.Call(c.Id("broadcast_to"), (x, shape), (t,)), node=node)


def _scalar_type(val: Val) -> tuple[c.CxxType, ...]:
    """The element type of a Python literal as the DSL infers it (a float is Float32, an int
    Int32, a bool Boolean): a template argument; () for any other value (C++ deduces it)."""
    if val.kind.cat is not Cat.LITERAL:
        return ()
    v = val.kind.value
    ctype = "bool" if isinstance(v, bool) else "float" if isinstance(v, float) else "int32_t"
    return (c.Type(ctype),)


def _broadcast_to(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`cutlass.vector.broadcast_to(src, target_shape)`: a scalar or a narrower Vector repeated
    to a static shape (MLIR vector.broadcast; bbx::broadcast_to checks the broadcast rule)."""
    from .roles import SHAPE

    bound = lw.bind(node, ["src", "target_shape"], f"'{name}'", 2)
    shape_node = bound["target_shape"]
    items = shape_node.elements if isinstance(shape_node, (cst.Tuple, cst.List)) else None
    for e in items or ():
        if isinstance(e.value, (cst.Tuple, cst.List)):
            raise lw.error(e.value, "bad-arguments",
                           "broadcast_to: the target shape is a flat tuple of ints",
                           "a Vector's shape has no nested modes, e.g. (2, 4)")
    shape = lw.value(shape_node, True, SHAPE)
    src = lw.lower(bound["src"])
    x = lw.materialize(src, False, bound["src"])
    return Val(SSA, c.Call(c.Id("broadcast_to"), (x, shape), _scalar_type(src)), node=node)


def _slice_bound(lw: Lowerer, node: cst.BaseExpression | None, what: str) -> c.Expr | None:
    """A bound of a Vector slice: a compile-time integer (the DSL's rule), None when omitted."""
    if node is None or (isinstance(node, cst.Name) and node.value == "None"):
        return None
    val = lw.lower(node)
    x = lw.static_int_expr(val, node)
    if x is None:
        raise lw.error(node, "bad-arguments",
                       f"Vector slice indices must be static ints; the {what} "
                       f"{lw.code(node)} is not",
                       "slice a Vector with literal or Constexpr bounds")
    if what == "step" and val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, int):
        if val.kind.value <= 0:
            rule = "a non-zero" if val.kind.value == 0 else "a positive"
            raise lw.error(node, "bad-arguments", f"Vector slices require {rule} step")
    return x


def vector_subscript(lw: Lowerer, node: cst.Subscript, base: c.Expr) -> Val:
    """`v[a:b]`, `v[:, 1:3]`, `v[0, :]` of a register value (a slice among the indices): the
    DSL's Vector slicing, a value of the same rank. `:` is `_`; `a:b:s` is
    `vslice<a, b, s>{}` (C++ normalises it against the mode's extent); an integer keeps its mode
    with extent 1, and must be static."""
    args: list[c.Expr] = []
    for el in node.slice:
        sl = el.slice
        if isinstance(sl, cst.Slice):
            lower = _slice_bound(lw, sl.lower, "start")
            upper = _slice_bound(lw, sl.upper, "stop")
            step = _slice_bound(lw, sl.step, "step")
            if lower is None and upper is None and step is None:
                args.append(c.Id("_"))
                continue
            targs: list[c.Expr] = [lower or c.Lit("0")]
            if upper is not None or step is not None:
                targs.append(upper or c.Id("vslice_end"))
            if step is not None:
                targs.append(step)
            args.append(c.Construct(c.Type("vslice", tuple(targs))))
        else:
            assert isinstance(sl, cst.Index)
            val = lw.lower(sl.value)
            if lw.static_int_expr(val, sl.value) is None:
                raise lw.error(sl.value, "bad-arguments",
                               "Vector multi-dimensional slice: an index next to a slice must "
                               "be a static int", "index with a literal or a Constexpr value")
            args.append(lw.materialize(val, True, sl.value))
    return Val(SSA, c.Call(base, tuple(args)), node=node)


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
    r.add("cutlass.vector.broadcast_to", Custom(
        call=_broadcast_to,
        example="row = cutlass.Vector.from_elements((1.0, 2.0, x, x), cutlass.Float32)\n"
        "m = cutlass.vector.broadcast_to(row, (2, 4))\ny = m[1, 2]\ns = m[:, 1:3]\n"
        "z = s[0, 1] + m[0, -1] + cutlass.vector.broadcast_to(2.0, 4)[3]"))
    r.add("cutlass.vector.outerproduct", Function(
        "outerproduct", params("a:any b:any acc:any"), SSA, 2,
        example="a = cutlass.Vector.from_elements((x, 2.0), cutlass.Float32)\n"
        "m = cutlass.vector.outerproduct(a, a)\nw = cutlass.vector.outerproduct(a, a, m)\n"
        "y = w[1, 0] + w.shape[1]"))
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
