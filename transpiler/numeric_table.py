"""The DSL's numeric types: one row per dtype.

Every other view of a dtype is derived from this table: the translator's C++ spelling
(`cutlass.Float16` -> `half_t`), the specialization key's short name (`f16`), the torch dtype
that a tensor argument of that type has, the host classes of the `cutlass` shim and the tracer's
numeric types (`bbx.trace.scalar`). Adding a dtype is one row here (and its C++ type in
`bbx/numeric/`). A top-level module, so that every phase can read it (`bbx.dsl.numeric`
re-exports it for the translator).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NumericType:
    dsl_name: str  # `cutlass.<dsl_name>`: Float32, BFloat16, Int8, Boolean, ...
    short: str  # the specialization key's spelling: f32, bf16, i8, bool
    cxx: str  # C++ type in generated code
    width: int  # bits (the DSL's `.width`; Boolean is 1)
    kind: str  # "float", "int", "uint" or "bool"
    torch_name: str | None  # attribute of the `torch` module holding the same element type

    @property
    def size(self) -> int:
        """Bytes per element in memory (a Boolean takes one byte)."""
        return max(1, self.width // 8)

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def mlir(self) -> str:
        """The element type as the DSL prints it (MLIR's: signless `i8` for Int8 and Uint8,
        `i1` for Boolean)."""
        return f"i{self.width}" if self.is_integer else self.short

    @property
    def is_integer(self) -> bool:
        return self.kind in ("int", "uint", "bool")

    @property
    def signed(self) -> bool:
        return self.kind in ("float", "int")


NUMERIC_TYPES: tuple[NumericType, ...] = (
    NumericType("Boolean", "bool", "bool", 1, "bool", "bool"),
    NumericType("Int8", "i8", "int8_t", 8, "int", "int8"),
    NumericType("Int16", "i16", "int16_t", 16, "int", "int16"),
    NumericType("Int32", "i32", "int32_t", 32, "int", "int32"),
    NumericType("Int64", "i64", "int64_t", 64, "int", "int64"),
    NumericType("Uint8", "u8", "uint8_t", 8, "uint", "uint8"),
    NumericType("Uint16", "u16", "uint16_t", 16, "uint", "uint16"),
    NumericType("Uint32", "u32", "uint32_t", 32, "uint", "uint32"),
    NumericType("Uint64", "u64", "uint64_t", 64, "uint", "uint64"),
    NumericType("Float16", "f16", "half_t", 16, "float", "float16"),
    NumericType("BFloat16", "bf16", "bfloat16_t", 16, "float", "bfloat16"),
    NumericType("Float32", "f32", "float", 32, "float", "float32"),
    NumericType("Float64", "f64", "double", 64, "float", "float64"),
)

BY_DSL_NAME: dict[str, NumericType] = {t.dsl_name: t for t in NUMERIC_TYPES}
BY_SHORT: dict[str, NumericType] = {t.short: t for t in NUMERIC_TYPES}
BY_CXX: dict[str, NumericType] = {t.cxx: t for t in NUMERIC_TYPES}

#: The modules that export the numeric types (`cutlass.Float32` is `cutlass.cute.Float32`).
EXPORTING_MODULES = ("cutlass", "cutlass.cute")

