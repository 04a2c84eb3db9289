"""Lowering of one `@cute.kernel` / `@cute.jit` function to a C++ function template."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from . import cxx_ast as c
from . import meta as m
from .context import FunctionContext, ModuleContext
from .cxx_names import cxx_name
from .discovery import DslClass, DslFunction
from .imports import local_names
from .kinds import Cat
from .lower_stmt import StmtLowerer
from .lower_struct import kernel_struct_attrs
from .meta import MetaMember
from .scope import Var
from .signature import Signature, signature
from .walk import children, walk


@dataclass
class LoweredFunction:
    fn: DslFunction
    role: str  # "kernel", "device", "host"
    cxx: c.Function
    meta: list[MetaMember]
    signature: Signature
    preamble: list[str]  # namespace-scope code the function needs, emitted before it


def class_leaf_kinds(cls: DslClass | None, self_name: str | None) -> dict[str, str]:
    if cls is None or self_name is None:
        return {}
    params = {
        name: m.annotation_kind(p.annotation.annotation if p.annotation else None, p.default)
        for name, p in cls.init_params.items()
    }
    return {
        f"{self_name}.{attr}": m.infer_kind(expr, params) for attr, expr in cls.init_attrs.items()
    }


def _dynamic_targets(body: cst.BaseSuite, mod: ModuleContext) -> set[str]:
    """Names assigned somewhere inside dynamic control flow (approximation: every `if` that is
    not `const_expr`, every loop that is not `range_constexpr`, every `while`)."""
    names: set[str] = set()

    def is_static(node: cst.BaseExpression, which: str) -> bool:
        return isinstance(node, cst.Call) and mod.names.resolve(node.func) == which

    def visit(node: cst.CSTNode, dynamic: bool) -> None:
        if isinstance(node, cst.If):
            inner = dynamic or not is_static(node.test, "cutlass.const_expr")
            visit(node.body, inner)
            if node.orelse is not None:
                visit(node.orelse, inner)
            return
        if isinstance(node, cst.For):
            inner = dynamic or not is_static(node.iter, "cutlass.range_constexpr")
            visit(node.body, inner)
            return
        if isinstance(node, cst.While):
            visit(node.body, True)
            return
        if dynamic and isinstance(node, cst.AssignTarget) and isinstance(node.target, cst.Name):
            names.add(node.target.value)
        if dynamic and isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            names.add(node.target.value)
        for child in children(node):
            visit(child, dynamic)

    visit(body, False)
    return names


def _has_value_return(body: cst.BaseSuite) -> bool:
    return any(
        isinstance(n, cst.Return) and n.value is not None for n in walk(body, into_lambdas=False)
    )


def _header(mod: ModuleContext, fn: DslFunction) -> str:
    line, _ = mod.position(fn.node)
    names = ", ".join(p.name.value for p in fn.node.params.params)
    return f"{mod.file_name}:{line}  def {fn.name}({names})"


def lower_function(mod: ModuleContext, fn: DslFunction) -> LoweredFunction:
    if fn.is_kernel:
        role = "kernel"
    elif fn.cxx_name in mod.device_functions:
        role = "device"
    else:
        role = "host"
    fc = FunctionContext(mod, fn, role)
    mod.names.locals = local_names(fn.node)
    params = list(fn.node.params.params)
    for p in (*fn.node.params.posonly_params, *fn.node.params.kwonly_params):
        mod.sink.add(
            mod.diagnostic(
                p,
                "unsupported-construct",
                "positional-only / keyword-only parameters are not supported",
            )
        )
    for star in (fn.node.params.star_arg, fn.node.params.star_kwarg):
        if isinstance(star, cst.Param):
            mod.sink.add(
                mod.diagnostic(
                    star,
                    "unsupported-construct",
                    "`*args` / `**kwargs` parameters are not supported",
                )
            )
    if fn.cls is not None and params:
        fc.self_name = params[0].name.value
    fc.leaf_kinds = class_leaf_kinds(fn.cls, fc.self_name)
    fc.structs = set(mod.info.structs)
    sig = signature(mod, fn)
    line, _ = mod.position(fn.node)
    cparams: list[c.Param] = []
    # A kernel's second template parameter is its block size as a type (bbx::block_threads_t),
    # which its launch site knows: static block extents become launch bounds.
    template_params = ["Meta", "MaxThreads"] if role == "kernel" else ["Meta"]
    for p in sig.params:
        if p.template is not None:
            template_params.append(p.template)
        if p.constexpr:
            fc.constexpr_params.add(p.name)
            fc.leaf_kinds[p.name] = (
                m.infer_kind(cst.parse_expression(p.default), {})
                if (p.default is not None)
                else m.VALUE
            )
        fc.env.define(Var(p.name, cxx_name(p.name), p.kind, line, template_type=p.template))
        cparams.append(c.Param(p.type, cxx_name(p.name)))
    # The @cute.struct classes a kernel reads through `self.x`: its last template parameters.
    if fn.cls is not None:
        template_params += [fn.cls.struct_attrs[attr] for attr in kernel_struct_attrs(fn)]
    if sig.stream is not None:
        fc.stream_name = sig.stream
    if role == "host":
        cparams.append(c.Param(c.Type("Stream"), fc.stream_name))
        fc.env.used_cxx.add(fc.stream_name)
    fc.dynamically_assigned = _dynamic_targets(fn.node.body, mod)

    body = StmtLowerer(fc).block(fn.node.body)

    if role == "kernel":
        space, ret = "BBX_GLOBAL BBX_LAUNCH_BOUNDS(MaxThreads)", "void"
    elif role == "device":
        space = "BBX_HOST_DEVICE" if fn.cxx_name in mod.host_functions else "BBX_DEVICE"
        ret = "auto"
    else:
        ret = "auto" if _has_value_return(fn.node.body) else "void"
        # A free function that launches nothing may be called from kernels of other modules.
        space = "" if fn.cls is not None or launches(mod, fn, set()) else "BBX_HOST_DEVICE"
    comments = [_header(mod, fn)]
    if fn.cls is None and fc.meta:
        comments += meta_block(fc.meta)
    cxx = c.Function(fn.cxx_name, template_params, space, ret, cparams, body, comments)
    _ = Cat  # kinds are referenced through signature
    return LoweredFunction(fn, role, cxx, fc.meta, sig, fc.preamble)


def launches(mod: ModuleContext, fn: DslFunction, seen: set[str]) -> bool:
    """Whether `fn` launches a kernel, itself or through the module's functions it calls."""
    seen.add(fn.cxx_name)
    for node in walk(fn.node.body):
        if not isinstance(node, cst.Call):
            continue
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "launch":
            return True
        if isinstance(node.func, cst.Name):
            callee = mod.info.free_function(node.func.value)
            if callee is not None and callee.cxx_name not in seen and launches(mod, callee, seen):
                return True
    return False


def meta_block(members: list[MetaMember]) -> list[str]:
    """The comment block listing Meta members (as in docs/EXAMPLE)."""
    if not members:
        return []
    width_name = max(len(x.name) for x in members)
    width_expr = max(len(x.expr) for x in members)
    lines = ["Meta members (filled by the specialization unit):"]
    for x in members:
        lines.append(f"  {x.name.ljust(width_name)}  <- {x.expr.ljust(width_expr)}  ({x.kind})")
    return lines
