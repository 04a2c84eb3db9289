"""`cutlass.Array`: the DSL's typed memory handle (a pointer, a shape and row-major strides), and
`cutlass.make_array_view`. C++: bbx/tensor/dsl_array.hpp.

    a = cutlass.Array(cutlass.Float32, 8)                       # registers (the default space)
    s = cutlass.Array(cutlass.Int32, (4, 32), space=cutlass.AddressSpace.smem, alignment=16)
    v = cutlass.Array(ptr, shape=64)                            # a view of memory
    a[i], a[i, j], a.load(i, vector_size=4), a.store(x, i), a.subview(i), a.data_ptr(i)

An Array is a tensor-like value to the translator (Cat.TENSOR: `a[i]` is an element access);
its C++ type gives `a[i]` the DSL's meaning (i elements after the base, whatever the rank).
Module-level global arrays (`space=gmem`/`cmem` at module scope) and slices (`a[start:count]`)
are not supported.
"""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat
from ..analysis.value import Val
from ..cxx import ast as c
from .control import ANNOTATION
from .entry import Attribute, Custom, CustomMethod, Function, Marker, params
from .lowerer import Lowerer
from .registry import Registry
from .roles import SHAPE, literal_value

_RMEM, _SMEM = 5, 3


def _array(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`cutlass.Array(dtype, shape, *, space=rmem, alignment=None)` allocates;
    `cutlass.Array(ptr, shape=..., dtype=None)` views memory."""
    bound = lw.bind(node, ["base", "shape", "dtype", "space", "alignment", "name", "init"],
                    f"'{name}'", 1)
    base = lw.lower(bound["base"])
    if "shape" not in bound:
        raise lw.error(node, "bad-arguments", "cutlass.Array needs a shape",
                       "e.g. cutlass.Array(cutlass.Float32, 8) or cutlass.Array(ptr, shape=8)")
    shape = lw.value(bound["shape"], True, SHAPE)
    if base.kind.cat is Cat.TYPE or (base.kind.cat is Cat.META and base.kind.meta_kind == "type"):
        return _allocate(lw, node, bound, shape)
    ptr = lw.materialize(base, False, bound["base"])
    if "dtype" in bound:
        ptr = c.Call(c.Id("recast_ptr"), (ptr,), (lw.as_type(bound["dtype"]),))
    return Val(k.TENSOR, c.Call(c.Id("make_array"), (ptr, shape)), node=node)


def _allocate(
    lw: Lowerer, node: cst.Call, bound: dict[str, cst.BaseExpression], shape: c.Expr
) -> Val:
    t = lw.as_type(bound["base"])
    space = literal_value(lw, bound["space"]) if "space" in bound else _RMEM
    for unsupported in ("name", "init"):
        if unsupported in bound:
            raise lw.error(bound[unsupported], "not-yet-supported",
                           f"cutlass.Array({unsupported}=...) (a module-level global array) is "
                           "not yet supported by bbx")
    if space == _RMEM:
        return Val(k.TENSOR, c.Call(c.Id("make_rmem_array"), (shape,), (t,)), node=node)
    if space == _SMEM:
        align: c.Expr = c.Construct(c.Type("Int", (c.Lit("16"),)))
        if "alignment" in bound:
            a = literal_value(lw, bound["alignment"])
            if not isinstance(a, int) or isinstance(a, bool) or a <= 0 or a & (a - 1):
                raise lw.error(bound["alignment"], "bad-arguments",
                               "alignment= must be a literal power of two")
            align = c.Construct(c.Type("Int", (c.Lit(str(a)),)))
        dtype = c.Construct(c.Type("type_c", (t,)))
        size = c.Call(c.Id("product"), (shape,))
        site = c.Lit(str(lw.site_number(node)))
        storage = c.Call(c.Id("arch::alloc_smem"), (dtype, size, align), (site,))
        return Val(k.TENSOR, c.Call(c.Id("make_array"), (storage, shape)), node=node)
    where = bound.get("space", node)
    raise lw.error(
        where, "not-yet-supported",
        "cutlass.Array in global or constant memory (a module-level global) is not yet "
        "supported by bbx",
        "allocate in registers (the default) or space=cutlass.AddressSpace.smem",
    )


def _array_value(lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
    return Marker(f"{ANNOTATION} or called").lower_value(lw, node, name)


def _offset(cxx: str) -> CustomMethod:
    """`a.subview(idx=0)` / `a.data_ptr(idx=0)`: idx a linear element offset."""

    def call(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
        bound = lw.bind(node, ["idx"], f"'.{name}'", 0)
        if "idx" in bound and isinstance(bound["idx"], cst.Tuple):
            raise lw.error(bound["idx"], "not-yet-supported",
                           f"'.{name}' with a coordinate is not yet supported",
                           "pass the linear element offset")
        args = (lw.value(bound["idx"]),) if "idx" in bound else ()
        kind = k.TENSOR if cxx == "subview" else k.VALUE
        return Val(kind, c.Call(c.Member(obj, cxx), args), node=node)

    return CustomMethod(
        call, example=f"a = cutlass.Array(cutlass.Float32, 8)\nb = a.{cxx}(2)")


def register(r: Registry) -> None:
    r.add("cutlass.Array", Custom(
        call=_array, value=_array_value,
        example="a = cutlass.Array(cutlass.Float32, 8)\na[0] = x\ny = a[3]\n"
        "s = cutlass.Array(cutlass.Int32, (4, 32), space=cutlass.AddressSpace.smem, "
        "alignment=16)\ns[1, tidx] = n\nz = s[1, tidx] + s[7]\n"
        "v = cutlass.Array(gA.iterator, shape=32)\nw = v[tidx]"))
    r.add("cutlass.make_array_view", Function(
        "make_array_view", params("tensor:any"), k.TENSOR, 1,
        example="v = cutlass.make_array_view(gA)\ny = v[1, 2] + v[5]"))
    r.add_member(Cat.TENSOR, "subview", _offset("subview"))
    r.add_member(Cat.TENSOR, "data_ptr", _offset("data_ptr"))
    r.add_member(Cat.TENSOR, "strides", Attribute(
        "stride", k.VALUE, example="a = cutlass.Array(cutlass.Float32, (2, 4))\ns = a.strides"))
