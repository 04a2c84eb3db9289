"""The @cute.struct kernels of tests/transpiler/struct_kernels.py on the CUDA target, against
torch (the same checks the simulator test makes). Run on a machine with an NVIDIA GPU:

    BBX_TARGET=cuda python benchmarks/device/cuda_struct_check.py
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

os.environ.setdefault("BBX_TARGET", "cuda")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "transpiler"))



def main() -> None:
    import torch

    import bbx.hook  # noqa: F401  (serves `cutlass`, translates DSL modules)

    # Imported once the hook serves `cutlass`.
    from_dlpack = importlib.import_module("cutlass.cute.runtime").from_dlpack
    kernels = importlib.import_module("struct_kernels")
    Reverse, rotate, twice_reversed = kernels.Reverse, kernels.rotate, kernels.twice_reversed

    torch.manual_seed(0)
    x = torch.randn(3 * 64, device="cuda")
    y = torch.full_like(x, float("nan"))
    stats = torch.full((3, 2), float("nan"), device="cuda")
    Reverse()(from_dlpack(x), from_dlpack(y), from_dlpack(stats))
    blocks = x.view(3, 64)
    torch.testing.assert_close(y.view(3, 64), blocks.flip(1))
    torch.testing.assert_close(stats[:, 0], blocks[:, 0] + blocks[:, 63])
    torch.testing.assert_close(stats[:, 1], torch.full((3,), 7.0, device="cuda"))
    v = torch.randn(32, device="cuda")
    w = v.clone()
    twice_reversed(from_dlpack(w))
    torch.testing.assert_close(w, (v * 2).flip(0))
    r = v.clone()
    rotate(from_dlpack(r))
    torch.testing.assert_close(r, v.roll(-1))
    print("cuda struct kernels: OK")


if __name__ == "__main__":
    main()
