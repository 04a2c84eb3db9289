"""`cutlass.cute.math` (re-exported as `cutlass.cute.<name>`): elementwise math on scalars and
register values (TensorSSA). Precise by default; `fastmath=True` / `approx=True` select the
target's fast form where there is one (elsewhere the precise form is a valid answer).

The flags with no effect on AMD are checked and accepted: `ftz=True` (flushing denormals is
permitted, not required), `rounding=RoundingMode.NEAREST_EVEN` (the default mode); other
rounding modes are refused (bbx does not change the rounding mode). C++: `bbx::math::<name>`
(bbx/tensor/value_math.hpp) over bbx/numeric/special_math.hpp, and the older unqualified
functions of bbx/numeric/{math,fast_math}.hpp for exp, log, sqrt, sin, ...
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from .builder import C
from .control import ANNOTATION
from .entry import FIRST, Constant, Custom, Function, Marker, Param, params
from .lowerer import Lowerer
from .registry import Registry
from .roles import CallParts, Role, literal_value

MATH = C + "math."
SSA = Kind(Cat.TENSOR_SSA)

#: RoundingMode members and their PTX spelling (the enum's values).
ROUNDING_MODES = {"NEAREST_EVEN": "rn", "ZERO": "rz", "UP": "rp", "DOWN": "rm"}


class FlagArg(Role):
    """A literal-bool option (`fastmath=`, `approx=`, `ftz=`, `propagate_nan=`): True selects
    `true_cxx` when there is one; the choice is made at translation."""

    def __init__(self, name: str, true_cxx: str | None = None) -> None:
        self.name = name
        self.true_cxx = true_cxx

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        value = literal_value(lw, node)
        if not isinstance(value, bool):
            raise lw.error(
                node,
                "bad-arguments",
                f"{param}= must be a literal True or False",
                f"write {param}=True; the choice is made when the code is translated",
            )
        if value and self.true_cxx is not None:
            parts.cxx = self.true_cxx

    def default(self, value: str, parts: CallParts) -> None:
        return None


class RoundingArg(Role):
    """`rounding=`: None or `RoundingMode.NEAREST_EVEN` (the default rounding of every target);
    a directed rounding mode is refused."""

    name = "rounding"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        value = literal_value(lw, node)
        if value is None or value == ROUNDING_MODES["NEAREST_EVEN"]:
            return
        mode = next((m for m, v in ROUNDING_MODES.items() if v == value), lw.code(node))
        raise lw.error(
            node,
            "unsupported-argument",
            f"rounding={mode}: directed rounding is not supported",
            "bbx computes in the default mode (round to nearest even); drop `rounding=` or "
            "pass RoundingMode.NEAREST_EVEN",
        )

    def default(self, value: str, parts: CallParts) -> None:
        return None


ROUNDING = RoundingArg()


@dataclass(frozen=True, eq=False)
class MathFunction(Function):
    """A `cute.math` function; `predicate` results are Boolean (like-shaped for a TensorSSA),
    `pair` results are a tuple of two values like the first argument (`sincos`)."""

    predicate: bool = False
    pair: bool = False

    def lower_call(self, lw: Lowerer, node: cst.Call, name: str) -> Val:
        val = super().lower_call(lw, node, name)
        if self.predicate:
            kind = SSA if val.kind.cat is Cat.TENSOR_SSA else k.dynamic("bool")
            return Val(kind, val.expr, node=node)
        if self.pair:
            return Val(Kind(Cat.TUPLE, elems=(val.kind, val.kind)), val.expr, node=node)
        return val


def _function(
    cxx: str,
    values: str,
    flags: str = "",
    fast: str | None = None,
    example: str = "",
    **kind: bool,
) -> MathFunction:
    """`values`: the value parameters in the DSL's order; `flags`: the options after them, in
    order (`fastmath`/`approx`/`full` select `fast`, `propagate_nan` selects `fast` too,
    `ftz` is checked, `rounding` must be the default)."""
    ps: list[Param] = list(params(" ".join(f"{v}:value" for v in values.split())))
    for flag in flags.split():
        if flag == "rounding":
            ps.append(Param(flag, ROUNDING))
        elif flag == "ftz":
            ps.append(Param(flag, FlagArg(flag)))
        else:
            ps.append(Param(flag, FlagArg(flag, fast)))
    return MathFunction(
        cxx, tuple(ps), FIRST, len(values.split()), example=example, **kind
    )


#: Unary functions of bbx::math with no fast form (fastmath=True keeps them precise).
_UNARY_PRECISE = (
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cosh", "erfc", "expm1",
    "log10", "log1p", "sinh", "tan", "round", "roundeven", "trunc",
)  # fmt: skip
#: Functions of bbx/numeric/{math,fast_math}.hpp: name -> (flags, fast form).
_CLASSIC = {
    "exp": ("fastmath", "fast_exp"), "log": ("fastmath", "fast_log"),
    "erf": ("fastmath", "fast_erf"), "ceil": ("fastmath", None), "floor": ("fastmath", None),
    "exp2": ("fastmath approx ftz", "fast_exp2"), "log2": ("fastmath approx ftz", "fast_log2"),
    "rsqrt": ("fastmath approx ftz", "fast_rsqrt"), "sin": ("fastmath approx ftz", None),
    "cos": ("fastmath approx ftz", None), "tanh": ("fastmath approx", "fast_tanh"),
    "sqrt": ("fastmath approx ftz rounding", "fast_sqrt"),
}  # fmt: skip
_PREDICATES = ("isfinite", "isinf", "isnan", "isnormal")


def _entries() -> dict[str, MathFunction]:
    out: dict[str, MathFunction] = {}
    for name in _UNARY_PRECISE:
        out[name] = _function(
            f"math::{name}", "x", "fastmath",
            example=f"y = cute.math.{name}(x)\nv = cute.math.{name}(ssa, fastmath=True)")
    for name, (flags, fast) in _CLASSIC.items():
        fast_flag = "approx=True" if "approx" in flags else "fastmath=True"
        out[name] = _function(
            name, "x", flags, fast,
            example=f"y = cute.math.{name}(x)\nv = cute.math.{name}(ssa, {fast_flag})")
    for name in _PREDICATES:
        out[name] = _function(
            f"math::{name}", "x", "fastmath", predicate=True,
            example=f"p = cute.math.{name}(x)\nq = cute.math.{name}(ssa)")
    out["abs"] = _function(
        "math::abs", "x", "fastmath ftz",
        example="y = cute.math.abs(x)\nv = cute.math.abs(ssa)\nm = cute.math.abs(n)")
    out["absf"] = _function(
        "math::absf", "x", "fastmath ftz", example="y = cute.math.absf(x, ftz=True)")
    out["absi"] = _function("math::absi", "x", example="m = cute.math.absi(n)")
    out["neg"] = _function(
        "math::neg", "x", "fastmath", example="y = cute.math.neg(x)\nv = cute.math.neg(ssa)")
    for name in ("add", "mul"):
        out[name] = _function(
            f"math::{name}", "x y", "fastmath rounding ftz",
            example=f"y = cute.math.{name}(x, x, rounding=cute.math.RoundingMode.NEAREST_EVEN)"
            f"\nv = cute.math.{name}(ssa, 2.0)")
    out["sub"] = _function(
        "math::sub", "x y", "fastmath",
        example="y = cute.math.sub(x, 1.0)\nv = cute.math.sub(ssa, ssa)")
    out["div"] = _function(
        "math::div", "x y", "fastmath approx ftz full rounding", "math::div_approx",
        example="y = cute.math.div(x, 3.0)\nv = cute.math.div(ssa, x, approx=True)")
    out["rcp"] = _function(
        "math::rcp", "x", "fastmath approx rounding ftz", "rcp_approx",
        example="y = cute.math.rcp(x)\nv = cute.math.rcp(ssa, approx=True)")
    out["fma"] = _function(
        "math::fma", "a b c", "fastmath rounding ftz",
        example="y = cute.math.fma(x, x, 1.0)\nv = cute.math.fma(ssa, 2.0, ssa)")
    for name, nan in (("max", "math::fmaximum"), ("min", "math::fminimum")):
        out[name] = _function(
            f"math::{name}", "x y", "propagate_nan ftz", nan,
            example=f"y = cute.math.{name}(x, 0.5)\nv = cute.math.{name}(ssa, ssa, "
            f"propagate_nan=True)\nm = cute.math.{name}(n, 3)")
    out["clamp"] = _function(
        "math::clamp", "x lo hi", "fastmath propagate_nan ftz", "math::clamp_propagate_nan",
        example="y = cute.math.clamp(x, 0.0, 1.0)\nv = cute.math.clamp(ssa, 0.0, 1.0, "
        "propagate_nan=True)")
    out["copysign"] = _function(
        "math::copysign", "mag sign", "fastmath",
        example="y = cute.math.copysign(x, -1.0)\nv = cute.math.copysign(ssa, x)")
    out["atan2"] = _function(
        "math::atan2", "y x", "fastmath",
        example="y = cute.math.atan2(x, 2.0)\nv = cute.math.atan2(ssa, ssa)")
    out["pow"] = _function(
        "math::pow", "base exponent", "fastmath",
        example="y = cute.math.pow(x, 2.5)\nv = cute.math.pow(ssa, x)")
    out["rem"] = _function(
        "math::rem", "x y", "fastmath",
        example="y = cute.math.rem(x, 0.75)\nv = cute.math.rem(ssa, 0.75)")
    out["fpowi"] = _function(
        "math::fpowi", "base exponent", "fastmath",
        example="y = cute.math.fpowi(x, 3)\nv = cute.math.fpowi(ssa, n)")
    out["ipowi"] = _function("math::ipowi", "base exponent", example="m = cute.math.ipowi(n, 3)")
    out["sincos"] = _function(
        "math::sincos", "x", "fastmath", pair=True,
        example="s, c = cute.math.sincos(x)\nvs, vc = cute.math.sincos(ssa)")
    return out


def _fold_minmax(name: str) -> Custom:
    """`cutlass.max(*args)` / `cutlass.min(*args)`: every argument, and the elements of literal
    tuples and lists among them; all literals fold now (Python's max/min), otherwise
    `math::max_of(...)` (IEEE maximum / minimum: NaN propagates, as the DSL's arith.maximumf)."""
    fold = max if name == "max" else min

    def call(lw: Lowerer, node: cst.Call, qualified: str) -> Val:
        items: list[cst.BaseExpression] = []
        for a in node.args:
            if a.keyword is not None or a.star:
                raise lw.error(a, "bad-arguments", f"'{qualified}' takes positional values only")
            if isinstance(a.value, (cst.Tuple, cst.List)):
                items += [e.value for e in a.value.elements]
            else:
                items.append(a.value)
        if not items:
            raise lw.error(node, "bad-arguments", f"'{qualified}' needs at least one value")
        vals = [lw.lower(e) for e in items]
        literals = [v.kind.value for v in vals if v.kind.cat is Cat.LITERAL]
        if len(literals) == len(vals) and all(
            isinstance(x, (int, float)) for x in literals
        ):
            return Val(k.literal(fold(literals)), node=node)  # type: ignore[type-var]
        if len(vals) == 1:
            return vals[0]
        args = tuple(lw.materialize(v, False, e) for v, e in zip(vals, items, strict=True))
        cats = {v.kind.cat for v in vals}
        ctypes = {v.kind.ctype for v in vals if v.kind.cat is Cat.DYNAMIC}
        if Cat.TENSOR_SSA in cats:
            kind = SSA
        elif cats <= {Cat.DYNAMIC, Cat.LITERAL} and len(ctypes) == 1:
            kind = k.dynamic(ctypes.pop())
        else:
            kind = k.dynamic()
        return Val(kind, c.Call(c.Id(f"math::{name}_of"), args), node=node)

    return Custom(
        call=call,
        example=f"y = cutlass.{name}(x, 2.0, x)\nm = cutlass.{name}(n, 3)\n"
        f"v = cutlass.{name}(ssa, ssa)\nw = cutlass.{name}([1, 5, 2])")


def register(r: Registry) -> None:
    for name in ("max", "min"):
        r.add(f"cutlass.{name}", _fold_minmax(name))
    for name, entry in _entries().items():
        r.add([MATH + name, C + name], entry)
    for mode, ptx in ROUNDING_MODES.items():
        r.add([f"{MATH}RoundingMode.{mode}", f"{C}RoundingMode.{mode}"], Constant(
            ptx, example=f"y = cute.math.add(x, x, rounding=cute.math.RoundingMode.{mode})"
            if mode == "NEAREST_EVEN" else f"r = cute.math.RoundingMode.{mode}"))
    r.add([MATH + "RoundingMode", C + "RoundingMode"], Marker(
        "as `RoundingMode.<mode>`",
        example="y = cute.math.mul(x, x, rounding=cute.math.RoundingMode.NEAREST_EVEN)"))
    r.add([MATH + "MathOperand"], Marker(
        ANNOTATION, example="v: cute.math.MathOperand = x"))
