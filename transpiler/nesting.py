"""Deeply nested sources: what the translator takes, and the recursion room it and a staged trace
need for it.

Every pass of the translator (libcst's own position pass included), and staged execution's
preprocessor and C++ expression trees, is recursive over the tree, several Python frames per
level of nesting: a 400-term sum (400 levels of `BinaryOperation`) exceeds Python's default
limit of 1,000 frames although Python itself runs the file. So:

* `with_recursion_room(fn)` runs a translation or a staged trace in a thread with a large C
  stack (`STACK_BYTES`, reserved address space, touched only as deep as it goes) under a
  recursion limit of `RECURSION_LIMIT` frames, enough for every nesting `MAX_NESTING` allows;
* `nesting_problem(source)` refuses, before libcst parses the file, a source nested deeper than
  `MAX_NESTING` levels — about where CPython's own parser stops at its default limit (a sum of
  some 2,900 terms), and far below where libcst's native parser overflows its stack (a sum of
  10,000 terms kills the process) — as a diagnostic at the deepest expression.
"""

from __future__ import annotations

import ast
import contextvars
import io
import re
import sys
import threading
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

#: deepest nesting of the syntax tree a translation takes (levels of Python's `ast`).
MAX_NESTING = 3000
#: the recursion limit while translating: frames per level of the translator's deepest pass
#: (about 6) times MAX_NESTING, and room for the rest.
RECURSION_LIMIT = 40_000
#: the translating thread's stack: the C frames Python's recursion passes through where it
#: goes through C (comprehensions of builtins, pickling), with room to spare.
STACK_BYTES = 512 << 20

T = TypeVar("T")
#: Python's syntax errors for nesting beyond its parser's limits.
_NESTING_SYNTAX_ERRORS = re.compile(r"nested|too complex|too many")

_state = threading.local()
_limit_lock = threading.Lock()
_raised = 0
_saved_limit = 0


@dataclass(frozen=True)
class NestingProblem:
    line: int
    col: int
    depth: int | None  # None: deeper than Python's parser goes
    parser_says: str = ""  # Python's parser's own words, when it refused


def _deepest(tree: ast.AST) -> tuple[int, ast.AST]:
    """(depth, the innermost node with a position on the way to the deepest node), without
    recursion (context nodes such as `ast.Load` have no position). The depth is libcst's: a
    chain of n `and`/`or` terms counts n levels."""
    best: tuple[int, ast.AST] = (0, tree)
    stack: list[tuple[ast.AST, int, ast.AST]] = [(tree, 0, tree)]
    while stack:
        node, depth, located = stack.pop()
        if hasattr(node, "lineno"):
            located = node
        if depth > best[0]:
            best = (depth, located)
        # `a and b and c` is one node here but nested pairs in libcst (and the translator)
        step = len(node.values) if isinstance(node, ast.BoolOp) else 1
        stack.extend((child, depth + step, located) for child in ast.iter_child_nodes(node))
    return best


def _longest_logical_line(source: str) -> tuple[int, int]:
    """(line, col) of the logical line with the most tokens (where a nesting too deep for
    Python's parser is), found without parsing."""
    best, count, start, where = -1, 0, (1, 0), (1, 1)
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if count == 0:
                start = token.start
            count += 1
            if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if count > best:
                    best, where = count, (start[0], start[1] + 1)
                count = 0
    except (tokenize.TokenError, SyntaxError):
        pass
    return where


def nesting_problem(source: str) -> NestingProblem | None:
    """Where `source` nests deeper than MAX_NESTING, or None (also for sources Python cannot
    parse for other reasons: the translator's parser reports those)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        if not _NESTING_SYNTAX_ERRORS.search(str(err.msg)):
            return None  # another syntax error: the translator's parser reports it
        # Python refuses it (e.g. more than 200 nested parentheses); libcst's parser would
        # overflow its stack on some of these (3,000 nested brackets kill the process)
        return NestingProblem(err.lineno or 1, err.offset or 1, None, str(err.msg))
    except ValueError:
        return None
    except (RecursionError, MemoryError) as err:
        line, col = _longest_logical_line(source)
        return NestingProblem(line, col, None, f"{type(err).__name__} {err}".strip())
    depth, node = _deepest(tree)
    if depth <= MAX_NESTING:
        return None
    return NestingProblem(getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1, depth)


def _raise_limit() -> None:
    global _raised, _saved_limit
    with _limit_lock:
        if _raised == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
        _raised += 1


def _restore_limit() -> None:
    global _raised
    with _limit_lock:
        _raised -= 1
        if _raised == 0:
            sys.setrecursionlimit(_saved_limit)


def with_recursion_room(fn: Callable[[], T]) -> T:
    """`fn()` run with the recursion room of a translation (in this thread when it already
    has it: translations nest, for the modules a file imports helpers from), in a copy of the
    caller's context variables (a staged trace reads the caller's)."""
    if getattr(_state, "roomy", False):
        return fn()
    context = contextvars.copy_context()
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        _state.roomy = True
        try:
            outcome.append(context.run(fn))
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            failure.append(exc)

    _raise_limit()
    try:
        worker = threading.Thread(target=run, name="bbx-translate", daemon=True)
        with _limit_lock:  # the stack size applies to threads started while it is set
            previous = threading.stack_size(STACK_BYTES)
            try:
                worker.start()
            finally:
                threading.stack_size(previous)
        worker.join()
    finally:
        _restore_limit()
    if failure:
        raise failure[0]
    return outcome[0]
