"""`cutlass.pipeline.NamedBarrier` under staged execution (BBX_STAGED=1) on the simulator, in
checked mode, against numpy on fresh random inputs: a barrier over the whole block (the block
barrier on AMD), barriers over half the block each (2 of 4 warps: named barriers), and a
producer that only arrives with consumers that wait on a whole-block count (the named barrier
stays: s_barrier would deadlock). Each kernel exchanges values through shared memory across
the barrier, two phases in a row, so a barrier that let a thread through early reads a stale
value. The emitted kernel declares which ids are met otherwise than by waiting (the mask that
bbx/experimental/barrier.hpp's KernelNamedBarrier reads)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from .named_barrier_kernels import FULL_BLOCK, HALVES, PRODUCER_CONSUMER, THREADS, script


def _run(tmp_path: Path, body: str, x: np.ndarray, shift: int) -> tuple[np.ndarray, str]:
    """The kernel's output and its emitted C++ (`bbx run --emit`) on the simulator, checked."""
    (tmp_path / "driver.py").write_text(script(body, x.tolist(), shift))
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu", "BBX_SIM_CHECK": "1",
           "BBX_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", "--emit",
                           str(tmp_path / "emit"), str(tmp_path / "driver.py")],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600, check=False)
    assert proc.returncode == 0 and "DONE" in proc.stdout, proc.stdout[-4000:]
    emitted = "\n".join(p.read_text() for p in sorted((tmp_path / "emit").rglob("*"))
                        if p.is_file() and p.suffix in (".hip", ".cpp", ".hpp", ".cu"))
    return np.load(tmp_path / "out.npy"), emitted


def _arriving_ids(emitted: str) -> int:
    """The mask the kernel declares: `using NamedBarrier = bbx::KernelNamedBarrier<..., M>;`."""
    found = re.findall(r"using NamedBarrier = bbx::KernelNamedBarrier<MaxThreads, (0x[0-9a-f]+)u>",
                       emitted)
    assert len(found) == 1, emitted[-3000:]
    return int(found[0], 16)


def _inputs() -> tuple[np.ndarray, int]:
    rng = np.random.default_rng()
    return rng.integers(-1000, 1000, THREADS).astype(np.int32), int(rng.integers(1, 63))


def test_full_block_named_barrier(tmp_path: Path) -> None:
    x, shift = _inputs()
    out, emitted = _run(tmp_path, FULL_BLOCK, x, shift)
    t = np.arange(THREADS)
    first = (x * 3)[(t + shift) % THREADS]
    np.testing.assert_array_equal(out[:, 0], first)
    np.testing.assert_array_equal(out[:, 1], (first + t)[THREADS - 1 - t])
    assert _arriving_ids(emitted) == 0  # barrier 1 only ever waits: the block barrier on AMD


def test_half_block_named_barriers(tmp_path: Path) -> None:
    x, shift = _inputs()
    out, emitted = _run(tmp_path, HALVES, x, shift)
    t = np.arange(THREADS)
    base = t // 64 * 64
    first = (x * 3)[base + (t - base + shift) % 64]
    np.testing.assert_array_equal(out[:, 0], first)
    np.testing.assert_array_equal(out[:, 1], (first + t)[base + 63 - (t - base)])
    # no plain arrivals: the ids may take the block barrier, which the 64-thread count declines
    assert _arriving_ids(emitted) == 0


def test_producer_arrives_consumers_wait_on_the_whole_block(tmp_path: Path) -> None:
    x, shift = _inputs()
    out, emitted = _run(tmp_path, PRODUCER_CONSUMER, x, shift)
    t = np.arange(64, THREADS)
    np.testing.assert_array_equal(out[64:, 0], (x[:64] * 3)[(t + shift) % 64])
    second = x[64:] + np.arange(64)
    np.testing.assert_array_equal(out[64:, 1], second[63 - (t - 64)])
    np.testing.assert_array_equal(out[:64], -7)  # producers write no output
    assert _arriving_ids(emitted) == (1 << 4) | (1 << 5)  # both keep the named barrier
