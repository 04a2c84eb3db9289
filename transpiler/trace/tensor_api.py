"""The tensor part of the DSL's `cute` namespace at trace time, in one place: what the shim
serves as `cute.make_tensor`, `cute.local_tile`, `cute.TensorSSA`, ... (and what the tests
import as `cute`)."""

from __future__ import annotations

from .layout import make_layout
from .layout_tiling import make_layout_tv
from .tensor import (
    Tensor,
    make_fragment_like,
    make_identity_tensor,
    make_rmem_tensor,
    make_rmem_tensor_like,
    make_tensor,
)
from .tensor_algebra import (
    ceil_div,
    composition,
    domain_offset,
    elem_less,
    flat_divide,
    flatten,
    group_modes,
    local_partition,
    local_tile,
    logical_divide,
    product_each,
    rank,
    repeat_like,
    select,
    size,
    tiled_divide,
    zipped_divide,
)
from .tensor_math import (
    exp,
    exp2,
    full,
    full_like,
    log,
    log2,
    ones_like,
    sqrt,
    where,
    zeros_like,
)
from .tensor_reduce import ReductionOp
from .tensor_ssa import TensorSSA

__all__ = [
    "ReductionOp", "Tensor", "TensorSSA", "ceil_div", "composition", "domain_offset", "elem_less",
    "exp", "exp2", "flat_divide", "flatten", "full", "full_like", "group_modes", "local_partition",
    "local_tile", "log", "log2", "logical_divide", "make_fragment_like", "make_identity_tensor",
    "make_layout", "make_layout_tv", "make_rmem_tensor", "make_rmem_tensor_like", "make_tensor",
    "ones_like", "product_each", "rank", "repeat_like", "select", "size", "sqrt", "tiled_divide",
    "where", "zeros_like", "zipped_divide",
]
