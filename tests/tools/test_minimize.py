"""Shrinking a failing mutant: statements go while the failure stays."""

from __future__ import annotations

import libcst as cst

from bbx.tools.minimize import shrink

SOURCE = """\
import cutlass
import cutlass.cute as cute

SIZE = 4


@cute.kernel
def kernel(a: cute.Tensor):
    x = a[0]
    for i in cutlass.range_constexpr(SIZE):
        if i > 1:
            x = x + a[i]
            BUG(x)
        a[i] = x
    a[0] = x


@cute.jit
def host(a: cute.Tensor):
    kernel(a).launch(grid=(1, 1, 1), block=(32, 1, 1))
"""


def _first_with_bug(sources: list[str]) -> str | None:
    return next((s for s in sources if "BUG(x)" in s), None)


def test_everything_but_the_failing_statement_and_its_enclosing_blocks_goes() -> None:
    tries: list[int] = []

    def counting(sources: list[str]) -> str | None:
        tries.append(len(sources))
        return _first_with_bug(sources)

    smaller = shrink(SOURCE, counting, batch=2)
    cst.parse_module(smaller)
    assert "BUG(x)" in smaller
    lines = [line.strip() for line in smaller.splitlines() if line.strip()]
    assert lines == [
        "@cute.kernel",
        "def kernel(a: cute.Tensor):",
        "for i in cutlass.range_constexpr(SIZE):",
        "if i > 1:",
        "BUG(x)",
    ]
    assert all(n <= 2 for n in tries)


def test_a_source_that_fails_only_whole_is_kept_whole() -> None:
    whole = SOURCE

    def only_whole(sources: list[str]) -> str | None:
        return next((s for s in sources if s == whole), None)

    assert shrink(SOURCE, only_whole, batch=3) == SOURCE
