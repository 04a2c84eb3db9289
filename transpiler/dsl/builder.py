"""Shorthands the entry modules use to declare entries (`fn`, `method`, ...)."""

from __future__ import annotations

import libcst as cst

from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from .entry import Custom, Function, Method, Param, params
from .lowerer import Lowerer
from .roles import Fastmath

C = "cutlass.cute."
A = "cutlass.cute.arch."


def fn(
    cxx: str,
    spec: str = "",
    result: Kind | str | None = None,
    required: int | None = None,
    example: str | None = None,
    defaults: dict[str, str] | None = None,
    per_site: bool = False,
) -> Function:
    """A function entry: `spec` lists `name:role` parameters in the DSL's order; all are
    required unless `required` says how many leading ones are."""
    ps = params(spec, defaults)
    n = len(ps) if required is None else required
    return Function(cxx, ps, result, n, per_site=per_site, example=example)


def fast_fn(
    cxx: str, fast: str, spec: str, result: Kind | str | None, required: int, example: str
) -> Function:
    """A function with a `fastmath=` flag selecting `fast` (a literal bool)."""
    ps = (*params(spec), Param("fastmath", Fastmath(fast)))
    return Function(cxx, ps, result, required, example=example)


def method(
    cxx: str,
    spec: str = "",
    result: Kind | str | None = None,
    required: int | None = None,
    example: str | None = None,
    member: bool = True,
) -> Method:
    ps = params(spec)
    n = len(ps) if required is None else required
    return Method(cxx, ps, result, n, member=member, example=example)


def tuple_of(*cats: Cat) -> Kind:
    from ..analysis import kinds as k

    return Kind(Cat.TUPLE, elems=tuple(k.dynamic() if c is Cat.DYNAMIC else Kind(c) for c in cats))


def enum_constant(template: str, enumerator: str, example: str) -> Custom:
    """A DSL enum member that C++ knows at compile time: `template<enumerator>{}`, a static
    value (`LoadCacheMode.GLOBAL` -> `C<LoadCacheMode::GLOBAL>{}`)."""

    def value(lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        constant = c.Construct(c.Type(template, (c.Lit(enumerator),)))
        return Val(Kind(Cat.STATIC), constant, node=node)

    return Custom(value=value, example=example)
