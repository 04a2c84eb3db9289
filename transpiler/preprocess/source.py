"""Where a jit function's source is: the parsed source of its file and the definition of the
function in it (what the preprocessor rewrites), and the error of a construct the preprocessor
refuses."""

from __future__ import annotations

import ast
import copy
import hashlib
import inspect
import linecache
import types
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic


class PreprocessError(Exception):
    """A construct the preprocessor refuses, located at the user's line."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.render())
        self.diagnostic = diagnostic


@dataclass(frozen=True)
class SourceFile:
    path: str
    text: str
    lines: list[str]
    tree: ast.Module


_SOURCES: dict[str, tuple[str, SourceFile]] = {}


def source_file(path: str) -> SourceFile:
    """The parsed source of a file (through `linecache`, so sources registered there work)."""
    lines = linecache.getlines(path)
    if not lines:
        linecache.checkcache(path)
        lines = linecache.getlines(path)
    text = "".join(lines)
    digest = hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()
    cached = _SOURCES.get(path)
    if cached is not None and cached[0] == digest:
        return cached[1]
    tree = ast.parse(text, filename=path)
    found = SourceFile(path, text, text.splitlines(), tree)
    _SOURCES[path] = (digest, found)
    return found


@dataclass(frozen=True)
class FunctionDefinition:
    node: ast.FunctionDef  # a private copy: safe to rewrite
    path: str
    lines: list[str]
    class_name: str | None  # the class whose body defines it (name mangling, `super()`)


def raw_function(fn: Any) -> types.FunctionType:
    """The plain Python function behind a decorated function or a bound method."""
    raw = inspect.unwrap(fn)
    if inspect.ismethod(raw):
        raw = inspect.unwrap(raw.__func__)
    if not isinstance(raw, types.FunctionType):
        raise TypeError(f"bbx: {fn!r} is not a Python function")
    return raw


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def function_definition(fn: Any) -> FunctionDefinition:
    raw = raw_function(fn)
    code = raw.__code__
    path = code.co_filename
    try:
        src = source_file(path)
    except (OSError, SyntaxError, ValueError):
        src = None
    if src is not None:
        stack: list[tuple[ast.AST, str | None]] = [(src.tree, None)]
        while stack:
            node, cls = stack.pop()
            for child in ast.iter_child_nodes(node):
                if (isinstance(child, ast.FunctionDef) and child.name == code.co_name
                        and _first_line(child) == code.co_firstlineno):
                    return FunctionDefinition(copy.deepcopy(child), path, src.lines, cls)
                inner = child.name if isinstance(child, ast.ClassDef) else (
                    None if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else cls)
                stack.append((child, inner))
    raise PreprocessError(Diagnostic(
        path, code.co_firstlineno, 1, "no-source",
        f"the source of '{raw.__qualname__}' is not available",
        "bbx runs a jit function by rewriting its source; define it in a file"))
