"""The specialization unit: fixes a generic generated function to one configuration.

Given a translated module, one of its host (jit) functions, the object whose config the Meta
members read, and the ArgSpecs of a call, this evaluates every Meta member in Python, chooses the
C++ form of each argument (static extents become `Int<N>`, dynamic ones the tensor's index type:
`int`, or `std::int64_t` for a tensor whose offsets need 64 bits), and renders
`templates/specialization.cpp.j2`: the Meta struct plus a C entry point (bbx/platform/abi.h) that
turns the launcher's checked ABI entries into bbx tensors and calls the generated function.
Compiled with `-DBBX_DEVICE_ONLY_UNIT` the same unit instead explicitly instantiates the generated
function for the arguments' C++ types (`ArgBinding.cxx_type`) (`bbx build`).
"""

from __future__ import annotations

import hashlib
import json
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

import jinja2

from .. import __version__
from ..cxx.literals import (
    INT_MAX,
    INT_MIN,
    float_literal,
    static_int_text,
)
from ..cxx.printer import expr_text
from ..dsl import REGISTRY
from ..dsl.entry import Functor
from ..lowering.names import cxx_name
from ..paths import templates_dir
from ..targets.backend import Backend
from ..translate import FunctionInfo, TranslationResult, module_namespace
from .argspec import (
    DEFAULT_LAMBDA,
    ArgSpec,
    ConstexprSpec,
    Dyn,
    PointerSpec,
    ScalarSpec,
    StreamSpec,
    TensorSpec,
    jit_call_of,
)
from .dtypes import dtype as dtype_info
from .meta_struct import (
    CallableArgError,
    SpecializationError,
    cxx_type,
    functor_lines,
    meta_member_line,
)

_OPERATOR_FUNCTORS = {
    getattr(operator, name.split(".")[1]): entry.cxx
    for name, entry in REGISTRY.entries()
    if name.startswith("operator.") and isinstance(entry, Functor)
} | {max: "maximum", min: "minimum"}


UNIT_TEMPLATE = "specialization.cpp.j2"


@dataclass(frozen=True)
class ArgBinding:
    name: str
    spec: str
    setup: tuple[str, ...]
    expr: str  # the C++ expression passed to the generated function
    cxx_type: str = ""  # the C++ type of `expr` (for the device-only explicit instantiation)

    @property
    def type_alias(self) -> str:
        return f"Arg_{argument_identifier(self.name)}"


def argument_identifier(name: str) -> str:
    """The C++ name of argument `name` in the unit: element i of a sequence argument
    (`inputs[i]`, argspec.element_name) is `inputs_i`, as the generated function names it."""
    return cxx_name(re.sub(r"\[(\d+)\]", r"_\1", name))


@dataclass(frozen=True)
class Unit:
    """A specialization unit: rendered from its template only when its text is needed (a build);
    `key` identifies the text without rendering it (the warm path of a call never renders)."""

    inputs: dict[str, Any] = field(compare=False)  # the template's variables
    module_name: str
    meta_values: dict[str, str]  # member -> the C++ it was given (part of the cache key)

    @cached_property
    def text(self) -> str:
        return _unit_template().render(**self.inputs)

    @cached_property
    def key(self) -> str:
        """sha256 of the template and its variables: equal keys render equal texts."""
        canonical = json.dumps(self.inputs, sort_keys=True, default=_canonical)
        return hashlib.sha256(f"{_template_digest()}|{canonical}".encode()).hexdigest()


def _canonical(value: Any) -> Any:
    if isinstance(value, ArgBinding):
        return [value.name, value.spec, list(value.setup), value.expr, value.cxx_type]
    raise TypeError(f"no canonical form for {type(value).__name__}")


@cache
def _unit_template() -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined, autoescape=False,
    )
    return env.get_template(UNIT_TEMPLATE)


@cache
def _template_digest() -> str:
    return hashlib.sha256((templates_dir() / UNIT_TEMPLATE).read_bytes()).hexdigest()


def _static(value: int, wide: bool) -> str:
    """A static extent or stride; in a 64-bit-offset tensor a stride that would overflow `int`
    arithmetic is a 64-bit static integer, so that products with it are 64-bit."""
    if wide and value not in (0, 1) and INT_MIN <= value <= INT_MAX:
        return f"bbx::C<std::int64_t{{{value}}}>{{}}"
    return static_int_text(value)  # 64-bit beyond `int` either way


def _dims(dims: tuple[int | Dyn, ...], runtime: str, wide_static: bool) -> list[str]:
    """C++ expressions of a tensor's extents or strides; `runtime` formats a dynamic one."""
    return [_static(d, wide_static) if isinstance(d, int) else runtime.format(mode=i)
            for i, d in enumerate(dims)]


def bind_tensor(index: int, name: str, spec: TensorSpec) -> ArgBinding:
    ctype = cxx_type(spec.dtype)
    index_type = "std::int64_t" if spec.index_bits == 64 else "int"
    wide = spec.index_bits == 64
    ident = argument_identifier(name)
    entry = f"a_{ident}"
    ext = _dims(spec.shape, f"bbx::abi::extent<{index_type}>({entry}, {{mode}})", False)
    strides = _dims(spec.stride, f"bbx::abi::stride<{index_type}>({entry}, {{mode}})", wide)
    layout = (f"bbx::make_layout(bbx::make_shape({', '.join(ext)}), "
              f"bbx::make_stride({', '.join(strides)}))")
    pointer = f"bbx::make_gmem_ptr<{spec.align}>(bbx::abi::data<{ctype}>({entry}))"
    setup = (
        f"const bbx_abi_tensor& {entry} = bbx_args_[{index}].tensor;",
        f"const bbx::abi::SimSpan {ident}_span({entry}.data, {entry}.bytes);",
        f"auto {ident} = bbx::make_tensor({pointer},",
        f"                {layout});",
    )
    type_ext = _dims(spec.shape, f"{index_type}{{{{}}}}", False)
    type_strides = _dims(spec.stride, f"{index_type}{{{{}}}}", wide)
    type_layout = (f"bbx::make_layout(bbx::make_shape({', '.join(type_ext)}), "
                   f"bbx::make_stride({', '.join(type_strides)}))")
    cxx = (f"decltype(bbx::make_tensor(bbx::make_gmem_ptr<{spec.align}>"
           f"(static_cast<{ctype}*>(nullptr)), {type_layout}))")
    return ArgBinding(name, str(spec), setup, ident, cxx)


def bind_constexpr(name: str, spec: ConstexprSpec, traced: bool = False) -> ArgBinding:
    binding = _bind_constexpr_value(name, spec, traced)
    return ArgBinding(binding.name, binding.spec, binding.setup, binding.expr,
                      f"decltype({binding.expr})")


def operator_functor(value: Any) -> str | None:
    """bbx's functor for `operator.*`, min and max, else None."""
    try:
        return _OPERATOR_FUNCTORS.get(value) if callable(value) else None
    except TypeError:  # an unhashable callable
        return None


def _bind_constexpr_value(name: str, spec: ConstexprSpec, traced: bool = False) -> ArgBinding:
    value = spec.value
    if spec.key == DEFAULT_LAMBDA or traced:  # the translation traces the function
        return ArgBinding(name, str(spec), (), "bbx::python_only_value{}")
    functor = operator_functor(value)
    if functor is not None:
        return ArgBinding(name, str(spec), (), f"bbx::{functor}{{}}")
    if isinstance(value, bool):
        return ArgBinding(name, str(spec), (), f"bbx::C<{'true' if value else 'false'}>{{}}")
    if isinstance(value, int):
        return ArgBinding(name, str(spec), (), static_int_text(value))
    if isinstance(value, float):  # a compile-time float, as the DSL's Python float (f32 in C++)
        return ArgBinding(name, str(spec), (), f"bbx::C<{expr_text(float_literal(value))}>{{}}")
    if getattr(value, "bbx_dtype", None) is not None:
        return ArgBinding(name, str(spec), (), f"bbx::type_c<{cxx_type(value.bbx_dtype)}>{{}}")
    if callable(value):
        raise SpecializationError(
            f"Constexpr argument {name} = {value!r} cannot be passed from host Python: bbx "
            "traces functions and lambdas written at module level of the jit function's own "
            "module (or a functools.partial of one with literal arguments) and passes "
            "operator.* functions and min/max; this one is from another module, nested, or "
            "captures variables"
        )
    # Strings, None, tuples, objects: only their Meta members (e.g. `mode == "relu"`) reach C++.
    return ArgBinding(name, str(spec), (), "bbx::python_only_value{}")


def _callable_binding(name: str, spec: ArgSpec, meta_name: str) -> ArgBinding:
    """A Constexpr instance with a jit `__call__`: its functor, nested in the Meta struct
    (bbx.runtime.meta_struct)."""
    expr = f"{meta_name}::{cxx_name(name)}_fn{{}}"
    return ArgBinding(name, str(spec), (), expr, f"decltype({expr})")


def bind_argument(index: int, name: str, spec: ArgSpec, traced: bool = False) -> ArgBinding:
    """How the entry point turns ABI entry `index` into the C++ argument `name` (`traced`: a
    Python function the translation traces, which passes no value)."""
    if isinstance(spec, TensorSpec):
        return bind_tensor(index, name, spec)
    if isinstance(spec, ScalarSpec):
        ctype = cxx_type(spec.dtype)
        field = "f" if dtype_info(spec.dtype).is_float else "i"
        var = argument_identifier(name)
        setup = f"const auto {var} = static_cast<{ctype}>(bbx_args_[{index}].{field});"
        return ArgBinding(name, str(spec), (setup,), var, ctype)
    if isinstance(spec, ConstexprSpec):
        return bind_constexpr(name, spec, traced)
    if isinstance(spec, StreamSpec):
        return ArgBinding(name, str(spec), (), "bbx::Stream{bbx_stream_}", "bbx::Stream")
    if isinstance(spec, PointerSpec):
        ctype = cxx_type(spec.dtype)
        var = argument_identifier(name)
        # its extent is unknown: the simulator's launch bounds check nothing while it runs
        pointer_setup = (f"const auto {var} = bbx::make_gmem_ptr<{spec.align}>("
                         f"bbx::abi::data<{ctype}>(bbx_args_[{index}]));",
                         f"const bbx::abi::SimUnbounded {var}_unbounded{{}};")
        cxx = f"decltype(bbx::make_gmem_ptr<{spec.align}>(static_cast<{ctype}*>(nullptr)))"
        return ArgBinding(name, str(spec), pointer_setup, var, cxx)
    raise SpecializationError(f"argument {name}: unsupported spec {spec}")


def render_unit(translation: TranslationResult, function: FunctionInfo, hip_name: str,
                meta_values: dict[str, Any], specs: dict[str, ArgSpec], target: Backend,
                summary: str, traced: set[str] | None = None) -> Unit:
    """The unit of one specialization; `traced`: Constexpr parameters given Python functions
    that the translation traced (bbx.runtime.host_callables)."""
    traced = traced or set()
    members = {m.name: m for m in function.all_meta}
    meta_lines = [meta_member_line(members[name], value) for name, value in meta_values.items()]
    callables = {name: spec.value for name, spec in specs.items()
                 if isinstance(spec, ConstexprSpec) and jit_call_of(spec.value) is not None}
    for name, value in callables.items():
        try:
            meta_lines += functor_lines(name, value, translation)
        except CallableArgError as exc:
            raise SpecializationError(f"Constexpr argument {name}: {exc}") from None
    unit = UnitFunction(module_namespace(translation.path), translation.sha256,
                        function.cxx_name, function.stream_param)
    return _render(unit, hip_name, meta_lines, specs, target, summary,
                   lambda i, name, spec, meta_name: (
                       _callable_binding(name, spec, meta_name) if name in callables
                       else bind_argument(i, name, spec, name in traced)),
                   dict(zip(meta_values, meta_lines, strict=False)))  # functor lines follow


@dataclass(frozen=True)
class UnitFunction:
    """The generated function a unit calls: `bbx_gen::<namespace>::<cxx_name><Meta>(...)`."""

    namespace: str
    source_sha256: str  # of the text it is generated from (part of the module's name)
    cxx_name: str
    stream_param: str | None


def render_staged_unit(function: UnitFunction, hip_name: str, specs: dict[str, ArgSpec],
                       target: Backend, summary: str) -> Unit:
    """The unit of a traced specialization (bbx.runtime.staged): no Meta members, every
    Constexpr a value of the trace."""
    return _render(function, hip_name, [], specs, target, summary,
                   lambda i, name, spec, meta_name: bind_argument(i, name, spec, True), {},
                   constexpr_passed=False)


def _render(function: UnitFunction, hip_name: str, meta_lines: list[str],
            specs: dict[str, ArgSpec], target: Backend, summary: str,
            bind: Callable[[int, str, ArgSpec, str], ArgBinding],
            member_lines: dict[str, str], constexpr_passed: bool = True) -> Unit:
    """`constexpr_passed`: whether the generated function takes the Constexpr arguments (a
    translated one does, as static values; a traced one has them in its code)."""
    meta_name = "Meta_" + hashlib.sha256("\n".join(meta_lines).encode()).hexdigest()[:8]
    bindings = [bind(i, name, spec, meta_name) for i, (name, spec) in enumerate(specs.items())
                if name != function.stream_param]
    namespace = function.namespace
    passed = [b for b in bindings if not isinstance(specs[b.name], StreamSpec)
              and (constexpr_passed or not isinstance(specs[b.name], ConstexprSpec))]
    call_args = [b.expr for b in passed]
    function_name = f"bbx_gen::{namespace}::{function.cxx_name}<{meta_name}>"
    call = f"{function_name}({', '.join([*call_args, 'bbx::Stream{bbx_stream_}'])})"
    # The remaining template arguments are deduced from the parameter types.
    instantiation = (f"template void {function_name}("
                     f"{', '.join([*(b.type_alias for b in passed), 'bbx::Stream'])});")
    digest = hashlib.sha256(
        f"{function.source_sha256}|{function.cxx_name}|{meta_lines}|{specs}|{target.name}".encode()
    ).hexdigest()[:16]
    module_name = f"bbx_{namespace}_{digest}"
    inputs = dict(
        version=__version__, summary=summary, target=target.name, hip_name=hip_name,
        meta_name=meta_name, meta_lines=meta_lines or ["// (no Meta members)"],
        args=bindings, typed_args=passed, call=call, module_name=module_name,
        instantiation=instantiation,
    )
    return Unit(inputs, module_name, member_lines)
