"""Calls that used to kill the process or corrupt it, one case per process (issue 33):
`bbx run tests/e2e/launch_faults.py CASE`. Each case prints `OK <what>` when the result is
correct (checked against torch on random inputs); errors bbx raises on purpose reach the user as
bbx's one-line message (exit status 1), never a crash.

    rms-ok           RMSNorm over 8 rows of 1000: correct (the default checks refuse nothing)
    rms-short-out    RMSNorm whose output has 2 rows for an input of 8: refused before launch;
                     with BBX_CHECK_ARGS=0, the simulator stops the write past the output
    shift-ok         a kernel storing y[i + offset] = x[i] with offset 0: correct
    shift-out        the same with offset 64: the last block writes past y (an index computed
                     from a scalar, which no argument check sees): a kernel error
    long             long simulator launches (64M elements each) for a Ctrl-C test: prints
                     `launching`, then KeyboardInterrupt reaches this code (printed, re-raised)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cutlass
import cutlass.cute as cute
import torch
import torch.nn.functional as F
from cutlass.cute.runtime import from_dlpack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "samples"))
import elementwise_add  # noqa: E402
import rmsnorm  # noqa: E402

THREADS = 128
#: launches of 64M elements by the `long` case (one takes about 1 s on a 2-core machine)
LONG_LAUNCHES = 60


@cute.kernel
def shift_kernel(mX: cute.Tensor, mY: cute.Tensor, offset: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * THREADS + tidx
    mY[i + offset] = mX[i]


@cute.jit
def shift(mX: cute.Tensor, mY: cute.Tensor, offset: cutlass.Int32):
    shift_kernel(mX, mY, offset).launch(grid=[mX.shape[0] // THREADS, 1, 1],
                                        block=[THREADS, 1, 1])


def rms(rows_out: int) -> None:
    n = 1000
    x, w = torch.randn(8, n), torch.randn(n)
    y = torch.full((rows_out, n), float("nan"))
    op = rmsnorm.RMSNorm(n)
    tw = from_dlpack(w.view(1, n), assumed_align=16)
    op(rmsnorm.row_major(y), rmsnorm.row_major(x), tw, cutlass.Float32(1e-6))
    ref = F.rms_norm(x.double(), (n,), w.double(), 1e-6).float()
    torch.testing.assert_close(y, ref[:rows_out], rtol=1e-5, atol=1e-5)
    print(f"OK rmsnorm {rows_out} rows")


def shift_case(offset: int) -> None:
    n = 4 * THREADS
    x, y = torch.randn(n), torch.randn(n)
    before = y.clone()
    shift(from_dlpack(x).mark_layout_dynamic(), from_dlpack(y).mark_layout_dynamic(), offset)
    expected = before.clone()
    expected[offset:] = x[: n - offset]
    torch.testing.assert_close(y, expected, rtol=0, atol=0)
    print(f"OK shift by {offset}")


def long() -> None:
    def dyn(t: torch.Tensor) -> object:
        return from_dlpack(t, assumed_align=16).mark_layout_dynamic(leading_dim=1)

    small = [torch.randn(64, 1024) for _ in range(3)]
    compiled = cute.compile(elementwise_add.elementwise_add, *(dyn(t) for t in small))
    a, b, c = (torch.randn(8192, 8192) for _ in range(3))
    print("launching", flush=True)
    start = time.perf_counter()
    try:
        for _ in range(LONG_LAUNCHES):  # well past the test's SIGINT, however fast the machine
            compiled(dyn(a), dyn(b), dyn(c))
    except KeyboardInterrupt:
        print(f"KeyboardInterrupt reached the script after {time.perf_counter() - start:.2f} s",
              flush=True)
        raise
    print(f"OK finished in {time.perf_counter() - start:.2f} s")


CASES = {"rms-ok": lambda: rms(8), "rms-short-out": lambda: rms(2),
         "shift-ok": lambda: shift_case(0), "shift-out": lambda: shift_case(64), "long": long}

if __name__ == "__main__":
    CASES[sys.argv[1]]()
