"""Lowering of one `@cute.kernel` / `@cute.jit` function to a C++ function template."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

import libcst as cst

from ..analysis import kinds as k
from ..analysis import meta as m
from ..analysis.kinds import Cat, Kind
from ..analysis.meta import MetaMember
from ..analysis.scope import Var
from ..analysis.value import PyFunction, Val, python_level
from ..cxx import ast as c
from ..cxx.printer import function_text
from ..diagnostics import DiagnosticSink, TranslationError
from ..frontend.discovery import DslClass, DslFunction
from ..frontend.imports import local_names
from ..frontend.walk import children, walk
from .context import Aggregates, FunctionContext, ModuleContext, Variant, VariantKey, tree_leaves
from .host_callables import UnknownCallable, host_function
from .lowered import LoweredFunction
from .names import cxx_name
from .signature import ParamSig, camel, signature
from .stmt import StmtLowerer
from .struct import kernel_struct_attrs, kernel_traced_attrs


def class_leaf_kinds(cls: DslClass | None, self_name: str | None) -> dict[str, str]:
    if cls is None or self_name is None:
        return {}
    params = {
        name: m.annotation_kind(p.annotation.annotation if p.annotation else None, p.default)
        for name, p in cls.init_params.items()
    }
    # Class constants first: an instance attribute of the same name shadows one.
    kinds = {
        f"{self_name}.{attr}": m.infer_kind(expr, {}) for attr, expr in cls.class_attrs.items()
    }
    kinds |= {
        f"{self_name}.{attr}": m.infer_kind(expr, params | kinds)
        for attr, expr in cls.init_attrs.items()
    }
    return kinds


def _dynamic_targets(body: cst.BaseSuite, mod: ModuleContext) -> set[str]:
    """Names assigned somewhere inside dynamic control flow (approximation: every `if` that is
    not `const_expr`, every loop, every `while`). A `range_constexpr` loop counts too: its body
    is one C++ lambda for every iteration, so a variable it rebinds keeps one C++ type."""
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
            visit(node.body, True)
            return
        if isinstance(node, cst.While):
            visit(node.body, True)
            return
        if dynamic and isinstance(node, cst.AssignTarget) and isinstance(node.target, cst.Name):
            names.add(node.target.value)
        if (dynamic and isinstance(node, cst.AssignTarget)
                and isinstance(node.target, cst.Attribute)
                and isinstance(node.target.value, cst.Name)):  # `ns.field = ...`
            names.add(f"{node.target.value.value}.{node.target.attr.value}")
        if dynamic and isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            names.add(node.target.value)
        for child in children(node):
            visit(child, dynamic)

    visit(body, False)
    return names


def _carried_targets(body: cst.BaseSuite, dynamic: set[str]) -> set[str]:
    """Names that dynamic control flow rebinds after they were bound (assigned at two places
    or more, one of them inside dynamic control flow): a tuple, list or record such a name
    holds is carried through the loop or branch leaf by leaf."""
    counts: dict[str, int] = {}
    for node in walk(body):
        targets: list[cst.BaseExpression] = []
        if isinstance(node, cst.AssignTarget):
            targets.append(node.target)
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            targets.append(node.target)
        for target in targets:
            if isinstance(target, cst.Name):
                counts[target.value] = counts.get(target.value, 0) + 1
    return {name for name, n in counts.items() if n > 1 and name in dynamic}


#: Kinds of objects a helper takes by reference: a tensor (a register fragment is its storage),
#: a run-time scalar that is a namespace's field (the caller's object, as in Python).
_BY_REFERENCE = frozenset({Cat.TENSOR, Cat.DYNAMIC})


def _rebound_names(body: cst.BaseSuite) -> set[str]:
    """Names a function body binds (assignment, loop and `with` targets, del)."""
    names: set[str] = set()
    for node in walk(body, into_lambdas=False):
        target = None
        if isinstance(node, cst.AssignTarget):
            target = node.target
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            target = node.target
        elif isinstance(node, (cst.For, cst.CompFor)):
            target = node.target
        if target is not None:
            names |= _target_names(target)
    return names


def _target_names(target: cst.BaseExpression) -> set[str]:
    """The names an assignment target binds (not those `t[i] = ...` or `o.x = ...` use)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return {n for e in target.elements for n in _target_names(e.value)}
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return set()


def _has_value_return(body: cst.BaseSuite) -> bool:
    return any(
        isinstance(n, cst.Return) and n.value is not None for n in walk(body, into_lambdas=False)
    )


def _header(mod: ModuleContext, fn: DslFunction) -> str:
    line, _ = mod.position(fn.node)
    names = ", ".join(p.name.value for p in fn.node.params.params)
    return f"{mod.file_name}:{line}  def {fn.name}({names})"


def lower_function(
    mod: ModuleContext,
    fn: DslFunction,
    bound: dict[str, Val] | None = None,
    cxx_name_override: str | None = None,
    kinds: dict[str, Kind] | None = None,
    role: str | None = None,
    aggregates: Aggregates | None = None,
    callables: dict[str, str] | None = None,
    values: dict[str, object] | None = None,
) -> LoweredFunction:
    """Lower one function. `bound` binds parameters to values known at translation (a helper
    variant: the DSL traces each call with the Python values it is given); those parameters
    are not C++ parameters of the result, named `cxx_name_override`. `kinds` gives the kinds
    of the other arguments at the call (a tensor, a layout...). `aggregates`: parameters given
    Python sequences (bbx.lowering.sequence_params) or namespaces of C++ values: each element
    is a C++ parameter of its own. `callables` names the Python functions host Python
    gives Constexpr parameters (bbx.lowering.host_callables): they are traced. `values`: Python
    data host Python gives parameters used as Python sequences: they stand for the value."""
    bound = bound or {}
    kinds = kinds or {}
    aggregates = aggregates or Aggregates()
    callables = callables or {}
    values = values or {}
    if fn.is_kernel:
        role = "kernel"
    elif role is None:
        role = "device" if fn.cxx_name in mod.device_functions else "host"
    fc = FunctionContext(mod, fn, role)
    mod.names.locals = local_names(fn.node)
    params = list(fn.node.params.params)
    for p in fn.node.params.posonly_params:
        mod.sink.add(
            mod.diagnostic(
                p,
                "unsupported-construct",
                "positional-only parameters are not supported",
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
    if fn.cls is not None and params and not fn.self_is_value:
        fc.self_name = params[0].name.value
    fc.leaf_kinds = class_leaf_kinds(fn.cls, fc.self_name)
    fc.structs = set(mod.info.structs)
    sig = signature(mod, fn)
    line, _ = mod.position(fn.node)
    cparams: list[c.Param] = []
    # A kernel's second template parameter is its block size as a type (bbx::block_threads_t),
    # which its launch site knows: static block extents become launch bounds.
    template_params = ["Meta", "MaxThreads"] if role == "kernel" else ["Meta"]
    cxx_params: list[str] = []  # the C++ parameters of the result, by Python-level name
    helper = not fn.is_kernel and (cxx_name_override is not None or role == "device")
    rebound = _rebound_names(fn.node.body)
    for ps in sig.params:
        if ps.name in aggregates.trees:  # a nested aggregate: one C++ parameter per leaf
            leaves = []
            for label, leaf in tree_leaves(ps.name, aggregates.trees[ps.name]):
                leaf_type = f"{ps.template or camel(ps.name)}{camel(label[len(ps.name) + 1:])}"
                leaf_name = cxx_name(label)
                template_params.append(leaf_type)
                cparams.append(c.Param(c.Type(leaf_type), leaf_name,
                                       helper and leaf.kind.cat in _BY_REFERENCE))
                cxx_params.append(label)
                fc.env.used_cxx.add(leaf_name)
                leaves.append(Val(leaf.kind, c.Id(leaf_name)))
            held = _fill_leaves(aggregates.trees[ps.name], iter(leaves))
            fc.env.define(Var(ps.name, cxx_name(ps.name), held.kind, line, value=held))
            continue
        parts = _aggregate_parts(ps.name, aggregates)
        if parts is not None:  # a Python aggregate: one C++ parameter per element
            items = []
            for label, element in parts:
                element_type = f"{ps.template or camel(ps.name)}{camel(label)}"
                element_name = cxx_name(f"{ps.name}_{label}")
                template_params.append(element_type)
                # the elements themselves: a namespace's fields are the caller's, as in Python
                cparams.append(c.Param(c.Type(element_type), element_name,
                                       helper and element.cat in _BY_REFERENCE))
                cxx_params.append(f"{ps.name}_{label}")
                fc.env.used_cxx.add(element_name)
                items.append(Val(element, c.Id(element_name)))
            if ps.name in aggregates.records:
                held = Val(Kind(Cat.RECORD, value=aggregates.record_classes.get(ps.name)),
                           items=tuple(items),
                           fields=tuple(label for label, _ in parts))
            else:
                held = Val(Kind(Cat.TUPLE, elems=tuple(v.kind for v in items)),
                           items=tuple(items))
            fc.env.define(Var(ps.name, cxx_name(ps.name), held.kind, line, value=held))
            continue
        if ps.name in bound:  # bound at translation: uses stand for the value
            fc.env.define(
                Var(ps.name, cxx_name(ps.name), bound[ps.name].kind, line, value=bound[ps.name])
            )
            continue
        if ps.template is not None:
            template_params.append(ps.template)
        if ps.name in values:  # Python data given by host Python: the value, as in Python
            given_value = Val(k.literal(values[ps.name]))
            fc.env.define(Var(ps.name, cxx_name(ps.name), given_value.kind, line,
                              value=given_value))
            cparams.append(c.Param(ps.type, f"/*{ps.name} = {values[ps.name]!r}*/"))
            cxx_params.append(ps.name)
            continue
        traced_fn = _traced_function(mod, fn, ps, callables) if role == "host" else None
        if traced_fn is not None:
            # `op: Constexpr` given a Python function by host Python (or left at its `lambda`
            # default): the function is traced where it is used; no C++ value is passed.
            func = Val(Kind(Cat.FUNC), node=traced_fn.node, function=traced_fn)
            fc.env.define(Var(ps.name, cxx_name(ps.name), func.kind, line, value=func))
            given = "its default" if ps.name not in callables else "the function given"
            cparams.append(c.Param(ps.type, f"/*{ps.name}: {given} is traced*/"))
            cxx_params.append(ps.name)
            continue
        if ps.constexpr:
            fc.constexpr_params.add(ps.name)
            fc.leaf_kinds[ps.name] = (
                m.infer_kind(cst.parse_expression(ps.default), {})
                if (ps.default is not None)
                else m.VALUE
            )
        # A root function's parameter may be None in a specialization; a helper's unbound
        # parameter never is (None is a Python value: calls bind it).
        kind = kinds.get(ps.name, ps.kind)
        # A dtype passed as a value (`type_c<T>{}`): the name stands for the type T.
        spelled = (
            f"dtype_t<{ps.template}>"
            if kind.cat is Cat.TYPE and ps.template is not None
            else cxx_name(ps.name)
        )
        fc.env.define(
            Var(ps.name, spelled, kind, line, template_type=ps.template,
                param=cxx_name_override is None)
        )
        # A helper takes the tensors it is given, as Python passes them (a register fragment
        # it writes, a view it returns into it), unless it rebinds the name (then a copy).
        # (Not a static value: a reference is no constant expression for `if constexpr`.)
        forward = (helper and ps.template is not None and ps.name not in rebound
                   and kind.cat in _BY_REFERENCE)
        cparams.append(c.Param(ps.type, cxx_name(ps.name), forward))
        cxx_params.append(ps.name)
    # The @cute.struct classes a kernel reads through `self.x`: its last template parameters.
    if fn.cls is not None:
        template_params += [fn.cls.struct_attrs[attr] for attr in kernel_struct_attrs(fn)]
    # Run-time values a traced host method stored on `self` and the kernel reads: parameters.
    for attr in kernel_traced_attrs(mod, fn):
        name, template = f"self_{attr}", f"Self{camel(attr)}"
        traced = mod.traced_attributes[(fn.cls.name, attr)]  # type: ignore[union-attr]
        template_params.append(template)
        cparams.append(c.Param(c.Type(template), name))
        fc.traced_params[attr] = Val(traced.value.kind, c.Id(name))
        fc.env.used_cxx.add(name)
    if sig.stream is not None:
        fc.stream_name = sig.stream
        fc.env.define(Var(sig.stream, cxx_name(sig.stream), Kind(Cat.STREAM), line))
    if role == "host":
        cparams.append(c.Param(c.Type("Stream"), fc.stream_name))
        fc.env.used_cxx.add(fc.stream_name)
    fc.dynamically_assigned = _dynamic_targets(fn.node.body, mod)
    fc.carried = _carried_targets(fn.node.body, fc.dynamically_assigned)

    body = StmtLowerer(fc).block(fn.node.body)

    if role == "kernel":
        space, ret = "BBX_GLOBAL BBX_LAUNCH_BOUNDS(MaxThreads)", "void"
    elif role == "device":
        space = "BBX_HOST_DEVICE" if fn.cxx_name in mod.host_functions else "BBX_DEVICE"
        ret = "auto"
    else:
        ret = "auto" if _has_value_return(fn.node.body) else "void"
        # A free function that launches nothing may be called from kernels of other modules.
        space = ("" if fn.cls is not None or launches(mod, fn, set())
                 or fn.cxx_name in mod.object_calls  # it calls kernel objects (host only)
                 else "BBX_HOST_DEVICE")
    comments = [_header(mod, fn)]
    if bound:
        comments.append(
            "with " + ", ".join(f"{name} = {_describe_bound(mod, v)}" for name, v in bound.items())
        )
    if fn.cls is None and fc.meta:
        comments += meta_block(fc.meta)
    name = cxx_name_override or fn.cxx_name
    cxx = c.Function(name, template_params, space, ret, cparams, body, comments)
    returned = {kd for kd in fc.return_kinds if kd.cat not in (Cat.LITERAL, Cat.META)}
    result = returned.pop() if len(returned) == 1 else k.VALUE
    shapes = fc.return_shapes
    shape = shapes[0] if len(fc.return_kinds) == 1 and len(shapes) == 1 else None
    return LoweredFunction(
        fn, role, cxx, fc.meta, sig, fc.preamble, name, result, fc.calls, tuple(cxx_params),
        # a helper bound to Python values, or a kernel lowered for a launch's sequences
        is_variant=name != fn.cxx_name or bool(bound) or (
            bool(aggregates) and cxx_name_override is not None),
        result_shape=shape,
    )


def _describe_bound(mod: ModuleContext, val: Val) -> str:
    if val.kind.cat is Cat.LITERAL:
        return repr(val.kind.value)
    if val.node is not None:
        return " ".join(mod.code(val.node).split())
    return val.kind.describe()


def variant_name(fn: DslFunction, bound: dict[str, Val], mod: ModuleContext) -> str:
    """The C++ name of a helper bound to Python values: the helper's own name when every bound
    value is the parameter's default, else a suffix spelling the others."""
    defaults = {
        p.name.value: mod.code(p.default)
        for p in (*fn.node.params.params, *fn.node.params.kwonly_params)
        if p.default is not None
    }
    if fn.takes_class:  # a @classmethod's class is always its own
        defaults[fn.node.params.params[0].name.value] = str(fn.owner)
    words: list[str] = []
    for name, val in bound.items():
        text = _describe_bound(mod, val)
        if defaults.get(name) == text:
            continue
        words.append(f"{name}_{text}")
    if not words:
        return fn.cxx_name
    suffix = re.sub(r"[^0-9A-Za-z_]+", "_", "_".join(words)).strip("_")
    return f"{fn.cxx_name}__{suffix}"


def lower_variant(
    mod: ModuleContext,
    fn: DslFunction,
    bound: dict[str, Val],
    kinds: dict[str, Kind],
    role: str,
    site: cst.CSTNode,
    aggregates: Aggregates | None = None,
) -> Variant:
    """The variant of helper `fn` for `bound` (lowered on first request; callees are lowered
    before the function that calls them, so `mod.lowered` stays in emission order). A kernel
    has variants only for the Python sequences it is launched with (`aggregates`)."""
    aggregates = aggregates or Aggregates()
    key: VariantKey = (
        fn.cxx_name,
        (
            *((n, _value_key(mod, v)) for n, v in bound.items()),
            *((n, ("kind", kd)) for n, kd in sorted(kinds.items())),
            *aggregates.key(),
            ("", ("role", role if fn.decorator == "plain" else "")),
        ),
    )
    if key in mod.variants:
        done = mod.variants[key]
        if done is None:
            raise mod.error(
                site,
                "recursion",
                f"recursive call of '{fn.name}'",
                "recursion cannot be unrolled at compile time; use a loop",
            )
        return done
    mod.variants[key] = None
    name = variant_name(fn, bound, mod)
    taken = {v.cxx_name for v in mod.variants.values() if v is not None}
    n = 2
    base = name
    while name in taken:
        name = f"{base}_{n}"
        n += 1
    saved_locals = mod.names.locals
    # Called from a `const_expr` branch decided per specialization, a helper that cannot be
    # translated defers that branch (bbx.diagnostics.DeferredBranch) instead of failing.
    deferrable = mod.current_static_branch
    mod.current_static_branch = False
    sink, point = mod.sink, mod.checkpoint()
    if deferrable:
        mod.sink = DiagnosticSink(sink.path, sink.source)
    reported = len(mod.sink.items)
    try:
        # A plain (undecorated) helper runs where its caller runs; a jit helper where the call
        # graph says (on both sides for a helper that host and device code call).
        # (so does a method of a class of values, and a static method: the call graph of the
        # module's functions does not hold them)
        where_called = fn.decorator == "plain" or fn.owner is not None or (
            fn.cls is not None and fn.cls.init is not None)
        lowered = lower_function(
            mod, fn, bound, name, kinds, role if where_called else None, aggregates
        )
    finally:
        mod.names.locals = saved_locals
        if mod.variants.get(key) is None:
            mod.variants.pop(key, None)
        scratch, mod.sink = mod.sink, sink
    if deferrable and scratch.has_errors:
        mod.roll_back(point)
        raise TranslationError(scratch.sorted()[0])
    for d in scratch.items if deferrable else ():
        sink.add(d)
    clean = not any(d.severity == "error" for d in scratch.items[reported:])
    twin = _same_code(mod, lowered)
    if clean and _only_returns_python(lowered):  # no C++ function: each call is the value
        variant = Variant(name, (), lowered.result, None, lowered.result_shape)
    elif twin is not None:  # the call's extra facts changed nothing: reuse what is there
        variant = Variant(twin.cxx_name, twin.params, twin.result, twin.result_shape)
    else:
        mod.lowered.append(lowered)
        variant = Variant(name, lowered.params, lowered.result, lowered.result_shape)
    mod.variants[key] = variant
    return variant


def _only_returns_python(lowered: LoweredFunction) -> bool:
    """Whether a helper does nothing but return one Python literal, or a tuple of them
    (`return len(self.items)`)."""
    def literal(val: Val) -> bool:
        if val.items is not None:
            return all(literal(v) for v in val.items)
        return val.kind.cat is Cat.LITERAL

    shape = lowered.result_shape
    return shape is not None and literal(shape) and all(
        isinstance(stmt, (c.Comment, c.Return)) for stmt in lowered.cxx.body)


def _same_code(mod: ModuleContext, new: LoweredFunction) -> LoweredFunction | None:
    """An already lowered variant of the same function whose C++ is the same as `new`'s."""
    text = _renamed_text(new, "")
    for old in mod.lowered:
        if old.fn is new.fn and old.params == new.params and _renamed_text(old, "") == text:
            return old
    return None


def _renamed_text(lf: LoweredFunction, name: str) -> str:
    renamed = dataclasses.replace(lf.cxx, name=name)
    return function_text(renamed) + "\n".join(lf.preamble)


def _fill_leaves(shape: Val, leaves: Iterator[Val]) -> Val:
    """`shape` (records.result_shape) with its C++ leaves taken from `leaves`, in order."""
    if shape.items is None:
        return shape if python_level(shape) else next(leaves)
    return dataclasses.replace(shape, items=tuple(_fill_leaves(v, leaves) for v in shape.items))


def _aggregate_parts(name: str, aggregates: Aggregates) -> list[tuple[str, Kind]] | None:
    """(label, kind) of each element of the aggregate parameter `name` is given, or None."""
    if name in aggregates.sequences:
        return [(str(i), kd) for i, kd in enumerate(aggregates.sequences[name])]
    if name in aggregates.records:
        return list(aggregates.records[name])
    return None


def _value_key(mod: ModuleContext, val: Val) -> object:
    """What identifies a bound value: equal keys give the same C++ code."""
    if val.function is not None:  # a Python function: where it is written, what it binds
        fn = val.function
        return ("fn", mod.position(fn.node), tuple(_value_key(mod, v) for v in fn.args),
                tuple((n, _value_key(mod, v)) for n, v in fn.keywords))
    if val.kind.cat is Cat.LITERAL:
        return ("lit", type(val.kind.value).__name__, repr(val.kind.value))
    if val.items is not None:
        return ("seq", tuple(_value_key(mod, v) for v in val.items))
    return ("meta", str(val.kind.value), val.kind.meta_kind)


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


def _traced_function(
    mod: ModuleContext, fn: DslFunction, ps: ParamSig, callables: dict[str, str]
) -> PyFunction | None:
    """The Python function a Constexpr parameter of a function called from host Python stands
    for: the one host Python gives it (`callables`), or its `lambda` default, which is what
    host Python leaves it at otherwise (the runtime checks)."""
    name = ps.name
    if name in callables:
        try:
            return host_function(mod, callables[name])
        except UnknownCallable as exc:
            raise mod.error(fn.node, "unknown-callable",
                            f"the function given to '{name}' is not in this source: {exc}",
                            "the module changed since it was imported; run again") from None
    for p in (*fn.node.params.params, *fn.node.params.kwonly_params):
        if ps.constexpr and p.name.value == name and isinstance(p.default, cst.Lambda):
            return PyFunction(p.default)
    return None
