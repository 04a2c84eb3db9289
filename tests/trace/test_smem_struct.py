"""`@cute.struct` shared storage by staged execution: the field offsets, sizes and alignments of
the DSL (C's rules, `Align` raising a field's), and a kernel that writes a struct's MemRange,
scalar and nested fields from random inputs and reads them back, against torch."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from bbx.trace.scalar import Float16, Float32, Float64, Int8, Int32, Int64
from bbx.trace.smem_struct import Align, MemRange, StructLayout, declare_struct, struct_layout

from .staged_script import run_staged


@declare_struct  # what `@cute.struct` does (cute.struct.MemRange/Align are these classes)
class Complex:
    real: Float32
    imag: Float32


@declare_struct
class Natural:
    values: MemRange[Float32, 64]
    counter: Int32
    flag: Int8
    wide: Float64
    half: MemRange[Float16, 3]
    pair: Complex


@declare_struct
class Aligned:  # the DSL's tutorial struct (smem_allocator.py): 512 bytes, aligned to 128
    a: MemRange[Float32, 32]
    b: Int64
    c: Complex
    x: Align[MemRange[Float32, 32], 128]
    y: Align[Int32, 8]
    z: Align[Complex, 16]


def _offsets(layout: StructLayout) -> dict[str, int]:
    return {f.name: f.offset for f in layout.fields}


def test_natural_alignment_is_c_layout_as_numpy_aligned_dtypes() -> None:
    pair = np.dtype([("real", np.float32), ("imag", np.float32)], align=True)
    reference = np.dtype([("values", np.float32, 64), ("counter", np.int32), ("flag", np.int8),
                          ("wide", np.float64), ("half", np.float16, 3), ("pair", pair)],
                         align=True)
    layout = struct_layout(Natural)
    assert _offsets(layout) == {name: reference.fields[name][1] for name in reference.names}
    assert layout.size == reference.itemsize
    assert layout.alignment == reference.alignment
    assert Natural.size_in_bytes() == reference.itemsize  # type: ignore[attr-defined]


def test_align_raises_a_field_alignment_and_the_struct_size() -> None:
    layout = struct_layout(Aligned)
    assert _offsets(layout) == {"a": 0, "b": 128, "c": 136, "x": 256, "y": 384, "z": 400}
    assert (layout.size, layout.alignment) == (512, 128)


SCRIPT = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack

N = {n}


@cute.struct
class Pair:
    lo: cutlass.Int32
    hi: cute.struct.Align[cutlass.Float32, 16]


@cute.struct
class Storage:
    count: cutlass.Int8
    data: cute.struct.Align[cute.struct.MemRange[cutlass.Float32, N + 1], 64]
    total: cutlass.Float64
    pair: Pair


@cute.kernel
def kernel(mX: cute.Tensor, mOut: cute.Tensor, mScalars: cute.Tensor, mPair: cute.Tensor,
           mRaw: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    smem = cutlass.utils.SmemAllocator()
    first = smem.allocate(cutlass.Int8)  # the struct is placed after it, at its alignment
    s = smem.allocate(Storage)
    sData = s.data.get_tensor(cute.make_layout(N))
    sData[tidx] = mX[tidx] * 2.0
    raw = smem.allocate(Storage.size_in_bytes(), byte_alignment=64)  # S(ptr): a view there
    Storage(raw).data.get_tensor(cute.make_layout(N))[tidx] = mX[tidx] + 1.0
    if tidx == 0:
        s.total = cutlass.Float64(mX[0]) + 1.0
        s.pair.lo = 7
        s.pair.hi.ptr.store(mX[1])
        s.data[N] = 3
    cute.arch.sync_threads()
    mRaw[tidx] = Storage(raw).data[tidx]
    if tidx == 0:
        mScalars[0] = s.total.load().to(cutlass.Float32)
        mScalars[1] = s.data[N]
        mPair[0] = s.pair.lo.load()
    if tidx < N - 1:
        mOut[tidx] = s.data.data_ptr().load() + sData[tidx]
    if tidx == N - 1:
        mOut[tidx] = s.pair.hi.load()


@cute.jit
def host(mX: cute.Tensor, mOut: cute.Tensor, mScalars: cute.Tensor, mPair: cute.Tensor,
         mRaw: cute.Tensor):
    kernel(mX, mOut, mScalars, mPair, mRaw).launch(grid=(1, 1, 1), block=(N, 1, 1))


x = torch.randn(N)
out, scalars = torch.full((N,), float("nan")), torch.full((2,), float("nan"))
pair = torch.zeros(1, dtype=torch.int32)
raw = torch.full((N,), float("nan"))
host(from_dlpack(x), from_dlpack(out), from_dlpack(scalars), from_dlpack(pair), from_dlpack(raw))
torch.testing.assert_close(raw, x + 1.0)
expected = x * 2.0 + x[0] * 2.0
expected[N - 1] = x[1]
torch.testing.assert_close(out, expected)
torch.testing.assert_close(scalars, torch.tensor([float(x[0].double() + 1.0), 3.0]))
assert pair.tolist() == [7], pair
print("PASS")
'''


def test_struct_fields_in_a_kernel(tmp_path: Path) -> None:
    n = random.choice([8, 32, 64])
    proc = run_staged(tmp_path, SCRIPT.format(n=n))
    assert proc.returncode == 0 and "PASS" in proc.stdout, (n, proc.stdout[-4000:])
