"""DSL-style functions traced by the tests of `bbx.trace` (run-time parameters are proxies).

Run as plain Python (numbers for every argument) they are the reference: static DSL numbers
compute in Python with the DSL's types."""

from __future__ import annotations

from typing import Any

from bbx.trace.scalar import Boolean, Float32, Int32, Int64


def range_constexpr(*args: Any) -> range:
    """The DSL's name (`cutlass.range_constexpr`); plain Python when run untraced."""
    return range(*args)


def const_expr(x: Any) -> Any:
    return x


def clamp_if(x: Any, lo: Any, hi: Any) -> Any:
    r = x
    if x < lo:
        r = lo
    elif x > hi:
        r = hi
    return r


def sum_below(a: Any, n: Any) -> Any:
    acc = 0
    odd = 0
    for i in range(n):
        if a > i:
            acc += i
        else:
            acc = acc - 1
        if i % 2 == 1:
            odd = odd + 1
    return acc * 100 + odd


def gcd_while(a: Any, b: Any) -> Any:
    steps = 0
    while b != 0:
        a, b = b, a % b
        steps += 1
    return a * 1000 + steps


def fib_tuple(n: Any) -> Any:
    pair = (0, 1)
    for _ in range(n):
        pair = (pair[1], pair[0] + pair[1])
    lo, hi = 0, 1
    for _ in range(n):
        lo, hi = hi, lo + hi
    return pair[0] * 1000 + lo


def mixed_conditions(x: Any, flag: bool, k: int) -> Any:
    y = x
    if flag:  # Python: no C++
        y = y * 2
    else:
        y = y - 3
    if k > 2:  # Python
        y = y + k
    if x > 5:  # run-time
        y = y + 1
    return y


def unrolled(x: Any, n: int) -> Any:
    acc = x
    for i in range_constexpr(4):
        acc = acc * 2 + i
    for j in range(n):  # a Python bound: unrolled as Python runs it
        acc = acc - j
    return acc


def floats_and_casts(x: Any, y: Any) -> Any:
    f = Float32(x) / 4
    g = x / y  # Int32 / Int32 is Float32
    h = Float32(x) // 3
    q = x // 3  # floor division, as Python and the DSL
    r = Int32(f * 3.0)  # truncation toward zero
    return f + g + h + Float32(q) + Float32(r)


def booleans(a: Any, b: Any) -> Any:
    both = a > 0 and b > 0
    either = a > 5 or b < -5
    between = 0 < a < b
    v = a if a > b else b
    out = 0
    if both:
        out = out + 1
    if not either:
        out = out + 10
    if between:
        out = out + 100
    if not (a == b):
        out = out + 1000
    return out + v * 10000


def while_turns_dynamic(x: Any) -> Any:
    k = 0
    total = Int32(0)
    while k < 3 or x > k:  # Python for three iterations, then a C++ loop
        total = total + k
        k = k + 1
    return total


def stepped_ranges(n: Any, s: Any) -> Any:
    down = 0
    for i in range(n, 0, -1):
        down = down * 3 + i
    by_two = 0
    for i in range(1, n, 2):
        by_two += i
    dyn = 0
    for i in range(0, n, s):  # a run-time step (positive here)
        dyn += i
    return (down % 1000) * 1000000 + by_two * 1000 + dyn


def negative_dynamic_step(n: Any, s: Any) -> Any:
    acc = 0
    for i in range(n, -n, s):  # s < 0
        acc = acc + i * i
    return acc


def nested_loops(n: Any, m: Any) -> Any:
    total = 0
    for i in range(n):
        row = 0
        for j in range(m):
            if (i + j) % 3 == 0:
                row = row + j
            else:
                row = row - 1
        total = total + row * i
    k = Int32(0)
    while k < n:
        k = k + 2
    return total * 10 + k


def int64_mix(a: Any, b: Any) -> Any:
    big = Int64(a) * 1000000
    small = b + 1
    acc = Int64(0)
    for i in range(b):
        acc = acc + big + i
    return acc + small


def bits(a: Any, b: Any) -> Any:
    x = (a & 0xFF) | (b << 3)
    y = x ^ (a >> 2)
    z = ~y
    return (x + y + z) % 100000


def carried_float(x: Any, n: Any) -> Any:
    acc = Float32(0.0)
    scale = 0.5
    for _ in range(n):
        acc = acc * scale + Float32(x)
        if acc > 100.0:
            acc = acc - 100.0
    return acc


def boolean_carried(a: Any, n: Any) -> Any:
    seen = Boolean(False)
    count = 0
    for i in range(n):
        hit = (a + i) % 4 == 0
        if hit:
            seen = Boolean(True)
            count += 1
    return count * 10 + Int32(seen)


# -- for the diagnostics tests ------------------------------------------------------------------


def type_change(n: Any) -> Any:
    acc = 0
    for _ in range(n):
        acc = acc + 0.5
    return acc


def helper_with_python_if(x: Any) -> Any:  # not preprocessed: a plain helper
    if x > 0:
        return x
    return -x


def calls_helper(x: Any) -> Any:
    y = x + 1
    return helper_with_python_if(y)


def int_of_proxy(x: Any) -> Any:
    n = x * 2
    return int(n)


def break_in_dynamic(n: Any) -> Any:
    acc = 0
    for i in range(n):
        if i > 3:
            break
        acc = acc + i
    return acc


def return_in_dynamic_if(x: Any) -> Any:
    if x > 0:
        return x
    return -x


def one_branch_only(x: Any) -> Any:
    if x > 0:
        y = x + 1
    return y + 1


def escaped_value(x: Any) -> Any:
    box = []
    if x > 0:
        box.append(x * 3)
    return box[0]


def const_expr_of_proxy(x: Any) -> Any:
    if const_expr(x > 0):
        return x
    return 0


def constexpr_range_of_proxy(n: Any) -> Any:
    acc = 0
    for i in range_constexpr(n):
        acc = acc + i
    return acc


def python_error(x: Any, k: int) -> Any:
    y = x + 1
    z = 10 // k
    return y + z


def branch_types(x: Any) -> Any:
    if x > 0:
        y = 1
    else:
        y = 2.5
    return y


def while_break(x: Any) -> Any:
    while x > 0:
        x = x - 1
        if x == 3:
            continue
    return x


# -- more shapes for the C++ tests --------------------------------------------------------------


class dsl:  # noqa: N801 - stands for the `cutlass` module (`cutlass.range(..., unroll=2)`)
    @staticmethod
    def range(*args: Any, **options: Any) -> range:
        return range(*args)


def dsl_range_options(x: Any, n: Any) -> Any:
    acc = 0
    for i in dsl.range(n, unroll=2):
        acc = acc + x * i
    for i in dsl.range(0, n, 1, unroll_full=True):
        acc = acc - i
    return acc


def python_exits_with_proxies(x: Any, stop: int) -> Any:
    acc = x
    for i in range(6):
        if i == stop:
            break
        acc = acc + i
    else:
        acc = acc * 2
    k = 0
    while k < 10:
        k += 1
        if k % 4 == 0:
            continue
        acc = acc + x
        if k > 7:
            break
    return acc


def _in_band(v: Any) -> Any:  # a plain helper: `s` is used twice
    s = v * v
    return (s > 50) & (s < 5000)


def while_condition_statements(x: Any) -> Any:
    n = x
    steps = 0
    while _in_band(n):
        n = n + 7
        steps = steps + 1
    else:
        steps = steps + 1000
    return n * 100000 + steps


class Scaler:
    """A method traced with `self` static: its attributes are trace-time Python values."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.calls = 0

    def apply(self, x: Any, n: Any) -> Any:
        self.calls += 1
        acc = x
        for i in range(n):
            acc = acc * self.k + i
            if acc > 1000:
                acc = acc - 1000
        return acc
