"""A symbolic stand-in for run-time integers (trace-time proxies) in the layout tests: it
records a C++ expression and evaluates it with C++ integer semantics."""

from __future__ import annotations

from typing import Any

from bbx.cxx import ast as c
from bbx.trace import layout as L
from bbx.trace.dynamic_int import c_div, c_mod


class Sym:
    """A run-time integer: an expression over named inputs, evaluated with C++ `/` and `%`."""

    def __init__(self, fn: Any, text: str) -> None:
        self.fn, self.text = fn, text

    @staticmethod
    def var(name: str) -> Sym:
        return Sym(lambda env: env[name], name)

    def __str__(self) -> str:
        return self.text

    def eval(self, env: dict[str, int]) -> Any:
        return self.fn(env)

    def _bin(self, other: Any, op: Any, sym: str, flip: bool = False) -> Sym:
        o = other if isinstance(other, Sym) else Sym(lambda env, v=other: v, str(other))
        a, b = (o, self) if flip else (self, o)
        return Sym(lambda env: op(a.eval(env), b.eval(env)), f"({a.text} {sym} {b.text})")

    def __add__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x + y, "+")
    def __radd__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x + y, "+", True)
    def __sub__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x - y, "-")
    def __rsub__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x - y, "-", True)
    def __mul__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x * y, "*")
    def __rmul__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x * y, "*", True)
    def __floordiv__(self, o: Any) -> Sym: return self._bin(o, c_div, "/")
    def __rfloordiv__(self, o: Any) -> Sym: return self._bin(o, c_div, "/", True)
    def __mod__(self, o: Any) -> Sym: return self._bin(o, c_mod, "%")
    def __rmod__(self, o: Any) -> Sym: return self._bin(o, c_mod, "%", True)
    def __neg__(self) -> Sym: return Sym(lambda env: -self.eval(env), f"-{self.text}")
    def __lt__(self, o: Any) -> SymBool: return SymBool(self._bin(o, lambda x, y: x < y, "<"))
    def __le__(self, o: Any) -> SymBool: return SymBool(self._bin(o, lambda x, y: x <= y, "<="))
    def __gt__(self, o: Any) -> SymBool: return SymBool(self._bin(o, lambda x, y: x > y, ">"))
    def __ge__(self, o: Any) -> SymBool: return SymBool(self._bin(o, lambda x, y: x >= y, ">="))

    def __and__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x & y, "&")
    def __xor__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x ^ y, "^")
    def __rshift__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x >> y, ">>")
    def __lshift__(self, o: Any) -> Sym: return self._bin(o, lambda x, y: x << y, "<<")

    def __bool__(self) -> bool:
        raise AssertionError("the algebra branched on a run-time value")

    # the C++ spelling of a dynamic leaf (bbx.trace.layout_cxx.SpelledDynamic)
    def cxx_type(self) -> c.CxxType:
        return c.Type("int")

    def cxx_expr(self) -> c.Expr:
        return c.Lit(self.text)


class SymBool:
    def __init__(self, cond: Sym) -> None:
        self.cond = cond

    def select(self, if_true: Any, if_false: Any) -> Sym:
        return Sym(lambda env: ev(if_true, env) if self.cond.eval(env) else ev(if_false, env),
                   f"({self.cond.text} ? {_text(if_true)} : {_text(if_false)})")

    def __bool__(self) -> bool:
        raise AssertionError("the algebra branched on a run-time boolean")


def ev(x: Any, env: dict[str, int]) -> Any:
    """Evaluate every Sym leaf of an int tuple / layout."""
    if isinstance(x, L.Layout):
        return L.Layout(ev(x.shape, env), ev(x.stride, env))
    if isinstance(x, tuple):
        return tuple(ev(e, env) for e in x)
    if isinstance(x, Sym):
        return x.eval(env)
    return x




def _text(x: Any) -> str:
    return x.text if isinstance(x, Sym) else str(x)
