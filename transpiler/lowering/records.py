"""Records of DSL values: dataclasses and NamedTuples defined in the module.

While a function is traced, a record is known field by field (`Val.fields`): its Python-level
fields keep their values (a literal `num_threads` stays a compile-time integer), `p.src` is the
field's value, and its methods are helpers with `self` bound to it. Where it crosses into C++
(a kernel argument, a helper's C++ argument) it becomes the struct emitted for its class:

    template <class NumThreads, class Src, class Dst>
    struct CopyParams { NumThreads num_threads; Src src; Dst dst; };

built by `make_CopyParams(num_threads, src, dst)` (bbx.lowering.expr materialises records); in
the receiving function `params.src` is a member access.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..frontend.discovery import DslClass
from .context import ModuleContext
from .expr import ExprLowerer
from .names import cxx_name
from .signature import camel


def record_kind(cls: DslClass) -> Kind:
    return Kind(Cat.RECORD, value=cls.name)


def construct(lw: ExprLowerer, node: cst.Call, cls: DslClass) -> Val:
    """`CopyParams(num_threads=..., src=..., dst=...)`: fields bound like parameters."""
    assert cls.record_fields is not None
    names = [name for name, _ in cls.record_fields]
    given = lw.bind(node, names, f"'{cls.name}'", 0)
    items: list[Val] = []
    for name, default in cls.record_fields:
        expr = given.get(name, default)
        if expr is None:
            raise lw.fc.error(node, "bad-arguments", f"'{cls.name}' needs field '{name}'")
        items.append(lw.lower(expr))
    return Val(record_kind(cls), None, node=node, items=tuple(items), fields=tuple(names))


def struct_text(mod: ModuleContext, cls: DslClass) -> str:
    """The C++ struct template of a record class and its factory."""
    assert cls.record_fields is not None
    line, _ = mod.position(cls.node)
    fields = [cxx_name(name) for name, _ in cls.record_fields]
    types = [_type_name(name, cls.name) for name, _ in cls.record_fields]
    params = ", ".join(f"class {t}" for t in types)
    lines = [f"// {mod.file_name}:{line}  class {cls.name}"]
    if not fields:
        lines += [
            f"struct {cls.name} {{}};",
            f"BBX_HOST_DEVICE constexpr auto make_{cls.name}() {{ return {cls.name}{{}}; }}",
        ]
        return "\n".join(lines)
    lines.append(f"template <{params}>")
    lines.append(f"struct {cls.name} {{")
    lines += [f"  {t} {f};" for t, f in zip(types, fields, strict=True)]
    lines.append("};")
    lines.append(f"template <{params}>")
    args = ", ".join(f"{t} {f}" for t, f in zip(types, fields, strict=True))
    lines.append(f"BBX_HOST_DEVICE constexpr auto make_{cls.name}({args}) {{")
    lines.append(f"  return {cls.name}<{', '.join(types)}>{{{', '.join(fields)}}};")
    lines.append("}")
    return "\n".join(lines)


def _type_name(field: str, cls: str) -> str:
    name = camel(field)
    return name + "Type" if name == cls else name
