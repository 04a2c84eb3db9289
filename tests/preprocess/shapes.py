"""Control-flow shapes for the preprocessor's equivalence test: each function is run as written
and rewritten (with Python values only) on the same inputs; the results must be equal.

`SHAPES` maps each function to the argument tuples it is called with."""

from __future__ import annotations

import functools
from typing import Any


def range_constexpr(*args: int) -> range:  # the DSL's name; Python semantics
    return range(*args)


def const_expr(x: Any) -> Any:
    return x


def nested_loops(n: int, m: int) -> list[tuple[int, int]]:
    out = []
    for i in range(n):
        for j in range(i, m):
            if (i + j) % 3 == 0:
                continue
            if j > i + 2:
                break
            out.append((i, j))
    return out


def for_else(xs: list[int], k: int) -> tuple[int, int]:
    found = -1
    steps = 0
    for x in xs:
        steps += 1
        if x == k:
            found = x
            break
    else:
        found = -2
    for i in range(len(xs)):
        if xs[i] > 100:
            break
    else:
        steps += 1000
    return found, steps


def while_else(n: int) -> tuple[int, int]:
    i = 0
    total = 0
    while i < n:
        i += 1
        if i % 2:
            continue
        total += i
        if total > 20:
            break
    else:
        total = -total
    return i, total


def elif_chain(x: int) -> str:
    if x < 0:
        r = "neg"
    elif x == 0:
        r = "zero"
    elif x < 10:
        if x % 2 == 0:
            r = "small-even"
        else:
            r = "small-odd"
    elif const_expr(x > 1000):
        r = "huge"
    else:
        r = "big"
    return r


def early_return(xs: list[int]) -> int:
    total = 0
    for i in range(len(xs)):
        if xs[i] < 0:
            return -i
        while total > 50:
            if total > 80:
                return total
            total -= 7
        total += xs[i]
    if total == 0:
        return 12345
    return total


def carried_tuple(n: int) -> tuple[int, int, tuple[int, ...]]:
    a, b = 0, 1
    hist: tuple[int, ...] = ()
    for _ in range(n):
        a, b = b, a + b
        if a % 2 == 0:
            hist = (*hist, a)
    pair = (a, b)
    k = 0
    while k < 3:
        pair = (pair[1], pair[0])
        k += 1
    return pair[0], pair[1], hist


def comprehensions(n: int) -> tuple[list[int], dict[int, int], int]:
    scale = 3
    squares = [i * i * scale for i in range(n) if i % 2 == 0]
    table = {i: (i if i > 2 else -i) for i in range(n)}
    total = sum(x for x in squares if x > 10 and x < 500)
    if n > 3:
        scale = 5
        squares = [s + scale for s in squares]
    return squares, table, total


def closures(n: int) -> tuple[int, list[int]]:
    count = 0
    seen = []

    def bump(k: int) -> int:
        nonlocal count
        count += k
        return count

    def peek() -> int:
        return count * 10

    for i in range(n):
        if i % 2 == 0:
            bump(i)
        else:
            seen.append(peek())
    return count, seen


def nested_def_in_branch(flag: bool, x: int) -> int:
    if flag:
        def helper(y: int) -> int:
            if y > 3:
                return y * 2
            return -y
    else:
        def helper(y: int) -> int:
            return y + 100
    total = 0
    for i in range(x):
        total += helper(i)
    return total


class Counter:
    def __init__(self) -> None:
        self.value = 0
        self.__secret = 7
        self.log: list[str] = []

    def step(self, n: int) -> int:
        for i in range(n):
            if i % 3 == 0:
                self.value += self.__secret
                self.log.append(f"hit {i}")
            elif i % 3 == 1:
                self.value -= 1
            else:
                self._note(i)
        return self.value

    def _note(self, i: int) -> None:
        self.log.append(f"note {i}")


class Base:
    def describe(self, x: int) -> str:
        return f"base{x}"


class Derived(Base):
    def describe(self, x: int) -> str:
        if x > 2:
            return "derived:" + super().describe(x)
        parts = []
        for i in range(x):
            parts.append(super().describe(i))
        return ",".join(parts)


def method_step(n: int) -> tuple[int, list[str]]:
    c = Counter()
    v = c.step(n)
    return v, c.log


def uses_partial(n: int) -> list[int]:
    def scaled(x: int, *, by: int) -> int:
        if x > by:
            return x * by
        return x - by

    f = functools.partial(scaled, by=3)
    out = []
    for i in range(n):
        out.append(f(i))
    return out


def assigned_in_one_branch(x: int) -> int:
    if x > 0:
        y = x * 2
    if x > 5:
        return y
    return -1


def unbound_after_branch(x: int) -> int:
    if x > 0:
        z = 1
    return z  # an UnboundLocalError when x <= 0, rewritten or not


def loop_variable_after(n: int) -> int:
    i = -5
    for i in range(n):  # noqa: B007 - read after the loop
        pass
    j = 0
    for j in range(n):
        if j == 2:
            break
    return i * 100 + j


def constexpr_loops(n: int) -> list[int]:
    out = []
    for i in range_constexpr(4):
        if i == n:
            continue
        out.append(i)
        if len(out) > 2:
            break
    w = 0
    while const_expr(w < n):
        w += 1
        if w > 6:
            break
    out.append(w)
    return out


def boolean_ops(a: int, b: int) -> tuple[Any, ...]:
    c = a and b
    d = a or b
    e = not a
    f = 0 < a < b
    g = a if a > b else b
    h = (a > 0 and b > 0) or (a < 0 and not b)
    k = a < b <= 3 != a
    return c, d, e, f, g, h, k


def walrus_and_while(xs: list[int]) -> list[int]:
    out = []
    i = 0
    while (v := (xs[i] if i < len(xs) else None)) is not None:
        i += 1
        if v < 0:
            continue
        out.append(v)
    if (n := len(out)) > 2:
        out.append(n)
    return out


def try_in_loop(xs: list[int]) -> list[str]:
    out = []
    for x in xs:
        try:
            if x == 0:
                raise ValueError("zero")
            out.append(str(10 // x))
        except ValueError as e:
            out.append(str(e))
            continue
        finally:
            out.append("f")
        if x > 3:
            break
    return out


def with_in_branch(n: int) -> list[str]:
    import contextlib

    log = []

    @contextlib.contextmanager
    def ctx(tag: str) -> Any:
        log.append("enter " + tag)
        yield tag
        log.append("exit " + tag)

    for i in range(n):
        if i % 2 == 0:
            with ctx(str(i)) as t:
                if i > 2:
                    log.append("big " + t)
                    break
    return log


def deep_nesting(n: int) -> int:
    total = 0
    for a in range(n):
        for b in range(3):
            k = 0
            while k < 3:
                k += 1
                if (a + b + k) % 4 == 0:
                    break
                elif (a * b) % 3 == 1:
                    continue
                else:
                    for c in range(2):
                        if c and a > 2:
                            return total + 1000
                        total += a + b + c + k
            else:
                total -= 1
    return total


def global_reader(n: int) -> int:
    total = 0
    for i in range(n):
        if i < LIMIT:
            total += SCALE * i
    return total


LIMIT = 4
SCALE = 3


def star_targets(n: int) -> tuple[int, list[int]]:
    first = -1
    rest: list[int] = []
    for i in range(n):
        if i > 1:
            first, *rest = [i, i + 1, i + 2]
    return first, rest


def delete_in_branch(x: int) -> int:
    y = 5
    if x > 0:
        del y
        y = 10 * x
    return y


def annotated_in_branches(n: int) -> tuple[int, int]:
    """Annotated names bound inside control flow: in the rewrite they are `nonlocal` in the
    region functions, where Python refuses an annotation."""
    total: int = 0
    if n > 2:
        step: int = 3
        for i in range(n):
            bump: int = i * step
            total += bump
    else:
        declared_only: int  # noqa: F842 - an annotation that binds nothing
        total = -n
    while total > 20:
        half: int = total // 2
        total = half
    return total, n


def builtins_of_python_values(n: int) -> tuple[Any, ...]:
    """max/min/any/all of Python values: the redirect leaves them Python's."""
    xs = [(i * 7) % 5 for i in range(n + 1)]
    return max(xs), min(xs, default=-1), max(n, 2), min(3, n, key=lambda v: -v), \
        any(x > 3 for x in xs), all(xs)


SHAPES: dict[Any, list[tuple[Any, ...]]] = {
    builtins_of_python_values: [(n,) for n in range(6)],
    annotated_in_branches: [(n,) for n in range(8)],
    nested_loops: [(n, m) for n in range(5) for m in range(6)],
    for_else: [([1, 2, 3], 2), ([1, 2, 3], 9), ([], 1), ([200, 1], 1), ([5, 101], 7)],
    while_else: [(n,) for n in range(12)],
    elif_chain: [(x,) for x in (-3, 0, 1, 2, 9, 10, 500, 2000)],
    early_return: [([1, 2, 3],), ([30, 40, 50, 60],), ([5, -1, 3],), ([],), ([0, 0],),
                   ([49, 49, 49],)],
    carried_tuple: [(n,) for n in range(8)],
    comprehensions: [(n,) for n in range(7)],
    closures: [(n,) for n in range(6)],
    nested_def_in_branch: [(f, x) for f in (True, False) for x in range(6)],
    method_step: [(n,) for n in range(7)],
    uses_partial: [(n,) for n in range(7)],
    assigned_in_one_branch: [(x,) for x in (-1, 0, 3, 6, 9)],
    unbound_after_branch: [(x,) for x in (-1, 0, 1)],
    loop_variable_after: [(n,) for n in range(5)],
    constexpr_loops: [(n,) for n in range(-1, 9)],
    boolean_ops: [(a, b) for a in (-2, 0, 1, 3) for b in (-1, 0, 2, 4)],
    walrus_and_while: [([1, -2, 3],), ([],), ([4, 5, 6, -1],)],
    try_in_loop: [([1, 0, 2, 5, 1],), ([0, 0],), ([4],)],
    with_in_branch: [(n,) for n in range(7)],
    deep_nesting: [(n,) for n in range(6)],
    global_reader: [(n,) for n in range(8)],
    star_targets: [(n,) for n in range(5)],
    delete_in_branch: [(x,) for x in (-1, 2)],
}

METHODS: list[tuple[Any, Any, list[tuple[Any, ...]]]] = [
    (Derived, Derived.describe, [(x,) for x in range(5)]),
    (Counter, Counter.step, [(n,) for n in range(6)]),
]
