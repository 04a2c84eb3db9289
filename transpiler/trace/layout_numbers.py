"""The DSL's layout helpers whose results are numbers or int tuples, at trace time:

    cute.crd2idx((3, 1), layout)                       # the offset of a coordinate
    cute.round_up((k, 17), (8, 4))                     # leaf by leaf, to multiples
    cute.dice(layout, (1, None, 1))                    # the modes where the dicer has integers
    cute.make_layout_image_mask(layout, (1, 0), 1)     # Int16: the offsets of mode 1's image
    cute.assume(k * 16, divby=16)                      # k * 16, known to be a multiple of 16

Static inputs give Python values; run-time leaves (`Int32` values) give run-time DSL numbers,
as in the DSL. `assume` is the header's `assume<divby, pow2>(x)` (bbx/layout/assume.hpp) and
adds the fact to the value, so offsets made from it keep the divisibility."""

from __future__ import annotations

from typing import Any

from ..cxx import ast as c
from . import int_tuple as it
from . import layout as L
from .errors import trace_error
from .run_time_int import RunTimeInt, int_tuple_in, layout_in, user_value
from .scalar import Boolean, CxxValue, Int16, Integer, Numeric, as_numeric
from .swizzle import ComposedLayout
from .tensor import algebra_errors


def crd2idx(coord: Any, layout: Any, *, loc: Any = None, ip: Any = None) -> Any:
    """`cute.crd2idx(coord, layout)`: the offset of `coord` in `layout` (a shape: its compact
    layout)."""
    del loc, ip
    with algebra_errors("cute.crd2idx"):
        crd = int_tuple_in(coord)
        if isinstance(layout, ComposedLayout):
            return user_value(layout(crd))
        return user_value(_layout(layout, "cute.crd2idx")(crd))


def round_up(a: Any, b: Any) -> Any:
    """`cute.round_up(a, b)`: `a` rounded up to a multiple of `b`, leaf by leaf (`b` padded with
    1s)."""
    with algebra_errors("cute.round_up"):
        return user_value(it.round_up(int_tuple_in(a), int_tuple_in(b)))


def dice(src: Any, dicer: Any, *, loc: Any = None, ip: Any = None) -> Any:
    """`cute.dice(layout_or_tuple, dicer)`: the modes where `dicer` has an integer (the
    complement of slicing); the dicer is static."""
    del loc, ip
    if not _static_dicer(dicer):
        raise trace_error("bad-arguments", f"cute.dice(..., {dicer!r})",
                          "expects the dicer to be static: integers and None")
    with algebra_errors("cute.dice"):
        if isinstance(src, L.Layout):
            return _user_layout(L.dice(layout_in(src), dicer))
        if isinstance(src, ComposedLayout):
            raise trace_error("not-traced", "cute.dice of a composed layout",
                              "dice its outer layout")
        return user_value(it.dice(dicer, int_tuple_in(src)))


def make_layout_image_mask(lay: Any, coord: Any, mode: Any, *, loc: Any = None,
                           ip: Any = None) -> Numeric:
    """`cute.make_layout_image_mask(layout, coord, mode)`: an Int16 with bit k set for each
    offset k that mode `mode` of `layout` reaches at `coord` in the other modes."""
    del loc, ip
    what = "cute.make_layout_image_mask"
    layout = _layout(lay, what)
    r = L.rank(layout)
    crd = int_tuple_in(coord, none_ok=True)
    if it.rank(crd) != r:
        raise trace_error("bad-arguments", f"{what}: the coordinate {coord!r} for a layout of "
                          f"rank {r}", "the coordinate has the layout's rank")
    if not isinstance(mode, int) or isinstance(mode, bool) or not 0 <= mode < r:
        raise trace_error("bad-arguments", f"{what}(..., mode={mode!r})",
                          f"expects mode to be in [0, {r})")
    if L.is_static(layout) and L.cosize(layout) > 16:
        raise trace_error("bad-arguments", f"{what} of {layout}",
                          "the mask may not fit into a 16-bit integer (cosize above 16)")
    slicer = tuple(None if i == mode else x for i, x in enumerate(it.wrap(crd)))
    with algebra_errors(what):
        sliced, offset = L.slice_and_offset(slicer, layout)
    if not L.is_static(sliced):
        raise trace_error("not-traced", f"{what} of a mode of run-time shape or stride",
                          "staged execution makes masks of static modes")
    mask = 0
    for i in range(L.size(sliced)):
        mask |= 1 << sliced(i)
    if isinstance(offset, RunTimeInt):
        shifted: Any = Int16(_wrap16(mask))
        return Int16(shifted << offset.value)
    return Int16(_wrap16(mask << int(offset)))


def assume(src: Any, divby: Any = None, pow2: Any = None, *, loc: Any = None,
           ip: Any = None) -> Any:
    """`cute.assume(src, divby=None, pow2=None)`: `src`, promised a multiple of `divby` (and a
    power of two with pow2=True)."""
    del loc, ip
    if pow2 is not None and not isinstance(pow2, bool):
        raise trace_error("bad-arguments", f"cute.assume(..., pow2={pow2!r})",
                          "expects pow2 to be a bool")
    if divby is None and pow2 is None:
        return src
    div = 1 if divby is None else divby
    if not isinstance(div, int) or isinstance(div, bool) or div <= 0:
        raise trace_error("bad-arguments", f"cute.assume(..., divby={divby!r})",
                          "expects divby to be a positive Python integer")
    if pow2 and div & (div - 1):
        raise trace_error("bad-arguments", f"cute.assume(..., divby={div}, pow2=True)",
                          "expects divby to be a power of two when pow2=True")
    value = src.value if isinstance(src, Integer) and src.is_static else src
    if isinstance(value, int) and not isinstance(value, bool):
        if value % div or (pow2 and (value <= 0 or value & (value - 1))):
            raise trace_error("bad-arguments", f"cute.assume({value}, divby={div}, pow2={pow2})",
                              "the static value breaks the promise")
        return src
    if not isinstance(src, Integer) or isinstance(src, Boolean):
        raise trace_error("not-traced", f"cute.assume of a {type(src).__name__}",
                          "staged execution assumes facts of integers")
    call = c.Call(c.Id("assume"), (as_numeric(src).expr(),),
                  (c.Lit(str(div)), c.Lit("true" if pow2 else "false")))
    result = type(src).run_time(call)
    assert isinstance(result.value, CxxValue)
    RunTimeInt(result).divisor = div
    return result


def _layout(layout: Any, what: str) -> L.Layout:
    if isinstance(layout, L.Layout):
        return layout_in(layout)
    try:
        return L.make_layout(int_tuple_in(layout))
    except TypeError:
        raise trace_error("bad-arguments", f"{what}: {layout!r} is not a layout or a shape",
                          "") from None


def _user_layout(layout: L.Layout) -> L.Layout:
    return L.Layout(user_value(layout.shape), user_value(layout.stride))


def _static_dicer(dicer: Any) -> bool:
    if isinstance(dicer, (tuple, list)):
        return all(_static_dicer(d) for d in dicer)
    return dicer is None or (isinstance(dicer, int) and not isinstance(dicer, bool))


def _wrap16(mask: int) -> int:
    """`mask` as the Int16 the DSL computes (two's complement, 16 bits)."""
    mask &= 0xFFFF
    return mask - 0x10000 if mask & 0x8000 else mask
