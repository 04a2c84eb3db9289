"""Compile one of FlyDSL's norm kernels for an AMD target without a GPU (run by
benchmarks/amd_vs_flydsl.py inside its throw-away FlyDSL venv; never imported by bbx).

    COMPILE_ONLY=1 ARCH=gfx942 FLYDSL_GPU_ARCH=gfx942 FLYDSL_DEBUG_DUMP_ASM=1 \\
    FLYDSL_DUMP_DIR=DIR ROCM_PATH=R python flydsl_compile_norms.py FLYDSL_SRC OP N DTYPE

OP is rmsnorm, softmax or layernorm (forward, FlyDSL's default configuration for N), DTYPE bf16,
f16 or f32. FlyDSL's `kernels/` package is read from FLYDSL_SRC, a checkout of ROCm/FlyDSL.
The final ISA lands in DIR/<kernel>_0/22_final_isa.s.
"""

from __future__ import annotations

import sys

ROWS = 64  # any row count: FlyDSL specializes on N and the dtype only


def main() -> None:
    src, op, n_text, dtype = sys.argv[1:5]
    sys.path.insert(0, src)
    import torch

    n = int(n_text)
    torch_dtype = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[dtype]
    x = torch.randn(ROWS, n, dtype=torch_dtype)
    out = torch.empty_like(x)
    weight = torch.randn(n, dtype=torch_dtype)
    if op == "rmsnorm":
        from kernels.norm.rmsnorm_kernel import build_rmsnorm_module

        build_rmsnorm_module(n, dtype)(x, weight, out, ROWS)
    elif op == "softmax":
        from kernels.norm.softmax_kernel import build_softmax_module

        build_softmax_module(ROWS, n, dtype)(x, out, ROWS)
    elif op == "layernorm":
        import flydsl.compiler as flyc
        from flydsl.expr import typing as fx_typing
        from kernels.norm.layernorm_kernel import build_layernorm_module

        elem = {"bf16": fx_typing.BFloat16, "f16": fx_typing.Float16,
                "f32": fx_typing.Float32}[dtype]
        bias = torch.randn(n, dtype=torch_dtype)
        ptrs = [flyc.from_c_void_p(elem, t.data_ptr()) for t in (x, weight, bias, out)]
        build_layernorm_module(n, dtype)(*ptrs, ROWS)
    else:
        raise SystemExit(f"unknown op {op!r}")


if __name__ == "__main__":
    main()
