"""Every DSL function and method takes `loc=` and `ip=` (the MLIR location and insertion point
of what it builds); library code passes them through (`t.load(loc=loc, ip=ip)` in a
`@dsl_user_op`). The tracer has no MLIR placement: `takes_placement` makes a class's public
methods accept and drop them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

PLACEMENT = ("loc", "ip")

C = TypeVar("C", bound=type)


def _dropping(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        for name in PLACEMENT:
            kwargs.pop(name, None)
        return method(*args, **kwargs)

    return call


def takes_placement(cls: C) -> C:
    """`cls` with `loc=`/`ip=` accepted (and ignored) by its public methods."""
    for name, attr in list(vars(cls).items()):
        if name.startswith("_") or isinstance(attr, (property, type)):
            continue
        if isinstance(attr, (staticmethod, classmethod)):
            setattr(cls, name, type(attr)(_dropping(attr.__func__)))
        elif callable(attr):
            setattr(cls, name, _dropping(attr))
    return cls
