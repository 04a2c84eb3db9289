"""A small C++ syntax tree: just enough to print the code the transpiler generates.

Passes build these nodes; only `bbx.cxx.printer` turns them into text.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

# --------------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Type:
    """A C++ type: `name<args...>` (args are types or expressions), optionally `typename`."""

    name: str
    args: tuple[CxxType | Expr, ...] = ()
    typename: bool = False


@dataclass(frozen=True)
class Decltype:
    """`decltype(expr)`, or `std::decay_t<decltype(expr)>` when `decay` is set."""

    expr: Expr
    decay: bool = False


CxxType = Type | Decltype

# --------------------------------------------------------------------------------------------
# Expressions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Id:
    name: str


@dataclass(frozen=True)
class Lit:
    """A literal spelled exactly as given (`0`, `1.0f`, `true`, `"text"`)."""

    text: str


@dataclass(frozen=True)
class Construct:
    """`T{}` or `T(args)` (value construction from a type)."""

    type: CxxType
    args: tuple[Expr, ...] = ()
    brace: bool = True


@dataclass(frozen=True)
class Call:
    func: Expr
    args: tuple[Expr, ...] = ()
    template_args: tuple[CxxType | Expr, ...] = ()


@dataclass(frozen=True)
class Member:
    obj: Expr
    name: str
    arrow: bool = False  # `obj->name`


@dataclass(frozen=True)
class Index:
    """`base[index]`; `readonly`: an element of an array that is never written after its
    declaration (reading it twice reads the same value, so it needs no variable)."""

    base: Expr
    index: Expr
    readonly: bool = False


@dataclass(frozen=True)
class Binary:
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Expr


@dataclass(frozen=True)
class Ternary:
    cond: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True)
class Lambda:
    params: tuple[str, ...]
    body: tuple[Stmt, ...]
    capture: str = ""


@dataclass(frozen=True)
class StaticChoice:
    """`a if cond else b` with a compile-time condition: only the chosen expression is
    instantiated, `[&]() BBX_INLINE -> decltype(auto) { if constexpr (cond) { return a; }
    else ... }()` (BBX_INLINE: every lambda is inlined in device code, bbx/config.hpp)."""

    cond: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True)
class Annotated:
    """`/*note*/expr` — used for keyword-argument names (`/*offset=*/`)."""

    note: str
    expr: Expr


@dataclass(frozen=True)
class TypeValue:
    """A type used where an expression is expected in template arguments (`size<1>` etc.)."""

    type: CxxType


@dataclass(frozen=True)
class TemplateId:
    """`name<args...>` used as a value (a function template specialization)."""

    name: str
    args: tuple[CxxType | Expr, ...]


@dataclass(frozen=True)
class ValueOf:
    """`T::value` of a static integer type."""

    type: CxxType


Expr = (
    TemplateId
    | ValueOf
    | Id
    | Lit
    | Construct
    | Call
    | Member
    | Index
    | Binary
    | Unary
    | Ternary
    | Lambda
    | StaticChoice
    | Annotated
    | TypeValue
)

# --------------------------------------------------------------------------------------------
# Statements
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Comment:
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Decl:
    """`type name = init;`, `auto [a, b] = init;` (several names), `constexpr` if asked."""

    type: CxxType | None  # None -> auto
    names: tuple[str, ...]
    init: Expr | None  # None: `type name;` (assigned later, on every path)
    maybe_unused: bool = False
    constexpr: bool = False


@dataclass(frozen=True)
class Using:
    name: str
    type: CxxType


@dataclass(frozen=True)
class ExprStmt:
    """`expr;` — with `one_arg_per_line`, a call's arguments each on a line of their own
    (a call of long arguments: the header's copy of tensor views)."""

    expr: Expr
    one_arg_per_line: bool = False


@dataclass(frozen=True)
class Assign:
    target: Expr
    op: str  # "=", "+=", ...
    value: Expr


@dataclass(frozen=True)
class If:
    cond: Expr
    then: tuple[Stmt, ...]
    other: tuple[Stmt, ...] = ()
    constexpr: bool = False


@dataclass(frozen=True)
class BranchValues:
    """`auto [names] = [&]() BBX_INLINE { <branch> }();` — a `const_expr` branch whose variables
    are used after it (Python scoping): each arm of `branch` ends by returning them as a tuple."""

    names: tuple[str, ...]
    branch: If


@dataclass(frozen=True)
class For:
    var: str
    start: Expr
    stop: Expr
    step: Expr | None
    body: tuple[Stmt, ...]
    descending: bool = False
    unroll: str | None = None  # None: no pragma; "": `#pragma unroll`; "4": `#pragma unroll 4`
    var_type: CxxType | None = None  # None: `int`
    cond: Expr | None = None  # None: `var < stop` (`var > stop` when descending)


@dataclass(frozen=True)
class While:
    cond: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Break:
    """`break;` (leaving a `while (true)` loop whose condition needs statements)."""


@dataclass(frozen=True)
class Return:
    value: Expr | None = None


@dataclass(frozen=True)
class StaticAssert:
    cond: Expr
    message: str


@dataclass(frozen=True)
class StaticFor:
    """`static_for<count>([&](auto var) BBX_INLINE { body });`"""

    count: CxxType | Expr
    var: str
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Block:
    """`{ body }`: one iteration of a loop that Python runs at trace time, unrolled."""

    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Launch:
    """`launch(kernel, grid, block, smem, stream, args...)`, printed over three lines; with
    `options`, `launch(bbx::launch_options{.name = value...}, kernel, ...)`."""

    kernel: Expr
    grid: Expr
    block: Expr
    smem: Expr
    stream: Expr
    args: tuple[Expr, ...]
    options: tuple[tuple[str, Expr], ...] = ()


Stmt = (
    Comment
    | Decl
    | Using
    | ExprStmt
    | Assign
    | If
    | BranchValues
    | For
    | While
    | Break
    | Return
    | StaticAssert
    | StaticFor
    | Block
    | Launch
)

# --------------------------------------------------------------------------------------------
# Declarations
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    type: CxxType
    name: str
    #: a forwarding reference (`T&& name`): the argument itself, not a copy
    forward: bool = False


@dataclass
class Function:
    name: str
    template_params: list[str]
    space: str  # "BBX_GLOBAL", "BBX_DEVICE", "BBX_HOST_DEVICE" or "" (host)
    return_type: str  # "void" or "auto"
    params: list[Param]
    body: list[Stmt] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def _parts(node: object) -> list[object]:
    """The nodes an expression or statement node is made of."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return [getattr(node, f.name) for f in dataclasses.fields(node)]
    return list(node) if isinstance(node, (tuple, list)) else []


def identifiers(node: object) -> set[str]:
    """Every identifier (`Id`) an expression or statement refers to."""
    if isinstance(node, Id):
        return {node.name}
    out: set[str] = set()
    for part in _parts(node):
        out |= identifiers(part)
    return out


def contains(node: object, sub: object) -> bool:
    """Whether `sub` (an expression) occurs in `node`."""
    return node == sub or any(contains(part, sub) for part in _parts(node))
