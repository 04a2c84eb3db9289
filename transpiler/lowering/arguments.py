"""The arguments of calls of generated functions (helpers, kernels, kernel objects) as C++
expressions, lambdas included (a host lambda without captures becomes a named functor)."""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis.scope import STATIC_LOOP, Var
from ..cxx import ast as c
from ..cxx.printer import functor_text
from ..frontend.walk import walk
from .expr import ExprLowerer
from .names import cxx_name


def argument_value(
    lw: ExprLowerer, arg: cst.BaseExpression, pname: str, constexpr: bool, runtime_scalar: bool
) -> c.Expr:
    """The C++ expression of an argument of a call of a generated function: a lambda (given to
    a Constexpr parameter) as a functor, anything else as its value (a static one spelled
    `_4{}`, unless the parameter is a run-time scalar)."""
    if isinstance(arg, cst.Lambda):
        if not constexpr:
            raise lw.fc.error(
                arg,
                "non-constexpr-lambda",
                f"lambda passed to parameter '{pname}', which is not a Constexpr",
                "annotate the parameter with `cutlass.Constexpr`",
            )
        return lower_lambda(lw, arg)
    return lw.value(arg, static=not runtime_scalar)


def lower_lambda(lw: ExprLowerer, node: cst.Lambda) -> c.Expr:
    fc = lw.fc
    params = [p.name.value for p in node.params.params]
    fc.env.push(STATIC_LOOP)
    try:
        for p in params:
            fc.env.define(Var(p, cxx_name(p), k.VALUE, 0))
        body = lw.value(node.body)
    finally:
        fc.env.pop()
        for p in params:
            fc.env.hidden.pop(p, None)
    capture = "=" if _captures(lw, node.body, set(params)) else ""
    if fc.role == "host" and not capture:
        name = f"{fc.fn.cxx_name}_lambda{fc.lambdas}"
        fc.lambdas += 1
        line, _ = fc.mod.position(node)
        comment = f"{fc.mod.file_name}:{line}  {fc.mod.code(node)}"
        fc.preamble.append(functor_text(name, [cxx_name(p) for p in params], body, comment))
        return c.Construct(c.Type(name))
    return c.Lambda(tuple(cxx_name(p) for p in params), (c.Return(body),), capture)


def _captures(lw: ExprLowerer, node: cst.CSTNode, params: set[str]) -> bool:
    for n in walk(node):
        if isinstance(n, cst.Name) and n.value not in params:
            var = lw.fc.env.lookup(n.value)
            if var is not None and var.alias is None:
                return True
    return False
