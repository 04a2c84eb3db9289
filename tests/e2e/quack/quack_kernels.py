"""QuACK's softmax and cross-entropy kernels, unmodified, through bbx (run by test_quack.py with
`bbx run`, BBX_STAGED=1, in the test-only environment of scripts/setup_quack.sh).

Each case calls QuACK's public functions (forward and backward, by autograd where QuACK does) on
fresh random inputs and compares with torch in float64. Prints one line per case and `PASS n`
at the end; exits non-zero at the first mismatch."""

from __future__ import annotations

import sys
import time

import torch
import torch.nn.functional as F
from quack.cross_entropy import cross_entropy
from quack.softmax import softmax

# QuACK's own tolerances (tests/test_softmax.py, tests/test_cross_entropy.py)
SOFTMAX_TOL = {torch.bfloat16: 1e-2, torch.float16: 1e-3, torch.float32: 1e-4}
CROSS_ENTROPY_TOL = (5e-5, 1e-5)


def check_softmax(m: int, n: int, dtype: torch.dtype) -> None:
    x = (0.1 * torch.randn(m, n, device="cuda", dtype=dtype)).requires_grad_()
    out = softmax(x)
    dy = torch.randn_like(out)
    (dx,) = torch.autograd.grad(out, x, grad_outputs=dy)
    x64 = x.detach().double().requires_grad_()
    ref = torch.softmax(x64, dim=-1)
    (dx_ref,) = torch.autograd.grad(ref, x64, grad_outputs=dy.double())
    tol = SOFTMAX_TOL[dtype]
    torch.testing.assert_close(out.double(), ref, atol=tol, rtol=tol)
    torch.testing.assert_close(dx.double(), dx_ref, atol=tol, rtol=tol)


def check_cross_entropy(m: int, n: int, dtype: torch.dtype, weighted: bool) -> None:
    x = (0.1 * torch.randn(m, n, device="cuda", dtype=dtype)).requires_grad_()
    target = torch.randint(0, n, (m,), device="cuda", dtype=torch.int64)
    target[torch.rand(m, device="cuda") < 0.3] = -100  # ignored rows
    weight = (torch.rand(n, device="cuda") + 0.1) if weighted else None
    loss = cross_entropy(x, target, weight=weight, reduction="none")
    dloss = torch.randn_like(loss)
    (dx,) = torch.autograd.grad(loss, x, grad_outputs=dloss)
    x64 = x.detach().double().requires_grad_()
    ref = F.cross_entropy(x64, target, weight=None if weight is None else weight.double(),
                          reduction="none")
    (dx_ref,) = torch.autograd.grad(ref, x64, grad_outputs=dloss.double())
    atol, rtol = CROSS_ENTROPY_TOL
    torch.testing.assert_close(loss.double(), ref, atol=atol, rtol=rtol)
    # dx is stored in the input dtype: compare with the reference rounded to it
    torch.testing.assert_close(dx, dx_ref.to(dtype), atol=atol, rtol=rtol)


def main() -> int:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else time.time_ns() % 2**31
    torch.manual_seed(seed)
    print(f"seed {seed}")
    passed = 0
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        # 4096 columns: two warps per row (the packed max/sum exchange of the online softmax);
        # its float32 backward tile (64 KiB + 16 B) is over gfx942's LDS (64 KiB)
        shapes = ((1, 192), (37, 760)) + (((5, 4096),) if dtype.itemsize == 2 else ((5, 1024),))
        for m, n in shapes:
            check_softmax(m, n, dtype)
            print(f"softmax {m}x{n} {dtype}: ok")
            passed += 1
    for dtype in (torch.float32, torch.bfloat16):
        for m, n, weighted in ((3, 192, False), (17, 1128, True)):
            check_cross_entropy(m, n, dtype, weighted)
            print(f"cross_entropy {m}x{n} {dtype} weight={weighted}: ok")
            passed += 1
    print(f"PASS {passed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
