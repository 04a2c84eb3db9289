"""Live variables of a function, for the loop-carried variables of run-time control flow.

A variable that a run-time `if`/`for`/`while` assigns becomes a C++ variable only if its value is
needed afterwards: read after the statement, or (loops) read in the next iteration before it is
assigned. That is exactly liveness: `carried = assigned(region) ∩ (live after it ∪ live at the
start of the loop body)`. Temporaries of a loop body stay local to the body, so a name reused
later with another type is not a type error (NVIDIA's preprocessor carries every assigned
variable that existed before the statement; this is the precise version).

The analysis is a backward dataflow over the structured statements, conservative where Python
is dynamic: names read inside nested functions and lambdas are live everywhere (they run at
unknown times); a function calling `locals()`/`eval`/`exec` keeps everything live; every point of
a `try` body may jump to its handlers. Results are keyed by the statement's `(kind, line, col)`,
so a library rule that replaces an `if` node by new ones at the same position (QuACK's
`const_expr(S) and D` rule) still finds them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

from .names import (
    bound_names,
    deferred_reads,
    invoked_names,
    read_names,
    reads_everything,
    target_names,
)

Key = tuple[str, int, int]


def key_of(node: ast.stmt) -> Key:
    kind = "For" if isinstance(node, ast.AsyncFor) else type(node).__name__
    return (kind, node.lineno, node.col_offset)


@dataclass(frozen=True)
class _Ctx:
    brk: frozenset[str]  # live after the innermost loop (where `break` goes)
    cont: frozenset[str]  # live at the innermost loop's head (where `continue` goes)
    extra: frozenset[str]  # live everywhere here (exception handlers of an enclosing `try`)


_EMPTY: frozenset[str] = frozenset()


class Liveness:
    """Live-variable facts of one function body."""

    def __init__(self, body: list[ast.stmt], everything: Iterable[str] = ()) -> None:
        self._live_out: dict[Key, frozenset[str]] = {}
        self._body_in: dict[Key, frozenset[str]] = {}
        #: the function's own variables (parameters and names it binds)
        self._locals = frozenset(everything) | frozenset(bound_names(body))
        self.always: frozenset[str] = frozenset(deferred_reads(body))
        if reads_everything(body):
            self.always |= frozenset(everything) | frozenset(bound_names(body))
        self._block(body, _EMPTY, _Ctx(_EMPTY, _EMPTY, _EMPTY))

    # -- queries ------------------------------------------------------------------------------

    def live_out(self, node: ast.stmt) -> frozenset[str] | None:
        """Names live right after `node` (None: a statement the analysis has not seen)."""
        found = self._live_out.get(key_of(node))
        return None if found is None else found | self.always

    def carried(self, node: ast.If | ast.For | ast.While) -> list[str]:
        """The names a run-time `if`/`for`/`while` must carry out of (and, loops, around) its
        body, in order of first assignment."""
        if isinstance(node, ast.If):
            region: list[ast.AST] = [*node.body, *node.orelse]
            assigned = bound_names(region)
        elif isinstance(node, ast.For):
            region = [*node.body]
            assigned = bound_names([node.target, *node.body])
        else:
            region = [node.test, *node.body]
            assigned = bound_names(region)
        # a local whose method is called may change (`state.advance()`); `self` is the
        # trace-time object, never carried
        assigned += [name for name in invoked_names(region)
                     if name in self._locals and name != "self" and name not in assigned]
        out = self.live_out(node)
        if out is None:  # a node built by a library rule at an unknown position: carry all
            return assigned
        live = set(out)
        body_in = self._body_in.get(key_of(node))
        if isinstance(node, (ast.For, ast.While)):
            live |= body_in if body_in is not None else set(assigned)
        if isinstance(node, ast.For):
            # The target is assigned anew at each iteration: carried only if read after the loop.
            targets = set(target_names(node.target))
            live -= targets - set(out)
        return [name for name in assigned if name in live]

    # -- dataflow -----------------------------------------------------------------------------

    def _block(self, stmts: list[ast.stmt], out: frozenset[str], ctx: _Ctx) -> frozenset[str]:
        live = out
        for stmt in reversed(stmts):
            live = self._stmt(stmt, live, ctx) | ctx.extra
        return live

    def _stmt(self, s: ast.stmt, out: frozenset[str], ctx: _Ctx) -> frozenset[str]:
        uses = _uses
        if isinstance(s, ast.If):
            self._live_out[key_of(s)] = out | ctx.extra
            return uses(s.test) | self._block(s.body, out, ctx) | self._block(s.orelse, out, ctx)
        if isinstance(s, (ast.For, ast.AsyncFor)):
            self._live_out[key_of(s)] = out | ctx.extra
            orelse_in = self._block(s.orelse, out, ctx)
            kills = frozenset(target_names(s.target))
            target_uses = uses(s.target) - kills
            head = orelse_in
            while True:
                body_in = self._block(s.body, head, _Ctx(out, head, ctx.extra))
                new_head = orelse_in | (body_in - kills) | target_uses
                if new_head == head:
                    break
                head = new_head
            self._body_in[key_of(s)] = body_in
            return uses(s.iter) | head
        if isinstance(s, ast.While):
            self._live_out[key_of(s)] = out | ctx.extra
            orelse_in = self._block(s.orelse, out, ctx)
            test = uses(s.test)
            head = test | orelse_in
            while True:
                body_in = self._block(s.body, head, _Ctx(out, head, ctx.extra))
                new_head = test | orelse_in | body_in
                if new_head == head:
                    break
                head = new_head
            self._body_in[key_of(s)] = head
            return head
        if isinstance(s, ast.Break):
            return ctx.brk
        if isinstance(s, ast.Continue):
            return ctx.cont
        if isinstance(s, ast.Return):
            return uses(s.value) if s.value is not None else _EMPTY
        if isinstance(s, ast.Raise):
            return (uses(s.exc) if s.exc else _EMPTY) | (uses(s.cause) if s.cause else _EMPTY)
        if isinstance(s, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            assert isinstance(s, ast.Try)
            after = self._block(s.finalbody, out, ctx)
            fin_anyway = self._block(s.finalbody, _EMPTY, ctx)
            handlers = _EMPTY
            for h in s.handlers:
                h_in = self._block(h.body, after, ctx) - ({h.name} if h.name else set())
                handlers |= h_in | (uses(h.type) if h.type else _EMPTY)
            orelse_in = self._block(s.orelse, after, ctx)
            extra = ctx.extra | handlers | fin_anyway
            inner = _Ctx(ctx.brk | extra, ctx.cont | extra, extra)
            return self._block(s.body, orelse_in, inner) | extra
        if isinstance(s, (ast.With, ast.AsyncWith)):
            kills = frozenset(n for item in s.items if item.optional_vars is not None
                              for n in target_names(item.optional_vars))
            body_in = self._block(s.body, out, ctx) - kills
            for item in s.items:
                body_in |= uses(item.context_expr)
                if item.optional_vars is not None:
                    body_in |= uses(item.optional_vars)
            return body_in
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            outer: list[ast.AST] = list(s.decorator_list)
            if isinstance(s, ast.ClassDef):
                outer += [*s.bases, *s.keywords]
                outer += s.body  # a class body runs now
            else:
                outer += [d for d in (*s.args.defaults, *s.args.kw_defaults) if d is not None]
            read = frozenset().union(*(uses(p) for p in outer)) if outer else _EMPTY
            return (out - {s.name}) | read
        if isinstance(s, getattr(ast, "Match", ())):
            live = uses(s.subject) | out  # type: ignore[attr-defined]
            for case in s.cases:  # type: ignore[attr-defined]
                live |= self._block(case.body, out, ctx) | uses(case.pattern)
                if case.guard is not None:
                    live |= uses(case.guard)
            return live
        if isinstance(s, ast.Assign):
            kills = frozenset(n for t in s.targets for n in target_names(t))
            return (out - kills) | uses(s.value).union(*(uses(t) for t in s.targets))
        if isinstance(s, ast.AnnAssign):
            if s.value is None:
                return out
            kills = frozenset(target_names(s.target))
            return (out - kills) | uses(s.value) | (uses(s.target) - kills)
        if isinstance(s, ast.AugAssign):
            return out | uses(s.value) | uses(s.target) | frozenset(target_names(s.target))
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            return out - frozenset(bound_names([s]))
        # Expr, Assert, Delete, Global, Nonlocal, Pass and anything newer: reads only.
        return out | uses(s)


def _uses(node: ast.AST) -> frozenset[str]:
    return frozenset(read_names(node))
