"""Registry entries: each public DSL name is one object that lowers its own uses.

A `Function` lowers calls through its parameters' roles; a `Method` or an `Attribute` does the
same for a receiver of a known kind; constants, numeric types, functors and op classes lower
as values. `NvidiaOnly` entries explain why there is no AMD counterpart. Every entry carries
an example (Python source using the names of `bbx.dsl.examples`) from which a test is generated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

import libcst as cst

from ..analysis import kinds as k
from ..analysis import meta as m
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from ..diagnostics import TranslationError
from . import roles
from .lowerer import Lowerer
from .roles import CallParts, Role


class Status(Enum):
    SUPPORTED = "supported"  # translated for kernels and jit functions
    HOST = "host"  # host API, served by the `cutlass` shim (never translated)
    NVIDIA_ONLY = "nvidia-only"  # no AMD counterpart: a diagnostic that says so
    NOT_YET = "not yet"  # a DSL name bbx does not support yet


#: Result rules besides a fixed `Kind`.
FIRST = "first"  # the kind of the first value argument
RECEIVER = "receiver"  # the kind of the method's receiver
#: a static integer when the first value argument is one (`cute.size(self.bK)`), else a value
STATIC_IF_FIRST = "static if first"
#: a tuple repeating the first value argument (`cute.repeat_like(None, t)`): a coordinate that
#: keeps modes when that argument is `None`, else a value
REPEATS_FIRST = "repeats first"


@dataclass(frozen=True)
class Param:
    name: str
    role: Role
    default: str | None = None  # C++ spelling used when the argument is not given
    keyword_only: bool = False  # after `*` in the DSL's signature


def params(spec: str, defaults: dict[str, str] | None = None) -> tuple[Param, ...]:
    """Parameters from `"name:role name:role"` (role names from `bbx.dsl.roles.BY_NAME`); a
    `*` item makes the parameters after it keyword-only, as in the DSL's signature."""
    out = []
    keyword_only = False
    for item in spec.split():
        if item == "*":
            keyword_only = True
            continue
        name, _, role = item.partition(":")
        default = (defaults or {}).get(name)
        out.append(Param(name, roles.BY_NAME[role or "any"], default, keyword_only))
    return tuple(out)


class Entry:
    """One public name of the DSL (or one method / attribute of a DSL class)."""

    status = Status.SUPPORTED
    example: str | None = None

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        raise lw.error(node, "unsupported-call", f"'{name}' cannot be called here")

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        raise lw.error(
            node,
            "unsupported-value",
            f"'{name}' cannot be used as a value here",
            "call it, or use it in its documented position",
        )


def assemble(
    lw: Lowerer,
    node: cst.Call,
    cxx: str,
    parameters: tuple[Param, ...],
    required: int,
    what: str,
    leading: tuple[c.Expr, ...] = (),
) -> CallParts:
    """Bind the call's arguments to `parameters` and let each role add itself."""
    positional = [a for a in node.args if a.keyword is None and not a.star]
    allowed = next((i for i, p in enumerate(parameters) if p.keyword_only), len(parameters))
    if len(positional) > allowed:
        extra = parameters[allowed].name if allowed < len(parameters) else ""
        raise lw.error(
            positional[allowed],
            "bad-arguments",
            f"{what} takes {allowed} positional argument{'s' if allowed != 1 else ''}"
            + (f"; '{extra}' is keyword-only" if extra else ""),
            f"pass it by name: {extra}=..." if extra else "",
        )
    bound = lw.bind(node, [p.name for p in parameters], what, required)
    keywords = {a.keyword.value for a in node.args if a.keyword is not None}
    parts = CallParts(cxx, list(leading))
    for p in parameters:
        arg = bound.get(p.name)
        if arg is None:
            if p.default is not None:
                p.role.default(p.default, parts)
            continue
        p.role.apply(lw, p.name, arg, p.name in keywords, parts)
    return parts


def result_kind(result: Kind | str | None, parts: CallParts, receiver: Kind | None) -> Kind:
    if isinstance(result, Kind):
        return result
    if result == RECEIVER and receiver is not None:
        return receiver
    if result == STATIC_IF_FIRST and parts.first_kind is not None:
        first = parts.first_kind
        static = first.cat in (Cat.STATIC, Cat.CONSTEXPR) or (
            first.cat is Cat.LITERAL and type(first.value) is int
        ) or (first.cat is Cat.META and first.meta_kind in (m.STATIC_INT, m.VALUE))
        return k.STATIC if static else k.VALUE
    if result == REPEATS_FIRST and parts.first_kind is not None:
        first = parts.first_kind
        if first.cat is Cat.UNDERSCORE or (first.cat is Cat.LITERAL and first.value is None):
            return Kind(Cat.TUPLE, elems=(k.UNDERSCORE,))
        return k.VALUE
    if result == FIRST and parts.first_kind is not None:
        first = parts.first_kind
        return k.VALUE if first.cat in (Cat.LITERAL, Cat.META) else first
    return k.VALUE


@dataclass(frozen=True, eq=False)
class Function(Entry):
    """A DSL function with a C++ counterpart of the same meaning: `cxx(args...)`."""

    cxx: str
    params: tuple[Param, ...] = ()
    result: Kind | str | None = None  # None: a statement (no value)
    required: int = 0
    #: The call site's number is the first template argument (one static allocation per site).
    per_site: bool = False
    example: str | None = None

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        parts = assemble(lw, node, self.cxx, self.params, self.required, f"'{name}'")
        if self.per_site:
            parts.template_args.insert(0, c.Lit(str(lw.site_number(node))))
        call = c.Call(c.Id(parts.cxx), tuple(parts.args), tuple(parts.template_args))
        return Val(result_kind(self.result, parts, None), call, node=node)


@dataclass(frozen=True, eq=False)
class Custom(Entry):
    """A name whose use needs its own lowering (`cute.printf`, `cutlass.const_expr`...)."""

    call: Callable[[Lowerer, cst.Call, str], Val] | None = None
    value: Callable[[Lowerer, cst.BaseExpression, str], Val] | None = None
    example: str | None = None

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        if self.call is None:
            return super().lower_call(lw, node, name)
        return self.call(lw, node, name)

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        if self.value is None:
            return super().lower_value(lw, node, name)
        return self.value(lw, node, name)


@dataclass(frozen=True, eq=False)
class Constant(Entry):
    """A DSL constant, folded at translation time (`cute.arch.WARP_SIZE`, `Float32.inf`)."""

    value: object
    example: str | None = None

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        return Val(k.literal(self.value), node=node)


@dataclass(frozen=True, eq=False)
class Functor(Entry):
    """A function used as a value (`operator.add`, `cute.ReductionOp.MAX`): a C++ functor."""

    cxx: str
    example: str | None = None

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        return Val(Kind(Cat.FUNC), c.Construct(c.Type(self.cxx)), node=node)


@dataclass(frozen=True, eq=False)
class OpClass(Entry):
    """A DSL class whose instances are C++ values: `CopyUniversalOp()` -> `CopyUniversalOp{}`.
    Constructor arguments follow `params`; each role decides whether it is a template argument
    (`TypeArg`) or a constructor argument."""

    cxx: str
    params: tuple[Param, ...] = ()
    result: Kind = k.VALUE
    required: int = 0
    example: str | None = None
    #: Constructor arguments an instance made on the host keeps as attributes of the same
    #: names: such an instance held in `self.x` is rebuilt in C++ from `self.x.<name>`.
    host_arguments: tuple[str, ...] = ()

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        parts = assemble(lw, node, self.cxx, self.params, self.required, f"'{name}'")
        cls = c.Type(self.cxx, tuple(parts.template_args))
        return Val(self.result, c.Construct(cls, tuple(parts.args)), node=node)

    def lower_host_instance(self, lw: Lowerer, node: cst.Attribute) -> Val:
        """`self.x`, an instance the host made (`self.x = Op(...)` in `__init__`): the C++
        object built from the specialization's values of `self.x.<argument>`."""
        args = tuple(
            lw.materialize(lw.lower(cst.Attribute(node, cst.Name(arg))), False, node)
            for arg in self.host_arguments
        )
        return Val(self.result, c.Construct(c.Type(self.cxx), args), node=node)


@dataclass(frozen=True, eq=False)
class Marker(Entry):
    """A name that only has meaning in one position: a decorator, an annotation, a loop
    iterable. Using it elsewhere is an error that names the position."""

    where: str
    example: str | None = None

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        raise lw.error(node, "unsupported-construct", f"'{name}' can only be used {self.where}")

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        raise lw.error(node, "unsupported-construct", f"'{name}' can only be used {self.where}")


@dataclass(frozen=True, eq=False)
class HostOnly(Entry):
    """Host API (served by the `cutlass` shim); it has no meaning inside jit/kernel code."""

    what: str = "host API"
    status = Status.HOST

    def _error(self, lw: Lowerer, node: cst.CSTNode, name: str) -> TranslationError:
        return lw.error(
            node,
            "host-only",
            f"'{name}' is {self.what}: it runs in host Python, not in @cute.jit/@cute.kernel code",
            "call it from the script's host code",
        )

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        raise self._error(lw, node, name)

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        raise self._error(lw, node, name)


@dataclass(frozen=True, eq=False)
class NvidiaOnly(Entry):
    """An NVIDIA-only feature: every use is a diagnostic naming the construct and why."""

    what: str  # e.g. "TMA (Hopper tensor-memory copies)"
    status = Status.NVIDIA_ONLY

    def error(self, lw: Lowerer, node: cst.CSTNode, name: str) -> TranslationError:
        return lw.error(
            node,
            "nvidia-only",
            f"{short_name(name)}: {self.what} has no AMD counterpart",
            "bbx translates the DSL's portable (Ampere-class) subset; keep this path behind a "
            "compile-time condition (`if cutlass.const_expr(...)`) that is false on AMD",
        )

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        raise self.error(lw, node, name)

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        raise self.error(lw, node, name)


@dataclass(frozen=True, eq=False)
class NotYet(Entry):
    """A public DSL name bbx does not support yet."""

    status = Status.NOT_YET

    def _error(self, lw: Lowerer, node: cst.CSTNode, name: str) -> TranslationError:
        return lw.error(
            node,
            "not-yet-supported",
            f"'{name}' is not yet supported by bbx",
            "`python -m bbx.dsl.coverage` lists the supported names",
        )

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        raise self._error(lw, node, name)

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        raise self._error(lw, node, name)


# -- methods and attributes ----------------------------------------------------------------


class MemberEntry(Entry):
    """A method or attribute of a DSL object; `receiver` is the object's lowered value."""

    def lower_method(
        self, lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str
    ) -> Val:
        raise lw.error(node, "unsupported-method", f"'{name}' cannot be called")

    def lower_attribute(
        self, lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str
    ) -> Val:
        raise lw.error(node, "unsupported-attribute", f"'{name}' is a method: call it")


@dataclass(frozen=True, eq=False)
class Method(MemberEntry):
    """`obj.name(args)` -> `obj.cxx(args)` (`member=True`) or `cxx(obj, args)`."""

    cxx: str
    params: tuple[Param, ...] = ()
    result: Kind | str | None = None
    required: int = 0
    member: bool = True
    example: str | None = None

    def lower_method(
        self, lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str
    ) -> Val:
        leading = () if self.member else (obj,)
        parts = assemble(lw, node, self.cxx, self.params, self.required, f"'{name}'", leading)
        func: c.Expr = c.Member(obj, parts.cxx) if self.member else c.Id(parts.cxx)
        call = c.Call(func, tuple(parts.args), tuple(parts.template_args))
        return Val(result_kind(self.result, parts, receiver.kind), call, node=node)


@dataclass(frozen=True, eq=False)
class CustomMethod(MemberEntry):
    """A method whose call needs its own lowering."""

    call: Callable[[Lowerer, cst.Call, Val, c.Expr, str], Val]
    example: str | None = None

    def lower_method(
        self, lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str
    ) -> Val:
        return self.call(lw, node, receiver, obj, name)


@dataclass(frozen=True, eq=False)
class Attribute(MemberEntry):
    """`obj.name` -> `obj.cxx()` (a member function in C++), or a custom lowering."""

    cxx: str = ""
    result: Kind | str = k.VALUE
    custom: Callable[[Lowerer, cst.Attribute, Val, c.Expr, str], Val] | None = None
    example: str | None = None

    def lower_attribute(
        self, lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str
    ) -> Val:
        if self.custom is not None:
            return self.custom(lw, node, receiver, obj, name)
        kind = receiver.kind if self.result == RECEIVER else self.result
        assert isinstance(kind, Kind)
        return Val(kind, c.Call(c.Member(obj, self.cxx)), node=node)


@dataclass(frozen=True, eq=False)
class NvidiaOnlyMember(MemberEntry):
    what: str
    status = Status.NVIDIA_ONLY

    def lower_method(
        self, lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str
    ) -> Val:
        raise NvidiaOnly(self.what).error(lw, node, name)

    def lower_attribute(
        self, lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str
    ) -> Val:
        raise NvidiaOnly(self.what).error(lw, node, name)


def short_name(qualified: str) -> str:
    """`cutlass.cute.nvgpu.cpasync.make_tiled_tma_atom` -> `cpasync.make_tiled_tma_atom`."""
    for prefix in ("cutlass.cute.nvgpu.", "cutlass.cute.", "cutlass."):
        if qualified.startswith(prefix):
            return qualified[len(prefix) :]
    return qualified
