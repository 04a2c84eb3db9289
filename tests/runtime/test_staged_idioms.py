"""Library idioms under staged execution (BBX_STAGED=1), from what QuACK's kernels use: a
cp.async copy whose false predicate zero-fills shared memory (as NVIDIA's DSL lowers it),
`cute.arch.warp_reduction` over lane groups, two float32 packed into an int64 and back through
`Vector.bitcast`, `cute.arch.WARP_SIZE` as a Python int in host code, `launch(cluster=None)` —
on the simulator in checked mode, against torch on fresh random inputs."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = '''
import operator

import torch
import cutlass
import cutlass.cute as cute
from cutlass.base_dsl.typing import Vector
from cutlass.cute.nvgpu import cpasync
from cutlass.cute.runtime import from_dlpack

GROUP = {group}


@cute.kernel
def kernel(mX: cute.Tensor, mSum: cute.Tensor, mRest: cute.Tensor, limit: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    smem = cutlass.utils.SmemAllocator()
    sX = smem.allocate_tensor(cutlass.Float32, cute.make_layout(128), byte_alignment=16)
    atom = cute.make_copy_atom(cpasync.CopyG2SOp(), cutlass.Float32, num_bits_per_copy=128)
    thr = cute.make_tiled_copy_tv(atom, cute.make_layout(32), cute.make_layout(4)).get_slice(tidx)
    for i in cutlass.range_constexpr(4):  # what a copy that skipped would leave
        sX[tidx * 4 + i] = cutlass.Float32(-1.0e30)
    cute.arch.sync_threads()
    pred = cute.make_rmem_tensor(cute.make_layout((1, 1)), cutlass.Boolean)
    pred[0] = tidx < limit
    cute.copy(atom, thr.partition_S(mX), thr.partition_D(sX), pred=pred)
    cute.arch.cp_async_commit_group()
    cute.arch.cp_async_wait_group(0)
    cute.arch.sync_threads()
    v = sX[tidx * 4] + sX[tidx * 4 + 1] + sX[tidx * 4 + 2] + sX[tidx * 4 + 3]
    total = cute.arch.warp_reduction(v, operator.add, threads_in_group=GROUP)
    packed = Vector.from_elements((v, total), cutlass.Float32).bitcast(cutlass.Int64)
    bits = Vector.from_elements((packed.to_elements()[0],), cutlass.Int64)
    mine, group_total = bits.bitcast(cutlass.Float32).to_elements()
    mSum[tidx] = group_total
    mRest[tidx] = mine


@cute.jit
def host(mX: cute.Tensor, mSum: cute.Tensor, mRest: cute.Tensor, limit: cutlass.Int32):
    assert 128 % cute.arch.WARP_SIZE == 0
    kernel(mX, mSum, mRest, limit).launch(grid=[1, 1, 1], block=[cute.arch.WARP_SIZE, 1, 1],
                                          cluster=None)


x = torch.randn(128)
sums, rest = torch.full((32,), float("nan")), torch.full((32,), float("nan"))
host(from_dlpack(x), from_dlpack(sums), from_dlpack(rest), cutlass.Int32({limit}))
per_thread = x.view(32, 4).sum(1) * (torch.arange(32) < {limit})  # zero-filled beyond limit
torch.testing.assert_close(rest, per_thread)
expected = per_thread.view(-1, GROUP).sum(1).repeat_interleave(GROUP)
torch.testing.assert_close(sums, expected)
print("PASS")
'''


def test_cp_async_zero_fill_warp_reduction_and_packed_vectors(tmp_path: Path) -> None:
    rng = random.Random()
    group, limit = rng.choice([2, 4, 8, 16, 32]), rng.randint(1, 31)
    proc = _run_staged(tmp_path, SCRIPT.format(group=group, limit=limit))
    assert proc.returncode == 0 and "PASS" in proc.stdout, (group, limit, proc.stdout[-4000:])


def _run_staged(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    """`bbx run` of `script` by staged execution on the simulator, in checked mode."""
    (tmp_path / "driver.py").write_text(textwrap.dedent(script))
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu", "BBX_SIM_CHECK": "1",
           "BBX_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(tmp_path / "driver.py")],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)


PIPELINE_SCRIPT = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass import Int32
from cutlass.cute.runtime import from_dlpack
from cutlass.pipeline import PipelineState, PipelineUserType, make_pipeline_state

STAGES = {stages}


class StateWithJump(PipelineState):
    """A library's subclass (as QuACK's PipelineStateWAdvance), carried by the DSL's protocol."""

    def jump(self, n):
        self._count += n
        index = self._index + n
        self._phase ^= index // self.stages % 2
        self._index = index % self.stages

    def __new_from_mlir_values__(self, values):
        return StateWithJump(self.stages, values[0], values[1], values[2])


@cute.kernel
def kernel(mOut: cute.Tensor, mBits: cute.Tensor, n: Int32, scale: cutlass.Float32):
    tidx, _, _ = cute.arch.thread_idx()
    producer = make_pipeline_state(PipelineUserType.Producer, STAGES)
    other = StateWithJump(STAGES, Int32(0), Int32(0), Int32(0))
    for i in cutlass.range(n):  # a run-time loop: both states are carried by their methods
        if tidx == 0:
            mOut[i, 0] = producer.index
            mOut[i, 1] = producer.phase
            mOut[i, 2] = other.index
            mOut[i, 3] = other.phase
        producer.advance()
        other.jump(3)
    smem = cutlass.utils.SmemAllocator()
    words = smem.allocate_tensor(Int32, cute.make_layout(32), byte_alignment=16)
    floats = cute.make_tensor(cute.recast_ptr(words.iterator, dtype=cutlass.Float32),
                              cute.make_layout(32))
    floats[tidx] = cutlass.Float32(tidx) * scale
    cute.arch.sync_threads()
    mBits[tidx] = words[tidx]


@cute.jit
def host(mOut: cute.Tensor, mBits: cute.Tensor, n: Int32, scale: cutlass.Float32):
    kernel(mOut, mBits, n, scale).launch(grid=[1, 1, 1], block=[32, 1, 1])


n = {n}
out = torch.full((n, 4), -1, dtype=torch.int32)
bits = torch.zeros(32, dtype=torch.int32)
host(from_dlpack(out), from_dlpack(bits), Int32(n), cutlass.Float32({scale}))
expected = []
for i in range(n):
    expected.append([i % STAGES, 1 ^ (i // STAGES % 2), 3 * i % STAGES, (3 * i // STAGES) % 2])
assert out.tolist() == expected, (out.tolist(), expected)
torch.testing.assert_close(bits.view(torch.float32), torch.arange(32.0) * {scale})
print("PASS")
'''


def test_pipeline_states_in_a_run_time_loop_and_a_recast_pointer(tmp_path: Path) -> None:
    """Pipeline states advanced in a `cutlass.range` loop are loop-carried through their methods
    (NVIDIA's preprocessor carries names whose methods are called), a library subclass through
    the DSL's `__new_from_mlir_values__`; `cute.recast_ptr` views shared Int32 words as
    Float32."""
    rng = random.Random()
    stages, n, scale = rng.randint(2, 5), rng.randint(1, 12), round(rng.uniform(-4, 4), 3)
    proc = _run_staged(tmp_path, PIPELINE_SCRIPT.format(stages=stages, n=n, scale=scale))
    assert proc.returncode == 0 and "PASS" in proc.stdout, (stages, n, proc.stdout[-4000:])
