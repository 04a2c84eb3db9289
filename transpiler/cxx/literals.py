"""C++ spellings of Python literals: static integers (`_4{}`, `Int<100>{}`) and floats."""

from __future__ import annotations

from . import ast as c

#: Static integers the header library names (`_0` ... `_32`, `_64`, `_128`, `_256`).
NAMED_INTS = frozenset({*range(33), 64, 128, 256})

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
INT64_MIN, UINT64_MAX = -(2**63), 2**64 - 1


class StaticIntRangeError(ValueError):
    """A Python int no C++ integer type holds (outside [-2^63, 2^64))."""

    def __init__(self, n: int) -> None:
        self.value = n
        super().__init__(f"{n} does not fit a 64-bit integer (C++ has no wider static "
                         "integer)")


def int_value_text(n: int) -> str:
    """The C++ value of `n` in the narrowest of int, std::int64_t, std::uint64_t that holds it
    (`128`, `std::int64_t{4294967296}`, `std::uint64_t{18446744073709551615ull}`)."""
    if INT_MIN <= n <= INT_MAX:
        return str(n)
    if n == INT64_MIN:  # the literal 2^63 fits no signed type: spell it as a difference
        return f"std::int64_t{{{n + 1} - 1}}"
    if INT64_MIN < n < 2**63:
        return f"std::int64_t{{{n}}}"
    if 0 <= n <= UINT64_MAX:
        return f"std::uint64_t{{{n}ull}}"
    raise StaticIntRangeError(n)


def static_int_type_text(n: int) -> str:
    """The one spelling of a static integer as a type, for every emitter: `bbx::Int<n>` when
    `n` fits `int` (what CuTe's `Int<N>` takes), else `bbx::C<std::int64_t{n}>` (or uint64_t)
    — never a narrowing `Int<N>`."""
    if INT_MIN <= n <= INT_MAX:
        return f"bbx::Int<{n}>"
    return f"bbx::C<{int_value_text(n)}>"


def static_int_text(n: int) -> str:
    """`static_int_type_text(n)` as a value: `bbx::Int<128>{}`."""
    return static_int_type_text(n) + "{}"


def static_int(n: int) -> c.Expr:
    """A static integer value: `_4{}`, `Int<100>{}`, `-_1{}`, `C<std::int64_t{...}>{}`."""
    if INT_MIN < n < 0:  # (INT_MIN has no positive `int` to negate: `Int<-2147483648>`)
        return c.Unary("-", static_int(-n))
    if n in NAMED_INTS:
        return c.Construct(c.Type(f"_{n}"))
    if n > INT_MAX or n < INT_MIN:  # beyond `int` (`cute.arch.FULL_MASK`): 64-bit
        return c.Construct(c.Type("C", (c.Lit(int_value_text(n)),)))
    return c.Construct(c.Type("Int", (c.Lit(str(n)),)))


def static_int_type(n: int) -> c.CxxType:
    """`bbx::Int<n>`, a static integer as a type (a template argument)."""
    if INT_MIN <= n <= INT_MAX:
        return c.Type("bbx::Int", (c.Lit(str(n)),))
    return c.Type("bbx::C", (c.Lit(int_value_text(n)),))


def float_literal(value: float, ctype: str = "float") -> c.Expr:
    """A floating-point constant of C++ type `ctype` (inf and nan through builtins)."""
    if value != value or value in (float("inf"), float("-inf")):
        suffix = "" if ctype == "double" else "f"
        if value != value:
            special: c.Expr = c.Lit(f'__builtin_nan{suffix}("")')
        else:
            special = c.Lit(f"__builtin_inf{suffix}()")
            if value < 0:
                special = c.Unary("-", special)
        if ctype in ("float", "double"):
            return special
        return c.Construct(c.Type(ctype), (special,), brace=False)
    text = repr(float(value))
    if "e" not in text and "." not in text:
        text += ".0"
    if ctype == "double":
        return c.Lit(text)
    if ctype == "float":
        return c.Lit(text + "f")
    return c.Construct(c.Type(ctype), (c.Lit(text + "f"),), brace=False)


def bool_literal(value: bool) -> c.Expr:
    return c.Lit("true" if value else "false")
