"""Lowering of calls: DSL functions (via `bbx.dsl`), numeric casts, methods of DSL objects,
`@cute.jit` helpers and Constexpr callables."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.scope import INLINED, STATIC_IF, Var
from ..analysis.value import ModuleClass, PyFunction, Val, value_items
from ..cxx import ast as c
from ..cxx.ast import identifiers
from ..cxx.printer import functor_text
from ..diagnostics import Diagnostic, TranslationError
from ..dsl import REGISTRY, numeric_type
from ..dsl.roles import Role
from ..frontend.cross_module import ExternalHelper
from ..frontend.discovery import DslFunction
from ..frontend.walk import walk
from .arguments import argument_value, lower_lambda
from .bindings import call_bindings, callee_params
from .context import Aggregates, ModuleContext, tree_leaves
from .expr import ExprLowerer
from .kernel_objects import kernel_object_call
from .names import cxx_name
from .records import construct, element_view, result_shape
from .sequences import SEQUENCE_BUILTINS, comprehension, sequence_builtin
from .signature import ParamSig


class CallLowerer(ExprLowerer):
    """The expression lowering, calls included: `ExprLowerer` plus this module's calls of DSL
    functions (through the registry), methods of DSL objects, `@cute.jit` helpers and Constexpr
    callables."""

    def lower_call(self, node: cst.Call) -> Val:
        return lower_call(self, node)

    def dunder_call(
        self, node: cst.CSTNode, receiver: Val, name: str,
        args: Sequence[cst.BaseExpression],
    ) -> Val | None:
        return _dunder_call(self, node, receiver, name, args)

    def materialize(
        self, val: Val, static: bool, node: cst.CSTNode | None = None, role: Role | None = None
    ) -> c.Expr:
        if val.function is not None and val.expr is None:
            return function_value(self, val)
        return super().materialize(val, static, node, role)

    def visit_ListComp(self, node: cst.ListComp, role: Role | None) -> Val:
        return comprehension(self, node)

    def visit_GeneratorExp(self, node: cst.GeneratorExp, role: Role | None) -> Val:
        return comprehension(self, node)


def lower_call(lw: ExprLowerer, node: cst.Call) -> Val:
    fc = lw.fc
    chosen = _static_choice_argument(lw, node)
    if chosen is not None:
        return _distributed_call(lw, node, chosen)
    func = node.func
    resolved = lw.mod.names.resolve(func)
    if resolved is not None:
        return _dsl_call(lw, node, resolved)
    imported = lw.mod.names.imported(func)
    if imported == "functools.partial":
        return partial_function(lw, node)
    if imported == "types.SimpleNamespace":
        return namespace(lw, node)
    called = kernel_object_call(lw, node)  # `Cls(...)` of a kernel class, or an object's call
    if called is not None:
        return called
    if isinstance(func, cst.Attribute):
        if (
            isinstance(func.value, cst.Name)
            and func.value.value == fc.self_name
            and fc.fn.cls is not None
        ):
            name = func.attr.value
            if name in fc.fn.cls.methods:
                return helper_call(lw, node, fc.fn.cls.methods[name])
            if name in fc.fn.cls.plain_defs:
                # An undecorated method called with DSL values: traced like a helper.
                return helper_call(lw, node, fc.fn.cls.plain_defs[name])
        static = _static_method(lw, func)
        if static is not None:  # `Cls.create(...)`: a function of the class's namespace
            assert static.owner is not None
            receiver = Val(k.literal(ModuleClass(static.owner))) if static.takes_class else None
            return helper_call(lw, node, static, receiver)
        external = _external(lw, func)
        if external is not None:
            return external_call(lw, node, external)
        record_method = _record_method(lw, func)
        if record_method is not None:
            return helper_call(lw, node, record_method[0], record_method[1])
        return _method_call(lw, node, func)
    if isinstance(func, cst.Name):
        var = fc.env.lookup(func.value)
        if func.value in fc.structs and (var is None or var.kind.cat is Cat.TYPE):
            return _struct_view(lw, node, var.cxx if var is not None else func.value)
        if var is not None and var.value is not None and var.value.function is not None:
            return inline_call(lw, node, var.value.function)
        built = var.value.kind.value if var is not None and var.value is not None else None
        if isinstance(built, ModuleClass) and built.name in lw.mod.info.records:
            return construct(lw, node, lw.mod.info.records[built.name])  # `cls(...)`
        if var is not None and var.kind.cat in (Cat.CONSTEXPR, Cat.FUNC, Cat.VALUE):
            return Val(k.VALUE, c.Call(c.Id(var.cxx), _call_arguments(lw, node)), node=node)
        if var is None:
            target = lw.mod.info.free_function(func.value)
            if target is not None:
                return helper_call(lw, node, target)
            if func.value in lw.mod.info.records:
                return construct(lw, node, lw.mod.info.records[func.value])
            if func.value in lw.mod.info.plain_dsl:
                # An undecorated function called with DSL values: traced like a helper.
                return helper_call(lw, node, lw.mod.info.plain_dsl[func.value])
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


def _call_arguments(lw: ExprLowerer, node: cst.Call) -> tuple[c.Expr, ...]:
    """The C++ arguments of a call of a function value (a Constexpr callable): `*seq` of a
    Python sequence known at translation spreads its elements, as Python does."""
    args: list[c.Expr] = []
    for a in node.args:
        if a.keyword is not None or a.star == "**":
            raise lw.fc.error(a, "unsupported-construct",
                              "keyword arguments to a function passed as a value",
                              "pass its arguments by position")
        if a.star == "*":
            val = lw.lower(a.value)
            items = value_items(val)
            if items is None:
                raise lw.fc.error(a, "unsupported-construct",
                                  "`*` of a value whose length is not known at compile time",
                                  "spread a tuple or list known at trace time")
            args += [lw.materialize(v, True, v.node or a.value) for v in items]
            continue
        args.append(lw.value(a.value))
    return tuple(args)


def _static_choice_argument(lw: ExprLowerer, node: cst.Call) -> Var | None:
    """An argument naming a compile-time choice between Python values (`op` after
    `if const_expr(c): op = A` / `else: op = B`)."""
    for arg in node.args:
        if isinstance(arg.value, cst.Name):
            var = lw.fc.env.lookup(arg.value.value)
            if var is not None and isinstance(var.alias, cst.IfExp):
                return var
    return None


def _distributed_call(lw: ExprLowerer, node: cst.Call, var: Var) -> Val:
    """`f(op)` with `op` standing for `a if cond else b`: `f(a) if cond else f(b)`, as each
    specialization traces it — a call that needs a Python value (an enumeration member, a
    string) gets one, and only the chosen call is instantiated."""
    assert isinstance(var.alias, cst.IfExp)
    choice = var.alias
    cond = lw.lower(choice.test)
    arms: list[Val] = []
    for arm in (choice.body, choice.orelse):
        if cond.kind.cat is Cat.LITERAL and bool(cond.kind.value) != (arm is choice.body):
            continue
        lw.fc.env.push(STATIC_IF)
        try:
            lw.fc.env.define(dataclasses.replace(var, alias=arm))
            arms.append(lw.lower(node))
        except TranslationError as err:
            if cond.kind.cat is Cat.LITERAL:
                raise
            arms.append(_deferred_call(lw, err.diagnostic, node))
        finally:
            lw.fc.env.pop()
    if len(arms) == 1:
        return arms[0]
    test = lw.materialize(cond, True, choice.test)
    return lw.static_choice(test, (arms[0], node), (arms[1], node), node)


def deferred_error(mod: ModuleContext, d: Diagnostic) -> c.StaticAssert:
    """What cannot be translated in code that a specialization may not take: a dependent
    `static_assert` with the diagnostic, which fires only where it is instantiated."""
    message = f"{mod.file_name}:{d.line}:{d.col}: {d.what}"
    message += f" \u2014 {d.hint}" if d.hint else ""
    return c.StaticAssert(c.Id("dependent_false<Meta>"), message)


def _deferred_call(lw: ExprLowerer, d: Diagnostic, node: cst.Call) -> Val:
    """A call that cannot be translated for one arm of a compile-time choice: an error if, and
    only if, a specialization takes that arm."""
    fails = c.Lambda((), (deferred_error(lw.mod, d),), "&")
    return Val(k.VALUE, c.Call(fails, ()), node=node)


def inline_call(lw: ExprLowerer, node: cst.Call, fn: PyFunction) -> Val:
    """A call of a nested function or lambda: its body, traced for these arguments (the
    arguments are lowered where the call is; the body sees the enclosing function's names).
    A lambda is an expression; a nested def becomes `[&]() { body }()`."""
    bindings = call_bindings(lw, node, fn)
    line, _ = lw.mod.position(node)
    if isinstance(fn.node, cst.Lambda):
        lw.fc.env.push(INLINED)
        try:
            for name, val in bindings:
                lw.fc.env.define(Var(name, cxx_name(name), val.kind, line, value=val))
            return lw.lower(fn.node.body)
        finally:
            lw.fc.env.pop()
    if lw.fc.inline_body is None:
        raise lw.fc.error(node, "unsupported-call", "nested functions need a statement context")
    body, returned, _ = lw.fc.inline_body(fn.node, bindings)
    kinds = {kd for kd in returned if kd.cat not in (Cat.LITERAL, Cat.META)}
    kind = kinds.pop() if len(kinds) == 1 else k.VALUE
    return Val(kind, c.Call(c.Lambda((), tuple(body), "&")), node=node)


def partial_function(lw: ExprLowerer, node: cst.Call) -> Val:
    """`functools.partial(f, *args, **kw)` of a nested function or lambda: a Python function
    with those arguments bound."""
    if not node.args or node.args[0].keyword is not None:
        raise lw.fc.error(node, "bad-arguments", "functools.partial needs a function first")
    target = lw.lower(node.args[0].value)
    if target.function is None:
        raise lw.fc.error(
            node.args[0],
            "unsupported-call",
            "functools.partial of this callable is not supported",
            "partial applies to nested functions and lambdas of the DSL function",
        )
    fn = target.function
    args = fn.args + tuple(lw.lower(a.value) for a in node.args[1:] if a.keyword is None)
    keywords = (*fn.keywords, *((a.keyword.value, lw.lower(a.value)) for a in node.args[1:]
                                if a.keyword is not None))  # fmt: skip
    bound = PyFunction(fn.node, args, tuple(keywords))
    return Val(Kind(Cat.FUNC), node=node, function=bound)


def namespace(lw: ExprLowerer, node: cst.Call) -> Val:
    """`types.SimpleNamespace(a=x, b=y)`: its attributes by name, as the DSL sees them."""
    if any(a.keyword is None for a in node.args):
        raise lw.fc.error(node, "bad-arguments", "SimpleNamespace takes keyword arguments")
    names = tuple(a.keyword.value for a in node.args if a.keyword is not None)
    items = tuple(lw.lower(a.value) for a in node.args)
    return Val(Kind(Cat.RECORD), None, node=node, items=items, fields=names)


def function_value(lw: ExprLowerer, val: Val) -> c.Expr:
    """A Python function passed on as a value (to a helper or kernel): a C++ lambda, or in host
    code a functor struct, whose body is the function traced for its parameters (the arguments
    a `partial` binds are bound)."""
    fn = val.function
    assert fn is not None
    if isinstance(fn.node, cst.Lambda) and not fn.args and not fn.keywords:
        return lower_lambda(lw, fn.node)
    fc = lw.fc
    declared = (*fn.node.params.params, *fn.node.params.kwonly_params)
    params = [p.name.value for p in declared]
    keywords = dict(fn.keywords)
    bindings = list(zip(params, fn.args, strict=False))
    free: list[str] = []  # the functor's parameters: those nothing binds and without default
    for param in declared[len(fn.args):]:
        name = param.name.value
        if name in keywords:
            bindings.append((name, keywords[name]))
        elif param.default is not None:
            bindings.append((name, lw.lower(param.default)))
        else:
            free.append(name)
            bindings.append((name, Val(k.VALUE, c.Id(cxx_name(name)))))
    locals_before = _declared_names(lw)
    if isinstance(fn.node, cst.Lambda):
        fc.env.push(INLINED)
        try:
            for name, bound in bindings:
                fc.env.define(Var(name, cxx_name(name), bound.kind, 0, value=bound))
            body: tuple[c.Stmt, ...] = (c.Return(lw.value(fn.node.body)),)
        finally:
            fc.env.pop()
    else:
        if fc.inline_body is None:
            raise fc.error(val.node or fn.node, "unsupported-value",
                           f"'{fn.name}' passed as a value outside a statement")
        body = tuple(fc.inline_body(fn.node, bindings)[0])
    for p in params:
        fc.env.hidden.pop(p, None)
    names = [cxx_name(p) for p in free]
    captured = (identifiers(body) & locals_before) - set(names)
    if fc.role != "host":
        return c.Lambda(tuple(names), body, "=" if captured else "")
    if captured:
        raise fc.error(
            val.node or fn.node, "unsupported-value",
            f"'{fn.name}' reads local variables of '{fc.fn.name}' ({', '.join(sorted(captured))}) "
            "and is passed to a kernel",
            "pass those values to the kernel as arguments",
        )
    name = f"{fc.fn.cxx_name}_{cxx_name(fn.name) if fn.name != '<lambda>' else 'lambda'}"
    name = f"{name}{fc.lambdas}"
    fc.lambdas += 1
    line, _ = fc.mod.position(fn.node)
    given = [*zip(params, fn.args, strict=False), *fn.keywords]  # what a partial binds
    bound_text = ", ".join(f"{n}={lw.mod.code(v.node) if v.node else v.kind.value!r}"
                           for n, v in given)
    comment = f"{fc.mod.file_name}:{line}  {fn.name}"
    comment += f" with {bound_text}" if bound_text else ""
    text = functor_text(name, names, body, comment)
    meta = re.search(r"\bMeta\b", text) is not None  # it reads compile-time configuration
    fc.preamble.append(functor_text(name, names, body, comment, meta) if meta else text)
    functor = c.Type(name, (c.Type("Meta"),)) if meta else c.Type(name)
    return c.Construct(functor)


def _declared_names(lw: ExprLowerer) -> set[str]:
    """The C++ names of the variables the function being lowered has declared so far."""
    return {v.cxx for scope in lw.fc.env.scopes for v in scope.names.values()
            if v.value is None and v.alias is None}


def _static_method(lw: ExprLowerer, func: cst.Attribute) -> DslFunction | None:
    """`Cls.name` of a @staticmethod of a class of this module."""
    if not isinstance(func.value, cst.Name) or lw.fc.env.lookup(func.value.value) is not None:
        return None
    cls = lw.mod.info.all_classes.get(func.value.value)
    return cls.static_defs.get(func.attr.value) if cls is not None else None


def _record_method(lw: ExprLowerer, func: cst.Attribute) -> tuple[DslFunction, Val] | None:
    """`p.method` of a record: the method and the record."""
    if isinstance(func.value, cst.Name) and lw.fc.env.lookup(func.value.value) is None:
        return None  # a module or a class, not a value
    obj = lw.lower(func.value)
    target = _object_method(lw, obj, func.attr.value)
    return (target, obj) if target is not None else None


def _object_method(lw: ExprLowerer, obj: Val, name: str) -> DslFunction | None:
    """Method `name` of the class of a record (jit or undecorated), if it has one."""
    if obj.kind.cat is not Cat.RECORD:
        return None
    cls = lw.mod.info.records.get(str(obj.kind.value))
    return None if cls is None else cls.methods.get(name) or cls.plain_defs.get(name)


def _dunder_call(
    lw: ExprLowerer, node: cst.CSTNode, receiver: Val, name: str,
    args: Sequence[cst.BaseExpression],
) -> Val | None:
    """`obj[i]` -> `obj.__getitem__(i)`, `len(obj)` -> `obj.__len__()` of a record whose class
    defines the method: a call bbx writes, reported at the expression it stands for."""
    target = _object_method(lw, receiver, name)
    if target is None:
        return None
    call = cst.Call(cst.Attribute(cst.Name("self"), cst.Name(name)), [cst.Arg(a) for a in args])
    lw.mod.stands_for[call] = node
    return helper_call(lw, call, target, receiver)


def _dsl_call(lw: ExprLowerer, node: cst.Call, resolved: str) -> Val:
    builtin = resolved[len("builtins.") :] if resolved.startswith("builtins.") else None
    if builtin in SEQUENCE_BUILTINS:
        val = sequence_builtin(lw, node, builtin)
        if val is not None:
            return val
    return lw.entry(node, resolved).lower_call(lw, node, resolved)


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
    if obj.kind.cat in (Cat.LITERAL, Cat.META):
        raise fc.error(
            node, "unsupported-call", f"method '{name}' of a {obj.kind.describe()} is not supported"
        )
    objx = lw.materialize(obj, False, func.value)
    if obj.kind.cat is Cat.STRUCT_FIELD:
        return _struct_field_method(lw, node, name, objx)
    member = REGISTRY.member(obj.kind.cat, name)
    if member is None:
        raise fc.error(
            node,
            "unsupported-method",
            f"method '{name}' of a {obj.kind.describe()} is not supported",
        )
    return member.lower_method(lw, node, obj, objx, name)


def _struct_view(lw: ExprLowerer, node: cst.Call, struct: str) -> Val:
    """`SharedStorage(storage)`: a @cute.struct viewed at a shared-memory pointer (the bytes
    `smem.allocate(n, byte_alignment=...)` returned), fields through `->` as for
    `smem.allocate(SharedStorage)`."""
    bound = lw.bind(node, ["ptr"], f"'{struct}'", 1)
    ptr = lw.value(bound["ptr"])
    view = c.Call(c.Id("make_struct_ref"), (c.Construct(c.Type("type_c", (c.Type(struct),))), ptr))
    return Val(Kind(Cat.STRUCT_REF), view, node=node)


def _struct_field_method(lw: ExprLowerer, node: cst.Call, name: str, objx: c.Expr) -> Val:
    """Methods of a @cute.struct field: MemRange's `get_tensor` and `data_ptr`."""
    if name == "get_tensor":
        # A swizzle composes with the layout (bbx/tensor/smem_struct.hpp), as for
        # SmemAllocator.allocate_tensor.
        bound = lw.bind(node, ["layout", "swizzle", "dtype"], ".get_tensor", 1)
        if "dtype" in bound and not _is_none(bound["dtype"]):
            raise lw.fc.error(
                bound["dtype"],
                "unsupported-keyword",
                "MemRange.get_tensor(dtype=...) (a reinterpreting view) is not supported",
                "declare the field with the element type it is used with",
            )
        args = [lw.value(bound["layout"], static=True)]
        if "swizzle" in bound and not _is_none(bound["swizzle"]):
            args.append(lw.value(bound["swizzle"], static=True))
        return Val(k.TENSOR, c.Call(c.Member(objx, "get_tensor"), tuple(args)), node=node)
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




def helper_call(
    lw: ExprLowerer, node: cst.Call, target: DslFunction, receiver: Val | None = None
) -> Val:
    """A call of a `@cute.jit` helper of this module. As the DSL traces the helper with the
    values it is given, the Python-level arguments (literals, configuration values, None,
    sequences of those) are bound at translation: the call goes to the helper's variant for
    those values, which takes only the remaining, C++-level arguments."""
    fc = lw.fc
    if target.is_kernel:
        raise fc.error(
            node,
            "kernel-call",
            f"kernel '{target.name}' called without `.launch(...)`",
            "launch it: kernel(args).launch(grid=[...], block=[...])",
        )
    params = callee_params(target)
    names = [p.name.value for p in params]
    if receiver is not None:  # a record's method: `self` is the record
        given = {**lw.bind(node, names[1:], f"'{target.name}'", 0)}
    else:
        given = lw.bind(node, names, f"'{target.name}'", 0)
    bound: dict[str, Val] = {}
    kinds: dict[str, Kind] = {}  # what the C++ arguments are (the variant knows it)
    sequences: dict[str, tuple[Kind, ...]] = {}  # Python sequences: one C++ argument each
    records: dict[str, tuple[tuple[str, Kind], ...]] = {}  # namespaces: one per field
    record_classes: dict[str, str] = {}  # objects of record classes given field by field
    trees: dict[str, Val] = {}  # nested objects and sequences: leaf by leaf
    cxx_args: dict[str, c.Expr] = {}

    def by_leaf(pname: str, val: Val, where: cst.CSTNode) -> None:
        for label, leaf in tree_leaves(pname, val):
            cxx_args[label] = lw.materialize(leaf, True, leaf.node or where)
        trees[pname] = result_shape(val)

    def by_field(pname: str, val: Val, where: cst.CSTNode) -> None:
        assert val.items is not None and val.fields is not None
        for label, item in zip(val.fields, val.items, strict=True):
            cxx_args[f"{pname}_{label}"] = lw.materialize(item, True, item.node or where)
        records[pname] = tuple((f, v.kind) for f, v in zip(val.fields, val.items, strict=True))
        if val.kind.value is not None:
            record_classes[pname] = str(val.kind.value)

    for p in params:
        pname = p.name.value
        if pname == "stream" and target.cxx_name in lw.mod.host_functions:
            continue
        if receiver is not None and pname == names[0]:
            val = receiver
            if _python_level(val):
                bound[pname] = val
            elif _is_nested(val):
                by_leaf(pname, val, node)
            elif _is_aggregate(val):  # Python-level fields stay known to the method
                by_field(pname, val, node)
            else:
                cxx_args[pname] = lw.materialize(val, True, node)
                kinds[pname] = val.kind
            continue
        arg = given.get(pname, p.default)
        if arg is None:
            raise fc.error(node, "bad-arguments", f"'{target.name}' needs argument '{pname}'")
        if isinstance(arg, cst.Lambda) and not _is_constexpr(lw, p):
            # a Python function given to a plain parameter: the call is traced with it
            bound[pname] = Val(Kind(Cat.FUNC), node=arg, function=PyFunction(arg))
            continue
        if not isinstance(arg, cst.Lambda) and not _runtime_scalar(lw, p):
            val = lw.lower(arg)
            if _python_level(val) or val.function is not None:
                bound[pname] = val
                continue
            if _is_nested(val):  # an object holding objects or sequences: leaf by leaf
                by_leaf(pname, val, arg)
                continue
            if _is_aggregate(val):  # a sequence of DSL objects, a namespace: element by element
                assert val.items is not None
                if val.fields is not None:
                    by_field(pname, val, arg)
                    continue
                for i, item in enumerate(val.items):
                    cxx_args[f"{pname}_{i}"] = lw.materialize(item, True, item.node or arg)
                sequences[pname] = tuple(v.kind for v in val.items)
                continue
            if val.kind.cat in _KNOWN_ARGUMENT_CATS:
                kinds[pname] = val.kind
        cxx_args[pname] = argument(lw, arg, p)
    if lw.mod.lower_variant is None:
        raise fc.error(node, "unsupported-call", "helper calls need a module translation")
    role = "device" if fc.role in ("kernel", "device") else "host"
    lw.mod.current_static_branch = fc.env.in_static_branch()
    try:
        variant = lw.mod.lower_variant(target, bound, kinds, role, node,
                                       Aggregates(sequences, records, record_classes, trees))
    finally:
        lw.mod.current_static_branch = False
    if variant.python_result is not None:  # read again where it is used, not called again
        return dataclasses.replace(variant.python_result, node=lw.held(variant.python_result, node))
    fc.calls.append(variant.cxx_name)
    args = [cxx_args[name] for name in variant.params if name in cxx_args]
    if role == "host":  # a host variant takes the caller's stream last (bbx.lowering.function)
        args.append(c.Id(fc.stream_name))
    call = c.Call(c.Id(variant.cxx_name), tuple(args), (c.Type("Meta"),))
    if variant.result_shape is not None and variant.result_shape.items is not None:
        # a tuple or record: its Python-level leaves stay
        return dataclasses.replace(element_view(variant.result_shape, call), node=node)
    return Val(variant.result, call, node=node)


#: Kinds of C++ arguments a helper variant takes over for its parameter (anything else is a
#: value whose kind is decided by the C++ type alone).
_KNOWN_ARGUMENT_CATS = frozenset({
    Cat.TENSOR, Cat.LAYOUT, Cat.TENSOR_SSA, Cat.ATOM, Cat.TILED_COPY, Cat.THR_COPY, Cat.STATIC,
    Cat.SMEM_ALLOCATOR, Cat.STRUCT_REF, Cat.TYPE, Cat.FUNC, Cat.RECORD, Cat.MMA_ATOM,
    Cat.TILED_MMA, Cat.THR_MMA, Cat.NAMED_BARRIER, Cat.CONSTEXPR,
})  # fmt: skip


def _is_nested(val: Val) -> bool:
    """A tuple, list or object holding tuples, lists or objects of DSL values (a record of
    particles): passed to a helper leaf by leaf, its structure and Python values kept."""
    return (val.items is not None and not _python_level(val)
            and any(v.items is not None and not _python_level(v) for v in val.items))


def _is_aggregate(val: Val) -> bool:
    """A Python sequence holding DSL objects (tensors, layouts, atoms...), a namespace
    (SimpleNamespace, dict) of DSL values or an object holding Python values beside DSL
    values: passed to a helper element by element, as the DSL passes the Python object (its
    elements keep their kinds, its Python values their values)."""
    if val.items is None or _python_level(val) or any(v.items is not None for v in val.items):
        return False
    if val.fields is not None:  # a namespace; an object holding Python values too
        return val.kind.cat is Cat.RECORD and (
            val.kind.value is None or any(_python_level(v) for v in val.items))
    return any(v.kind.cat in _KNOWN_ARGUMENT_CATS for v in val.items)


def _python_level(val: Val) -> bool:
    """A value the DSL keeps in Python while tracing: a literal, a configuration value, or a
    sequence or record of those."""
    if val.kind.cat in (Cat.LITERAL, Cat.META):
        return True
    return val.items is not None and all(_python_level(v) for v in val.items)


def _runtime_scalar(lw: ExprLowerer, param: cst.Param) -> bool:
    """A parameter annotated with a numeric type: the DSL converts its argument to a run-time
    value (`x: cutlass.Float32`)."""
    ann = param.annotation.annotation if param.annotation is not None else None
    return ann is not None and numeric_type(lw.mod.names.resolve(ann)) is not None


def argument(lw: ExprLowerer, arg: cst.BaseExpression, param: cst.Param) -> c.Expr:
    """An argument for `param` of a generated function (helper or kernel)."""
    return argument_value(
        lw, arg, param.name.value, _is_constexpr(lw, param), _runtime_scalar(lw, param)
    )


def kernel_argument(lw: ExprLowerer, arg: cst.BaseExpression, param: ParamSig) -> c.Expr:
    """An argument of a kernel launch, for a parameter of the kernel's signature (of this
    module or another): a numeric-annotated parameter takes a run-time value; a Python value
    with no C++ form (a string, None) given to a Constexpr parameter reaches the kernel only
    through its Meta members, and the argument itself is `python_only_value`."""
    runtime_scalar = param.template is None
    if isinstance(arg, cst.Lambda):
        return argument_value(lw, arg, param.name, param.constexpr, runtime_scalar)
    val = lw.lower(arg)
    if param.constexpr and val.kind.cat is Cat.LITERAL and not isinstance(
        val.kind.value, (bool, int, float)
    ):
        return c.Construct(c.Type("python_only_value"))
    return lw.materialize(val, not runtime_scalar, arg)


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
    bound = lw.bind(node, names, f"'{info.python_name}'", 0)
    args: list[c.Expr] = []
    for p in info.params:
        text = p.default if p.name not in bound else None
        arg = bound.get(p.name) or (cst.parse_expression(text) if text is not None else None)
        if arg is None:
            raise fc.error(node, "bad-arguments", f"'{info.python_name}' needs argument '{p.name}'")
        args.append(argument_value(lw, arg, p.name, p.constexpr, p.template is None))
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


__all__ = ["CallLowerer", "helper_call", "argument", "lower_lambda", "callee_params"]
