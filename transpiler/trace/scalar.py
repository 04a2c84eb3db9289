"""The DSL's numeric types while tracing: `Int32`, `Float32`, `Boolean`, ... (one class per row of
`bbx.numeric_table`).

As in NVIDIA's DSL, an instance holds either a Python number (`Int32(5)`: a *static* value; its
arithmetic is done in Python, with the type's wrap-around) or a run-time value (`CxxValue`: a C++
expression of the specialization being traced). Arithmetic follows the DSL's promotion rules
(`Int32 + 1.5` is `Float32`, `Int32 / Int32` is `Float32`, `Boolean + Boolean` computes in
`Int32`), mixes with Python numbers (`int` -> `Int32` or `Int64`, `float` -> `Float32`, `bool` ->
`Boolean`), and records each run-time operation as a C++ expression:

* `//` of signed integers is the DSL's floor division (`floordiv(a, b)` in the header library),
  `%` of integers is C++'s (the DSL's `arith.remsi`), `%` of floats is `scalar::rem` (`fmod`);
* using a run-time value as a Python `bool`, `int` or index is a located error: such a decision
  belongs in run-time control flow (`if`/`while` of a jit function), or the value must be static.

Expressions stay inline until a value is bound to a Python name (`acc = a * b` gives
`int32_t acc = a * b;`) or used a second time (then it gets a variable, so no work is repeated);
a value belongs to the block it was computed in, and using it outside (after a run-time branch or
loop) is a located error.

These are the classes the `cutlass` shim will serve as `cutlass.Int32` and friends; their class
attributes (`width`, `signed`, `min`, `max`, `zero`, `inf`, `bbx_dtype`...) match the shim's.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable
from typing import Any, ClassVar

from .. import numeric_table as table
from ..cxx import ast as c
from ..cxx.literals import float_literal
from .context import Block, TraceContext, current, require
from .errors import trace_error
from .placement import takes_placement

# ---------------------------------------------------------------------------------------------
# Run-time values
# ---------------------------------------------------------------------------------------------


#: the deepest expression a run-time value keeps inline (deeper ones get a variable when used)
MAX_NESTING = 32


def _nested_deeper_than(expr: object, limit: int) -> bool:
    """Whether `expr` nests more than `limit` levels (walks at most `limit` levels)."""
    level: list[object] = [expr]
    for _ in range(limit):
        level = [child for node in level for child in _children(node)]
        if not level:
            return False
    return True


def _children(node: object) -> list[object]:
    if not dataclasses.is_dataclass(node):
        return []
    out: list[object] = []
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple):
            out.extend(v for v in value if dataclasses.is_dataclass(v))
        elif dataclasses.is_dataclass(value):
            out.append(value)
    return out


class CxxValue:
    """A run-time value: a C++ expression, the block it was computed in, and its C++ type."""

    __slots__ = ("expr", "block", "ctype", "uses", "mutable", "context", "decl", "provisional",
                 "divisor")

    def __init__(self, expr: c.Expr, block: Block, ctype: c.CxxType | None,
                 context: TraceContext, mutable: bool = False) -> None:
        self.expr = expr
        self.block = block
        self.ctype = ctype
        self.uses = 0
        self.mutable = mutable  # a loop-carried variable inside its loop (assigned at its end)
        self.context = context
        self.decl: c.Decl | None = None  # the declaration that gave it its variable
        #: A variable declared where the value was made (a memory read), under a name to be
        #: replaced by the Python name it is bound to (`rename`).
        self.provisional = False
        #: A number an integer value is known to be a multiple of (run_time_int.RunTimeInt: a
        #: layout leaf's divisibility, kept when the leaf is handed to user code and back).
        self.divisor = 1

    @property
    def is_leaf(self) -> bool:
        return isinstance(self.expr, (c.Id, c.Lit)) or (
            isinstance(self.expr, c.Index) and self.expr.readonly)

    @property
    def is_variable(self) -> bool:
        return isinstance(self.expr, c.Id)

    def check_visible(self, ctx: TraceContext) -> None:
        if self.context is not ctx:
            raise trace_error("stale-value", "a run-time value of another trace is used here",
                              "values exist only in the trace of the jit function that made them")
        if not self.block.encloses(ctx.block):
            raise trace_error(
                "value-out-of-scope",
                f"a value computed in the {self.block.describe()} is used outside it",
                "a value made inside run-time control flow exists only there; assign the "
                "variable before the `if`/loop so that it is carried out of it")

    def use(self) -> c.Expr:
        """The expression, for use inside another one (a second use gets a variable first, and
        so does an expression nested deeper than `MAX_NESTING`: a fold over a long vector
        becomes a chain of statements, not one expression the printer and compiler recurse
        through)."""
        ctx = require("a run-time value")
        self.check_visible(ctx)
        self.uses += 1
        if not self.is_leaf and not ctx.speculative and (
                self.uses >= 2 or _nested_deeper_than(self.expr, MAX_NESTING)):
            self.materialize("tmp")
        return self.expr

    def rename(self, hint: str) -> bool:
        """Gives a provisional variable, not used yet, the name `hint` (its declaration is
        rewritten); False when it cannot be renamed any more."""
        if not (self.provisional and self.uses == 0 and self.decl is not None):
            return False
        self.provisional = False
        stmts = self.block.stmts
        for i, stmt in enumerate(stmts):
            if stmt is self.decl:
                name = self.context.names.fresh(hint)
                self.decl = c.Decl(self.decl.type, (name,), self.decl.init)
                stmts[i] = self.decl
                self.expr = c.Id(name)
                return True
        return False

    def materialize(self, hint: str) -> None:
        """Gives the value a variable, declared in the block that computed it."""
        if self.is_leaf:
            return
        ctx = require("a run-time value")
        name, self.decl = ctx.declare(self.ctype, hint, self.expr, block=self.block)
        self.expr = c.Id(name)


# ---------------------------------------------------------------------------------------------
# The numeric classes
# ---------------------------------------------------------------------------------------------


class NumericMeta(type):
    """Numeric types print as their DSL name (`Float32`)."""

    def __str__(cls) -> str:
        return cls.__name__

    __repr__ = __str__


def _literal(value: Any, row: table.NumericType) -> c.Expr:
    """A C++ constant of type `row` with a (Python) value."""
    if row.kind == "bool":
        return c.Lit("true" if value else "false")
    if row.is_float:
        return float_literal(float(value), row.cxx)
    v = int(value)
    if row.cxx == "int32_t":
        if v == -(2**31):
            return c.Lit("(-2147483647 - 1)")
        return c.Lit(str(v))
    suffix = ""
    if not -(2**31) <= v < 2**31:
        suffix = "ULL" if v >= 2**63 else "LL"
    elif row.cxx == "uint32_t":
        suffix = "u"
    return c.Construct(c.Type(row.cxx), (c.Lit(f"{v}{suffix}"),), brace=False)


def _cast_expr(expr: c.Expr, row: table.NumericType) -> c.Expr:
    return c.Construct(c.Type(row.cxx), (expr,), brace=False)


@takes_placement
class Numeric(metaclass=NumericMeta):
    """A DSL numeric value: `value` is a Python number (static) or a `CxxValue` (run-time)."""

    __module__ = "cutlass"
    bbx_row: ClassVar[table.NumericType | None] = None
    bbx_dtype: ClassVar[str | None] = None
    width: ClassVar[int] = 0
    bytes: ClassVar[int] = 0
    is_integer: ClassVar[bool] = False
    is_float: ClassVar[bool] = False
    signed: ClassVar[bool] = True

    value: Any

    def __init__(self, x: Any = 0) -> None:
        cls = type(self)
        row = cls.bbx_row
        if row is None:
            raise TypeError(f"{cls.__name__} is abstract; use a concrete type such as Int32")
        if isinstance(x, CxxValue):
            self.value = x
        elif isinstance(x, Numeric):
            if isinstance(x.value, CxxValue):
                self.value = x.value if type(x) is cls else _dynamic_cast(x, cls)
            else:
                self.value = cls._from_python(x.value)
        elif isinstance(x, (bool, int, float)):
            self.value = cls._from_python(x)
        else:
            check = getattr(x, "bbx_unavailable", None)
            if check is not None:
                check()
            raise trace_error("numeric-cast",
                              f"cannot make a {cls.__name__} from a {type(x).__name__}")

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def _from_python(cls, x: bool | int | float) -> Any:
        return x

    @classmethod
    def run_time(cls, expr: c.Expr, *, block: Block | None = None,
                 mutable: bool = False) -> Numeric:
        """A run-time value of this type: the C++ expression `expr` of the current trace."""
        ctx = require("a run-time value")
        assert cls.bbx_row is not None
        return cls(CxxValue(expr, block or ctx.block, c.Type(cls.bbx_row.cxx), ctx, mutable))

    # -- facts ----------------------------------------------------------------------------------

    @property
    def dtype(self) -> type[Numeric]:
        return type(self)

    @property
    def is_static(self) -> bool:
        return not isinstance(self.value, CxxValue)

    def expr(self) -> c.Expr:
        """The C++ spelling of this value (a constant when static)."""
        assert self.bbx_row is not None
        if isinstance(self.value, CxxValue):
            return self.value.use()
        return _literal(self.value, self.bbx_row)

    def to(self, dtype: Any) -> Any:
        if isinstance(dtype, type) and issubclass(dtype, Numeric):
            return self if type(self) is dtype else dtype(self)
        if dtype in (int, float, bool):
            if isinstance(self.value, CxxValue):
                raise trace_error("dynamic-to-static",
                                  f"a run-time {type(self).__name__} converted to {dtype.__name__}",
                                  "only a static value has a Python value at trace time")
            return dtype(self.value)
        raise TypeError(f"cannot convert {type(self).__name__} to {dtype}")

    # -- Python protocols: only static values have Python values -----------------------------------

    def _static_only(self, what: str, hint: str) -> Any:
        if isinstance(self.value, CxxValue):
            raise trace_error("dynamic-to-static",
                              f"a run-time {type(self).__name__} is used as {what}", hint)
        return self.value

    def __bool__(self) -> bool:
        return bool(self._static_only(
            "a Python bool",
            "its value is known only when the kernel runs: branch on it in an `if`/`while` of "
            "a @cute.jit function (a run-time branch), or use a static value"))

    def __index__(self) -> int:
        value = self._static_only(
            "a Python integer (an index, a `range_constexpr` bound, a size)",
            "only static values can be; use `range(...)` for a run-time loop")
        if isinstance(value, float):
            raise TypeError(f"{type(self).__name__} is not an integer")
        return int(value)

    def __int__(self) -> int:
        return int(self._static_only("a Python int", "only static values can be"))

    def __float__(self) -> float:
        return float(self._static_only("a Python float", "only static values can be"))

    def __hash__(self) -> int:
        value = self._static_only("a dictionary key or set element", "only static values can be")
        return hash((type(self).__name__, value))

    def __repr__(self) -> str:
        """As the DSL shows a number at trace time: `Int32(?)` when it is a run-time value."""
        shown = "?" if isinstance(self.value, CxxValue) else repr(self.value)
        return f"{type(self).__name__}({shown})"

    def __str__(self) -> str:
        """What trace-time `print` shows: `?` for a run-time value, as the DSL shows it; a
        static value as its repr (`Int32(7)`; the DSL shows `?` there too, as its constants are
        MLIR values)."""
        return "?" if isinstance(self.value, CxxValue) else repr(self)

    # -- arithmetic -----------------------------------------------------------------------------

    def __add__(self, other: Any) -> Any:
        return _binary(operator.add, self, other, promote_bool=True)

    def __radd__(self, other: Any) -> Any:
        return _binary(operator.add, self, other, promote_bool=True, flip=True)

    def __sub__(self, other: Any) -> Any:
        return _binary(operator.sub, self, other, promote_bool=True)

    def __rsub__(self, other: Any) -> Any:
        return _binary(operator.sub, self, other, promote_bool=True, flip=True)

    def __mul__(self, other: Any) -> Any:
        return _binary(operator.mul, self, other, promote_bool=True)

    def __rmul__(self, other: Any) -> Any:
        return _binary(operator.mul, self, other, promote_bool=True, flip=True)

    def __truediv__(self, other: Any) -> Any:
        return _binary(operator.truediv, self, other, promote_bool=True)

    def __rtruediv__(self, other: Any) -> Any:
        return _binary(operator.truediv, self, other, promote_bool=True, flip=True)

    def __floordiv__(self, other: Any) -> Any:
        return _binary(operator.floordiv, self, other, promote_bool=True)

    def __rfloordiv__(self, other: Any) -> Any:
        return _binary(operator.floordiv, self, other, promote_bool=True, flip=True)

    def __mod__(self, other: Any) -> Any:
        return _binary(operator.mod, self, other, promote_bool=True)

    def __rmod__(self, other: Any) -> Any:
        return _binary(operator.mod, self, other, promote_bool=True, flip=True)

    def __pow__(self, other: Any) -> Any:
        return _binary(operator.pow, self, other)

    def __rpow__(self, other: Any) -> Any:
        return _binary(operator.pow, self, other, flip=True)

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return _binary(operator.eq, self, other)

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return _binary(operator.ne, self, other)

    def __lt__(self, other: Any) -> Any:
        return _binary(operator.lt, self, other)

    def __le__(self, other: Any) -> Any:
        return _binary(operator.le, self, other)

    def __gt__(self, other: Any) -> Any:
        return _binary(operator.gt, self, other)

    def __ge__(self, other: Any) -> Any:
        return _binary(operator.ge, self, other)

    def __neg__(self) -> Any:
        return _unary("-", operator.neg, self)

    def __pos__(self) -> Any:
        return self

    def __abs__(self) -> Any:
        return _unary("abs", abs, self)


class Integer(Numeric):
    is_integer = True
    min: ClassVar[int] = 0
    max: ClassVar[int] = 0
    zero: ClassVar[int] = 0

    @classmethod
    def _from_python(cls, x: bool | int | float) -> Any:
        if isinstance(x, float) and not math.isfinite(x):
            raise trace_error("numeric-cast", f"{x} cannot be converted to {cls.__name__}")
        bits = int(x) & ((1 << cls.width) - 1)
        if cls.signed and bits >> (cls.width - 1):
            bits -= 1 << cls.width
        return bits

    def __invert__(self) -> Any:
        return _unary("~", operator.invert, self)

    def __and__(self, other: Any) -> Any:
        return _binary(operator.and_, self, other)

    def __rand__(self, other: Any) -> Any:
        return _binary(operator.and_, self, other, flip=True)

    def __or__(self, other: Any) -> Any:
        return _binary(operator.or_, self, other)

    def __ror__(self, other: Any) -> Any:
        return _binary(operator.or_, self, other, flip=True)

    def __xor__(self, other: Any) -> Any:
        return _binary(operator.xor, self, other)

    def __rxor__(self, other: Any) -> Any:
        return _binary(operator.xor, self, other, flip=True)

    def __lshift__(self, other: Any) -> Any:
        return _binary(operator.lshift, self, other)

    def __rlshift__(self, other: Any) -> Any:
        return _binary(operator.lshift, self, other, flip=True)

    def __rshift__(self, other: Any) -> Any:
        return _binary(operator.rshift, self, other)

    def __rrshift__(self, other: Any) -> Any:
        return _binary(operator.rshift, self, other, flip=True)


class Float(Numeric):
    is_float = True
    zero: ClassVar[float] = 0.0
    inf: ClassVar[float] = math.inf
    nan: ClassVar[float] = math.nan

    @classmethod
    def _from_python(cls, x: bool | int | float) -> Any:
        """The nearest value of this type (`Float16(0.1).value == 0.0999755859375`), as the
        device stores it."""
        assert cls.bbx_row is not None
        if cls.width == 64:
            return float(x)
        return _round_to(cls.bbx_row, float(x))


def _round_to(row: table.NumericType, x: float) -> float:
    """`x` rounded to the floating-point type of `row` (through torch's conversion)."""
    import torch

    assert row.torch_name is not None
    as_float64 = torch.tensor(x, dtype=torch.float64)
    return float(as_float64.to(getattr(torch, row.torch_name)).item())


class _Boolean(Integer):
    """The DSL's i1: a 1-bit *signed* integer type (min -1, max 0), as NVIDIA's."""

    @classmethod
    def _from_python(cls, x: bool | int | float) -> Any:
        return bool(x)


def _numeric_class(row: table.NumericType) -> type[Numeric]:
    base: type[Numeric] = Float if row.is_float else _Boolean if row.kind == "bool" else Integer
    attributes: dict[str, Any] = {
        "__module__": "cutlass", "__qualname__": row.dsl_name, "width": row.width,
        "bytes": row.size, "bbx_dtype": row.short, "bbx_row": row,
    }
    if row.kind == "bool":
        attributes |= {"signed": True, "min": -1, "max": 0}
    elif row.is_integer:
        signed = row.kind == "int"
        attributes |= {"signed": signed,
                       "min": -(1 << (row.width - 1)) if signed else 0,
                       "max": (1 << (row.width - 1)) - 1 if signed else (1 << row.width) - 1}
    made = NumericMeta(row.dsl_name, (base,), attributes)
    assert issubclass(made, Numeric)
    return made


NUMERIC_TYPES: tuple[type[Numeric], ...] = tuple(_numeric_class(r) for r in table.NUMERIC_TYPES)
BY_NAME: dict[str, type[Numeric]] = {t.__name__: t for t in NUMERIC_TYPES}
BY_ROW: dict[table.NumericType, type[Numeric]] = {
    t.bbx_row: t for t in NUMERIC_TYPES if t.bbx_row is not None}

# The concrete types, by their DSL names.
Int8 = BY_NAME["Int8"]
Int16 = BY_NAME["Int16"]
Int32 = BY_NAME["Int32"]
Int64 = BY_NAME["Int64"]
Uint8 = BY_NAME["Uint8"]
Uint16 = BY_NAME["Uint16"]
Uint32 = BY_NAME["Uint32"]
Uint64 = BY_NAME["Uint64"]
Float16 = BY_NAME["Float16"]
BFloat16 = BY_NAME["BFloat16"]
Float32 = BY_NAME["Float32"]
Float64 = BY_NAME["Float64"]
Boolean = BY_NAME["Boolean"]


# ---------------------------------------------------------------------------------------------
# Promotion and operations
# ---------------------------------------------------------------------------------------------


def as_numeric(x: Any) -> Numeric:
    """A Python number as the DSL types it: bool -> Boolean, int -> Int32 (Int64 beyond 32
    bits), float -> Float32; a Numeric stays itself."""
    if isinstance(x, Numeric):
        return x
    if isinstance(x, bool):
        return Boolean(x)
    if isinstance(x, int):
        return Int32(x) if -(2**31) <= x < 2**31 else Int64(x)
    if isinstance(x, float):
        return Float32(x)
    raise TypeError(f"{x!r} is not a number")


def is_dynamic(x: Any) -> bool:
    """Whether `x` is a run-time numeric value."""
    return isinstance(x, Numeric) and isinstance(x.value, CxxValue)


def _float_of_width(width: int) -> type[Numeric]:
    return {16: Float16, 32: Float32, 64: Float64}.get(width, Float32)


def promote(a: type[Numeric], b: type[Numeric], promote_bool: bool = False) -> type[Numeric]:
    """The common type of a binary operation (the DSL's `_binary_op_type_promote`)."""
    if a is b and not (promote_bool and a is Boolean):
        return a
    if a.is_float or b.is_float:
        if a.is_float and not b.is_float:
            b = _float_of_width(max(a.width, b.width)) if a.width < b.width else a
        elif b.is_float and not a.is_float:
            a = _float_of_width(max(a.width, b.width)) if b.width < a.width else b
        if a.width > b.width and a.width >= 16:
            return a
        if b.width > a.width and b.width >= 16:
            return b
        if a.width == b.width:
            for pick in (Float64, Float32, Float16):
                if pick in (a, b):
                    return pick
        raise trace_error("numeric-promotion",
                          f"implicit promotion of {a.__name__} and {b.__name__} is not supported",
                          "cast one operand explicitly")
    if promote_bool and a is Boolean and b is Boolean:
        return Int32
    if a is b:
        return a
    if a.signed != b.signed:
        unsigned, signed = (a, b) if not a.signed else (b, a)
        return unsigned if unsigned.width >= signed.width else signed
    return a if a.width >= b.width else b


_CXX_BINARY = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
    operator.and_: "&", operator.or_: "|", operator.xor: "^", operator.lshift: "<<",
    operator.rshift: ">>", operator.eq: "==", operator.ne: "!=", operator.lt: "<",
    operator.le: "<=", operator.gt: ">", operator.ge: ">=",
}  # fmt: skip
_COMPARISONS = (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge)
_INTEGER_ONLY = (operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift)


def _binary(op: Callable[[Any, Any], Any], lhs: Numeric, rhs: Any, *,
            promote_bool: bool = False, flip: bool = False) -> Any:
    """`lhs op rhs` (or `rhs op lhs` with `flip`), the DSL's `_binary_op`."""
    if not isinstance(rhs, Numeric):
        if isinstance(rhs, (bool, int, float)):
            rhs = as_numeric(rhs)
        else:
            return NotImplemented
    lhs_type, rhs_type = type(lhs), type(rhs)
    common = promote(lhs_type, rhs_type, promote_bool)
    if op in _INTEGER_ONLY and not common.is_integer:
        raise trace_error("numeric-operator",
                          f"`{_CXX_BINARY[op]}` of {lhs_type.__name__} and {rhs_type.__name__}",
                          "bitwise operators take integers")
    if op in _COMPARISONS:
        result: type[Numeric] = Boolean
    elif op is operator.truediv and common.is_integer:
        result = Float32
    elif promote_bool and lhs_type is Boolean and rhs_type is Boolean:
        result = Boolean
    else:
        result = common
    a, b = (rhs, lhs) if flip else (lhs, rhs)
    if not isinstance(a.value, CxxValue) and not isinstance(b.value, CxxValue):
        return result(op(common._from_python(a.value), common._from_python(b.value)))
    ctx = require("a run-time value")
    if a.value is b.value and isinstance(a.value, CxxValue):
        a.value.materialize("tmp")  # `t + t`: computed once
    expr = _emit_binary(op, a, b, common, result)
    return result(CxxValue(expr, ctx.block, c.Type(_row(result).cxx), ctx))


def _row(t: type[Numeric]) -> table.NumericType:
    assert t.bbx_row is not None
    return t.bbx_row


def _operand(x: Numeric, common: type[Numeric]) -> c.Expr:
    if not isinstance(x.value, CxxValue):
        return _literal(common._from_python(x.value), _row(common))
    expr = x.value.use()
    return expr if type(x) is common else _cast_expr(expr, _row(common))


def _emit_binary(op: Callable[[Any, Any], Any], a: Numeric, b: Numeric,
                 common: type[Numeric], result: type[Numeric]) -> c.Expr:
    row = _row(common)
    if op is operator.truediv and common.is_integer:
        fa, fb = _operand(a, Float32), _operand(b, Float32)
        return c.Binary("/", fa, fb)
    x, y = _operand(a, common), _operand(b, common)
    if op is operator.floordiv:
        if common.is_float:
            return c.Call(c.Id("floor"), (c.Binary("/", x, y),))
        if common.signed:
            return c.Call(c.Id("floordiv"), (x, y))
        return c.Binary("/", x, y)
    if op is operator.mod:
        return c.Call(c.Id("scalar::rem"), (x, y)) if common.is_float else c.Binary("%", x, y)
    if op is operator.pow:
        if common.is_integer:
            raise trace_error("numeric-operator", "`**` of run-time integers is not supported",
                              "compute in a float type, or multiply")
        return c.Call(c.Id("scalar::pow"), (x, y))
    if common is Boolean and op in (operator.and_, operator.or_, operator.xor):
        return c.Binary({operator.and_: "&&", operator.or_: "||", operator.xor: "!="}[op], x, y)
    expr: c.Expr = c.Binary(_CXX_BINARY[op], x, y)
    if op in _COMPARISONS:
        return expr
    if common.is_integer and row.width < 32 or result is not common:
        expr = _cast_expr(expr, _row(result))  # C++ computes narrow integers in `int`
    return expr


def _unary(symbol: str, op: Callable[[Any], Any], x: Numeric) -> Any:
    cls = type(x)
    row = _row(cls)
    if symbol == "~" and cls is Boolean:
        return logical_not(x) if isinstance(x.value, CxxValue) else Boolean(not x.value)
    if not isinstance(x.value, CxxValue):
        return cls(op(x.value))
    inner = x.value.use()
    expr: c.Expr = c.Call(c.Id("abs"), (inner,)) if symbol == "abs" else c.Unary(symbol, inner)
    if cls.is_integer and row.width < 32:
        expr = _cast_expr(expr, row)
    ctx = require("a run-time value")
    return cls(CxxValue(expr, ctx.block, c.Type(row.cxx), ctx))


def _dynamic_cast(x: Numeric, to: type[Numeric]) -> CxxValue:
    ctx = require("a run-time value")
    assert isinstance(x.value, CxxValue)
    inner = x.value.use()
    return CxxValue(_cast_expr(inner, _row(to)), ctx.block, c.Type(_row(to).cxx), ctx)


def logical_not(x: Any) -> Any:
    """`not x`: a Python bool for static values, a run-time `Boolean` for run-time ones."""
    if is_dynamic(x):
        ctx = require("a run-time value")
        value = x.value
        if type(x) is Boolean:
            expr: c.Expr = c.Unary("!", value.use())
        else:
            expr = c.Binary("==", value.use(), _literal(0, _row(type(x))))
        return Boolean(CxxValue(expr, ctx.block, c.Type("bool"), ctx))
    return not x


def to_boolean(x: Numeric) -> Numeric:
    """A run-time condition as a `Boolean` (`x != 0` for other types)."""
    if type(x) is Boolean:
        return x
    return _binary(operator.ne, x, 0)


def select(cond: Numeric, then: Numeric, other: Numeric) -> Numeric:
    """`cond ? then : other` of two values of one type."""
    ctx = require("a run-time value")
    t = type(then)
    expr = c.Ternary(to_boolean(cond).expr(), then.expr(), other.expr())
    return t(CxxValue(expr, ctx.block, c.Type(_row(t).cxx), ctx))


def current_block() -> Block | None:
    ctx = current()
    return None if ctx is None else ctx.block


def pick(cond: Any, a: Numeric, b: Numeric) -> Numeric:
    """`cond ? a : b` of one number type (decided in Python for a static condition)."""
    if isinstance(cond, Numeric) and cond.is_static:
        return a if cond.value else b
    return select(cond, a, b)
