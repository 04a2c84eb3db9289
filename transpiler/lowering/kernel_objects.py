"""Kernel objects built in DSL code: `op = TensorOpGemm(a.value_type, cutlass.Float32, (2, 2, 1))`
then `op(mA, mB, mC, stream)` in a `@cute.jit` function.

A kernel class is a class with a `@cute.jit __call__` that launches its kernels and reads its
configuration from `self` (a class of this module, or one imported from another module of the
program: bbx.frontend.cross_module.ExternalResolver.lookup_class). The DSL builds such an object at
trace time: its `__init__` runs in Python with the constructor's arguments, which are therefore
compile-time values (literals, dtypes such as `x.element_type` / `p.value_type` of a parameter,
Constexpr parameters, configuration). bbx gives the construction that binding time:

* the construction is a Meta member of kind `OBJECT` (named after the expression) whose Python
  expression is the constructor call, written with the jit function's parameters: the
  specialization evaluates it, so `__init__` runs in Python exactly as in the DSL, and renders
  the member as a struct nested in the caller's Meta holding the Meta members of the class's
  `__call__` (and of what it launches) evaluated with `self` = the object
  (bbx.runtime.meta_struct.object_struct) — the configuration path of objects built on the host;
* the local it is assigned to is a compile-time alias of the construction (no C++ variable);
* calling the object is calling the class's generated `__call__` with that struct as its Meta:
  `Cls_call<typename Meta::Cls_...>(args..., stream)`, its arguments bound as Python binds them
  (defaults included, a stream argument passed on, the caller's stream otherwise).

A constructor argument that is a run-time value (a tensor, a DSL number, a value computed in the
function) is refused with a located diagnostic, as is building or calling an object in device code.
"""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis import meta as m
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from ..dsl import numeric_type
from ..frontend.discovery import DslFunction
from .arguments import argument_value
from .bindings import callee_params
from .expr import ExprLowerer, meta_type
from .lowered import ObjectClass
from .signature import signature


def python_params(fn: DslFunction) -> tuple[str, ...]:
    """`fn`'s Python parameters in order, without the `self` of a kernel-class method."""
    return tuple(p.name.value for p in callee_params(fn))


def kernel_object_call(lw: ExprLowerer, node: cst.Call) -> Val | None:
    """`Cls(...)` of a kernel class (the object), or a call of a kernel object; None for any
    other call."""
    cls = _object_class(lw, node.func)
    if cls is not None:
        return _construct(lw, node, cls)
    func = node.func
    is_alias = isinstance(func, cst.Name) and getattr(
        lw.fc.env.lookup(func.value), "alias", None) is not None
    if not (is_alias or isinstance(func, cst.Call)):
        return None
    obj = lw.lower(func)
    if obj.kind.cat is Cat.META and obj.kind.meta_kind == m.OBJECT:
        return _call(lw, node, str(obj.kind.value))
    return None


def _object_class(lw: ExprLowerer, func: cst.BaseExpression) -> ObjectClass | None:
    if isinstance(func, cst.Name):
        if lw.fc.env.lookup(func.value) is not None:
            return None
        info = lw.mod.info
        local = info.all_classes.get(func.value)
        if local is not None:
            call = local.methods.get("__call__")
            if local not in info.classes or call is None or call.decorator != "jit":
                return None
            sig = signature(lw.mod, call)
            return ObjectClass(local.name, call.cxx_name, call.cxx_name, sig.params,
                               python_params(call), sig.stream)
        if (func.value in info.plain_dsl or func.value in info.records
                or info.free_function(func.value) is not None):
            return None
    elif isinstance(func, cst.Attribute):
        base = func.value
        while isinstance(base, cst.Attribute):
            base = base.value
        if not isinstance(base, cst.Name) or lw.fc.env.lookup(base.value) is not None:
            return None
    else:
        return None
    if lw.mod.externals is None or lw.mod.names.resolve(func) is not None:
        return None
    helper = lw.mod.externals.lookup_class(func, lw.mod.error)
    if helper is None:
        return None
    info_ = helper.info
    return ObjectClass(info_.class_name or "", helper.cxx_name, None, info_.params,
                       info_.python_params, info_.stream_param)


def _construct(lw: ExprLowerer, node: cst.Call, cls: ObjectClass) -> Val:
    fc = lw.fc
    if fc.role != "host":
        raise fc.error(node, "kernel-object",
                       f"kernel object '{cls.name}(...)' built in device code",
                       "build it in a @cute.jit function, which calls it to launch its kernels")
    args: list[str] = []
    for i, arg in enumerate(node.args):
        if arg.star:
            raise fc.error(arg, "unsupported-construct",
                           f"`*`/`**` arguments to '{cls.name}(...)' are not supported")
        text = _static_argument(lw, arg.value, cls, arg.keyword.value if arg.keyword else i + 1)
        args.append(f"{arg.keyword.value}={text}" if arg.keyword is not None else text)
    expr = cst.parse_expression(f"{lw.mod.code(node.func)}({', '.join(args)})")
    member = fc.add_meta(expr, m.OBJECT)
    lw.mod.kernel_objects[member.name] = cls
    return Val(Kind(Cat.META, value=member.name, meta_kind=m.OBJECT), node=node)


def _static_argument(lw: ExprLowerer, node: cst.BaseExpression, cls: ObjectClass,
                     which: int | str) -> str:
    """The Python source of a constructor argument, in terms the specialization evaluates (the
    jit function's parameters, module names), or a diagnostic for a run-time value."""
    if lw.meta_scan(node) is not None:  # literals, Constexpr parameters, configuration
        return lw.mod.code(lw.substitute(node))
    if numeric_type(lw.mod.names.resolve(node)) is not None:  # `cutlass.Float32`
        return lw.mod.code(node)
    if (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)
            and node.attr.value in ("element_type", "value_type")):
        var = lw.fc.env.lookup(node.value.value)
        if var is not None and var.param:  # the dtype of a tensor or pointer argument
            return lw.mod.code(node)
    val = lw.lower(node)
    shown = f"'{which}'" if isinstance(which, str) else f"{which}"
    what = "type" if val.kind.cat is Cat.TYPE else val.kind.describe()
    raise lw.fc.error(
        node, "kernel-object-argument",
        f"argument {shown} of '{cls.name}(...)' (`{lw.mod.code(node)}`) is a run-time value "
        f"({what}), but the DSL builds kernel objects at trace time",
        "`__init__` runs in Python: pass compile-time values (literals, tuples, dtypes such as "
        "`x.element_type` of a parameter, Constexpr parameters); give run-time values to the "
        "object's call instead",
    )


def _call(lw: ExprLowerer, node: cst.Call, member: str) -> Val:
    fc = lw.fc
    cls = lw.mod.kernel_objects[member]
    if fc.role != "host":
        raise fc.error(node, "kernel-object",
                       f"kernel object '{cls.name}' called in device code",
                       "call it from a @cute.jit function: its call launches kernels")
    what = f"'{cls.name}.__call__'"
    bound = lw.bind(node, list(cls.python_params), what, 0)
    args: list[c.Expr] = []
    for p in cls.params:
        arg = bound.get(p.name)
        if p.constexpr and (p.default or "").startswith("lambda"):
            # `__call__` is translated with its Python function default traced (bbx.lowering.
            # function): only the default can be honoured
            if arg is not None:
                raise fc.error(arg, "kernel-object-argument",
                               f"a function given to '{p.name}' of {what}, which bbx translates "
                               "for its default function only",
                               "build the object on the host and call it there, or leave "
                               f"'{p.name}' at its default")
            args.append(c.Construct(c.Type("python_only_value")))
            continue
        if arg is None and p.default is not None:
            arg = cst.parse_expression(p.default)
        if arg is None:
            raise fc.error(node, "bad-arguments", f"{what} needs argument '{p.name}'")
        args.append(argument_value(lw, arg, p.name, p.constexpr, p.template is None))
    stream = bound.get(cls.stream) if cls.stream is not None else None
    args.append(lw.value(stream) if stream is not None else c.Id(fc.stream_name))
    lw.mod.object_calls.setdefault(fc.fn.cxx_name, []).append(cls.local or cls.function)
    call = c.Call(c.Id(cls.function), tuple(args), (meta_type(member),))
    return Val(k.VALUE, call, node=node)
