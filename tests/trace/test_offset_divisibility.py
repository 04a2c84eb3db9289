"""What the tracer knows of run-time offsets' divisibility (bbx.trace.run_time_int), which lets
the header prove wide copies of staged code: the rules of C++ arithmetic on multiples, the fact
kept by the C++ value (through user code and back), a carried tensor's offset facts
(OffsetFacts) and the spelling of a swizzled view's offset as `multiple_of<D>`. Each rule is
checked on concrete values too: every value the expression takes over a range of inputs is a
multiple of the divisor claimed."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bbx.cxx import ast as c
from bbx.cxx.printer import expr_text, type_text
from bbx.trace.context import TraceContext, activate
from bbx.trace.layout import Layout
from bbx.trace.layout_cxx import cxx_type, cxx_value
from bbx.trace.run_time_int import OffsetFacts, RunTimeInt, divisor_of, leaf_in, user_value
from bbx.trace.scalar import Int32
from bbx.trace.swizzle import ComposedLayout, Swizzle


@contextmanager
def _trace() -> Iterator[None]:
    with activate(TraceContext("t")):
        yield


def _leaf(name: str, divisor: int = 1) -> RunTimeInt:
    return RunTimeInt(Int32.run_time(c.Id(name)), divisor)


def _c_mod(a: int, b: int) -> int:
    return a - int(a / b) * b  # C++'s truncating %


#: (expression on leaves, the same on Python ints (C++ semantics), the divisor the tracer claims)
RULES: list[tuple[str, Callable[[Any, Any], Any], Callable[[int, int], int], int]] = [
    ("x % 16 * 8", lambda x, y: x % 16 * 8, lambda x, y: _c_mod(x, 16) * 8, 8),
    ("(x * 8) % 64", lambda x, y: (x * 8) % 64, lambda x, y: _c_mod(x * 8, 64), 8),
    ("(x * 12) % 18", lambda x, y: (x * 12) % 18, lambda x, y: _c_mod(x * 12, 18), 6),
    ("x << 3", lambda x, y: x << 3, lambda x, y: x << 3, 8),
    ("(y * 4) << 2", lambda x, y: (y * 4) << 2, lambda x, y: (y * 4) << 2, 16),
    ("x * 8 + y * 12", lambda x, y: x * 8 + y * 12, lambda x, y: x * 8 + y * 12, 4),
    ("x * 8 - 24", lambda x, y: x * 8 - 24, lambda x, y: x * 8 - 24, 8),
    ("x * 8 // 2", lambda x, y: x * 8 // 2, lambda x, y: int(x * 8 / 2), 1),
]


@pytest.mark.parametrize(("text", "traced", "value", "divisor"), RULES,
                         ids=[r[0] for r in RULES])
def test_divisor_rules(text: str, traced: Callable[[Any, Any], Any],
                       value: Callable[[int, int], int], divisor: int) -> None:
    with _trace():
        got = traced(_leaf("x"), _leaf("y"))
        assert isinstance(got, RunTimeInt)
        assert got.divisor == divisor, text
    for x, y in itertools.product(range(-40, 41), range(-7, 8)):
        assert value(x, y) % divisor == 0, (text, x, y)


def test_a_leaf_handed_to_user_code_keeps_its_divisor() -> None:
    with _trace():
        stride = _leaf("stride", 8)
        user = user_value(stride)  # what tensor.layout gives: an Int32
        assert isinstance(user, Int32)
        assert divisor_of(user) == 8
        back = leaf_in(user)  # user code gives it back to a layout (make_layout(..., stride))
        assert isinstance(back, RunTimeInt) and back.divisor == 8
        assert (back * 3).divisor == 24
        # facts of one value combine
        stride.divisor = 12
        assert stride.divisor == 24


def test_offset_facts_agree_where_a_carried_offset_keeps_them() -> None:
    with _trace():
        eight, other_eight, four = _leaf("a", 8), _leaf("b", 8), _leaf("c", 4)
        assert OffsetFacts([eight]) == OffsetFacts([other_eight])
        assert OffsetFacts([eight]) != OffsetFacts([four])  # divisibility changed in the loop
        assert OffsetFacts([eight]) == OffsetFacts([16]) == OffsetFacts([0])
        assert OffsetFacts([eight]) != OffsetFacts([4])  # a static 4 is not a multiple of 8
        assert OffsetFacts([3]) == OffsetFacts([5])
        assert OffsetFacts([3]) != OffsetFacts([four])  # (either way round: one rule)
        assert OffsetFacts([eight, 0]) != OffsetFacts([eight])
        rebuilt = OffsetFacts([eight, 4]).apply([_leaf("v"), _leaf("w")])
        assert [r.divisor for r in rebuilt] == [8, 1]


def test_a_swizzled_views_offset_spells_its_divisor() -> None:
    with _trace():
        inner = Layout((8, 8), (8, 1))
        known = ComposedLayout(Swizzle(3, 3, 3), _leaf("off", 8), inner)
        assert "with_divisibility<8>(off)" in expr_text(cxx_value(known))
        assert "bbx::multiple_of<8>" in type_text(cxx_type(known))
        unknown = ComposedLayout(Swizzle(3, 3, 3), _leaf("off"), inner)
        assert "with_divisibility" not in expr_text(cxx_value(unknown))
        static = ComposedLayout(Swizzle(3, 3, 3), 16, inner)
        assert "with_divisibility" not in expr_text(cxx_value(static))
