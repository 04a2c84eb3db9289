"""`cute.math.*` run on the CPU simulator against numpy in float64, on fresh random inputs of
each function's domain: one kernel applies every scalar function (a row of a (functions, n)
tensor each), a second applies them to register values (TensorSSA) loaded from 1x4 tiles, a
third checks the integer functions and the predicates on NaN, infinities and subnormals."""

from __future__ import annotations

from pathlib import Path

from transpiler.conftest import run_driver_on_simulator

N = 256  # elements per function row: 4 blocks of 64 threads, 4 elements per thread for SSA

#: (DSL expression of a and b, numpy float64 reference of a and b, input domain of a, of b).
#: Domains: "any" |x| log-uniform in [1e-3, 1e3] with either sign; "unit" [-1, 1]; "pos"
#: positive; ">1" [1, 1e3]; "small" [-5, 5]; "half" exact halves in [-8, 8] (rounding ties).
FLOAT_FUNCS: list[tuple[str, str, str, str]] = [
    ("cute.math.acos(a)", "np.arccos(a)", "unit", "any"),
    ("cute.math.asin(a)", "np.arcsin(a)", "unit", "any"),
    ("cute.math.atan(a)", "np.arctan(a)", "any", "any"),
    ("cute.math.acosh(a)", "np.arccosh(a)", ">1", "any"),
    ("cute.math.asinh(a)", "np.arcsinh(a)", "any", "any"),
    ("cute.math.atanh(a)", "np.arctanh(a)", "unit", "any"),
    ("cute.math.sinh(a)", "np.sinh(a)", "small", "any"),
    ("cute.math.cosh(a)", "np.cosh(a)", "small", "any"),
    ("cute.math.tan(a)", "np.tan(a)", "unit", "any"),
    ("cute.math.cbrt(a)", "np.cbrt(a)", "any", "any"),
    ("cute.math.erfc(a)", "erfc(a)", "small", "any"),
    ("cute.math.erf(a)", "erf(a)", "small", "any"),
    ("cute.math.expm1(a)", "np.expm1(a)", "small", "any"),
    ("cute.math.log1p(a)", "np.log1p(a)", "pos", "any"),
    ("cute.math.log10(a)", "np.log10(a)", "pos", "any"),
    ("cute.math.exp(a)", "np.exp(a)", "small", "any"),
    ("cute.math.exp2(a)", "np.exp2(a)", "small", "any"),
    ("cute.math.log(a)", "np.log(a)", "pos", "any"),
    ("cute.math.log2(a)", "np.log2(a)", "pos", "any"),
    ("cute.math.sqrt(a)", "np.sqrt(a)", "pos", "any"),
    ("cute.math.rsqrt(a)", "1 / np.sqrt(a)", "pos", "any"),
    ("cute.math.sin(a)", "np.sin(a)", "small", "any"),
    ("cute.math.cos(a)", "np.cos(a)", "small", "any"),
    ("cute.math.tanh(a)", "np.tanh(a)", "small", "any"),
    ("cute.math.round(a)", "np.trunc(a + np.copysign(0.5, a))", "half", "any"),
    ("cute.math.roundeven(a)", "np.round(a)", "half", "any"),
    ("cute.math.trunc(a)", "np.trunc(a)", "half", "any"),
    ("cute.math.ceil(a)", "np.ceil(a)", "any", "any"),
    ("cute.math.floor(a)", "np.floor(a)", "any", "any"),
    ("cute.math.abs(a)", "np.abs(a)", "any", "any"),
    ("cute.math.neg(a)", "-a", "any", "any"),
    ("cute.math.rcp(a)", "1 / a", "any", "any"),
    ("cute.math.atan2(a, b)", "np.arctan2(a, b)", "any", "any"),
    ("cute.math.pow(a, b)", "np.power(a, b)", "pos", "small"),
    ("cute.math.copysign(a, b)", "np.copysign(a, b)", "any", "any"),
    ("cute.math.rem(a, b)", "np.fmod(a, b)", "any", "any"),
    ("cute.math.add(a, b)", "a + b", "any", "any"),
    ("cute.math.sub(a, b)", "a - b", "any", "any"),
    ("cute.math.mul(a, b)", "a * b", "any", "any"),
    ("cute.math.div(a, b)", "a / b", "any", "any"),
    ("cute.math.max(a, b)", "np.maximum(a, b)", "any", "any"),
    ("cute.math.min(a, b)", "np.minimum(a, b)", "any", "any"),
    ("cute.math.fma(a, b, a)", "a * b + a", "any", "any"),
    ("cute.math.clamp(a, -0.5, b)", "np.maximum(-0.5, np.minimum(a, b))", "unit", "pos"),
    ("cute.math.fpowi(a, 3)", "a ** 3", "any", "any"),
    ("cute.math.sincos(a)[0]", "np.sin(a)", "small", "any"),
]

KERNEL_HEAD = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def scalar_kernel(mA: cute.Tensor, mB: cute.Tensor, mO: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * 64 + tidx
'''

SSA_HEAD = '''

@cute.kernel
def ssa_kernel(mA: cute.Tensor, mB: cute.Tensor, mO: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    j = bidx * 16 + tidx
'''

TAIL = '''

@cute.kernel
def int_kernel(mI: cute.Tensor, mJ: cute.Tensor, mIO: cute.Tensor, mS: cute.Tensor,
               mP: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * 64 + tidx
    a = mI[0, i]
    b = mJ[0, i]
    mIO[0, i] = cute.math.absi(a)
    mIO[1, i] = cute.math.max(a, b)
    mIO[2, i] = cute.math.min(a, b)
    mIO[3, i] = cute.math.ipowi(a, 3)
    mIO[4, i] = cute.math.clamp(a, -100, 100)
    s = mS[i]
    mP[0, i] = cutlass.Int32(cute.math.isnan(s))
    mP[1, i] = cutlass.Int32(cute.math.isinf(s))
    mP[2, i] = cutlass.Int32(cute.math.isfinite(s))
    mP[3, i] = cutlass.Int32(cute.math.isnormal(s))
    mP[4, i] = cutlass.Int32(cute.math.isnan(cute.math.max(s, s, propagate_nan=True)))
    mP[5, i] = cutlass.Int32(cute.math.isnan(cute.math.max(s, 1.0)))


@cute.jit
def run_all(mA: cute.Tensor, mB: cute.Tensor, mO: cute.Tensor, mOs: cute.Tensor,
            mI: cute.Tensor, mJ: cute.Tensor, mIO: cute.Tensor, mS: cute.Tensor,
            mP: cute.Tensor):
    scalar_kernel(mA, mB, mO).launch(grid=[4, 1, 1], block=[64, 1, 1])
    ssa_kernel(mA, mB, mOs).launch(grid=[4, 1, 1], block=[16, 1, 1])
    int_kernel(mI, mJ, mIO, mS, mP).launch(grid=[4, 1, 1], block=[64, 1, 1])
'''


def kernel_source() -> str:
    lines = [KERNEL_HEAD]
    for k, (expr, _, _, _) in enumerate(FLOAT_FUNCS):
        lines.append(f"    a = mA[{k}, i]\n    b = mB[{k}, i]\n    mO[{k}, i] = {expr}\n")
    lines.append(SSA_HEAD)
    for k, (expr, _, _, _) in enumerate(FLOAT_FUNCS):
        lines.append(
            f"    a = cute.local_tile(mA, (1, 4), ({k}, j)).load()\n"
            f"    b = cute.local_tile(mB, (1, 4), ({k}, j)).load()\n"
            f"    cute.local_tile(mO, (1, 4), ({k}, j)).store({expr})\n"
        )
    lines.append(TAIL)
    return "".join(lines)


DRIVER = '''
import math
import numpy as np
import torch
from cutlass.cute.runtime import from_dlpack

from math_kernels import run_all
from test_table import FLOAT_FUNCS, N

rng = np.random.default_rng()
erf = np.vectorize(math.erf)
erfc = np.vectorize(math.erfc)


def domain(name):
    if name == "any":
        return np.exp(rng.uniform(np.log(1e-3), np.log(1e3), N)) * rng.choice([-1.0, 1.0], N)
    if name == "unit":
        return rng.uniform(-0.999, 0.999, N)
    if name == "pos":
        return np.exp(rng.uniform(np.log(1e-3), np.log(1e3), N))
    if name == ">1":
        return 1.0 + np.exp(rng.uniform(np.log(1e-3), np.log(1e3), N))
    if name == "small":
        return rng.uniform(-5.0, 5.0, N)
    if name == "half":
        return rng.integers(-16, 17, N) * 0.5
    raise ValueError(name)


F = len(FLOAT_FUNCS)
A = np.stack([domain(d) for _, _, d, _ in FLOAT_FUNCS]).astype(np.float32)
B = np.stack([domain(d) for _, _, _, d in FLOAT_FUNCS]).astype(np.float32)
a_t, b_t = torch.from_numpy(A), torch.from_numpy(B)
o_t = torch.full((F, N), float("nan"))
os_t = torch.full((F, N), float("nan"))

I = rng.integers(-1000, 1000, (1, N)).astype(np.int32)
J = rng.integers(-1000, 1000, (1, N)).astype(np.int32)
io_t = torch.zeros((5, N), dtype=torch.int32)
specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-42, 1.0, -3.5, 3e38],
                    dtype=np.float32)
S = rng.choice(specials, N).astype(np.float32)
p_t = torch.full((6, N), -1, dtype=torch.int32)

run_all(*(from_dlpack(t) for t in (a_t, b_t, o_t, os_t, torch.from_numpy(I),
                                   torch.from_numpy(J), io_t, torch.from_numpy(S), p_t)))

a64, b64 = A.astype(np.float64), B.astype(np.float64)
for k, (expr, ref, _, _) in enumerate(FLOAT_FUNCS):
    a, b = a64[k], b64[k]
    want = eval(ref).astype(np.float32).astype(np.float64)
    for what, got in (("scalar", o_t[k].numpy()), ("TensorSSA", os_t[k].numpy())):
        got = got.astype(np.float64)
        err = np.abs(got - want) / np.maximum(np.abs(want), 1e-30)
        bad = ~((err <= 4e-6) | (np.abs(got - want) <= 1e-6))
        assert not bad.any(), (expr, what, a[bad][:4], b[bad][:4], got[bad][:4], want[bad][:4])

i64, j64 = I[0].astype(np.int64), J[0].astype(np.int64)
io = io_t.numpy()
assert (io[0] == np.abs(i64)).all(), "absi"
assert (io[1] == np.maximum(i64, j64)).all() and (io[2] == np.minimum(i64, j64)).all(), "max/min"
assert (io[3] == ((i64 ** 3 + 2**31) % 2**32 - 2**31)).all(), "ipowi wraps like int32"
assert (io[4] == np.clip(i64, -100, 100)).all(), "clamp"
p = p_t.numpy()
assert (p[0] == np.isnan(S)).all(), "isnan"
assert (p[1] == np.isinf(S)).all(), "isinf"
assert (p[2] == np.isfinite(S)).all(), "isfinite"
normal = np.isfinite(S) & (np.abs(S) >= np.finfo(np.float32).tiny)
assert (p[3] == normal).all(), "isnormal"
assert (p[4] == np.isnan(S)).all(), "max(propagate_nan=True) keeps NaN"
assert (p[5] == 0).all(), "max ignores a NaN operand"
print("PASS")
'''


def test_math_on_simulator(tmp_path: Path) -> None:
    table = f"N = {N}\nFLOAT_FUNCS = {FLOAT_FUNCS!r}\n"
    run_driver_on_simulator(
        tmp_path, {"math_kernels.py": kernel_source(), "test_table.py": table}, DRIVER
    )
