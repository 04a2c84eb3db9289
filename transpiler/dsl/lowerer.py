"""What a registry entry may ask of the expression lowering while it lowers its own call.

The registry sits below the lowering (`bbx.lowering` imports `bbx.dsl`, never the reverse), so
entries see the lowering only through this protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import libcst as cst

from ..analysis.value import Val
from ..cxx import ast as c
from ..diagnostics import TranslationError

if TYPE_CHECKING:
    from .roles import Role


class Lowerer(Protocol):
    def lower(self, node: cst.BaseExpression, role: Role | None = None) -> Val:
        """The value of `node` (not yet materialised: literals keep their Python value)."""
        ...

    def materialize(
        self, val: Val, static: bool, node: cst.CSTNode | None = None, role: Role | None = None
    ) -> c.Expr:
        """The C++ expression of a lowered value; `static` spells integer literals `_4{}`."""
        ...

    def value(
        self, node: cst.BaseExpression, static: bool = False, role: Role | None = None
    ) -> c.Expr:
        """`materialize(lower(node))`."""
        ...

    def as_type(self, node: cst.BaseExpression) -> c.CxxType:
        """The C++ type a dtype expression names (`cutlass.Float32`, `t.element_type`)."""
        ...

    def static_type(self, node: cst.BaseExpression) -> c.CxxType:
        """The type of an integer that must be static (`bbx::Int<4>`)."""
        ...

    def error(
        self, node: cst.CSTNode, code: str, what: str, hint: str = ""
    ) -> TranslationError: ...

    def code(self, node: cst.CSTNode) -> str:
        """The Python source of `node`."""
        ...

    def static_int_expr(self, val: Val, node: cst.CSTNode) -> c.Expr | None:
        """A compile-time integer as a C++ constant expression (a template argument); None
        when `val` is not one."""
        ...

    def static_context(self, *vals: Val) -> bool:
        """Whether integer literals next to these values are static (`_4{}`)."""
        ...

    def site_number(self, node: cst.CSTNode) -> int:
        """A number for a call site, stable across runs (module name and position)."""
        ...

    def bind(
        self, node: cst.Call, params: Sequence[str], what: str, required: int
    ) -> dict[str, cst.BaseExpression]:
        """Arguments of `node` by parameter name (positional, then keywords)."""
        ...
