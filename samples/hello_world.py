"""Hello world: one block of threads; thread 0 of every block prints from the GPU.

Run: python samples/hello_world.py [--blocks 2]
"""

import argparse

import cutlass
import cutlass.cute as cute


@cute.kernel
def hello_kernel():
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    if tidx == 0:
        cute.printf("Hello world from block {}", bidx)


@cute.jit
def hello_world(num_blocks: cutlass.Int32):
    print("tracing hello_world")  # trace-time only: dropped from the generated code
    hello_kernel().launch(grid=[num_blocks, 1, 1], block=[32, 1, 1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--blocks", type=int, default=2)
    args = parser.parse_args()
    compiled = cute.compile(hello_world, cutlass.Int32(args.blocks))
    compiled(cutlass.Int32(args.blocks))
    print("PASS")


if __name__ == "__main__":
    main()
