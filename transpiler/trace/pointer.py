"""Typed pointers at trace time (the DSL's `Pointer`, a tensor's iterator) and the memory
operations on them.

A `Pointer` is the C++ expression of a base address (a pointer parameter, a register array),
its element type (a `Numeric` class), its address space (`gmem`, `smem`, `rmem`) and an element
offset kept in Python (an int, or a `RunTimeInt`): `ptr + n` adds to the offset, so static
offsets fold into the constants of the accesses. A read is the run-time value `base[offset]`; it
is declared where it happens (`float ld = x[4];`, so it reads what is there before later writes),
and takes the name of the Python variable it is bound to (`v = x[4]` gives `float v = x[4];`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from ..cxx import ast as c
from ..cxx.literals import static_int
from . import int_tuple as it
from . import vector
from .context import require
from .dynamic_int import add, is_static_int
from .errors import trace_error
from .placement import takes_placement
from .register_array import RegisterArray
from .run_time_int import RunTimeInt, divisor_of, leaf_in
from .scalar import CxxValue, Int64, Numeric, as_numeric
from .tensor_ssa import TensorSSA

MEMSPACES = ("gmem", "smem", "rmem")


@takes_placement
@dataclass(frozen=True, eq=False)
class Pointer:
    """`base + offset` elements of `dtype` in `memspace`. `assumed_align`: the bytes the base
    address is known to be a multiple of (0: the element's natural alignment); `typed`: the base
    is a bbx pointer (`bbx::mem_ptr`, whose type carries that alignment: a tensor argument's
    `.data()`, a kernel's pointer parameter) rather than a raw C++ pointer or array."""

    base: c.Expr | RegisterArray  # a pointer expression, or a register array
    dtype: type[Numeric]
    memspace: str
    offset: Any = 0  # an int or a RunTimeInt (elements)
    assumed_align: int = 0
    typed: bool = False

    @property
    def value_type(self) -> type[Numeric]:
        return self.dtype

    @property
    def base_alignment(self) -> int:
        """The bytes the base address is a multiple of."""
        return max(self.assumed_align, natural_alignment(self.dtype))

    @property
    def alignment(self) -> int:
        """The bytes `base + offset` is known to be a multiple of (as the header computes it
        for `mem_ptr + offset`: bbx/tensor/pointer.hpp, detail::offset_align)."""
        return offset_alignment(self.base_alignment, divisor_of(self.offset), self.dtype)

    def __add__(self, n: Any) -> Pointer:
        try:
            return replace(self, offset=add(self.offset, leaf_in(n)))
        except TypeError:
            return NotImplemented

    __radd__ = __add__

    def type_text(self) -> str:
        """The pointer's type as the DSL prints it inside `ptr<...>` and `!cute.memref<...>`:
        `f16, gmem, align<8>` (the alignment when it is more than the element's)."""
        align = self.alignment
        shown = f", align<{align}>" if align > natural_alignment(self.dtype) else ""
        row = self.dtype.bbx_row
        return f"{row.mlir if row else self.dtype}, {self.memspace}{shown}"

    def __repr__(self) -> str:
        """As the DSL prints a pointer: `ptr<f16, gmem, align<8>>`."""
        return f"ptr<{self.type_text()}>"

    # -- memory ---------------------------------------------------------------------------------

    def base_expr(self) -> c.Expr:
        return self.base.expr if isinstance(self.base, RegisterArray) else self.base

    def element_expr(self, offset: Any) -> c.Expr:
        """The element at `offset` as C++ (reading it is a memory read): `base(offset)` through
        a bbx pointer to global or shared memory, which hands the simulator's checker the access
        and its generated line (bounds, races, a read before a cp.async has written; on GPUs the
        plain access); shared memory is always reached through one (`make_smem_ptr`);
        `base[offset]` in registers and through a raw pointer."""
        index = index_expr(add(self.offset, offset))
        if self.memspace == "smem" or (self.typed and self.memspace == "gmem"):
            return c.Call(_typed_base(self), (index,))
        return c.Index(self.base_expr(), index)

    def read(self, offset: Any = 0, *, volatile: bool = False) -> Numeric:
        """The element at `offset` (a run-time value of the element type); `volatile`: an
        access the compiler keeps (C++ `volatile_load`, bbx/tensor/pointer.hpp)."""
        expr: c.Expr = self.element_expr(offset)
        if volatile:
            expr = c.Call(c.Id("volatile_load"), (self.element_address(offset),))
        value = self.dtype.run_time(expr).value
        assert isinstance(value, CxxValue)
        value.materialize("ld")
        value.provisional = True
        return self.dtype(value)

    def write(self, offset: Any, value: Any, *, volatile: bool = False) -> None:
        """`base[offset] = value` (converted to the element type as the DSL's store does for
        Python numbers; a DSL number of another type is an error); `volatile`: a store the
        compiler keeps."""
        ctx = require("a memory write")
        stored = store_value(value, self.dtype)
        expr = stored.expr()
        if volatile:
            ctx.emit(c.ExprStmt(c.Call(c.Id("volatile_store"),
                                       (self.element_address(offset), expr))))
            return
        ctx.emit(c.Assign(self.element_expr(offset), "=", expr))

    def element_address(self, offset: Any) -> c.Expr:
        """`base + (offset)` in C++: the address of the element at `offset`."""
        return c.Binary("+", self.base_expr(), index_expr(add(self.offset, offset)))

    # -- the DSL's raw-pointer API (`tensor.iterator.raw_ptr()`) --------------------------------

    def raw_ptr(self) -> Pointer:
        """The pointer itself (bbx pointers are the machine's pointers)."""
        return self

    def address_expr(self) -> c.Expr:
        """`base + offset` in C++ (a bbx pointer when the base is one)."""
        if self.offset == 0:
            return self.base_expr()
        return c.Binary("+", self.base_expr(), index_expr(self.offset))

    def toint(self) -> Numeric:
        """The address as an Int64 (C++: `ptr_toint`, bbx/tensor/recast.hpp)."""
        return Int64.run_time(c.Call(c.Id("ptr_toint"), (self.address_expr(),)))

    def align(self, min_align: Any) -> Pointer:
        """A pointer known to be `min_align`-byte aligned: this one when its alignment already
        says so, else its address rounded up to the next multiple (C++: `align_up`,
        bbx/tensor/pointer.hpp)."""
        value = min_align.value if isinstance(min_align, Numeric) and min_align.is_static \
            else min_align
        if isinstance(value, bool) or not isinstance(value, int) or value < 1 or \
                value & (value - 1):
            raise trace_error("bad-arguments", f"Pointer.align({min_align!r})",
                              "min_align is a static power of two (bytes)")
        if value <= self.alignment:
            return self
        rounded = c.Call(c.Id("align_up"), (self.address_expr(), c.Lit(f"Int<{value}>{{}}")))
        return Pointer(rounded, self.dtype, self.memspace, assumed_align=value, typed=self.typed)

    def __getitem__(self, i: Any) -> Numeric:
        return self.read(_element_index(i))

    def __setitem__(self, i: Any, value: Any) -> None:
        self.write(_element_index(i), value)

    def load(self, alignment: Any = None, *, count: Any = None, is_volatile: Any = False,
             is_invariant: Any = False, is_invariant_group: Any = False, ordering: Any = None,
             syncscope: Any = None) -> Any:
        """The pointee, or with `count=N` the vector of the N elements from here."""
        _plain_access("load", ordering)
        _check_alignment(alignment, self)
        volatile = _flag(is_volatile, "is_volatile")
        if count is None:
            return self.read(volatile=volatile)
        n = _static_count(count)
        return vector.Vector([self.read(i, volatile=volatile) for i in range(n)], self.dtype)

    def store(self, value: Any, *, alignment: Any = None, is_volatile: Any = False,
              is_invariant_group: Any = False, ordering: Any = None, syncscope: Any = None
              ) -> None:
        """`value` (a number, or a Vector / 1-D TensorSSA from here on) written to memory."""
        _plain_access("store", ordering)
        _check_alignment(alignment, self)
        volatile = _flag(is_volatile, "is_volatile")
        if isinstance(value, TensorSSA) and len(it.wrap(value.shape)) != 1:
            raise trace_error("bad-arguments", f"Pointer.store of a TensorSSA of shape "
                              f"{value.shape}", "store a 1-D value (reshape it first)")
        if isinstance(value, (vector.Vector, TensorSSA)):
            for i, e in enumerate(value.elements):
                self.write(i, e, volatile=volatile)
        else:
            self.write(0, value, volatile=volatile)

    def masked_load(self, mask: Any, pass_thru: Any = None, *, alignment: Any = None
                    ) -> vector.Vector:
        """The vector of len(mask) elements from here; a lane whose mask is false is not read
        and takes `pass_thru`'s lane (zero without it)."""
        _check_alignment(alignment, self)
        lanes = _mask_lanes(mask, "masked_load")
        if pass_thru is None:
            others = [self.dtype(0)] * len(lanes)
        else:
            others = _lanes_of(pass_thru, len(lanes), self.dtype, "masked_load", "pass_thru")
        out: list[Numeric] = []
        for i, (keep, other) in enumerate(zip(lanes, others, strict=True)):
            if keep.is_static:
                out.append(self.read(i) if keep.value else other)
                continue
            picked = self.dtype.run_time(c.Ternary(keep.expr(), self.element_expr(i),
                                                   other.expr())).value
            assert isinstance(picked, CxxValue)
            picked.materialize("ld")
            out.append(self.dtype(picked))
        return vector.Vector(out, self.dtype)

    def masked_store(self, value: Any, mask: Any, *, alignment: Any = None) -> None:
        """The lanes of `value` whose mask is true, written from here on."""
        _check_alignment(alignment, self)
        lanes = _mask_lanes(mask, "masked_store")
        elements = _lanes_of(value, len(lanes), self.dtype, "masked_store", "the value")
        ctx = require("a memory write")
        for i, (keep, e) in enumerate(zip(lanes, elements, strict=True)):
            if keep.is_static:
                if keep.value:
                    self.write(i, e)
                continue
            stored = store_value(e, self.dtype).expr()
            ctx.emit(c.If(keep.expr(), (c.Assign(self.element_expr(i), "=", stored),)))


def _element_index(i: Any) -> Any:
    """`p[i]`: a static int or a run-time integer."""
    if isinstance(i, Numeric) and not i.is_static:
        return leaf_in(i)
    value = i.value if isinstance(i, Numeric) else i
    if isinstance(value, bool) or not isinstance(value, int):
        raise trace_error("pointer-index", f"pointer[{i!r}]", "the index is an integer")
    return value


def _plain_access(what: str, ordering: Any) -> None:
    """bbx traces non-atomic pointer accesses: an ordered one is refused rather than silently
    made plain."""
    if ordering is not None and str(getattr(ordering, "name", ordering)).lower() != "not_atomic":
        raise trace_error("not-yet-supported",
                          f"Pointer.{what} with ordering= (an atomic access) is not yet "
                          "supported",
                          "for an ordered access use cute.arch.load/store with sem= and scope=")


def _flag(value: Any, what: str) -> bool:
    """A static boolean option (`is_volatile=True`)."""
    if isinstance(value, Numeric) and value.is_static:
        value = value.value
    if value is None or isinstance(value, bool):
        return bool(value)
    raise trace_error("bad-arguments", f"{what}={value!r}", f"{what} is a Python bool")


def _static_count(count: Any) -> int:
    value = count.value if isinstance(count, Numeric) and count.is_static else count
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise trace_error("bad-arguments", f"Pointer.load(count={count!r})",
                          "count= is a static positive integer (the vector's length)")
    return value


def _check_alignment(alignment: Any, ptr: Pointer) -> None:
    """`alignment=`: a static power of two (a promise about the address, which bbx's
    element-wise accesses do not need)."""
    value = alignment.value if isinstance(alignment, Numeric) and alignment.is_static \
        else alignment
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or value & (value - 1):
        raise trace_error("bad-arguments", f"alignment={alignment!r}",
                          "the alignment is a static power of two (bytes)")


def _mask_lanes(mask: Any, what: str) -> list[Numeric]:
    if not isinstance(mask, vector.Vector) or mask.dtype.__name__ != "Boolean":
        raise trace_error("bad-arguments", f"Pointer.{what}: the mask is not a Boolean vector",
                          "e.g. cutlass.Vector.from_elements((True, False), cutlass.Boolean)")
    return list(mask.elements)


def _lanes_of(value: Any, count: int, dtype: type[Numeric], what: str, role: str
              ) -> list[Numeric]:
    """The elements of a vector operand of a masked access: as in the DSL, a `Vector` (a
    TensorSSA is one there) of the mask's length and of the pointer's element type."""
    if isinstance(value, TensorSSA) and len(it.wrap(value.shape)) == 1:
        elements, of_type = list(value.elements), value.dtype
    elif isinstance(value, vector.Vector) and len(value.shape) == 1:
        elements, of_type = list(value.elements), value.dtype
    else:
        raise trace_error("bad-arguments", f"Pointer.{what}: {role} is not a 1-D vector",
                          f"give a Vector of {count} elements (cutlass.Vector.from_elements, "
                          "cute.full)")
    if len(elements) != count:
        raise trace_error("bad-arguments", f"Pointer.{what}: {role} has {len(elements)} "
                          f"elements, the mask {count}", "they have one length")
    if of_type is not dtype:
        raise trace_error("bad-arguments", f"Pointer.{what}: {role} is of {of_type.__name__}, "
                          f"the pointer of {dtype.__name__}",
                          f"convert it first (.to({dtype.__name__}))")
    return elements


def natural_alignment(dtype: type[Numeric]) -> int:
    """alignof the C++ element type."""
    return max(dtype.width // 8, 1)


def offset_alignment(align: int, divisor: int, dtype: type[Numeric]) -> int:
    """The alignment of `p + k` for `p` aligned to `align` bytes and `k` a multiple of `divisor`
    elements (0: k is 0), never below the element's own."""
    if divisor == 0:
        return align
    return max(math.gcd(align, divisor * natural_alignment(dtype)), natural_alignment(dtype))


def index_expr(offset: Any) -> c.Expr:
    """An element offset in C++: a constant, or the run-time expression."""
    if isinstance(offset, RunTimeInt):
        return offset.cxx_expr()
    return c.Lit(str(int(offset)))


def store_value(value: Any, dtype: type[Numeric]) -> Numeric:
    """`value` as an element of `dtype`, as the DSL's stores convert (`_cvt_to_dest`): a Python
    number is first a DSL number (`int` -> Int32, `float` -> Float32), a number of the same kind
    (float or integer) and at most the width of `dtype` widens implicitly; anything else must
    already be a `dtype`."""
    if isinstance(value, (bool, int, float)):
        value = as_numeric(value)
    if not isinstance(value, Numeric):
        raise trace_error("store-value", f"a {type(value).__name__} is stored into a tensor "
                          f"element", f"an element is a {dtype.__name__}")
    src = type(value)
    if src is not dtype and src.is_float == dtype.is_float and dtype.width >= src.width:
        value = dtype(value)
    if type(value) is not dtype:
        raise trace_error("store-dtype",
                          f"a {src.__name__} value is stored into a tensor of "
                          f"{dtype.__name__}",
                          f"convert it first: `.to({dtype.__name__})` (stores only widen "
                          f"within a kind, as the DSL's)")
    return value


def recast_ptr(ptr: Any, swizzle_: Any = None, dtype: Any = None) -> Pointer:
    """`cute.recast_ptr(ptr, dtype=T)`: the same address as a pointer to `T`, in the same
    memory, with the alignment `ptr` is known to have, as in the DSL (C++: `recast_ptr<T>(p)`
    of the bbx pointer, whose type keeps that alignment, bbx/tensor/recast.hpp)."""
    if not isinstance(ptr, Pointer) or isinstance(ptr.base, RegisterArray):
        raise trace_error("recast-ptr", f"cute.recast_ptr of a {type(ptr).__name__}",
                          "recast a pointer to global or shared memory (a tensor's .iterator)")
    if swizzle_ is not None:
        raise trace_error("recast-ptr", "cute.recast_ptr(..., swizzle_=...)",
                          "swizzled pointers are not traced yet")
    if not (isinstance(dtype, type) and issubclass(dtype, Numeric)) or dtype.bbx_row is None:
        raise trace_error("recast-ptr", f"cute.recast_ptr(..., dtype={dtype!r})",
                          "give the element type (cutlass.Float32, ...)")
    return Pointer(c.Call(c.Id("recast_ptr"), (pointer_view(ptr),), (c.Type(dtype.bbx_row.cxx),)),
                   dtype, ptr.memspace, assumed_align=ptr.alignment, typed=True)


#: the header's maker of a pointer in each address space (bbx/tensor/pointer.hpp)
_MAKERS = {"gmem": "make_gmem_ptr", "smem": "make_smem_ptr", "rmem": "make_rmem_ptr"}


def pointer_view(p: Pointer) -> c.Expr:
    """`base + offset` as a bbx pointer whose type carries the alignment the trace knows."""
    base = _typed_base(p)
    offset = p.offset
    if is_static_int(offset):
        return base if offset == 0 else c.Binary("+", base, static_int(int(offset)))
    assert isinstance(offset, RunTimeInt)
    # `p + k` of a run-time k keeps only the element's alignment; this keeps what k's divisor
    # proves (`template`: the pointer's type is a template parameter of the kernel)
    return c.Call(c.Member(base, "template add_with_divisibility"), (offset.cxx_expr(),),
                  (c.Lit(str(offset.divisor)),))


def _typed_base(p: Pointer) -> c.Expr:
    if p.typed:
        return p.base_expr()
    maker = _MAKERS[p.memspace]
    alignment = () if p.memspace == "rmem" else (c.Lit(str(p.base_alignment)),)
    return c.Call(c.Id(maker), (p.base_expr(),), alignment)
