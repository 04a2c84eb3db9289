"""C++ spellings of Python literals: static integers (`_4{}`, `Int<100>{}`) and floats."""

from __future__ import annotations

from . import ast as c

#: Static integers the header library names (`_0` ... `_32`, `_64`, `_128`, `_256`).
NAMED_INTS = frozenset({*range(33), 64, 128, 256})


def static_int(n: int) -> c.Expr:
    """A static integer value: `_4{}`, `Int<100>{}`, `-_1{}`; its type is `static_int_type(n)`
    (64-bit only where the value does not fit `int`)."""
    if n == -(2**31):  # fits `int`, but its negation does not: `Int<...>`, as the type spelling
        return c.Construct(c.Type("Int", (c.Lit(str(n)),)))
    if n < 0:
        return c.Unary("-", static_int(-n))
    if n in NAMED_INTS:
        return c.Construct(c.Type(f"_{n}"))
    if n >= 2**31:  # beyond `int` (`cute.arch.FULL_MASK`): a 64-bit static integer
        return c.Construct(c.Type("C", (c.Lit(f"std::int64_t{{{n}}}"),)))
    return c.Construct(c.Type("Int", (c.Lit(str(n)),)))


def static_int_type(n: int) -> c.CxxType:
    """`bbx::Int<n>`, a static integer as a type (a template argument)."""
    if n >= 2**31 or n < -(2**31):
        return c.Type("bbx::C", (c.Lit(f"std::int64_t{{{n}}}"),))
    return c.Type("bbx::Int", (c.Lit(str(n)),))


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
