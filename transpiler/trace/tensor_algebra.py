"""The DSL's layout functions on tensors (`cute.local_tile`, `cute.zipped_divide`,
`cute.local_partition`, `cute.domain_offset`, `cute.flatten`, ...): the Python layout algebra
on the tensor's layout, the iterator kept or advanced. No C++ is emitted except for run-time
offsets. Each also takes a layout (or an int tuple, where the DSL does) as CuTe's overloads."""

from __future__ import annotations

from typing import Any

from . import int_tuple as it
from . import layout as L
from . import layout_algebra as A
from .errors import trace_error
from .run_time_int import int_tuple_in, layout_in, leaf_in, user_value
from .scalar import Numeric
from .tensor import Tensor, algebra_errors, user_layout
from .tensor_ssa import TensorSSA


def _tiler_in(tiler: Any) -> Any:
    """A tiler of user values: layouts, ints (`Int32` proxies included), None, tuples."""
    if isinstance(tiler, L.Layout):
        return layout_in(tiler)
    if isinstance(tiler, (tuple, list)):
        return tuple(_tiler_in(t) for t in tiler)
    if tiler is None:
        return None
    try:
        return leaf_in(tiler)
    except TypeError:
        raise trace_error("tiler", f"{tiler!r} is not a tiler",
                          "a tiler is a layout, an integer, or a tuple of them") from None


def _on_layout(x: Any, fn: Any, what: str) -> Any:
    """fn(layout) for a tensor (a tensor with the new layout) or a layout."""
    with algebra_errors(what):
        if isinstance(x, Tensor):
            return Tensor(x.iterator, fn(x.trace_layout))
        if isinstance(x, L.Layout):
            return fn(user_layout(x))
    raise trace_error("layout-operand", f"{what} of a {type(x).__name__}",
                      "the operand is a tensor or a layout")


def logical_divide(target: Any, tiler: Any) -> Any:
    t = _tiler_in(tiler)
    return _on_layout(target, lambda lay: A.logical_divide(lay, t), "logical_divide")


def zipped_divide(target: Any, tiler: Any) -> Any:
    t = _tiler_in(tiler)
    return _on_layout(target, lambda lay: A.zipped_divide(lay, t), "zipped_divide")


def tiled_divide(target: Any, tiler: Any) -> Any:
    t = _tiler_in(tiler)
    return _on_layout(target, lambda lay: A.tiled_divide(lay, t), "tiled_divide")


def flat_divide(target: Any, tiler: Any) -> Any:
    t = _tiler_in(tiler)
    return _on_layout(target, lambda lay: A.flat_divide(lay, t), "flat_divide")


def composition(target: Any, tiler: Any) -> Any:
    """`cute.composition(t, tiler)`: the tensor (or layout) seen through `tiler`: element `c` is
    element `tiler(c)` of t (e.g. a thread/value layout over a tile)."""
    t = _tiler_in(tiler)
    return _on_layout(target, lambda lay: A.composition(lay, t), "composition")


def flatten(x: Any) -> Any:
    """`cute.flatten`: a tensor or layout with flat modes; an int tuple flattened."""
    if isinstance(x, (Tensor, L.Layout)):
        return _on_layout(x, L.flatten, "flatten")
    return user_value(it.flatten(int_tuple_in(x)))


def group_modes(x: Any, begin: int, end: int | None = None) -> Any:
    """`cute.group_modes(x, begin, end)`: modes [begin, end) as one mode."""
    def fn(lay: L.Layout) -> L.Layout:
        stop = L.rank(lay) if end is None else end
        return L.group_modes(lay, begin, stop)
    return _on_layout(x, fn, "group_modes")


def select(x: Any, mode: Any) -> Any:
    """`cute.select(x, mode=[...])`: the listed modes, in that order."""
    modes = list(mode) if isinstance(mode, (list, tuple)) else [mode]
    target = int_tuple_in(x) if not isinstance(x, (Tensor, L.Layout)) else None
    r = it.rank(target) if target is not None else rank(x)
    bad = [m for m in modes if not isinstance(m, int) or not -r <= m < r]
    if bad:
        raise trace_error("select-mode", f"select of modes {modes} of a rank-{r} operand",
                          f"the mode {bad[0]!r} does not exist")
    if target is not None:
        return user_value(it.select_modes(target, modes))
    return _on_layout(x, lambda lay: L.select(lay, modes), "select")


def local_tile(target: Any, tiler: Any, coord: Any, proj: Any = None) -> Any:
    """`cute.local_tile(t, tiler, coord, proj)`: the tile at `coord` of `zipped_divide(t,
    tiler)` (CuTe's inner_partition); `proj` keeps the tiler/coord modes where it has an
    integer."""
    t, crd = _tiler_in(tiler), _coord_in(coord)
    if proj is not None:
        with algebra_errors("local_tile's proj"):
            t, crd = it.dice(proj, t), it.dice(proj, crd)
    return _partition(target, t, crd, inner=True, what="local_tile")


def local_partition(target: Any, tiler: Any, index: Any, proj: Any = 1) -> Any:
    """`cute.local_partition(t, tiler_layout, index, proj)`: the elements of thread `index` of
    the layout `tiler` repeated over t (CuTe's outer_partition by the tiler's shape, at
    `tiler.get_flat_coord(index)`)."""
    if not isinstance(tiler, L.Layout):
        raise trace_error("local-partition", f"local_partition with a {type(tiler).__name__} "
                          "tiler", "the tiler is a layout of threads")
    lay = layout_in(tiler)
    with algebra_errors("local_partition"):
        if proj != 1:
            lay = L.dice(lay, proj)
        crd = lay.get_flat_coord(leaf_in(index))
        shape = it.product_each(lay.shape)
    return _partition(target, shape, crd, inner=False, what="local_partition")


def _coord_in(coord: Any) -> Any:
    try:
        return int_tuple_in(coord, none_ok=True)
    except TypeError:
        raise trace_error("tile-coordinate", f"the tile coordinate {coord!r}",
                          "a coordinate is an integer, a tuple of integers, or None") from None


def _partition(target: Any, tiler: Any, crd: Any, inner: bool, what: str) -> Any:
    is_tensor = isinstance(target, Tensor)
    if not is_tensor and not isinstance(target, L.Layout):
        raise trace_error("layout-operand", f"{what} of a {type(target).__name__}",
                          "the operand is a tensor or a layout")
    layout = target.trace_layout if isinstance(target, Tensor) else layout_in(target)
    with algebra_errors(what):
        tiled = A.zipped_divide(layout, tiler)
        r0, r1 = L.rank(tiled[0]), L.rank(tiled[1])
        if inner:
            rest = it.append(crd, None, r1) if it.is_tuple(crd) else crd
            full = (tuple([None] * r0) if r0 > 1 else None, rest)
        else:
            first = it.append(crd, None, r0) if it.is_tuple(crd) else crd
            full = (first, tuple([None] * r1) if r1 > 1 else None)
        sliced, offset = L.slice_and_offset(full, tiled)
    if isinstance(target, Tensor):
        return Tensor(target.iterator + offset, sliced)
    return sliced


def domain_offset(coord: Any, target: Tensor) -> Tensor:
    """`cute.domain_offset(coord, t)`: t's layout, its iterator at `coord`."""
    if not isinstance(target, Tensor):
        raise trace_error("domain-offset", f"domain_offset of a {type(target).__name__}",
                          "the operand is a tensor")
    crd = _coord_in(coord)
    return Tensor(target.iterator + target.offset_of(crd, coord), target.trace_layout)


def size(x: Any, mode: Any = ()) -> Any:
    """`cute.size(x, mode=[...])` of a tensor, layout, TensorSSA value or int tuple."""
    modes = list(mode) if isinstance(mode, (list, tuple)) else [mode]
    threads = getattr(x, "bbx_thread_count", None)  # a tiled copy or MMA: its thread count
    if threads is not None and not modes:
        return threads
    with algebra_errors("size"):
        if isinstance(x, Tensor):
            return user_value(L.size(x.trace_layout, modes))
        if isinstance(x, L.Layout):
            return user_value(L.size(layout_in(x), modes))
        if isinstance(x, TensorSSA):
            return L.size(x.shape, modes)
        return user_value(L.size(int_tuple_in(x), modes))


def rank(x: Any, mode: Any = ()) -> int:
    modes = list(mode) if isinstance(mode, (list, tuple)) else [mode]
    with algebra_errors("rank"):
        if isinstance(x, Tensor):
            return L.rank(x.trace_layout, modes)
        if isinstance(x, L.Layout):
            return L.rank(layout_in(x), modes)
        return L.rank(int_tuple_in(x), modes)


def elem_less(a: Any, b: Any) -> Any:
    """`cute.elem_less(a, b)`: every leaf of `a` below the matching leaf of `b` (a Python bool
    when static, a run-time Boolean otherwise)."""
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) > len(b):
            raise trace_error("elem-less", f"elem_less({a}, {b})",
                              "the coordinate and the shape have different profiles")
        out: Any = True
        for x, y in zip(a, b, strict=False):
            r = elem_less(x, y)
            if isinstance(r, bool):
                if not r:
                    return False
                continue
            out = r if out is True else out & r
        return out
    if isinstance(b, tuple):
        return elem_less(a, user_value(it.product(int_tuple_in(b))))
    result = a < b
    if isinstance(result, Numeric) and result.is_static:
        return bool(result.value)
    return result if isinstance(result, Numeric) else bool(result)



def repeat_like(x: Any, target: Any) -> Any:
    """`cute.repeat_like(x, target)`: `target`'s tuple structure with `x` at every leaf (a
    tensor's or layout's: its shape's; anything but a tuple is one leaf)."""
    if isinstance(target, (Tensor, L.Layout)):
        target = target.shape
    return it.repeat_like(x, target)


def product_each(a: Any) -> Any:
    """`cute.product_each(shape)`: the product of each mode of an int tuple."""
    with algebra_errors("cute.product_each"):
        return user_value(it.product_each(int_tuple_in(a)))


def ceil_div(a: Any, b: Any) -> Any:
    """`cute.ceil_div(a, b)`: ⌈a / b⌉ of integers or, leaf by leaf, of int tuples."""
    with algebra_errors("cute.ceil_div"):
        return user_value(it.ceil_div(int_tuple_in(a), int_tuple_in(b)))
