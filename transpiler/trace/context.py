"""The trace context: where the C++ statements of one specialization are collected.

Statements go into nested `Block`s (the function body, a run-time `if`'s branches, a loop body)
built from the C++ AST of `bbx.cxx.ast`. Each statement is preceded, when the Python line changes,
by that line as a comment (`// file.py:12  acc = acc + x`), with the Python comments just above
it. Names are derived from Python names (`acc`, then `acc_1`, ...), so the same trace always
gives the same text.
"""

from __future__ import annotations

import contextlib
import contextvars
import keyword
import linecache
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..cxx import ast as c
from ..cxx.keywords import CXX_KEYWORDS
from .errors import TRACED_ENTRY, Loc, call_chain, frame_loc, trace_error, user_frames

#: C++ keywords and names generated code calls unqualified (a local of that name would hide
#: them), which Python variables may not take as they are.
_RESERVED = CXX_KEYWORDS | frozenset("""
abs floor floordiv rem pow min max bbx std main
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t half_t bfloat16_t
""".split())


class NameAllocator:
    """C++ identifiers from Python names: valid, not reserved, unique in one function."""

    def __init__(self) -> None:
        self._used: set[str] = set()

    def fresh(self, hint: str) -> str:
        base = re.sub(r"\W", "_", hint.encode("ascii", "replace").decode().replace("?", "_"))
        base = base.strip("_") or "v"
        if base[0].isdigit():
            base = "v" + base
        if base in _RESERVED or keyword.iskeyword(base):
            base += "_"
        name, n = base, 0
        while name in self._used:
            n += 1
            name = f"{base}_{n}"
        self._used.add(name)
        return name

    def reserve(self, name: str) -> None:
        self._used.add(name)


@dataclass(eq=False)
class Block:
    """A C++ block being filled: the function body, a branch, a loop body."""

    parent: Block | None
    what: str  # "function", "if", "else", "for", "while"
    loc: Loc | None = None  # the Python construct it belongs to
    stmts: list[c.Stmt] = field(default_factory=list)
    last_line: tuple[object, ...] | None = None  # the Python line of the last comment

    def encloses(self, other: Block) -> bool:
        """Whether this block is `other` or one of its ancestors."""
        block: Block | None = other
        while block is not None:
            if block is self:
                return True
            block = block.parent
        return False

    def where(self) -> str:
        return f" at {os.path.basename(self.loc[0])}:{self.loc[1]}" if self.loc else ""

    def describe(self) -> str:
        """The block: `branch of the run-time `if` at k.py:12`."""
        kinds = {"if": "branch of the run-time `if`", "else": "`else` of the run-time `if`",
                 "for": "run-time `for` loop", "while": "run-time `while` loop"}
        return kinds.get(self.what, self.what) + self.where()

    def statement(self) -> str:
        """The statement the block belongs to: `run-time `if` at k.py:12`."""
        kinds = {"if": "run-time `if`", "else": "run-time `if`", "for": "run-time `for` loop",
                 "while": "run-time `while` loop"}
        return kinds.get(self.what, self.what) + self.where()


class TraceContext:
    """The C++ of one traced function, as it is being built."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.names = NameAllocator()
        self.root = Block(None, "function")
        self.block = self.root
        #: (file, first line, last line) of the traced function: where call chains end.
        self.entry: tuple[str, int, int] | None = None
        #: The position of the last `return` of a rewritten function (`__bbx__.result`).
        self.return_loc: Loc | None = None
        #: Inside `speculate()`: values are not given variables (the statements may be undone).
        self.speculative = 0
        #: `for i in range(n)` with a Python `n`: "unroll" (Python runs the loop; the C++ has
        #: one copy of the body per iteration) or "loop" (a C++ loop, as NVIDIA's DSL does).
        self.static_ranges = "unroll"

    # -- blocks ---------------------------------------------------------------------------------

    def child(self, what: str, loc: Loc | None) -> Block:
        return Block(self.block, what, loc)

    @contextlib.contextmanager
    def enter(self, block: Block) -> Iterator[Block]:
        saved, self.block = self.block, block
        try:
            yield block
        finally:
            self.block = saved

    @contextlib.contextmanager
    def speculate(self) -> Iterator[Callable[[], None]]:
        """Evaluates something that may have to be undone: yields `undo`, which removes the
        statements emitted into the current block since (values keep their expressions)."""
        block = self.block
        mark, last = len(block.stmts), block.last_line
        self.speculative += 1

        def undo() -> None:
            del block.stmts[mark:]
            block.last_line = last

        try:
            yield undo
        finally:
            self.speculative -= 1

    # -- statements -----------------------------------------------------------------------------

    def emit(self, stmt: c.Stmt, loc: Loc | None = None, *, comment: bool = True) -> None:
        """Appends `stmt` to the current block, after the Python line it comes from (`loc`, or
        where user code is now; with the calls that led there from the traced function, for
        statements of helpers). `comment=False`: bookkeeping that belongs to the statements
        before it."""
        self.emit_into(self.block, stmt, loc, comment=comment)

    def emit_into(self, block: Block, stmt: c.Stmt, loc: Loc | None = None, *,
                  comment: bool = True) -> None:
        if comment:
            chain: tuple[Loc, ...] = ()
            if loc is None:
                frames = user_frames(2)
                if frames:
                    loc, chain = frame_loc(frames[0]), call_chain(frames)
            if loc is not None:
                key = (loc[0], loc[1], *((f, n) for f, n, _ in chain))
                if block.last_line != key:
                    lines = python_line_comment(loc[0], loc[1])
                    if lines:
                        calls = tuple(f"  called from {os.path.basename(f)}:{n}"
                                      for f, n, _ in chain)
                        block.stmts.append(c.Comment(lines + calls))
                    block.last_line = key
        block.stmts.append(stmt)

    def declare(self, ctype: c.CxxType | None, hint: str, init: c.Expr | None,
                block: Block | None = None, loc: Loc | None = None) -> tuple[str, c.Decl]:
        """`T name = init;` (or `T name;`) in `block` (the current one)."""
        name = self.names.fresh(hint)
        stmt = c.Decl(ctype, (name,), init)
        self.emit_into(block or self.block, stmt, loc)
        return name, stmt


_CURRENT: contextvars.ContextVar[TraceContext | None] = contextvars.ContextVar(
    "bbx_trace_context", default=None)


def current() -> TraceContext | None:
    """The trace context being filled, if a function is being traced."""
    return _CURRENT.get()


def require(what: str) -> TraceContext:
    """The current trace context, or a located error naming the run-time construct `what`."""
    ctx = _CURRENT.get()
    if ctx is None:
        raise trace_error("not-tracing", f"{what} outside a traced jit function",
                          "run-time values exist only while bbx traces a @cute.jit function")
    return ctx


@contextlib.contextmanager
def activate(ctx: TraceContext) -> Iterator[TraceContext]:
    token = _CURRENT.set(ctx)
    entry = TRACED_ENTRY.set(ctx.entry)
    try:
        yield ctx
    finally:
        TRACED_ENTRY.reset(entry)
        _CURRENT.reset(token)


# -- the Python line above each statement --------------------------------------------------------

_STARTS: dict[str, tuple[int, dict[int, int]]] = {}


def _statement_starts(path: str) -> dict[int, int]:
    """Line -> first line of the innermost statement containing it (from the parsed source)."""
    from ..preprocess.loader import source_file

    try:
        src = source_file(path)
    except (OSError, SyntaxError, ValueError):
        return {}
    cached = _STARTS.get(path)
    if cached is not None and cached[0] == id(src):
        return cached[1]
    import ast

    spans: list[tuple[int, int, int]] = []
    for node in ast.walk(src.tree):
        if isinstance(node, ast.stmt):
            end = node.end_lineno or node.lineno
            if isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.FunctionDef,
                                 ast.AsyncFunctionDef, ast.ClassDef, ast.AsyncFor, ast.AsyncWith)):
                body = getattr(node, "body", None)
                if body:  # the header only: its body's lines belong to its statements
                    end = max(node.lineno, body[0].lineno - 1)
            spans.append((end - node.lineno, node.lineno, end))
    starts: dict[int, int] = {}
    for _, first, last in sorted(spans, reverse=True):
        for line in range(first, last + 1):
            starts[line] = first
    _STARTS[path] = (id(src), starts)
    return starts


def python_line_comment(path: str, line: int) -> tuple[str, ...]:
    """`file.py:12  <statement's first line>`, after the `#` comment lines just above it."""
    start = _statement_starts(path).get(line, line)
    text = linecache.getline(path, start).strip()
    if not text:
        return ()
    above: list[str] = []
    n = start - 1
    while n >= 1:
        prev = linecache.getline(path, n).strip()
        if not prev.startswith("#"):
            break
        above.append(prev.lstrip("#").strip())
        n -= 1
    return (*reversed(above), f"{os.path.basename(path)}:{start}  {text}")
