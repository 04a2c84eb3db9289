"""The specialization unit: fixes a generic generated function to one configuration.

Given a translated module, one of its host (jit) functions, the object whose config the Meta
members read, and the ArgSpecs of a call, this evaluates every Meta member in Python, chooses the
C++ form of each argument (static extents become `Int<N>`, dynamic ones `int`), and renders
`templates/specialization.cpp.j2`: the Meta struct plus a pybind11 entry point that turns
(address, extents, strides) tuples into bbx tensors and calls the generated function. Compiled
with `-DBBX_DEVICE_ONLY_UNIT` the same unit instead explicitly instantiates the generated function
for the arguments' C++ types (`ArgBinding.cxx_type`), with no pybind11 (`bbx build`).
"""

from __future__ import annotations

import hashlib
import math
import operator
from dataclasses import dataclass
from typing import Any

import jinja2

from .. import __version__, meta
from ..cxx_names import cxx_name
from ..dsl_api import FUNCTORS
from ..paths import templates_dir
from ..translate import FunctionInfo, TranslationResult, module_namespace
from .argspec import ArgSpec, ConstexprSpec, Dyn, PointerSpec, ScalarSpec, StreamSpec, TensorSpec
from .dtypes import dtype as dtype_info

CXX_TYPES = {
    "f16": "bbx::half_t", "bf16": "bbx::bfloat16_t", "f32": "float", "f64": "double",
    "i8": "std::int8_t", "i16": "std::int16_t", "i32": "std::int32_t", "i64": "std::int64_t",
    "u8": "std::uint8_t", "u16": "std::uint16_t", "u32": "std::uint32_t",
    "u64": "std::uint64_t", "bool": "bool",
}  # fmt: skip

_OPERATOR_FUNCTORS = {
    getattr(operator, name.split(".")[1]): functor
    for name, functor in FUNCTORS.items()
    if name.startswith("operator.") and hasattr(operator, name.split(".")[1])
} | {max: "maximum", min: "minimum"}


class SpecializationError(ValueError):
    """A value handed to a jit function cannot be expressed in the generated C++."""


@dataclass(frozen=True)
class ArgBinding:
    name: str
    spec: str
    setup: tuple[str, ...]
    expr: str  # the C++ expression passed to the generated function
    cxx_type: str = ""  # the C++ type of `expr` (for the device-only explicit instantiation)

    @property
    def type_alias(self) -> str:
        return f"Arg_{self.name}"


@dataclass(frozen=True)
class Unit:
    text: str
    module_name: str
    meta_values: dict[str, str]  # member -> the C++ it was given (part of the cache key)


def cxx_type(dtype_name: str) -> str:
    return CXX_TYPES[dtype_name]


def _cxx_literal(value: Any, what: str) -> tuple[str, str]:
    """(C++ type, literal) of a Python bool/int/float."""
    if isinstance(value, bool):
        return "bool", "true" if value else "false"
    if isinstance(value, int):
        return ("int" if -(2**31) <= value < 2**31 else "long long"), str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SpecializationError(f"{what} is {value}, which has no C++ literal here")
        return "float", repr(value) + ("f" if "e" in repr(value) or "." in repr(value) else ".0f")
    raise SpecializationError(f"{what} is {value!r} ({type(value).__name__}); only bool, int and "
                              "float meta values reach C++")


def _dtype_of_type_value(value: Any, what: str) -> str:
    name = getattr(value, "bbx_dtype", None)
    if isinstance(name, str):
        return cxx_type(name)
    try:
        from .dtypes import from_torch

        return cxx_type(from_torch(value).name)
    except (ValueError, TypeError, AttributeError):
        pass
    raise SpecializationError(f"{what} is {value!r}, not a numeric type")


def meta_member_line(member: meta.MetaMember, value: Any) -> str:
    what = f"Meta member {member.name} (= {member.expr})"
    if member.kind == meta.STATIC_INT:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SpecializationError(f"{what} must be an int, got {value!r}")
        return f"using {member.name} = bbx::Int<{value}>;"
    if member.kind == meta.TYPE:
        return f"using {member.name} = {_dtype_of_type_value(value, what)};"
    if member.kind == meta.BOOL:
        return f"static constexpr bool {member.name} = {'true' if value else 'false'};"
    if member.kind == meta.STRING:
        return f"// {member.name} = {value!r} (a string, used only at translation time)"
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


def _dim(value: int | Dyn, runtime: str) -> str:
    return f"bbx::Int<{value}>{{}}" if isinstance(value, int) else runtime


def bind_tensor(index: int, name: str, spec: TensorSpec) -> ArgBinding:
    ctype = cxx_type(spec.dtype)
    ext = [_dim(d, f"extent(a_{name}[1], {i})") for i, d in enumerate(spec.shape)]
    strides = [_dim(d, f"extent(a_{name}[2], {i})") for i, d in enumerate(spec.stride)]
    setup = [f"py::tuple a_{name} = args[{index}];"]
    setup.append("#if defined(BBX_TARGET_CPU)")
    setup.append(f"bbx::sim::ScopedAllocation {name}_span(data_pointer<{ctype}>(a_{name}[0]), "
                 f"a_{name}[3].cast<std::size_t>());")
    setup.append("#endif")
    layout = (f"bbx::make_layout(bbx::make_shape({', '.join(ext)}), "
              f"bbx::make_stride({', '.join(strides)}))")
    pointer = f"bbx::make_gmem_ptr<{spec.align}>(data_pointer<{ctype}>(a_{name}[0]))"
    setup.append(f"auto {cxx_name(name)} = bbx::make_tensor({pointer},")
    setup.append(f"                {layout});")
    type_ext = [_dim(d, "int{}") for d in spec.shape]
    type_strides = [_dim(d, "int{}") for d in spec.stride]
    type_layout = (f"bbx::make_layout(bbx::make_shape({', '.join(type_ext)}), "
                   f"bbx::make_stride({', '.join(type_strides)}))")
    cxx = (f"decltype(bbx::make_tensor(bbx::make_gmem_ptr<{spec.align}>"
           f"(static_cast<{ctype}*>(nullptr)), {type_layout}))")
    return ArgBinding(name, str(spec), tuple(setup), cxx_name(name), cxx)


def bind_constexpr(name: str, spec: ConstexprSpec) -> ArgBinding:
    binding = _bind_constexpr_value(name, spec)
    return ArgBinding(binding.name, binding.spec, binding.setup, binding.expr,
                      f"decltype({binding.expr})")


def _bind_constexpr_value(name: str, spec: ConstexprSpec) -> ArgBinding:
    value = spec.value
    functor = _OPERATOR_FUNCTORS.get(value) if callable(value) else None
    if functor is not None:
        return ArgBinding(name, str(spec), (), f"bbx::{functor}{{}}")
    if isinstance(value, bool):
        return ArgBinding(name, str(spec), (), f"bbx::C<{'true' if value else 'false'}>{{}}")
    if isinstance(value, int):
        return ArgBinding(name, str(spec), (), f"bbx::Int<{value}>{{}}")
    if getattr(value, "bbx_dtype", None) is not None:
        return ArgBinding(name, str(spec), (), f"bbx::type_c<{cxx_type(value.bbx_dtype)}>{{}}")
    if callable(value):
        raise SpecializationError(
            f"Constexpr argument {name} = {value!r} cannot be passed from host Python: bbx passes "
            "operator.* functions and min/max; pass other callables from inside a @cute.jit "
            "function, where bbx translates them"
        )
    # Strings, None, tuples, objects: only their Meta members (e.g. `mode == "relu"`) reach C++.
    return ArgBinding(name, str(spec), (), "bbx::python_only_value{}")


def bind_argument(index: int, name: str, spec: ArgSpec) -> ArgBinding:
    if isinstance(spec, TensorSpec):
        return bind_tensor(index, name, spec)
    if isinstance(spec, ScalarSpec):
        ctype = cxx_type(spec.dtype)
        caster = "double" if dtype_info(spec.dtype).is_float else "long long"
        var = cxx_name(name)
        setup = f"const auto {var} = static_cast<{ctype}>(args[{index}].cast<{caster}>());"
        return ArgBinding(name, str(spec), (setup,), var, ctype)
    if isinstance(spec, ConstexprSpec):
        return bind_constexpr(name, spec)
    if isinstance(spec, StreamSpec):
        return ArgBinding(name, str(spec), (), "bbx::Stream{stream}", "bbx::Stream")
    if isinstance(spec, PointerSpec):
        ctype = cxx_type(spec.dtype)
        setup = (f"const auto {cxx_name(name)} = "
                 f"bbx::make_gmem_ptr<{spec.align}>(data_pointer<{ctype}>(args[{index}]));")
        cxx = f"decltype(bbx::make_gmem_ptr<{spec.align}>(static_cast<{ctype}*>(nullptr)))"
        return ArgBinding(name, str(spec), (setup,), cxx_name(name), cxx)
    raise SpecializationError(f"argument {name}: unsupported spec {spec}")


def render_unit(translation: TranslationResult, function: FunctionInfo, hip_name: str,
                meta_values: dict[str, Any], specs: dict[str, ArgSpec], target: str,
                summary: str) -> Unit:
    members = {m.name: m for m in function.all_meta}
    meta_lines = [meta_member_line(members[name], value) for name, value in meta_values.items()]
    bindings = [bind_argument(i, name, spec) for i, (name, spec) in enumerate(specs.items())
                if name != function.stream_param]
    namespace = module_namespace(translation.path)
    passed = [b for b in bindings if not isinstance(specs[b.name], StreamSpec)]
    call_args = [b.expr for b in passed]
    meta_name = "Meta_" + hashlib.sha256("\n".join(meta_lines).encode()).hexdigest()[:8]
    function_name = f"bbx_gen::{namespace}::{function.cxx_name}<{meta_name}>"
    call = f"{function_name}({', '.join([*call_args, 'bbx::Stream{stream}'])})"
    # The remaining template arguments are deduced from the parameter types.
    instantiation = (f"template void {function_name}("
                     f"{', '.join([*(b.type_alias for b in passed), 'bbx::Stream'])});")
    digest = hashlib.sha256(
        f"{translation.sha256}|{function.cxx_name}|{meta_lines}|{specs}|{target}".encode()
    ).hexdigest()[:16]
    module_name = f"bbx_{namespace}_{digest}"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined, autoescape=False,
    )
    text = env.get_template("specialization.cpp.j2").render(
        version=__version__, summary=summary, target=target, hip_name=hip_name,
        meta_name=meta_name, meta_lines=meta_lines or ["// (no Meta members)"],
        args=bindings, typed_args=passed, call=call, module_name=module_name,
        instantiation=instantiation,
    )
    return Unit(text, module_name, {n: line for n, line in zip(meta_values, meta_lines,
                                                                strict=True)})
