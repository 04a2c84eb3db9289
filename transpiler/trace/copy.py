"""Copy atoms and tiled copies at trace time: `cute.make_copy_atom`, `cute.make_tiled_copy_tv`,
`tiled_copy.get_slice(tidx).partition_S/D(t)`, and `cute.copy(atom, src, dst, pred=...)`.

The partitions are CuTe's (`include/cute/atom/copy_atom.hpp`, TiledCopy::tidfrg_S and
ThrCopy::partition_S), computed by the Python layout algebra so that their shapes are static
facts of the trace:

    zipped_divide(t, tiler)                 ((TileM,TileN), (RestM,RestN))
    tile mode o thrval2mn                   ((thr, (atom_val, rest_val)), (RestM,RestN))
    slice thr = tidx                        ((atom_val, rest_val), RestM, RestN)

where thrval2mn is the tiled copy's (thread, value) -> tile layout regrouped by atom
(CuTe's coalesce(zip(zipped_divide(layout_tv, (atom_thr, atom_val)))). A copy moves mode 0
of each partition per step, as CuTe's copy does, under the step's predicate.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ..cxx import ast as c
from ..cxx.literals import static_int
from . import int_tuple as it
from . import layout as L
from .context import require
from .errors import trace_error
from .layout_algebra import composition, make_layout_tv, zipped_divide
from .placement import takes_placement
from .pointer import Pointer
from .run_time_int import leaf_in
from .scalar import Numeric, as_numeric
from .swizzle import outer_of, with_outer
from .tensor import Tensor, algebra_errors
from .tensor_algebra import zipped_divide as tensor_zipped_divide
from .tensor_view import has_view, tensor_view


class CopyUniversalOp:
    """`cute.nvgpu.CopyUniversalOp()`: a copy by ordinary loads and stores."""

    __module__ = "cutlass.cute.nvgpu"

    def __init__(self, *args: object, **kwargs: object) -> None:
        del args, kwargs  # the DSL's optional MLIR arguments

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CopyUniversalOp)

    def __hash__(self) -> int:
        return hash(CopyUniversalOp)

    def __repr__(self) -> str:
        return "CopyUniversalOp()"


class CopyG2SOp:
    """`cute.nvgpu.cpasync.CopyG2SOp(cache_mode=...)`: an asynchronous global -> shared copy
    (cp.async), complete after `cute.arch.cp_async_wait_group`. Traced copies with it are the
    header's cpasync copy (bbx/atom/copy_async.hpp): asynchronous where the target can, and
    zero-filling the steps whose predicate is false."""

    __module__ = "cutlass.cute.nvgpu.cpasync"

    def __init__(self, cache_mode: object = None, *args: object, **kwargs: object) -> None:
        del args, kwargs  # the DSL's optional MLIR arguments
        self.cache_mode = cache_mode

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CopyG2SOp) and other.cache_mode == self.cache_mode

    def __hash__(self) -> int:
        return hash((CopyG2SOp, repr(self.cache_mode)))

    def __repr__(self) -> str:
        return "CopyG2SOp()" if self.cache_mode is None else f"CopyG2SOp({self.cache_mode})"


class LdMatrix8x8x16bOp:
    """`cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose, num_matrices)`: shared memory into an MMA
    fragment — ldmatrix on NVIDIA GPUs through a tiled copy of a tiled MMA (copy_mma), each thread
    reading its own values elsewhere."""

    __module__ = "cutlass.cute.nvgpu.warp"

    def __init__(self, transpose: bool = False, num_matrices: int = 1, *args: object,
                 **kwargs: object) -> None:
        del args, kwargs
        if num_matrices not in (1, 2, 4):
            raise trace_error("ldmatrix", f"warp.LdMatrix8x8x16bOp(num_matrices={num_matrices})",
                              "num_matrices must be 1, 2 or 4")
        self.transpose = bool(transpose)
        self.num_matrices = num_matrices

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, LdMatrix8x8x16bOp) and other.transpose == self.transpose
                and other.num_matrices == self.num_matrices)

    def __hash__(self) -> int:
        return hash((LdMatrix8x8x16bOp, self.transpose, self.num_matrices))

    def __repr__(self) -> str:
        return f"LdMatrix8x8x16bOp({self.transpose}, {self.num_matrices})"


COPY_OPS = (CopyUniversalOp, CopyG2SOp, LdMatrix8x8x16bOp)

#: The members of the DSL's cute.nvgpu.LoadCacheMode (C++: bbx::LoadCacheMode).
LOAD_CACHE_MODES = ("ALWAYS", "GLOBAL", "STREAMING", "LAST_USE", "NONE")


class LoadCacheMode(enum.Enum):
    """`cute.nvgpu.LoadCacheMode`: where a cpasync.CopyG2SOp copy caches what it loads
    (GLOBAL: in L2 only, cp.async.cg; the header's bbx::LoadCacheMode, atom/copy_async.hpp)."""

    __module__ = "cutlass.cute.nvgpu"

    ALWAYS = "ALWAYS"
    GLOBAL = "GLOBAL"
    STREAMING = "STREAMING"
    LAST_USE = "LAST_USE"
    NONE = "NONE"


@dataclass(frozen=True)
class CopyAtom:
    """One thread copying `values` elements of `value_type` per step."""

    op: Any
    value_type: type[Numeric]
    values: int

    @property
    def num_bits_per_copy(self) -> int:
        return self.values * self.value_type.width


def make_copy_atom(op: Any, copy_internal_type: Any, *, num_bits_per_copy: Any = None,
                   **_dsl_options: Any) -> CopyAtom:
    """`cute.make_copy_atom(op, dtype, num_bits_per_copy=bits)`."""
    if not isinstance(op, COPY_OPS):
        raise trace_error("copy-op", f"a copy atom of {op!r}",
                          "staged execution traces cute.nvgpu.CopyUniversalOp, "
                          "cpasync.CopyG2SOp and warp.LdMatrix8x8x16bOp copies so far")
    if not (isinstance(copy_internal_type, type) and issubclass(copy_internal_type, Numeric)):
        raise trace_error("copy-dtype", f"a copy atom of {copy_internal_type!r}",
                          "give the element type (cutlass.Float32, a tensor's .element_type)")
    bits = copy_internal_type.width if num_bits_per_copy is None else int(num_bits_per_copy)
    if bits % copy_internal_type.width:
        raise trace_error("copy-bits", f"num_bits_per_copy={bits} for {copy_internal_type}",
                          f"a multiple of the element width ({copy_internal_type.width})")
    return CopyAtom(op, copy_internal_type, bits // copy_internal_type.width)


@takes_placement
@dataclass(frozen=True)
class TiledCopy:
    """`atom` repeated over threads: `layout_tv` maps (thread, value) to an index of the tile
    `tiler_mn`."""

    atom: CopyAtom
    layout_tv: L.Layout
    tiler_mn: Any

    @property
    def size(self) -> Any:
        """The number of threads."""
        return L.size(self.layout_tv[0])

    bbx_thread_count = size  # `cute.size(tiled_copy)`

    @property
    def layout_tv_tiled(self) -> L.Layout:
        return self.layout_tv

    def thrval2mn(self) -> L.Layout:
        """((thread, (atom value, rest value)) -> tile index: the (thread, value) layout
        regrouped by atom (CuTe's tile2thrfrg for a universal copy, whose source and reference
        layouts agree)."""
        atom = zipped_divide(self.layout_tv, (1, self.atom.values))
        zipped = L.zip_layouts(atom[0], atom[1])  # ((atom_thr, rest_thr), (atom_val, rest_val))
        return L.coalesce(zipped, (1, (1, 1)))

    def get_slice(self, thr_idx: Any) -> ThrCopy:
        return ThrCopy(self, thr_idx)

    def src_thrval2mn(self, t: Tensor) -> L.Layout:
        """The (thread, value) -> tile layout of partition_S of `t`: thrval2mn, unless the atom
        reads its source in another distribution (copy_mma.TiledCopyMma: ldmatrix rows)."""
        del t
        return self.thrval2mn()

    def partition(self, t: Tensor, thrval2mn: L.Layout | None = None) -> Tensor:
        """((thread, (atom_val, rest_val)), RestM, RestN, ...) of `t` (by `thrval2mn`, this
        copy's unless given)."""
        if not isinstance(t, Tensor):
            raise trace_error("copy-partition", f"a partition of a {type(t).__name__}",
                              "partition a tensor")
        with algebra_errors("partitioning by a tiled copy"):
            tiled = tensor_zipped_divide(t, self.tiler_mn)
            layout = outer_of(tiled.trace_layout)  # a swizzle stays outside (with_outer)
            tv = composition(layout[0], thrval2mn or self.thrval2mn())
            rest = layout[1]
            modes = it.wrap(rest.shape)
            strides = it.wrap(rest.stride)
            return Tensor(tiled.iterator, with_outer(tiled.trace_layout, L.Layout(
                (tv.shape, *modes), (tv.stride, *strides))))


def make_tiled_copy_tv(atom: CopyAtom, thr_layout: Any, val_layout: Any) -> TiledCopy:
    """`cute.make_tiled_copy_tv(atom, thr_layout, val_layout)`."""
    with algebra_errors("cute.make_tiled_copy_tv"):
        tiler, layout_tv = make_layout_tv(thr_layout, val_layout)
    _check_atom(atom, layout_tv)
    return TiledCopy(atom, layout_tv, tiler)


def make_tiled_copy(atom: CopyAtom, layout_tv: Any, tiler_mn: Any) -> TiledCopy:
    """`cute.make_tiled_copy(atom, layout_tv, tiler_mn)`."""
    _check_atom(atom, layout_tv)
    return TiledCopy(atom, layout_tv, tiler_mn)


def _check_atom(atom: CopyAtom, layout_tv: L.Layout) -> None:
    values = L.size(layout_tv[1])
    if values % atom.values:
        raise trace_error("copy-atom-values",
                          f"a tiled copy of {values} values per thread with an atom of "
                          f"{atom.values}", "each thread's values are whole atoms")


@takes_placement
@dataclass(frozen=True)
class ThrCopy:
    """One thread's view of a tiled copy (`tiled_copy.get_slice(tidx)`)."""

    tiled_copy: TiledCopy
    thr_idx: Any

    def partition_S(self, t: Tensor) -> Tensor:  # noqa: N802 - the DSL's name
        tiled = self.tiled_copy
        if not isinstance(t, Tensor):
            return self._slice(tiled.partition(t))
        return self._slice(tiled.partition(t, tiled.src_thrval2mn(t)))

    def partition_D(self, t: Tensor) -> Tensor:  # noqa: N802 - the DSL's name
        return self._slice(self.tiled_copy.partition(t))

    def retile(self, t: Tensor) -> Tensor:
        """A register tensor seen in this copy's partition shape (a tiled copy made from a
        tiled MMA: its fragments, bbx.trace.copy_mma)."""
        retile = getattr(self.tiled_copy, "retile", None)
        if retile is None:
            raise trace_error("retile", "retile with a tiled copy not made from a tiled MMA",
                              "staged execution retiles MMA fragments (make_tiled_copy_A/B/C)")
        result: Tensor = retile(t)
        return result

    retile_S = retile_D = retile  # noqa: N815 - the DSL's names

    def _slice(self, part: Tensor) -> Tensor:
        rank = len(it.wrap(part.trace_layout.shape))
        coord = ((leaf_in(self.thr_idx), None),) + (None,) * (rank - 1)
        return part[coord]


def copy(atom: Any, src: Tensor, dst: Tensor, *, pred: Tensor | None = None,
         **_dsl_options: Any) -> None:
    """`cute.copy(atom, src, dst, pred=None)`: each element of `src` into the element of `dst` of
    the same (flat) index. A predicate has one entry per atom copy (the DSL's rule, `_pred_group`:
    mode 0 of src is (AtomV, ...), the predicate drops AtomV); an element whose predicate is
    false is neither read nor written — except with a cpasync.CopyG2SOp atom, whose false steps
    read nothing and write zeros (cp.async with a source size of 0, as NVIDIA's DSL lowers it:
    the header's cpasync copy does it, bbx/atom/copy_async.hpp)."""
    if not isinstance(atom, (CopyAtom, TiledCopy)):
        raise trace_error("copy-atom", f"cute.copy with a {type(atom).__name__}",
                          "give a copy atom or a tiled copy")
    for what, t in (("source", src), ("destination", dst)):
        if not isinstance(t, Tensor) or not isinstance(t.iterator, Pointer):
            raise trace_error("copy-tensor", f"cute.copy: the {what} is not a tensor in memory")
    src_layout, dst_layout = src.trace_layout, dst.trace_layout
    if not (it.is_static(src_layout.shape) and it.is_static(dst_layout.shape)):
        raise trace_error("copy-shape", "cute.copy of partitions of run-time shape",
                          "partition tiles of static shape")
    n = L.size(src_layout)
    if L.size(dst_layout) != n:
        raise trace_error("copy-shape", f"cute.copy from shape {src_layout.shape} to "
                          f"{dst_layout.shape}", "the sizes must be the same")
    copy_atom = atom.atom if isinstance(atom, TiledCopy) else atom
    group = 1 if pred is None else _pred_group(pred, src_layout)
    if isinstance(copy_atom.op, CopyG2SOp):
        _check_g2s(copy_atom, src, dst, pred)
    if _ldmatrix_mma_copies(atom, src, dst, pred) or _header_copies(copy_atom, src, dst, pred):
        return
    if pred is None:
        for e in range(n):
            dst[e] = src[e]
        return
    ctx = require("cute.copy")
    for first in range(0, n, group):
        condition = as_numeric(pred[first // group]).expr()
        block = ctx.child("if", None)
        block.last_line = ctx.block.last_line  # the `if` has the copy's line above it
        with ctx.enter(block):
            for e in range(first, first + group):
                dst[e] = src[e]
        ctx.emit(c.If(condition, tuple(block.stmts)))


def _pred_group(pred: Tensor, src_layout: L.Layout) -> int:
    """How many elements one predicate entry covers, by the DSL's rule: a predicate has one
    entry per atom copy — src's mode 0 is (AtomV, ...) and the predicate drops AtomV
    (size(pred mode 0) * AtomV == size(src mode 0), size(pred) * AtomV == size(src); a flat
    mode 0 has AtomV 1: one entry per element). NVIDIA's compiler refuses other shapes ("'cute.copy'
    op expects pred to have compatible shape"), as bbx/algorithm/copy.hpp does for translated
    code."""
    shape0 = it.wrap(src_layout.shape)[0]
    atom_v = it.product(shape0[0]) if it.is_tuple(shape0) else 1
    pred_layout = pred.trace_layout
    if not (it.is_static(pred_layout.shape) and isinstance(atom_v, int)):
        return atom_v if isinstance(atom_v, int) else 1  # checked where sizes are static
    n, n0 = L.size(src_layout), it.product(shape0)
    if (it.product(it.wrap(pred_layout.shape)[0]) * atom_v == n0
            and L.size(pred_layout) * atom_v == n):
        return atom_v
    raise trace_error("copy-pred", f"cute.copy(atom, src, dst, pred=...): a predicate of shape "
                      f"{pred_layout.shape} for a copy of shape {src_layout.shape}",
                      f"the CuTe DSL's rule: src mode 0 is (AtomV, ...) and pred drops AtomV "
                      f"(AtomV = {atom_v} here): one entry per atom copy, size {n // atom_v} "
                      f"with {n0 // atom_v} in mode 0")


def _check_g2s(atom: CopyAtom, src: Tensor, dst: Tensor, pred: Tensor | None) -> None:
    """A cpasync.CopyG2SOp copy is the header's (asynchronous, zero-filling under a predicate):
    global to shared memory, tensors and atom of one element type."""
    assert isinstance(src.iterator, Pointer) and isinstance(dst.iterator, Pointer)
    spaces = (src.iterator.memspace, dst.iterator.memspace)
    if spaces != ("gmem", "smem"):
        raise trace_error("copy-g2s-space", f"a cpasync.CopyG2SOp copy from {spaces[0]} to "
                          f"{spaces[1]}", "cp.async copies global memory to shared memory")
    if not _same_element_type(src, dst) or atom.value_type.width != src.element_type.width:
        raise trace_error("copy-g2s-type", f"a cpasync.CopyG2SOp copy of {atom.value_type} "
                          f"from {src.element_type} to {dst.element_type}",
                          "the source, the destination and the atom have one element type")
    if pred is not None and not has_view(pred):
        raise trace_error("copy-g2s-pred", "a cpasync.CopyG2SOp copy under a predicate that is "
                          "not a tensor in memory", "give a Boolean tensor (make_rmem_tensor)")


def autovec_copy(src: Tensor, dst: Tensor) -> None:
    """`cute.autovec_copy(src, dst)`: each element of `src` into the element of `dst` at the
    same coordinate, as wide as the layouts and alignments allow (the header's autovec_copy:
    the widest width, up to 128 bits, that every chunk is statically contiguous and aligned
    for)."""
    if (_same_element_type(src, dst) and it.is_static(src.trace_layout.shape)
            and it.is_static(dst.trace_layout.shape)
            and L.size(src.trace_layout) == L.size(dst.trace_layout)):
        _emit_call("autovec_copy", (tensor_view(src), tensor_view(dst)))
        return
    dst.store(src.load())  # element by element, with the DSL's conversions and errors


def basic_copy(src: Tensor, dst: Tensor, **_location: Any) -> None:
    """`cute.basic_copy(src, dst)`: each element of `src` into the element of `dst` at the
    same coordinate, one at a time (no vectorization), with the DSL's conversions."""
    if L.size(src.trace_layout) != L.size(dst.trace_layout):
        raise trace_error("copy-size", f"basic_copy of {L.size(src.trace_layout)} elements "
                          f"into {L.size(dst.trace_layout)}", "the tensors have one size")
    dst.store(src.load())


def _same_element_type(src: Tensor, dst: Tensor) -> bool:
    """Both tensors have views (tensor_view.has_view) of one element type."""
    return (has_view(src) and has_view(dst) and isinstance(src.iterator, Pointer)
            and isinstance(dst.iterator, Pointer) and src.iterator.dtype is dst.iterator.dtype)


def _header_copies(atom: CopyAtom, src: Tensor, dst: Tensor, pred: Tensor | None) -> bool:
    """`cute.copy` as the header's `copy(atom, src, dst)` / `copy_if(atom, pred, src, dst)` on
    views of the tensors, which moves every chunk it proves contiguous and aligned as one wide
    access (bbx/algorithm/copy.hpp), where the tensors and the atom agree on one element type;
    False (nothing emitted) otherwise. The predicate's shape was checked by the caller (one
    entry per atom copy); copy_if reads entry i / (size(src) / size(pred)) for element i."""
    if not _same_element_type(src, dst) or atom.value_type.width != src.element_type.width:
        return False
    if pred is not None and not has_view(pred):
        return False
    row = atom.value_type.bbx_row
    assert row is not None
    cxx_atom = c.Call(c.Id("make_copy_atom"), (
        _cxx_op(atom.op),
        c.Construct(c.Type("type_c", (c.Type(row.cxx),))),
        static_int(atom.num_bits_per_copy)))
    if pred is None:
        _emit_call("copy", (cxx_atom, tensor_view(src), tensor_view(dst)))
    else:
        _emit_call("copy_if", (cxx_atom, tensor_view(pred), tensor_view(src), tensor_view(dst)))
    return True


def _ldmatrix_mma_copies(atom: Any, src: Tensor, dst: Tensor, pred: Tensor | None) -> bool:
    """`cute.copy(tiled_copy, src, dst)` of an ldmatrix copy made from a tiled MMA
    (copy_mma.TiledCopyMma) as the header's `copy(ldmatrix_mma_copy(atom, C<rows>{}), src,
    dst)`: ldmatrix on targets that have it (bbx/atom/copy_ldmatrix.hpp), from the partition
    made here — in the rows distribution where `reads_rows` (ldmatrix.x4, each lane giving the
    address of a row it reads), the fragment's otherwise (the lanes exchange row addresses);
    elsewhere each thread reads its own values. False (nothing emitted) for other copies."""
    reads_rows = getattr(atom, "reads_rows", None)
    if reads_rows is None or not isinstance(atom.atom.op, LdMatrix8x8x16bOp):
        return False
    rows = bool(reads_rows(src))
    usable = (pred is None and _same_element_type(src, dst) and src.element_type.width == 16
              and isinstance(dst.iterator, Pointer) and dst.iterator.memspace == "rmem")
    if not usable:
        if rows:
            raise trace_error("ldmatrix-copy", "an ldmatrix copy from shared memory into "
                              "something other than a 16-bit register fragment, or under a "
                              "predicate", "copy into the fragment retiled by the same copy "
                              "(thr_copy.retile(frag)), without pred")
        return False
    op = atom.atom.op
    row = src.element_type.bbx_row
    assert row is not None
    cxx_op = c.Call(c.Id("LdMatrix8x8x16bOp"), (
        c.Construct(c.Type("C", (c.Lit("true" if op.transpose else "false"),))),
        static_int(op.num_matrices)))
    cxx_atom = c.Call(c.Id("make_copy_atom"), (cxx_op, c.Construct(c.Type("type_c", (
        c.Type(row.cxx),)))))
    cxx_copy = c.Call(c.Id("ldmatrix_mma_copy"), (cxx_atom, c.Construct(c.Type("C", (
        c.Lit("true" if rows else "false"),)))))
    _emit_call("copy", (cxx_copy, tensor_view(src), tensor_view(dst)))
    return True


def _cxx_op(op: Any) -> c.Expr:
    """The C++ copy op: `CopyG2SOp{}` / `CopyG2SOp(C<LoadCacheMode::M>{})` for cpasync atoms (the
    header's asynchronous copy), `CopyUniversalOp{}` otherwise."""
    if not isinstance(op, CopyG2SOp):
        return c.Construct(c.Type("CopyUniversalOp"))
    mode = getattr(op.cache_mode, "name", None)
    if mode not in LOAD_CACHE_MODES:
        return c.Construct(c.Type("CopyG2SOp"))
    return c.Call(c.Id("CopyG2SOp"), (c.Construct(c.Type("C", (c.Id(f"LoadCacheMode::{mode}"),))),))


def _emit_call(name: str, args: tuple[c.Expr, ...]) -> None:
    require(f"cute.{name}").emit(c.ExprStmt(c.Call(c.Id(name), args), one_arg_per_line=True))
