"""The DSL's numeric types on the host: classes with the DSL's class attributes whose
constructor casts a Python number the way the device type would store it."""

from __future__ import annotations

import math
import struct
from typing import Any, ClassVar


class Numeric:
    """Base of every numeric type. ``Float32(1.5).value == 1.5``."""

    width: ClassVar[int] = 0
    is_integer: ClassVar[bool] = False
    is_float: ClassVar[bool] = False
    signed: ClassVar[bool] = True
    bbx_dtype: ClassVar[str | None] = None

    def __init__(self, value: Any = 0) -> None:
        if isinstance(value, Numeric):
            value = value.value
        self.value = self._cast(value)

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
    __module__ = "cutlass"
    is_integer = True

    @classmethod
    def _cast(cls, value: Any) -> int:
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"cannot convert {value} to {cls.__name__}")
        bits = int(value) & ((1 << cls.width) - 1)
        if cls.signed and bits >> (cls.width - 1):
            bits -= 1 << cls.width
        return bits

    def __index__(self) -> int:
        return self.value


class Float(Numeric):
    __module__ = "cutlass"
    is_float = True
    _pack: ClassVar[str] = "d"

    @classmethod
    def _cast(cls, value: Any) -> float:
        value = float(value)
        try:
            return struct.unpack(cls._pack, struct.pack(cls._pack, value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)


class Boolean(Integer):
    __module__ = "cutlass"
    width = 1
    signed = False
    bbx_dtype = "bool"

    @classmethod
    def _cast(cls, value: Any) -> bool:  # type: ignore[override]
        return bool(value)


def _int(name: str, width: int, signed: bool, dtype: str) -> type[Integer]:
    return type(name, (Integer,), {"width": width, "signed": signed, "bbx_dtype": dtype,
                                   "__module__": "cutlass"})


Int8 = _int("Int8", 8, True, "i8")
Int16 = _int("Int16", 16, True, "i16")
Int32 = _int("Int32", 32, True, "i32")
Int64 = _int("Int64", 64, True, "i64")
Uint8 = _int("Uint8", 8, False, "u8")
Uint16 = _int("Uint16", 16, False, "u16")
Uint32 = _int("Uint32", 32, False, "u32")
Uint64 = _int("Uint64", 64, False, "u64")


class Float64(Float):
    __module__ = "cutlass"
    width = 64
    bbx_dtype = "f64"


class Float32(Float):
    __module__ = "cutlass"
    width = 32
    bbx_dtype = "f32"
    _pack = "f"


class Float16(Float):
    __module__ = "cutlass"
    width = 16
    bbx_dtype = "f16"
    _pack = "e"


class BFloat16(Float):
    __module__ = "cutlass"
    width = 16
    bbx_dtype = "bf16"

    @classmethod
    def _cast(cls, value: Any) -> float:
        f32 = Float32._cast(value)
        if math.isnan(f32):
            return f32
        bits = struct.unpack("<I", struct.pack("<f", f32))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # round to nearest even
        return struct.unpack("<f", struct.pack("<I", bits))[0]


NUMERIC_TYPES: tuple[type[Numeric], ...] = (
    Boolean, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
    Float16, BFloat16, Float32, Float64,
)
