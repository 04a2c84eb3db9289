"""Ahead-of-time export (issue 31): `CompiledFunction.export_to_c` writes a C header and an
object, which a C++ program calls with no Python (examples/aot) and `cute.runtime.load_module`
loads back into Python; both are checked against torch on fresh random inputs. The CUTLASS
export tutorials run in sequence where the corpus is present."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from bbx.targets.simulator import SimulatorBackend

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "aot"
CORPUS = Path(os.environ.get("BBX_CUTLASS_CORPUS",
                             ROOT.parent / "shared" / "corpus" / "cutlass"))
TUTORIALS = CORPUS / "dsl_tutorials" / "export"


def _bbx_run(script: Path, cwd: Path, cache: Path, *args: str, target: str = "cpu",
             staged: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BBX_STAGED": "1" if staged else "0", "BBX_TARGET": target,
           "BBX_CACHE_DIR": str(cache), "PYTHONPATH": str(cwd)}
    return subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(script), *args],
                          cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=900)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Path:
    """examples/aot/export_axpy.py's axpy.h and axpy.o, for the simulator."""
    directory = tmp_path_factory.mktemp("export")
    proc = _bbx_run(EXAMPLE / "export_axpy.py", directory, cache, str(directory))
    assert proc.returncode == 0, proc.stdout
    assert (directory / "axpy.h").is_file() and (directory / "axpy.o").is_file()
    return directory


def _inputs(directory: Path) -> tuple[torch.Tensor, torch.Tensor, float]:
    rng = random.Random()
    rows, cols = rng.randint(3, 70), rng.randint(3, 90)
    x, y = torch.randn(rows, cols) * 3, torch.randn(rows, cols) * 3
    return x, y, round(rng.uniform(-3, 3), 3)


def _build_example(exported: Path, build: Path) -> Path:
    """The C++ example: by CMake where it is installed, else by g++ with the same inputs."""
    if shutil.which("cmake"):
        configure = subprocess.run(["cmake", "-S", str(EXAMPLE), "-B", str(build),
                                    f"-DBBX_EXPORT_DIR={exported}"],
                                   capture_output=True, text=True)
        assert configure.returncode == 0, configure.stdout + configure.stderr
        made = subprocess.run(["cmake", "--build", str(build)], capture_output=True, text=True)
        assert made.returncode == 0, made.stdout + made.stderr
    else:
        build.mkdir()
        command = ["g++", "-std=c++17", f"-I{exported}", str(EXAMPLE / "main.cpp"),
                   str(exported / "axpy.o"), "-o", str(build / "axpy_example"),
                   *SimulatorBackend().object_link_flags()]
        made = subprocess.run(command, capture_output=True, text=True)
        assert made.returncode == 0, made.stdout + made.stderr
    return build / "axpy_example"


def test_an_exported_kernel_called_from_cpp(exported: Path, tmp_path: Path) -> None:
    program = _build_example(exported, tmp_path / "build")
    x, y, alpha = _inputs(tmp_path)
    x.numpy().tofile(tmp_path / "x.bin")
    y.numpy().tofile(tmp_path / "y.bin")
    rows, cols = x.shape
    run = subprocess.run([str(program), str(rows), str(cols), str(alpha), str(tmp_path / "x.bin"),
                          str(tmp_path / "y.bin"), str(tmp_path / "out.bin")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    out = torch.from_file(str(tmp_path / "out.bin"), size=rows * cols,
                          dtype=torch.float32).reshape(rows, cols)
    torch.testing.assert_close(out, alpha * x + y)
    demo = subprocess.run([str(program)], capture_output=True, text=True, timeout=300)
    assert demo.returncode == 0 and "elements match" in demo.stdout, demo.stdout + demo.stderr


C_CALLER = r"""
#include <stdio.h>
#include <string.h>
#include "axpy.h"

int main(void) {
  static float data[64 * 3];
  axpy_Kernel_Module_t module;
  axpy_Tensor_x_t x = {data, {8, 8}, {8}};
  axpy_Tensor_y_t y = {data, {8, 8}, {8}};
  axpy_Tensor_out_t out = {data, {8, 8}, {8}};
  module.loaded = 0;
  if (cute_dsl_axpy_wrapper(&module, &x, &y, &out, 1.0f, NULL) != 1) return 10;
  printf("%s\n", module.error);
  if (axpy_Kernel_Module_Load(&module) != 0) return 11;
  x.data = (char*)data + 2;  /* not 4-byte aligned */
  if (cute_dsl_axpy_wrapper(&module, &x, &y, &out, 1.0f, NULL) != 1) return 12;
  printf("%s\n", module.error);
  x.data = data;
  out.dynamic_shapes[0] = -1;
  if (cute_dsl_axpy_wrapper(&module, &x, &y, &out, 1.0f, NULL) != 1) return 13;
  printf("%s\n", module.error);
  axpy_Kernel_Module_Unload(&module);
  return 0;
}
"""


def test_the_c_wrapper_refuses_what_the_specialization_does_not_take(exported: Path,
                                                                    tmp_path: Path) -> None:
    """The header is C; the wrapper checks its arguments and says why in module.error."""
    (tmp_path / "caller.c").write_text(C_CALLER)
    obj = tmp_path / "caller.o"
    compiled = subprocess.run(["gcc", "-std=c11", "-Wall", "-Werror", f"-I{exported}", "-c",
                               str(tmp_path / "caller.c"), "-o", str(obj)],
                              capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    program = tmp_path / "caller"
    linked = subprocess.run(["g++", str(obj), str(exported / "axpy.o"), "-o", str(program),
                             *SimulatorBackend().object_link_flags()],
                            capture_output=True, text=True)
    assert linked.returncode == 0, linked.stderr
    run = subprocess.run([str(program)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert "not loaded" in lines[0]
    assert "argument 'x'" in lines[1] and "4-byte aligned" in lines[1]
    assert "argument 'out'" in lines[2] and "negative" in lines[2]


LOADER = """
import sys
import torch
import cutlass
import cutlass.cute as cute

path, inputs, output = sys.argv[1:4]
x, y, alpha = torch.load(inputs)
out = torch.empty_like(x)
module = cute.runtime.load_module(path)
module["axpy"](x, y, out, cutlass.Float32(alpha))
torch.save(out, output)
"""


@pytest.mark.parametrize("kind", ["object", "shared library"])
def test_load_module_calls_an_export_from_python(exported: Path, cache: Path, tmp_path: Path,
                                                 kind: str) -> None:
    path = exported / "axpy.o"
    if kind == "shared library":  # linked as NVIDIA's tutorial links it: the C compiler
        path = tmp_path / "libaxpy.so"
        subprocess.run(["gcc", "-shared", "-o", str(path), str(exported / "axpy.o")],
                       check=True)
    x, y, alpha = _inputs(tmp_path)
    x = torch.randn(x.shape[0], x.shape[1] + 7)[:, :x.shape[1]]  # a padded row stride
    torch.save((x, y, alpha), tmp_path / "inputs.pt")
    (tmp_path / "loader.py").write_text(LOADER)
    proc = _bbx_run(tmp_path / "loader.py", tmp_path, cache, str(path),
                    str(tmp_path / "inputs.pt"), str(tmp_path / "out.pt"))
    assert proc.returncode == 0, proc.stdout
    torch.testing.assert_close(torch.load(tmp_path / "out.pt"), alpha * x + y)


def test_a_call_that_does_not_match_the_export_names_the_argument(exported: Path, cache: Path,
                                                                   tmp_path: Path) -> None:
    (tmp_path / "wrong.py").write_text(textwrap.dedent(f"""
        import torch
        import cutlass
        import cutlass.cute as cute

        module = cute.runtime.load_module({str(exported / "axpy.o")!r})
        x = torch.rand(6, 5)
        module.axpy(x, torch.rand(6, 5).t().contiguous().t(), x, cutlass.Float32(2.0))
    """))
    proc = _bbx_run(tmp_path / "wrong.py", tmp_path, cache)
    assert proc.returncode == 1, proc.stdout
    assert "wrong.py:8:1: error: argument 'y' of axpy(...)" in proc.stdout, proc.stdout
    assert "stride of mode 1 is 6, expected unit stride" in proc.stdout
    assert "Traceback" not in proc.stdout


def test_an_export_with_a_bad_prefix_is_a_located_error(tmp_path: Path, cache: Path) -> None:
    script = (EXAMPLE / "export_axpy.py").read_text().replace(
        'function_prefix="axpy"', 'function_prefix="2axpy"')
    (tmp_path / "bad.py").write_text(script)
    proc = _bbx_run(tmp_path / "bad.py", tmp_path, cache, str(tmp_path))
    assert proc.returncode == 1, proc.stdout
    assert "bad.py:" in proc.stdout and "export_to_c(function_prefix='2axpy')" in proc.stdout
    assert "Traceback" not in proc.stdout


def test_a_gfx942_export_builds_here_and_refuses_to_load_without_a_gpu(tmp_path: Path,
                                                                        cache: Path) -> None:
    """An AMD export is a HIP host object with the gfx942 code object embedded; this machine
    has no AMD GPU, so loading it says so at the load_module call."""
    proc = _bbx_run(EXAMPLE / "export_axpy.py", tmp_path, cache, str(tmp_path),
                    target="gfx942")
    if "cannot be built here" in proc.stdout:
        pytest.skip("no HIP compiler and runtime library here")
    assert proc.returncode == 0, proc.stdout
    sections = subprocess.run(["objdump", "-h", str(tmp_path / "axpy.o")], capture_output=True,
                              text=True).stdout
    assert ".hip_fatbin" in sections
    bundler = shutil.which("clang-offload-bundler-22") or shutil.which("clang-offload-bundler")
    if bundler:  # the embedded bundle holds the gfx942 code object
        fatbin = tmp_path / "fatbin.bin"
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.hip_fatbin",
                        str(tmp_path / "axpy.o"), str(fatbin)], check=True)
        listed = subprocess.run([bundler, "--list", "--type=o", f"--input={fatbin}"],
                                capture_output=True, text=True).stdout
        assert "hipv4-amdgcn-amd-amdhsa--gfx942" in listed, listed
    (tmp_path / "load.py").write_text(textwrap.dedent(f"""
        import cutlass.cute as cute
        cute.runtime.load_module({str(tmp_path / "axpy.o")!r})
    """))
    loaded = _bbx_run(tmp_path / "load.py", tmp_path, cache, target="gfx942")
    if loaded.returncode == 0:
        pytest.skip("this machine has an AMD GPU")
    assert "load.py:3:1: error: load_module(" in loaded.stdout, loaded.stdout
    assert "cannot run in this process" in loaded.stdout


@pytest.mark.skipif(not TUTORIALS.is_dir(), reason=f"no CUTLASS corpus at {CORPUS}")
def test_the_export_tutorials_in_sequence(tmp_path: Path, cache: Path) -> None:
    """export_to_c.py exports two functions and links them into one shared library;
    load_in_python.py loads both objects and the library. The tutorial's tensors are the
    transpose of what it exported for (extent 10 where 16 divides it, a row stride of 10 where
    the export has unit stride), which NVIDIA's runtime does not check and bbx refuses, naming
    the argument; with tensors of the exported layout every call runs."""
    exported = _bbx_run(TUTORIALS / "export_to_c.py", tmp_path, cache)
    assert exported.returncode == 0, exported.stdout
    assert (tmp_path / "build" / "libexport_example.so").is_file()
    loaded = _bbx_run(TUTORIALS / "load_in_python.py", tmp_path, cache)
    assert loaded.returncode == 1, loaded.stdout
    assert "load_in_python.py:66:5: error: argument 'a' of print_tensor(...)" in loaded.stdout
    assert "extent of mode 0 is 10, expected a multiple of 16" in loaded.stdout
    script = (TUTORIALS / "load_in_python.py").read_text()
    matching = (script.replace(".reshape(16, 10)\n        .permute(1, 0)", ".reshape(16, 10)")
                .replace("torch.ones(16, 10, dtype=torch.float32, device=\"cuda\").permute(1, 0)",
                         "torch.rand(16, 10, dtype=torch.float32, device=\"cuda\")"))
    assert matching.count("permute") == 0
    (tmp_path / "load_matching.py").write_text(matching)
    ran = _bbx_run(tmp_path / "load_matching.py", tmp_path, cache)
    assert ran.returncode == 0, ran.stdout
    assert ran.stdout.count("a: (16,10):(10,1) = (") == 2, ran.stdout


TWO_SPECIALIZATIONS = '''
import sys
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def shift_kernel(x: cute.Tensor, out: cute.Tensor, k: cutlass.Constexpr):
    i, _, _ = cute.arch.thread_idx()
    if i < x.shape[0]:
        out[i] = x[i] + k


@cute.jit
def shift(x: cute.Tensor, out: cute.Tensor, k: cutlass.Constexpr):
    shift_kernel(x, out, k).launch(grid=(1, 1, 1), block=(64, 1, 1))


directory, first, second = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
x = torch.rand(40)
for prefix, k in (("first", first), ("second", second)):
    compiled = cute.compile(shift, from_dlpack(x), from_dlpack(x), k)
    compiled.export_to_c(file_path=directory, file_name=prefix, function_prefix=prefix)
'''

CALL_BOTH = '''
import sys
import torch
import cutlass.cute as cute

module = cute.runtime.load_module(sys.argv[1])
x = torch.load(sys.argv[2])
for prefix in ("first", "second"):
    out = torch.empty_like(x)
    getattr(module, prefix)(x, out)
    torch.save(out, f"{sys.argv[3]}/{prefix}.pt")
'''


def test_two_specializations_of_one_kernel_link_into_one_library(cache: Path,
                                                                  tmp_path: Path) -> None:
    """The same kernel traced with two Constexpr values has the same C++ name and types in
    both objects; each export's generated code is its own, so the library runs both."""
    rng = random.Random()
    first, second = rng.sample(range(1, 100), 2)
    (tmp_path / "export_two.py").write_text(TWO_SPECIALIZATIONS)
    proc = _bbx_run(tmp_path / "export_two.py", tmp_path, cache, str(tmp_path), str(first),
                    str(second))
    assert proc.returncode == 0, proc.stdout
    library = tmp_path / "libboth.so"
    subprocess.run(["g++", "-shared", "-o", str(library), str(tmp_path / "first.o"),
                    str(tmp_path / "second.o")], check=True)
    x = torch.rand(40)
    torch.save(x, tmp_path / "x.pt")
    (tmp_path / "call_both.py").write_text(CALL_BOTH)
    ran = _bbx_run(tmp_path / "call_both.py", tmp_path, cache, str(library),
                   str(tmp_path / "x.pt"), str(tmp_path))
    assert ran.returncode == 0, ran.stdout
    torch.testing.assert_close(torch.load(tmp_path / "first.pt"), x + first)
    torch.testing.assert_close(torch.load(tmp_path / "second.pt"), x + second)


def test_a_function_the_module_does_not_export_is_a_located_error(exported: Path, cache: Path,
                                                                  tmp_path: Path) -> None:
    (tmp_path / "missing.py").write_text(textwrap.dedent(f"""
        import cutlass.cute as cute

        module = cute.runtime.load_module({str(exported / "axpy.o")!r})
        assert not hasattr(module, "axpby")
        module.axpby
    """))
    proc = _bbx_run(tmp_path / "missing.py", tmp_path, cache)
    assert proc.returncode == 1, proc.stdout
    assert "missing.py:6:1: error: 'axpby' of module" in proc.stdout, proc.stdout
    assert "it exports: axpy" in proc.stdout and "Traceback" not in proc.stdout


def test_an_export_of_the_translated_module(cache: Path, tmp_path: Path) -> None:
    """Without staged execution the object is built from the module's translation."""
    proc = _bbx_run(EXAMPLE / "export_axpy.py", tmp_path, cache, str(tmp_path), staged=False)
    assert proc.returncode == 0, proc.stdout
    x, y, alpha = _inputs(tmp_path)
    torch.save((x, y, alpha), tmp_path / "inputs.pt")
    (tmp_path / "loader.py").write_text(LOADER)
    ran = _bbx_run(tmp_path / "loader.py", tmp_path, cache, str(tmp_path / "axpy.o"),
                   str(tmp_path / "inputs.pt"), str(tmp_path / "out.pt"), staged=False)
    assert ran.returncode == 0, ran.stdout
    torch.testing.assert_close(torch.load(tmp_path / "out.pt"), alpha * x + y)


@pytest.mark.skipif(shutil.which(os.environ.get("BBX_NVCC", "nvcc")) is None,
                    reason="no nvcc")
def test_a_cuda_export_is_an_nvcc_object_with_device_code(tmp_path: Path, cache: Path) -> None:
    """Built here (no GPU needed): host code launching through the CUDA runtime, with the
    sm_90 device code in nvcc's fat binary. Running it needs an NVIDIA GPU."""
    proc = _bbx_run(EXAMPLE / "export_axpy.py", tmp_path, cache, str(tmp_path), target="cuda")
    assert proc.returncode == 0, proc.stdout
    sections = subprocess.run(["objdump", "-h", str(tmp_path / "axpy.o")], capture_output=True,
                              text=True).stdout
    assert ".nv_fatbin" in sections
    symbols = subprocess.run(["nm", str(tmp_path / "axpy.o")], capture_output=True,
                             text=True).stdout
    assert " U cudaLaunchKernel" in symbols and " T cute_dsl_axpy_wrapper" in symbols
    assert " R bbx_aot_cuda__axpy" in symbols
