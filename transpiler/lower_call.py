"""Lowering of calls: DSL functions (via `bbx.dsl_api`), numeric casts, methods of DSL objects,
`@cute.jit` helpers and Constexpr callables."""

from __future__ import annotations

import zlib

import libcst as cst

from . import cxx_ast as c
from . import dsl_api
from . import kinds as k
from .cross_module import ExternalHelper
from .cxx_names import cxx_name
from .cxx_printer import functor_text
from .discovery import DslFunction
from .imports import dotted
from .kinds import Cat, Kind
from .lower_expr import ExprLowerer, Val, float_literal
from .scope import STATIC_LOOP, Var
from .walk import walk


def lower_call(lw: ExprLowerer, node: cst.Call) -> Val:
    fc = lw.fc
    func = node.func
    resolved = lw.mod.names.resolve(func)
    if resolved is not None:
        return _dsl_call(lw, node, resolved)
    if isinstance(func, cst.Attribute):
        if (
            isinstance(func.value, cst.Name)
            and func.value.value == fc.self_name
            and fc.fn.cls is not None
        ):
            name = func.attr.value
            if name in fc.fn.cls.methods:
                return helper_call(lw, node, fc.fn.cls.methods[name])
            if name in fc.fn.cls.plain_methods:
                raise fc.error(
                    node,
                    "runtime-python-call",
                    f"undecorated method '{name}' called with run-time arguments",
                    "decorate it with @cute.jit, or only pass compile-time values",
                )
        external = _external(lw, func)
        if external is not None:
            return external_call(lw, node, external)
        return _method_call(lw, node, func)
    if isinstance(func, cst.Name):
        var = fc.env.lookup(func.value)
        if var is not None and var.kind.cat in (Cat.CONSTEXPR, Cat.FUNC, Cat.VALUE):
            args = tuple(lw.value(a.value) for a in node.args)
            return Val(k.VALUE, c.Call(c.Id(var.cxx), args), node=node)
        if var is None:
            target = lw.mod.info.free_function(func.value)
            if target is not None:
                return helper_call(lw, node, target)
            if func.value in lw.mod.info.plain_functions:
                raise fc.error(
                    node,
                    "runtime-python-call",
                    f"Python function '{func.value}' called with run-time arguments",
                    "decorate it with @cute.jit, or only pass compile-time values",
                )
            external = _external(lw, func)
            if external is not None:
                return external_call(lw, node, external)
        lw.lower(func)  # raises the right diagnostic for an unknown name
    raise fc.error(
        node,
        "unsupported-call",
        "this call is not supported",
        "call DSL functions, @cute.jit functions or Constexpr callables",
    )


# ------------------------------------------------------------------------------------------
# DSL functions
# ------------------------------------------------------------------------------------------
def _dsl_call(lw: ExprLowerer, node: cst.Call, resolved: str) -> Val:
    fc = lw.fc
    if resolved == "cutlass.const_expr":
        if len(node.args) != 1:
            raise fc.error(node, "bad-arguments", "cutlass.const_expr takes one argument")
        return lw.lower(node.args[0].value)
    if resolved in k.NUMERIC_TYPES:
        return _cast(lw, node, k.NUMERIC_TYPES[resolved])
    if resolved in dsl_api.OP_CLASSES:
        return Val(k.VALUE, c.Construct(c.Type(dsl_api.OP_CLASSES[resolved])), node=node)
    if resolved == "cutlass.cute.printf":
        return _printf(lw, node)
    spec = dsl_api.FUNCTIONS.get(resolved)
    if spec is not None:
        return _table_call(lw, node, spec)
    if resolved.startswith("builtins."):
        return _builtin(lw, node, resolved[len("builtins.") :])
    if resolved.startswith("math."):
        raise fc.error(
            node,
            "runtime-math",
            f"'{resolved}' applied to a run-time value",
            "Python's math module only works on compile-time constants",
        )
    if resolved in ("cutlass.range_constexpr", "cutlass.range", "cutlass.cute.range"):
        raise fc.error(
            node,
            "unsupported-construct",
            f"'{resolved}' can only be used as the iterable of a `for` loop",
        )
    if dsl_api.is_known(resolved):
        raise fc.error(node, "unsupported-call", f"'{resolved}' cannot be called here")
    raise fc.error(
        node,
        "unknown-dsl-name",
        f"unknown CuTe DSL name '{resolved}'",
        "it is not (yet) supported by bbx; see `bbx.dsl_api` for the supported names",
    )


def _bind(
    lw: ExprLowerer, node: cst.Call, params: list[str], what: str, required: int
) -> dict[str, cst.BaseExpression]:
    fc = lw.fc
    bound: dict[str, cst.BaseExpression] = {}
    positional = 0
    for arg in node.args:
        if arg.star:
            raise fc.error(arg, "unsupported-construct", "`*`/`**` arguments are not supported")
        if arg.keyword is None:
            if positional >= len(params):
                raise fc.error(arg, "bad-arguments", f"too many arguments to {what}")
            bound[params[positional]] = arg.value
            positional += 1
        else:
            kw = arg.keyword.value
            if kw in params:
                bound[kw] = arg.value
            elif kw not in dsl_api.IGNORED_KEYWORDS:
                raise fc.error(
                    arg,
                    "unsupported-keyword",
                    f"keyword argument '{kw}' of {what} is not supported",
                )
    for p in params[:required]:
        if p not in bound:
            raise fc.error(node, "bad-arguments", f"{what} needs argument '{p}'")
    return bound


def _mode_args(lw: ExprLowerer, node: cst.BaseExpression) -> list[c.Expr]:
    val = lw.lower(node)
    value = val.kind.value if val.kind.cat is Cat.LITERAL else None
    if isinstance(value, int):
        value = (value,)
    if not (isinstance(value, (tuple, list)) and all(isinstance(v, int) for v in value)):
        if isinstance(node, cst.List):
            items = [lw.lower(e.value).kind.value for e in node.elements]
            if all(isinstance(v, int) for v in items):
                return [c.Lit(str(v)) for v in items]
        raise lw.fc.error(
            node, "bad-arguments", "mode= must be a list of literal integers", "e.g. mode=[1]"
        )
    return [c.Lit(str(v)) for v in value]


def _table_call(
    lw: ExprLowerer, node: cst.Call, spec: dsl_api.Fn, callee: c.Expr | None = None
) -> Val:
    params = [p for p, _ in spec.params]
    bound = _bind(lw, node, params, f"'{spec.cxx}'", spec.required)
    args: list[c.Expr] = []
    targs: list[c.CxxType | c.Expr] = []
    first_kind: Kind | None = None
    cxx = spec.cxx
    keywords = {a.keyword.value for a in node.args if a.keyword is not None}
    defaults = dict(spec.defaults)
    for pname, role in spec.params:
        if pname not in bound:
            if pname in defaults and role == dsl_api.SHUFFLE_CONTROL:
                args.append(c.Call(c.Id("arch::mask_and_clamp"), (c.Lit(defaults[pname]),)))
            continue
        arg = bound[pname]
        if role == dsl_api.SHUFFLE_CONTROL:
            x = lw.materialize(lw.lower(arg, dsl_api.VALUE), False, arg, dsl_api.VALUE)
            args.append(c.Call(c.Id("arch::mask_and_clamp"), (x,)))
        elif role == dsl_api.FASTMATH:
            if _literal_flag(lw, arg, pname) and spec.fast is not None:
                cxx = spec.fast
        elif role == dsl_api.MODE:
            targs += _mode_args(lw, arg)
        elif role == dsl_api.TYPE_ARG:
            targs.append(lw.as_type(arg))
        elif role == dsl_api.TYPE_C:
            args.append(c.Construct(c.Type("type_c", (lw.as_type(arg),))))
        elif role == dsl_api.IGNORED:
            continue
        else:
            val = lw.lower(arg, role)
            if first_kind is None:
                first_kind = val.kind
            x = lw.materialize(val, role != dsl_api.VALUE, arg, role)
            if role == dsl_api.VALUE and pname in keywords:
                x = c.Annotated(f"{pname}=", x)
            args.append(x)
    if spec.per_site:
        # A stable number for this call (module and position): its own static allocation.
        line, col = lw.mod.position(node)
        site = zlib.crc32(f"{lw.mod.file_name}:{line}:{col}".encode()) & 0x7FFFFFFF
        targs.insert(0, c.Lit(str(site)))
    result = spec.result
    if result == dsl_api.FIRST:
        result = first_kind if first_kind is not None else k.VALUE
        if result.cat in (Cat.LITERAL, Cat.META):
            result = k.VALUE
    kind = result if isinstance(result, Kind) else k.VALUE
    fn = c.Id(cxx) if callee is None else callee
    return Val(kind, c.Call(fn, tuple(args), tuple(targs)), node=node)


def _literal_flag(lw: ExprLowerer, arg: cst.BaseExpression, what: str) -> bool:
    val = lw.lower(arg)
    if val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, bool):
        return val.kind.value
    raise lw.fc.error(
        arg,
        "bad-arguments",
        f"{what}= must be a literal True or False",
        f"write {what}=True; the choice is made when the code is translated",
    )


def _cast(lw: ExprLowerer, node: cst.Call, ctype: str) -> Val:
    fc = lw.fc
    if len(node.args) != 1 or node.args[0].keyword is not None:
        raise fc.error(node, "bad-arguments", "a numeric cast takes one positional argument")
    arg = node.args[0].value
    val = lw.lower(arg)
    if val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, (int, float, bool)):
        v = val.kind.value
        if ctype in ("float", "double", "half_t", "bfloat16_t"):
            return Val(k.dynamic(ctype), float_literal(float(v), ctype), node=node)
        if ctype == "bool":
            return Val(k.dynamic(ctype), c.Lit("true" if v else "false"), node=node)
        if ctype == "int32_t":
            return Val(k.dynamic(ctype), c.Lit(str(int(v))), node=node)
        return Val(
            k.dynamic(ctype), c.Construct(c.Type(ctype), (c.Lit(str(int(v))),), False), node=node
        )
    x = lw.materialize(val, False, arg)
    kind = Kind(Cat.TENSOR_SSA) if val.kind.cat is Cat.TENSOR_SSA else k.dynamic(ctype)
    return Val(kind, c.Call(c.Id("to"), (x,), (c.Type(ctype),)), node=node)


def _printf(lw: ExprLowerer, node: cst.Call) -> Val:
    fc = lw.fc
    if not node.args or not isinstance(node.args[0].value, cst.SimpleString):
        raise fc.error(
            node,
            "bad-arguments",
            "cute.printf needs a literal format string first",
            'e.g. cute.printf("x = {}", x)',
        )
    fmt = node.args[0].value.evaluated_value
    from .cxx_printer import string_literal

    args: list[c.Expr] = [c.Lit(string_literal(str(fmt)))]
    for a in node.args[1:]:
        if a.keyword is not None:
            continue
        args.append(lw.value(a.value))
    return Val(k.VALUE, c.Call(c.Id("printf_fmt"), tuple(args)), node=node)


def _builtin(lw: ExprLowerer, node: cst.Call, name: str) -> Val:
    fc = lw.fc
    if "builtins." + name in dsl_api.BUILTINS:
        vals = [lw.lower(a.value) for a in node.args]
        static = lw._static_context(*vals)
        args = tuple(
            lw.materialize(v, static, a.value) for v, a in zip(vals, node.args, strict=True)
        )
        kind = vals[0].kind if vals and vals[0].kind.cat is not Cat.LITERAL else k.VALUE
        return Val(kind, c.Call(c.Id(dsl_api.BUILTINS["builtins." + name]), args), node=node)
    if name in ("int", "float", "bool") and len(node.args) == 1:
        ctype = {"int": "int32_t", "float": "float", "bool": "bool"}[name]
        x = lw.value(node.args[0].value)
        return Val(k.dynamic(ctype), c.Call(c.Id("to"), (x,), (c.Type(ctype),)), node=node)
    if name == "print":
        raise fc.error(node, "unsupported-construct", "print(...) used as a value")
    if name == "range":
        raise fc.error(
            node,
            "unsupported-construct",
            "range(...) can only be used as the iterable of a `for` loop",
        )
    raise fc.error(
        node,
        "unsupported-builtin",
        f"Python builtin '{name}' is not supported in kernels",
        "supported: abs, min, max, int, float, bool, range, print (dropped)",
    )


# ------------------------------------------------------------------------------------------
# methods of DSL objects
# ------------------------------------------------------------------------------------------
_MEMBER_METHODS: dict[str, Kind | None] = {
    "load": Kind(Cat.TENSOR_SSA),
    "store": None,
    "get_slice": Kind(Cat.THR_COPY),
    "partition_S": k.TENSOR,
    "partition_D": k.TENSOR,
    "retile": k.TENSOR,
}


def _method_call(lw: ExprLowerer, node: cst.Call, func: cst.Attribute) -> Val:
    fc = lw.fc
    name = func.attr.value
    if name == "launch":
        raise fc.error(
            node,
            "unsupported-construct",
            "`.launch(...)` must be a statement of its own in a @cute.jit function",
        )
    obj = lw.lower(func.value)
    if name == "size_in_bytes" and obj.kind.cat in (Cat.TYPE, Cat.CONSTEXPR) and not node.args:
        # `Struct.size_in_bytes()` of a @cute.struct class: a static integer.
        struct = lw.materialize(obj, False, func.value)
        return Val(k.STATIC, c.Call(c.Id("size_in_bytes"), (struct,)), node=node)
    if obj.kind.cat in (Cat.LITERAL, Cat.META, Cat.TYPE):
        raise fc.error(
            node, "unsupported-call", f"method '{name}' of a {obj.kind.describe()} is not supported"
        )
    objx = lw.materialize(obj, False, func.value)
    if obj.kind.cat is Cat.STRUCT_FIELD:
        return _struct_field_method(lw, node, name, objx)
    if name in _MEMBER_METHODS:
        args = tuple(lw.value(a.value) for a in node.args if a.keyword is None)
        result = _MEMBER_METHODS[name]
        return Val(result or k.VALUE, c.Call(c.Member(objx, name), args), node=node)
    if name in dsl_api.ALLOCATOR_METHODS:
        spec = dsl_api.ALLOCATOR_METHODS[name]
        result = _table_call(lw, node, spec, c.Member(objx, spec.cxx))
        first = node.args[0].value if node.args else None
        if name == "allocate" and first is not None and lw.lower(first).kind.cat in (
            Cat.TYPE,
            Cat.CONSTEXPR,
        ):
            # `smem.allocate(Struct)`: the struct in shared memory (bbx::struct_ref).
            return Val(Kind(Cat.STRUCT_REF), result.expr, node=node)
        return result
    if name == "fill":
        args = tuple(lw.value(a.value) for a in node.args)
        return Val(k.VALUE, c.Call(c.Id("fill"), (objx, *args)), node=node)
    if name == "to":
        if len(node.args) != 1:
            raise fc.error(node, "bad-arguments", ".to(...) takes one dtype")
        t = lw.as_type(node.args[0].value)
        kind = (
            obj.kind
            if obj.kind.cat is Cat.TENSOR_SSA
            else k.dynamic(t.name if isinstance(t, c.Type) and not t.args else None)
        )
        return Val(kind, c.Call(c.Id("to"), (objx,), (t,)), node=node)
    if name == "reduce":
        bound = _bind(lw, node, ["op", "init_val", "reduction_profile"], ".reduce", 2)
        profile = bound.get("reduction_profile")
        if profile is not None and not (
            isinstance(profile, cst.Integer) and profile.evaluated_value == 0
        ):
            # Register values are flat here (bbx/tensor/value.hpp): only a full reduction.
            raise fc.error(
                profile,
                "unsupported-argument",
                f"reduction_profile={lw.mod.code(profile)} (a reduction over some modes only) "
                "is not supported",
                "reduce every mode with reduction_profile=0, e.g. of a sliced tensor's load()",
            )
        op = lw.lower(bound["op"])
        init = lw.value(bound["init_val"])
        return Val(
            k.dynamic(), c.Call(c.Id("reduce"), (objx, lw.materialize(op, False), init)), node=node
        )
    raise fc.error(
        node, "unsupported-method", f"method '{name}' of a {obj.kind.describe()} is not supported"
    )


def _struct_field_method(lw: ExprLowerer, node: cst.Call, name: str, objx: c.Expr) -> Val:
    """Methods of a @cute.struct field: MemRange's `get_tensor` and `data_ptr`."""
    if name == "get_tensor":
        # A swizzle only moves elements inside the field, and every access goes through the
        # tensor: dropped, as for SmemAllocator.allocate_tensor (bbx/tensor/smem_struct.hpp).
        bound = _bind(lw, node, ["layout", "swizzle", "dtype"], ".get_tensor", 1)
        if "dtype" in bound and not _is_none(bound["dtype"]):
            raise lw.fc.error(
                bound["dtype"],
                "unsupported-keyword",
                "MemRange.get_tensor(dtype=...) (a reinterpreting view) is not supported",
                "declare the field with the element type it is used with",
            )
        layout = lw.value(bound["layout"], static=True)
        return Val(k.TENSOR, c.Call(c.Member(objx, "get_tensor"), (layout,)), node=node)
    if name == "data_ptr" and not node.args:
        return Val(k.VALUE, c.Call(c.Member(objx, "data_ptr")), node=node)
    raise lw.fc.error(
        node,
        "unsupported-method",
        f"method '{name}' of a struct field is not supported",
        "supported: .get_tensor(layout), .data_ptr(), .ptr, [i]",
    )


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


# ------------------------------------------------------------------------------------------
# @cute.jit helpers and Constexpr callables
# ------------------------------------------------------------------------------------------
def _is_constexpr(lw: ExprLowerer, param: cst.Param) -> bool:
    if param.annotation is None:
        return False
    ann = param.annotation.annotation
    return lw.mod.names.resolve(ann) in ("cutlass.Constexpr", "cutlass.cute.Constexpr") or (
        isinstance(ann, cst.Subscript)
        and lw.mod.names.resolve(ann.value) in ("cutlass.Constexpr", "cutlass.cute.Constexpr")
    )


def callee_params(target: DslFunction) -> list[cst.Param]:
    params = list(target.node.params.params)
    if target.cls is not None and params:
        params = params[1:]
    return params


def helper_call(lw: ExprLowerer, node: cst.Call, target: DslFunction) -> Val:
    fc = lw.fc
    if target.is_kernel:
        raise fc.error(
            node,
            "kernel-call",
            f"kernel '{target.name}' called without `.launch(...)`",
            "launch it: kernel(args).launch(grid=[...], block=[...])",
        )
    if target is fc.fn:
        raise fc.error(
            node,
            "recursion",
            f"recursive call of '{target.name}'",
            "recursion cannot be unrolled at compile time; use a loop",
        )
    params = callee_params(target)
    names = [p.name.value for p in params]
    bound = _bind(lw, node, names, f"'{target.name}'", 0)
    args: list[c.Expr] = []
    for p in params:
        pname = p.name.value
        if pname in ("stream",):
            continue
        arg = bound.get(pname, p.default)
        if arg is None:
            raise fc.error(node, "bad-arguments", f"'{target.name}' needs argument '{pname}'")
        args.append(argument(lw, arg, p))
    callee_host = target.cxx_name in lw.mod.host_functions
    if fc.role == "host" and callee_host:
        args.append(c.Id(fc.stream_name))
    call = c.Call(c.Id(target.cxx_name), tuple(args), (c.Type("Meta"),))
    return Val(k.VALUE, call, node=node)


def argument(lw: ExprLowerer, arg: cst.BaseExpression, param: cst.Param) -> c.Expr:
    """An argument for `param` of a generated function (helper or kernel)."""
    ann = param.annotation.annotation if param.annotation is not None else None
    runtime_scalar = ann is not None and lw.mod.names.resolve(ann) in k.NUMERIC_TYPES
    return _argument(lw, arg, param.name.value, _is_constexpr(lw, param), runtime_scalar)


def _argument(
    lw: ExprLowerer, arg: cst.BaseExpression, pname: str, constexpr: bool, runtime_scalar: bool
) -> c.Expr:
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


def _external(lw: ExprLowerer, func: cst.BaseExpression) -> ExternalHelper | None:
    if lw.mod.externals is None:
        return None
    return lw.mod.externals.lookup(func, lw.mod.error)


def external_call(lw: ExprLowerer, node: cst.Call, helper: ExternalHelper) -> Val:
    """A call of a `@cute.jit` helper of another module: `bbx_gen::<module>::<fn><Meta>(...)`."""
    fc, info = lw.fc, helper.info
    if info.role == "kernel":
        raise fc.error(
            node,
            "kernel-call",
            f"kernel '{info.python_name}' of {helper.path.name} cannot be launched from here",
            "launch kernels from a @cute.jit function of their own module",
        )
    for member in info.all_meta:
        if "self" in member_names(member.expr):
            raise fc.error(
                node,
                "cross-module-self",
                f"'{info.python_name}' of {helper.path.name} reads 'self' ({member.expr})",
                "helpers of other modules cannot read the configuration of an object",
            )
    names = [p.name for p in info.params]
    bound = _bind(lw, node, names, f"'{info.python_name}'", 0)
    args: list[c.Expr] = []
    for p in info.params:
        text = p.default if p.name not in bound else None
        arg = bound.get(p.name) or (cst.parse_expression(text) if text is not None else None)
        if arg is None:
            raise fc.error(node, "bad-arguments", f"'{info.python_name}' needs argument '{p.name}'")
        args.append(_argument(lw, arg, p.name, p.constexpr, p.template is None))
    if info.role == "host":  # a helper that launches nothing, emitted for host and device
        stream = c.Id(fc.stream_name) if fc.role == "host" else c.Construct(c.Type("Stream"))
        args.append(stream)
    lw.mod.external_calls.setdefault(fc.fn.cxx_name, []).append(helper)
    call = c.Call(c.Id(helper.cxx_name), tuple(args), (c.Type("Meta"),))
    return Val(k.VALUE, call, node=node)


def member_names(expr: str) -> set[str]:
    try:
        parsed = cst.parse_expression(expr)
    except cst.ParserSyntaxError:
        return set()
    return {n.value for n in walk(parsed) if isinstance(n, cst.Name)}


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


__all__ = ["lower_call", "helper_call", "argument", "lower_lambda", "callee_params", "dotted"]
