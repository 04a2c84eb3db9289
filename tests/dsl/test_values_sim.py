"""Register-value helpers (`cutlass.Vector.from_elements`, `to_elements`, `bitcast`, `apply_op`,
`with_signedness`, `cutlass.full`), `cutlass.max` / `cutlass.min` over mixed and NaN operands, and
`cutlass.utils.LayoutEnum.from_tensor`, run on the CPU simulator against numpy."""

from __future__ import annotations

from pathlib import Path

from transpiler.conftest import run_driver_on_simulator

KERNELS = '''
import operator

import cutlass
import cutlass.cute as cute


@cute.kernel
def values_kernel(mX: cute.Tensor, mI: cute.Tensor, mO: cute.Tensor, mB: cute.Tensor,
                  mM: cute.Tensor, mE: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    a = mX[tidx, 0]
    b = mX[tidx, 1]
    c = mX[tidx, 2]
    v = cutlass.Vector.from_elements((a, b, c, a + b), cutlass.Float32)
    e = v.to_elements()
    mO[tidx, 0] = e[3]
    xs = cute.local_tile(mX, (1, 3), (tidx, 0)).load()   # a TensorSSA (a Vector has no apply_op)
    w = xs.apply_op(operator.sub, 1.0, flip=True)         # 1 - xs
    mO[tidx, 1] = w[1]                                   # (0, 1) of the (1, 3) value
    f = cutlass.full((2, 2), c)                           # four copies of c
    mO[tidx, 2] = f.reduce("add")
    bits = v.bitcast(cutlass.Int32)
    mB[tidx, 0] = bits.to_elements()[2]
    i = mI[tidx]
    u = cute.TensorSSA.from_elements((i, i), cutlass.Int32).with_signedness(False)
    mB[tidx, 1] = (u >> 28).to_elements()[0]             # unsigned shift of i's bits
    mM[tidx, 0] = cutlass.max(a, b, c)
    mM[tidx, 1] = cutlass.min(a, 0.25)
    mM[tidx, 2] = cutlass.Float32(cutlass.max(i, 7))      # Int32 with Int32
    mM[tidx, 3] = cutlass.max(i, 0.5)                     # Int32 with Float32: Float32
    if tidx == 0:
        row = cutlass.utils.LayoutEnum.from_tensor(mX)
        col = cutlass.utils.LayoutEnum.from_tensor(cute.make_tensor(
            mX.iterator, cute.make_layout((4, 4), stride=(1, 4))))
        mE[0] = cutlass.Int32(cutlass.const_expr(row == cutlass.utils.LayoutEnum.ROW_MAJOR))
        mE[1] = cutlass.Int32(cutlass.const_expr(col == cutlass.utils.LayoutEnum.COL_MAJOR))
        mE[2] = cutlass.Int32(row.is_k_major_a())
        mE[3] = cutlass.Int32(col.is_m_major_c())


@cute.jit
def run_all(mX: cute.Tensor, mI: cute.Tensor, mO: cute.Tensor, mB: cute.Tensor,
            mM: cute.Tensor, mE: cute.Tensor):
    values_kernel(mX, mI, mO, mB, mM, mE).launch(grid=[1, 1, 1], block=[32, 1, 1])
'''

DRIVER = '''
import numpy as np
import torch
from cutlass.cute.runtime import from_dlpack

from values_kernels import run_all

rng = np.random.default_rng()
X = rng.standard_normal((32, 3)).astype(np.float32)
X[5, 1] = np.nan                                     # cutlass.max propagates NaN
I = rng.integers(-2**31, 2**31, 32).astype(np.int32)
O = torch.zeros((32, 3), dtype=torch.float32)
B = torch.zeros((32, 2), dtype=torch.int32)
M = torch.zeros((32, 4), dtype=torch.float32)
E = torch.full((4,), -1, dtype=torch.int32)
run_all(*(from_dlpack(t) for t in (torch.from_numpy(X), torch.from_numpy(I), O, B, M, E)))

o, b, m = O.numpy(), B.numpy(), M.numpy()
np.testing.assert_array_equal(o[:, 0], X[:, 0] + X[:, 1])
np.testing.assert_array_equal(o[:, 1], np.float32(1) - X[:, 1])
np.testing.assert_array_equal(o[:, 2], 4 * X[:, 2])
assert (b[:, 0] == X[:, 2].view(np.int32)).all(), "bitcast"
assert (b[:, 1] == (I.view(np.uint32) >> 28)).all(), "with_signedness(False)"
np.testing.assert_array_equal(m[:, 0], np.maximum(np.maximum(X[:, 0], X[:, 1]), X[:, 2]))
assert np.isnan(m[5, 0]), "cutlass.max propagates NaN (arith.maximumf)"
np.testing.assert_array_equal(m[:, 1], np.minimum(X[:, 0], np.float32(0.25)))
np.testing.assert_array_equal(m[:, 2], np.maximum(I, 7).astype(np.float32))
np.testing.assert_array_equal(m[:, 3], np.maximum(I.astype(np.float32), np.float32(0.5)))
assert E.tolist() == [1, 1, 1, 1], E
print("PASS")
'''


def test_values_minmax_layout_enum_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"values_kernels.py": KERNELS}, DRIVER)
