"""`cutlass.base_dsl.typing.Vector` at trace time: a few scalars as one value whose bits can be
read as another element type (`Vector.from_elements((a, b), Float32).bitcast(Int64)` packs two
float32 into one int64, as QuACK's online-softmax reduction does).

A vector is a C++ register array (`float vec[2] = {a, b};`); `bitcast` declares the array of the
new element type and copies the bits (`bbx::bit_cast_array`, numeric/bit_cast_array.hpp)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cxx import ast as c
from .context import require
from .errors import trace_error
from .register_array import declare_array
from .scalar import Numeric, as_numeric


class Vector:
    """Scalars of one numeric type, as the DSL's `Vector`."""

    __module__ = "cutlass.base_dsl.typing"

    def __init__(self, elements: Sequence[Numeric], dtype: type[Numeric]) -> None:
        self.elements, self.dtype = tuple(elements), dtype

    @classmethod
    def from_elements(cls, elements: Sequence[Any], dtype: type[Numeric], **_location: Any
                      ) -> Vector:
        """The vector of `elements`, each converted to `dtype`."""
        if not (isinstance(dtype, type) and issubclass(dtype, Numeric)):
            raise trace_error("vector-dtype", f"Vector.from_elements(..., {dtype!r})",
                              "give the element type (cutlass.Float32, ...)")
        return cls([dtype(as_numeric(e)) for e in elements], dtype)

    def __len__(self) -> int:
        return len(self.elements)

    def bitcast(self, dtype: type[Numeric], **_location: Any) -> Vector:
        """The same bits as a vector of `dtype` (the total width must be a multiple of it)."""
        bits = len(self.elements) * self.dtype.width
        if bits % dtype.width:
            raise trace_error("vector-bitcast", f"a bitcast of {len(self.elements)} x "
                              f"{self.dtype.__name__} to {dtype.__name__}",
                              f"{bits} bits are not a whole number of {dtype.__name__}")
        require("Vector.bitcast")
        count = bits // dtype.width
        source = declare_array(_cxx_type(self.dtype), len(self.elements),
                               tuple(e.expr() for e in self.elements), hint="vec")
        target = declare_array(_cxx_type(dtype), count, hint="bits")
        require("Vector.bitcast").emit(c.ExprStmt(c.Call(
            c.Id("bbx::bit_cast_array"), (target.expr, source.expr))))
        target.provisional = False
        bits_of = [c.Index(target.expr, c.Lit(str(i)), readonly=True) for i in range(count)]
        return Vector([dtype.run_time(e) for e in bits_of], dtype)

    def to_elements(self, **_location: Any) -> list[Numeric]:
        return list(self.elements)

    def __getitem__(self, i: int) -> Numeric:
        return self.elements[i]


def _cxx_type(dtype: type[Numeric]) -> c.Type:
    assert dtype.bbx_row is not None
    return c.Type(dtype.bbx_row.cxx)
