"""The tracer's control flow: the functions that preprocessed jit code calls as `__bbx__.<name>`
(the contract is in `bbx.preprocess`).

A condition, range or iterable that is a Python value (a Python object, or a static DSL number)
runs as Python: one branch is traced, a loop runs as Python runs it (unrolled in the C++), and
`break`/`continue`/`return`/`else` behave as in Python. A run-time value (a proxy) makes C++
control flow instead: `if`, `for`, `while`, each body traced once, and the variables the body
assigns that are needed afterwards (the loop-carried variables the preprocessor lists) become
C++ variables declared before the statement and assigned in it. As in the CuTe DSL:

* a carried variable keeps its type (Python numbers count as `Int32`/`Float32`/`Boolean`; a
  tuple or list keeps its structure; any other Python object must stay the same object);
* `break`, `continue` and `return` inside run-time control flow are errors at their line;
* `range_constexpr` and `const_expr` require static values.

A `while` whose condition becomes a run-time value after some Python iterations continues as a
C++ loop from the state those iterations left.
"""

from __future__ import annotations

import builtins
import operator
import types
from collections.abc import Callable, Iterable
from typing import Any

from ..cxx import ast as c
from .context import Block, TraceContext, current, require
from .errors import Loc, trace_error
from .minmax import builtin  # noqa: F401 - `__bbx__.builtin(min)`: the preprocessor's redirect
from .scalar import (
    Boolean,
    CxxValue,
    Numeric,
    as_numeric,
    is_dynamic,
    logical_not,
    promote,
    select,
    to_boolean,
)
from .value_tree import (
    FromValues,
    WithFields,
    flatten,
    labels,
    paths,
    structure_difference,
    unflatten,
)

RUNTIME_NAME = "__bbx__"

# ---------------------------------------------------------------------------------------------
# Control-flow signals of region functions
# ---------------------------------------------------------------------------------------------


class Flow:
    """What a region function returns when the code left it early: `break`, `continue`,
    `return` (with `value`), or `broken` (a loop runner: its loop ended by `break`)."""

    __slots__ = ("kind", "value", "loc")

    def __init__(self, kind: str, value: Any = None, loc: Loc | None = None) -> None:
        self.kind, self.value, self.loc = kind, value, loc

    def __repr__(self) -> str:
        return f"Flow({self.kind})"


BROKEN = Flow("broken")


def result(value: Any, loc: Loc) -> Any:
    """`return value` of a rewritten function: the tracer notes where it returned."""
    ctx = current()
    if ctx is not None:
        ctx.return_loc = loc
    return value


def break_(loc: Loc) -> Flow:
    return Flow("break", None, loc)


def continue_(loc: Loc) -> Flow:
    return Flow("continue", None, loc)


def return_(value: Any, loc: Loc) -> Flow:
    return Flow("return", value, loc)


def _refuse_flow(flow: Flow, block: Block) -> None:
    statement = {"break": "`break`", "continue": "`continue`", "return": "`return`"}[flow.kind]
    raise trace_error(
        "dynamic-early-exit",
        f"{statement} inside the {block.describe()} is not supported",
        "as in the CuTe DSL, run-time control flow cannot be left early; use a flag, or make "
        "the condition static (`cutlass.const_expr`, `range_constexpr`)", loc=flow.loc)


# ---------------------------------------------------------------------------------------------
# Variables that cannot be used any more
# ---------------------------------------------------------------------------------------------


class Unavailable:
    """The value of a variable after run-time control flow that did not define it on every
    path: any use is a located error."""

    __slots__ = ("_name", "_why")

    def __init__(self, name: str, why: str) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_why", why)

    def bbx_unavailable(self) -> Any:
        raise trace_error("unavailable-variable", f"'{self._name}' {self._why}",
                          "define it before the run-time `if`/loop, with the type it keeps")

    def __getattr__(self, name: str) -> Any:
        return self.bbx_unavailable()

    def __repr__(self) -> str:
        return f"<bbx: '{self._name}' {self._why}>"


def _refuse(self: Unavailable, *args: Any, **kwargs: Any) -> Any:
    return self.bbx_unavailable()


for _dunder in (
    "add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod pow rpow neg pos "
    "abs invert and rand or ror xor rxor lshift rlshift rshift rrshift lt le gt ge eq ne bool "
    "index int float iter len getitem setitem contains call hash"
).split():
    setattr(Unavailable, f"__{_dunder}__", _refuse)


_UNBOUND: Any = object()  # an empty cell (a variable without a value)


# ---------------------------------------------------------------------------------------------
# The variables of region functions (their closure cells)
# ---------------------------------------------------------------------------------------------


class _Vars:
    """Reads and writes the enclosing function's variables through the region functions'
    closure cells (globals through the module dictionary)."""

    def __init__(self, *fns: Callable[..., Any] | None) -> None:
        self.cells: dict[str, types.CellType] = {}
        self.globals: dict[str, Any] = {}
        for fn in fns:
            if isinstance(fn, types.FunctionType):
                self.globals = fn.__globals__
                for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (),
                                      strict=True):
                    if name != RUNTIME_NAME:
                        self.cells.setdefault(name, cell)

    def get(self, name: str) -> Any:
        cell = self.cells.get(name)
        if cell is None:
            return self.globals.get(name, _UNBOUND)
        try:
            return cell.cell_contents
        except ValueError:
            return _UNBOUND

    def set(self, name: str, value: Any) -> None:
        cell = self.cells.get(name)
        if cell is None:
            if value is _UNBOUND:
                self.globals.pop(name, None)
            else:
                self.globals[name] = value
            return
        if value is _UNBOUND:
            try:
                del cell.cell_contents
            except ValueError:
                pass
        else:
            cell.cell_contents = value

    def snapshot(self) -> dict[str, Any]:
        return {name: self.get(name) for name in self.cells}

    def restore(self, values: dict[str, Any]) -> None:
        for name, value in values.items():
            self.set(name, value)


# ---------------------------------------------------------------------------------------------
# Carried values: trees of leaves (tuples and lists of numbers and objects, and objects that
# flatten themselves into such trees)
# ---------------------------------------------------------------------------------------------


def _describe(value: Any) -> str:
    if type(value) in (tuple, list):
        return f"{type(value).__name__} of {len(value)}"
    if isinstance(value, Numeric):
        return type(value).__name__
    if value is None:
        return "None"
    return type(value).__name__


def _numeric_type(leaf: Any) -> type[Numeric] | None:
    if isinstance(leaf, Numeric):
        return type(leaf)
    if isinstance(leaf, (bool, int, float)):
        return type(as_numeric(leaf))
    return None


def _same_object(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, (str, bytes, type(None))) or type(a) in (int, float, bool, complex):
        return type(a) is type(b) and bool(a == b)
    return False


def _carried_type_error(name: str, before: str, after: str, where: str,
                        loc: Loc | None) -> Any:
    return trace_error(
        "carried-type-change",
        f"'{name}' changes type in the {where}: {before} before it, {after} after it",
        "a C++ variable has one type: convert the value so that it keeps its type (e.g. "
        f"`{name} = cutlass.Float32({name})` before the statement)", loc=loc)


def _structure_error(path: str, before: str, after: str, where: str, loc: Loc | None) -> Any:
    return trace_error(
        "carried-type-change",
        f"'{path}' changes structure in the {where}: {before} before it, {after} after it",
        "a value carried through a loop keeps its structure (the same fields, the same "
        "number of items)", loc=loc)


def _compile_time_error(path: str, before: Any, after: Any, where: str,
                        loc: Loc | None) -> Any:
    return trace_error(
        "carried-python-value",
        f"'{path}' is a compile-time value (Python {_describe(before)}) and is assigned a "
        f"{_describe(after)} in the {where}",
        "only DSL values change in a loop: make it one before the loop, e.g. "
        "cutlass.Int32(0)", loc=loc)


def _subnode(structure: Any, path: str, root: str) -> Any:
    """The node at `path` (from `root`) of a value tree's structure."""
    rest = path[len(root):]
    while rest and structure is not None:
        kind, parts = structure
        for label, part in zip(labels(kind, len(parts)), parts, strict=True):
            if rest.startswith(label):
                structure, rest = part, rest[len(label):]
                break
        else:
            break
    return structure


def _in_words(node: Any) -> str:
    if node is None:
        return "one value"
    kind, parts = node
    if kind in (list, tuple):
        return f"{kind.__name__} of {len(parts)}"
    if isinstance(kind, (FromValues, WithFields)):
        return f"{type(kind.template).__name__} of {len(parts)} values"
    return f"{len(parts)} values"


def _structure_change(before: Any, after: Any, path: str, root: str, where: str,
                      loc: Loc | None) -> Any:
    """The error for trees that differ at `path`: an object of the value protocol whose
    attribute was a compile-time value (None) and now gives a DSL value is that attribute's
    error, as the DSL reports it; any other difference changes the structure."""
    a, b = _subnode(before, path, root), _subnode(after, path, root)
    if (a is not None and b is not None and isinstance(a[0], FromValues)
            and isinstance(b[0], FromValues) and a[0].keys is not None
            and b[0].keys is not None):
        for key, part in zip(b[0].keys, b[1], strict=True):
            old = getattr(a[0].template, str(key), _UNBOUND)
            if key in a[0].keys or old is _UNBOUND or isinstance(old, Numeric):
                continue
            new = getattr(b[0].template, str(key), None)
            if part is None and isinstance(new, Numeric):
                return _compile_time_error(f"{path}.{key}", old, new, where, loc)
    return _structure_error(path, _in_words(a), _in_words(b), where, loc)


def check_iteration(name: str, before: Any, after: Any, loc: Loc | None) -> None:
    """The DSL's rule for a value carried through `range(...)`, which its compiler makes a
    loop, applied when bbx runs that loop as Python (its bounds are Python numbers): a value
    holding DSL numbers keeps its structure and their types, and none of its compile-time
    parts becomes a DSL number."""
    s0, l0 = flatten(before, dataclass_fields=True)
    if not any(isinstance(leaf, Numeric) for leaf in l0):
        return  # a Python value: Python semantics
    s1, l1 = flatten(after, dataclass_fields=True)
    where = "loop `for ... in range(...)` (a loop for the DSL)"
    path = structure_difference(s0, s1, name)
    if path is not None:
        raise _structure_change(s0, s1, path, name, where, loc)
    for leaf_path, a, b in zip(paths(s0, name), l0, l1, strict=True):
        if isinstance(a, Numeric) and isinstance(b, Numeric) and type(a) is not type(b):
            raise _carried_type_error(leaf_path, type(a).__name__, type(b).__name__, where,
                                      loc)
        if (not isinstance(a, (Numeric, bool, int, float)) and isinstance(b, Numeric)
                and not b.is_static):
            raise _compile_time_error(leaf_path, a, b, where, loc)


class _Carried:
    """A loop-carried variable of a run-time loop: its C++ variables (one per numeric leaf)."""

    def __init__(self, ctx: TraceContext, name: str, value: Any, block: Block,
                 loc: Loc | None) -> None:
        self.name = name
        self.structure, leaves = flatten(value, dataclass_fields=True)
        self.entry_leaves = leaves
        self.vars: list[tuple[str, type[Numeric]] | None] = []
        inner: list[Any] = []
        for i, leaf in enumerate(leaves):
            dtype = _numeric_type(leaf)
            if dtype is None:
                self.vars.append(None)
                inner.append(leaf)
                continue
            hint = name if len(leaves) == 1 else f"{name}_{i}"
            init = dtype(leaf).expr() if not isinstance(leaf, Numeric) else leaf.expr()
            var, _ = ctx.declare(c.Type(_cxx(dtype)), hint, init, block=block, loc=loc)
            self.vars.append((var, dtype))
            inner.append(dtype.run_time(c.Id(var), block=block, mutable=True))
        self.inside = unflatten(self.structure, inner)

    def after(self, block: Block) -> Any:
        """The variable's value after the loop (its C++ variables, no longer assigned)."""
        leaves = [leaf if var is None else var[1].run_time(c.Id(var[0]), block=block)
                  for leaf, var in zip(self.entry_leaves, self.vars, strict=True)]
        return unflatten(self.structure, leaves)

    def updates(self, new: Any, where: Block, loc: Loc | None) -> list[tuple[str, Numeric]]:
        """The (variable, new value) pairs at the end of an iteration; checks the types."""
        structure, leaves = flatten(new, dataclass_fields=True)
        if structure != self.structure:
            path = structure_difference(self.structure, structure, self.name) or self.name
            raise _structure_change(self.structure, structure, path, self.name,
                                    where.describe(), loc)
        out: list[tuple[str, Numeric]] = []
        for leaf_path, old, leaf, var in zip(paths(self.structure, self.name),
                                             flatten(self.inside, dataclass_fields=True)[1],
                                             leaves, self.vars, strict=True):
            if var is None:
                if isinstance(leaf, Numeric) and not leaf.is_static:
                    raise _compile_time_error(leaf_path, old, leaf, where.describe(), loc)
                if not _same_object(old, leaf):
                    raise trace_error(
                        "carried-python-value",
                        f"'{leaf_path}' holds a Python {_describe(old)} and is assigned in the "
                        f"{where.describe()}",
                        "a Python value cannot change in run-time control flow: use a DSL "
                        "numeric type, or make the loop static (`range_constexpr`)", loc=loc)
                continue
            dtype = _numeric_type(leaf)
            if dtype is not var[1]:
                raise _carried_type_error(leaf_path, var[1].__name__, _describe(leaf),
                                          where.describe(), loc)
            value = leaf if isinstance(leaf, Numeric) else var[1](leaf)
            if isinstance(value.value, CxxValue) and value.value.expr == c.Id(var[0]):
                continue  # unchanged
            out.append((var[0], value))
        return out


def _cxx(dtype: type[Numeric]) -> str:
    assert dtype.bbx_row is not None
    return dtype.bbx_row.cxx


def _peek(value: Numeric) -> c.Expr | None:
    return value.value.expr if isinstance(value.value, CxxValue) else None


def _assign_all(ctx: TraceContext, pairs: list[tuple[str, Numeric]], loc: Loc | None) -> None:
    """`var = value;` for each pair at the end of the current block, through temporaries where
    a value reads a variable that another assignment of the group changes (`a, b = b, a`).

    A value that got its own variable in this block and was not used since (`acc_1 = acc + x`)
    is assigned where it was computed instead (`acc = acc + x;`), when no later statement reads
    the variable assigned."""
    block = ctx.block
    targets = {var for var, _ in pairs}
    rest: list[tuple[str, Numeric]] = []
    for i, (var, value) in enumerate(pairs):
        cv = value.value
        decl = cv.decl if isinstance(cv, CxxValue) else None
        if (isinstance(cv, CxxValue) and decl is not None and decl.init is not None
                and cv.uses == 0 and cv.block is block):
            at = next((k for k, s in enumerate(block.stmts) if s is decl), None)
            later = [*block.stmts[at + 1:]] if at is not None else []
            others = [_peek(v) for j, (_, v) in enumerate(pairs) if j != i]
            if at is not None and not any(var in c.identifiers(x) for x in (*later, *others)):
                block.stmts[at] = c.Assign(c.Id(var), "=", decl.init)
                cv.expr = c.Id(var)
                continue
        rest.append((var, value))
    staged: list[tuple[str, c.Expr]] = []
    for var, value in rest:
        expr = value.expr()
        if c.identifiers(expr) & (targets - {var}):
            tmp, _ = ctx.declare(c.Type(_cxx(type(value))), f"{var}_next", expr, loc=loc)
            expr = c.Id(tmp)
        staged.append((var, expr))
    for var, expr in staged:
        ctx.emit(c.Assign(c.Id(var), "=", expr), comment=False)


# ---------------------------------------------------------------------------------------------
# Conditions
# ---------------------------------------------------------------------------------------------


def _condition(value: Any) -> bool | Numeric:
    """A Python bool, or a run-time `Boolean`."""
    if isinstance(value, Numeric):
        if isinstance(value.value, CxxValue):
            return to_boolean(value)
        return bool(value.value)
    if isinstance(value, Unavailable):
        value.bbx_unavailable()
    return bool(value)


def _static_truth(value: Any) -> bool:
    if isinstance(value, Numeric):
        return bool(value)
    if isinstance(value, Unavailable):
        value.bbx_unavailable()
    return bool(value)


def static(value: Any, loc: Loc) -> Any:
    """The test of `if const_expr(...)` / `while const_expr(...)`: must be a static value."""
    if is_dynamic(value):
        raise trace_error("const-expr-dynamic", "`const_expr()` of a run-time value",
                          "`const_expr` branches at trace time, so its argument must be known "
                          "then; drop `const_expr` for a run-time branch", loc=loc)
    if isinstance(value, Numeric):
        return value.value
    return value


def truth(value: Any, what: str, loc: Loc) -> bool:
    """The truth of `value` for `assert` (and other Python-only decisions)."""
    if is_dynamic(value):
        raise trace_error("dynamic-to-static", f"`{what}` of a run-time value",
                          "its value is known only when the kernel runs; check a static value",
                          loc=loc)
    return _static_truth(value)


# ---------------------------------------------------------------------------------------------
# if
# ---------------------------------------------------------------------------------------------


def if_(test: Any, then_fn: Callable[[], Any], else_fn: Callable[[], Any] | None,
        carried: tuple[str, ...], loc: Loc) -> Flow | None:
    cond = _condition(test)
    if isinstance(cond, bool):
        branch = then_fn if cond else else_fn
        return branch() if branch is not None else None
    _dynamic_if(cond, then_fn, else_fn, carried, loc)
    return None


def _dynamic_if(cond: Numeric, then_fn: Callable[[], Any], else_fn: Callable[[], Any] | None,
                carried: tuple[str, ...], loc: Loc) -> None:
    ctx = require("a run-time `if`")
    cond_expr = cond.expr()
    names = _Vars(then_fn, else_fn)
    entry = names.snapshot()
    parent = ctx.block
    then_block = ctx.child("if", loc)
    with ctx.enter(then_block):
        flow = then_fn()
        if isinstance(flow, Flow):
            _refuse_flow(flow, then_block)
    after_then = names.snapshot()
    names.restore(entry)
    else_block: Block | None = None
    after_else = entry
    if else_fn is not None:
        else_block = ctx.child("else", loc)
        with ctx.enter(else_block):
            flow = else_fn()
            if isinstance(flow, Flow):
                _refuse_flow(flow, else_block)
        after_else = names.snapshot()
    then_assigns: list[tuple[str, Numeric]] = []
    else_assigns: list[tuple[str, Numeric]] = []
    result = dict(entry)
    for name in names.cells:
        v0, vt, ve = entry[name], after_then[name], after_else[name]
        if name not in carried:
            if vt is not v0 or ve is not v0:
                result[name] = Unavailable(
                    name, f"was assigned in the {then_block.statement()} and is not used after "
                    "it (so it was not carried out of it)")
            continue
        result[name] = _merge(ctx, name, v0, vt, ve, parent, then_assigns, else_assigns,
                              then_block, loc)
    for block, pairs in ((then_block, then_assigns), (else_block, else_assigns)):
        if pairs:
            if block is None:
                block = else_block = ctx.child("else", loc)
            with ctx.enter(block):
                _assign_all(ctx, pairs, loc)
    then = tuple(then_block.stmts)
    other = tuple(else_block.stmts) if else_block is not None else ()
    if then:
        ctx.emit(c.If(cond_expr, then, other), loc)
    elif other:
        ctx.emit(c.If(c.Unary("!", cond_expr), other), loc)
    names.restore(result)
    return None


def _merge(ctx: TraceContext, name: str, v0: Any, vt: Any, ve: Any, parent: Block,
           then_assigns: list[tuple[str, Numeric]], else_assigns: list[tuple[str, Numeric]],
           then_block: Block, loc: Loc) -> Any:
    """The value of a carried variable after a run-time `if` (C++ variables where the branches
    differ)."""
    if vt is ve:
        return vt
    if vt is _UNBOUND or ve is _UNBOUND or isinstance(vt, Unavailable) or isinstance(
            ve, Unavailable):
        return Unavailable(name, f"is assigned in only one branch of the {then_block.statement()}")
    st, lt = flatten(vt, dataclass_fields=True)
    se, le = flatten(ve, dataclass_fields=True)
    if st != se:
        raise trace_error(
            "branch-type-mismatch",
            f"'{name}' is a {_describe(vt)} after the `if` branch and a {_describe(ve)} after "
            f"the `else` branch of the {then_block.statement()}",
            "both branches must leave it with one type", loc=loc)
    entry_leaves: list[Any] = [_UNBOUND] * len(lt)
    if v0 is not _UNBOUND and not isinstance(v0, Unavailable):
        s0, l0 = flatten(v0, dataclass_fields=True)
        if s0 == st:
            entry_leaves = l0
    leaves: list[Any] = []
    for i, (path, a, b, e) in enumerate(zip(paths(st, name), lt, le, entry_leaves, strict=True)):
        if a is b:
            leaves.append(a)
            continue
        ta, tb = _numeric_type(a), _numeric_type(b)
        if ta is None or tb is None:
            if _same_object(a, b):
                leaves.append(a)
                continue
            raise trace_error(
                "branch-python-value",
                f"'{path}' is a Python {_describe(a)} after one branch of the "
                f"{then_block.statement()} and {_describe(b)} after the other",
                "a Python value cannot depend on a run-time condition: use a DSL numeric type, "
                "or make the condition static (`cutlass.const_expr`)", loc=loc)
        if ta is not tb:
            raise trace_error(
                "branch-type-mismatch",
                f"'{path}' is {ta.__name__} after the `if` branch and {tb.__name__} after the "
                f"`else` branch of the {then_block.statement()}",
                f"convert one of them (e.g. `{path} = cutlass.{ta.__name__}(...)`)", loc=loc)
        if (not isinstance(a, Numeric) or a.is_static) and (
                not isinstance(b, Numeric) or b.is_static) and _same_object(
                    _static_value(a), _static_value(b)):
            leaves.append(a)
            continue
        na = a if isinstance(a, Numeric) else ta(a)
        nb = b if isinstance(b, Numeric) else tb(b)
        hint = name if len(lt) == 1 else f"{name}_{i}"
        init: c.Expr | None = None
        keep_then = a is e
        keep_else = b is e
        if keep_then or keep_else:
            with ctx.enter(parent):
                init = (na if keep_then else nb).expr()
        var, _ = ctx.declare(c.Type(_cxx(ta)), hint, init, block=parent, loc=loc)
        if not keep_then:
            then_assigns.append((var, na))
        if not keep_else:
            else_assigns.append((var, nb))
        leaves.append(ta.run_time(c.Id(var), block=parent))
    return unflatten(st, leaves)


def _static_value(x: Any) -> Any:
    return x.value if isinstance(x, Numeric) else x


# ---------------------------------------------------------------------------------------------
# for
# ---------------------------------------------------------------------------------------------

_RANGE_OPTIONS = frozenset({"unroll", "unroll_full", "prefetch_stages", "pipelining",
                            "vectorize", "at_least_once"})


def for_range(callee: Any, args: tuple[Any, ...], kwargs: dict[str, Any],
              body_fn: Callable[[Any], Any], carried: tuple[str, ...], loc: Loc,
              target: str | None = None) -> Flow | None:
    """`for <target> in range(*args, **kwargs)` (`range`, `cutlass.range`, `range_dynamic`)."""
    unknown = set(kwargs) - _RANGE_OPTIONS
    if unknown:
        raise trace_error("range-keyword",
                          f"range keyword '{sorted(unknown)[0]}' is not one of the DSL's",
                          "known: " + ", ".join(sorted(_RANGE_OPTIONS)), loc=loc)
    if not 1 <= len(args) <= 3:
        raise trace_error("range-arguments", f"range expects 1 to 3 arguments, got {len(args)}",
                          loc=loc)
    ctx = current()
    as_loop = ctx is not None and ctx.static_ranges == "loop"
    if not as_loop and not any(is_dynamic(a) for a in args):
        bounds = [operator.index(a) for a in args]
        names = _Vars(body_fn)
        entry = {name: value for name in carried
                 if (value := names.get(name)) is not _UNBOUND
                 and not isinstance(value, Unavailable)}
        for value in builtins.range(*bounds):
            flow = body_fn(value)
            for name, before in entry.items():
                after = names.get(name)
                if after is not _UNBOUND and not isinstance(after, Unavailable):
                    check_iteration(name, before, after, loc)
            if isinstance(flow, Flow):
                if flow.kind == "break":
                    return BROKEN
                if flow.kind == "return":
                    return flow
        return None
    _dynamic_for(args, kwargs, body_fn, carried, loc, target)
    return None


def _dynamic_for(args: tuple[Any, ...], kwargs: dict[str, Any], body_fn: Callable[[Any], Any],
                 carried: tuple[str, ...], loc: Loc, target: str | None) -> None:
    ctx = require("a run-time loop")
    numbers = [as_numeric(a) if not isinstance(a, Numeric) else a for a in args]
    for n in numbers:
        if not n.is_integer:
            raise trace_error("range-arguments",
                              f"range bounds must be integers, got {type(n).__name__}", loc=loc)
    start, stop, step = ([as_numeric(0), numbers[0], as_numeric(1)] if len(numbers) == 1 else
                         [numbers[0], numbers[1], as_numeric(1)] if len(numbers) == 2 else
                         numbers)
    dtype = promote(promote(type(start), type(stop)), type(step))
    if dtype is Boolean:
        dtype = type(as_numeric(0))
    start, stop, step = dtype(start), dtype(stop), dtype(step)
    unroll: str | None = None
    if kwargs.get("unroll_full"):
        unroll = ""
    elif isinstance(kwargs.get("unroll"), int) and kwargs["unroll"] >= 1:
        unroll = str(kwargs["unroll"])
    parent = ctx.block
    names = _Vars(body_fn)
    state = {name: _Carried(ctx, name, value, parent, loc) for name in carried
             if (value := names.get(name)) is not _UNBOUND and not isinstance(value, Unavailable)}
    entry = names.snapshot()
    for name, carried_var in state.items():
        names.set(name, carried_var.inside)
    var = ctx.names.fresh(target if target and target.strip("_") else "i")
    start_e, stop_e = start.expr(), stop.expr()
    descending = False
    step_e: c.Expr | None
    cond: c.Expr | None = None
    if step.is_static:
        if step.value == 0:
            raise trace_error("range-arguments", "range() step must not be zero", loc=loc)
        descending = step.value < 0
        step_e = None if step.value in (1, -1) else step.expr()
    else:
        step_e = step.expr()
        cond = c.Ternary(c.Binary(">", step_e, c.Lit("0")), c.Binary("<", c.Id(var), stop_e),
                         c.Binary(">", c.Id(var), stop_e))
    body = ctx.child("for", loc)
    with ctx.enter(body):
        flow = body_fn(dtype.run_time(c.Id(var)))
        if isinstance(flow, Flow):
            _refuse_flow(flow, body)
        _end_of_iteration(ctx, names, state, body, loc)
    ctx.emit(c.For(var, start_e, stop_e, step_e, tuple(body.stmts), descending, unroll,
                   var_type=c.Type(_cxx(dtype)), cond=cond), loc)
    _after_loop(names, state, entry, carried, parent, body)


def _end_of_iteration(ctx: TraceContext, names: _Vars, state: dict[str, _Carried], body: Block,
                      loc: Loc) -> None:
    pairs: list[tuple[str, Numeric]] = []
    for name, carried_var in state.items():
        new = names.get(name)
        if new is _UNBOUND or isinstance(new, Unavailable):
            raise trace_error("carried-deleted", f"'{name}' has no value at the end of the "
                              f"{body.describe()}", loc=loc)
        pairs += carried_var.updates(new, body, loc)
    _assign_all(ctx, pairs, loc)


def _after_loop(names: _Vars, state: dict[str, _Carried], entry: dict[str, Any],
                carried: tuple[str, ...], parent: Block, body: Block) -> None:
    end = names.snapshot()
    for name in names.cells:
        if name in state:
            names.set(name, state[name].after(parent))
        elif end[name] is not entry[name]:
            why = (f"is assigned in the {body.describe()} but has no value before it" if
                   name in carried else
                   f"was assigned in the {body.describe()} and is not used after it (so it "
                   "was not carried out of it)")
            names.set(name, Unavailable(name, why))
        else:
            names.set(name, entry[name])


def range_constexpr(callee: Any, args: tuple[Any, ...], kwargs: dict[str, Any],
                    loc: Loc) -> Iterable[int]:
    """`for i in range_constexpr(...)`: Python's range of static integers."""
    if kwargs:
        raise trace_error("range-keyword", "range_constexpr takes no keyword arguments",
                          loc=loc)
    for a in args:
        if is_dynamic(a):
            raise trace_error("range-constexpr-dynamic",
                              f"`range_constexpr` bound is a run-time {type(a).__name__}",
                              "a loop over a run-time range is `range(...)` (a C++ loop)",
                              loc=loc)
    return builtins.range(*(operator.index(a) for a in args))


def iterate(iterable: Any, loc: Loc) -> Any:
    """`for x in iterable` over anything but a range: Python iteration."""
    if is_dynamic(iterable):
        raise trace_error("iterate-dynamic", f"iterating over a run-time {type(iterable).__name__}",
                          "a run-time number is not a sequence; loop with `range(...)`", loc=loc)
    if isinstance(iterable, Unavailable):
        iterable.bbx_unavailable()
    return iterable


# ---------------------------------------------------------------------------------------------
# while
# ---------------------------------------------------------------------------------------------


def while_(cond_fn: Callable[[], Any], body_fn: Callable[[], Any], carried: tuple[str, ...],
           loc: Loc) -> Flow | None:
    while True:
        ctx = current()
        if ctx is None:
            cond = _condition(cond_fn())
        else:
            # A run-time condition is evaluated again inside the C++ loop: what this first
            # evaluation emitted is undone.
            with ctx.speculate() as undo:
                cond = _condition(cond_fn())
                if not isinstance(cond, bool):
                    undo()
        if not isinstance(cond, bool):
            _dynamic_while(cond_fn, body_fn, carried, loc)
            return None
        if not cond:
            return None
        flow = body_fn()
        if isinstance(flow, Flow):
            if flow.kind == "break":
                return BROKEN
            if flow.kind == "return":
                return flow


def _dynamic_while(cond_fn: Callable[[], Any], body_fn: Callable[[], Any],
                   carried: tuple[str, ...], loc: Loc) -> None:
    ctx = require("a run-time loop")
    parent = ctx.block
    names = _Vars(cond_fn, body_fn)
    state = {name: _Carried(ctx, name, value, parent, loc) for name in carried
             if (value := names.get(name)) is not _UNBOUND and not isinstance(value, Unavailable)}
    entry = names.snapshot()
    for name, carried_var in state.items():
        names.set(name, carried_var.inside)
    body = ctx.child("while", loc)
    with ctx.enter(body):
        before = names.snapshot()
        test = _condition(cond_fn())
        changed = [n for n, v in names.snapshot().items() if v is not before[n]]
        if changed:
            raise trace_error("while-condition-assigns",
                              f"the condition of a run-time `while` assigns '{changed[0]}'",
                              "assign it before the loop and at the end of its body", loc=loc)
        cond_expr = c.Lit("true" if test else "false") if isinstance(test, bool) else test.expr()
        n_cond = len(body.stmts)
        flow = body_fn()
        if isinstance(flow, Flow):
            _refuse_flow(flow, body)
        _end_of_iteration(ctx, names, state, body, loc)
    stmts = tuple(body.stmts)
    if n_cond == 0:
        ctx.emit(c.While(cond_expr, stmts), loc)
    else:
        leave = c.If(c.Unary("!", cond_expr), (c.Break(),))
        ctx.emit(c.While(c.Lit("true"), (*stmts[:n_cond], leave, *stmts[n_cond:])), loc)
    _after_loop(names, state, entry, carried, parent, body)


# ---------------------------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------------------------


def ifexp(test: Any, then: Callable[[], Any], other: Callable[[], Any], loc: Loc) -> Any:
    """`a if test else b`: one side when `test` is static, a C++ `?:` when it is run-time."""
    cond = _condition(test)
    if isinstance(cond, bool):
        return then() if cond else other()
    a, b = then(), other()
    if a is b:
        return a
    ta, tb = _numeric_type(a), _numeric_type(b)
    if ta is None or tb is None or ta is not tb:
        raise trace_error(
            "branch-type-mismatch",
            f"the two values of a conditional expression on a run-time condition differ in type "
            f"({_describe(a)}, {_describe(b)})", "give both sides one numeric type", loc=loc)
    na = a if isinstance(a, Numeric) else ta(a)
    nb = b if isinstance(b, Numeric) else tb(b)
    return select(cond, na, nb)


def _dynamic_logic(op: str, a: Numeric, b: Any) -> Numeric:
    """`a and b` / `a or b` with a run-time `a` (the DSL's `__dsl_and__`/`__dsl_or__`)."""
    if isinstance(b, Unavailable):
        b.bbx_unavailable()
    if not isinstance(b, Numeric):
        if not isinstance(b, (bool, int, float)):
            raise trace_error("logic-operand",
                              f"`{op}` of a run-time value and a {type(b).__name__}",
                              "both operands must be numbers")
        b = as_numeric(b)
    if type(a) is Boolean and type(b) is Boolean:
        either: Any = a
        return either & b if op == "and" else either | b  # type: ignore[no-any-return]
    common = promote(type(a), type(b), promote_bool=True)
    ca, cb = common(a), common(b)
    return select(a, cb, ca) if op == "and" else select(a, ca, cb)


def and_(first: Any, *rest: Callable[[], Any]) -> Any:
    """`first and r1 and r2 ...` (each `r` a thunk, called only as Python would)."""
    value = first
    for thunk in rest:
        if is_dynamic(value):
            value = _dynamic_logic("and", value, thunk())
        elif not _static_truth(value):
            return value
        else:
            value = thunk()
    return value


def or_(first: Any, *rest: Callable[[], Any]) -> Any:
    """`first or r1 or r2 ...`."""
    value = first
    for thunk in rest:
        if is_dynamic(value):
            value = _dynamic_logic("or", value, thunk())
        elif _static_truth(value):
            return value
        else:
            value = thunk()
    return value


def not_(value: Any) -> Any:
    if isinstance(value, Unavailable):
        value.bbx_unavailable()
    return logical_not(value)


def _contains(item: Any, items: Any) -> Any:
    """`item in items`: Python's test (`x is item or x == item` for each `x`), kept as a
    run-time Boolean when `item` or an element is a run-time value and `items` is a Python
    sequence (`tidx in (0, 1)`), as the DSL's comparison executor does."""
    if not isinstance(items, (tuple, list, set, frozenset)) or not (
            is_dynamic(item) or any(is_dynamic(x) for x in items)):
        return item in items
    found: Any = False
    for x in items:
        if x is item:
            return True
        equal = item == x
        if is_dynamic(equal):
            found = equal if found is False else _dynamic_logic("or", found, equal)
        elif _static_truth(equal):
            return True
    return found


def _not_contains(item: Any, items: Any) -> Any:
    return not_(_contains(item, items))


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "is": operator.is_, "is not": operator.is_not,
    "in": _contains, "not in": _not_contains,
}  # fmt: skip


def compare(left: Any, ops: tuple[str, ...], rest: tuple[Callable[[], Any], ...]) -> Any:
    """A chained comparison `a < b < c` (each comparand evaluated once, as Python does)."""
    value: Any = None
    current_left = left
    for i, (op, thunk) in enumerate(zip(ops, rest, strict=True)):
        right = thunk()
        result = _COMPARE[op](current_left, right)
        if i == 0:
            value = result
        elif is_dynamic(value):
            value = _dynamic_logic("and", value, result)
        else:
            value = result
        if not is_dynamic(value) and not _static_truth(value):
            return value
        current_left = right
    return value


def bind(value: Any, name: str) -> Any:
    """`name = value`: a run-time value computed by an expression gets a C++ variable named
    after the Python variable; an object with a `bbx_bind(name)` method (tensors, TensorSSA
    values) names its C++ storage after it. `_`, Python's name for a value not used, gets no
    variable: the value is computed where it is used, if it is."""
    if name == "_":
        return value
    hook = getattr(type(value), "bbx_bind", None)
    if hook is not None and current() is not None:
        return hook(value, name)
    if not isinstance(value, Numeric):
        return value
    cv = value.value
    if not isinstance(cv, CxxValue):
        return value
    ctx = current()
    if ctx is None:
        return value
    cv.check_visible(ctx)
    if cv.rename(name):
        return value
    if not cv.mutable and (cv.is_leaf or cv.is_variable):
        return value
    if not cv.mutable and cv.block is ctx.block:
        cv.materialize(name)
        return value
    expr = value.expr()
    var, decl = ctx.declare(cv.ctype, name, expr)
    made = type(value).run_time(c.Id(var))
    made.value.decl = decl
    return made
