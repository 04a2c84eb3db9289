"""Exports `axpy` (out = alpha * x + y over 2-D float tensors of any extents) for the
simulator: writes build/axpy.h and build/axpy.o, which main.cpp calls with no Python.

    bbx run examples/aot/export_axpy.py [BUILD_DIR]      # BBX_STAGED=0: by the translator
"""

import os
import sys

import cuda.bindings.driver as cuda
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_compact_tensor

THREADS = 64


@cute.kernel
def axpy_kernel(x: cute.Tensor, y: cute.Tensor, out: cute.Tensor, alpha: cutlass.Float32):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * THREADS + tidx
    rows = x.shape[0]
    cols = x.shape[1]
    if i < rows * cols:
        r = i // cols
        c = i % cols
        out[r, c] = alpha * x[r, c] + y[r, c]


@cute.jit
def axpy(x: cute.Tensor, y: cute.Tensor, out: cute.Tensor, alpha: cutlass.Float32,
         stream: cuda.CUstream):
    blocks = cute.ceil_div(x.shape[0] * x.shape[1], THREADS)
    axpy_kernel(x, y, out, alpha).launch(grid=(blocks, 1, 1), block=(THREADS, 1, 1),
                                         stream=stream)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    shape = (cute.SymInt(), cute.SymInt())
    x, y, out = (make_fake_compact_tensor(cutlass.Float32, shape, stride_order=(1, 0))
                 for _ in range(3))
    compiled = cute.compile(axpy, x, y, out, cutlass.Float32(1.0), stream=cuda.CUstream(0))
    os.makedirs(build, exist_ok=True)
    compiled.export_to_c(file_path=build, file_name="axpy", function_prefix="axpy")
    print(f"wrote {build}/axpy.h and {build}/axpy.o")


if __name__ == "__main__":
    main()
