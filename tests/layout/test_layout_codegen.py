"""Device code generation of the layout library (compile only, no GPU needed).

* gfx942 (clang++-22, header-free HIP): an all-static 2-D copy through zipped_divide becomes
  global_load_dwordx4 / global_store_dwordx4, and a static layout indexed by a dynamic integer
  needs no run-time division (v_rcp_iflag_f32 is the integer-division expansion).
* sm_90 (nvcc): the same source compiles as CUDA device code.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bbx.targets import toolchain

INCLUDE = Path(__file__).resolve().parents[2] / "runtime_cpp" / "include"

KERNELS = r"""
#include <bbx/layout.hpp>
using namespace bbx;
#if defined(BBX_TARGET_AMD)
typedef float f4 __attribute__((ext_vector_type(4)));
#  define THREAD_X __builtin_amdgcn_workitem_id_x()
#else
typedef float4 f4;
#  define THREAD_X threadIdx.x
#endif

// All-static 2-D copy: a 64x128 row-major tile, 256 threads, 4 contiguous floats per thread
// and step.
BBX_GLOBAL void copy_static(float const* __restrict__ src, float* __restrict__ dst) {
  auto tile = make_layout(make_shape(_64{}, _128{}), LayoutRight{});
  // ((1,4),(64,32)): vector v starts at vec(0, v)
  auto vec = zipped_divide(tile, make_tile(_1{}, _4{}));
  static_assert(is_static_v<decltype(vec)>);
  static_assert(decltype(size<1>(vec))::value == 2048);
  int t = THREAD_X;
  BBX_UNROLL
  for (int it = 0; it < 8; ++it) {
    int off = vec(make_coord(_0{}, t + it * 256));
    *reinterpret_cast<f4*>(dst + off) = *reinterpret_cast<f4 const*>(src + off);
  }
}

// A static layout with non-power-of-two modes, indexed by a dynamic integer.
BBX_GLOBAL void index_static(int* out) {
  auto l = make_layout(make_shape(_3{}, make_shape(_5{}, _7{})),
                       make_stride(Int<35>{}, make_stride(_1{}, _5{})));
  int t = THREAD_X;
  auto c = idx2crd(t, l.shape());
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), LayoutRight{}));
  out[t] = l(t) + get<1, 1>(c) + sw(t % 8, t / 8);
}
"""


def _disasm(tmp_path: Path) -> str:
    objdump = toolchain.objdump()
    if toolchain.amd_compiler() is None or objdump is None:
        pytest.skip("no HIP compiler (clang++-22) or llvm-objdump")
    src = tmp_path / "k.hip"
    src.write_text(KERNELS)
    obj = tmp_path / "k.o"
    cmd = toolchain.amd_device_command(src, obj, "gfx942", opt="-O3")
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-4000:]
    return subprocess.run(
        [objdump, "-d", str(obj)], capture_output=True, text=True, check=True
    ).stdout


def _function(disasm: str, name: str) -> str:
    """The disassembly of the function whose symbol contains `name`."""
    blocks, cur = {}, None
    for line in disasm.splitlines():
        if line.rstrip().endswith(">:"):
            cur = line
            blocks[cur] = []
        elif cur is not None:
            blocks[cur].append(line)
    for head, lines in blocks.items():
        if name in head:
            return "\n".join(lines)
    raise AssertionError(f"{name} not in the disassembly")


def test_static_copy_is_dwordx4_on_gfx942(tmp_path):
    d = _function(_disasm(tmp_path), "copy_static")
    assert d.count("global_load_dwordx4") == 8, d
    assert d.count("global_store_dwordx4") == 8, d
    assert "v_rcp" not in d and "v_cvt_f32_u32" not in d, d


def test_static_layout_has_no_runtime_division_on_gfx942(tmp_path):
    d = _function(_disasm(tmp_path), "index_static")
    assert "v_rcp" not in d and "v_cvt_f32_u32" not in d, d


def test_layout_compiles_for_sm90(tmp_path):
    nvcc = shutil.which("nvcc")
    if not nvcc:
        pytest.skip("nvcc not installed")
    src = tmp_path / "k.cu"
    src.write_text(KERNELS)
    r = subprocess.run(
        [
            nvcc,
            "-std=c++20",
            "-arch=sm_90",
            "--expt-relaxed-constexpr",
            "-c",
            f"-I{INCLUDE}",
            str(src),
            "-o",
            str(tmp_path / "k.o"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr[-4000:]
