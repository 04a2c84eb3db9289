"""The m16n8-exact mode's copies in AMD ISA (issue 28): NVIDIA's flash_attention_v2.py (the
corpus, unmodified; bf16, head_dim 128, 128x64 tiles, 128 threads, non-causal) by staged
execution for gfx942 (clang-22, device only), read with `bbx inspect`'s loop finder.

What the copies can reach under renamed lanes, derived from the configuration:
* global -> shared (Q, K, V: 8 bf16 a thread, 16-byte aligned) as dwordx4 loads only;
* shared -> registers in the n-block loop: each logical lane reads NVIDIA's SM80 fragment, so
  Q (A, ldmatrix) and K (B, ldmatrix, the mode's sigma order) come in contiguous k pairs, read as
  b32 (or two b32 in one ds_read2*); only V^T (B of P @ V, ldmatrix.trans: a lane's 4 values of
  an MFMA are 4 keys of one head column, a row pitch apart in shared memory) is read 16 bits at
  a time, one read per value;
* cross-lane: the softmax's quad reductions only (ds_swizzle / ds_bpermute on gfx942); the
  `NamedBarrier(1, 128).arrive_and_wait()` (two per n-block) spans the block and sees no plain
  arrive, so it is s_barrier (bbx::KernelNamedBarrier), not the LDS named barrier with its
  compare-and-swap and readlanes (platform/amd/named_barrier_hooks.hpp).
Skipped without clang++-22 / llvm-objdump-22 or without the corpus."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from bbx.targets.amd import loops
from tests.amd.bundle_isa import largest_kernel

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("BBX_CUTLASS_CORPUS", ROOT.parent / "shared" / "corpus" / "cutlass"))
SCRIPT = CORPUS / "cute" / "ampere" / "kernel" / "attention" / "flash_attention_v2.py"
QKVO = "bf16[?,?,?,?{div=8}]:stride(?{div=8},?{div=8},?{div=8},1)@16"
HEAD_DIM, M_BLOCK, N_BLOCK, THREADS = 128, 128, 64, 128
WAVE = 64
WAVES = THREADS // WAVE

#: 32-bit words an LDS read instruction brings to a lane; 16-bit reads are counted apart
LDS_READ_DWORDS = {"ds_read_b32": 1, "ds_read2_b32": 2, "ds_read2st64_b32": 2, "ds_read_b64": 2,
                   "ds_read2_b64": 4, "ds_read2st64_b64": 4, "ds_read_b96": 3, "ds_read_b128": 4}
LDS_READ_16 = ("ds_read_u16", "ds_read_i16", "ds_read_u16_d16", "ds_read_u16_d16_hi")


@pytest.fixture(scope="module")
def fa2_gfx942(tmp_path_factory: pytest.TempPathFactory) -> list[loops.Instruction]:
    """The attention kernel's instructions (the module's largest symbol)."""
    if not SCRIPT.is_file():
        pytest.skip(f"no {SCRIPT}")
    init = [f"head_dim={HEAD_DIM}", f"m_block_size={M_BLOCK}", f"n_block_size={N_BLOCK}",
            f"num_threads={THREADS}", "is_causal=False"]
    return largest_kernel(f"{SCRIPT}:FlashAttentionForwardAmpere.__call__",
                          tmp_path_factory.mktemp("fa2-exact") / "gfx942",
                          init=init, args=[QKVO] * 4 + ["f32"])


def _hot_loop(code: list[loops.Instruction]) -> Counter[str]:
    loop = loops.hot_loop(code)
    assert loop is not None, "no n-block loop found"
    return Counter(i.mnemonic for i in loop.body)


def test_global_loads_are_16_bytes(fa2_gfx942: list[loops.Instruction]) -> None:
    loads = Counter(i.mnemonic for i in fa2_gfx942
                    if i.mnemonic.startswith(("global_load", "buffer_load", "flat_load")))
    assert loads and set(loads) == {"global_load_dwordx4"}, loads


def test_n_block_loop_reads_fragments_as_wide_as_they_are_contiguous(
        fa2_gfx942: list[loops.Instruction]) -> None:
    mix = _hot_loop(fa2_gfx942)
    # a wave holds 2 warps' rows of Q (A) and all of the K and V tiles (B)
    q_values = M_BLOCK // WAVES * HEAD_DIM // WAVE
    k_values = v_values = N_BLOCK * HEAD_DIM // WAVE
    reads_16 = sum(mix[m] for m in LDS_READ_16)
    dwords = sum(n * mix[m] for m, n in LDS_READ_DWORDS.items())
    assert reads_16 <= v_values, (reads_16, mix)  # V^T alone; Q and K never 16 bits at a time
    assert dwords >= (q_values + k_values) // 2, (dwords, mix)
    # the next K and V tiles, 8 values a load
    assert {m for m in mix if m.startswith("global_load")} == {"global_load_dwordx4"}, mix
    assert mix["global_load_dwordx4"] * 8 == 2 * N_BLOCK * HEAD_DIM // THREADS, mix


def test_n_block_loop_moves_data_across_lanes_only_for_the_softmax(
        fa2_gfx942: list[loops.Instruction]) -> None:
    mix = _hot_loop(fa2_gfx942)
    shuffles = mix["ds_swizzle_b32"] + mix["ds_bpermute_b32"]
    assert 0 < shuffles <= 8, mix  # the row max of a lane's 4 rows: xor 1 and 2 in its quad
    # the whole-block named barriers are s_barrier: no LDS barrier's readlanes or compare-and-swap
    assert mix["v_readlane_b32"] == 0 and mix["s_barrier"] >= 2, mix
    assert not any(m.startswith("ds_cmpst") for m in mix), mix
    assert not any(m.startswith(("v_permlane", "ds_permute", "v_writelane")) or m.endswith("_dpp")
                   for m in mix), mix
