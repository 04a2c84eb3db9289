"""`Tensor` at trace time: an iterator (a typed `Pointer` into gmem/smem/rmem, or the
coordinates of an identity tensor) and a Python `Layout`.

Static facts are Python (`t.shape`, `t.layout`, `cute.size(t)`, all from the Python layout
algebra), so `range_constexpr(cute.size(t))` works. Run-time operations emit C++: `t[crd]` reads
the element at the layout's offset (static parts folded to a constant, run-time leaves as
expressions), `t[crd] = v` writes it, and `t[None, i]` slices (a tensor with the sliced layout
and an advanced iterator). Register tensors are C++ local arrays, indexed with constants after
Python unrolls the loops over them.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from ..cxx import ast as c
from . import int_tuple as it
from . import layout as L
from .address_space import AddressSpace
from .context import require
from .coord_iterator import Basis, CoordIterator, basis_like
from .dynamic_int import LayoutAlgebraError, is_static_int
from .errors import trace_error
from .layout_cxx import cxx_value
from .placement import takes_placement
from .pointer import Pointer, pointer_view, store_value
from .register_array import RegisterArray, declare_array
from .run_time_int import OffsetFacts, RunTimeInt, int_tuple_in, layout_in, leaf_in, user_value
from .scalar import CxxValue, Numeric
from .swizzle import ComposedLayout, outer_of
from .tensor_ssa import TensorSSA, array_value

TensorIterator = Pointer | CoordIterator


class algebra_errors:  # noqa: N801 - used as a `with` statement, like a function
    """`with algebra_errors(what):` a broken rule of the layout algebra becomes a located error
    about `what` (a class, not a generator: the raising frame must be bbx's own)."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if isinstance(exc, LayoutAlgebraError):
            raise trace_error("layout-algebra", f"{self.what}: {exc}") from None


@takes_placement
class Tensor:
    """A tensor: `iterator` + `layout` (the DSL's `cute.Tensor`)."""

    __module__ = "cutlass.cute"

    def __init__(self, iterator: TensorIterator, layout: L.Layout | ComposedLayout) -> None:
        self._iterator = iterator
        self._layout = layout

    # -- static facts ---------------------------------------------------------------------------

    @property
    def iterator(self) -> TensorIterator:
        return self._iterator

    @property
    def layout(self) -> Any:
        """The layout as the DSL gives it (run-time leaves are `Int32` values; a swizzled
        tensor's is its composed layout)."""
        if isinstance(self._layout, ComposedLayout):
            return self._layout
        return L.Layout(user_value(self._layout.shape), user_value(self._layout.stride))

    @property
    def trace_layout(self) -> Any:
        """The layout with the tracer's leaves (`RunTimeInt` for run-time ones): what the
        algebra of `tensor_algebra` works on — a `Layout`, or a swizzled tensor's
        `ComposedLayout`."""
        return self._layout

    @property
    def shape(self) -> Any:
        return user_value(self._layout.shape)

    @property
    def stride(self) -> Any:
        if isinstance(self._layout, ComposedLayout):
            raise trace_error("tensor-stride", "the stride of a swizzled tensor",
                              "a swizzled layout has no stride; use its layout's outer layout")
        return user_value(self._layout.stride)

    @property
    def leading_dim(self) -> Any:
        """The mode of static stride 1 (an index; a tuple of indices inside a nested mode), or
        None: the DSL's `tensor.leading_dim`. A mode of static extent 1 does not count."""
        outer = outer_of(self._layout)
        return _leading_dim(outer.shape, outer.stride)

    @property
    def element_type(self) -> Any:
        if isinstance(self._iterator, CoordIterator):
            return tuple  # coordinates
        return self._iterator.dtype

    @property
    def memspace(self) -> AddressSpace:
        return AddressSpace.named(self._iterator.memspace)

    @property
    def type(self) -> TensorType:
        """The tensor's type as the DSL prints it: `!cute.memref<f32, gmem, align<16>,
        "(?,?):(?{i64},1)">`."""
        return TensorType(self)

    def __repr__(self) -> str:
        return f"tensor<{self._iterator!r} o {self._layout}>"

    __str__ = __repr__

    # -- elements -------------------------------------------------------------------------------

    def __getitem__(self, crd: Any, *, loc: Any = None, ip: Any = None) -> Any:
        coord = _coordinate(crd)
        if it.has_none(coord):
            with algebra_errors(f"slicing a tensor of shape {self._layout.shape} with {crd}"):
                if isinstance(self._layout, ComposedLayout):  # the offset goes under the swizzle
                    return Tensor(self._iterator, self._layout(coord))
                sliced, offset = L.slice_and_offset(coord, self._layout)
            return Tensor(self._iterator + offset, sliced)
        return self._iterator.read(self.offset_of(coord, crd))

    def __iter__(self) -> Any:
        raise trace_error("tensor-iter", "a tensor is iterated over as a Python sequence",
                          "loop over its coordinates: `for i in cutlass.range_constexpr("
                          "cute.size(t))` and index `t[i]`")

    def __setitem__(self, crd: Any, value: Any, *, loc: Any = None, ip: Any = None) -> None:
        coord = _coordinate(crd)
        if it.has_none(coord):
            from .tensor_ssa import TensorSSA

            if not isinstance(value, TensorSSA):
                raise trace_error("tensor-slice-store",
                                  f"a {type(value).__name__} is assigned to the slice "
                                  f"`t[{crd}]`", "a slice is assigned a TensorSSA")
            self[crd].store(value)
            return
        self._iterator.write(self.offset_of(coord, crd), value)

    def offset_of(self, coord: Any, shown: Any) -> Any:
        """The offset of a full coordinate (checked against the shape where static)."""
        _check_coordinate(coord, self._layout.shape, shown)
        with algebra_errors(f"the coordinate {shown} of a tensor of shape "
                            f"{self._layout.shape}"):
            return self._layout(coord)

    # -- register values ------------------------------------------------------------------------

    def load(self) -> TensorSSA:
        """`t.load()`: every element, in the column-major order of the tensor's coordinates."""
        if not isinstance(self.iterator, Pointer):
            raise trace_error("tensor-load", "`.load()` of an identity tensor",
                              "read coordinates element by element: `t[i]`")
        layout = self.trace_layout
        if not it.is_static(layout.shape):
            raise trace_error("tensor-load", f"`.load()` of a tensor of shape {layout.shape}",
                              "a TensorSSA has a static shape: load a tile of static shape")
        n = L.size(layout)
        dtype = self.iterator.dtype
        row = dtype.bbx_row
        assert row is not None
        reads = tuple(self.iterator.element_expr(layout(i)) for i in range(n))
        array = declare_array(c.Type(row.cxx), n, reads, hint="ld")
        return array_value(array, layout.shape, dtype)

    def store(self, value: Any) -> None:
        """`t.store(v)`: element i of `v` to element i of `t` (column-major order; the sizes must
        agree, as the DSL checks)."""
        if not isinstance(value, TensorSSA):
            raise trace_error("tensor-store", f"`.store()` of a {type(value).__name__}",
                              "store a TensorSSA (`t[crd] = x` stores one element)")
        if not isinstance(self.iterator, Pointer):
            raise trace_error("tensor-store", "`.store()` into an identity tensor",
                              "an identity tensor holds coordinates; it has no memory")
        layout = self.trace_layout
        if not it.is_static(layout.shape):
            raise trace_error("tensor-store",
                              f"`.store()` into a tensor of shape {layout.shape}",
                              "a vectorized store needs a static shape")
        if it.product(value.shape) != L.size(layout):
            raise trace_error("tensor-store-shape",
                              f"a TensorSSA of shape {value.shape} is stored into a tensor of "
                              f"shape {layout.shape}", "the sizes must be the same")
        dtype = self.iterator.dtype
        if value.dtype is not dtype:  # the DSL widens within a kind, nothing else
            if value.dtype.is_float != dtype.is_float or dtype.width < value.dtype.width:
                raise trace_error("store-dtype", f"a TensorSSA of {value.dtype} is stored into "
                                  f"a tensor of {dtype}", f"convert it first: `.to({dtype})`")
            value = value.to(dtype)
        for i, e in enumerate(value.elements):
            self.iterator.write(layout(i), store_value(e, dtype))

    def fill(self, value: Any) -> None:
        """Every element set to `value` (the DSL's `Tensor.fill`)."""
        if not it.is_static(self._layout.shape):
            raise trace_error("tensor-fill", "`.fill()` of a tensor with a run-time shape",
                              "fill a tensor of static shape (as the DSL requires)")
        if not isinstance(self._iterator, Pointer):
            raise trace_error("identity-tensor-store", "`.fill()` of an identity tensor",
                              "an identity tensor holds coordinates; it has no memory")
        element = self._iterator.dtype(value)  # fill converts explicitly (the DSL's)
        if self.has_view() and self._iterator.memspace in ("gmem", "smem") \
                and element.bbx_row is not None:
            # the header's `fill(view, x)`, which writes as wide as its layout and alignment
            # allow (a swizzled stage 16 bytes at a time, bbx/algorithm/copy.hpp)
            require("Tensor.fill").emit(c.ExprStmt(c.Call(c.Id("fill"), (
                self.view_expr(), element.expr()))))
            return
        for i in range(L.size(self._layout)):
            self._iterator.write(self._layout(i), element)

    def has_view(self) -> bool:
        """Whether it is a tensor in memory (not an identity tensor) of a C++ element type
        (every numeric type but the sub-byte ones; `Boolean` is a C++ `bool`)."""
        if not isinstance(self._iterator, Pointer):
            return False
        row = self._iterator.dtype.bbx_row
        return row is not None and (row.width % 8 == 0 or row.kind == "bool")

    def view_expr(self) -> c.Expr:
        """The header's tensor over its memory: `make_tensor(pointer, layout)` (see
        bbx.trace.tensor_view)."""
        assert isinstance(self._iterator, Pointer)
        return c.Call(c.Id("make_tensor"), (pointer_view(self._iterator),
                                            cxx_value(self.trace_layout)))

    # -- staging --------------------------------------------------------------------------------

    def bbx_flatten(self) -> tuple[Any, list[Any]] | None:
        """Run-time control flow carries a tensor in global or shared memory of static layout
        (`tCsA_p = tCsA[None, None, None, stage]` in a run-time loop) by its offsets — the
        pointer's and a swizzled layout's — each in a C++ variable; any other tensor is a
        Python value (None)."""
        p, layout = self._iterator, self._layout
        if not isinstance(p, Pointer) or isinstance(p.base, RegisterArray):
            return None
        outer = outer_of(layout)
        if not (it.is_static(outer.shape) and it.is_static(outer.stride)):
            return None
        offsets = [p.offset]
        inner = None
        if isinstance(layout, ComposedLayout):
            offsets.append(layout.offset)
            inner = layout.inner
        items = [o.value if isinstance(o, RunTimeInt) else o for o in offsets]
        key = (p.base, p.dtype, p.memspace, p.assumed_align, p.typed, inner, outer.shape,
               outer.stride, OffsetFacts(offsets))
        return key, items

    @classmethod
    def bbx_unflatten(cls, key: Any, items: list[Any]) -> Tensor:
        base, dtype, memspace, assumed_align, typed, inner, shape, stride, facts = key
        offsets = facts.apply([leaf_in(i) for i in items])
        pointer = Pointer(base, dtype, memspace, offsets[0], assumed_align, typed)
        outer = L.Layout(shape, stride)
        if inner is None:
            return cls(pointer, outer)
        return cls(pointer, ComposedLayout(inner, offsets[1], outer))

    def bbx_bind(self, name: str) -> Tensor:
        """`name = tensor`: a register tensor's array takes the Python name; a run-time offset
        of the iterator gets a variable (`gA_offset`), computed once."""
        if isinstance(self._iterator, Pointer):
            if isinstance(self._iterator.base, RegisterArray):
                self._iterator.base.rename(name)
            offset = self._iterator.offset
            if isinstance(offset, RunTimeInt):
                cv = offset.value.value
                if isinstance(cv, CxxValue) and not cv.is_leaf:
                    cv.materialize(f"{name}_offset")
        return self


class TensorType:
    """What `tensor.type` is: its text (the DSL's MLIR type), compared by that text."""

    __module__ = "cutlass.cute"

    def __init__(self, tensor: Tensor) -> None:
        iterator = tensor.iterator
        layout = tensor.trace_layout
        if isinstance(iterator, Pointer):
            self.text = f'!cute.memref<{iterator.type_text()}, "{layout}">'
        else:
            self.text = f'!cute.coord_tensor<"{layout}">'

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorType) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def _leading_dim(shape: Any, stride: Any) -> Any:
    if not isinstance(stride, tuple):
        return None
    for i, (s, d) in enumerate(zip(shape, stride, strict=True)):
        if isinstance(d, tuple):
            inner = _leading_dim(s, d)
            if inner is not None:
                return (i, *(inner if isinstance(inner, tuple) else (inner,)))
        elif type(d) is int and d == 1 and not (type(s) is int and s == 1):
            return i
    return None


def _coordinate(crd: Any) -> Any:
    try:
        return int_tuple_in(crd, none_ok=True)
    except TypeError:
        raise trace_error("tensor-coordinate", f"the coordinate {crd!r} of a tensor",
                          "a coordinate is an integer, a tuple of integers, or has `None` "
                          "for the modes a slice keeps") from None


def _check_coordinate(crd: Any, shape: Any, shown: Any) -> None:
    """Rank and (where static) range of each coordinate leaf, as CuTe's asserts."""
    if it.is_tuple(crd):
        if not it.is_tuple(shape) or len(crd) != len(shape):
            raise trace_error("tensor-coordinate-rank",
                              f"the coordinate {shown} has {len(crd)} modes for a tensor of "
                              f"shape {shape}",
                              "give one coordinate per mode, or one integer index")
        for cx, sx in zip(crd, shape, strict=True):
            _check_coordinate(cx, sx, shown)
        return
    bound = it.product(shape)
    if is_static_int(crd) and (crd < 0 or (is_static_int(bound) and crd >= bound)):
        raise trace_error("tensor-coordinate-range",
                          f"the coordinate {shown} is out of range for a tensor of shape "
                          f"{shape}", f"the index {crd} of a mode of size {bound}")


# ---- construction -------------------------------------------------------------------------------


def make_tensor(iterator: Any, layout: Any) -> Tensor:
    """`cute.make_tensor(iterator, layout_or_shape)`."""
    if not isinstance(iterator, (Pointer, CoordIterator)):
        raise trace_error("make-tensor", f"a tensor is made from a {type(iterator).__name__}",
                          "the iterator is a pointer (`t.iterator`, a kernel argument)")
    if isinstance(layout, ComposedLayout):  # `swizzle o offset o layout`, on elements
        if not isinstance(iterator, Pointer):
            raise trace_error("make-tensor", "an identity tensor with a swizzled layout",
                              "a swizzled layout addresses memory: make it on a pointer")
        return Tensor(iterator, layout)
    made = _layout_of(layout, "make_tensor")
    if isinstance(iterator, Pointer) and any(isinstance(s, Basis)
                                             for s in it.flatten_to_tuple(made.stride)):
        raise trace_error("make-tensor", f"a tensor in memory of layout {made}",
                          "coordinate-basis strides belong to identity tensors: make it on "
                          "the identity tensor's iterator")
    return Tensor(iterator, made)


def user_layout(layout: L.Layout) -> L.Layout:
    """A layout of user code as the algebra takes it; its strides may be an identity tensor's
    coordinate basis (`cute.composition(tScS.layout, ...)` of a partitioned identity tensor)."""
    def stride_in(x: Any) -> Any:
        if isinstance(x, (tuple, list)):
            return tuple(stride_in(e) for e in x)
        return x if isinstance(x, Basis) else leaf_in(x)

    return L.Layout(int_tuple_in(layout.shape), stride_in(layout.stride))


def _layout_of(layout_or_shape: Any, what: str) -> L.Layout:
    try:
        if isinstance(layout_or_shape, L.Layout):
            return user_layout(layout_or_shape)
        return L.make_layout(int_tuple_in(layout_or_shape))
    except (TypeError, LayoutAlgebraError) as e:
        raise trace_error("tensor-layout", f"{what}: {layout_or_shape!r} is not a layout or "
                          f"shape", str(e)) from None


def make_rmem_tensor(layout_or_shape: Any, dtype: type[Numeric]) -> Tensor:
    """`cute.make_rmem_tensor(shape_or_layout, dtype)`: a register array of the layout's
    cosize (the layout must be static)."""
    if not (isinstance(dtype, type) and issubclass(dtype, Numeric) and dtype.bbx_row):
        raise trace_error("rmem-dtype", f"a register tensor of {dtype!r}",
                          "the element type is a DSL numeric type such as cutlass.Float32")
    layout = _layout_of(layout_or_shape, "make_rmem_tensor")
    if not L.is_static(layout):
        raise trace_error("rmem-dynamic", f"a register tensor of layout {layout}",
                          "register tensors have static layouts (as in the DSL)")
    size = max(int(L.cosize(layout)), 1)
    array = declare_array(c.Type(dtype.bbx_row.cxx), size)
    return Tensor(Pointer(array, dtype, "rmem"), layout)


def make_fragment_like(src: Any, dtype: type[Numeric] | None = None) -> Tensor:
    """`cute.make_fragment_like(tensor_or_layout, dtype)`: a register tensor of the same shape,
    compact in the order of the source's strides (CuTe's make_fragment_like)."""
    if isinstance(src, Tensor):
        layout = outer_of(src.trace_layout)  # a swizzled tensor's coordinates
        if dtype is None:
            if not isinstance(src.iterator, Pointer):
                raise trace_error("rmem-dtype", "make_fragment_like of an identity tensor",
                                  "give the element type")
            dtype = src.iterator.dtype
    elif isinstance(src, L.Layout):
        layout = layout_in(src)
    else:
        layout = _layout_of(src, "make_fragment_like")
    if dtype is None:
        raise trace_error("rmem-dtype", "make_fragment_like of a layout without a dtype",
                          "give the element type")
    return make_rmem_tensor(_fragment_layout(layout), dtype)


def make_rmem_tensor_like(src: Any, dtype: type[Numeric] | None = None) -> Tensor:
    """`cute.make_rmem_tensor_like(tensor, dtype)`: `make_fragment_like`'s register tensor."""
    return make_fragment_like(src, dtype)


def _fragment_layout(layout: L.Layout) -> L.Layout:
    """CuTe's make_fragment_like(layout): mode 0 compact, the other modes compact after it in
    the order of the source's strides (column-major where the strides are run-time values)."""
    if not it.is_static(layout.shape):
        raise trace_error("rmem-dynamic", f"make_fragment_like of a layout of shape "
                          f"{layout.shape}", "register tensors have static shapes")
    shape, stride = layout.shape, layout.stride
    if not (it.is_tuple(shape) and len(shape) > 1 and it.is_static(stride)):
        return L.make_layout(shape)
    first = L.make_layout(shape[0])
    rest = L.make_ordered_layout(shape[1:], stride[1:])
    scaled = _scale(rest.stride, L.size(first))
    return L.Layout((shape[0], *rest.shape), (first.stride, *scaled))


def _scale(x: Any, n: int) -> Any:
    return tuple(_scale(e, n) for e in x) if it.is_tuple(x) else x * n


def make_identity_tensor(shape: Any) -> Tensor:
    """`cute.make_identity_tensor(shape)`: element `crd` is `crd` (in natural coordinates)."""
    try:
        s = int_tuple_in(shape)
    except TypeError:
        raise trace_error("identity-tensor", f"make_identity_tensor({shape!r})",
                          "the shape is an integer or a tuple of integers") from None
    return Tensor(CoordIterator(s), L.Layout(s, basis_like(s)))
