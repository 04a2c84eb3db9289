"""Argument roles: how one argument of a DSL call becomes part of the C++ call.

A role is a small object; an entry lists its parameters with their roles, and a call is lowered
by letting each bound argument's role add itself to the C++ call (`CallParts`).
"""

from __future__ import annotations

import libcst as cst

from ..analysis.kinds import Cat
from ..cxx import ast as c
from .lowerer import CallParts, Lowerer, Role


class LayoutArg(Role):
    """A shape, stride, coordinate or tile: tuples become `make_shape(...)` etc."""

    layout = True

    def __init__(self, name: str, tuple_maker: str) -> None:
        self.name = name
        self.tuple_maker = tuple_maker


class ValueArg(Role):
    """A run-time value: integer literals stay plain (`4`). Given by keyword, the C++ argument
    carries the keyword as a comment (`/*offset=*/1`)."""

    static = False
    name = "value"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        val = lw.lower(node, self)
        if parts.first_kind is None:
            parts.first_kind = val.kind
        x = lw.materialize(val, False, node, self)
        parts.args.append(c.Annotated(f"{param}=", x) if keyword else x)


class TypeArg(Role):
    """A dtype that becomes a template argument: `f<float>(...)`."""

    name = "type"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        parts.template_args.append(lw.as_type(node))


class TypeValue(Role):
    """A dtype passed as a value: `type_c<float>{}`."""

    name = "type_c"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        parts.args.append(c.Construct(c.Type("type_c", (lw.as_type(node),))))


class ModeArg(Role):
    """`mode=[i, j]`: literal integers that become template arguments `<i, j>`."""

    name = "mode"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        parts.template_args += [c.Lit(str(v)) for v in literal_ints(lw, node, param)]


class Ignored(Role):
    """Accepted and dropped: NVIDIA-only hints (`loc=`, `ip=`, cache hints...)."""

    name = "ignored"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        return None

    def default(self, value: str, parts: CallParts) -> None:
        return None


class Fastmath(Role):
    """`fastmath=True` selects the function's fast form; the choice is made at translation."""

    name = "fastmath"

    def __init__(self, fast_cxx: str) -> None:
        self.fast_cxx = fast_cxx

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        val = lw.lower(node, self)
        if val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, bool):
            if val.kind.value:
                parts.cxx = self.fast_cxx
            return
        raise lw.error(
            node,
            "bad-arguments",
            f"{param}= must be a literal True or False",
            f"write {param}=True; the choice is made when the code is translated",
        )

    def default(self, value: str, parts: CallParts) -> None:
        return None


class ShuffleControl(Role):
    """The PTX `c` operand of a shuffle (`mask_and_clamp`): `arch::mask_and_clamp(c)`."""

    static = False
    name = "mask_and_clamp"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        x = lw.value(node, False, self)
        parts.args.append(c.Call(c.Id("arch::mask_and_clamp"), (x,)))

    def default(self, value: str, parts: CallParts) -> None:
        parts.args.append(c.Call(c.Id("arch::mask_and_clamp"), (c.Lit(value),)))


class StaticBool(Role):
    """A flag C++ needs at compile time (`LdMatrix8x8x16bOp(transpose, 4)`): a literal or a
    configuration bool becomes `C<true>{}`; a static comparison stays as it is; a run-time
    value is refused."""

    name = "static_bool"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        val = lw.lower(node, self)
        kind = val.kind
        if kind.cat is Cat.LITERAL and isinstance(kind.value, bool):
            x: c.Expr = c.Construct(c.Type("C", (c.Lit("true" if kind.value else "false"),)))
        elif kind.cat is Cat.META and kind.meta_kind == "bool":
            x = c.Construct(c.Type("C", (c.Id(f"Meta::{kind.value}"),)))
        elif kind.cat in (Cat.STATIC, Cat.CONSTEXPR):
            x = lw.materialize(val, True, node, self)
        else:
            raise lw.error(
                node,
                "bad-arguments",
                f"{param}= must be known when the kernel is compiled",
                "pass True/False, a configuration value, or a comparison of static values",
            )
        parts.args.append(x)


def literal_value(lw: Lowerer, node: cst.BaseExpression) -> object:
    """The Python value of a literal argument, or None when it is not one."""
    kind = lw.lower(node).kind
    return kind.value if kind.cat is Cat.LITERAL else None


def literal_ints(lw: Lowerer, node: cst.BaseExpression, what: str) -> list[int]:
    """A literal int, or a list/tuple of literal ints (`mode=[1]`, `mode=(0, 1)`)."""
    if isinstance(node, cst.List):
        values: tuple[object, ...] = tuple(literal_value(lw, e.value) for e in node.elements)
    else:
        value = literal_value(lw, node)
        values = value if isinstance(value, tuple) else (value,)
    ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if len(ints) != len(values):
        raise lw.error(
            node, "bad-arguments", f"{what}= must be a list of literal integers", "e.g. mode=[1]"
        )
    return ints


ANY = Role()
SHAPE = LayoutArg("shape", "make_shape")
STRIDE = LayoutArg("stride", "make_stride")
COORD = LayoutArg("coord", "make_coord")
TILE = LayoutArg("tile", "make_tile")
TUPLE = LayoutArg("tuple", "make_tuple")
VALUE = ValueArg()
TYPE = TypeArg()
TYPE_C = TypeValue()
MODE = ModeArg()
IGNORED = Ignored()
SHUFFLE_CONTROL = ShuffleControl()
STATIC_BOOL = StaticBool()

#: Roles by the short names used in parameter strings (`"shape:shape stride:stride"`).
BY_NAME: dict[str, Role] = {
    r.name: r for r in (ANY, SHAPE, STRIDE, COORD, TILE, TUPLE, VALUE, TYPE, TYPE_C, MODE, IGNORED)
}
BY_NAME[SHUFFLE_CONTROL.name] = SHUFFLE_CONTROL
BY_NAME[STATIC_BOOL.name] = STATIC_BOOL
