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
    (tmp_path / "driver.py").write_text(textwrap.dedent(SCRIPT.format(group=group, limit=limit)))
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu", "BBX_SIM_CHECK": "1",
           "BBX_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(tmp_path / "driver.py")],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    assert proc.returncode == 0 and "PASS" in proc.stdout, (group, limit, proc.stdout[-4000:])
