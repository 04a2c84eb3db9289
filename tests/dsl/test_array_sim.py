"""`cutlass.Array` in registers and in shared memory, as a view of global memory and of a
tensor (`make_array_view`): element and coordinate indexing (`a[i]` is the element i places
after the base, `a[i, j]` goes through the row-major strides), vector loads and stores,
`subview` and `data_ptr`, run on the CPU simulator against numpy."""

from __future__ import annotations

from pathlib import Path

from transpiler.conftest import run_driver_on_simulator

KERNELS = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def array_kernel(mX: cute.Tensor, mM: cute.Tensor, mO: cute.Tensor, mV: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    # registers: a running sum through an 8-element array
    acc = cutlass.Array(cutlass.Float32, 8)
    for k in cutlass.range_constexpr(8):
        acc[k] = mX[tidx * 8 + k]
    for k in cutlass.range_constexpr(7):
        acc[k + 1] = acc[k + 1] + acc[k]
    mO[tidx, 0] = acc[7]
    mO[tidx, 1] = acc.load(3)
    # shared memory, (32, 2) row-major: each thread writes its row, reads its neighbour's
    s = cutlass.Array(cutlass.Float32, (32, 2), space=cutlass.AddressSpace.smem, alignment=16)
    s[tidx, 0] = acc[7]
    s[tidx, 1] = acc[0]
    cute.arch.sync_threads()
    nb = (tidx + 1) % 32
    mO[tidx, 2] = s[nb, 0]
    mO[tidx, 3] = s[nb * 2 + 1]                      # one index: linear, whatever the rank
    # a view of global memory: four elements at once, stored four later
    g = cutlass.Array(mX.iterator, shape=256)
    v = g.load(tidx * 8, vector_size=4)
    out = cutlass.Array(mV.iterator, shape=256)
    out.store(v, tidx * 8 + 4)
    out.store(g[tidx * 8 + 4] * 2.0, tidx * 8)
    sub = g.subview(tidx * 8 + 2)
    mO[tidx, 4] = sub[1]
    p = g.data_ptr(tidx * 8 + 6)
    mO[tidx, 5] = cute.make_tensor(p, cute.make_layout(1))[0]
    # a tensor seen as an Array: its own strides for coordinates, linear for one index
    m = cutlass.make_array_view(mM)
    mO[tidx, 6] = m[tidx % 4, tidx % 8]
    mO[tidx, 7] = m[tidx]


@cute.jit
def run_all(mX: cute.Tensor, mM: cute.Tensor, mO: cute.Tensor, mV: cute.Tensor):
    array_kernel(mX, mM, mO, mV).launch(grid=[1, 1, 1], block=[32, 1, 1])
'''

DRIVER = '''
import numpy as np
import torch
from cutlass.cute.runtime import from_dlpack

from array_kernels import run_all

rng = np.random.default_rng()
X = rng.standard_normal(256).astype(np.float32)
M = rng.standard_normal((4, 8)).astype(np.float32)
O = torch.zeros((32, 8), dtype=torch.float32)
V = torch.zeros(256, dtype=torch.float32)
run_all(*(from_dlpack(t) for t in (torch.from_numpy(X), torch.from_numpy(M), O, V)))

o = O.numpy()
rows = X.reshape(32, 8)
csum = np.cumsum(rows, axis=1, dtype=np.float32)
np.testing.assert_allclose(o[:, 0], csum[:, 7], rtol=1e-6)
np.testing.assert_allclose(o[:, 1], csum[:, 3], rtol=1e-6)
nb = (np.arange(32) + 1) % 32
np.testing.assert_allclose(o[:, 2], csum[nb, 7], rtol=1e-6)
np.testing.assert_array_equal(o[:, 3], rows[nb, 0])
v = V.numpy().reshape(32, 8)
np.testing.assert_array_equal(v[:, 4:8], rows[:, 0:4])
np.testing.assert_array_equal(v[:, 0], rows[:, 4] * 2)
np.testing.assert_array_equal(o[:, 4], rows[:, 3])
np.testing.assert_array_equal(o[:, 5], rows[:, 6])
t = np.arange(32)
np.testing.assert_array_equal(o[:, 6], M[t % 4, t % 8])
np.testing.assert_array_equal(o[:, 7], M.reshape(-1)[t])
print("PASS")
'''


def test_array_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"array_kernels.py": KERNELS}, DRIVER)


SLICED = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def sliced_kernel(src: cutlass.Array, dst: cutlass.Array, total: cutlass.Array,
                  valid: cutlass.Int32, V: cutlass.Constexpr[int]):
    tx, _, _ = cute.arch.thread_idx()
    idx = tx * V
    # a[start:count] is the DSL's vector access (count elements from start, not Python's stop)
    total[idx:V] = src[idx:V] + dst[idx:V]
    mask = cutlass.Array(cutlass.Boolean, V)
    for i in range(V):
        mask[i] = (idx + i) < valid
    data = src.masked_load(idx, V, mask, default=cutlass.Float32(-7.0))
    dst.masked_store(idx, data * 2.0, mask)
    vec = src.load(idx, V, alignment=V * 4)
    total.store(vec + total.load(idx, vector_size=V), idx, V)


@cute.jit
def sliced(src: cutlass.Array, dst: cutlass.Array, total: cutlass.Array, valid: cutlass.Int32,
           V: cutlass.Constexpr[int]):
    sliced_kernel(src, dst, total, valid, V).launch(grid=(1, 1, 1), block=(src.shape[0] // V, 1, 1))
'''

SLICED_DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from sliced_kernels import sliced

for vector in (4, 8):
    src = torch.randn(32)
    dst = torch.randn(32)
    total = torch.full((32,), float("nan"))
    before = dst.clone()
    sliced(from_dlpack(src, assumed_align=16), from_dlpack(dst, assumed_align=16),
           from_dlpack(total, assumed_align=16), 29, vector)
    torch.testing.assert_close(total, 2 * src + before)
    expected = before.clone()
    expected[:29] = 2 * src[:29]
    assert torch.equal(dst, expected), (dst, expected)
print("PASS")
'''


def test_array_slices_and_masked_accesses_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"sliced_kernels.py": SLICED}, SLICED_DRIVER)
