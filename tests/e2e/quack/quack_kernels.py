"""QuACK's softmax, cross-entropy, RMSNorm and LayerNorm kernels, unmodified, through bbx (run
by test_quack.py with `bbx run`, BBX_STAGED=1, in the test-only environment of
scripts/setup_quack.sh).

Each case calls QuACK's public functions (forward and backward, by autograd where QuACK does) on
fresh random inputs and compares with torch in float64. Prints one line per case and `PASS n`
at the end; exits non-zero at the first mismatch."""

from __future__ import annotations

import sys
import time

import torch
import torch.nn.functional as F
from quack.cross_entropy import cross_entropy
from quack.rmsnorm import layernorm_bwd, layernorm_fwd, rmsnorm
from quack.softmax import softmax

# QuACK's own tolerances (tests/test_softmax.py, tests/test_cross_entropy.py)
SOFTMAX_TOL = {torch.bfloat16: 1e-2, torch.float16: 1e-3, torch.float32: 1e-4}
CROSS_ENTROPY_TOL = (5e-5, 1e-5)
NORM_TOL = {torch.bfloat16: 1e-1, torch.float16: 1e-2, torch.float32: 1e-4}  # tests/test_rmsnorm.py


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


def check_rmsnorm(m: int, n: int, dtype: torch.dtype, weight_dtype: torch.dtype | None) -> None:
    """Forward and backward by autograd (dx and dw), against float64 from the same inputs."""
    x = torch.randn(m, n, device="cuda", dtype=dtype, requires_grad=True)
    w = (torch.randn(n, device="cuda", dtype=weight_dtype, requires_grad=True)
         if weight_dtype is not None else None)
    out = rmsnorm(x, w, eps=1e-6)
    dout = torch.randn_like(out)
    out.backward(dout)
    x64 = x.detach().double().requires_grad_()
    w64 = w.detach().double().requires_grad_() if w is not None else None
    ref = x64 * torch.rsqrt(x64.pow(2).mean(-1, keepdim=True) + 1e-6)
    ref = ref * w64 if w64 is not None else ref
    ref.backward(dout.double())
    tol = NORM_TOL[dtype]
    torch.testing.assert_close(out.double(), ref, atol=tol, rtol=1e-3)
    torch.testing.assert_close(x.grad.double(), x64.grad, atol=tol, rtol=1e-3)
    if w is not None:
        # summed over the rows in another order: the error grows with sqrt(m); a 16-bit
        # weight's gradient is rounded to it (QuACK's rule: 2 ulp of the largest gradient)
        w_tol = (5e-6 * m**0.5 if weight_dtype == torch.float32
                 else 2 * torch.finfo(weight_dtype).eps * float(w64.grad.abs().max()))
        torch.testing.assert_close(w.grad.double(), w64.grad, atol=w_tol, rtol=1e-3)


def check_layernorm(m: int, n: int, dtype: torch.dtype) -> None:
    """layernorm_fwd (with rstd and mean) then layernorm_bwd on what it stored."""
    x = torch.randn(m, n, device="cuda", dtype=dtype)
    w = torch.randn(n, device="cuda", dtype=torch.float32)
    out, rstd, mean = layernorm_fwd(x, w, eps=1e-6, return_rstd=True, return_mean=True)
    dout = torch.randn_like(x)
    dx, dw, db = layernorm_bwd(x, w, dout, rstd, mean, has_bias=True)
    x64 = x.double().requires_grad_()
    w64 = w.double().requires_grad_()
    b64 = torch.zeros(n, dtype=torch.float64, device="cuda", requires_grad=True)
    ref = torch.nn.functional.layer_norm(x64, (n,), w64, b64, eps=1e-6)
    ref.backward(dout.double())
    tol = NORM_TOL[dtype]
    torch.testing.assert_close(out.double(), ref, atol=tol, rtol=1e-3)
    torch.testing.assert_close(mean.double(), x64.detach().mean(-1), atol=6e-4, rtol=6e-4)
    torch.testing.assert_close(dx.double(), x64.grad, atol=tol, rtol=1e-3)
    sum_tol = 5e-6 * m**0.5 if dtype == torch.float32 else 1e-3 * m**0.5
    torch.testing.assert_close(dw.double(), w64.grad, atol=sum_tol, rtol=1e-3)
    torch.testing.assert_close(db.double(), b64.grad, atol=sum_tol, rtol=1e-3)


def main() -> int:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else time.time_ns() % 2**31
    torch.manual_seed(seed)
    print(f"seed {seed}")
    passed = 0
    f32, bf16, f16 = torch.float32, torch.bfloat16, torch.float16
    # every dtype, a single and a multi-row block, one and several warps per row (4096 columns:
    # the packed max/sum exchange of the online softmax; its float32 backward tile, 64 KiB + 16 B,
    # is over gfx942's LDS, so float32 takes 1024), odd widths (760, 1128: predicated tails)
    for m, n, dtype in ((1, 192, f32), (5, 1024, f32), (37, 760, bf16), (5, 4096, bf16),
                        (1, 192, f16)):
        check_softmax(m, n, dtype)
        print(f"softmax {m}x{n} {dtype}: ok")
        passed += 1
    for m, n, dtype, weighted in ((3, 192, f32, False), (17, 1128, bf16, True)):
        check_cross_entropy(m, n, dtype, weighted)
        print(f"cross_entropy {m}x{n} {dtype} weight={weighted}: ok")
        passed += 1
    for m, n, dtype, weight_dtype in ((37, 760, f32, f32), (1, 192, bf16, None),
                                      (37, 760, f16, bf16)):
        check_rmsnorm(m, n, dtype, weight_dtype)
        print(f"rmsnorm {m}x{n} {dtype} weight={weight_dtype}: ok")
        passed += 1
    for m, n, dtype in ((3, 256, f32), (37, 1128, bf16)):
        check_layernorm(m, n, dtype)
        print(f"layernorm {m}x{n} {dtype}: ok")
        passed += 1
    print(f"PASS {passed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
