"""Python's `math` (and `int()`, `/`, `min`) on numbers that only C++ knows when it instantiates
the kernel — an element type's width, a Constexpr integer — computed by bbx/layout/static_math.hpp,
against Python's own math on fresh random integers, on the CPU simulator.

The kernel also uses one result as a static extent (`cute.make_layout(int(math.log2(n)) + 1)`),
which only compiles if the value is a static integer."""

from __future__ import annotations

import random

from transpiler.conftest import run_driver_on_simulator

#: The expressions, as written in the kernel and as the reference evaluates them (n: the
#: Constexpr integer, w: the element width of mB).
EXPRESSIONS = [
    "math.log2(n * w)",
    "math.log(n)",
    "math.log10(n)",
    "math.sqrt(n)",
    "math.floor(n / 7)",
    "math.ceil(n / 7)",
    "math.trunc(w / 3)",
    "math.isqrt(n)",
    "math.gcd(n, w)",
    "math.lcm(n, w)",
    "int(math.log2(min(n, 1024 // w)))",
    "float(n) / 4",
]

KERNEL = """\
import math

import cutlass
import cutlass.cute as cute


@cute.kernel
def values(mA: cute.Tensor, mB: cute.Tensor, n: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    w = mB.element_type.width
    extent = cute.make_layout(int(math.log2(n)) + 1)
    if tidx == 0:
{stores}
        mA[{count}] = cutlass.Float32(cute.size(extent))


@cute.jit
def run(mA: cute.Tensor, mB: cute.Tensor, n: cutlass.Constexpr):
    values(mA, mB, n).launch(grid=[1, 1, 1], block=[32, 1, 1])
"""

DRIVER = """\
import math

import torch
from cutlass.cute.runtime import from_dlpack

from static_math_kernel import run

EXPRESSIONS = {expressions!r}
for n in {ns!r}:
    for dtype, w in ((torch.float32, 32), (torch.float16, 16), (torch.int8, 8)):
        out = torch.zeros(len(EXPRESSIONS) + 1, dtype=torch.float32)
        run(from_dlpack(out), from_dlpack(torch.zeros(4, dtype=dtype)), n)
        want = [float(eval(e)) for e in EXPRESSIONS] + [int(math.log2(n)) + 1]
        for e, got, ref in zip(EXPRESSIONS + ["extent"], out.tolist(), want):
            assert abs(got - ref) <= 1e-6 * max(1.0, abs(ref)), (n, w, e, got, ref)
print("PASS")
"""


def test_static_math_matches_python(tmp_path) -> None:
    rng = random.Random()
    ns = [rng.randrange(2, 5000) for _ in range(2)] + [2 ** rng.randrange(1, 12)]
    stores = "\n".join(
        f"        mA[{i}] = cutlass.Float32({e})" for i, e in enumerate(EXPRESSIONS)
    )
    kernel = KERNEL.format(stores=stores, count=len(EXPRESSIONS))
    driver = DRIVER.format(expressions=EXPRESSIONS, ns=ns)
    run_driver_on_simulator(tmp_path, {"static_math_kernel.py": kernel}, driver)
