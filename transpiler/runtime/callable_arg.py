"""Constexpr arguments that are instances of a translated class with a `@cute.jit __call__`
(`cute.compile(bmm, gemm, a, b, c, stream)` where `bmm` calls `gemm_op(a, b, c, stream)`).

The DSL traces the call into the instance's `__call__`. In C++ the instance becomes a functor type
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
from typing import Any

from ..cxx.literals import static_int_text
from ..lowering.names import cxx_name
from ..translate import FunctionInfo, TranslationResult, module_namespace
from .argspec import is_lambda, jit_call_of


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
    from .specialize import evaluate_meta, meta_member_line  # the unit's Meta rendering

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
    from .dispatch import translate_module  # the module's translation, as calls use it
    from .specialize import SpecializationError, evaluate_meta, meta_member_line

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
