"""The parameters of a Python function traced at a call, bound to the call's values."""

from __future__ import annotations

import libcst as cst

from ..analysis.value import PyFunction, Val
from ..frontend.discovery import DslFunction
from .expr import ExprLowerer


def callee_params(target: DslFunction) -> list[cst.Param]:
    """The parameters a call of `target` gives, in order: without the `self` of a kernel-class
    method (a method of a class of values takes its object), keyword-only ones last."""
    params = list(target.node.params.params)
    if target.cls is not None and params and not target.self_is_value:
        params = params[1:]
    return [*params, *target.node.params.kwonly_params]


def call_bindings(
    lw: ExprLowerer, node: cst.Call, fn: PyFunction, label: str | None = None
) -> list[tuple[str, Val]]:
    """(parameter, value) of `fn` at call `node`, in order: the arguments `fn` already binds
    (`functools.partial`, an `__init__`'s self), then the call's, the keywords a partial
    binds and the defaults; a parameter none of them gives is an error naming `label`
    (default: the function)."""
    what = f"'{label or fn.name}'"
    params = (*fn.node.params.params, *fn.node.params.kwonly_params)
    names = [p.name.value for p in params]
    given = lw.bind(node, names[len(fn.args):], what, 0)
    bindings: list[tuple[str, Val]] = list(zip(names, fn.args, strict=False))
    keywords = dict(fn.keywords)
    for p in params[len(fn.args):]:
        name = p.name.value
        if name in given:
            bindings.append((name, lw.lower(given[name])))
        elif name in keywords:
            bindings.append((name, keywords[name]))
        elif p.default is not None:
            bindings.append((name, lw.lower(p.default)))
        else:
            raise lw.fc.error(node, "bad-arguments", f"{what} needs argument '{name}'")
    return bindings
