"""The launch options of CuTe DSL 4.6-4.8: `cooperative=True` keeps every block resident, so
blocks can exchange results through global memory behind a grid-wide barrier (the DSL has no
grid sync: an atomic counter and acquire loads, as NVIDIA's cooperative kernels write it);
`max_number_threads`, `preferred_smem_carveout`, `smem_merge_branch_allocs` are accepted; the
NVIDIA-only ones are located diagnostics."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from transpiler.conftest import run_driver_on_simulator, translate_snippet

KERNELS = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def exchange(data: cute.Tensor, partial: cute.Tensor, counter: cute.Tensor, out: cute.Tensor,
             nblocks: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    if tidx == 0:
        s = cutlass.Float32(0.0)
        for i in range(data.shape[1]):
            s += data[bidx, i]
        partial[bidx] = s
        cute.arch.atomic_add(counter.iterator, cutlass.Int32(1), sem="release", scope="gpu")
        seen = cute.arch.load(counter.iterator, cutlass.Int32, sem="acquire", scope="gpu")
        while seen < nblocks:
            seen = cute.arch.load(counter.iterator, cutlass.Int32, sem="acquire", scope="gpu")
    cute.arch.sync_threads()
    if tidx == 0:
        total = cutlass.Float32(0.0)
        for b in range(nblocks):
            total += partial[b]
        out[bidx] = total


@cute.jit
def run(data: cute.Tensor, partial: cute.Tensor, counter: cute.Tensor, out: cute.Tensor,
        nblocks: cutlass.Constexpr, threads: cutlass.Constexpr = 128):
    exchange(data, partial, counter, out, nblocks).launch(
        grid=[nblocks, 1, 1], block=[64, 1, 1], cooperative=True,
        max_number_threads=[threads, 1, 1], preferred_smem_carveout=50,
        smem_merge_branch_allocs=True, use_pdl=False, cluster=(1, 1, 1))
'''

DRIVER = '''
import sys
import numpy as np
import torch
from cutlass.cute.runtime import from_dlpack
from kernels import run

data = torch.from_numpy(np.load(sys.argv[0].replace("driver.py", "data.npy")))
nblocks = data.shape[0]
partial = torch.zeros(nblocks, dtype=torch.float32)
counter = torch.zeros(1, dtype=torch.int32)
out = torch.zeros(nblocks, dtype=torch.float32)
run(from_dlpack(data), from_dlpack(partial), from_dlpack(counter), from_dlpack(out), nblocks)
np.save(sys.argv[0].replace("driver.py", "out.npy"), out.numpy())
np.save(sys.argv[0].replace("driver.py", "partial.npy"), partial.numpy())
print("counter", int(counter[0]))

big = 400  # more blocks than the simulated MI300X's 304 compute units keep resident
try:
    run(from_dlpack(torch.zeros(big, 4)), from_dlpack(torch.zeros(big)),
        from_dlpack(torch.zeros(1, dtype=torch.int32)), from_dlpack(torch.zeros(big)), big)
    print("BIG LAUNCHED")
except Exception as e:  # noqa: BLE001
    print("BIG REJECTED:", " ".join(str(e).split()))
print("PASS")
'''


def test_cooperative_blocks_exchange_through_global_memory(tmp_path: Path) -> None:
    rng = np.random.default_rng()
    nblocks = 8
    data = rng.standard_normal((nblocks, 37)).astype(np.float32)
    np.save(tmp_path / "data.npy", data)
    output = run_driver_on_simulator(tmp_path, {"kernels.py": KERNELS}, DRIVER)
    out = np.load(tmp_path / "out.npy")
    partial = np.load(tmp_path / "partial.npy")
    np.testing.assert_allclose(partial, data.astype(np.float64).sum(axis=1), rtol=1e-5,
                               atol=1e-5)
    # every block saw every other block's partial sum: the total, in each block's slot
    np.testing.assert_allclose(out, np.full(nblocks, data.astype(np.float64).sum()),
                               rtol=1e-4, atol=1e-4)
    assert f"counter {nblocks}" in output
    rejected = next(line for line in output.splitlines() if line.startswith("BIG"))
    assert "cooperative launch rejected: grid (400,1,1) has 400 blocks" in rejected, rejected
    assert "gfx942: 304" in rejected


LAUNCH = """
@cute.kernel
def k(a: cute.Tensor):
    a[0] = 1.0

@cute.jit
def h(a: cute.Tensor, flag: cutlass.Int32):
    k(a).launch(grid=[1, 1, 1], block=[64, 1, 1], {option})
"""


@pytest.mark.parametrize(
    ("option", "code", "fragment"),
    [
        ("cluster=[2, 1, 1]", "nvidia-only",
         "launch(cluster=...): thread-block clusters (Hopper distributed shared memory) has no "
         "AMD counterpart"),
        ("fallback_cluster=(2, 1, 1)", "nvidia-only", "thread-block clusters"),
        ("clustre=[1, 1, 1]", "unsupported-keyword",
         "'clustre' is not a launch option of CuTe DSL (4.8.1)"),
        ("cooperative=flag > 0", "bad-launch", "cooperative=...) must be True or False"),
        ("max_number_threads=[flag, 1, 1]", "bad-launch",
         "max_number_threads=...) must be known when the kernel is compiled"),
    ],
)
def test_launch_option_diagnostics(option: str, code: str, fragment: str) -> None:
    result = translate_snippet(LAUNCH.format(option=option), "launch.py")
    assert not result.ok
    rendered = result.render_diagnostics()
    assert result.diagnostics[0].code == code, rendered
    assert result.diagnostics[0].line == 10, rendered  # the launch line (3 header lines)
    assert fragment in rendered


@pytest.mark.parametrize(
    "option",
    ["cooperative=False", "preferred_smem_carveout=25", "smem_merge_branch_allocs=True",
     "hint_smem_base_uniform=True", "use_pdl=True", "cluster=(1, 1, 1)",
     "launch_completion_event=None", "max_number_threads=[256, 1, 1]"],
)
def test_launch_options_accepted(option: str) -> None:
    result = translate_snippet(LAUNCH.format(option=option), "launch.py")
    assert result.ok, result.render_diagnostics()


def test_max_number_threads_is_the_launch_bound_and_cooperative_the_launch() -> None:
    result = translate_snippet(LAUNCH.format(
        option="max_number_threads=[256, 1, 1], cooperative=True, preferred_smem_carveout=30"),
        "launch.py")
    assert result.ok and result.text is not None, result.render_diagnostics()
    # the block has 64 threads; the kernel is compiled for up to 256 (its launch bound)
    assert "k<Meta, bbx::block_threads_t<bbx::Int<256>, bbx::Int<1>, bbx::Int<1>>" in result.text
    assert "launch(bbx::launch_options{.cooperative = true, .smem_carveout = 30}, k<" \
        in result.text
    plain = translate_snippet(LAUNCH.format(option="cooperative=False"), "launch.py")
    assert plain.text is not None and "launch_options" not in plain.text
    assert "bbx::block_threads_t<bbx::Int<64>, bbx::Int<1>, bbx::Int<1>>" in plain.text


CLASS_KERNELS = '''
import cutlass
import cutlass.cute as cute


class Fill:
    def __init__(self, threads: int):
        INIT

    @cute.kernel
    def fill(self, a: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        a[tidx] = cutlass.Float32(tidx) * 2.0

    @cute.jit
    def __call__(self, a: cute.Tensor):
        self.fill(a).launch(grid=[1, 1, 1], block=[self.threads, 1, 1],
                            max_number_threads=[self.threads, 1, 1])
'''

CLASS_DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack
from kernels import Fill

a = torch.zeros(128)
Fill(100)(from_dlpack(a))
assert torch.equal(a, torch.arange(128, dtype=torch.float32) * 2), a
print("PASS")
'''


@pytest.mark.parametrize(("init", "bound"), [
    # a static integer of the configuration
    ("self.threads = (threads + 63) // 64 * 64", "std::decay_t<decltype("),
    # a value of it (an attribute assigned twice, as NVIDIA's kernels compute threads_per_cta)
    ("self.threads = threads\n        self.threads = (self.threads + 63) // 64 * 64",
     "C<Meta::self_threads>"),
])
def test_max_number_threads_from_a_configuration_value(tmp_path: Path, init: str,
                                                       bound: str) -> None:
    source = CLASS_KERNELS.replace("INIT", init)
    result = translate_snippet(source, "kernels.py", header=False)
    assert result.ok and result.text is not None, result.render_diagnostics()
    assert f"launch(Fill_fill<Meta, bbx::block_threads_t<{bound}" in result.text
    run_driver_on_simulator(tmp_path, {"kernels.py": source}, CLASS_DRIVER)


STAGED_LAUNCH = """
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack
import torch


@cute.kernel
def k(a: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    a[tidx] = cutlass.Float32(tidx) + 0.5

@cute.jit
def h(a: cute.Tensor, flag: cutlass.Int32):
    k(a).launch(grid=[1, 1, 1], block=[64, 1, 1], {option})

a = torch.zeros(64)
h(from_dlpack(a), 1)
assert torch.equal(a, torch.arange(64, dtype=torch.float32) + 0.5), a
print("PASS")
"""


@pytest.mark.parametrize(("option", "fragment"), [
    ("max_number_threads=[256, 1, 1], min_blocks_per_mp=2, cooperative=True, "
     "preferred_smem_carveout=30, use_pdl=True, launch_completion_event=None",
     "k<bbx::with_min_blocks<bbx::block_threads_t<bbx::Int<256>, bbx::Int<1>, bbx::Int<1>>, "
     "bbx::Int<2>>"),
    ("cluster=[2, 1, 1]", "launch(cluster=[2, 1, 1]) — thread-block clusters"),
    ("fallback_cluster=(2, 1, 1)", "launch(fallback_cluster=...): thread-block clusters"),
    ("clustre=[1, 1, 1]", "'clustre' is not a launch option of CuTe DSL (4.8.1)"),
    ("cooperative=flag > 0", "launch(cooperative=...) must be True or False"),
    ("max_number_threads=[flag, 1, 1]",
     "launch(max_number_threads=...) must be known when the kernel is compiled"),
    ("min_blocks_per_mp=flag", "launch(min_blocks_per_mp=...): the value must be known"),
])
def test_launch_options_by_staged_execution(tmp_path: Path, option: str, fragment: str) -> None:
    """The same options traced: the launch bound and occupancy hint in the kernel's type, the
    cooperative launch and carveout as launch options; the rest located errors."""
    script = tmp_path / "options.py"
    script.write_text(STAGED_LAUNCH.format(option=option))
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu",
           "BBX_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "bbx.cli", "run", "--emit",
                           str(tmp_path / "emit"), str(script)], env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    if fragment.startswith("k<"):
        assert done.returncode == 0 and "PASS" in done.stdout, done.stdout[-3000:]
        text = next((tmp_path / "emit").glob("options.h.*.hip")).read_text()
        assert fragment in text
        assert "bbx::launch_options{.cooperative = true, .smem_carveout = 30}" in text
    else:
        assert done.returncode == 1, done.stdout[-3000:]
        assert "options.py:15:" in done.stdout and fragment in done.stdout, done.stdout[-3000:]
        assert "Traceback" not in done.stdout


def test_cluster_from_a_value_the_function_cannot_see_is_nvidia_only() -> None:
    # (NVIDIA's tutorials set `cluster_shape_mnk` in their `main`, a global kernels cannot see)
    source = LAUNCH.format(option="cluster=cluster_shape_mnk")
    result = translate_snippet(source, "launch.py")
    assert not result.ok
    assert [d.code for d in result.diagnostics] == ["nvidia-only"], result.render_diagnostics()
