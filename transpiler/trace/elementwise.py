"""Python's operators on values of several elements (`TensorSSA`, the DSL's `Vector`): each is
the class's `_binary(other, op, flip)` — element by element, with broadcasting — so the two
classes spell their operator tables once."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any


class ElementwiseOperators:
    """Arithmetic, bitwise and comparison operators through `_binary`."""

    def _binary(self, other: Any, op: Callable[[Any, Any], Any], flip: bool = False) -> Any:
        raise NotImplementedError

    def __add__(self, o: Any) -> Any: return self._binary(o, operator.add)
    def __radd__(self, o: Any) -> Any: return self._binary(o, operator.add, True)
    def __sub__(self, o: Any) -> Any: return self._binary(o, operator.sub)
    def __rsub__(self, o: Any) -> Any: return self._binary(o, operator.sub, True)
    def __mul__(self, o: Any) -> Any: return self._binary(o, operator.mul)
    def __rmul__(self, o: Any) -> Any: return self._binary(o, operator.mul, True)
    def __truediv__(self, o: Any) -> Any: return self._binary(o, operator.truediv)
    def __rtruediv__(self, o: Any) -> Any: return self._binary(o, operator.truediv, True)
    def __floordiv__(self, o: Any) -> Any: return self._binary(o, operator.floordiv)
    def __mod__(self, o: Any) -> Any: return self._binary(o, operator.mod)
    def __pow__(self, o: Any) -> Any: return self._binary(o, operator.pow)
    def __and__(self, o: Any) -> Any: return self._binary(o, operator.and_)
    def __or__(self, o: Any) -> Any: return self._binary(o, operator.or_)
    def __xor__(self, o: Any) -> Any: return self._binary(o, operator.xor)
    def __lshift__(self, o: Any) -> Any: return self._binary(o, operator.lshift)
    def __rlshift__(self, o: Any) -> Any: return self._binary(o, operator.lshift, True)
    def __rshift__(self, o: Any) -> Any: return self._binary(o, operator.rshift)
    def __rrshift__(self, o: Any) -> Any: return self._binary(o, operator.rshift, True)
    def __lt__(self, o: Any) -> Any: return self._binary(o, operator.lt)
    def __le__(self, o: Any) -> Any: return self._binary(o, operator.le)
    def __gt__(self, o: Any) -> Any: return self._binary(o, operator.gt)
    def __ge__(self, o: Any) -> Any: return self._binary(o, operator.ge)
    def __eq__(self, o: Any) -> Any: return self._binary(o, operator.eq)  # type: ignore[override]
    def __ne__(self, o: Any) -> Any: return self._binary(o, operator.ne)  # type: ignore[override]

    __hash__ = None  # type: ignore[assignment]
