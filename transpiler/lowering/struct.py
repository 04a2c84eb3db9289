"""`@cute.struct` classes: a namespace-scope C++ template with one member per field, and an alias
that fills in the field descriptors where the class is defined (bbx/tensor/smem_struct.hpp).

    @cute.struct                        template <class SAField, class MbarField>
    class SharedStorage:                struct SharedStorage_struct {
        sA: cute.struct.MemRange[T, n]    alignas(field_align_v<SAField>) field_t<SAField> sA;
        mbar: cutlass.Int64       ->      alignas(field_align_v<MbarField>) field_t<MbarField> mbar;
                                        };
                                        using SharedStorage = SharedStorage_struct<
                                            mem_range<T, decltype(n)>, struct_scalar<int64_t>>;

Annotations are evaluated where the class is defined, as the DSL does at trace time: inside a
@cute.jit or @cute.kernel function they may use its values (`cute.cosize(layout)`,
`self.dtype`); at module level they are numeric types, integer literals and module constants.
A class assigns its struct to `self.x` in a @cute.jit method (`self.shared_storage =
SharedStorage`); its kernels that read `self.x` take the type as a template parameter, which
the launch fills in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from ..cxx import ast as c
from ..cxx.printer import type_text
from ..dsl import numeric_type
from ..frontend.discovery import DslFunction
from ..frontend.walk import walk
from .context import ModuleContext
from .expr import static_int_type
from .names import cxx_name
from .signature import camel

MEM_RANGE = "cutlass.cute.struct.MemRange"
ALIGN = "cutlass.cute.struct.Align"


@dataclass(frozen=True)
class Annotations:
    """How the annotations of a struct class are lowered where it is defined."""

    structs: set[str]  # struct classes visible there, by Python name
    dtype: Callable[[cst.BaseExpression], c.CxxType]  # an element / scalar type
    count: Callable[[cst.BaseExpression], c.CxxType]  # a static integer (a size, an alignment)


@dataclass(frozen=True)
class StructField:
    name: str
    annotation: cst.BaseExpression
    template_param: str  # the template parameter standing for the field's descriptor


def struct_fields(mod: ModuleContext, node: cst.ClassDef) -> list[StructField]:
    """The `name: annotation` fields of a @cute.struct class, in order."""
    fields: list[StructField] = []
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else [node.body]
    for stmt in body:
        smalls = (
            stmt.body
            if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite))
            else None
        )
        if smalls is None:
            raise mod.error(
                stmt,
                "struct-field",
                "a @cute.struct class holds annotated fields only",
                "write each field as `name: type`",
            )
        for small in smalls:
            if isinstance(small, cst.Pass) or (
                isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString)
            ):
                continue
            if (
                isinstance(small, cst.AnnAssign)
                and small.value is None
                and isinstance(small.target, cst.Name)
            ):
                name = small.target.value
                fields.append(
                    StructField(name, small.annotation.annotation, camel(name) + "Field")
                )
                continue
            raise mod.error(
                small,
                "struct-field",
                "a @cute.struct class holds annotated fields only",
                "write each field as `name: type` (no default values)",
            )
    if not fields:
        raise mod.error(node, "struct-field", f"@cute.struct class '{node.name.value}' is empty")
    return fields


def field_type(mod: ModuleContext, annotation: cst.BaseExpression, env: Annotations) -> c.CxxType:
    """The field descriptor of an annotation: `struct_scalar<T>`, `mem_range<T, N>`,
    `struct_align<F, A>` or a nested struct's type."""
    if isinstance(annotation, cst.Subscript):
        head = mod.names.resolve(annotation.value)
        args = [e.slice.value for e in annotation.slice if isinstance(e.slice, cst.Index)]
        if head == MEM_RANGE and len(args) == 2:
            return c.Type("mem_range", (env.dtype(args[0]), env.count(args[1])))
        if head == ALIGN and len(args) == 2:
            inner = field_type(mod, args[0], env)
            return c.Type("struct_align", (inner, env.count(args[1])))
        raise mod.error(
            annotation,
            "struct-field",
            f"unsupported struct field type '{mod.code(annotation)}'",
            "use a numeric type, cute.struct.MemRange[dtype, n], cute.struct.Align[field, a] "
            "or another @cute.struct class",
        )
    if isinstance(annotation, cst.Name) and annotation.value in env.structs:
        return c.Type(annotation.value)
    resolved = mod.names.resolve(annotation)
    numeric = numeric_type(resolved)
    if numeric is not None:
        return c.Type("struct_scalar", (c.Type(numeric.cxx),))
    return c.Type("struct_scalar", (env.dtype(annotation),))


def template_name(mod: ModuleContext, name: str, text_of: Callable[[str], str]) -> str:
    """`<Name>_struct`, numbered when two different classes of the module share a name."""
    base = f"{name}_struct"
    candidate, n = base, 2
    while candidate in mod.struct_templates and mod.struct_templates[candidate] != text_of(
        candidate
    ):
        candidate = f"{base}_{n}"
        n += 1
    return candidate


def lower_struct(
    mod: ModuleContext, node: cst.ClassDef, env: Annotations
) -> tuple[str | None, c.Using]:
    """The class's template (None when the module already has the same one) and its alias."""
    fields = struct_fields(mod, node)
    types = tuple(field_type(mod, f.annotation, env) for f in fields)
    line, _ = mod.position(node)

    def text_of(tname: str) -> str:
        params = ", ".join(f"class {f.template_param}" for f in fields)
        members = [
            f"  alignas(field_align_v<{f.template_param}>) field_t<{f.template_param}> "
            f"{cxx_name(f.name)};"
            for f in fields
        ]
        return "\n".join(
            [
                f"// {mod.file_name}:{line}  @cute.struct class {node.name.value}",
                f"template <{params}>",
                f"struct {tname} {{",
                *members,
                "};",
            ]
        )

    tname = template_name(mod, node.name.value, text_of)
    text = text_of(tname)
    fresh = tname not in mod.struct_templates
    mod.struct_templates[tname] = text
    return (text if fresh else None), c.Using(node.name.value, c.Type(tname, types))


def module_struct_sections(mod: ModuleContext) -> list[str]:
    """Namespace-scope code of the module-level @cute.struct classes, in source order."""
    out: list[str] = []
    seen: set[str] = set()

    def dtype(node: cst.BaseExpression) -> c.CxxType:
        resolved = mod.names.resolve(node)
        numeric = numeric_type(resolved)
        if numeric is not None:
            return c.Type(numeric.cxx)
        raise mod.error(
            node,
            "struct-field",
            f"'{mod.code(node)}' is not a numeric type",
            "module-level structs take cutlass numeric types; define the struct inside the "
            "@cute.jit function to use trace-time types",
        )

    def count(node: cst.BaseExpression) -> c.CxxType:
        value = node
        if isinstance(node, cst.Name) and node.value in mod.info.constants:
            value = mod.info.constants[node.value]
        if isinstance(value, cst.Integer):
            return static_int_type(int(value.evaluated_value))
        raise mod.error(
            node,
            "struct-field",
            f"'{mod.code(node)}' is not an integer literal or a module constant holding one",
            "define the struct inside the @cute.jit function to use trace-time values",
        )

    for name, node in mod.info.structs.items():
        template, alias = lower_struct(mod, node, Annotations(seen, dtype, count))
        seen.add(name)
        alias_text = f"using {alias.name} = {type_text(alias.type)};"
        out.append(alias_text if template is None else f"{template}\n{alias_text}")
    return out


def self_attributes_read(fn: DslFunction) -> set[str]:
    """The attributes `self.x` a method reads."""
    params = fn.node.params.params
    if fn.cls is None or not params:
        return set()
    self_name = params[0].name.value
    return {
        node.attr.value
        for node in walk(fn.node.body)
        if isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value == self_name
    }


def kernel_traced_attrs(mod: ModuleContext, fn: DslFunction) -> list[str]:
    """The attributes holding run-time values, set while a host method was traced
    (ModuleContext.traced_attributes), that a kernel reads: its extra parameters, by name."""
    if not fn.is_kernel or fn.cls is None:
        return []
    read = self_attributes_read(fn)
    return sorted(
        attr
        for (cls, attr), traced in mod.traced_attributes.items()
        if cls == fn.cls.name and traced.runtime and attr in read
    )


def kernel_struct_attrs(fn: DslFunction) -> list[str]:
    """The `self.x` struct attributes (DslClass.struct_attrs) a kernel reads: its extra template
    parameters, in the class's order."""
    if not fn.is_kernel or fn.cls is None or not fn.cls.struct_attrs:
        return []
    params = fn.node.params.params
    if not params:
        return []
    self_name = params[0].name.value
    read = {
        node.attr.value
        for node in walk(fn.node.body)
        if isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value == self_name
    }
    return [attr for attr in fn.cls.struct_attrs if attr in read]
