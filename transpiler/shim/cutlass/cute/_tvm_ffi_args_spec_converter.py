"""``cutlass.cute._tvm_ffi_args_spec_converter``: the param specs of a TVM-FFI function from the
arguments given to ``cute.compile`` (bbx.runtime.tvm_ffi says how calls follow them).

Libraries patch `_convert_single_arg` (QuACK turns ``Constexpr`` annotations into ``ConstNone``):
`_tvm_ffi_args_spec_converter` and the recursion for tuples, dataclasses and unions call it through
this module's global, so a patch takes effect everywhere, as in the DSL.
"""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import fields as dataclass_fields
from dataclasses import is_dataclass
from typing import Any, get_args, get_origin, get_type_hints

from bbx.runtime.dlpack_tensor import DLPackTensor, RawPointer
from bbx.runtime.jit import is_constexpr_annotation

from .._numeric import Numeric, by_short
from ..base_dsl.common import DSLRuntimeError
from ..base_dsl.tvm_ffi_builder import spec
from ._symbolic import SymInt
from .runtime import _FakeStream, _FakeTensor

_DTYPE_NAMES = {"Boolean": "bool", "BFloat16": "bfloat16", "Float8E4M3FN": "float8_e4m3fn",
                "Float8E5M2": "float8_e5m2", "Float8E8M0FNU": "float8_e8m0fnu",
                "Float4E2M1FN": "float4_e2m1fn"}


def _numeric_to_tvm_ffi_dtype(dtype: type[Numeric]) -> str:
    return _DTYPE_NAMES.get(dtype.__name__, dtype.__name__.lower())


class ConverterContext:
    """Names of dynamic shape/stride variables, and one `spec.Var` per `SymInt` object."""

    def __init__(self) -> None:
        self.num_dyn_shape_vars = 0
        self.num_dyn_stride_vars = 0
        self.sym_int_id_mapping: dict[int, tuple[SymInt, spec.Var]] = {}

    def alloc_shape_name(self) -> str:
        self.num_dyn_shape_vars += 1
        return f"n{self.num_dyn_shape_vars - 1}"

    def alloc_stride_name(self) -> str:
        self.num_dyn_stride_vars += 1
        return f"s{self.num_dyn_stride_vars - 1}"

    def alloc_or_reuse_symint_var(self, value: SymInt, name_alloc_func: Any) -> spec.Var:
        found = self.sym_int_id_mapping.get(id(value))
        if found is not None:
            return found[1]
        var = spec.Var(name_alloc_func(), "int32" if value.width == 32 else "int64",
                       divisibility=value.divisibility)
        self.sym_int_id_mapping[id(value)] = (value, var)
        return var


def _is_numeric_type(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, Numeric)


def _extent(entry: Any, dim: Any, ctx: ConverterContext, name_alloc: Any) -> Any:
    if isinstance(entry, SymInt):
        return ctx.alloc_or_reuse_symint_var(entry, name_alloc)
    if isinstance(dim, int):
        return dim
    return spec.Var(name_alloc(), "int64", divisibility=getattr(dim, "divisibility", 1))


def _tensor_param(arg: Any, arg_name: str, ctx: ConverterContext) -> spec.Tensor:
    arg_spec = arg.bbx_arg_spec()
    written_shape = getattr(arg, "shape", None) if isinstance(arg, _FakeTensor) else None
    written_stride = getattr(arg, "stride", None) if isinstance(arg, _FakeTensor) else None
    shape = [_extent(written_shape[i] if written_shape else None, d, ctx, ctx.alloc_shape_name)
             for i, d in enumerate(arg_spec.shape)]
    strides = [_extent(written_stride[i] if written_stride else None, s, ctx,
                       ctx.alloc_stride_name) for i, s in enumerate(arg_spec.stride)]
    dtype = _numeric_to_tvm_ffi_dtype(by_short(arg_spec.dtype))
    # a tensor argument is in the GPU's memory (the simulator's "cuda" tensors included)
    return spec.Tensor(arg_name, shape, dtype, strides=strides, data_alignment=arg_spec.align,
                       device_type="cuda")


def _tuple_param(arg: Any, arg_name: str, element_types: Any, ctx: ConverterContext
                 ) -> spec.TupleParam:
    if not isinstance(arg, (tuple, list)):
        raise DSLRuntimeError(f"Expected tuple for argument {arg_name}, got {type(arg)}")
    if element_types is not None and len(arg) != len(element_types):
        raise DSLRuntimeError(f"Tuple length mismatch for argument {arg_name}: expected "
                              f"{len(element_types)}, got {len(arg)}")
    types_ = element_types if element_types is not None else [None] * len(arg)
    return spec.TupleParam(arg_name, [_convert_single_arg(e, f"{arg_name}[{i}]", t, ctx)
                                      for i, (e, t) in enumerate(zip(arg, types_, strict=True))])


def _convert_single_arg(arg: Any, arg_name: str, arg_type: Any, ctx: ConverterContext, *,
                        is_constexpr: bool = False) -> spec.Param:
    """The param spec of one argument (the DSL's rules, in its order)."""
    empty = arg_type is None or arg_type is inspect.Parameter.empty
    if is_constexpr:
        if arg is None:
            return spec.ConstNone(arg_name)
        kind = {bool: spec.ConstBool, int: spec.ConstInt, float: spec.ConstFloat}.get(type(arg))
        if kind is None:
            raise DSLRuntimeError(f"Unsupported Constexpr value for {arg_name!r}: "
                                  f"{type(arg).__name__}. Supported: None, int, bool, float.")
        return kind(arg_name, arg)
    if arg is None:
        return spec.ConstNone(arg_name)
    if isinstance(arg, Numeric):
        return spec.Var(arg_name, _numeric_to_tvm_ffi_dtype(type(arg)))
    if _is_numeric_type(arg_type):
        return spec.Var(arg_name, _numeric_to_tvm_ffi_dtype(arg_type))
    if isinstance(arg, SymInt):
        return spec.Var(arg_name, "int32" if arg.width == 32 else "int64",
                        divisibility=arg.divisibility)
    if isinstance(arg, (_FakeTensor, DLPackTensor)):
        return _tensor_param(arg, arg_name, ctx)
    if isinstance(arg, RawPointer):
        return spec.DataPointer(arg_name, address_space=int(arg.mem_space))
    if isinstance(arg, _FakeStream):
        return spec.EnvStream(arg_name) if arg.use_tvm_ffi_env_stream else spec.Stream(arg_name)
    if type(arg).__name__ == "CUstream":
        return spec.Stream(arg_name)
    if not empty and hasattr(arg_type, "_fields"):
        hints = get_type_hints(arg_type)
        return _tuple_param(arg, arg_name, [hints.get(f) for f in arg_type._fields], ctx)
    if not empty and get_origin(arg_type) is tuple:
        return _tuple_param(arg, arg_name, list(get_args(arg_type)), ctx)
    if isinstance(arg, (tuple, list)):
        return _tuple_param(arg, arg_name, None, ctx)
    if isinstance(arg, bool):
        return spec.Var(arg_name, "bool")
    if isinstance(arg, int):
        return spec.Var(arg_name, "int32")
    if isinstance(arg, float):
        return spec.Var(arg_name, "float32")
    dc_type = arg_type if not empty and is_dataclass(arg_type) else type(arg)
    if is_dataclass(dc_type) and isinstance(dc_type, type):
        return spec.TupleParam(arg_name, [
            _convert_single_arg(getattr(arg, f.name), f"{arg_name}.{f.name}", f.type, ctx,
                                is_constexpr=is_constexpr_annotation(f.type))
            for f in dataclass_fields(dc_type)])
    if not empty and get_origin(arg_type) in (types.UnionType, typing.Union):
        for member in get_args(arg_type):
            try:
                return _convert_single_arg(arg, arg_name, member, ctx)
            except DSLRuntimeError:
                continue
        raise DSLRuntimeError(f"Unsupported argument type: {type(arg)} for union type: "
                              f"{arg_type}")
    raise DSLRuntimeError(f"Unsupported argument type: {type(arg)} for annotated type: "
                          f"{get_origin(arg_type)}")


def _tvm_ffi_args_spec_converter(function_name: str, signature: inspect.Signature,
                                 full_args: list[Any], full_kwargs: dict[str, Any]
                                 ) -> tuple[list[spec.Param], Any, list[str]]:
    """(params, None, names of dataclass arguments) of a call ``fn(*full_args, **full_kwargs)``;
    the second item is the DSL's keyword wrapper, which bbx's calls do not need."""
    bound = signature.bind(*full_args, **full_kwargs)
    bound.apply_defaults()
    ctx = ConverterContext()
    params: list[spec.Param] = []
    dataclass_args: list[str] = []
    for name, parameter in signature.parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            raise DSLRuntimeError(f"{function_name}: *args/**kwargs parameters cannot be "
                                  "TVM-FFI arguments")
        value = bound.arguments[name]
        params.append(_convert_single_arg(value, name, parameter.annotation, ctx))
        if is_dataclass(type(value)):
            dataclass_args.append(name)
    return params, None, dataclass_args
