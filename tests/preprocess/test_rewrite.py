"""The preprocessor's rewrite: what becomes a tracer call and what stays Python (the DSL's rules),
jit decorators, line numbers, loop-carried variables, closures and globals shared with the
original function, whole-module rewriting."""

from __future__ import annotations

import ast
import sys
import textwrap
import traceback
import types
from typing import Any

import pytest

from bbx.preprocess import DSLPreprocessor, rewrite_function, rewrite_module_source
from bbx.preprocess.liveness import Liveness
from bbx.trace import control

from . import shapes


def _unparsed(fn: Any) -> str:
    pre = DSLPreprocessor(["cutlass"])
    with pre.get_session() as session:
        return ast.unparse(session.transform(fn, dict(fn.__globals__)))


def test_const_expr_and_constexpr_ranges_stay_python() -> None:
    text = _unparsed(shapes.constexpr_loops)
    assert "__bbx__.range_constexpr(range_constexpr, (4,), {}" in text
    assert "while __bbx__.static(const_expr(w < n)" in text
    assert "__bbx__.while_(" not in text and "__bbx__.for_range(" not in text
    text = _unparsed(shapes.elif_chain)
    assert "if __bbx__.static(const_expr(x > 1000)" in text
    assert text.count("__bbx__.if_(") == 4  # if, two elifs, the nested if; not the const_expr arm


def test_loops_over_other_iterables_stay_python() -> None:
    text = _unparsed(shapes.for_else)
    assert "for x in __bbx__.iterate(xs," in text
    assert "__bbx__.for_range(range, (len(xs),)" in text  # `range` is a run-time loop


def test_line_numbers_are_the_original_ones() -> None:
    rewritten = rewrite_function(shapes.try_in_loop, control)
    assert rewritten.__code__.co_firstlineno == shapes.try_in_loop.__code__.co_firstlineno

    def failing(xs: list[Any]) -> None:
        for x in xs:
            if x:
                raise RuntimeError("here")

    line = failing.__code__.co_firstlineno + 3
    with pytest.raises(RuntimeError) as info:
        rewrite_function(failing, control)([0, 1])
    frames = traceback.extract_tb(info.value.__traceback__)
    assert frames[-1].lineno == line and frames[-1].filename == __file__
    assert frames[-1].line is not None and "raise RuntimeError" in frames[-1].line


def test_closure_cells_are_shared_with_the_original() -> None:
    def make() -> Any:
        count = 0

        def step(n: int) -> int:
            nonlocal count
            for i in range(n):
                if i % 2:
                    count += 1
            return count

        def get() -> int:
            return count

        return step, get

    step, get = make()
    rewritten = rewrite_function(step, control)
    assert rewritten(4) == 2 and get() == 2
    assert step(2) == 3 and rewritten(0) == 3


def test_module_globals_are_read_at_call_time(monkeypatch: pytest.MonkeyPatch) -> None:
    rewritten = rewrite_function(shapes.global_reader, control)
    before = rewritten(6)
    monkeypatch.setattr(shapes, "SCALE", 10)
    assert rewritten(6) == shapes.global_reader(6) != before


def test_rewrite_is_cached_per_function() -> None:
    assert rewrite_function(shapes.nested_loops, control) is rewrite_function(
        shapes.nested_loops, control)


def test_scope_sensitive_bodies_stay_python() -> None:
    def gen(n: int) -> Any:
        def inner() -> Any:
            for i in range(n):
                if i % 2:
                    yield i

        return list(inner())

    assert rewrite_function(gen, control)(7) == [1, 3, 5]
    assert "yield i" in _unparsed(gen)


def _rewritten_functions(source: str) -> set[str]:
    tree = rewrite_module_source(textwrap.dedent(source), "<test>")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("__bbx"):
            if "__bbx__." in ast.unparse(node):
                out.add(node.name)
    return out


def test_jit_decorators() -> None:
    source = """
        import cutlass
        import cutlass.cute as cute
        from cutlass.cute import jit as cjit, kernel

        @cute.jit
        def a(x):
            if x: pass

        @cute.kernel(attributes={"x": 1})
        def b(x):
            if x: pass

        @cjit
        def c(x):
            if x: pass

        @kernel()
        def d(x):
            if x: pass

        @cute.jit(preprocess=False)
        def e(x):
            if x: pass

        def f(x):
            if x: pass

        @other.jit(unknown=1)
        def g(x):
            if x: pass

        class K:
            @cute.jit
            def m(self, x):
                if x: pass
    """
    assert _rewritten_functions(source) == {"a", "b", "c", "d", "m"}


def test_nested_jit_decorators_are_removed() -> None:
    source = """
        import cutlass.cute as cute

        @cute.jit
        def outer(x):
            @cute.jit
            def inner(y):
                return y
            return inner(x)
    """
    tree = rewrite_module_source(textwrap.dedent(source), "<test>")
    inner = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "inner")
    assert inner.decorator_list == []


def test_whole_module_rewrite_runs_the_same(tmp_path: Any) -> None:
    source = textwrap.dedent('''
        """A module."""
        from __future__ import annotations
        import cutlass.cute as cute

        LIMIT = 3

        class Acc:
            def __init__(self):
                self.__total = 0

            @cute.jit
            def add(self, xs):
                for x in xs:
                    if x > LIMIT:
                        continue
                    while x > 0:
                        self.__total += x
                        x -= 2
                return self.__total

        @cute.jit
        def run(n):
            a = Acc()
            out = []
            for i in range(n):
                out.append(a.add([i, i + 1]))
                if len(out) > 4:
                    break
            else:
                out.append(-1)
            return out
    ''')
    cutlass = type(sys)("cutlass")
    cute = type(sys)("cutlass.cute")
    cute.jit = lambda f: f  # type: ignore[attr-defined]
    cutlass.cute = cute  # type: ignore[attr-defined]
    saved = {k: sys.modules.get(k) for k in ("cutlass", "cutlass.cute")}
    sys.modules.update({"cutlass": cutlass, "cutlass.cute": cute})
    try:
        path = str(tmp_path / "mod.py")
        plain: dict[str, Any] = {"__name__": "plain"}
        exec(compile(source, path, "exec"), plain)
        rewritten: dict[str, Any] = {"__name__": "rewritten"}
        exec(compile(rewrite_module_source(source, path), path, "exec"), rewritten)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    assert "__bbx__" in rewritten and rewritten["__bbx__"] is control
    for n in range(8):
        assert rewritten["run"](n) == plain["run"](n)


# ---------------------------------------------------------------------------------------------
# Loop-carried variables
# ---------------------------------------------------------------------------------------------


def _carried(source: str) -> list[str]:
    """The carried names of the first if/for/while statement of a function body."""
    fn = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(fn, ast.FunctionDef)
    live = Liveness(fn.body)
    stmt = next(n for n in ast.walk(fn) if isinstance(n, (ast.If, ast.For, ast.While)))
    assert isinstance(stmt, (ast.If, ast.For, ast.While))
    return live.carried(stmt)


@pytest.mark.parametrize("source, expected", [
    # A temporary of the body is not carried; the accumulator is.
    ("""
     def f(n, acc):
         for i in range(n):
             t = i * 2
             acc += t
         return acc
     """, ["acc"]),
    # Only what is read afterwards leaves an `if`.
    ("""
     def f(c):
         if c:
             x = 1
             y = 2
         return x
     """, ["x"]),
    # Read in the next iteration before it is assigned: carried.
    ("""
     def f(n):
         prev = 0
         for i in range(n):
             if i > 0:
                 use(prev)
             prev = i
     """, ["prev"]),
    # A name reused later with another type is not carried out of the first loop.
    ("""
     def f(n):
         for i in range(n):
             t = i
             use(t)
         t = 0.5
         return t
     """, []),
    # The loop variable is carried only when read after the loop.
    ("""
     def f(n):
         i = 0
         for i in range(n):
             pass
         return i
     """, ["i"]),
    # A closure may read anything it captures, at any time.
    ("""
     def f(n):
         t = 0
         def g():
             return t
         for i in range(n):
             t = i
         return g
     """, ["t"]),
    # A while loop carries what its condition reads.
    ("""
     def f(x):
         k = 0
         while k < x:
             k = k + 1
             tmp = k * 2
     """, ["k"]),
    # `break` leaves the loop: what is live after it is live at the break.
    ("""
     def f(n):
         for i in range(n):
             found = i
             if i > 3:
                 break
             found = -1
         return found
     """, ["found"]),
])
def test_carried(source: str, expected: list[str]) -> None:
    assert _carried(source) == expected


def test_the_documented_example_is_what_the_rewrite_gives(tmp_path: Any) -> None:
    """The before/after example of `bbx.preprocess`'s docstring is real output."""
    import importlib.util

    import bbx.preprocess as package
    from bbx.preprocess.loader import function_definition

    doc = package.__doc__ or ""
    before = textwrap.dedent(doc.split("Before::\n", 1)[1].split("\nAfter", 1)[0])
    after = textwrap.dedent(doc.split("::\n", 2)[2].split("\nWith ", 1)[0]).strip()
    path = tmp_path / "k.py"
    path.write_text(before.lstrip("\n"))
    spec = importlib.util.spec_from_file_location("bbx_doc_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.cute = types.SimpleNamespace(jit=lambda f: f)  # type: ignore[attr-defined]
    spec.loader.exec_module(module)
    found = function_definition(module.f)
    found.node.decorator_list = []
    text = ast.unparse(DSLPreprocessor().rewrite_function(found.node, "k.py", found.lines))
    assert text == after
