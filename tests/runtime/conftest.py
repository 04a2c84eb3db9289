"""Fixtures of the runtime tests: a specialization unit written against the C ABI alone."""

from __future__ import annotations

import io

import pytest

from bbx.runtime.argspec import ArgSpec, parse
from bbx.runtime.builder import UnitBuild, build_unit
from bbx.runtime.launch import Launcher
from bbx.runtime.native import open_specialization
from bbx.targets.registry import parse_target

# A unit written against the ABI alone: out = alpha * x + k over 2-D f32 tensors.
SCALE_UNIT = """\
#include <bbx/platform/abi.h>
#include <cmath>
#include <cstring>
#define EXPORT extern "C" __attribute__((visibility("default")))
EXPORT const int bbx_spec_abi_version = BBX_ABI_VERSION;
EXPORT int bbx_spec_call(const bbx_abi_arg* args, uintptr_t, char* error, size_t size) {
  const bbx_abi_tensor& x = args[0].tensor;
  const bbx_abi_tensor& out = args[1].tensor;
  const double alpha = args[2].f;
  const long long k = args[3].i;
  if (std::isnan(alpha)) {
    std::strncpy(error, "scale: alpha is NaN", size);
    return 1;
  }
  for (long long i = 0; i < x.shape[0]; ++i)
    for (long long j = 0; j < x.shape[1]; ++j)
      static_cast<float*>(out.data)[i * out.stride[0] + j * out.stride[1]] =
          float(alpha * static_cast<const float*>(x.data)[i * x.stride[0] + j * x.stride[1]] + k);
  return 0;
}
"""




@pytest.fixture(scope="session")
def scale_entry(tmp_path_factory: pytest.TempPathFactory) -> int:
    """The entry point of SCALE_UNIT, built and loaded."""
    directory = tmp_path_factory.mktemp("scale")
    unit = directory / "unit.cpp"
    unit.write_text(SCALE_UNIT)
    path = build_unit(UnitBuild("scale", unit, parse_target("cpu"), opt="-O0"), directory,
                      progress_stream=io.StringIO())
    return open_specialization(path)


def scale_launcher(entry: int, x: str = "f32[?,?]", out: str = "f32[?,?]:stride(?,1)",
                   alpha: str = "f32", k: str = "i32") -> Launcher:
    specs: dict[str, ArgSpec] = {"x": parse(x), "out": parse(out), "alpha": parse(alpha),
                                 "k": parse(k)}
    return Launcher(entry, specs, parse_target("cpu"), "scale.py:scale")


@pytest.fixture
def scale(scale_entry: int) -> Launcher:
    return scale_launcher(scale_entry)
