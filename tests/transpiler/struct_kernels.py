"""Kernels that stage data through @cute.struct shared storage, and their check against torch
(tests/transpiler/test_struct.py runs it on the simulator, benchmarks/device/cuda_struct_check.py
on an NVIDIA GPU)."""

import cutlass
import cutlass.cute as cute
import cutlass.utils


@cute.struct
class Pair:
    lo: cutlass.Float32
    hi: cutlass.Float32


class Reverse:
    """y: x reversed within each block; stats: first + last element of each block and a flag,
    all staged through a struct defined at trace time."""

    def __init__(self, threads: int = 64):
        self.threads = threads

    @cute.jit
    def __call__(self, mX: cute.Tensor, mY: cute.Tensor, mStats: cute.Tensor):
        layout = cute.make_layout(self.threads)

        @cute.struct
        class SharedStorage:
            count: cutlass.Int32
            stats: Pair
            buf: cute.struct.Align[cute.struct.MemRange[mX.element_type, cute.cosize(layout)], 128]
            flags: cute.struct.MemRange[cutlass.Int8, 3]

        self.shared_storage = SharedStorage
        n = cute.size(mX)
        self.kernel(mX, mY, mStats, layout).launch(
            grid=[n // self.threads, 1, 1],
            block=[self.threads, 1, 1],
            smem=SharedStorage.size_in_bytes(),
        )

    @cute.kernel
    def kernel(self, mX: cute.Tensor, mY: cute.Tensor, mStats: cute.Tensor, layout: cute.Layout):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        smem = cutlass.utils.SmemAllocator()
        storage = smem.allocate(self.shared_storage)
        sX = storage.buf.get_tensor(layout)
        i = bidx * self.threads + tidx
        sX[tidx] = mX[i]
        if tidx == 0:
            storage.stats.lo = mX[i]
            storage.flags[1] = 7
        if tidx == self.threads - 1:
            storage.stats.hi = mX[i]
        cute.arch.sync_threads()
        mY[i] = sX[self.threads - 1 - tidx]
        if tidx == 0:
            lo = cute.make_tensor(storage.stats.lo.ptr, cute.make_layout(1))
            hi = cute.make_tensor(storage.stats.hi.ptr, cute.make_layout(1))
            mStats[bidx, 0] = lo[0] + hi[0]
            mStats[bidx, 1] = cutlass.Float32(storage.flags[1])


@cute.kernel
def twice_kernel(mX: cute.Tensor, Storage: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    smem = cutlass.utils.SmemAllocator()
    st = smem.allocate(Storage)
    st.vals[tidx] = mX[tidx] * 2.0
    cute.arch.sync_threads()
    mX[tidx] = st.vals[31 - tidx]


@cute.jit
def twice_reversed(mX: cute.Tensor):
    @cute.struct
    class Storage:
        pad: cutlass.Int8
        vals: cute.struct.MemRange[cutlass.Float32, 32]

    twice_kernel(mX, Storage).launch(grid=[1, 1, 1], block=[32, 1, 1], smem=Storage.size_in_bytes())


@cute.kernel
def shift_kernel(mX: cute.Tensor):
    @cute.struct
    class Local:
        head: cutlass.Int64
        vals: cute.struct.Align[cute.struct.MemRange[mX.element_type, 32], 16]

    tidx, _, _ = cute.arch.thread_idx()
    storage = cutlass.utils.SmemAllocator().allocate(Local)
    storage.vals.get_tensor(cute.make_layout(32))[tidx] = mX[tidx]
    cute.arch.sync_threads()
    mX[tidx] = storage.vals[(tidx + 1) % 32]


@cute.jit
def rotate(mX: cute.Tensor):
    # head at 0, vals at 16 (Align 16): 144 bytes (checked mode reports a launch with less).
    shift_kernel(mX).launch(grid=[1, 1, 1], block=[32, 1, 1], smem=16 + 32 * 4)


def check_against_torch(device: str) -> None:
    """Runs the three kernels on fresh random inputs and compares with torch."""
    import torch
    from cutlass.cute.runtime import from_dlpack

    x = torch.randn(3 * 64, device=device)
    y = torch.full_like(x, float("nan"))
    stats = torch.full((3, 2), float("nan"), device=device)
    Reverse()(from_dlpack(x), from_dlpack(y), from_dlpack(stats))
    blocks = x.view(3, 64)
    torch.testing.assert_close(y.view(3, 64), blocks.flip(1))
    torch.testing.assert_close(stats[:, 0], blocks[:, 0] + blocks[:, 63])
    torch.testing.assert_close(stats[:, 1], torch.full((3,), 7.0, device=device))
    v = torch.randn(32, device=device)
    w = v.clone()
    twice_reversed(from_dlpack(w))
    torch.testing.assert_close(w, (v * 2).flip(0))
    r = v.clone()
    rotate(from_dlpack(r))
    torch.testing.assert_close(r, v.roll(-1))
