"""`DSLPreprocessor`: the rewrite of jit functions' control flow into tracer calls.

See the package docstring (`bbx.preprocess`) for the contract with the tracer. This module is the
stdlib-`ast` transformer; `bbx.preprocess.loader` finds a function's source, runs it and builds
the rewritten function object.

Libraries extend the preprocessor by patching methods of this class (QuACK wraps `visit_If` to
fold `const_expr(S) and D`); every statement of a jit function goes through `self.visit`, so a
patched `visit_If`/`visit_For`/`visit_While` sees every `if`/`for`/`while` (elif arms included)
as a stdlib `ast` node with its original position, and what it returns is rewritten.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Diagnostic
from . import names as nm
from .liveness import Liveness
from .source import PreprocessError, function_definition

#: The name under which rewritten code reaches the tracer's control-flow functions.
RUNTIME = "__bbx__"
#: The local holding what a region call returned (None, or a control-flow signal).
FLOW = "__bbx_f"
#: The parameter of a loop body function: the value of the loop target for one iteration.
ITERATION = "__bbx_it"

_COMPARE_OPS: dict[type[ast.cmpop], str] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}  # fmt: skip


@dataclass
class _Function:
    """A Python function being rewritten (the jit function or a function nested in it)."""

    liveness: Liveness
    params: frozenset[str]
    globals: frozenset[str]
    nonlocals: frozenset[str]
    regions: bool  # whether its control flow may become tracer calls (not async)
    top: bool  # the function being rewritten (not a function nested in it)
    declare: dict[str, None] = field(default_factory=dict)  # names bound only in regions
    counter: int = 0


@dataclass
class _Scope:
    """A Python scope of the output: a function, a region function, a class body, a lambda."""

    kind: str  # "module", "function", "region", "class", "lambda"
    parent: _Scope | None
    function: _Function | None
    region: str | None = None  # "if" or "loop" for region functions
    loops: int = 0  # Python loops (kept as loops) open in this scope
    escapes: set[str] = field(default_factory=set)  # flows leaving this region


#: the built-ins jit code's names redirect (`visit_Name`)
_REDIRECTED_BUILTINS = frozenset({"max", "min", "any", "all"})


class DSLPreprocessor(ast.NodeTransformer):
    """Rewrites `if`/`elif`/`else`, `for` and `while` of jit functions into tracer calls (see
    `bbx.preprocess`). The class and its `visit_*` methods are the extension point libraries
    patch, under the module path NVIDIA's DSL uses (`cutlass.base_dsl.ast_preprocessor`)."""

    #: The runtime attributes the rewritten code calls (documented in `bbx.preprocess`).
    IF_EXECUTOR = "if_"
    FOR_EXECUTOR = "for_range"
    WHILE_EXECUTOR = "while_"
    CONST_EXPR_NAME = nm.CONST_EXPR_NAMES
    SUPPORTED_FOR_RANGE_STATEMENTS = frozenset({*nm.DYNAMIC_RANGE_NAMES, nm.CONSTEXPR_RANGE_NAME})

    def __init__(self, client_module_name: Sequence[str] = ("cutlass",)) -> None:
        super().__init__()
        self.client_module_name = list(client_module_name)
        self.file_name = "<unknown>"
        self._lines: list[str] = []
        self._scope = _Scope("module", None, None)
        self._jit_aliases: frozenset[str] = frozenset()

    # -- the DSL's session API (libraries and their tests call it) -----------------------------

    @contextlib.contextmanager
    def get_session(self) -> Iterator[DSLPreprocessor]:
        yield self

    def transform(self, original_function: Callable[..., Any],
                  exec_globals: dict[str, Any] | None = None) -> ast.Module:
        """The rewritten definition of `original_function`, as a module holding it."""
        found = function_definition(original_function)
        rewritten = self.rewrite_function(found.node, found.path, found.lines)
        return ast.Module(body=[rewritten], type_ignores=[])

    # -- entry points ---------------------------------------------------------------------------

    def rewrite_function(self, node: ast.FunctionDef, file_name: str,
                         lines: list[str]) -> ast.FunctionDef:
        """Rewrites one function definition (decorators are left to the caller)."""
        self.file_name, self._lines = file_name, lines
        self._scope = _Scope("module", None, None)
        result = self.visit(node)
        assert isinstance(result, ast.FunctionDef)
        return result

    def rewrite_module(self, tree: ast.Module, file_name: str, lines: list[str]) -> ast.Module:
        """Rewrites every jit function of a module (top level and in classes) in place."""
        self.file_name, self._lines = file_name, lines
        self._jit_aliases = nm.jit_aliases_of(tree)
        self._scope = _Scope("module", None, None)

        def walk(stmts: list[ast.stmt]) -> None:
            for i, stmt in enumerate(stmts):
                if isinstance(stmt, ast.FunctionDef):
                    if nm.jit_decorator_index(stmt.decorator_list, self._jit_aliases) is not None:
                        stmts[i] = self.rewrite_function(stmt, file_name, lines)
                elif isinstance(stmt, ast.ClassDef):
                    walk(stmt.body)
                elif isinstance(stmt, (ast.If, ast.Try, ast.With)):
                    for part in ("body", "orelse", "finalbody"):
                        if isinstance(getattr(stmt, part, None), list):
                            walk(getattr(stmt, part))

        walk(tree.body)
        return tree

    # -- helpers ---------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _enter(self, scope: _Scope) -> Iterator[_Scope]:
        saved, self._scope = self._scope, scope
        try:
            yield scope
        finally:
            self._scope = saved

    def _col(self, node: ast.AST) -> int:
        """1-based character column of a node (ast columns count UTF-8 bytes)."""
        line_no, offset = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
        if 1 <= line_no <= len(self._lines):
            raw = self._lines[line_no - 1].encode("utf-8")
            return len(raw[:offset].decode("utf-8", errors="replace")) + 1
        return offset + 1

    def _loc(self, node: ast.AST) -> ast.expr:
        line = getattr(node, "lineno", 1)
        return ast.Tuple(elts=[ast.Constant(self.file_name), ast.Constant(line),
                               ast.Constant(self._col(node))], ctx=ast.Load())

    def error(self, node: ast.AST, code: str, what: str, hint: str = "") -> PreprocessError:
        return PreprocessError(Diagnostic(self.file_name, getattr(node, "lineno", 1),
                                          self._col(node), code, what, hint))

    @staticmethod
    def _rt(name: str) -> ast.expr:
        return ast.Attribute(value=ast.Name(RUNTIME, ast.Load()), attr=name, ctx=ast.Load())

    def _call(self, name: str, *args: ast.expr) -> ast.Call:
        return ast.Call(func=self._rt(name), args=list(args), keywords=[])

    @staticmethod
    def _thunk(expr: ast.expr) -> ast.Lambda:
        no_args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                kw_defaults=[], kwarg=None, defaults=[])
        return ast.Lambda(args=no_args, body=expr)

    @staticmethod
    def _header(node: ast.AST) -> ast.AST:
        """A location covering the first line of `node` only (a compound statement's header):
        generated code reports that line, not the whole statement."""
        anchor = ast.Pass()
        line, col = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
        end_col = col + 1
        part = getattr(node, "test", None) or getattr(node, "iter", None)
        for candidate in (part, node):
            end = getattr(candidate, "end_col_offset", None)
            if getattr(candidate, "end_lineno", None) == line and end is not None:
                end_col = end
                break
        anchor.lineno, anchor.col_offset = line, col
        anchor.end_lineno, anchor.end_col_offset = line, max(end_col, col + 1)
        return anchor

    @classmethod
    def _located(cls, nodes: list[ast.stmt], where: ast.AST) -> list[ast.stmt]:
        """Gives generated nodes (those without a position) the header position of `where`;
        user code inside them keeps its own."""
        anchor = cls._header(where)
        todo: list[ast.AST] = list(nodes)
        while todo:
            node = todo.pop()
            if "lineno" in node._attributes:
                if hasattr(node, "lineno"):
                    continue  # user code (or already placed): its positions are its own
                ast.copy_location(node, anchor)
            todo.extend(ast.iter_child_nodes(node))
        return nodes

    def _block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            result = self.visit(stmt)
            if result is None:
                continue
            if isinstance(result, list):
                out.extend(result)
            else:
                out.append(result)
        return out

    def _regions(self) -> bool:
        """Whether control flow here may become tracer calls (inside a sync function)."""
        scope = self._scope
        return (scope.kind in ("function", "region") and scope.function is not None
                and scope.function.regions)

    def _thunks(self) -> bool:
        """Whether expressions here may be wrapped in lambdas (not directly in a class body,
        where a lambda could not see the class's names)."""
        return self._scope.kind in ("function", "region", "lambda")

    def _static_test(self, test: ast.expr, node: ast.AST) -> ast.expr:
        return ast.copy_location(self._call("static", test, self._loc(node)), test)

    def _next_name(self, role: str, node: ast.AST) -> str:
        function = self._scope.function
        assert function is not None
        function.counter += 1
        return f"__bbx_{role}_{getattr(node, 'lineno', 0)}_{function.counter}"

    # -- functions, classes, lambdas -----------------------------------------------------------

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        if self._scope.function is not None:  # nested in a jit function: it is traced inline
            index = nm.jit_decorator_index(node.decorator_list, self._jit_aliases)
            if index is not None:
                del node.decorator_list[index]
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self.visit(node.args)
        if node.returns is not None:
            node.returns = self.visit(node.returns)
        args = node.args
        params = frozenset(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs,
                                           *(x for x in (args.vararg, args.kwarg) if x)))
        function = _Function(
            liveness=Liveness(node.body, params), params=params,
            globals=frozenset(nm.declared(node.body, ast.Global)),
            nonlocals=frozenset(nm.declared(node.body, ast.Nonlocal)),
            regions=isinstance(node, ast.FunctionDef),
            top=self._scope.function is None,
        )
        with self._enter(_Scope("function", self._scope, function)):
            body = self._block(node.body) or [ast.Pass()]
        skip = function.params | function.globals | function.nonlocals
        declared = [name for name in function.declare if name not in skip]
        if declared:
            # A name bound only inside region functions still needs a binding here for their
            # `nonlocal`; an annotation binds nothing at run time (the name stays unbound).
            decls: list[ast.stmt] = [
                ast.AnnAssign(target=ast.Name(n, ast.Store()), annotation=ast.Constant(0),
                              value=None, simple=1) for n in declared]
            first = node.body[0]
            at = 1 if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                       and isinstance(first.value.value, str)) else 0
            body[at:at] = self._located(decls, first)
        node.body = body
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return self._function(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.bases = [self.visit(b) for b in node.bases]
        node.keywords = [self.visit(k) for k in node.keywords]
        with self._enter(_Scope("class", self._scope, None)):
            node.body = self._block(node.body) or [ast.Pass()]
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        node.args = self.visit(node.args)
        with self._enter(_Scope("lambda", self._scope, None)):
            node.body = self.visit(node.body)
        return node

    # -- if ---------------------------------------------------------------------------------------

    def visit_If(self, node: ast.If) -> Any:
        if not self._regions():
            return self.generic_visit(node)
        if nm.is_const_expr_test(node.test):
            node.test = self._static_test(self.visit(node.test), node)
            node.body = self._block(node.body) or [ast.Pass()]
            node.orelse = self._block(node.orelse)
            return node
        if nm.has_scope_sensitive([*node.body, *node.orelse]):
            return self.generic_visit(node)
        function = self._scope.function
        assert function is not None
        carried = function.liveness.carried(node)
        test = self.visit(node.test)
        then_name = self._next_name("then", node)
        then_def, escapes = self._region_def(then_name, node.body, "if", node)
        stmts: list[ast.stmt] = [then_def]
        else_ref: ast.expr = ast.Constant(None)
        if node.orelse:
            else_name = self._next_name("else", node)
            else_def, else_escapes = self._region_def(else_name, node.orelse, "if",
                                                      node.orelse[0])
            stmts.append(else_def)
            escapes |= else_escapes
            else_ref = ast.Name(else_name, ast.Load())
        call = self._call(self.IF_EXECUTOR, test, ast.Name(then_name, ast.Load()), else_ref,
                          self._names(carried), self._loc(node))
        stmts.append(ast.Assign(targets=[ast.Name(FLOW, ast.Store())], value=call))
        stmts += self._if_handler(escapes)
        return self._located(stmts, node)

    def _names(self, names: list[str]) -> ast.expr:
        return ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load())

    def _region_def(self, name: str, body: list[ast.stmt], region: str, node: ast.AST, *,
                    params: Sequence[str] = (), prefix: Sequence[ast.stmt] = (),
                    extra_bound: Sequence[ast.AST] = ()) -> tuple[ast.stmt, set[str]]:
        """`def name(params): nonlocal <bound>; prefix; body` as a region of the current scope;
        returns it and the control-flow kinds that leave it."""
        function = self._scope.function
        assert function is not None
        bound = [n for n in nm.bound_names([*extra_bound, *body]) if n not in params]
        globals_ = [n for n in bound if n in function.globals]
        nonlocals = [n for n in bound if n not in function.globals]
        if self._scope.kind == "function":
            function.declare.update(dict.fromkeys(nonlocals))
        scope = _Scope("region", self._scope, function, region=region)
        with self._enter(scope):
            new_body = [*prefix, *self._block(body)]
        head: list[ast.stmt] = []
        if globals_:
            head.append(ast.Global(names=globals_))
        if nonlocals:
            head.append(ast.Nonlocal(names=nonlocals))
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None,
                             kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fdef = ast.FunctionDef(name=name, args=args, body=head + (new_body or [ast.Pass()]),
                               decorator_list=[], returns=None, type_comment=None)
        if "type_params" in ast.FunctionDef._fields:  # Python >= 3.12
            fdef.type_params = []  # type: ignore[attr-defined]
        return self._located([fdef], node)[0], scope.escapes

    def _flow_return(self) -> ast.stmt:
        """What a scope does with a signal it cannot handle: pass it on (a region) or return
        the value it carries (the function)."""
        flow = ast.Name(FLOW, ast.Load())
        if self._scope.kind == "region":
            return ast.Return(value=flow)
        value: ast.expr = ast.Attribute(value=flow, attr="value", ctx=ast.Load())
        function = self._scope.function
        if function is not None and function.top:
            loc = ast.Attribute(value=ast.Name(FLOW, ast.Load()), attr="loc", ctx=ast.Load())
            value = self._call("result", value, loc)
        return ast.Return(value=value)

    @staticmethod
    def _flow_is(kind: str) -> ast.expr:
        return ast.Compare(left=ast.Attribute(value=ast.Name(FLOW, ast.Load()), attr="kind",
                                              ctx=ast.Load()),
                           ops=[ast.Eq()], comparators=[ast.Constant(kind)])

    @staticmethod
    def _flow_none(is_none: bool) -> ast.expr:
        return ast.Compare(left=ast.Name(FLOW, ast.Load()),
                           ops=[ast.Is() if is_none else ast.IsNot()],
                           comparators=[ast.Constant(None)])

    def _if_handler(self, escapes: set[str]) -> list[ast.stmt]:
        if not escapes:
            return []
        body: list[ast.stmt] = []
        remaining = set(escapes)
        if self._scope.loops:  # a Python loop of this scope is what break/continue leave
            for kind, stmt in (("break", ast.Break()), ("continue", ast.Continue())):
                if kind in remaining:
                    body.append(ast.If(test=self._flow_is(kind), body=[stmt], orelse=[]))
                    remaining.discard(kind)
        if remaining:
            body.append(self._flow_return())
        return [ast.If(test=self._flow_none(False), body=body, orelse=[])]

    def _loop_handler(self, escapes: set[str], orelse: list[ast.stmt]) -> list[ast.stmt]:
        returns = "return" in escapes
        if orelse:
            else_body = self._block(orelse) or [ast.Pass()]
            other: list[ast.stmt] = []
            if returns:
                other = [ast.If(test=self._flow_is("return"), body=[self._flow_return()],
                                orelse=[])]
            return [ast.If(test=self._flow_none(True), body=else_body, orelse=other)]
        if returns:
            test = ast.BoolOp(op=ast.And(), values=[self._flow_none(False),
                                                    self._flow_is("return")])
            return [ast.If(test=test, body=[self._flow_return()], orelse=[])]
        return []

    # -- for ----------------------------------------------------------------------------------

    def _python_loop(self, node: ast.For | ast.While | ast.AsyncFor) -> ast.AST:
        self._scope.loops += 1
        try:
            node.body = self._block(node.body) or [ast.Pass()]
        finally:
            self._scope.loops -= 1
        node.orelse = self._block(node.orelse)
        return node

    def _split_call(self, call: ast.Call) -> tuple[ast.expr, ast.expr, ast.expr]:
        """`f(a, *b, k=v, **w)` -> (`f`, `(a, *b)`, `{'k': v, **w}`), visited."""
        callee = self.visit(call.func)
        args = ast.Tuple(elts=[self.visit(a) for a in call.args], ctx=ast.Load())
        keys: list[ast.expr | None] = [None if k.arg is None else ast.Constant(k.arg)
                                       for k in call.keywords]
        kwargs = ast.Dict(keys=keys, values=[self.visit(k.value) for k in call.keywords])
        return callee, args, kwargs

    def visit_For(self, node: ast.For) -> Any:
        if not self._regions():
            node.target = self.visit(node.target)
            node.iter = self.visit(node.iter)
            return self._python_loop(node)
        kind = nm.range_kind(node.iter)
        node.target = self.visit(node.target)
        if kind == "constexpr":
            assert isinstance(node.iter, ast.Call)
            parts = self._split_call(node.iter)
            node.iter = ast.copy_location(
                self._call("range_constexpr", *parts, self._loc(node.iter)), node.iter)
            return self._python_loop(node)
        if kind is None or nm.has_scope_sensitive([*node.body]):
            node.iter = ast.copy_location(
                self._call("iterate", self.visit(node.iter), self._loc(node.iter)), node.iter)
            return self._python_loop(node)
        function = self._scope.function
        assert function is not None and isinstance(node.iter, ast.Call)
        carried = function.liveness.carried(node)
        callee, args, kwargs = self._split_call(node.iter)
        body_name = self._next_name("body", node)
        prefix = self._located([ast.Assign(targets=[node.target],
                                           value=ast.Name(ITERATION, ast.Load()))], node.target)
        body_def, escapes = self._region_def(body_name, node.body, "loop", node,
                                             params=[ITERATION], prefix=prefix,
                                             extra_bound=[node.target])
        target = node.target.id if isinstance(node.target, ast.Name) else None
        call = self._call(self.FOR_EXECUTOR, callee, args, kwargs,
                          ast.Name(body_name, ast.Load()), self._names(carried), self._loc(node),
                          ast.Constant(target))
        stmts: list[ast.stmt] = [body_def,
                                 ast.Assign(targets=[ast.Name(FLOW, ast.Store())], value=call)]
        stmts += self._loop_handler(escapes, node.orelse)
        return self._located(stmts, node)

    def visit_AsyncFor(self, node: ast.AsyncFor) -> Any:
        node.target = self.visit(node.target)
        node.iter = self.visit(node.iter)
        return self._python_loop(node)

    # -- while --------------------------------------------------------------------------------

    def visit_While(self, node: ast.While) -> Any:
        if not self._regions():
            node.test = self.visit(node.test)
            return self._python_loop(node)
        if nm.is_const_expr_test(node.test):
            node.test = self._static_test(self.visit(node.test), node)
            return self._python_loop(node)
        if nm.has_scope_sensitive([ast.Expr(node.test), *node.body]):
            node.test = self.visit(node.test)
            return self._python_loop(node)
        function = self._scope.function
        assert function is not None
        carried = function.liveness.carried(node)
        cond_name = self._next_name("cond", node)
        bound = nm.bound_names([node.test])
        cond_scope = _Scope("region", self._scope, function, region="cond")
        with self._enter(cond_scope):
            test = self.visit(node.test)
        if self._scope.kind == "function":
            function.declare.update(dict.fromkeys(bound))
        head: list[ast.stmt] = []
        globals_ = [n for n in bound if n in function.globals]
        if globals_:
            head.append(ast.Global(names=globals_))
        if [n for n in bound if n not in function.globals]:
            head.append(ast.Nonlocal(names=[n for n in bound if n not in function.globals]))
        no_args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                kw_defaults=[], kwarg=None, defaults=[])
        cond_def = ast.FunctionDef(name=cond_name, args=no_args,
                                   body=[*head, ast.Return(value=test)], decorator_list=[],
                                   returns=None, type_comment=None)
        if "type_params" in ast.FunctionDef._fields:
            cond_def.type_params = []  # type: ignore[attr-defined]
        self._located([cond_def], node.test)
        body_name = self._next_name("body", node)
        body_def, escapes = self._region_def(body_name, node.body, "loop", node)
        call = self._call(self.WHILE_EXECUTOR, ast.Name(cond_name, ast.Load()),
                          ast.Name(body_name, ast.Load()), self._names(carried), self._loc(node))
        stmts: list[ast.stmt] = [cond_def, body_def,
                                 ast.Assign(targets=[ast.Name(FLOW, ast.Store())], value=call)]
        stmts += self._loop_handler(escapes, node.orelse)
        return self._located(stmts, node)

    # -- break, continue, return ----------------------------------------------------------------

    def _leave(self, node: ast.Break | ast.Continue, kind: str) -> Any:
        scope = self._scope
        if scope.loops or scope.kind != "region":
            return node  # a Python loop of this function is what it leaves
        walk: _Scope | None = scope
        while walk is not None and walk.kind == "region" and not walk.loops:
            if walk.region == "loop":
                break  # the loop region that consumes it
            walk.escapes.add(kind)
            walk = walk.parent
        call = self._call(f"{kind}_", self._loc(node))
        return ast.copy_location(ast.Return(value=call), node)

    def visit_Break(self, node: ast.Break) -> Any:
        return self._leave(node, "break")

    def visit_Continue(self, node: ast.Continue) -> Any:
        return self._leave(node, "continue")

    def visit_Return(self, node: ast.Return) -> Any:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if self._scope.kind != "region":
            function = self._scope.function
            if self._scope.kind == "function" and function is not None and function.top:
                # The traced function's result: the tracer learns the `return` line.
                value = node.value if node.value is not None else ast.Constant(None)
                node.value = self._call("result", value, self._loc(node))
                self._located([node], node)
            return node
        walk: _Scope | None = self._scope
        while walk is not None and walk.kind == "region":
            walk.escapes.add("return")
            walk = walk.parent
        value = node.value if node.value is not None else ast.Constant(None)
        call = self._call("return_", value, self._loc(node))
        return self._located([ast.Return(value=call)], node)[0]

    # -- assignments: run-time values get the Python name -------------------------------------

    def _bind(self, name: str, where: ast.AST) -> ast.stmt:
        value = self._call("bind", ast.Name(name, ast.Load()), ast.Constant(name))
        stmt = ast.Assign(targets=[ast.Name(name, ast.Store())], value=value)
        return self._located([stmt], where)[0]

    def visit_Name(self, node: ast.Name) -> Any:
        """`max`, `min`, `any`, `all` read in jit code: `__bbx__.builtin(max)`, which is the
        DSL's function for run-time arguments (the DSL's preprocessor redirects them so)."""
        if isinstance(node.ctx, ast.Load) and node.id in _REDIRECTED_BUILTINS:
            return ast.copy_location(ast.Call(func=self._rt("builtin"), args=[node],
                                              keywords=[]), node)
        return node

    def visit_Assign(self, node: ast.Assign) -> Any:
        return self._bound_assign(self.generic_visit(node))  # type: ignore[arg-type]

    def _bound_assign(self, node: ast.Assign) -> Any:
        """An assignment (its parts visited) that also tells the tracer the names it binds."""
        if not self._thunks() or self._scope.kind == "lambda":
            return node
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            node.value = ast.copy_location(
                self._call("bind", node.value, ast.Constant(name)), node.value)
            return node
        bound = [n for t in node.targets for n in nm.target_names(t)]
        return [node, *(self._bind(n, node) for n in bound)]

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Any:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if self._scope.kind == "region" and isinstance(node.target, ast.Name) and node.simple:
            # the name is `nonlocal` in the region function, where Python refuses an
            # annotation; a local name's annotation is never evaluated, so it goes
            if node.value is None:
                return ast.copy_location(ast.Pass(), node)
            plain = ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node)
            return self._bound_assign(plain)
        if (node.value is not None and isinstance(node.target, ast.Name) and node.simple
                and self._thunks()):
            node.value = ast.copy_location(
                self._call("bind", node.value, ast.Constant(node.target.id)), node.value)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if isinstance(node.target, ast.Name) and self._thunks():
            return [node, self._bind(node.target.id, node)]
        return node

    # -- expressions --------------------------------------------------------------------------

    def visit_Assert(self, node: ast.Assert) -> Any:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if self._thunks():
            node.test = ast.copy_location(
                self._call("truth", node.test, ast.Constant("assert"), self._loc(node)),
                node.test)
        return node

    @staticmethod
    def _lazy_ok(*exprs: ast.expr) -> bool:
        """Whether expressions can be evaluated later inside a lambda with the same meaning."""
        return not any(nm.contains(e, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)
                       for e in exprs)

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if not self._thunks() or not self._lazy_ok(*node.values[1:]):
            return node
        name = "and_" if isinstance(node.op, ast.And) else "or_"
        call = self._call(name, node.values[0], *(self._thunk(v) for v in node.values[1:]))
        return ast.copy_location(call, node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if isinstance(node.op, ast.Not) and self._thunks():
            return ast.copy_location(self._call("not_", node.operand), node)
        return node

    def visit_Compare(self, node: ast.Compare) -> Any:
        node = self.generic_visit(node)  # type: ignore[assignment]
        membership = isinstance(node.ops[0], (ast.In, ast.NotIn))
        if ((len(node.ops) < 2 and not membership) or not self._thunks()
                or not self._lazy_ok(*node.comparators)):
            return node
        ops = ast.Tuple(elts=[ast.Constant(_COMPARE_OPS[type(op)]) for op in node.ops],
                        ctx=ast.Load())
        thunks = ast.Tuple(elts=[self._thunk(c) for c in node.comparators], ctx=ast.Load())
        return ast.copy_location(self._call("compare", node.left, ops, thunks), node)

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if not self._thunks() or not self._lazy_ok(node.body, node.orelse):
            return node
        call = self._call("ifexp", node.test, self._thunk(node.body), self._thunk(node.orelse),
                          self._loc(node))
        return ast.copy_location(call, node)
