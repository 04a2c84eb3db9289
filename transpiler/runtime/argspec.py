"""Argument specifications: what one specialization of a jit function knows about an argument.

A specialization is built for the *facts* of its arguments, not their values:

* a tensor: dtype, rank, each mode's extent and stride (a static int, or dynamic ``?``, optionally
  with a known divisibility ``?{div=N}``), the assumed alignment of its data pointer in bytes, its
  device type (``cpu``/``cuda``; ROCm torch reports ``cuda`` too), and the width of the offsets
  its kernels compute (`index_bits`: 32, or 64 for a tensor with more than 2^31 - 1 elements or
  whose strides span more than that, as NVIDIA's DSL switches to 64-bit indexing);
* a scalar: its dtype (its value is a run-time argument);
* a pointer (``cute.runtime.make_ptr``): element dtype and assumed alignment;
* a stream: nothing (run-time);
* a Python meta value (``cutlass.Constexpr``): the value itself, by a repr-stable key.

Text form (``bbx build --arg``), printed canonically by ``str(spec)``::

    f32[?,?]:stride(?,1)@16:cuda    tensor; stride omitted = all dynamic; @N omitted = natural
    f16[128,?{div=8}]               alignment (the element size); :device omitted = any device
    i8[?,?]:stride(?,1):idx64       a tensor indexed with 64-bit offsets (default: 32-bit)
    i32 / f32 / bool                scalars
    ptr(f16)@16                     pointer
    stream                          stream
    const(128) / const('l1')        meta value (a Python literal)

How specs are derived from values (which facts are static) lives in `from_value` (direct torch
tensors and scalars) and in `bbx.runtime.dlpack_tensor` (the ``from_dlpack`` wrapper).
"""

from __future__ import annotations

import ast
import enum
import functools
import inspect
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import dtypes
from .constexpr_values import normalize as normalize_constexpr
from .tensor_input import UnsupportedTensor, is_torch_tensor, unsupported_reason

STATIC_ALIGN_CAP = 16  # bytes; the widest vector access the generated code uses
INT32_MAX = 2**31 - 1


class ArgumentError(TypeError):
    """A run-time argument does not match the specialization it is passed to."""


class ArgSpecSyntaxError(ValueError):
    """A malformed ``--arg`` spelling; the message names the column (1-based)."""

    def __init__(self, text: str, column: int, what: str) -> None:
        self.text, self.column, self.what = text, column, what
        pointer = " " * (column - 1) + "^"
        super().__init__(
            f"bad argument spec {text!r} at column {column}: {what}\n  {text}\n  {pointer}"
        )


@dataclass(frozen=True)
class Dyn:
    """A dynamic extent or stride; `divisibility` is what the specialization may assume."""

    divisibility: int = 1

    def __str__(self) -> str:
        return "?" if self.divisibility == 1 else f"?{{div={self.divisibility}}}"


DYN = Dyn()
Dim = int | Dyn


def _dim_key(d: Dim) -> int | str:
    return d if isinstance(d, int) else str(d)


@dataclass(frozen=True)
class TensorSpec:
    dtype: str
    shape: tuple[Dim, ...]
    stride: tuple[Dim, ...]
    align: int
    device: str | None = None
    index_bits: int = 32  # width of the offsets the kernels compute into this tensor

    def __post_init__(self) -> None:
        dtypes.dtype(self.dtype)
        if len(self.shape) != len(self.stride):
            raise ValueError(f"shape {self.shape} and stride {self.stride} differ in rank")
        if self.align < 1 or self.align & (self.align - 1):
            raise ValueError(f"alignment {self.align} is not a power of two")
        if self.index_bits not in (32, 64):
            raise ValueError(f"index width {self.index_bits} is not 32 or 64")

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def element_type(self) -> Any:
        """The DSL's numeric type of the elements (`mX.element_type` in a Meta member), from
        the `cutlass` package the program imported (bbx's shim when NVIDIA's is absent)."""
        return dtypes.dsl_type(self.dtype)

    def __str__(self) -> str:
        text = f"{self.dtype}[{','.join(str(d) for d in self.shape)}]"
        if any(not isinstance(s, Dyn) or s.divisibility != 1 for s in self.stride):
            text += f":stride({','.join(str(s) for s in self.stride)})"
        if self.align != dtypes.dtype(self.dtype).size:
            text += f"@{self.align}"
        if self.device is not None:
            text += f":{self.device}"
        if self.index_bits == 64:
            text += ":idx64"
        return text

    def key_fields(self) -> dict[str, Any]:
        return {
            "kind": "tensor", "dtype": self.dtype, "shape": [_dim_key(d) for d in self.shape],
            "stride": [_dim_key(s) for s in self.stride], "align": self.align,
            "device": self.device, "index_bits": self.index_bits,
        }


@dataclass(frozen=True)
class ScalarSpec:
    dtype: str

    def __post_init__(self) -> None:
        dtypes.dtype(self.dtype)

    def __str__(self) -> str:
        return self.dtype

    def key_fields(self) -> dict[str, Any]:
        return {"kind": "scalar", "dtype": self.dtype}


@dataclass(frozen=True)
class PointerSpec:
    dtype: str
    align: int

    @property
    def value_type(self) -> Any:
        """The DSL's numeric type of the pointee (`p.value_type` in a Meta member)."""
        return dtypes.dsl_type(self.dtype)

    def __str__(self) -> str:
        suffix = "" if self.align == dtypes.dtype(self.dtype).size else f"@{self.align}"
        return f"ptr({self.dtype}){suffix}"

    def key_fields(self) -> dict[str, Any]:
        return {"kind": "pointer", "dtype": self.dtype, "align": self.align}


@dataclass(frozen=True)
class StreamSpec:
    def __str__(self) -> str:
        return "stream"

    def key_fields(self) -> dict[str, Any]:
        return {"kind": "stream"}


@dataclass(frozen=True)
class ConstexprSpec:
    """A compile-time Python value, compared and hashed by its repr-stable `key`."""

    key: str
    value: Any = field(default=None, compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, value: Any) -> ConstexprSpec:
        return cls(stable_repr(value), value)

    def __str__(self) -> str:
        return f"const({self.key})"

    def key_fields(self) -> dict[str, Any]:
        return {"kind": "constexpr", "value": self.key}


@dataclass(frozen=True)
class SequenceSpec:
    """A Python list or tuple of run-time values (tensors, pointers, scalars) passed to a jit
    function: the DSL traces the function with the Python sequence, so its length and the
    specs of its elements are facts of the specialization; each element is passed on as an
    argument of its own (`flatten`)."""

    elements: tuple[ArgSpec, ...]
    is_list: bool = True

    def __str__(self) -> str:
        inner = ",".join(str(e) for e in self.elements)
        return f"[{inner}]" if self.is_list else f"({inner})"

    def key_fields(self) -> dict[str, Any]:
        return {"kind": "list" if self.is_list else "tuple",
                "elements": [e.key_fields() for e in self.elements]}


ArgSpec = TensorSpec | ScalarSpec | PointerSpec | StreamSpec | ConstexprSpec | SequenceSpec


def element_name(name: str, index: int) -> str:
    """How an element of a sequence argument is named in messages and launch plans."""
    return f"{name}[{index}]"


def flatten(specs: dict[str, ArgSpec]) -> dict[str, ArgSpec]:
    """The specs with each sequence argument replaced by its elements (`inputs[0]`, ...), in
    the order the generated function takes them."""
    out: dict[str, ArgSpec] = {}
    for name, spec in specs.items():
        if isinstance(spec, SequenceSpec):
            out |= {element_name(name, i): e for i, e in enumerate(spec.elements)}
        else:
            out[name] = spec
    return out


def flatten_values(specs: Mapping[str, ArgSpec], values: dict[str, Any]) -> dict[str, Any]:
    """A call's values by the names of `flatten(specs)` (the sequences already validated)."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        spec = specs.get(name)
        if isinstance(spec, SequenceSpec):
            out |= {element_name(name, i): v for i, v in enumerate(value)}
        else:
            out[name] = value
    return out

#: The key of a Constexpr argument left at its `lambda` default: the translation traces the
#: default's source, so no value reaches C++ (and the key does not depend on the object).
DEFAULT_LAMBDA = "default lambda"


def is_lambda(value: Any) -> bool:
    """A Python `lambda` (the default of a Constexpr parameter the translation traces)."""
    return callable(value) and getattr(value, "__name__", "") == "<lambda>"


def same_lambda(value: Any, default: Any) -> bool:
    """`value` is the lambda `default` or one with the same code (`lambda x: x` written again at
    the call): same bytecode, constants and names, same module globals, no captured variables —
    the same function, which the translation traces from the default's source."""
    if value is default:
        return is_lambda(value)
    if not (is_lambda(value) and is_lambda(default)):
        return False
    if value.__closure__ is not None or default.__closure__ is not None:
        return False
    a, b = value.__code__, default.__code__
    return (a.co_code == b.co_code and a.co_consts == b.co_consts and a.co_names == b.co_names
            and a.co_varnames == b.co_varnames and a.co_argcount == b.co_argcount
            and value.__globals__ is default.__globals__ and value.__defaults__ is None
            and default.__defaults__ is None)


# ---------------------------------------------------------------------------------------------
# repr-stable keys of meta values

def is_plain_data(value: Any) -> bool:
    """True for values whose `stable_repr` is a faithful, process-independent key."""
    if value is None or isinstance(value, (bool, int, float, str, bytes, enum.Enum)):
        return True
    if isinstance(value, (tuple, list, frozenset)):
        return all(is_plain_data(v) for v in value)
    if isinstance(value, dict):
        return all(is_plain_data(k) and is_plain_data(v) for k, v in value.items())
    numeric = value if isinstance(value, type) else type(value)
    return isinstance(getattr(numeric, "bbx_dtype", None), str)


def self_config(obj: Any) -> tuple[tuple[str, str], ...]:
    """The part of an object's state that specializes its jit methods: the ``__dict__`` entries
    holding plain Python data, as (name, repr-stable value), sorted by name."""
    state = getattr(obj, "__dict__", {})
    return tuple(sorted((k, stable_repr(v)) for k, v in state.items() if is_plain_data(v)))


def stable_repr(value: Any) -> str:
    """A repr that is the same in every process for the same meta value."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    if isinstance(value, type):
        if isinstance(getattr(value, "bbx_dtype", None), str):
            return f"cutlass.{value.__name__}"
        return f"<class {value.__module__}.{value.__qualname__}>"
    if isinstance(value, (tuple, list)):
        inner = ", ".join(stable_repr(v) for v in value)
        if isinstance(value, tuple):
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        return f"[{inner}]"
    if isinstance(value, dict):
        items = sorted((stable_repr(k), stable_repr(v)) for k, v in value.items())
        return "{" + ", ".join(f"{k}: {v}" for k, v in items) + "}"
    if isinstance(value, float) and math.isnan(value):
        return "float('nan')"
    numeric = getattr(type(value), "bbx_dtype", None)
    if isinstance(numeric, str):
        return f"cutlass.{type(value).__name__}({value.value!r})"
    if jit_call_of(value) is not None:  # a Constexpr callable instance: its configuration
        return f"<{type(value).__module__}.{type(value).__qualname__} {self_config(value)}>"
    if isinstance(value, functools.partial):
        args = ", ".join(stable_repr(a) for a in value.args)
        keywords = ", ".join(f"{k}={stable_repr(v)}" for k, v in sorted(value.keywords.items()))
        return f"functools.partial({stable_repr(value.func)}, ({args}), {{{keywords}}})"
    if callable(value) and hasattr(value, "__code__"):
        code = value.__code__
        where = f"{code.co_filename}:{code.co_firstlineno}"
        return f"<function {value.__module__}.{value.__qualname__} at {where}>"
    return repr(value)


def jit_call_of(value: Any) -> Any | None:
    """The `@cute.jit` `__call__` of `value`'s class (a bbx.runtime.jit.JitFunction), or None."""
    call = inspect.getattr_static(type(value), "__call__", None)
    return call if getattr(call, "kind", None) == "jit function" else None


# ---------------------------------------------------------------------------------------------
# specs from values

def _largest_pow2_dividing(address: int, cap: int = STATIC_ALIGN_CAP) -> int:
    if address == 0:
        return cap
    return min(cap, address & -address)


def dlpack_strides(tensor: Any) -> tuple[int, ...]:
    """torch strides as DLPack exports them: a mode of extent 1 has stride 1."""
    return tuple(1 if n == 1 else s for n, s in zip(tensor.shape, tensor.stride(), strict=True))


def span_elements(shape: tuple[int, ...], stride: tuple[int, ...]) -> int:
    """Elements from the first to the last one the strides reach, inclusive (0 when empty)."""
    if not all(shape):
        return 0
    return 1 + sum((n - 1) * abs(s) for n, s in zip(shape, stride, strict=True))


def offset_bits(shape: tuple[int, ...], stride: tuple[int, ...]) -> int:
    """32 when every offset, extent, stride and the element count fit a signed 32-bit integer
    (what the generated code computes with by default), else 64."""
    size = math.prod(shape)
    if size == 0:
        return 32
    wide = size > INT32_MAX or span_elements(shape, stride) > INT32_MAX or any(
        abs(s) > INT32_MAX for n, s in zip(shape, stride, strict=True) if n != 1)
    return 64 if wide else 32


def leading_mode(shape: tuple[int, ...], stride: tuple[int, ...]) -> int | None:
    """The DSL's leading-dimension deduction: the one unit-stride mode, or among several the
    one of extent > 1; None when there is none or it is ambiguous."""
    units = [i for i, s in enumerate(stride) if s == 1]
    if len(units) == 1:
        return units[0]
    wide = [i for i in units if shape[i] > 1]
    return wide[0] if len(wide) == 1 else None


def direct_tensor_spec(tensor: Any) -> TensorSpec:
    """A torch tensor passed directly to a jit function (the DSL's implicit conversion).

    Our rule: every extent dynamic; every stride dynamic except the leading mode's (deduced as
    `leading_mode` does), which is static 1; alignment = the largest power of two <= 16 dividing
    the data pointer (at least what the address guarantees, so a fresh allocation is @16 and a
    view at an odd element offset is @element size or less); device = the torch device type;
    offsets 64-bit when the tensor needs them (`offset_bits`).
    """
    reason = unsupported_reason(tensor)
    if reason is not None:
        raise reason
    dt = dtypes.from_torch(tensor.dtype)
    shape = tuple(int(n) for n in tensor.shape)
    stride = dlpack_strides(tensor)
    lead = leading_mode(shape, stride)
    return TensorSpec(
        dtype=dt.name,
        shape=tuple(DYN for _ in shape),
        stride=tuple(1 if i == lead else DYN for i in range(len(shape))),
        align=_largest_pow2_dividing(int(tensor.data_ptr())),
        device=tensor.device.type,
        index_bits=offset_bits(shape, stride),
    )


def scalar_dtype_of(value: Any) -> str | None:
    """The dtype the DSL infers for an unannotated dynamic scalar, or None if not a scalar."""
    numeric = getattr(type(value), "bbx_dtype", None)
    if isinstance(numeric, str):
        return numeric
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "i32"
    if isinstance(value, float):
        return "f32"
    return None


def _is_stream(value: Any) -> bool:
    return hasattr(value, "cuda_stream") or type(value).__name__ in ("CUstream", "HostStream")


def from_value(value: Any, *, constexpr: bool = False, dtype: str | None = None) -> ArgSpec:
    """The spec of one call argument. `constexpr`: annotated ``cutlass.Constexpr``; `dtype`: the
    argument is annotated with a numeric type. Unannotated values follow the DSL: tensors, numbers
    and numeric instances are dynamic; everything else (types, strings, callables, tuples, None)
    is a meta value."""
    if constexpr:
        return ConstexprSpec.of(value)
    spec_method = getattr(value, "bbx_arg_spec", None)
    if callable(spec_method):  # from_dlpack tensors, make_ptr pointers
        return spec_method()
    if is_torch_tensor(value):
        return direct_tensor_spec(value)
    if callable(getattr(value, "__dlpack__", None)):
        raise UnsupportedTensor(
            f"a {type(value).__module__.split('.')[0]}.{type(value).__qualname__}",
            "bbx takes torch tensors directly; pass another library's tensor through "
            "cutlass.cute.runtime.from_dlpack(x)")
    if dtype is not None:
        return ScalarSpec(dtype)
    if _is_stream(value):
        return StreamSpec()
    sequence = _sequence_spec(value)
    if sequence is not None:
        return sequence
    inferred = scalar_dtype_of(value)
    if inferred is not None:
        return ScalarSpec(inferred)
    return ConstexprSpec.of(value)


def _sequence_spec(value: Any) -> SequenceSpec | None:
    """A list or tuple holding tensors or pointers (and possibly run-time scalars): a sequence
    of run-time values. A sequence of Python data (ints, strings...) stays a meta value."""
    if not isinstance(value, (list, tuple)) or not value:
        return None
    elements = [from_value(v) for v in value]
    if not any(isinstance(e, (TensorSpec, PointerSpec)) for e in elements):
        return None
    if not all(isinstance(e, (TensorSpec, PointerSpec, ScalarSpec)) for e in elements):
        return None
    return SequenceSpec(tuple(elements), isinstance(value, list))


# ---------------------------------------------------------------------------------------------
# text form

_DIM = re.compile(r"\?(?:\{div=(\d+)\})?|\d+")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def fail(self, what: str, at: int | None = None) -> ArgSpecSyntaxError:
        return ArgSpecSyntaxError(self.text, (self.pos if at is None else at) + 1, what)

    def peek(self, s: str) -> bool:
        return self.text.startswith(s, self.pos)

    def expect(self, s: str) -> None:
        if not self.peek(s):
            found = self.text[self.pos:self.pos + 1] or "end of text"
            raise self.fail(f"expected {s!r}, found {found!r}")
        self.pos += len(s)

    def name(self, what: str) -> str:
        m = _NAME.match(self.text, self.pos)
        if not m:
            raise self.fail(f"expected {what}")
        self.pos = m.end()
        return m.group()

    def integer(self, what: str) -> int:
        m = re.compile(r"\d+").match(self.text, self.pos)
        if not m:
            raise self.fail(f"expected {what}")
        self.pos = m.end()
        return int(m.group())

    def dtype(self) -> str:
        start = self.pos
        name = self.name("a dtype")
        if name not in dtypes.DTYPES:
            raise self.fail(f"unknown dtype {name!r} (known: {', '.join(dtypes.DTYPES)})", start)
        return name

    def dims(self, close: str, what: str) -> tuple[Dim, ...]:
        out: list[Dim] = []
        if self.peek(close):
            self.pos += 1
            return ()
        while True:
            m = _DIM.match(self.text, self.pos)
            if not m:
                raise self.fail(f"expected {what}: an integer, '?' or '?{{div=N}}'")
            if m.group().startswith("?"):
                div = int(m.group(1) or 1)
                if div < 1:
                    raise self.fail("divisibility must be at least 1")
                out.append(Dyn(div))
            else:
                out.append(int(m.group()))
            self.pos = m.end()
            if self.peek(close):
                self.pos += 1
                return tuple(out)
            self.expect(",")

    def align(self) -> int:
        start = self.pos
        value = self.integer("an alignment in bytes after '@'")
        if value < 1 or value & (value - 1):
            raise self.fail(f"alignment {value} is not a power of two", start)
        return value

    def end(self) -> None:
        if self.pos != len(self.text):
            raise self.fail(f"unexpected {self.text[self.pos:]!r}")


def parse(text: str) -> ArgSpec:
    """Parse the ``--arg`` spelling (see the module docstring)."""
    if text[:1] in "[(" and text[:6] != "const(":
        return _parse_sequence(text)
    p = _Parser(text)
    if p.peek("const("):
        if not text.endswith(")"):
            raise p.fail("expected ')' closing const(", len(text))
        inner = text[len("const("):-1]
        try:
            value = ast.literal_eval(inner)
        except (ValueError, SyntaxError) as exc:
            raise p.fail(f"const(...) takes a Python literal ({exc.__class__.__name__})",
                         len("const(")) from None
        return ConstexprSpec.of(value)
    if text == "stream":
        return StreamSpec()
    if p.peek("ptr("):
        p.pos += len("ptr(")
        dt = p.dtype()
        p.expect(")")
        align = dtypes.dtype(dt).size
        if p.peek("@"):
            p.pos += 1
            align = p.align()
        p.end()
        return PointerSpec(dt, align)
    dt = p.dtype()
    if p.pos == len(text):
        return ScalarSpec(dt)
    p.expect("[")
    shape = p.dims("]", "an extent")
    stride: tuple[Dim, ...] = tuple(DYN for _ in shape)
    if p.peek(":stride("):
        p.pos += len(":stride(")
        at = p.pos
        stride = p.dims(")", "a stride")
        if len(stride) != len(shape):
            raise p.fail(f"{len(stride)} strides for a rank-{len(shape)} tensor", at)
    align = dtypes.dtype(dt).size
    if p.peek("@"):
        p.pos += 1
        align = p.align()
    device = None
    index_bits = 32
    while p.peek(":"):
        p.pos += 1
        start = p.pos
        word = p.name("a device type (cpu, cuda) or an index width (idx32, idx64)")
        if word in ("idx32", "idx64"):
            index_bits = int(word[3:])
        elif device is None and index_bits == 32:
            device = word
        else:
            raise p.fail(f"unexpected {word!r} (the device comes before the index width)", start)
    p.end()
    return TensorSpec(dt, shape, stride, align, device, index_bits)


def _parse_sequence(text: str) -> SequenceSpec:
    """`[spec,spec,...]` (a list) or `(spec,...)` (a tuple) of tensor, pointer or scalar specs."""
    close = "]" if text[0] == "[" else ")"
    if not text.endswith(close):
        raise ArgSpecSyntaxError(text, len(text) + 1, f"expected {close!r} closing the sequence")
    elements: list[ArgSpec] = []
    depth, start = 0, 1
    for i, ch in enumerate(text[1:-1] + ",", start=1):
        depth += (ch in "[({") - (ch in "])}")
        if ch != "," or depth:
            continue
        part = text[start:i]
        try:
            element = parse(part)
        except ArgSpecSyntaxError as exc:
            raise ArgSpecSyntaxError(text, start + exc.column, exc.what) from None
        if not isinstance(element, (TensorSpec, PointerSpec, ScalarSpec)):
            raise ArgSpecSyntaxError(text, start + 1, "a sequence holds tensors, pointers and "
                                     "scalars")
        elements.append(element)
        start = i + 1
    if depth:  # the last element's brackets swallowed the closing one
        raise ArgSpecSyntaxError(text, len(text) + 1, f"expected {close!r} closing the sequence")
    if not any(isinstance(e, (TensorSpec, PointerSpec)) for e in elements):
        raise ArgSpecSyntaxError(text, 1, "a sequence argument holds at least one tensor or "
                                 "pointer (write other Python data as const(...))")
    return SequenceSpec(tuple(elements), close == "]")


def key_fields(specs: dict[str, ArgSpec]) -> dict[str, Any]:
    """Cache-key components of a whole argument list (by parameter name)."""
    return {name: spec.key_fields() for name, spec in specs.items()}


# ---------------------------------------------------------------------------------------------
# validation before launch

_INT_RANGES = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}


def _tensor_problems(spec: TensorSpec, tensor: Any) -> list[str]:
    try:
        actual_dtype = dtypes.from_torch(tensor.dtype).name
    except ValueError:
        actual_dtype = str(tensor.dtype)
    if actual_dtype != spec.dtype:
        return [f"dtype is {actual_dtype}, expected {spec.dtype}"]
    if tensor.dim() != spec.rank:
        return [f"rank is {tensor.dim()}, expected {spec.rank}"]
    problems: list[str] = []
    if spec.device is not None and tensor.device.type != spec.device:
        problems.append(f"device is {tensor.device.type}, expected {spec.device}")
    shape = tuple(int(n) for n in tensor.shape)
    stride = dlpack_strides(tensor)
    for mode, (want, got) in enumerate(zip(spec.shape, shape, strict=True)):
        if isinstance(want, int) and want != got:
            problems.append(f"extent of mode {mode} is {got}, expected {want}")
        elif isinstance(want, Dyn) and got % want.divisibility:
            problems.append(f"extent of mode {mode} is {got}, expected a multiple of "
                            f"{want.divisibility}")
    for mode, (want, got) in enumerate(zip(spec.stride, stride, strict=True)):
        if isinstance(want, int) and want != got and shape[mode] != 1:
            what = "unit stride" if want == 1 else f"stride {want}"
            problems.append(f"stride of mode {mode} is {got}, expected {what}")
        elif isinstance(want, Dyn) and got % want.divisibility and shape[mode] != 1:
            problems.append(f"stride of mode {mode} is {got}, expected a multiple of "
                            f"{want.divisibility}")
    address = int(tensor.data_ptr())
    if address % spec.align:
        problems.append(f"data pointer {address:#x} is aligned to "
                        f"{_largest_pow2_dividing(address, 1 << 30)} bytes, expected "
                        f"{spec.align}")
    if spec.index_bits == 32 and offset_bits(shape, stride) == 64:
        problems.append(
            f"it needs 64-bit offsets ({math.prod(shape)} elements; its strides span "
            f"{span_elements(shape, stride)}), but this specialization computes 32-bit offsets "
            "(build a specialization for it: call the jit function with this tensor, or "
            "cute.compile with it)")
    return problems


def _scalar_problems(spec: ScalarSpec, value: Any) -> list[str]:
    numeric = getattr(type(value), "bbx_dtype", None)
    if isinstance(numeric, str):
        if numeric != spec.dtype:
            return [f"is a {type(value).__name__} ({numeric}), expected {spec.dtype}"]
        return []
    want = dtypes.dtype(spec.dtype)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if want.kind == "bool" and isinstance(value, bool):
            return []
        return [f"is {type(value).__name__}, expected a {spec.dtype} scalar"]
    if isinstance(value, float) and not want.is_float:
        return [f"is a float ({value!r}), expected an integer {spec.dtype}"]
    if isinstance(value, int) and want.kind in ("int", "uint"):
        bits = want.bits
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if want.kind == "int" \
            else (0, (1 << bits) - 1)
        if not low <= value <= high:
            return [f"value {value} does not fit {spec.dtype} [{low}, {high}]"]
    return []


def _problems(spec: ArgSpec, value: Any) -> list[str]:
    if isinstance(spec, TensorSpec):
        tensor = getattr(value, "bbx_torch_tensor", None)
        tensor = value if tensor is None and is_torch_tensor(value) else tensor
        if tensor is None:
            return [f"is {type(value).__name__}, expected a tensor"]
        reason = unsupported_reason(tensor)
        if reason is not None:
            return [f"is {reason.what} ({reason.why})"]
        return _tensor_problems(spec, tensor)
    if isinstance(spec, ScalarSpec):
        return _scalar_problems(spec, value)
    if isinstance(spec, PointerSpec):
        actual = from_value(value)
        if not isinstance(actual, PointerSpec):
            return [f"is {type(value).__name__}, expected a pointer"]
        if actual.dtype != spec.dtype:
            return [f"points to {actual.dtype}, expected {spec.dtype}"]
        address = int(getattr(value, "address", 0))
        if address % spec.align:
            return [f"address {address:#x} is not aligned to {spec.align} bytes"]
        return []
    if isinstance(spec, StreamSpec):
        return [] if value is None or _is_stream(value) else \
            [f"is {type(value).__name__}, expected a stream"]
    if isinstance(spec, SequenceSpec):
        if not isinstance(value, (list, tuple)):
            return [f"is {type(value).__name__}, expected a sequence of {len(spec.elements)}"]
        if len(value) != len(spec.elements):
            return [f"has {len(value)} elements, expected {len(spec.elements)}"]
        return [f"element {i}: {problem}"
                for i, (e, v) in enumerate(zip(spec.elements, value, strict=True))
                for problem in _problems(e, v)]
    key = stable_repr(normalize_constexpr(value))
    return [] if key == spec.key else [f"is {key}, expected {spec.key}"]


def validate(spec: ArgSpec, value: Any, name: str) -> None:
    """Raise ArgumentError unless `value` may be passed where `spec` was specialized."""
    problems = _problems(spec, value)
    if problems:
        raise ArgumentError(
            f"bbx: argument {name!r} does not match its specialization {spec}: "
            + "; ".join(problems)
        )
