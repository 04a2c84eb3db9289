"""Triton peers of the reduction samples, for `benchmarks/norm_bench.py`: textbook kernels with
one program per row, written after Triton's tutorials (02 "fused softmax": the whole row as one
block; 05 "layer norm": a loop over the row in blocks of at most 64 KB, one loop per pass).

Imported only where Triton is installed (the GPU machine). `TRITON_INTERPRET=1` runs them on
the CPU, which is how they were checked against torch without a GPU.
"""

from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl


def _softmax_warps(block: int) -> int:
    """The fused-softmax tutorial's choice of warps for a row block."""
    return 4 if block < 2048 else 8 if block < 4096 else 16


def _loop_block(n: int, element_size: int) -> tuple[int, int]:
    """The layer-norm tutorial's block (at most 64 KB of the row) and warps."""
    block = min(65536 // element_size, triton.next_power_of_2(n))
    return block, min(max(block // 256, 1), 8)


@triton.jit
def _softmax_kernel(y_ptr, x_ptr, x_stride, y_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor, y: torch.Tensor) -> None:
    m, n = x.shape
    block = triton.next_power_of_2(n)
    _softmax_kernel[(m,)](y, x, x.stride(0), y.stride(0), n, BLOCK=block,
                          num_warps=_softmax_warps(block))  # fmt: skip


@triton.jit
def _rmsnorm_kernel(y_ptr, x_ptr, w_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
        tl.store(y_ptr + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rmsnorm(x: torch.Tensor, w: torch.Tensor, y: torch.Tensor, eps: float) -> None:
    m, n = x.shape
    block, warps = _loop_block(n, x.element_size())
    _rmsnorm_kernel[(m,)](y, x, w, x.stride(0), n, eps, BLOCK=block, num_warps=warps)


@triton.jit
def _layernorm_kernel(y_ptr, x_ptr, w_ptr, b_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n_cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        x = tl.where(cols < n_cols, x - mean, 0.0)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=mask).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_ptr + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, y: torch.Tensor,
              eps: float) -> None:  # fmt: skip
    m, n = x.shape
    block, warps = _loop_block(n, x.element_size())
    _layernorm_kernel[(m,)](y, x, w, b, x.stride(0), n, eps, BLOCK=block, num_warps=warps)


@triton.jit
def _cross_entropy_kernel(loss_ptr, x_ptr, label_ptr, stride, n_cols, ignore_index,
                          BLOCK: tl.constexpr):  # fmt: skip
    row = tl.program_id(0)
    x_ptr += row * stride
    m = tl.full([BLOCK], -float("inf"), dtype=tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        # lanes that have seen only padding keep m == -inf: rescale against 0 there
        m_safe = tl.where(m_new == -float("inf"), 0.0, m_new)
        s = s * tl.exp(m - m_safe) + tl.exp(x - m_safe)
        m = m_new
    row_max = tl.max(m, axis=0)
    m_safe = tl.where(m == -float("inf"), row_max, m)
    lse = row_max + tl.log(tl.sum(s * tl.exp(m_safe - row_max), axis=0))
    label = tl.load(label_ptr + row)
    valid = label != ignore_index
    target = tl.load(x_ptr + tl.where(valid, label, 0)).to(tl.float32)
    tl.store(loss_ptr + row, tl.where(valid, lse - target, 0.0))


def cross_entropy(x: torch.Tensor, label: torch.Tensor, loss: torch.Tensor,
                  ignore_index: int = -100) -> None:  # fmt: skip
    m, n = x.shape
    block, warps = _loop_block(n, x.element_size())
    _cross_entropy_kernel[(m,)](loss, x, label, x.stride(0), n, ignore_index, BLOCK=block,
                                num_warps=warps)  # fmt: skip


def check(m: int = 5, n: int = 1000, dtype: Any = torch.float32, device: str = "cpu") -> None:
    """Every peer against torch (float64) on fresh random inputs."""
    import torch.nn.functional as F

    x = torch.randn(m, n, dtype=dtype, device=device) * 3 + 1
    w = torch.randn(n, dtype=dtype, device=device)
    b = torch.randn(n, dtype=dtype, device=device)
    label = torch.randint(0, n, (m,), device=device)
    label[::3] = -100
    y = torch.empty_like(x)
    loss = torch.empty(m, device=device)
    tol = {torch.float32: 1e-4, torch.bfloat16: 2e-2}[dtype]
    xd = x.double()
    softmax(x, y)
    torch.testing.assert_close(y.double(), torch.softmax(xd, -1), rtol=tol, atol=tol)
    rmsnorm(x, w, y, 1e-5)
    ref = F.rms_norm(xd, (n,), w.double(), 1e-5)
    torch.testing.assert_close(y.double(), ref, rtol=tol, atol=tol * 10)
    layernorm(x, w, b, y, 1e-5)
    ref = F.layer_norm(xd, (n,), w.double(), b.double(), 1e-5)
    torch.testing.assert_close(y.double(), ref, rtol=tol, atol=tol * 10)
    cross_entropy(x, label, loss)
    ref = F.cross_entropy(xd, label, ignore_index=-100, reduction="none")
    torch.testing.assert_close(loss.double(), ref, rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    for dt in (torch.float32, torch.bfloat16):
        for width in (1, 37, 1000, 4096, 70000):
            check(5, width, dt)
    print("triton peers: OK")
