"""Parameters that take Python sequences: a `@cute.jit` function called with a list of tensors
(`elementwise_apply(op, [a, b], c)`), a kernel launched with one (`mInputs: List[cute.Tensor]`).

The DSL traces such a function with the Python list, so the list's length and the kinds of its
elements are trace-time facts, and bbx lowers the function for them: the parameter becomes one
C++ parameter per element (`inputs_0`, `inputs_1`, ...) and its name stands for the Python
sequence of those, so that comprehensions, `len`, `enumerate`, indexing and `*` unroll as they do
for any sequence known at translation. A host function learns the facts from its call in host
Python (`CallFacts`, given by the runtime), a kernel or helper from the launch or call that
passes the sequence. Without the facts (a module translated at import, `bbx translate`), such a
function is not translated: a note says it is translated at each call.
"""

from __future__ import annotations

import libcst as cst

from ..diagnostics import Diagnostic
from ..frontend.discovery import DslFunction
from ..frontend.walk import walk
from .context import ModuleContext

#: Annotations that say a parameter is a Python sequence (`List[cute.Tensor]`, `tuple`, ...).
_SEQUENCE_ANNOTATIONS = frozenset({
    "typing.List", "typing.Sequence", "typing.Tuple", "typing.Iterable", "builtins.list",
    "builtins.tuple", "collections.abc.Sequence", "collections.abc.Iterable",
})  # fmt: skip

#: Builtins whose argument Python iterates.
_ITERATING_BUILTINS = frozenset(
    {"len", "enumerate", "zip", "reversed", "list", "tuple", "all", "any", "sum", "sorted"}
)


def qualified_name(fn: DslFunction) -> str:
    return f"{fn.cls.name}.{fn.name}" if fn.cls is not None else fn.name


def sequence_params(mod: ModuleContext, fn: DslFunction) -> list[str]:
    """The parameters of `fn` that take Python sequences: annotated as one (`List[...]`,
    `tuple`, ...), or unannotated and used as one in the body (iterated, `len`, `*`, passed on
    to such a parameter of another function of the module)."""
    return _sequence_params(mod, fn, set())


def _sequence_params(mod: ModuleContext, fn: DslFunction, seen: set[str]) -> list[str]:
    seen.add(fn.cxx_name)
    out: list[str] = []
    params = [*fn.node.params.params, *fn.node.params.kwonly_params]
    for p in params:
        name = p.name.value
        ann = p.annotation.annotation if p.annotation is not None else None
        if ann is not None:
            if _sequence_annotation(mod, ann):
                out.append(name)
            continue
        if name in ("self", "cls"):
            continue
        if _iterated(mod, fn.node.body, name) or _passed_as_sequence(mod, fn, name, seen):
            out.append(name)
    return out


def _sequence_annotation(mod: ModuleContext, ann: cst.BaseExpression) -> bool:
    """`List[cute.Tensor]`, `Sequence[cute.Pointer]`, `tuple[cute.Tensor, ...]`: a sequence of
    run-time values (a `tuple` or `Tuple[int, ...]` of Python data is a value like any other)."""
    if not isinstance(ann, cst.Subscript) or not isinstance(ann.value, (cst.Name, cst.Attribute)):
        return False
    qualified = mod.names.imported(ann.value) or mod.names.resolve(ann.value)
    if qualified not in _SEQUENCE_ANNOTATIONS:
        return False
    return any(
        (resolved := mod.names.resolve(n)) is not None and resolved.rsplit(".", 1)[-1] in
        ("Tensor", "Pointer")
        for n in walk(ann.slice[0]) if isinstance(n, (cst.Name, cst.Attribute))
    )


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _builtin(mod: ModuleContext, func: cst.BaseExpression) -> str | None:
    resolved = mod.names.resolve(func)
    return resolved[len("builtins.") :] if resolved and resolved.startswith("builtins.") else None


def _iterated(mod: ModuleContext, body: cst.CSTNode, name: str) -> bool:
    for node in walk(body):
        if isinstance(node, (cst.For, cst.CompFor)):
            it = node.iter
            if _is_name(it, name):
                return True
            if isinstance(it, cst.Call) and _builtin(mod, it.func) in _ITERATING_BUILTINS:
                if any(_is_name(a.value, name) for a in it.args):
                    return True
        elif isinstance(node, cst.Call):
            if _builtin(mod, node.func) in _ITERATING_BUILTINS and any(
                _is_name(a.value, name) for a in node.args
            ):
                return True
            if any(a.star == "*" and _is_name(a.value, name) for a in node.args):
                return True
        elif isinstance(node, cst.StarredElement) and _is_name(node.value, name):
            return True
    return False


def _passed_as_sequence(mod: ModuleContext, fn: DslFunction, name: str, seen: set[str]) -> bool:
    """`name` is an argument of a call (or launch) of a function of the module, for a parameter
    that takes a sequence there."""
    for node in walk(fn.node.body):
        if not isinstance(node, cst.Call):
            continue
        callee = _module_callee(mod, fn, node.func)
        if callee is None or callee.cxx_name in seen:
            continue
        callee_params = [p.name.value for p in callee.node.params.params]
        if callee.cls is not None and callee_params and not callee.self_is_value:
            callee_params = callee_params[1:]
        for i, arg in enumerate(node.args):
            if not _is_name(arg.value, name):
                continue
            param = (
                arg.keyword.value if arg.keyword is not None
                else callee_params[i] if i < len(callee_params) else None
            )
            if param is not None and param in _sequence_params(mod, callee, set(seen)):
                return True
    return False


def _module_callee(
    mod: ModuleContext, fn: DslFunction, func: cst.BaseExpression
) -> DslFunction | None:
    if isinstance(func, cst.Name):
        return mod.info.free_function(func.value)
    if (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Name)
        and fn.cls is not None
        and func.value.value == "self"
    ):
        return fn.cls.methods.get(func.attr.value)
    return None


def per_call_note(mod: ModuleContext, fn: DslFunction, params: list[str]) -> Diagnostic:
    """The note for a function that is translated only where the sequences it takes are known."""
    names = ", ".join(f"'{p}'" for p in params)
    where = "launch" if fn.is_kernel else "call"
    diagnostic = mod.diagnostic(
        fn.node.name,
        "per-call",
        f"'{fn.name}' takes Python sequences ({names}): it is translated at each {where}, for "
        "the lengths and element kinds of the sequences it is given",
        "the DSL traces it with those Python values too",
    )
    return Diagnostic(
        diagnostic.path, diagnostic.line, diagnostic.col, diagnostic.code, diagnostic.what,
        diagnostic.hint, severity="note",
    )


__all__ = ["per_call_note", "qualified_name", "sequence_params"]
