"""The text of an ahead-of-time export (`CompiledFunction.export_to_c`): the C header a caller
includes and the C++ source of the object's C entry points.

The shape follows the CuTe DSL's export (its header, for prefix `add_one`)::

    typedef struct { ... } add_one_Kernel_Module_t;
    void add_one_Kernel_Module_Load(add_one_Kernel_Module_t*);     (bbx: returns int)
    void add_one_Kernel_Module_Unload(add_one_Kernel_Module_t*);
    typedef struct { void* data; int32_t dynamic_shapes[2]; int64_t dynamic_strides[1]; }
        add_one_Tensor_a_t;
    int32_t cute_dsl_add_one_wrapper(add_one_Kernel_Module_t*, add_one_Tensor_a_t* a, ...,
                                     cudaStream_t stream);

bbx differs where its runtime does: the header is plain C with no CUDA header (the stream is a
`bbx_stream_t`, a `void*` that takes a cudaStream_t or hipStream_t, and is unused on the
simulator); every run-time extent and stride is an `int64_t`; the wrapper and the module
functions are defined in the object, not inline in the header; the module holds the message of
the last error (`error`), and the wrapper checks what the specialization assumes of each tensor
(divisibility, alignment, 32-bit offsets) before it calls the specialization's entry point
(`bbx/platform/abi.h`, renamed `<prefix>_bbx_spec_call`; the generated code's namespace is
renamed per export too, so that exports of one source file link into one library).

The object also exports `bbx_aot_<target>__<prefix>`, a JSON description of the
specialization (its arguments as `argspec` spells them) that `cute.runtime.load_module` reads.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .argspec import ArgSpec, ConstexprSpec, PointerSpec, ScalarSpec, StreamSpec, TensorSpec
from .dtypes import dtype as dtype_info
from .specialize import argument_identifier

#: the version of the JSON description (`describe`)
EXPORT_FORMAT = 1
#: the entry points the specialization unit defines (templates/specialization.cpp.j2), renamed
#: per export so that one shared library can link several exported objects
UNIT_SYMBOLS = ("bbx_spec_call", "bbx_spec_prepare", "bbx_spec_abi_version",
                "bbx_spec_set_interrupt")
ERROR_BYTES = 512
#: the namespace of generated code (templates/module.hip.j2), renamed per export
GENERATED_NAMESPACE = "bbx_gen"


def description_symbol(target: str, prefix: str) -> str:
    """The data symbol holding the JSON description of export `prefix` for `target`."""
    return f"bbx_aot_{target}__{prefix}"


DESCRIPTION_SYMBOL = re.compile(r"bbx_aot_(?P<target>[A-Za-z0-9]+)__(?P<prefix>[A-Za-z_]\w*)")


@dataclass(frozen=True)
class Export:
    """One exported specialization."""

    prefix: str  # the C names' prefix (function_prefix)
    function: str  # the jit function's qualified name
    source: str  # its file's name
    target: str
    specs: dict[str, ArgSpec]  # one ABI entry each, in signature order (argspec.flatten)
    file_name: str  # of the header and the object, without suffix

    @property
    def module_type(self) -> str:
        return f"{self.prefix}_Kernel_Module_t"

    def tensor_type(self, name: str) -> str:
        return f"{self.prefix}_Tensor_{argument_identifier(name)}_t"

    @property
    def wrapper(self) -> str:
        return f"cute_dsl_{self.prefix}_wrapper"


def describe(export: Export) -> str:
    """The JSON description `cute.runtime.load_module` reads back."""
    return json.dumps({
        "format": EXPORT_FORMAT, "function": export.function, "source": export.source,
        "target": export.target, "prefix": export.prefix,
        "arguments": [[name, str(spec)] for name, spec in export.specs.items()],
    }, sort_keys=True)


def c_string(text: str) -> str:
    """`text` as a C string literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def scalar_c_type(dtype: str) -> str:
    """The C type a caller passes a scalar of `dtype` as (16-bit floats as float)."""
    info = dtype_info(dtype)
    if info.kind == "bool":
        return "bool"
    if info.is_float:
        return "double" if info.bits == 64 else "float"
    return f"{'u' if info.kind == 'uint' else ''}int{info.bits}_t"


def _dynamic_modes(dims: tuple[Any, ...]) -> list[int]:
    return [i for i, d in enumerate(dims) if not isinstance(d, int)]


def _run_time(export: Export) -> list[tuple[str, ArgSpec]]:
    """The parameters a C caller passes (Constexpr ones are part of the code)."""
    return [(n, s) for n, s in export.specs.items() if not isinstance(s, ConstexprSpec)]


def _dims_text(dims: tuple[Any, ...]) -> str:
    return ", ".join(str(d) if isinstance(d, int) else "?" for d in dims)


def _parameter(export: Export, name: str, spec: ArgSpec) -> str:
    ident = argument_identifier(name)
    if isinstance(spec, TensorSpec):
        return f"{export.tensor_type(name)}* {ident}"
    if isinstance(spec, ScalarSpec):
        return f"{scalar_c_type(spec.dtype)} {ident}"
    if isinstance(spec, PointerSpec):
        return f"void* {ident}"
    if isinstance(spec, StreamSpec):
        return f"bbx_stream_t {ident}"
    raise TypeError(f"no C parameter for {spec}")


def _wrapper_signature(export: Export) -> str:
    params = [f"{export.module_type}* module",
              *(_parameter(export, n, s) for n, s in _run_time(export))]
    return f"int32_t {export.wrapper}({', '.join(params)})"


def _tensor_struct(export: Export, name: str, spec: TensorSpec) -> list[str]:
    shapes, strides = _dynamic_modes(spec.shape), _dynamic_modes(spec.stride)
    lines = [f"/* {name}: {dtype_info(spec.dtype).name} tensor of shape ({_dims_text(spec.shape)})"
             f" and strides ({_dims_text(spec.stride)}) in elements; `?` is given at run time:",
             f" *   dynamic_shapes  = the extents of modes {shapes} (in that order)",
             f" *   dynamic_strides = the strides of modes {strides}",
             f" * data: {spec.align}-byte aligned"
             + ("; offsets must fit 32 bits" if spec.index_bits == 32 else "") + ". */",
             "typedef struct {", "  void* data;"]
    if shapes:
        lines.append(f"  int64_t dynamic_shapes[{len(shapes)}];")
    if strides:
        lines.append(f"  int64_t dynamic_strides[{len(strides)}];")
    lines.append(f"}} {export.tensor_type(name)};")
    return lines


def header_text(export: Export, version: str, link_flags: list[str]) -> str:
    """`<file_name>.h`: plain C (and C++); `link_flags`: what a program linking the object
    adds."""
    guard = re.sub(r"\W", "_", f"BBX_EXPORT_{export.file_name}_H").upper()
    p = export.prefix
    out = [
        f"/* {export.file_name}.h: generated by bbx {version} (CompiledFunction.export_to_c).",
        f" * {export.function} of {export.source}, compiled for target {export.target}.",
        " *",
        f" * Link {export.file_name}.o with the C++ compiler and: {' '.join(link_flags)}",
        " * Use:",
        f" *   {export.module_type} module;",
        f" *   if ({p}_Kernel_Module_Load(&module) != 0) puts(module.error);",
        f" *   if ({export.wrapper}(&module, ...) != 0) puts(module.error);",
        f" *   {p}_Kernel_Module_Unload(&module);",
        " */",
        f"#ifndef {guard}", f"#define {guard}", "",
        "#ifndef __cplusplus", "#include <stdbool.h>", "#endif",
        "#include <stdint.h>", "",
        "#ifndef BBX_STREAM_T_DEFINED", "#define BBX_STREAM_T_DEFINED",
        "/* A cudaStream_t (CUDA) or hipStream_t (AMD); NULL for the default stream. The",
        " * simulator runs kernels on the calling thread and ignores it. */",
        "typedef void* bbx_stream_t;", "#endif", "",
        "#ifdef __cplusplus", 'extern "C" {', "#endif", "",
        f"/* The loaded kernels of {p}; `error` holds the message of the last call that failed. */",
        "typedef struct {", "  int loaded;", f"  char error[{ERROR_BYTES}];",
        f"}} {export.module_type};", "",
        "/* 0, or 1 (with why in module->error) when this process cannot run the kernels, e.g.",
        " * no GPU of the target. */",
        f"int {p}_Kernel_Module_Load({export.module_type}* module);",
        f"void {p}_Kernel_Module_Unload({export.module_type}* module);", "",
    ]
    for name, spec in _run_time(export):
        if isinstance(spec, TensorSpec):
            out += [*_tensor_struct(export, name, spec), ""]
    out += [f"/* Runs {export.function} with:"]
    for name, spec in _run_time(export):
        out.append(f" *   {argument_identifier(name)}: {spec}")
    constexprs = [f"{n} = {s.key}" for n, s in export.specs.items()
                  if isinstance(s, ConstexprSpec)]
    if constexprs:
        out.append(f" * (compiled with {', '.join(constexprs)})")
    out += [" * Returns 0, or 1 with the message in module->error (an argument that does not",
            " * match the specialization, or a kernel or launch error). */",
            f"{_wrapper_signature(export)};", "",
            "#ifdef __cplusplus", "}", "#endif", "", f"#endif  /* {guard} */", ""]
    return "\n".join(out)


def _tensor_setup(index: int, name: str, spec: TensorSpec) -> list[str]:
    ident = argument_identifier(name)
    info = dtype_info(spec.dtype)
    lines = [f"  {{  // {name}: {spec}", f"    bbx_abi_tensor& t = args[{index}].tensor;",
             f"    t.data = {ident}->data;"]
    for field, dims, given in (("shape", spec.shape, "dynamic_shapes"),
                               ("stride", spec.stride, "dynamic_strides")):
        position = 0
        for mode, d in enumerate(dims):
            if isinstance(d, int):
                lines.append(f"    t.{field}[{mode}] = {d};")
                continue
            lines.append(f"    t.{field}[{mode}] = {ident}->{given}[{position}];")
            position += 1
            if d.divisibility > 1:
                lines.append(
                    f"    if (t.{field}[{mode}] % {d.divisibility} != 0) return bbx_aot_fail("
                    f"module->error, \"argument '{name}': {field} of mode {mode} is %lld, "
                    f"which the specialization assumes divisible by {d.divisibility}\", "
                    f"(long long)t.{field}[{mode}]);")
    lines.append(f"    if (!bbx_aot_tensor_fits(module->error, \"{name}\", t, {spec.rank}, "
                 f"{info.size}, {spec.align}, {'true' if spec.index_bits == 32 else 'false'})) "
                 "return 1;")
    lines.append("  }")
    return lines


def _scalar_setup(index: int, name: str, spec: ScalarSpec) -> str:
    field = "f" if dtype_info(spec.dtype).is_float else "i"
    cast = "double" if field == "f" else "std::int64_t"
    return f"  args[{index}].{field} = static_cast<{cast}>({argument_identifier(name)});"


def _helpers() -> str:
    return """namespace {

int bbx_aot_fail(char* error, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Writes the message into the module's error buffer; returns 1 (the wrapper's failure).
int bbx_aot_fail(char* error, const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::vsnprintf(error, BBX_AOT_ERROR_BYTES, format, args);
  va_end(args);
  return 1;
}

// The checks the launcher makes of a tensor before a call, in C: extents not negative, the
// data aligned as promised, 32-bit offsets where the specialization indexes with `int`; and
// the bytes its strides span (the simulator bounds accesses by them).
bool bbx_aot_tensor_fits(char* error, const char* name, bbx_abi_tensor& t, int rank,
                         std::int64_t element_bytes, std::int64_t align, bool offsets32) {
  std::int64_t last = 0;
  bool empty = false;
  for (int m = 0; m < rank; ++m) {
    if (t.shape[m] < 0) {
      bbx_aot_fail(error, "argument '%s': extent of mode %d is negative (%lld)", name, m,
                   static_cast<long long>(t.shape[m]));
      return false;
    }
    if (offsets32 && (t.shape[m] > INT32_MAX || t.stride[m] > INT32_MAX ||
                      t.stride[m] < INT32_MIN)) {
      bbx_aot_fail(error, "argument '%s': mode %d does not fit the specialization's 32-bit "
                   "offsets", name, m);
      return false;
    }
    empty = empty || t.shape[m] == 0;
    std::int64_t stride = t.stride[m] < 0 ? -t.stride[m] : t.stride[m];
    if (t.shape[m] > 0) last += (t.shape[m] - 1) * stride;
  }
  if (offsets32 && last > INT32_MAX) {
    bbx_aot_fail(error, "argument '%s': its strides span %lld elements, past the "
                 "specialization's 32-bit offsets", name, static_cast<long long>(last + 1));
    return false;
  }
  if (reinterpret_cast<std::uintptr_t>(t.data) % static_cast<std::uintptr_t>(align) != 0) {
    bbx_aot_fail(error, "argument '%s': data %p is not %lld-byte aligned, as the "
                 "specialization assumes", name, t.data, static_cast<long long>(align));
    return false;
  }
  t.bytes = empty ? 0 : (last + 1) * element_bytes;
  return true;
}

}  // namespace
"""


def entry_text(export: Export, unit_name: str, version: str) -> str:
    """The C++ of the object: the specialization unit with its entry points renamed, and the
    C functions the header declares."""
    p = export.prefix
    renames = [f"#define {s} {p}_{s}" for s in UNIT_SYMBOLS]
    # The generated code's namespace too: a kernel template traced for two exports (two
    # Constexpr values, say) has one C++ name and one set of types in both, so that a library
    # linking both would keep one body for both (the linker merges template instantiations).
    renames.append(f"#define {GENERATED_NAMESPACE} {GENERATED_NAMESPACE}_{p}")
    undefine = [*UNIT_SYMBOLS, GENERATED_NAMESPACE]
    out = [
        f"// Exported entry points of {export.function} ({export.source}) for target "
        f"{export.target}: generated by bbx {version} (CompiledFunction.export_to_c).",
        *renames, f'#include "{unit_name}"', *(f"#undef {s}" for s in undefine), "",
        "#include <cstdarg>", "#include <cstddef>", "#include <cstdint>", "#include <cstdio>",
        f'#include "{export.file_name}.h"', "",
        f"#define BBX_AOT_ERROR_BYTES {ERROR_BYTES}",
        "", _helpers(),
        f"BBX_SPEC_EXPORT const char {description_symbol(export.target, p)}[] = "
        f"{c_string(describe(export))};", "",
        f"BBX_SPEC_EXPORT int {p}_Kernel_Module_Load({export.module_type}* module) {{",
        "  module->error[0] = '\\0';",
        f"  module->loaded = {p}_bbx_spec_prepare(module->error, sizeof module->error) == 0;",
        "  return module->loaded ? 0 : 1;", "}", "",
        f"BBX_SPEC_EXPORT void {p}_Kernel_Module_Unload({export.module_type}* module) {{",
        "  module->loaded = 0;", "}", "",
        f"BBX_SPEC_EXPORT {_wrapper_signature(export)} {{",
        "  if (!module->loaded) {",
        f"    return bbx_aot_fail(module->error, \"{p}: the module is not loaded (call "
        f"{p}_Kernel_Module_Load first)\");",
        "  }",
        f"  bbx_abi_arg args[{max(len(export.specs), 1)}] = {{}};",
    ]
    stream = "nullptr"
    for index, (name, spec) in enumerate(export.specs.items()):
        if isinstance(spec, TensorSpec):
            out += _tensor_setup(index, name, spec)
        elif isinstance(spec, ScalarSpec):
            out.append(_scalar_setup(index, name, spec))
        elif isinstance(spec, PointerSpec):
            out.append(f"  args[{index}].p = {argument_identifier(name)};")
        elif isinstance(spec, StreamSpec):
            stream = argument_identifier(name)
    out += [f"  return {p}_bbx_spec_call(args, reinterpret_cast<std::uintptr_t>({stream}), "
            "module->error, sizeof module->error);", "}", ""]
    return "\n".join(out)
