"""The DSL's TVM-FFI calling convention for ``cute.compile(..., options="--enable-tvm-ffi")``.

NVIDIA's DSL describes each argument of a TVM-FFI function by a *param spec*
(``cutlass.base_dsl.tvm_ffi_builder.spec``), built by
``cutlass.cute._tvm_ffi_args_spec_converter`` from the arguments given to ``cute.compile``.
Libraries patch that converter (QuACK makes ``Constexpr`` fields ``ConstNone``), so bbx builds
the same specs by calling the converter module's functions as the module holds them at compile
time, and the compiled function's calls follow them:

* an ``EnvStream`` parameter is not passed: the call takes torch's current stream (the
  simulator's stream 0 under the CUDA stand-in);
* a ``ConstNone`` parameter is passed as ``None``, a ``ConstInt``/``ConstBool``/``ConstFloat``
  one as its value (checked);
* a ``Var`` shared by several tensors (one ``cute.sym_int()`` in two fake tensors' shapes) must
  have one value at each call: ``x`` and ``out`` of ``(batch_sym, N)`` agree on their rows;
* everything else goes to the compiled function, which checks it against its specialization.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .argspec import ArgumentError, ConstexprSpec

NATIVE_STRUCT_TYPE_ATTR = "_bbx_native_struct_type"


class Param:
    """One parameter of a TVM-FFI function: its name and what a call must pass for it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class Var(Param):
    """A run-time scalar (``dtype`` a TVM-FFI dtype string: ``int32``, ``float32``, ``handle``)
    of which a divisibility may be known."""

    def __init__(self, name: str, dtype: str, divisibility: int = 1,
                 alternate_ir_type_fetch_func: Any = None) -> None:
        super().__init__(name)
        self.dtype, self.divisibility = dtype, divisibility
        self.alternate_ir_type_fetch_func = alternate_ir_type_fetch_func


class Shape(Param):
    """A shape tuple: each entry an int (static) or a `Var`."""

    def __init__(self, name: str, shape: Sequence[Any]) -> None:
        super().__init__(name)
        self.shape = list(shape)


class Tensor(Param):
    """A tensor: shape and strides of ints and `Var`s, dtype, alignment, device."""

    def __init__(self, name: str, shape: Sequence[Any], dtype: str, *,
                 strides: Sequence[Any] | None = None, data_alignment: int | None = None,
                 device_type: str | None = None, device_id: Any = None) -> None:
        super().__init__(name)
        self.shape, self.dtype = list(shape), dtype
        self.strides = None if strides is None else list(strides)
        self.data_alignment, self.device_type, self.device_id = (
            data_alignment, device_type, device_id)


class Stream(Param):
    """A stream the caller passes."""


class EnvStream(Param):
    """The environment's current stream: not passed by the caller."""


class DataPointer(Param):
    def __init__(self, name: str, address_space: int | None = None) -> None:
        super().__init__(name)
        self.address_space = address_space


class ConstNone(Param):
    """A parameter fixed to ``None`` at compile time; calls pass ``None``."""


class _Const(Param):
    def __init__(self, name: str, value: Any) -> None:
        super().__init__(name)
        self.value = value


class ConstInt(_Const):
    pass


class ConstBool(_Const):
    pass


class ConstFloat(_Const):
    pass


class TupleParam(Param):
    def __init__(self, name: str, params: Sequence[Param]) -> None:
        super().__init__(name)
        self.params = list(params)


@dataclass
class _Call:
    """One call's checks, as the DSL's TVM-FFI function makes them: the values the shapes'
    and strides' `Var`s took (a `Var` seen twice must agree), and the call's text for the
    messages."""

    signature: str  # `fn(a, b, c)`
    seen: dict[int, tuple[int, str]] = field(default_factory=dict)

    def mismatch(self, field_name: str, index: int, expected: str) -> ValueError:
        """The DSL's error: `Mismatched mW.shape[0] on argument #1 when calling: `f(...)`,
        expected to match mX.shape[1]` (a ValueError, as TVM-FFI raises it)."""
        return ValueError(f"Mismatched {field_name} on argument #{index} when calling: "
                          f"`{self.signature}`, {expected}")

    def bind(self, entry: Any, actual: int, field_name: str, index: int) -> None:
        if isinstance(entry, Var):
            earlier = self.seen.setdefault(id(entry), (actual, field_name))
            if earlier[0] != actual:
                raise self.mismatch(field_name, index, f"expected to match {earlier[1]}")
        elif isinstance(entry, int) and entry != actual:
            raise self.mismatch(field_name, index, f"expected to be {entry}")


def _tensor_extents(value: Any) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    tensor = getattr(value, "bbx_torch_tensor", value)
    shape, stride = getattr(tensor, "shape", None), getattr(tensor, "stride", None)
    if shape is None or not callable(stride):
        return None
    return tuple(int(d) for d in shape), tuple(int(s) for s in stride())


def _check_tensor(param: Tensor, value: Any, index: int, call: _Call,
                  device_type: str | None) -> None:
    """The DSL's checks of a tensor argument: its device (where the param names one and the
    target runs on a device of its own: `device_type`, torch's name for it), its rank, then
    each extent and stride against the param's (static ints, or `Var`s shared between params).
    What they do not cover (the dtype, the alignment) the compiled function refuses with its
    own message."""
    extents = _tensor_extents(value)
    if extents is None:
        return
    tensor = getattr(value, "bbx_torch_tensor", value)
    actual = getattr(getattr(tensor, "device", None), "type", None)
    if param.device_type is not None and device_type not in (None, "cpu") and (
            actual is not None and actual != device_type):
        raise ValueError(f"Mismatched Tensor on argument #{index} when calling: "
                         f"`{call.signature}`, expected device_type={param.device_type}, "
                         f"got {actual}")
    if len(extents[0]) != len(param.shape):
        raise ValueError(f"Mismatched Tensor on argument #{index} when calling: "
                         f"`{call.signature}`, expected ndim={len(param.shape)}")
    for what, wanted, got in (("shape", param.shape, extents[0]),
                              ("strides", param.strides or [], extents[1])):
        for mode, (entry, actual) in enumerate(zip(wanted, got, strict=False)):
            call.bind(entry, actual, f"{param.name}.{what}[{mode}]", index)


class TvmFfiFunction:
    """A compiled function called as NVIDIA's TVM-FFI function of the same params is called."""

    def __init__(self, compiled: Any, params: Sequence[Param]) -> None:
        self.compiled, self.params = compiled, list(params)
        self._passed = [p for p in self.params if not isinstance(p, EnvStream)]
        target = getattr(getattr(compiled, "launcher", None), "target", None)
        #: torch's device type of the target's tensors (None where unknown; "cpu": the
        #: simulator, whose CUDA stand-in's tensors are CPU tensors)
        self._device_type: str | None = getattr(target, "torch_device_type", None)

    def __call__(self, *args: Any) -> Any:
        if len(args) != len(self._passed):
            names = ", ".join(p.name for p in self._passed)
            raise ArgumentError(f"bbx: the TVM-FFI function takes {len(self._passed)} arguments "
                                f"({names}), got {len(args)}")
        given = dict(zip((p.name for p in self._passed), args, strict=True))
        position = {p.name: i for i, p in enumerate(self._passed)}
        call = _Call(f"{self.compiled.function.__qualname__}"
                     f"({', '.join(p.name for p in self._passed)})")
        values: dict[str, Any] = {}
        for param in self.params:
            if isinstance(param, EnvStream):
                values[param.name] = current_stream()
                continue
            value = given[param.name]
            if isinstance(param, ConstNone):
                if value is not None:
                    raise ArgumentError(f"bbx: argument {param.name!r} was None at compile time "
                                        f"and must be None, got {type(value).__name__}")
                self._pass_fixed(values, param.name, None)
                continue
            if isinstance(param, _Const):
                if value is not None and value != param.value:
                    raise ArgumentError(f"bbx: argument {param.name!r} was compiled as "
                                        f"{param.value!r}, got {value!r}")
                self._pass_fixed(values, param.name, param.value)
                continue
            if isinstance(param, Tensor):
                _check_tensor(param, value, position[param.name], call, self._device_type)
            values[param.name] = value
        return self.compiled(**values)

    def _pass_fixed(self, values: dict[str, Any], name: str, value: Any) -> None:
        """A parameter fixed at compile time: a Constexpr of the specialization keeps its compiled
        value (the caller's ``None`` stands for it); any other is passed as fixed."""
        if not isinstance(self.compiled.specs.get(name), ConstexprSpec):
            values[name] = value

    def __repr__(self) -> str:
        return f"<bbx TVM-FFI function {self.compiled!r}>"


def tvm_ffi_function(compiled: Any, args: Sequence[Any], kwargs: dict[str, Any],
                     converter: Any) -> TvmFfiFunction:
    """`compiled` (a CompiledFunction) called as the DSL's TVM-FFI function of the same
    ``cute.compile`` arguments: `converter` (the DSL's ``_tvm_ffi_args_spec_converter``) gives
    the params of the run-time parameters; ``Constexpr`` parameters are fixed at compile time
    and are not passed, as in the DSL."""
    signature = compiled.call_signature()
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    fixed = compiled.function.constexpr_names
    kept = [p for p in signature.parameters.values() if p.name not in fixed]
    params, _, _ = converter(compiled.function.__qualname__,
                             signature.replace(parameters=kept),
                             [bound.arguments[p.name] for p in kept], {})
    return TvmFfiFunction(compiled, params)


def current_stream() -> Any:
    """The stream a TVM-FFI call without a stream argument runs on: torch's current stream."""
    import torch

    if torch.cuda.is_available():
        return torch.cuda.current_stream()
    return 0
