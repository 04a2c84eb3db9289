"""`cutlass.cute` layout algebra: layouts, shapes, divides and products, queries."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from .builder import C, fn, tuple_of
from .entry import FIRST, REPEATS_FIRST, STATIC_IF_FIRST, Custom
from .lowerer import Lowerer
from .registry import Registry
from .roles import literal_value

_BOOL = k.dynamic("bool")
_STATIC = Kind(Cat.STATIC)


def register(r: Registry) -> None:
    r.add(C + "make_layout", fn(
        "make_layout", "shape:shape stride:stride", k.LAYOUT, 1,
        example="L2 = cute.make_layout((4, 8), stride=(8, 1))"))
    r.add(C + "make_ordered_layout", fn(
        "make_ordered_layout", "shape:shape order:tuple", k.LAYOUT,
        example="L2 = cute.make_ordered_layout((4, 8), order=(1, 0))"))
    r.add(C + "make_identity_layout", fn(
        "make_identity_layout", "shape:shape", k.LAYOUT,
        example="L2 = cute.make_identity_layout((4, 8))"))
    r.add(C + "make_layout_tv", fn(
        "make_layout_tv", "thr_layout:any val_layout:any", tuple_of(Cat.VALUE, Cat.LAYOUT),
        example="tiler, tv = cute.make_layout_tv(cute.make_layout(32), cute.make_layout(4))"))
    r.add(C + "make_composed_layout", fn(
        "make_composed_layout", "inner:any offset:any outer:any", k.LAYOUT,
        example="L2 = cute.make_composed_layout(layout, 0, layout)"))
    r.add(C + "make_swizzle", fn(
        "make_swizzle", "b:shape m:shape s:shape", k.LAYOUT,
        example="sw = cute.make_swizzle(3, 4, 3)\n"
        "L2 = cute.make_composed_layout(sw, 0, cute.make_layout((8, 64), stride=(64, 1)))"))
    r.add(C + "tile_to_shape", fn(
        "tile_to_shape", "atom:any trg_shape:shape order:tuple", FIRST, 3,
        example="L2 = cute.tile_to_shape(layout, (16, 32, 3), (0, 1, 2))"))
    for name in ("zipped_divide", "logical_divide", "tiled_divide", "flat_divide"):
        r.add(C + name, fn(
            name, "target:any tiler:tile", FIRST,
            example=f"t2 = cute.{name}(mA, (4, 8))"))
    for name in ("logical_product", "blocked_product", "raked_product", "zipped_product",
                 "tiled_product"):
        r.add(C + name, fn(
            name, "block:any tiler:any", FIRST,
            example=f"L2 = cute.{name}(layout, cute.make_layout((2, 2)))"))
    r.add(C + "composition", fn(
        "composition", "lhs:any rhs:tile", FIRST,
        example="L2 = cute.composition(layout, cute.make_layout(8, stride=2))"))
    r.add(C + "complement", fn(
        "complement", "input:any cotarget:any", k.LAYOUT, 1,
        example="L2 = cute.complement(cute.make_layout(4, stride=2), 32)"))
    r.add(C + "right_inverse", fn(
        "right_inverse", "input:any", k.LAYOUT,
        example="L2 = cute.right_inverse(layout)"))
    r.add(C + "left_inverse", fn(
        "left_inverse", "input:any", k.LAYOUT,
        example="L2 = cute.left_inverse(layout)"))
    r.add(C + "coalesce", fn(
        "coalesce", "input:any target_profile:ignored", FIRST, 1,
        example="L2 = cute.coalesce(layout)"))
    r.add(C + "depth", fn("depth", "a:any", k.VALUE, example="v = cute.depth(layout)"))
    for name in ("size", "rank", "cosize"):
        r.add(C + name, fn(
            name, "a:any mode:mode", STATIC_IF_FIRST, 1,
            example=f"v = cute.{name}(layout, mode=[0])"))
    r.add(C + "get", fn(
        "get", "input:any mode:mode", k.VALUE,
        example="L2 = cute.get(layout, mode=[1])"))
    r.add(C + "select", fn(
        "select", "input:any mode:mode", FIRST,
        example="L2 = cute.select(layout, mode=[1, 0])"))
    r.add(C + "group_modes", fn(
        "group_modes", "input:any begin:mode end:mode", FIRST, 2,
        example="L2 = cute.group_modes(cute.make_layout((2, 4, 8)), 0, 2)"))
    r.add(C + "elem_less", fn(
        "elem_less", "lhs:coord rhs:coord", _BOOL,
        example="p = cute.elem_less((tidx, 0), (4, 8))"))
    r.add(C + "ceil_div", fn(
        "ceil_div", "input:any tiler:tile", k.VALUE,
        example="v = cute.ceil_div((17, 9), (4, 8))"))
    r.add(C + "shape", fn(
        "shape", "input:any mode:mode", k.VALUE, 1,
        example="s = cute.shape(layout)"))
    r.add(C + "flatten", fn(
        "flatten", "a:any", FIRST,
        example="L2 = cute.flatten(cute.make_layout(((2, 2), 8)))"))
    r.add(C + "product", fn(
        "product", "a:any", k.VALUE,
        example="v = cute.product((4, 8))"))
    r.add(C + "product_each", fn(
        "product_each", "a:any", k.VALUE,
        example="v = cute.product_each(((2, 2), 8))"))
    r.add(C + "append", fn(
        "append", "input:any elem:any up_to_rank:mode", FIRST, 2,
        example="L2 = cute.append(layout, cute.make_layout(2))"))
    r.add(C + "prepend", fn(
        "prepend", "input:any elem:any up_to_rank:mode", FIRST, 2,
        example="L2 = cute.prepend(layout, cute.make_layout(2))"))
    r.add(C + "slice_", fn(
        "slice_", "src:any coord:coord", FIRST,
        example="L2 = cute.slice_(layout, (None, 0))"))
    r.add(C + "crd2idx", fn(
        "crd2idx", "coord:coord layout:any", k.VALUE,
        example="v = cute.crd2idx((1, 2), layout)"))
    r.add(C + "idx2crd", fn(
        "idx2crd", "idx:any shape:shape", k.VALUE,
        example="v = cute.idx2crd(5, (4, 8))"))
    r.add(C + "size_in_bytes", fn(
        "size_in_bytes", "dtype:type_c layout:any", k.VALUE,
        example="v = cute.size_in_bytes(cutlass.Float32, layout)"))
    r.add(C + "filter_zeros", fn(
        "filter_zeros", "input:any target_profile:ignored", FIRST, 1,
        example="L2 = cute.filter_zeros(cute.make_layout((4, 8), stride=(0, 1)))"))
    r.add(C + "is_static", fn(
        "is_static_c", "x:any", Kind(Cat.STATIC),
        example="b = cute.is_static(layout)"))
    # Recasting, rounding, dicing, mode helpers (bbx/layout/recast.hpp, mode_ops.hpp).
    r.add(C + "recast_layout", fn(
        "recast_layout", "new_type_bits:any old_type_bits:any src_layout:any", k.LAYOUT,
        example="L2 = cute.recast_layout(16, 8, layout)\n"
        "L3 = cute.recast_layout(cutlass.Float16.width, 32, layout)"))
    r.add(C + "round_up", fn(
        "round_up", "a:tuple b:tuple", k.VALUE,
        example="s = cute.round_up((5, 17), (4, 8))\nv = cute.round_up(n, 8)"))
    r.add(C + "repeat_like", fn(
        "repeat_like", "x:any target:tuple", REPEATS_FIRST,
        example="s = cute.repeat_like(0, ((2, 3), 4))"))
    r.add(C + "dice", fn(
        "dice", "src:any dicer:coord", FIRST,
        example="L2 = cute.dice(layout, (1, None))\ns = cute.dice((4, 8, 2), (1, None, 1))"))
    r.add(C + "make_layout_image_mask", fn(
        "make_layout_image_mask", "lay:any coord:coord mode:mode", k.dynamic("int16_t"),
        example="m = cute.make_layout_image_mask(cute.make_layout((2, 4)), (1, 0), 1)"))
    r.add(C + "shape_div", fn(
        "shape_div", "lhs:tuple rhs:tuple", k.VALUE,
        example="s = cute.shape_div((8, 4), 4)"))
    r.add(C + "append_ones", fn(
        "append_ones", "t:any up_to_rank:mode", FIRST, 1,
        example="L2 = cute.append_ones(layout)\nt2 = cute.append_ones(gA, 4)"))
    r.add(C + "prepend_ones", fn(
        "prepend_ones", "t:any up_to_rank:mode", FIRST, 1,
        example="L2 = cute.prepend_ones(layout, 3)"))
    r.add(C + "filter", fn(
        "filter", "input:any", FIRST,
        example="L2 = cute.filter(cute.make_layout((4, 1, 8), stride=(0, 5, 1)))"))
    r.add(C + "front", fn(
        "front", "input:any", k.VALUE, example="v = cute.front(((3, 2), 4))"))
    r.add(C + "tuple_cat", Custom(
        call=_tuple_cat, example="s = cute.tuple_cat((4, 8), (2,), (1, 1))"))
    r.add(C + "unflatten", fn(
        "unflatten", "sequence:tuple profile:tuple", k.VALUE,
        example="s = cute.unflatten((1, 2, 3), ((0, 0), 0))"))
    r.add(C + "wrap", fn("wrap", "x:tuple", k.VALUE, example="s = cute.wrap(4)"))
    r.add(C + "flatten_to_tuple", fn(
        "flatten_to_tuple", "a:tuple", k.VALUE,
        example="s = cute.flatten_to_tuple(((2, 2), 8))"))
    r.add(C + "slice_and_offset", fn(
        "slice_and_offset", "coord:coord src:any", tuple_of(Cat.LAYOUT, Cat.VALUE),
        example="L2, off = cute.slice_and_offset((None, 1), layout)"))
    for name in ("is_congruent", "is_weakly_congruent"):
        cxx = name.removeprefix("is_")
        r.add(C + name, fn(
            cxx, "a:tuple b:tuple", _STATIC,
            example=f"b = cute.{name}(((2, 2), 8), ((1, 1), 4))"))
    r.add(C + "has_underscore", fn(
        "has_underscore", "a:coord", _STATIC, example="b = cute.has_underscore((None, 1))"))
    for name in ("repeat", "repeat_as_tuple"):
        r.add(C + name, Custom(
            call=_repeat(name),
            example=f"s = cute.{name}(4, 3)\nc = cute.{name}(None, 2)\nv = cute.{name}(n, 2)"))
    r.add(C + "assume", Custom(
        call=_assume,
        example="v = cute.assume(n * 32, 32)\nw = cute.assume(n * 64, divby=64, pow2=True)"))


def _tuple_cat(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`tuple_cat(*tuples)`: literal tuples join at translation; others in C++."""
    if any(a.keyword is not None or a.star for a in node.args):
        raise lw.error(node, "bad-arguments", f"'{name}' takes tuples as positional arguments")
    values = [literal_value(lw, a.value) for a in node.args]
    if all(isinstance(v, tuple) for v in values):
        out: tuple[object, ...] = ()
        for v in values:
            assert isinstance(v, tuple)
            out += v
        return Val(k.literal(out), node=node)
    from .roles import TUPLE

    args = tuple(lw.value(a.value, True, TUPLE) for a in node.args)
    return Val(k.VALUE, c.Call(c.Id("tuple_cat"), args), node=node)


def _repeat(name: str) -> Callable[[Lowerer, cst.Call, str], Val]:
    """`repeat(x, n)` / `repeat_as_tuple(x, n)`: n a literal; a literal x repeats at
    translation (`(4, 4, 4)`, `(None, None)`), a run-time x in C++ (`repeat<3>(x)`)."""

    def call(lw: Lowerer, node: cst.Call, qualified: str) -> Val:
        bound = lw.bind(node, ["x", "n"], f"'{qualified}'", 2)
        count = literal_value(lw, bound["n"])
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise lw.error(bound["n"], "bad-arguments", "n must be a literal integer >= 1")
        x = lw.lower(bound["x"])
        if x.kind.cat is Cat.LITERAL:
            value = x.kind.value
            folded = value if (name == "repeat" and count == 1) else (value,) * count
            return Val(k.literal(folded), node=node)
        xx = lw.materialize(x, True, bound["x"])
        return Val(k.VALUE, c.Call(c.Id(name), (xx,), (c.Lit(str(count)),)), node=node)

    return call


def _assume(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`assume(src, divby=None, pow2=None)` -> `assume<divby, pow2>(src)`; with neither, src."""
    positional = [a for a in node.args if a.keyword is None]
    if len(positional) > 3:
        raise lw.error(positional[3], "bad-arguments", f"too many arguments to '{name}'")
    bound = lw.bind(node, ["src", "divby", "pow2"], f"'{name}'", 1)
    src = lw.lower(bound["src"])
    divby_node, pow2_node = bound.get("divby"), bound.get("pow2")
    divby = literal_value(lw, divby_node) if divby_node is not None else None
    pow2 = literal_value(lw, pow2_node) if pow2_node is not None else None
    if divby is None and pow2 is None:
        return src
    if divby is not None and (not isinstance(divby, int) or isinstance(divby, bool) or divby <= 0):
        where = divby_node if divby_node is not None else node
        raise lw.error(where, "bad-arguments", "divby= must be a literal positive integer")
    if pow2 is not None and not isinstance(pow2, bool):
        where = pow2_node if pow2_node is not None else node
        raise lw.error(where, "bad-arguments", "pow2= must be a literal True or False")
    if src.kind.cat is Cat.LITERAL:
        value = src.kind.value
        if isinstance(value, int) and divby is not None and value % divby != 0:
            raise lw.error(node, "bad-arguments", f"{value} is not a multiple of divby={divby}")
        return src
    x = lw.materialize(src, False, bound["src"])
    targs: tuple[c.CxxType | c.Expr, ...] = (
        c.Lit(str(divby or 1)), c.Lit("true" if pow2 else "false"))
    return Val(src.kind, c.Call(c.Id("assume"), (x,), targs), node=node)

