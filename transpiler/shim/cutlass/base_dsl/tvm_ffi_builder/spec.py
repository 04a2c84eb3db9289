"""``cutlass.base_dsl.tvm_ffi_builder.spec``: how each argument of a TVM-FFI function is passed
(bbx.runtime.tvm_ffi)."""

from __future__ import annotations

from bbx.runtime.tvm_ffi import (
    NATIVE_STRUCT_TYPE_ATTR,
    ConstBool,
    ConstFloat,
    ConstInt,
    ConstNone,
    DataPointer,
    EnvStream,
    Param,
    Shape,
    Stream,
    Tensor,
    TupleParam,
    Var,
)

__all__ = ["NATIVE_STRUCT_TYPE_ATTR", "ConstBool", "ConstFloat", "ConstInt", "ConstNone",
           "DataPointer", "EnvStream", "Param", "Shape", "Stream", "Tensor", "TupleParam", "Var"]
