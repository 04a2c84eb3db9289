"""`cute.recast_tensor(t, dtype)` at trace time: the same memory seen as elements of another
type, as the DSL makes it — the iterator recast (`cute.recast_ptr`, the pointer's alignment kept)
and the layout through `recast_layout(dtype bits, element bits, layout)`:

    words = cute.recast_tensor(mH, cutlass.Int32)   # (8, 16) f16 -> (8, 8) i32, same bytes
"""

from __future__ import annotations

from typing import Any

from .dynamic_int import LayoutAlgebraError
from .errors import trace_error
from .layout import Layout
from .layout_recast import recast_layout
from .pointer import Pointer, recast_ptr
from .register_array import RegisterArray
from .scalar import Boolean, Numeric
from .tensor import Tensor


def recast_tensor(src: Any, dtype: Any, swizzle_: Any = None, *, loc: Any = None,
                  ip: Any = None) -> Tensor:
    """`cute.recast_tensor(src, dtype, swizzle_=None)` of a tensor in global or shared memory
    (`swizzle_` is reserved by the DSL and unused there too)."""
    del swizzle_, loc, ip
    what = "cute.recast_tensor"
    if not isinstance(src, Tensor) or not isinstance(src.iterator, Pointer):
        raise trace_error("recast-tensor", f"{what} of a {type(src).__name__}",
                          "recast a tensor in memory (a kernel argument, a shared-memory tensor)")
    if isinstance(src.iterator.base, RegisterArray):
        raise trace_error("not-traced", f"{what} of a register tensor",
                          "staged execution recasts tensors in global or shared memory so far")
    if not (isinstance(dtype, type) and issubclass(dtype, Numeric)) or dtype.bbx_row is None:
        raise trace_error("recast-tensor", f"{what}(..., dtype={dtype!r})",
                          "dtype must be a type of Numeric (cutlass.Int32, ...)")
    if Boolean in (dtype, src.element_type):
        raise trace_error("recast-tensor", f"{what} from {src.element_type.__name__} to "
                          f"{dtype.__name__}",
                          "Boolean storage is packed: no other view of it; use Uint8")
    layout = src.trace_layout
    if not isinstance(layout, Layout):
        raise trace_error("not-traced", f"{what} of a swizzled tensor",
                          "recast the tensor before swizzling its layout")
    try:
        recast = recast_layout(dtype.width, src.element_type.width, layout)
    except LayoutAlgebraError as e:
        raise trace_error("recast-tensor", f"{what} of layout {src.layout} from "
                          f"{src.element_type.__name__} to {dtype.__name__}", str(e)) from None
    return Tensor(recast_ptr(src.iterator, dtype=dtype), recast)
