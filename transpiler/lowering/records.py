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

import dataclasses

import libcst as cst

from ..analysis.kinds import Cat, Kind
from ..analysis.value import PyFunction, Val, python_level
from ..cxx import ast as c
from ..frontend.discovery import DslClass
from .bindings import call_bindings
from .context import ModuleContext
from .expr import ExprLowerer
from .names import cxx_name
from .signature import camel


def record_kind(cls: DslClass) -> Kind:
    return Kind(Cat.RECORD, value=cls.name)


def construct(lw: ExprLowerer, node: cst.Call, cls: DslClass) -> Val:
    """`CopyParams(num_threads=..., src=..., dst=...)`: fields bound like parameters."""
    assert cls.record_fields is not None
    if cls.init is not None:
        return _construct_by_init(lw, node, cls)
    names = [name for name, _ in cls.record_fields]
    given = lw.bind(node, names, f"'{cls.name}'", 0)
    items: list[Val] = []
    for name, default in cls.record_fields:
        expr = given.get(name, default)
        if expr is None:
            raise lw.fc.error(node, "bad-arguments", f"'{cls.name}' needs field '{name}'")
        items.append(lw.lower(expr))
    return Val(record_kind(cls), None, node=node, items=tuple(items), fields=tuple(names))


def _construct_by_init(lw: ExprLowerer, node: cst.Call, cls: DslClass) -> Val:
    """`Info(n, scale)` of a plain class: its `__init__` traced for these arguments, as the
    DSL runs it, with `self` an object whose attributes the body sets. Attributes holding
    Python values (flags, None, configuration) stay Python values; when some hold DSL values
    the body is a C++ lambda returning the record's struct, read field by field."""
    assert cls.init is not None and cls.record_fields is not None
    fc = lw.fc
    init = cls.init.node
    if not init.params.params:
        raise fc.error(node, "bad-arguments", f"'{cls.name}.__init__' takes no self")
    new_object = Val(Kind(Cat.RECORD), None, node=node, items=(), fields=())
    bindings = call_bindings(lw, node, PyFunction(init, (new_object,)), cls.name)
    if fc.inline_body is None:
        raise fc.error(node, "unsupported-call", f"'{cls.name}(...)' needs a statement context")
    saved_self = fc.self_name
    fc.self_name = None  # `self` in the body is the new object, not the enclosing method's
    try:
        body, _, built = fc.inline_body(init, bindings)
    finally:
        fc.self_name = saved_self
    assert built is not None and built.items is not None and built.fields is not None
    names = [name for name, _ in cls.record_fields]
    missing = [name for name in names if name not in built.fields]
    if missing:
        raise fc.error(
            node, "unsupported-value",
            f"'{cls.name}.__init__' leaves {', '.join(missing)} unset for these arguments",
            "set every attribute on each path, e.g. to None")
    items = tuple(built.items[built.fields.index(name)] for name in names)
    record = Val(record_kind(cls), None, node=node, items=items, fields=tuple(names))
    if all(python_level(item) for item in items):
        return record
    fields = tuple(lw.materialize(item, True, item.node or node) if not python_level(item)
                   else lw.record_field(item, item.node or node) for item in items)
    body.append(c.Return(c.Call(c.Id(f"make_{cls.name}"), fields)))
    return element_view(record, c.Call(c.Lambda((), tuple(body), "&")))


def element_view(val: Val, whole: c.Expr) -> Val:
    """`val` as held by the C++ value `whole`: each C++ element read from it (`get<i>`, or
    the field of a record), Python-level elements kept."""
    assert val.items is not None
    items: list[Val] = []
    for i, item in enumerate(val.items):
        if val.fields is not None:
            part: c.Expr = c.Member(whole, cxx_name(val.fields[i]))
        else:
            part = c.Call(c.Id("get"), (whole,), (c.Lit(str(i)),))
        if item.items is not None:
            items.append(element_view(item, part))
        elif python_level(item):
            items.append(item)
        else:
            items.append(Val(item.kind, part, node=item.node))
    return dataclasses.replace(val, items=tuple(items), expr=whole)


def result_shape(val: Val) -> Val:
    """What a caller knows of a returned tuple, list or record before reading it from C++: its
    structure and Python-level leaves; the other leaves only by kind."""
    if val.items is None:
        return val if python_level(val) else Val(val.kind)
    return dataclasses.replace(val, expr=None, node=None,
                               items=tuple(result_shape(item) for item in val.items))


def materialize_tree(lw: ExprLowerer, val: Val, node: cst.CSTNode) -> c.Expr:
    """A tuple, list or record as one C++ value; a Python-level leaf that C++ cannot spell (a
    string, a configuration object) is `_` there (callers read it from `result_shape`)."""
    if val.items is None:
        if python_level(val):
            return lw.record_field(val, val.node or node)
        return lw.materialize(val, True, val.node or node)
    if val.expr is not None:
        return val.expr
    parts = tuple(materialize_tree(lw, item, node) for item in val.items)
    if val.kind.cat is Cat.RECORD and val.kind.value is not None:
        return c.Call(c.Id(f"make_{val.kind.value}"), parts)
    return lw.materialize(val, True, node) if val.kind.cat is Cat.RECORD else c.Call(
        c.Id("make_tuple"), parts)


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
