"""Int tuples at trace time: shapes, strides, coordinates and tilers as Python values.

An int tuple is a leaf (a static `int` or a dynamic integer, `dynamic_int`) or a Python tuple of
int tuples. Semantics are CuTe's (`include/cute/int_tuple.hpp`, `stride.hpp`) and the DSL's
(`cutlass.cute`): coordinates are colexicographic (the left-most mode is fastest), an integer
coordinate of a tuple mode is split column-major with the last mode taking the rest, and static
results stay static. Static rule violations raise `LayoutAlgebraError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .dynamic_int import (
    LayoutAlgebraError,
    add,
    ceil_div_int,
    div,
    is_constant,
    is_dynamic_int,
    is_leaf,
    is_static_int,
    mod,
    mul,
    select,
)

#: An int tuple (a leaf or a nested tuple of leaves); `Any` because leaves may be proxies.
IntTuple = Any


def is_tuple(x: object) -> bool:
    return isinstance(x, tuple)


def is_int_tuple(x: object) -> bool:
    if isinstance(x, tuple):
        return all(is_int_tuple(e) for e in x)
    return is_leaf(x)


def check_int_tuple(x: object, what: str) -> None:
    if not is_int_tuple(x):
        raise LayoutAlgebraError(f"{what} must be an integer or a tuple of integers, got {x!r}")


def is_static(x: object) -> bool:
    """Every leaf is a static int (the DSL's `cute.is_static` on int tuples)."""
    if isinstance(x, tuple):
        return all(is_static(e) for e in x)
    return is_static_int(x)


def has_none(x: object) -> bool:
    """A coordinate with `None` (the DSL's `_`, a kept mode when slicing)."""
    if isinstance(x, tuple):
        return any(has_none(e) for e in x)
    return x is None


# ---- shape queries ------------------------------------------------------------------------------


def rank(x: IntTuple) -> int:
    return len(x) if is_tuple(x) else 1


def depth(x: IntTuple) -> int:
    if is_tuple(x):
        return 1 + max((depth(e) for e in x), default=0)
    return 0


def product(x: IntTuple) -> Any:
    if is_tuple(x):
        out: Any = 1
        for e in x:
            out = mul(out, product(e))
        return out
    return x


size = product


def product_each(x: IntTuple) -> tuple[Any, ...]:
    return tuple(product(e) for e in wrap(x))


def product_like(x: IntTuple, profile: IntTuple) -> IntTuple:
    """The product of `x` at each leaf of `profile` (profile weakly congruent to x)."""
    if is_tuple(profile):
        if not is_tuple(x) or len(x) != len(profile):
            raise LayoutAlgebraError(f"{profile} is not weakly congruent to {x}")
        return tuple(product_like(a, p) for a, p in zip(x, profile, strict=False))
    return product(x)


def inner_product(a: IntTuple, b: IntTuple) -> Any:
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise LayoutAlgebraError(f"inner_product: {a} and {b} have different profiles")
        out: Any = 0
        for x, y in zip(a, b, strict=False):
            out = add(out, inner_product(x, y))
        return out
    if is_tuple(b):
        raise LayoutAlgebraError(f"inner_product: {a} and {b} have different profiles")
    return mul(a, b)


def elem_scale(a: IntTuple, b: IntTuple) -> IntTuple:
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise LayoutAlgebraError(f"elem_scale: {a} and {b} have different ranks")
        return tuple(elem_scale(x, y) for x, y in zip(a, b, strict=False))
    return mul(a, product(b))


# ---- structure ----------------------------------------------------------------------------------


def wrap(x: IntTuple) -> tuple[Any, ...]:
    return x if is_tuple(x) else (x,)


def unwrap(x: IntTuple) -> IntTuple:
    """A rank-1 tuple becomes its element (recursively), as the DSL's `unwrap`."""
    while is_tuple(x) and len(x) == 1:
        x = x[0]
    return x


def flatten_to_tuple(x: IntTuple) -> tuple[Any, ...]:
    if is_tuple(x):
        return tuple(leaf for e in x for leaf in flatten_to_tuple(e))
    return (x,)


def flatten(x: IntTuple) -> IntTuple:
    """A flat tuple of the leaves; a leaf stays a leaf."""
    return flatten_to_tuple(x) if is_tuple(x) else x


def unflatten(flat: IntTuple, profile: IntTuple) -> IntTuple:
    """Regroup the leaves of `flat` like `profile`."""
    leaves = flatten_to_tuple(flat)
    count = len(flatten_to_tuple(profile))
    if len(leaves) != count:
        raise LayoutAlgebraError(
            f"unflatten: {flat} has {len(leaves)} leaves, the profile {profile} has {count}")
    it = iter(leaves)

    def build(p: IntTuple) -> IntTuple:
        if is_tuple(p):
            return tuple(build(e) for e in p)
        return next(it)

    return build(profile)


def tuple_cat(*ts: IntTuple) -> tuple[Any, ...]:
    return tuple(e for t in ts for e in wrap(t))


def append(t: IntTuple, x: IntTuple, up_to_rank: int | None = None) -> tuple[Any, ...]:
    """`t` with `x` appended (a leaf `t` becomes a rank-1 tuple first); with `up_to_rank`, `x`
    is repeated until the rank is reached (no change when it already is)."""
    w = wrap(t)
    if up_to_rank is None:
        return (*w, x)
    if up_to_rank < len(w):
        raise LayoutAlgebraError(f"append: up_to_rank {up_to_rank} < rank {len(w)} of {t}")
    return (*w, *([x] * (up_to_rank - len(w))))


def prepend(t: IntTuple, x: IntTuple, up_to_rank: int | None = None) -> tuple[Any, ...]:
    w = wrap(t)
    if up_to_rank is None:
        return (x, *w)
    if up_to_rank < len(w):
        raise LayoutAlgebraError(f"prepend: up_to_rank {up_to_rank} < rank {len(w)} of {t}")
    return (*([x] * (up_to_rank - len(w))), *w)


def repeat_like(x: IntTuple, target: IntTuple) -> IntTuple:
    if is_tuple(target):
        return tuple(repeat_like(x, e) for e in target)
    return x


def select_modes(t: IntTuple, modes: Sequence[int]) -> tuple[Any, ...]:
    w = wrap(t)
    return tuple(w[m] for m in modes)


def group(t: IntTuple, begin: int, end: int) -> tuple[Any, ...]:
    """(t0, ..., (t_begin, ..., t_end-1), t_end, ...)."""
    w = wrap(t)
    if end < 0:
        end += len(w) + 1
    if not 0 <= begin <= end <= len(w):
        raise LayoutAlgebraError(f"group_modes: bad range [{begin}, {end}) of rank {len(w)}")
    return (*w[:begin], tuple(w[begin:end]), *w[end:])


def get_mode(t: IntTuple, modes: Sequence[int]) -> IntTuple:
    """Nested mode access: get_mode(t, [i, j]) == t[i][j]; a leaf has mode 0 itself."""
    for m in modes:
        if is_tuple(t):
            if not -len(t) <= m < len(t):
                raise LayoutAlgebraError(f"mode {m} out of range for {t}")
            t = t[m]
        elif m == 0:
            continue
        else:
            raise LayoutAlgebraError(f"mode {m} out of range for the integer {t}")
    return t


# ---- profiles -----------------------------------------------------------------------------------


def congruent(a: IntTuple, b: IntTuple) -> bool:
    """Same hierarchical profile."""
    if is_tuple(a) and is_tuple(b):
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b, strict=False))
    return not is_tuple(a) and not is_tuple(b)


def weakly_congruent(a: IntTuple, b: IntTuple) -> bool:
    """a's profile is a coarsening of b's (a leaf of a matches any sub-tree of b)."""
    if is_tuple(a) and is_tuple(b):
        return len(a) == len(b) and all(weakly_congruent(x, y) for x, y in zip(a, b, strict=False))
    return not is_tuple(a)


def compatible(a: IntTuple, b: IntTuple) -> Any:
    """Shape a is compatible with shape b: every coordinate of a is one of b (sizes agree at
    every leaf of a). A static bool, or a run-time boolean where a compared size is dynamic."""
    if is_tuple(a) and is_tuple(b):
        if len(a) != len(b):
            return False
        out: Any = True
        for x, y in zip(a, b, strict=False):
            r = compatible(x, y)
            if r is False:
                return False
            out = r if out is True else (out if r is True else select(out, r, False))
        return out
    if is_tuple(a):
        return False
    n = product(b)
    if is_static_int(a) and is_static_int(n):
        return a == n
    return a == n


def weakly_compatible(a: IntTuple, b: IntTuple) -> Any:
    """a is weakly compatible with b: b's size at each leaf of a is a multiple of a's."""
    if is_tuple(a) and is_tuple(b):
        if len(a) != len(b):
            return False
        out: Any = True
        for x, y in zip(a, b, strict=True):
            r = weakly_compatible(x, y)
            if r is False:
                return False
            out = r if out is True else (out if r is True else select(out, r, False))
        return out
    if is_tuple(a):
        return False
    n = product(b)
    if is_static_int(a) and is_static_int(n):
        return a != 0 and n % a == 0
    return mod(n, a) == 0


# ---- products and divisions ---------------------------------------------------------------------


def prefix_product(a: IntTuple, init: IntTuple = 1) -> IntTuple:
    """Exclusive prefix product congruent to a (compact column-major strides from `init`)."""
    if is_tuple(a):
        if is_tuple(init):
            if len(init) != len(a):
                raise LayoutAlgebraError(f"prefix_product: {a} and {init} have different ranks")
            return tuple(prefix_product(x, i) for x, i in zip(a, init, strict=False))
        out = []
        cur = init
        for v in a:
            out.append(prefix_product(v, cur))
            cur = mul(cur, product(v))
        return tuple(out)
    if is_tuple(init):
        raise LayoutAlgebraError(f"prefix_product: a tuple init {init} for the integer {a}")
    return init


def suffix_product(a: IntTuple, init: IntTuple = 1) -> IntTuple:
    """Exclusive suffix product congruent to a (compact row-major strides from `init`)."""
    if is_tuple(a):
        if is_tuple(init):
            if len(init) != len(a):
                raise LayoutAlgebraError(f"suffix_product: {a} and {init} have different ranks")
            return tuple(suffix_product(x, i) for x, i in zip(a, init, strict=False))
        out: list[Any] = []
        cur = init
        for v in reversed(a):
            out.append(suffix_product(v, cur))
            cur = mul(cur, product(v))
        return tuple(reversed(out))
    if is_tuple(init):
        raise LayoutAlgebraError(f"suffix_product: a tuple init {init} for the integer {a}")
    return init


compact_col_major = prefix_product
compact_row_major = suffix_product


def _fold_div(a: tuple[Any, ...], b: Any, op: Callable[[Any, Any], Any]) -> tuple[Any, ...]:
    """Divide a tuple by an integer from the left: each mode takes what it can of b."""
    out = []
    rest = b
    for v in a:
        out.append(op(v, rest))
        rest = op(rest, v)
    return tuple(out)


def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's shape_div: `(a + b - 1) / b` at the leaves, where one of a, b must divide the other
    (checked when both are static); a tuple by an integer consumes b from the left."""
    if is_tuple(a):
        if is_tuple(b):
            if len(a) != len(b):
                raise LayoutAlgebraError(f"shape_div: {a} and {b} have different ranks")
            return tuple(shape_div(x, y) for x, y in zip(a, b, strict=False))
        return _fold_div(a, b, shape_div)
    if is_tuple(b):
        return shape_div(a, product(b))
    if is_static_int(a) and is_static_int(b):
        if b == 0 or (a % b != 0 and (a == 0 or b % a != 0)):
            raise LayoutAlgebraError(
                f"shape_div: {a} and {b} do not divide one another (divisibility condition)")
    return ceil_div_int(a, b)


def ceil_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ceil_div on int tuples: a tuple by a tuple mode by mode (missing modes of b are
    1), a tuple by an integer from the left, an integer by a tuple by its product."""
    if is_tuple(a):
        if is_tuple(b):
            if len(b) > len(a):
                raise LayoutAlgebraError(f"ceil_div: the divisor {b} has a larger rank than {a}")
            return tuple(ceil_div(x, y) for x, y in zip(a, append(b, 1, len(a)), strict=False))
        return _fold_div(a, b, ceil_div)
    if is_tuple(b):
        return ceil_div(a, product(b))
    return ceil_div_int(a, b)


def round_up(a: IntTuple, b: IntTuple) -> IntTuple:
    """a rounded up to a multiple of b, leaf by leaf (b padded with 1s), as the DSL's round_up."""
    if is_tuple(a):
        if not is_tuple(b):
            raise LayoutAlgebraError(f"round_up: a tuple {a} needs a tuple b, got {b}")
        if len(b) > len(a):
            raise LayoutAlgebraError(f"round_up: rank({a}) < rank({b})")
        return tuple(round_up(x, y) for x, y in zip(a, append(b, 1, len(a)), strict=False))
    if is_tuple(b):
        raise LayoutAlgebraError(f"round_up: b must be an integer when a is, got {b}")
    return mul(ceil_div_int(a, b), b)


def elem_less(a: IntTuple, b: IntTuple) -> Any:
    """Every leaf of a is less than the matching leaf of b (b's extra modes ignored)."""
    if is_tuple(a):
        if not is_tuple(b) or len(a) > len(b):
            raise LayoutAlgebraError(f"elem_less: {a} and {b} have different profiles")
        out: Any = True
        for x, y in zip(a, b, strict=False):
            r = elem_less(x, y)
            if r is False:
                return False
            out = r if out is True else (out if r is True else select(out, r, False))
        return out
    if is_tuple(b):
        return elem_less(a, product(b))
    if is_static_int(a) and is_static_int(b):
        return a < b
    return a < b


# ---- coordinates --------------------------------------------------------------------------------


def crd2idx(crd: IntTuple, shape: IntTuple, stride: IntTuple | None = None) -> Any:
    """The index of a (possibly partial, possibly hierarchical) coordinate: an integer coordinate
    for a tuple mode is split column-major, the last sub-mode taking the rest."""
    if stride is None:
        stride = prefix_product(shape)
    if is_tuple(crd):
        if not is_tuple(shape) or len(crd) != len(shape) or len(shape) != len(stride):
            raise LayoutAlgebraError(
                f"crd2idx: the coordinate {crd} does not match the shape {shape}")
        out: Any = 0
        for c, s, d in zip(crd, shape, stride, strict=False):
            out = add(out, crd2idx(c, s, d))
        return out
    if crd is None:
        crd = 0
    if is_tuple(shape):
        if not is_tuple(stride) or len(shape) != len(stride):
            raise LayoutAlgebraError(f"crd2idx: shape {shape} and stride {stride} differ")
        out = 0
        rest = crd
        for s, d in zip(shape[:-1], stride[:-1], strict=False):
            n = product(s)
            out = add(out, crd2idx(mod(rest, n), s, d))
            rest = div(rest, n)
        if shape:
            out = add(out, crd2idx(rest, shape[-1], stride[-1]))
        return out
    if is_tuple(stride):
        raise LayoutAlgebraError(f"crd2idx: shape {shape} and stride {stride} differ")
    return mul(crd, stride)


def idx2crd(idx: IntTuple, shape: IntTuple, stride: IntTuple | None = None) -> IntTuple:
    """The natural (hierarchical) coordinate of an index: `(idx / d) % s` at each leaf; a static
    shape-1 leaf has coordinate 0 (as CuTe)."""
    if stride is None:
        stride = prefix_product(shape)
    if is_tuple(idx):
        if not is_tuple(shape) or len(idx) != len(shape) or len(shape) != len(stride):
            raise LayoutAlgebraError(f"idx2crd: the index {idx} does not match the shape {shape}")
        return tuple(idx2crd(i, s, d) for i, s, d in zip(idx, shape, stride, strict=False))
    if is_tuple(shape):
        if not is_tuple(stride) or len(shape) != len(stride):
            raise LayoutAlgebraError(f"idx2crd: shape {shape} and stride {stride} differ")
        return tuple(idx2crd(idx, s, d) for s, d in zip(shape, stride, strict=False))
    if is_constant(1, shape):
        return 0
    return mod(div(idx, stride), shape)


def slice_(crd: IntTuple, t: IntTuple) -> IntTuple:
    """The modes of t where crd has None (the DSL's `_`), flattened into one level per tuple."""
    if is_tuple(crd):
        if not is_tuple(t) or len(crd) != len(t):
            raise LayoutAlgebraError(f"slice: the coordinate {crd} does not match {t}")
        out: list[Any] = []
        for c, x in zip(crd, t, strict=False):
            if is_tuple(c):
                if has_none(c):
                    out.extend(wrap(slice_(c, x)))
            elif c is None:
                out.append(x)
        return tuple(out)
    if crd is None:
        return t
    return ()


def dice(crd: IntTuple, t: IntTuple) -> IntTuple:
    """The modes of t where crd has an integer (the complement of slicing)."""
    if is_tuple(crd):
        if not is_tuple(t) or len(crd) != len(t):
            raise LayoutAlgebraError(f"dice: the coordinate {crd} does not match {t}")
        out: list[Any] = []
        for c, x in zip(crd, t, strict=False):
            if is_tuple(c):
                out.extend(wrap(dice(c, x)))
            elif c is not None:
                out.append(x)
        return tuple(out)
    if crd is None:
        return ()
    return t


def zero_nones(crd: IntTuple) -> IntTuple:
    if is_tuple(crd):
        return tuple(zero_nones(c) for c in crd)
    return 0 if crd is None else crd


def is_dynamic(x: IntTuple) -> bool:
    """Some leaf is a run-time value."""
    if is_tuple(x):
        return any(is_dynamic(e) for e in x)
    return is_dynamic_int(x)
