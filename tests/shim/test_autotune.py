"""The DSL's autotuners on the simulator: ``testing.autotune_jit`` compiles a jit function for
every configuration, keeps the fastest (a kernel doing the least work), remembers it per value of
the ``update_on_change`` arguments, and the result is right (against Python integers on random
inputs); ``testing.tune`` skips a configuration that cannot be implemented and returns the
fastest."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

AUTOTUNED = '''
import os
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute import testing

REPS = {reps}


@cute.kernel
def chain_kernel(x: cute.Tensor, out: cute.Tensor, steps: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    acc = x[tidx]
    for i in cutlass.range(steps):  # a run-time loop: steps is a run-time number
        acc = (acc * 3 + i) % 1000003
    out[tidx] = acc


@testing.autotune_jit(params_dict={{"reps": REPS}}, update_on_change=["n"],
                      warmup_iterations=1, iterations=3)
@cute.jit
def chain(x: cute.Tensor, out: cute.Tensor, n: cutlass.Int32, reps: cutlass.Constexpr = 7):
    chain_kernel(x, out, n * reps).launch(grid=(1, 1, 1), block=(64, 1, 1))


def expected(x, n, reps):
    out = []
    for v in x.tolist():
        for i in range(n * reps):
            v = (v * 3 + i) % 1000003
        out.append(v)
    return torch.tensor(out, dtype=torch.int32)


x = torch.randint(0, 1000, (64,), dtype=torch.int32)
out = torch.zeros(64, dtype=torch.int32)
chain(x, out, 64)
best = min(REPS)
assert torch.equal(out, expected(x, 64, best)), (out, expected(x, 64, best))
y = torch.randint(0, 1000, (64,), dtype=torch.int32)
chain(y, out, 64)  # the remembered compilation
assert torch.equal(out, expected(y, 64, best))
chain(y, out, 65)  # another value of an update_on_change argument: tuned again
assert torch.equal(out, expected(y, 65, best))
print("PASS")
'''


def test_autotune_jit_picks_the_fastest(tmp_path: Path) -> None:
    reps = random.sample([1, 2, 3], 1) + [300, 900]
    random.shuffle(reps)
    (tmp_path / "driver.py").write_text(AUTOTUNED.format(reps=reps))
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu", "CUTE_DSL_LOG_AUTOTUNE": "1",
           "BBX_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(tmp_path / "driver.py")],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=900, check=False)
    assert proc.returncode == 0 and "PASS" in proc.stdout, (reps, proc.stdout[-4000:])
    best = min(reps)
    assert proc.stdout.count(f"Best configuration: {{'reps': {best}}}") == 2, proc.stdout[-4000:]
    assert proc.stdout.count("Using cached best configuration") == 1, proc.stdout[-4000:]
    assert proc.stdout.count("Tuning configuration") == 2 * len(reps), proc.stdout[-4000:]


def test_tune_skips_what_cannot_be_implemented(cutlass: ModuleType, cpu_target: None) -> None:
    from cutlass import testing

    made: list[dict[str, Any]] = []

    def build(scale: int, sleep_ms: float = 0.0) -> Any:
        made.append({"scale": scale, "sleep_ms": sleep_ms})
        if sleep_ms < 0:
            raise testing.CantImplementError("negative sleep")
        if scale == 0:
            raise ValueError("scale 0 is not implemented")
        return lambda: time.sleep(sleep_ms / 1e3)

    best = testing.tune(build, params_dict={"sleep_ms": [8.0, -1.0, 0.5, 4.0]},
                        kernel_arguments=testing.JitArguments(3), warmup_iterations=1,
                        iterations=3)
    assert best == {"sleep_ms": 0.5}
    assert [m["sleep_ms"] for m in made] == [8.0, -1.0, 0.5, 4.0]
    assert all(m["scale"] == 3 for m in made)
    with pytest.raises(ValueError, match="No best kernel found"):
        testing.tune(build, params_dict={"scale": [0]}, kernel_arguments=testing.JitArguments())
    with pytest.raises(ValueError, match="params_dict must be provided"):
        testing.tune(build)
