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
    import bbx.hook  # noqa: F401  (serves `cutlass`, translates DSL modules)

    importlib.import_module("struct_kernels").check_against_torch("cuda")
    print("cuda struct kernels: OK")


if __name__ == "__main__":
    main()
