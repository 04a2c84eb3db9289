"""``cute.SymInt`` and ``cute.sym_int*``: symbolic extents and strides of fake tensors.

A `SymInt` stands for a run-time integer of which only a divisibility is known; in a fake
tensor (``make_fake_compact_tensor``) it makes that extent or stride dynamic in the compiled
specialization (``?{div=N}``). Multiplying by a static int or another SymInt gives a SymInt
whose divisibility is the product (what a compact stride derived from it guarantees).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SymInt", "sym_int", "sym_int32", "sym_int64"]


class SymInt:
    def __init__(self, width: int = 32, *, divisibility: int = 1,
                 symbol: str | None = None) -> None:
        if width not in (32, 64):
            raise ValueError(f"bbx: SymInt width must be 32 or 64, got {width}")
        if not isinstance(divisibility, int) or divisibility < 1:
            raise ValueError(f"bbx: SymInt divisibility must be a positive int, got "
                             f"{divisibility!r}")
        self._width, self._divisibility, self._symbol = width, divisibility, symbol

    @property
    def width(self) -> int:
        return self._width

    @property
    def divisibility(self) -> int:
        return self._divisibility

    @property
    def symbol(self) -> str | None:
        return self._symbol

    def __mul__(self, other: Any) -> SymInt:
        if isinstance(other, SymInt):
            return SymInt(max(self.width, other.width),
                          divisibility=self.divisibility * other.divisibility)
        if isinstance(other, int) and not isinstance(other, bool) and other > 0:
            return SymInt(self.width, divisibility=self.divisibility * other)
        return NotImplemented

    __rmul__ = __mul__

    def __repr__(self) -> str:
        name = self.symbol or "?"
        return name if self.divisibility == 1 else f"{name}{{div={self.divisibility}}}"


def sym_int(width: int = 32, *, divisibility: int = 1, symbol: str | None = None) -> SymInt:
    return SymInt(width, divisibility=divisibility, symbol=symbol)


def sym_int32(divisibility: int = 1, symbol: str | None = None) -> SymInt:
    return SymInt(32, divisibility=divisibility, symbol=symbol)


def sym_int64(divisibility: int = 1, symbol: str | None = None) -> SymInt:
    return SymInt(64, divisibility=divisibility, symbol=symbol)
