"""The DSL's numeric types on the host are the tracer's (`bbx.trace.scalar`): one class per row of
bbx's dtype table with the DSL's class attributes (``width``, ``bytes``, ``is_integer``,
``is_float``; ``signed``/``min``/``max`` for integers; ``inf``/``nan`` for floats; ``zero``),
``str(cutlass.Float16) == "Float16"``, and a constructor that stores a Python number as the device
type would (floats rounded to the type, integers wrapped to their width). What a library patches
onto them is what traced code uses.
"""

from __future__ import annotations

from bbx.trace.scalar import (  # noqa: F401 - the shim's names for the tracer's classes
    BY_NAME,
    NUMERIC_TYPES,
    Boolean,
    Float,
    Integer,
    Numeric,
    NumericMeta,
)

BY_SHORT: dict[str, type[Numeric]] = {t.bbx_dtype: t for t in NUMERIC_TYPES if t.bbx_dtype}


def dtype(dtype_: str) -> type[Numeric]:
    """``cutlass.dtype("Float16")``: the numeric type of that name, e.g. for
    ``argparse.add_argument("--ab_dtype", type=cutlass.dtype)``. Like the DSL, only type names
    are accepted (not ``"f16"``/``"float16"``) and ``Boolean`` is not a data-type name."""
    found = BY_NAME.get(dtype_) if isinstance(dtype_, str) else None
    if found is None or found.bbx_row is None or found.bbx_row.kind == "bool":
        known = ", ".join(t.__name__ for t in NUMERIC_TYPES if t.bbx_row and
                          t.bbx_row.kind != "bool")
        raise TypeError(f"can't interpret {dtype_} as data type (bbx knows: {known})")
    return found


def by_short(name: str) -> type[Numeric]:
    """The numeric type of a specialization-key dtype name (``f32`` -> ``Float32``)."""
    return BY_SHORT[name]
