"""Constexpr arguments as the specialization takes them: normalized, and checked against the
type their parameter expects before anything is translated or compiled.

* Normalized: a DSL numeric instance (``cutlass.Int32(128)``) given as a Constexpr is its Python
  value (128), as are numpy scalars; a compile-time value is a Python value.
* Checked: the expected type comes from the annotation (``Constexpr[int]``) or, for a bare
  ``Constexpr``, from the parameter's default when that is a bool, int or float
  (``copy_bits: cutlass.Constexpr = 128`` expects an int). A value of another type — ``"128"``,
  ``None``, ``128.0`` where an int is expected — would otherwise reach the C++ compiler as
  something arithmetic cannot take, and fail there in template errors that never name the
  parameter. An int no 64-bit C++ integer holds is refused too.
"""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass
from typing import Any

from ..cxx.literals import INT64_MIN, UINT64_MAX

_NAMES: dict[type, str] = {int: "an int", float: "a float", bool: "a bool", str: "a str"}
_TEXT_PARAM = re.compile(r"Constexpr\[\s*(int|float|bool|str)\s*\]")


class ConstexprTypeError(ValueError):
    """A Constexpr argument of a type its parameter does not take."""

    def __init__(self, what: str, why: str) -> None:
        self.what, self.why = what, why
        super().__init__(f"{what} \u2014 {why}")


def normalize(value: Any) -> Any:
    """The Python value a Constexpr argument stands for (numeric instances and numpy scalars
    become Python numbers; anything else is itself)."""
    if isinstance(getattr(type(value), "bbx_dtype", None), str) and hasattr(value, "value"):
        value = value.value  # cutlass.Int32(128) -> 128
    if isinstance(value, bool) or type(value) in (int, float):
        return value
    if type(value).__module__ == "numpy":
        if isinstance(value, numbers.Integral):
            return bool(value) if type(value).__name__ == "bool_" else int(value)
        if isinstance(value, numbers.Real):
            return float(value)
    return value


@dataclass(frozen=True)
class Expected:
    """The type a Constexpr parameter takes; `default` when it is known from its default."""

    kind: type
    default: Any = None
    from_default: bool = False


def expected_type(annotation: Any, default: Any) -> Expected | None:
    """The type a Constexpr parameter takes, or None when anything goes."""
    args = getattr(annotation, "__args__", None)
    if args and len(args) == 1 and args[0] in _NAMES:
        return Expected(args[0])
    text = getattr(annotation, "text", None)
    match = _TEXT_PARAM.search(text) if isinstance(text, str) else None
    if match:
        return Expected({t.__name__: t for t in _NAMES}[match.group(1)])
    if type(default) in (bool, int, float):
        return Expected(type(default), default, True)
    return None


def _accepts(kind: type, value: Any) -> bool:
    if kind is float:
        return isinstance(value, (int, float))
    if kind is int:
        return isinstance(value, int)  # bool included, as Python's int
    if kind is bool:
        return isinstance(value, (bool, int))
    return isinstance(value, kind)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def checked(name: str, value: Any, expected: Expected | None) -> Any:
    """The normalized value of Constexpr parameter `name`, or ConstexprTypeError."""
    value = normalize(value)
    if expected is not None and not _accepts(expected.kind, value):
        kind = expected.kind
        got = "None" if value is None else f"{type(value).__name__} {_shown(value)}"
        known = f"its default is {expected.default!r}; " if expected.from_default else ""
        raise ConstexprTypeError(
            f"{name}: expected {_NAMES[kind]} (Constexpr[{kind.__name__}]), got {got}",
            f"{known}pass {_NAMES[kind]}")
    if isinstance(value, int) and not INT64_MIN <= value <= UINT64_MAX:
        raise ConstexprTypeError(
            f"{name}: {_shown(value)} does not fit a 64-bit integer",
            "compile-time integers become C++ integers (64 bits at most)")
    return value
