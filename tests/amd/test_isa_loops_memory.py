"""`bbx inspect`'s reading of AMD disassembly: the hot loop (bbx.targets.amd.loops) and memory
parallelism (bbx.targets.amd.memory), on hand-written instruction listings in llvm-objdump's
format."""

from __future__ import annotations

from bbx.targets.amd import loops, memory

_SYM = "_Zkernel"
_MFMA = "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], 0"
_LOAD = "global_load_dwordx4 v[8:11], v[2:3], off"


def _listing(body: list[tuple[int, str]]) -> list[loops.Instruction]:
    """(offset, instruction text) rows as llvm-objdump prints them, parsed back."""
    lines = [f"0000000000001000 <{_SYM}>:"]
    for offset, text in body:
        op, _, rest = text.partition(" ")
        operands, _, target = rest.partition(" <")
        suffix = f" <{target}" if target else ""
        lines.append(f"\t{op} {operands}    // {0x1000 + offset:012X}: 00000000{suffix}")
    return loops.instructions_by_symbol("\n".join(lines))[_SYM]


def test_operands_are_kept() -> None:
    code = _listing([(0x0, "s_waitcnt vmcnt(3) lgkmcnt(0)"), (0x4, _LOAD)])
    assert [(i.mnemonic, i.operands) for i in code] == [
        ("s_waitcnt", "vmcnt(3) lgkmcnt(0)"), ("global_load_dwordx4", "v[8:11], v[2:3], off")]


def test_hot_loop_is_the_k_tile_loop_not_an_inner_mfma_loop() -> None:
    # an outer loop 0x10..0x48 (loads + 3 MFMA) around an inner loop 0x18..0x30 holding 2 MFMA
    # and no loads: the outer loop (the k-tiles) is the hot loop
    code = _listing([
        (0x00, "s_mov_b32 s0, 0"), (0x10, _LOAD), (0x14, _MFMA),
        (0x18, _MFMA), (0x20, _MFMA), (0x28, "s_add_u32 s0, s0, 1"),
        (0x30, f"s_cbranch_scc1 65530 <{_SYM}+0x18>"),
        (0x38, "s_waitcnt vmcnt(0)"), (0x48, f"s_cbranch_scc0 65520 <{_SYM}+0x10>"),
        (0x4c, f"s_branch 2 <{_SYM}+0x54>"), (0x50, "s_endpgm"),
    ])
    loop = loops.hot_loop(code)
    assert loop is not None
    assert (loop.start, loop.end, loop.matrix, loop.instructions) == (0x1010, 0x1048, 3, 8)
    assert loop.as_dict()["global_loads"] == 1
    assert loops.hot_loop(code[:1]) is None


def test_the_smallest_of_equal_loops_is_hot() -> None:
    code = _listing([
        (0x00, _LOAD), (0x04, _MFMA), (0x08, f"s_cbranch_scc1 0 <{_SYM}+0x0>"),
        (0x0c, "s_nop 0"), (0x10, f"s_cbranch_scc0 0 <{_SYM}+0x0>"),
    ])
    loop = loops.hot_loop(code)
    assert loop is not None and (loop.start, loop.end) == (0x1000, 0x1008)


def test_a_rotated_loop_is_its_blocks_entered_in_the_middle() -> None:
    # the compiler entered the k-tile loop at 0x20 (its header) and placed the loop's first
    # half at 0x10..0x18: the loop is the blocks 0x10..0x28 headed by 0x20, not the prologue
    code = _listing([
        (0x00, _LOAD), (0x04, f"s_branch 6 <{_SYM}+0x20>"),
        (0x10, _MFMA), (0x18, _MFMA),
        (0x20, _LOAD), (0x24, "s_add_u32 s0, s0, 1"), (0x28, f"s_cbranch_scc1 0 <{_SYM}+0x10>"),
        (0x2c, "s_endpgm"),
    ])
    loop = loops.hot_loop(code)
    assert loop is not None
    assert (loop.start, loop.matrix, loop.instructions) == (0x1020, 2, 5)
    assert loop.as_dict()["global_loads"] == 1


def test_a_backward_branch_to_a_block_that_does_not_dominate_it_is_no_loop() -> None:
    # a predicated load placed at the end (0x30..0x38) returns to 0x14, which the entry reaches
    # without it: no loop, however many loads and MFMA lie between 0x14 and 0x38
    code = _listing([
        (0x00, "s_and_saveexec_b64 s[2:3], vcc"), (0x04, f"s_cbranch_execnz 10 <{_SYM}+0x30>"),
        (0x08, f"s_branch 2 <{_SYM}+0x14>"),
        (0x14, _MFMA), (0x1c, _MFMA), (0x24, _LOAD), (0x28, "s_endpgm"),
        (0x30, _LOAD), (0x38, f"s_branch 0 <{_SYM}+0x14>"),
    ])
    assert loops.hot_loop(code) is None


def test_lds_reads_are_counted_by_width_and_exec_branches_counted() -> None:
    code = _listing([
        (0x00, _LOAD), (0x04, "ds_read_u16 v1, v2"), (0x08, "ds_read_u16 v3, v2 offset:128"),
        (0x0c, f"s_cbranch_execz 1 <{_SYM}+0x14>"), (0x10, "ds_read_b128 v[4:7], v2"),
        (0x14, _MFMA), (0x1c, f"s_cbranch_scc1 0 <{_SYM}+0x0>"), (0x20, "s_endpgm"),
    ])
    loop = loops.hot_loop(code)
    assert loop is not None
    assert loop.as_dict()["lds_read_widths"] == {"ds_read_b128": 1, "ds_read_u16": 2}
    assert loop.as_dict()["exec_branches"] == 1


def test_cross_lane_instructions_are_counted() -> None:
    # LDS-routed permutes and swizzles, lane reads, DPP (by mnemonic or by control), not LDS
    # reads or plain ALU
    code = _listing([
        (0x00, _LOAD), (0x04, _MFMA),
        (0x08, "ds_bpermute_b32 v1, v2, v3"),
        (0x0c, "ds_swizzle_b32 v4, v5 offset:swizzle(SWAP,16)"),
        (0x10, "v_readlane_b32 s4, v6, 3"), (0x14, "v_mov_b32_dpp v7, v8 quad_perm:[1,0,3,2]"),
        (0x18, "v_add_f32_e32 v9, v9, v10 row_shr:1"), (0x1c, "ds_read_b64 v[12:13], v14"),
        (0x20, "v_max_f32_e32 v15, v15, v16"), (0x24, f"s_cbranch_scc1 0 <{_SYM}+0x0>"),
    ])
    loop = loops.hot_loop(code)
    assert loop is not None
    assert loop.as_dict()["cross_lane"] == 5
    assert loop.as_dict()["lds_reads"] == 1


def _mem(rows: list[str], repeat: bool = False) -> memory.Parallelism:
    return memory.parallelism(_listing([(4 * i, r) for i, r in enumerate(rows)]), repeat)


def test_one_load_in_flight_when_each_load_is_waited_for() -> None:
    rows = [_LOAD, "s_waitcnt vmcnt(0)", "ds_write_b128 v1, v[8:11]"] * 4
    assert _mem(rows) == memory.Parallelism(loads=4, peak_loads_in_flight=1, full_waits=4,
                                            partial_waits=0)


def test_loads_issued_before_a_partial_wait_are_in_flight_together() -> None:
    rows = [_LOAD] * 4 + ["s_waitcnt vmcnt(3)", "v_add_f32 v0, v1, v2",
                          "s_waitcnt vmcnt(2)", "s_waitcnt vmcnt(0)"]
    assert _mem(rows) == memory.Parallelism(4, 4, 1, 2)


def test_stores_share_the_counter_but_are_not_loads() -> None:
    store = "global_store_dwordx4 v[2:3], v[8:11], off"
    rows = [store, _LOAD, store, _LOAD, "s_waitcnt vmcnt(1)", _LOAD, "s_waitcnt 0"]
    # after vmcnt(1) one op remains (the second load); the third joins it: 2 loads in flight
    assert _mem(rows) == memory.Parallelism(3, 2, 1, 1)


def test_a_pipelined_loop_keeps_last_iterations_loads_in_flight() -> None:
    # each iteration issues two loads and waits only for those of the iteration before
    body = [_LOAD, _LOAD, "s_waitcnt vmcnt(2)", _MFMA]
    assert _mem(body).peak_loads_in_flight == 2
    assert _mem(body, repeat=True).peak_loads_in_flight == 4


def test_lds_and_scratch_are_not_global_loads() -> None:
    assert memory.is_lds_read("ds_read_b128") and memory.is_lds_read("ds_load_b64")
    assert not memory.is_vector_memory_load("scratch_load_dword")
    assert memory.is_vector_memory("scratch_store_dword")
    assert memory.is_vector_memory_load("buffer_load_dword")
