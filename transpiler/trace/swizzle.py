"""`Swizzle` and `ComposedLayout` at trace time (CuTe's `swizzle.hpp`, `layout_composed.hpp`).

Swizzle(B, M, S) maps an offset to `offset ^ ((offset & yyy) >> S)` with
`yyy = ((1 << B) - 1) << (M + max(0, S))` (a negative S shifts left). A ComposedLayout is the DSL's
`inner ∘ offset ∘ outer`: `c -> inner(offset + outer(c))`; its domain (shape, size, rank) is the
outer layout's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from . import int_tuple as it
from .dynamic_int import LayoutAlgebraError, add, is_static_int
from .layout import Layout, slice_and_offset
from .layout import cosize as layout_cosize


@runtime_checkable
class DynamicBits(Protocol):
    """A dynamic integer that also takes the bit operations a swizzle applies."""

    def __and__(self, other: Any) -> Any: ...
    def __xor__(self, other: Any) -> Any: ...
    def __rshift__(self, other: Any) -> Any: ...
    def __lshift__(self, other: Any) -> Any: ...


@dataclass(frozen=True)
class Swizzle:
    """The XOR functor Swizzle<B, M, S> (BBits, MBase, SShift)."""

    bits: int
    base: int
    shift: int

    def __post_init__(self) -> None:
        for name in ("bits", "base", "shift"):
            if not is_static_int(getattr(self, name)):
                raise LayoutAlgebraError(f"Swizzle: {name} must be a static integer")
        if self.bits < 0 or self.base < 0:
            raise LayoutAlgebraError("Swizzle: BBits and MBase must be non-negative")
        if abs(self.shift) < self.bits:
            raise LayoutAlgebraError("Swizzle: |SShift| must be at least BBits")

    @property
    def yyy_mask(self) -> int:
        return ((1 << self.bits) - 1) << (self.base + max(0, self.shift))

    @property
    def zzz_mask(self) -> int:
        return ((1 << self.bits) - 1) << (self.base - min(0, self.shift))

    def __call__(self, offset: Any) -> Any:
        if is_static_int(offset):
            moved = offset & self.yyy_mask
            return offset ^ (moved >> self.shift if self.shift >= 0 else moved << -self.shift)
        if not isinstance(offset, DynamicBits):
            raise LayoutAlgebraError(
                "Swizzle: a run-time offset must support &, ^, >> and << to be swizzled")
        moved = offset & self.yyy_mask
        return offset ^ (moved >> self.shift if self.shift >= 0 else moved << -self.shift)

    def size(self) -> int:
        """The extent the swizzle permutes: 2^(M + B + |S|)."""
        return 1 << (self.base + self.bits + abs(self.shift))

    def __str__(self) -> str:
        return f"S<{self.bits},{self.base},{self.shift}>"


def make_swizzle(b: int, m: int, s: int) -> Swizzle:
    return Swizzle(b, m, s)


@dataclass(frozen=True, eq=False)
class ComposedLayout:
    """c -> inner(offset + outer(c)); inner is a Swizzle or a Layout."""

    inner: Swizzle | Layout
    offset: Any
    outer: Layout

    @property
    def shape(self) -> Any:
        return self.outer.shape

    def __call__(self, *coord: Any) -> Any:
        crd = coord[0] if len(coord) == 1 else tuple(coord)
        if it.has_none(crd):
            sliced, off = slice_and_offset(crd, self.outer)
            return ComposedLayout(self.inner, add(self.offset, off), sliced)
        return self.inner(add(self.offset, self.outer(crd)))

    def __getitem__(self, mode: int) -> ComposedLayout:
        return ComposedLayout(self.inner, self.offset, self.outer[mode])

    def __str__(self) -> str:
        return f"{self.inner} o {self.offset} o {self.outer}"

    __repr__ = __str__


def make_composed_layout(inner: Swizzle | Layout, offset: Any, outer: Layout) -> ComposedLayout:
    if not isinstance(inner, (Swizzle, Layout)):
        raise LayoutAlgebraError(f"make_composed_layout: inner must be a swizzle or a layout, "
                                 f"got {type(inner).__name__}")
    if not isinstance(outer, Layout):
        raise LayoutAlgebraError(
            f"make_composed_layout: outer must be a layout, got {type(outer).__name__}")
    return ComposedLayout(inner, offset, outer)


def cosize(layout: Layout | ComposedLayout, mode: Any = ()) -> Any:
    """`cute.cosize`: a layout's (layout.cosize); a composed layout's as the header computes it
    (bbx/layout/composed_layout.hpp): with a swizzle, the outer layout's cosize plus a static
    offset, rounded up to a multiple of the swizzle's size (it permutes bits below it only);
    with a layout inside, the inner layout's."""
    if not isinstance(layout, ComposedLayout):
        return layout_cosize(layout, mode)
    if isinstance(layout.inner, Layout):
        return layout_cosize(layout.inner)
    n = layout_cosize(layout.outer[mode[0]] if mode else layout.outer)
    if is_static_int(layout.offset):
        n = add(n, layout.offset)
    unit = layout.inner.size()
    if not is_static_int(n):
        raise LayoutAlgebraError("cosize of a swizzled layout of run-time extent")
    return (n + unit - 1) // unit * unit


def outer_of(layout: Layout | ComposedLayout) -> Layout:
    """The layout of a tensor's coordinates: a composed layout's outer layout."""
    return layout.outer if isinstance(layout, ComposedLayout) else layout


def with_outer(layout: Layout | ComposedLayout, outer: Layout) -> Layout | ComposedLayout:
    """`layout` with its coordinates' layout replaced by `outer` (a partition or a division of
    a composed layout restructures the outer layout; the swizzle and its offset stay)."""
    if isinstance(layout, ComposedLayout):
        return ComposedLayout(layout.inner, layout.offset, outer)
    return outer
