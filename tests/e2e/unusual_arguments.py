"""Unusual but legal arguments passed to the compiled elementwise_add sample (issue 18), one case
per process: `bbx run tests/e2e/unusual_arguments.py CASE` (any target; BBX_TARGET=cuda on an
NVIDIA GPU). Each case prints `OK <what>` when bbx did the right thing; errors bbx raises on
purpose reach the user as bbx's one-line message (exit status 1).

    empty          every tensor empty (0 rows, then 0 columns): no launch, c untouched
    empty-one      only `a` empty, b and c 200x515: refused before launch (shape agreement);
                   with BBX_CHECK_ARGS=0 a kernel error on the simulator (division by zero),
                   never a crash
    wide-refused   a 32-bit specialization called with a 2049 x 2^20 int8 tensor (an expanded
                   view: no memory): refused before launch, naming the argument
    wide-runs      a call with a tensor whose strides span more than 2^31 bytes (two rows 2^31
                   bytes apart in one allocation) gets a 64-bit specialization and is correct
    half-rows      b with half the rows of a and c: refused before launch (shape agreement);
                   with BBX_CHECK_ARGS=0 a kernel error on the simulator (a read outside b)
    resized        b resize_()d to half its rows after from_dlpack: refused before launch
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import cutlass.cute as cute
import torch
from cutlass.cute.runtime import from_dlpack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "samples"))
import elementwise_add as sample  # noqa: E402

DEVICE = "cuda" if os.environ.get("BBX_TARGET") == "cuda" else "cpu"


def dyn(t: torch.Tensor) -> object:
    return from_dlpack(t, assumed_align=16).mark_layout_dynamic(leading_dim=1)


def sync() -> None:
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def _tensors(m: int, n: int, dtype: torch.dtype = torch.float32) -> list[torch.Tensor]:
    if dtype.is_floating_point:
        return [torch.randn(m, n, device=DEVICE, dtype=dtype) for _ in range(3)]
    return [torch.randint(-100, 100, (m, n), device=DEVICE, dtype=dtype) for _ in range(3)]


def empty() -> None:
    a, b, c = _tensors(200, 515)
    compiled = cute.compile(sample.elementwise_add, dyn(a), dyn(b), dyn(c))
    for shape in ((0, 515), (200, 0)):
        ea, eb, ec = (torch.empty(shape, device=DEVICE) for _ in range(3))
        compiled(dyn(ea), dyn(eb), dyn(ec))
        sample.elementwise_add(dyn(ea), dyn(eb), dyn(ec))  # the direct call as well
    sync()
    compiled(dyn(a), dyn(b), dyn(c))  # and the specialization still works
    sync()
    torch.testing.assert_close(c, a + b)
    print("OK empty problems launch nothing")


def empty_one() -> None:
    a, b, c = _tensors(200, 515)
    compiled = cute.compile(sample.elementwise_add, dyn(a), dyn(b), dyn(c))
    compiled(dyn(torch.empty(0, 515, device=DEVICE)), dyn(b), dyn(c))
    sync()
    print("OK launched")  # not reached on the simulator or in checked mode


def wide_refused() -> None:
    a, b, c = _tensors(4, 1024, torch.int8)
    compiled = cute.compile(sample.elementwise_add, dyn(a), dyn(b), dyn(c))
    wide = torch.ones(1, 1 << 20, dtype=torch.int8, device=DEVICE).expand(2049, 1 << 20)
    compiled(dyn(wide), dyn(wide), dyn(wide))
    print("OK launched")  # not reached: refused before launch


def wide_runs() -> None:
    n = 4096
    base = torch.empty((1 << 31) + 2 * n, dtype=torch.int8, device=DEVICE)  # touched: 2 rows
    c = base.as_strided((2, n), (1 << 31, 1))
    c.fill_(0)
    a, b = (torch.randint(-100, 100, (2, n), dtype=torch.int8, device=DEVICE) for _ in range(2))
    sample.elementwise_add(dyn(a), dyn(b), dyn(c))
    sync()
    torch.testing.assert_close(c, a + b)
    print("OK a 64-bit specialization computed a tensor spanning more than 2^31 bytes")


def half_rows() -> None:
    a, b, c = _tensors(200, 515)
    compiled = cute.compile(sample.elementwise_add, dyn(a), dyn(b), dyn(c))
    compiled(dyn(a), dyn(b[:100]), dyn(c))
    sync()
    print("OK launched")  # not reached in checked mode


def resized() -> None:
    a, b, c = _tensors(200, 515)
    compiled = cute.compile(sample.elementwise_add, dyn(a), dyn(b), dyn(c))
    tb = dyn(b)
    b.resize_(100, 515)  # after from_dlpack: the wrapper must see the tensor as it is now
    compiled(dyn(a), tb, dyn(c))
    sync()
    print("OK launched")  # not reached


CASES = {"empty": empty, "empty-one": empty_one, "wide-refused": wide_refused,
         "wide-runs": wide_runs, "half-rows": half_rows, "resized": resized}

if __name__ == "__main__":
    CASES[sys.argv[1]]()
