"""Folding of compile-time Python expressions, bounded.

The translator folds expressions made of literals, module constants, `math.*` and a few
builtins, as the DSL would compute them at trace time. Python evaluates them with no limit:
`10 ** 10 ** 9` would never finish and `10 ** 5000` fails when printed. `fold` evaluates the
same subset itself, refusing (with `FoldLimit`) any step whose result would exceed the bounds
below; the caller turns that into a located diagnostic.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

#: Largest integer (in bits) a folded expression may produce; 4096 bits print in ~1233 digits,
#: far below Python's 4300-digit limit for int-to-string conversion.
MAX_INT_BITS = 4096
#: Longest string, tuple or list a folded expression may produce.
MAX_LENGTH = 100_000
#: Deepest nesting of a folded expression (parentheses, tuples, calls).
MAX_DEPTH = 100


class FoldLimit(ValueError):
    """A folded value would exceed the translator's bounds."""


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "int": int, "float": float, "bool": bool, "min": min, "max": max, "abs": abs,
    "round": round, "len": len, "str": str, "tuple": tuple, "list": list, "sum": sum,
    "any": any, "all": all, "divmod": divmod, "range": range, "sorted": sorted,
    "reversed": reversed, "enumerate": enumerate, "zip": zip,
}  # fmt: skip

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}  # fmt: skip

_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}  # fmt: skip


def fold(code: str, constants: dict[str, object] | None = None) -> object:
    """The value of a compile-time expression. Raises FoldLimit beyond the bounds, and the
    usual Python errors (ZeroDivisionError, NameError, TypeError...) for bad expressions."""
    try:
        tree = ast.parse(code.strip(), mode="eval")
    except RecursionError:
        raise FoldLimit(f"the expression nests deeper than {MAX_DEPTH} levels") from None
    return _Folder(constants or {}).eval(tree.body, 0)


class _Folder:
    def __init__(self, constants: dict[str, object]) -> None:
        self.constants = constants

    def eval(self, node: ast.expr, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise FoldLimit(f"the expression nests deeper than {MAX_DEPTH} levels")
        visit = getattr(self, f"visit_{type(node).__name__}", None)
        if visit is None:
            raise TypeError(f"{type(node).__name__} is not a compile-time expression")
        return _checked(visit(node, depth + 1))

    def visit_Constant(self, node: ast.Constant, depth: int) -> Any:
        return node.value

    def visit_Name(self, node: ast.Name, depth: int) -> Any:
        if node.id in self.constants:
            return self.constants[node.id]
        if node.id in _FUNCTIONS:
            return _FUNCTIONS[node.id]
        if node.id == "math":
            return math
        raise NameError(f"name '{node.id}' is not a compile-time value")

    def visit_Attribute(self, node: ast.Attribute, depth: int) -> Any:
        base = self.eval(node.value, depth)
        if base is math:
            return getattr(math, node.attr)
        raise TypeError(f"attribute '{node.attr}' is not a compile-time value")

    def visit_Tuple(self, node: ast.Tuple, depth: int) -> Any:
        return tuple(self._elements(node.elts, depth))

    def visit_List(self, node: ast.List, depth: int) -> Any:
        return self._elements(node.elts, depth)

    def _elements(self, elts: list[ast.expr], depth: int) -> list[Any]:
        """The elements of a tuple or list display, `*x` spliced."""
        out: list[Any] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                out.extend(self.eval(e.value, depth))
            else:
                out.append(self.eval(e, depth))
        return out

    def visit_UnaryOp(self, node: ast.UnaryOp, depth: int) -> Any:
        value = self.eval(node.operand, depth)
        if isinstance(node.op, ast.USub):
            return -value
        if isinstance(node.op, ast.UAdd):
            return +value
        if isinstance(node.op, ast.Not):
            return not value
        return ~value

    def visit_BinOp(self, node: ast.BinOp, depth: int) -> Any:
        left = self.eval(node.left, depth)
        right = self.eval(node.right, depth)
        _check_binary(type(node.op), left, right)
        return _BINARY[type(node.op)](left, right)

    def visit_BoolOp(self, node: ast.BoolOp, depth: int) -> Any:
        value: Any = None
        for operand in node.values:
            value = self.eval(operand, depth)
            if isinstance(node.op, ast.And) and not value:
                return value
            if isinstance(node.op, ast.Or) and value:
                return value
        return value

    def visit_Compare(self, node: ast.Compare, depth: int) -> Any:
        left = self.eval(node.left, depth)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = self.eval(comparator, depth)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def visit_IfExp(self, node: ast.IfExp, depth: int) -> Any:
        return self.eval(node.body if self.eval(node.test, depth) else node.orelse, depth)

    def visit_Subscript(self, node: ast.Subscript, depth: int) -> Any:
        return self.eval(node.value, depth)[self.eval(node.slice, depth)]

    def visit_Call(self, node: ast.Call, depth: int) -> Any:
        func = self.eval(node.func, depth)
        if node.keywords:
            raise TypeError("keyword arguments are not folded")
        args = [self.eval(a, depth) for a in node.args]
        if func in (math.factorial, math.comb, math.perm) and any(
            isinstance(a, int) and a > 1000 for a in args
        ):
            raise FoldLimit(f"{func.__name__}(...) of an argument above 1000")
        if func is range and any(isinstance(a, int) and abs(a) > MAX_LENGTH for a in args):
            raise FoldLimit(f"range(...) longer than {MAX_LENGTH}")
        value = func(*args)
        if isinstance(value, (range, reversed, enumerate, zip)):
            value = tuple(value)
        return value


def _check_binary(op: type, left: Any, right: Any) -> None:
    """Refuse a step whose result would be too large, before computing it."""
    if isinstance(left, bool) or isinstance(right, bool):
        return
    if op is ast.Pow and isinstance(left, int) and isinstance(right, int) and right > 0:
        if abs(left) > 1 and right * math.log2(abs(left)) > MAX_INT_BITS:
            raise FoldLimit(f"{_short(left)} ** {_short(right)} exceeds {MAX_INT_BITS} bits")
    if op is ast.LShift and isinstance(right, int) and right > MAX_INT_BITS:
        raise FoldLimit(f"a shift by {_short(right)} exceeds {MAX_INT_BITS} bits")
    if op is ast.Mult:
        if isinstance(left, int) and isinstance(right, int):
            if left.bit_length() + right.bit_length() > MAX_INT_BITS + 1:
                raise FoldLimit(f"a product exceeding {MAX_INT_BITS} bits")
        for seq, n in ((left, right), (right, left)):
            if isinstance(seq, (str, tuple, list)) and isinstance(n, int):
                if len(seq) * n > MAX_LENGTH:
                    raise FoldLimit(f"a sequence longer than {MAX_LENGTH}")


def _checked(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() > MAX_INT_BITS:
            raise FoldLimit(f"an integer of more than {MAX_INT_BITS} bits")
    elif isinstance(value, (str, tuple, list)) and len(value) > MAX_LENGTH:
        raise FoldLimit(f"a value longer than {MAX_LENGTH}")
    return value


def _short(n: int) -> str:
    text = str(n) if n.bit_length() < 64 else f"<{n.bit_length()}-bit integer>"
    return text
