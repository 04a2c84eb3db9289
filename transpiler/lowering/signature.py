"""C++ signatures of generated functions: which Python parameters become template parameters."""

from __future__ import annotations

import re

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..cxx import ast as c
from ..dsl import numeric_type
from ..frontend.discovery import DslFunction, is_stream_parameter
from ..frontend.imports import dotted
from .context import ModuleContext
from .lowered import ParamSig, Signature


def camel(name: str) -> str:
    parts = [p for p in re.split(r"_+", name) if p]
    return "".join(p[0].upper() + p[1:] for p in parts) or "Arg"


def _tensor_template_name(name: str) -> str:
    core = name[1:] if re.match(r"^[a-z][A-Z]", name) else name
    return "Tensor" + camel(core)


def _annotation(p: cst.Param) -> cst.BaseExpression | None:
    return p.annotation.annotation if p.annotation is not None else None


def is_stream_param(mod: ModuleContext, p: cst.Param) -> bool:
    ann = _annotation(p)
    return is_stream_parameter(p.name.value, (dotted(ann) or "") if ann is not None else "")


def signature(mod: ModuleContext, fn: DslFunction) -> Signature:
    params = list(fn.node.params.params)
    if fn.cls is not None and params and not fn.self_is_value:
        params = params[1:]
    params += list(fn.node.params.kwonly_params)
    out: list[ParamSig] = []
    stream = None
    used = {"Meta", "MaxThreads", "Stream"}
    for p in params:
        name = p.name.value
        if is_stream_param(mod, p):
            stream = name
            continue
        ann = _annotation(p)
        resolved = mod.names.resolve(ann) if ann is not None else None
        if isinstance(ann, cst.Subscript):
            resolved = mod.names.resolve(ann.value)
        ann_src = mod.code(ann) if ann is not None else None
        default = mod.code(p.default) if p.default is not None else None
        numeric = numeric_type(resolved)
        if numeric is not None:
            ctype = numeric.cxx
            out.append(
                ParamSig(name, c.Type(ctype), None, k.dynamic(ctype), False, ann_src, default)
            )
            continue
        cat = k.ANNOTATION_KINDS.get(resolved or "", Cat.VALUE)
        record = mod.info.records.get(dotted(ann) or "") if ann is not None else None
        if ann is not None and resolved is None and (dotted(ann) or "").endswith("Tensor"):
            cat = Cat.TENSOR
        template = _tensor_template_name(name) if cat is Cat.TENSOR else camel(name)
        if template == name:  # `SharedStorage: cutlass.Constexpr`: the type needs its own name
            template += "Type"
        base = template
        n = 2
        while template in used:
            template = f"{base}{n}"
            n += 1
        used.add(template)
        kind = Kind(Cat.RECORD, value=record.name) if record is not None else Kind(cat)
        out.append(
            ParamSig(
                name, c.Type(template), template, kind, cat is Cat.CONSTEXPR, ann_src, default
            )
        )
    return Signature(tuple(out), stream)
