"""Methods and attributes of the DSL's Tensor, Layout and copy objects beyond the core ones of
`tensor` and `copy`: memory space, leading dimension, static/dynamic masks, hierarchical
coordinates, the tiled copy's tiler / TV layout / size, the thread slice's index, the element and
op types of copy objects (C++: bbx/tensor/queries.hpp, bbx/atom/copy_atom.hpp).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from .builder import method
from .entry import Attribute, CustomMethod
from .lowerer import Lowerer
from .registry import Registry

_STATIC = Kind(Cat.STATIC)
_COPY_OBJECTS = (Cat.ATOM, Cat.TILED_COPY, Cat.THR_COPY)
_TILED = (Cat.TILED_COPY, Cat.THR_COPY)


def _call(cxx: str, kind: Kind, example: str) -> Attribute:
    """`x.name` -> `cxx(x)`."""

    def lower(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
        return Val(kind, c.Call(c.Id(cxx), (obj,)), node=node)

    return Attribute(custom=lower, example=example)


def _same_tensor(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`t.mark_layout_dynamic(...)` / `mark_compact_shape_dynamic(...)`: host-side requests
    about which facts a compiled kernel may assume; inside DSL code bbx's specialization has
    already fixed them, and the tensor is the same."""
    params = (
        ["leading_dim"] if name == "mark_layout_dynamic"
        else ["mode", "stride_order", "divisibility"]
    )
    lw.bind(node, params, f"'.{name}'", 0 if name == "mark_layout_dynamic" else 1)
    return Val(receiver.kind, obj, node=node)


def _value_type(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
    return Val(k.TYPE, type=c.Type("copy_value_t", (c.Decltype(obj),)), node=node)


def _op(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
    return Val(k.VALUE, c.Construct(c.Type("copy_op_t", (c.Decltype(obj),))), node=node)


def _thr_idx(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
    return Val(k.dynamic("int"), c.Member(obj, "thr_idx"), node=node)


def register(r: Registry) -> None:
    # Tensor.
    t = Cat.TENSOR
    r.add_member(t, "memspace", _call(
        "memspace_of", _STATIC,
        "s = gA.memspace\nb = cutlass.const_expr(rA.memspace == cute.AddressSpace.rmem)"))
    r.add_member(t, "leading_dim", _call("leading_dim", _STATIC, "d = gA.leading_dim"))
    r.add_member(t, "dynamic_shapes_mask", Attribute(
        custom=_mask("shape"), example="m = mA.dynamic_shapes_mask"))
    r.add_member(t, "dynamic_strides_mask", Attribute(
        custom=_mask("stride"), example="m = mA.dynamic_strides_mask"))
    for name in ("mark_layout_dynamic", "mark_compact_shape_dynamic"):
        args = "" if name == "mark_layout_dynamic" else "mode=0"
        r.add_member(t, name, CustomMethod(
            _same_tensor, example=f"t = mA.{name}({args})"))
    # Layout.
    r.add_member(Cat.LAYOUT, "max_alignment", Attribute(
        custom=_type_query("max_alignment"),
        example="a = layout.max_alignment\nb = cutlass.const_expr(gA.layout[0].max_alignment > 1)"))
    r.add_member(Cat.LAYOUT, "get_hier_coord", CustomMethod(
        _hier_coord, example="crd = layout.get_hier_coord(tidx)"))
    # ComposedLayout: inner(offset + outer(c)).
    composed = ("L = cute.make_composed_layout(cute.make_swizzle(3, 3, 3), 0, "
                "cute.make_layout((8, 64), stride=(64, 1)))\n")
    for name, result in (("inner", k.VALUE), ("offset", k.VALUE), ("outer", k.LAYOUT)):
        r.add_member(Cat.LAYOUT, name, Attribute(
            name, result, example=f"{composed}{name}_part = L.{name}"))
    # Copy objects.
    r.add_member(_COPY_OBJECTS, "value_type", Attribute(
        custom=_value_type, example="T = atom.value_type\nT2 = tiled_copy.value_type"))
    r.add_member(_COPY_OBJECTS, "op", Attribute(custom=_op, example="op = atom.op"))
    r.add_member(_TILED, "size", Attribute("size", _STATIC, example="s = tiled_copy.size"))
    r.add_member(_TILED, "tiler_mn", Attribute(
        "tiler_mn", k.VALUE, example="t = tiled_copy.tiler_mn"))
    r.add_member(_TILED, "layout_tv_tiled", Attribute(
        "layout_tv", k.LAYOUT, example="L2 = tiled_copy.layout_tv_tiled"))
    r.add_member(Cat.THR_COPY, "thr_idx", Attribute(
        custom=_thr_idx, example="i = thr_copy.thr_idx"))
    r.add_member(Cat.THR_COPY, "get_slice", method(
        "get_slice", "thr_idx:value", Kind(Cat.THR_COPY),
        example="tc2 = thr_copy.get_slice(tidx)"))


AttributeLowering = Callable[[Lowerer, cst.Attribute, Val, c.Expr, str], Val]


def _type_query(cxx: str) -> AttributeLowering:
    """`x.name` -> `decltype(cxx(x)){}`: a static integer that depends only on x's type, a
    constant expression even when x is a run-time object (a dynamic layout)."""

    def lower(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
        return Val(_STATIC, c.Construct(c.Decltype(c.Call(c.Id(cxx), (obj,)))), node=node)

    return lower


def _mask(part: str) -> AttributeLowering:
    """`t.dynamic_shapes_mask` / `dynamic_strides_mask`: 1 where a leaf is a run-time value."""

    def lower(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
        leaves = c.Call(c.Member(obj, part))
        return Val(k.VALUE, c.Call(c.Id("dynamic_mask"), (leaves,)), node=node)

    return lower


def _hier_coord(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`layout.get_hier_coord(idx)`: the natural coordinate of linear index idx in the layout's
    shape (idx2crd)."""
    bound = lw.bind(node, ["idx"], f"'.{name}'", 1)
    idx = lw.value(bound["idx"])
    shape = c.Call(c.Member(obj, "shape"))
    return Val(k.VALUE, c.Call(c.Id("idx2crd"), (idx, shape)), node=node)
