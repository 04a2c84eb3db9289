"""The DSL's numeric types on the host, derived from bbx's one-row-per-dtype table
(`bbx.dsl.numeric`): a class per row with the DSL's class attributes (``width``, ``bytes``,
``is_integer``, ``is_float``; ``signed``/``min``/``max`` for integers; ``inf``/``nan`` for
floats; ``zero``), ``str(cutlass.Float16) == "Float16"``, and a constructor that stores a Python
number the way the device type would (floats rounded through the torch dtype of the row,
integers wrapped to their width).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from bbx.dsl import numeric as table


class NumericMeta(type):
    """The metaclass: the DSL prints a numeric type by its name (``Float16``)."""

    def __str__(cls) -> str:
        return cls.__name__


class Numeric(metaclass=NumericMeta):
    """Base of every numeric type. ``Float32(1.5).value == 1.5``."""

    __module__ = "cutlass"
    width: ClassVar[int] = 0
    bytes: ClassVar[int] = 0
    is_integer: ClassVar[bool] = False
    is_float: ClassVar[bool] = False
    bbx_dtype: ClassVar[str | None] = None  # the specialization key's spelling (f32, i8, ...)
    bbx_row: ClassVar[table.NumericType | None] = None

    def __init__(self, value: Any = 0) -> None:
        if isinstance(value, Numeric):
            value = value.value
        self.value: Any = self._cast(value)

    @classmethod
    def _cast(cls, value: Any) -> Any:
        return value

    def __int__(self) -> int:
        return int(self.value)

    def __float__(self) -> float:
        return float(self.value)

    def __bool__(self) -> bool:
        return bool(self.value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Numeric):
            return type(self) is type(other) and self.value == other.value
        return bool(self.value == other)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.value))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.value!r})"

    __str__ = __repr__

    def to(self, other: type[Numeric]) -> Numeric:
        return other(self.value)


class Integer(Numeric):
    is_integer = True
    signed: ClassVar[bool] = True
    min: ClassVar[int] = 0
    max: ClassVar[int] = 0
    zero: ClassVar[int] = 0

    @classmethod
    def _cast(cls, value: Any) -> int:
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"cannot convert {value} to {cls.__name__}")
        bits = int(value) & ((1 << cls.width) - 1)
        if cls.signed and bits >> (cls.width - 1):
            bits -= 1 << cls.width
        return bits

    def __index__(self) -> int:
        return int(self.value)


class Float(Numeric):
    is_float = True
    zero: ClassVar[float] = 0.0
    inf: ClassVar[float] = math.inf
    nan: ClassVar[float] = math.nan

    @classmethod
    def _cast(cls, value: Any) -> float:
        import torch

        assert cls.bbx_row is not None and cls.bbx_row.torch_name is not None
        torch_dtype = getattr(torch, cls.bbx_row.torch_name)
        return float(torch.tensor(float(value), dtype=torch.float64).to(torch_dtype).item())


class Boolean(Integer):
    """The DSL's i1: like NVIDIA's, a 1-bit *signed* integer type (min -1, max 0)."""

    @classmethod
    def _cast(cls, value: Any) -> bool:  # type: ignore[override]
        return bool(value)


def _numeric_class(row: table.NumericType) -> type[Numeric]:
    base: type[Numeric] = Float if row.is_float else Boolean if row.kind == "bool" else Integer
    attributes: dict[str, Any] = {
        "__module__": "cutlass", "__qualname__": row.dsl_name, "width": row.width,
        "bytes": row.size, "bbx_dtype": row.short, "bbx_row": row,
    }
    if row.kind == "bool":
        attributes |= {"signed": True, "min": -1, "max": 0}
    elif row.is_integer:
        signed = row.kind == "int"
        low = -(1 << (row.width - 1)) if signed else 0
        high = (1 << (row.width - 1)) - 1 if signed else (1 << row.width) - 1
        attributes |= {"signed": signed, "min": low, "max": high}
    cls = NumericMeta(row.dsl_name, (base,), attributes)
    assert issubclass(cls, Numeric)
    return cls


NUMERIC_TYPES: tuple[type[Numeric], ...] = tuple(_numeric_class(r) for r in table.NUMERIC_TYPES)
BY_NAME: dict[str, type[Numeric]] = {t.__name__: t for t in NUMERIC_TYPES}
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
