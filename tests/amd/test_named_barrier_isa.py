"""`cutlass.pipeline.NamedBarrier` in AMD ISA (issue 28; clang-22, device only, gfx942, staged):
a barrier that every thread of the block waits at is the block barrier (s_barrier, none of the
LDS barrier's compare-and-swap, lane reads or polling; with a run-time block extent, chosen at
run time by comparing the thread count with the block's); a barrier of half the block, and one a
producer only arrives at, keep the named barrier in LDS (s_barrier would deadlock the latter).
The kernels are the simulator test's (tests/trace/named_barrier_kernels.py). Skipped without
clang++-22 / llvm-objdump-22."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.amd.bundle_isa import largest_kernel, skip_without_amd_tools
from tests.trace.named_barrier_kernels import FULL_BLOCK, HALVES, PRODUCER_CONSUMER, THREADS, script

X = f"i32[{THREADS}]:stride(1)@16"
OUT = f"i32[{THREADS},2]:stride(2,1)@16"
#: what the LDS named barrier (platform/amd/named_barrier_hooks.hpp) is made of
LDS_BARRIER = ("ds_cmpst_rtn_b64", "v_readlane_b32", "s_sleep")


def _kernel_mix(tmp_path: Path, body: str, run_time_block: bool = False) -> Counter[str]:
    """The instructions of the kernel that runs `body`, built for gfx942 by staged execution;
    with `run_time_block`, launched with a block extent that `host` takes as an Int32."""
    skip_without_amd_tools()
    text = script(body, [0] * THREADS, 1)
    args = [X, OUT]
    if run_time_block:
        host = "def host(mX: cute.Tensor, mOut: cute.Tensor"
        launch = "block=(T, 1, 1)"
        assert host + "):" in text and launch in text
        text = text.replace(host + "):", host + ", n: cutlass.Int32):")
        text = text.replace(launch, "block=(n, 1, 1)")
        args.append("i32")
    source = tmp_path / "kernels.py"
    source.write_text(text)
    code = largest_kernel(f"{source}:host", tmp_path / "gfx942", args=args,
                          env={"BBX_CACHE_DIR": str(tmp_path / "cache")})
    return Counter(i.mnemonic for i in code)


def test_whole_block_named_barrier_is_s_barrier(tmp_path: Path) -> None:
    mix = _kernel_mix(tmp_path, FULL_BLOCK)
    assert mix["s_barrier"] >= 3, mix  # three arrive_and_wait / sync
    assert not any(mix[m] for m in LDS_BARRIER), mix
    assert not any(m.startswith("ds_cmpst") for m in mix), mix


def test_run_time_block_chooses_s_barrier_by_the_thread_count(tmp_path: Path) -> None:
    # the block's size is read from the dispatch: both forms are there, chosen by a compare
    mix = _kernel_mix(tmp_path, FULL_BLOCK, run_time_block=True)
    assert mix["s_barrier"] >= 3 and mix["ds_cmpst_rtn_b64"] > 0, mix


def test_half_block_named_barriers_stay_in_lds(tmp_path: Path) -> None:
    mix = _kernel_mix(tmp_path, HALVES)
    assert mix["ds_cmpst_rtn_b64"] > 0 and mix["v_readlane_b32"] > 0, mix


def test_barrier_a_producer_only_arrives_at_stays_in_lds(tmp_path: Path) -> None:
    mix = _kernel_mix(tmp_path, PRODUCER_CONSUMER)
    assert mix["ds_cmpst_rtn_b64"] > 0 and mix["v_readlane_b32"] > 0, mix
    assert mix["s_barrier"] == 0, mix  # no barrier of this kernel is waiting-only
