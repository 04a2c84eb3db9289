"""Unit tests of the pieces behind `bbx build` / `bbx inspect`: occupancy arithmetic, the
metadata-note parser, the instruction classifier and the hipcc command construction (the hipcc
path cannot run here: no ROCm; it is unverified on AMD hardware)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bbx.runtime import bundle as build_bundle
from bbx.targets import toolchain
from bbx.targets.amd import codeobject, isa_mix, occupancy
from bbx.targets.registry import parse_target


@pytest.mark.parametrize(("arch", "vgpr", "sgpr", "lds", "wg", "waves", "by"), [
    ("gfx942", 6, 15, 0, 256, 8, ("hardware",)),
    ("gfx942", 64, 15, 0, 256, 8, ("hardware",)),
    ("gfx942", 65, 15, 0, 256, 7, ("vgpr",)),     # 72 allocated: 512 // 72 = 7
    ("gfx942", 128, 15, 0, 256, 4, ("vgpr",)),
    ("gfx950", 129, 15, 0, 256, 3, ("vgpr",)),    # 136 allocated
    ("gfx942", 512, 15, 0, 64, 1, ("vgpr",)),
    ("gfx942", 8, 102, 0, 64, 7, ("sgpr",)),
    ("gfx942", 8, 20, 65537, 256, 0, ("lds",)),   # does not fit: cannot launch
    ("gfx942", 8, 20, 32768, 256, 2, ("lds",)),   # 2 groups x 4 waves over 4 SIMDs
    ("gfx950", 8, 20, 32768, 256, 5, ("lds",)),   # 5 groups x 4 waves over 4 SIMDs
])
def test_occupancy(arch, vgpr, sgpr, lds, wg, waves, by) -> None:
    result = occupancy.occupancy(arch, vgpr, sgpr, lds, wg)
    assert (result.waves_per_simd, result.limited_by) == (waves, by)


def test_occupancy_unknown_arch() -> None:
    with pytest.raises(ValueError, match="no occupancy figures for 'gfx1100'"):
        occupancy.limits("gfx1100")


NOTES = """\
Displaying notes found in: .note
  Owner                Data size 	Description
  AMDGPU               0x00000615	NT_AMDGPU_METADATA (AMDGPU Metadata)
    AMDGPU Metadata:
        ---
amdhsa.kernels:
  - .agpr_count:     18
    .args:
      - .offset:         0
        .size:           24
        .value_kind:     by_value
    .group_segment_fixed_size: 4096
    .max_flat_workgroup_size: 256
    .name:           k1
    .private_segment_fixed_size: 16
    .sgpr_count:     8
    .uses_dynamic_stack: false
    .vgpr_count:     22
  - .agpr_count:     0
    .name:           k2
    .sgpr_count:     15
    .vgpr_count:     6
amdhsa.target:   'amdgcn-amd-amdhsa--gfx950:xnack-'
amdhsa.version:
  - 1
  - 2
...
"""


def test_parse_metadata() -> None:
    target, kernels = codeobject.parse_metadata(NOTES)
    assert codeobject.arch_of(target) == "gfx950"
    assert [k[".name"] for k in kernels] == ["k1", "k2"]
    assert kernels[0][".vgpr_count"] == 22 and kernels[0][".agpr_count"] == 18
    assert kernels[0][".group_segment_fixed_size"] == 4096
    assert kernels[0][".private_segment_fixed_size"] == 16
    assert kernels[0][".uses_dynamic_stack"] is False
    assert ".offset" not in kernels[0]  # nested argument keys are not kernel keys


def test_instruction_classifier() -> None:
    counted = ["v_mfma_f32_32x32x8_f16", "global_load_dwordx4", "buffer_store_dword",
               "ds_read_b128", "ds_write_b64", "ds_bpermute_b32", "ds_swizzle_b32",
               "v_mov_b32_dpp", "s_waitcnt", "s_barrier", "s_cbranch_execz", "s_branch"]
    assert all(isa_mix.is_counted(m) for m in counted)
    assert not any(isa_mix.is_counted(m) for m in ("v_add_f32_e32", "s_load_dword", "s_endpgm"))
    text = ("0000000000001c00 <k1>:\n\ts_load_dword s3, s[0:1], 0x54 // 1C00\n"
            "\tglobal_load_dwordx4 v[0:3], v[4:5], off\n\ts_waitcnt vmcnt(0)\n\n"
            "0000000000001d00 <k2>:\n\ts_endpgm\n")
    by_symbol = isa_mix.mnemonics_by_symbol(text)
    assert by_symbol == {"k1": ["s_load_dword", "global_load_dwordx4", "s_waitcnt"],
                         "k2": ["s_endpgm"]}
    assert isa_mix.instruction_mix(by_symbol["k1"]) == {"global_load_dwordx4": 1, "s_waitcnt": 1}


def test_hipcc_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ROCm, `bbx build --target gfx942` builds the loadable extension (the lazy builder's
    hipcc command) and the code object; both use the bundle's header copy."""
    fake = toolchain.Compiler("/opt/rocm/bin/hipcc", "hipcc")
    monkeypatch.setattr(toolchain, "amd_compiler", lambda: fake)
    steps, code_objects = build_bundle.build_steps(parse_target("gfx942"), "naive_add",
                                                   "naive_add.py:naive_add", "bbx_m", "-O3")
    assert code_objects == ["naive_add.gfx942.hsaco"]
    extension, device = steps
    assert extension.command[0] == "/opt/rocm/bin/hipcc"
    assert {"--offload-arch=gfx942", "-shared", "-fPIC", "-Iinclude", "unit.cpp"} <= set(
        extension.command)
    assert extension.outputs[0].startswith("bbx_m") and extension.outputs[0].endswith(".so")
    assert device.command[0] == "/opt/rocm/bin/hipcc"
    assert {"--offload-device-only", "-mcode-object-version=5", "-DBBX_DEVICE_ONLY_UNIT",
            "-Iinclude"} <= set(device.command)
    assert "-nogpuinc" not in device.command  # hipcc has the ROCm headers
    assert device.command[-2:] == ["-o", "naive_add.gfx942.hsaco"]


def test_clang_device_command_without_rocm(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = toolchain.Compiler("/usr/bin/clang++-22", "clang")
    monkeypatch.setattr(toolchain, "amd_compiler", lambda: fake)
    (step,), _ = build_bundle.build_steps(parse_target("gfx950"), "m", "m.py:f", "bbx_m", "-O3")
    assert step.command[:3] == ["/usr/bin/clang++-22", "-std=c++20", "-x"]
    assert {"-nogpuinc", "-nogpulib", "--no-gpu-bundle-output", "-c", "unit.cpp"} <= set(
        step.command)
    assert step.outputs == ["m.gfx950.hsaco"]


def test_cuda_and_cpu_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(toolchain, "cuda_compiler",
                        lambda: toolchain.Compiler("/usr/bin/nvcc", "nvcc"))
    (cuda,), none = build_bundle.build_steps(parse_target("cuda"), "m", "m.py:f", "bbx_m", "-O3")
    assert none == [] and cuda.outputs == ["m.sm_90.o"]
    assert {"-arch=sm_90", "-DBBX_DEVICE_ONLY_UNIT", "-c", "-Iinclude"} <= set(cuda.command)
    (cpu,), _ = build_bundle.build_steps(parse_target("cpu"), "m", "m.py:f", "bbx_m", "-O3")
    assert "-shared" in cpu.command and "-Iinclude" in cpu.command
    assert Path(cpu.outputs[0]).name.startswith("bbx_m")
