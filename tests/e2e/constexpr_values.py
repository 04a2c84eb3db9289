"""Constexpr values of any width and of the wrong type (issue 33), one case per process:
`bbx run tests/e2e/constexpr_values.py CASE`. Each case prints `OK <what>` when the kernel
computed what torch computes; a refusal is bbx's located message (exit status 1).

    wide-ints      `mC[i] = mA[i] + k` for Constexpr ints past 32 bits (2^32 + 5, -2^40, -2^63,
                   2^62 + 3) and `mA[i] * (copy_bits // 2^30)` with copy_bits = 2^32
    wide-extent    a static extent 2^31 + 64 (a from_dlpack'd expanded view, stride 0)
    fake-extent    the same through make_fake_tensor and cute.compile
    int32-value    elementwise_add with copy_bits=cutlass.Int32(128): the value 128, the same
                   specialization as copy_bits=128
    annotated      a `Constexpr[int]` parameter given 3 (computes) and then "3" (refused)
    str / none / float / huge   elementwise_add with copy_bits "128", None, 128.0, 2**70
"""

from __future__ import annotations

import sys
from pathlib import Path

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import from_dlpack, make_fake_tensor

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "samples"))
import elementwise_add as sample  # noqa: E402


@cute.kernel
def add_const_kernel(gA: cute.Tensor, gC: cute.Tensor, k: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    if tidx < cute.size(gA):
        gC[tidx] = gA[tidx] + k


@cute.jit
def add_const(mA: cute.Tensor, mC: cute.Tensor, k: cutlass.Constexpr):
    add_const_kernel(mA, mC, k).launch(grid=[1, 1, 1], block=[64, 1, 1])


@cute.kernel
def scale_kernel(gA: cute.Tensor, gC: cute.Tensor, factor: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    if tidx < cute.size(gA):
        gC[tidx] = gA[tidx] * factor


@cute.jit
def scale_by_bits(mA: cute.Tensor, mC: cute.Tensor, copy_bits: cutlass.Constexpr = 128):
    scale_kernel(mA, mC, copy_bits // 2**30).launch(grid=[1, 1, 1], block=[64, 1, 1])


@cute.jit
def add_annotated(mA: cute.Tensor, mC: cute.Tensor, k: cutlass.Constexpr[int]):
    add_const_kernel(mA, mC, k).launch(grid=[1, 1, 1], block=[64, 1, 1])


@cute.kernel
def size_kernel(gA: cute.Tensor, gO: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    if tidx == 0:
        gO[0] = cute.size(gA)
        gO[1] = gA[cute.size(gA) - 1]


@cute.jit
def wide_size(mA: cute.Tensor, mO: cute.Tensor):
    size_kernel(mA, mO).launch(grid=[1, 1, 1], block=[32, 1, 1])


def _ints(n: int = 64) -> torch.Tensor:
    return torch.randint(0, 1 << 20, (n,), dtype=torch.int64)


def wide_ints() -> None:
    for k in (2**32 + 5, -(2**40), -(2**63), 2**62 + 3):
        a = _ints()
        c = torch.zeros_like(a)
        add_const(from_dlpack(a), from_dlpack(c), k)
        assert torch.equal(c, a + k), (k, c[:4], a[:4] + k)
    a = torch.randn(64)
    c = torch.full_like(a, float("nan"))
    scale_by_bits(from_dlpack(a), from_dlpack(c), copy_bits=2**32)
    torch.testing.assert_close(c, a * 4)
    print("OK wide ints")


def wide_extent(fake: bool) -> None:
    n = 2**31 + 64
    fill = int(torch.randint(1, 1000, ()).item())
    a = torch.full((1,), fill, dtype=torch.int64).expand(n)  # no memory: stride 0
    o = torch.zeros(2, dtype=torch.int64)
    if fake:
        compiled = cute.compile(wide_size, make_fake_tensor(cutlass.Int64, (n,), (0,)),
                                make_fake_tensor(cutlass.Int64, (2,), (1,)))
        compiled(from_dlpack(a), from_dlpack(o))
    else:
        wide_size(from_dlpack(a), from_dlpack(o))
    assert o.tolist() == [n, fill], o
    print("OK wide extent")


def elementwise(copy_bits: object) -> None:
    a, b = torch.randn(64, 256), torch.randn(64, 256)
    c = torch.full_like(a, float("nan"))
    compiled = cute.compile(sample.elementwise_add, from_dlpack(a), from_dlpack(b),
                            from_dlpack(c), copy_bits=copy_bits)
    compiled(from_dlpack(a), from_dlpack(b), from_dlpack(c))
    torch.testing.assert_close(c, a + b)
    same = cute.compile(sample.elementwise_add, from_dlpack(a), from_dlpack(b),
                        from_dlpack(c), copy_bits=128)
    assert same.specs["copy_bits"] == compiled.specs["copy_bits"], compiled.specs
    print("OK computed")


def annotated() -> None:
    a = _ints()
    c = torch.zeros_like(a)
    add_annotated(from_dlpack(a), from_dlpack(c), 3)
    assert torch.equal(c, a + 3)
    print("OK annotated")
    add_annotated(from_dlpack(a), from_dlpack(c), "3")


def main(case: str) -> None:
    if case == "wide-ints":
        wide_ints()
    elif case in ("wide-extent", "fake-extent"):
        wide_extent(case == "fake-extent")
    elif case == "int32-value":
        elementwise(cutlass.Int32(128))
    elif case == "annotated":
        annotated()
    else:
        elementwise({"str": "128", "none": None, "float": 128.0, "huge": 2**70}[case])


if __name__ == "__main__":
    main(sys.argv[1])
