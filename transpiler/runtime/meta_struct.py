"""The Meta struct of a specialization unit: each Meta member's value (evaluated in Python) as a
line of C++, and the structs nested in it for Constexpr arguments that are objects of a class
with a `@cute.jit __call__` and for kernel objects built in DSL code.

Constexpr arguments that are instances of a translated class with a `@cute.jit __call__`
(`cute.compile(bmm, gemm, a, b, c, stream)` where `bmm` calls `gemm_op(a, b, c, stream)`): the
DSL traces the call into the instance's `__call__`. In C++ the instance becomes a functor type
nested in the caller's Meta struct: its own Meta (the instance's configuration, evaluated with
`self` = the instance) and an `operator()` taking the Python-order arguments that calls the
generated `__call__` for that Meta, with the stream moved last as generated host functions take
it. Trailing arguments left at their defaults are filled in (a `lambda` default is traced by the
translation of `__call__`).

`object_struct` renders the same Meta for a kernel object built in DSL code
(bbx.lowering.kernel_objects): a struct nested in the caller's Meta, which the caller passes to
the generated `__call__` of the object's class (of its own module or another).
"""

from __future__ import annotations

import inspect
import math
from typing import Any

from ..analysis import meta
from ..cxx.literals import (
    INT_MAX,
    INT_MIN,
    int_value_text,
    static_int_text,
    static_int_type_text,
)
from ..lowering.names import cxx_name
from ..translate import FunctionInfo, TranslationResult, module_namespace
from .argspec import is_lambda, jit_call_of
from .dtypes import dtype as dtype_info
from .dtypes import from_torch
from .module_translation import translate_module


class SpecializationError(ValueError):
    """A value handed to a jit function cannot be expressed in the generated C++."""


def cxx_type(dtype_name: str) -> str:
    """The C++ element type of a dtype (from the dtype table, bbx.dsl.numeric)."""
    return dtype_info(dtype_name).cxx


def _cxx_literal(value: Any, what: str) -> tuple[str, str]:
    """(C++ type, literal) of a Python bool/int/float."""
    if isinstance(value, bool):
        return "bool", "true" if value else "false"
    if isinstance(value, int):
        if INT_MIN <= value <= INT_MAX:
            return "int", str(value)
        return ("std::uint64_t" if value >= 2**63 else "std::int64_t"), int_value_text(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SpecializationError(f"{what} is {value}, which has no C++ literal here")
        return "float", repr(value) + ("f" if "e" in repr(value) or "." in repr(value) else ".0f")
    raise SpecializationError(f"{what} is {value!r} ({type(value).__name__}); only bool, int and "
                              "float meta values reach C++")


def _static_tuple(value: Any, what: str) -> str:
    """A Python tuple of ints (nested; None for `_`) as a static C++ tuple, as the DSL sees a
    tuple held in configuration: every leaf is a compile-time constant."""
    if isinstance(value, tuple):
        return f"bbx::make_tuple({', '.join(_static_tuple(v, what) for v in value)})"
    if value is None:
        return "bbx::_"
    if isinstance(value, bool):
        return f"bbx::C<{'true' if value else 'false'}>{{}}"
    if isinstance(value, int):
        return static_int_text(value)
    raise SpecializationError(f"{what} holds {value!r} ({type(value).__name__}); a tuple meta "
                              "value reaches C++ only with int, bool and None leaves")


def _dtype_of_type_value(value: Any, what: str) -> str:
    name = getattr(value, "bbx_dtype", None)
    if isinstance(name, str):
        return cxx_type(name)
    try:
        return cxx_type(from_torch(value).name)
    except (ValueError, TypeError, AttributeError):
        pass
    raise SpecializationError(f"{what} is {value!r}, not a numeric type")


def meta_member_line(member: meta.MetaMember, value: Any) -> str:
    what = f"Meta member {member.name} (= {member.expr})"
    if member.kind == meta.OBJECT:  # a kernel object built in DSL code: its own Meta, nested
        try:
            return object_struct(member.name, value)
        except CallableArgError as exc:
            raise SpecializationError(f"{what}: {exc}") from None
    if member.kind == meta.STATIC_INT:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SpecializationError(f"{what} must be an int, got {value!r}")
        return f"using {member.name} = {static_int_type_text(value)};"
    if member.kind == meta.TYPE:
        return f"using {member.name} = {_dtype_of_type_value(value, what)};"
    if member.kind == meta.BOOL:
        return f"static constexpr bool {member.name} = {'true' if value else 'false'};"
    if member.kind == meta.STRING:
        return f"// {member.name} = {value!r} (a string, used only at translation time)"
    if member.kind == meta.TUPLE and not isinstance(value, tuple):
        raise SpecializationError(f"{what} must be a tuple of ints, got {value!r}")
    if isinstance(value, tuple) and member.kind in (meta.VALUE, meta.TUPLE):
        return f"static constexpr auto {member.name} = {_static_tuple(value, what)};"
    ctype, literal = _cxx_literal(float(value) if member.kind == meta.FLOAT else value, what)
    return f"static constexpr {ctype} {member.name} = {literal};"


def evaluate_meta(members: tuple[meta.MetaMember, ...], namespace: dict[str, Any],
                  scope: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for member in members:
        try:
            values[member.name] = eval(  # noqa: S307 - the user's own module-level expression
                compile(member.expr, f"<meta {member.name}>", "eval"), namespace, scope
            )
        except Exception as exc:
            raise SpecializationError(
                f"cannot evaluate Meta member {member.name} = `{member.expr}`: "
                f"{type(exc).__name__}: {exc}"
            ) from None
    return values


class CallableArgError(ValueError):
    """The instance's class cannot be called from the generated code."""


def _callee(translation: TranslationResult, cls: type) -> FunctionInfo:
    wanted = (cls.__name__, "__call__")
    for info in translation.functions:
        if info.role == "host" and (info.class_name, info.python_name) == wanted:
            return info
    raise CallableArgError(
        f"{cls.__qualname__}.__call__ is not translated with the function that calls it "
        "(a Constexpr callable must be a class of the same module)"
    )


def functor_lines(name: str, value: Any, translation: TranslationResult) -> list[str]:
    """Lines of the nested `<name>_meta` and `<name>_fn` structs (inside the caller's Meta)."""
    call = jit_call_of(value)
    assert call is not None
    info = _callee(translation, type(value))
    python_fn = inspect.unwrap(call.__wrapped__)
    values = evaluate_meta(info.all_meta, getattr(python_fn, "__globals__", {}), {"self": value})
    members = {m.name: m for m in info.all_meta}
    meta = [meta_member_line(members[n], v) for n, v in values.items()]
    params = list(inspect.signature(python_fn).parameters.values())[1:]  # after self
    cxx_order = [p.name for p in info.params]
    if info.stream_param is not None:
        cxx_order.append(info.stream_param)
    base = cxx_name(name)
    function = f"bbx_gen::{module_namespace(translation.path)}::{info.cxx_name}<{base}_meta>"
    lines = [f"struct {base}_meta {{", *(f"  {line}" for line in meta), "};",
             f"struct {base}_fn {{  // {type(value).__qualname__}.__call__"]
    required = sum(1 for p in params if p.default is inspect.Parameter.empty)
    for given in range(required, len(params) + 1):
        names = [p.name for p in params[:given]]
        args: dict[str, str] = {n: f"a{i}" for i, n in enumerate(names)}
        for p in params[given:]:
            args[p.name] = _default_expr(p, type(value))
        template = ", ".join(f"class A{i}" for i in range(given))
        formals = ", ".join(f"A{i} const& a{i}" for i in range(given))
        actual = ", ".join(args[n] for n in cxx_order)
        if given:
            lines.append(f"  template <{template}>")
        lines.append(f"  void operator()({formals}) const {{ {function}({actual}); }}")
    lines.append("};")
    return lines


def _default_expr(param: inspect.Parameter, cls: type) -> str:
    if is_lambda(param.default):
        return "bbx::python_only_value{}"  # traced from the source by the callee's translation
    default = param.default
    if isinstance(default, bool):
        return f"bbx::C<{'true' if default else 'false'}>{{}}"
    if isinstance(default, int):
        return static_int_text(default)
    raise CallableArgError(
        f"{cls.__qualname__}.__call__: argument '{param.name}' left at its default {default!r} "
        "when called from generated code; pass it explicitly"
    )


def object_struct(name: str, value: Any) -> str:
    """The struct `name` (nested in a caller's Meta) of a kernel object built in DSL code: the
    Meta members of its class's generated `__call__`, evaluated with `self` = the object."""
    call = jit_call_of(value)
    if call is None:
        raise CallableArgError(f"{value!r} is not an object of a class with a @cute.jit __call__")
    cls = type(value)
    translation = translate_module(call.source_file)
    info = next((f for f in translation.functions if f.role == "host" and f.python_name ==
                 "__call__" and f.class_name == cls.__name__), None)
    if info is None:
        raise CallableArgError(f"{cls.__qualname__}.__call__ was not translated "
                               f"({call.source_file})")
    python_fn = inspect.unwrap(call.__wrapped__)
    try:
        values = evaluate_meta(info.all_meta, getattr(python_fn, "__globals__", {}),
                               {"self": value})
    except SpecializationError as exc:
        raise CallableArgError(
            f"{exc} (the Meta of {cls.__qualname__}.__call__ may only read `self` and module "
            "names when the object is built in DSL code)") from None
    members = {m.name: m for m in info.all_meta}
    lines = [meta_member_line(members[n], v) for n, v in values.items()]
    body = "".join(f"\n    {line}" for line in lines) or "\n    // (no Meta members)"
    return f"struct {name} {{  // {cls.__qualname__} object{body}\n  }};"
