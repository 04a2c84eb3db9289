"""Identity tensors (`cute.make_identity_tensor(shape)`): reading one gives the coordinate of the
element, as CuTe's counting iterator over ArithTuples.

The layout of an identity tensor has `shape` and, as strides, the unit basis vectors of
`shape`'s leaves (CuTe's `make_basis_like`): a `Basis` is a vector of integer coefficients, one
per leaf, which the layout algebra scales and adds like any stride leaf. So after every divide,
tile, slice and offset the layout maps a coordinate to the coordinate it stands for, also past
the shape's edge (which is what a predicate at a ragged edge compares). Static parts fold at
trace time; run-time parts are `Int32` expressions."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from . import int_tuple as it
from .dynamic_int import LayoutAlgebraError, add, is_static_int, mul
from .errors import trace_error
from .run_time_int import RunTimeInt, user_value


class Basis:
    """An ArithTuple: `coeffs[k]` (an int or `RunTimeInt`) times the k-th leaf's unit vector."""

    __slots__ = ("coeffs",)

    def __init__(self, coeffs: tuple[Any, ...]) -> None:
        self.coeffs = coeffs

    @staticmethod
    def unit(k: int, n: int) -> Basis:
        return Basis(tuple(1 if i == k else 0 for i in range(n)))

    def __add__(self, o: Any) -> Any:
        if isinstance(o, Basis) and len(o.coeffs) == len(self.coeffs):
            return Basis(tuple(add(a, b) for a, b in zip(self.coeffs, o.coeffs, strict=True)))
        if is_static_int(o) and o == 0:
            return self
        raise LayoutAlgebraError(f"a coordinate offset {self} plus the integer {o}")

    __radd__ = __add__

    def __mul__(self, o: Any) -> Any:
        if is_static_int(o) or isinstance(o, RunTimeInt):
            return Basis(tuple(mul(a, o) for a in self.coeffs))
        raise LayoutAlgebraError(f"a coordinate stride {self} times {o}")

    __rmul__ = __mul__

    def __neg__(self) -> Basis:
        return self * -1

    def _refuse(self, *args: Any) -> Any:
        raise LayoutAlgebraError(f"the layout algebra needs integer strides here, and an "
                                 f"identity tensor's stride is the coordinate basis {self}")

    __sub__ = __rsub__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _refuse
    __lt__ = __le__ = __gt__ = __ge__ = _refuse

    def __repr__(self) -> str:
        return "(" + ",".join(str(x) for x in self.coeffs) + ")"


def basis_like(shape: Any) -> Any:
    """The unit basis vector of each leaf of `shape`, in `shape`'s profile."""
    n = len(it.flatten_to_tuple(shape))
    return it.unflatten(tuple(Basis.unit(k, n) for k in range(n)), shape)


@dataclass(frozen=True, eq=False)
class CoordIterator:
    """The coordinates of `shape`, from the coordinate `offset` (a Basis, or 0) on."""

    shape: Any
    offset: Any = 0

    memspace = "coord"

    def __add__(self, n: Any) -> CoordIterator:
        if isinstance(n, Basis) or (is_static_int(n) and n == 0):
            return replace(self, offset=add(self.offset, n))
        raise trace_error("identity-tensor-offset",
                          f"an identity tensor's iterator is offset by {n!r}",
                          "an identity tensor is offset by coordinates (cute.domain_offset)")

    __radd__ = __add__

    def read(self, offset: Any = 0) -> Any:
        """The coordinate at `offset`: a tuple like `shape` (ints where static, `Int32`
        otherwise)."""
        total = add(self.offset, offset)
        n = len(it.flatten_to_tuple(self.shape))
        coeffs = total.coeffs if isinstance(total, Basis) else (0,) * n
        return user_value(it.unflatten(coeffs, self.shape))

    def write(self, offset: Any, value: Any) -> None:
        raise trace_error("identity-tensor-store", "an element of an identity tensor is assigned",
                          "an identity tensor holds coordinates; it has no memory")

    def __repr__(self) -> str:
        return f"coord<{self.shape}>(+{self.offset})"
