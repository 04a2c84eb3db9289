"""The layout algebra at trace time, in one namespace: composition, complement and inverses
(`layout_compose`), divides and products (`layout_tiling`), recasting (`layout_recast`).

The algorithms are CuTe's (`include/cute/layout.hpp`), which the DSL's `cute.composition`,
`cute.logical_divide`, ... lower to.
"""

from __future__ import annotations

from .dynamic_int import LayoutAlgebraError, StaticInfoRequired
from .layout_compose import Tiler, complement, composition, left_inverse, right_inverse
from .layout_recast import downcast, recast_layout, upcast
from .layout_tiling import (
    blocked_product,
    ceil_div,
    flat_divide,
    flat_product,
    logical_divide,
    logical_product,
    make_layout_tv,
    raked_product,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    zipped_divide,
    zipped_product,
)

__all__ = [
    "LayoutAlgebraError", "StaticInfoRequired", "Tiler", "blocked_product", "ceil_div",
    "complement", "composition", "downcast", "flat_divide", "flat_product", "left_inverse",
    "logical_divide", "logical_product", "make_layout_tv", "raked_product", "recast_layout",
    "right_inverse", "tile_to_shape", "tiled_divide", "tiled_product", "upcast",
    "zipped_divide", "zipped_product",
]
