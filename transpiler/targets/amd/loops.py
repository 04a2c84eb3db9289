"""The hot loop of an AMD kernel, from its disassembly: the loop that runs once per k-tile.

An edge of the control-flow graph (a branch, `s_cbranch_*` or `s_branch`, or a fall-through)
into a basic block that dominates its source closes a natural loop: that block (the header) and
the blocks from which the edge's source is reached without passing through the header. The
compiler lays blocks out of order, so a loop is its blocks, not the addresses between a backward
branch and its target: a rotated loop is entered in its middle, and a backward branch to a block
that does not dominate it (a predicated block placed after the code it returns to) closes no
loop. The *hot loop* is the loop whose body holds the most
global-memory loads plus matrix instructions (`v_mfma*`, `v_smfmac*`), the smallest such loop
when several hold as many (the innermost): in a GEMM that is the loop over k-tiles, which loads
the next tiles and multiplies the current ones; in a reduction it is the loop over a row's
chunks. A loop that only multiplies (an unrolled fragment loop the compiler left rolled, an
epilogue) counts fewer than the k-tile loop around it, whose loads it lacks. Its share of matrix
instructions is what a GEMM's hot loop is judged by (HipKittens' BF16 GEMM: 41.7% on gfx950,
51.4% on gfx942, compiled by the same clang). A kernel without such a loop has no hot loop.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import memory

#: `0000000000002900 <symbol>:` — a symbol and its address
_SYMBOL = re.compile(r"^([0-9a-fA-F]+) <(.+)>:\s*$")
#: an instruction line's address, in the comment objdump appends: `// 0000000029DC: ...`
_ADDRESS = re.compile(r"//\s*([0-9a-fA-F]+):")
#: a branch target: `<symbol+0x1af0>`
_TARGET = re.compile(r"<[^<>]*\+0x([0-9a-fA-F]+)>\s*$")
_MATRIX = ("v_mfma", "v_smfmac")
#: instructions that move data between lanes: LDS-routed permutes and swizzles, lane reads and
#: writes, permlanes; and DPP forms (`..._dpp` or DPP controls among the operands)
_CROSS_LANE = ("ds_bpermute", "ds_permute", "ds_swizzle", "v_readlane", "v_writelane",
               "v_permlane")
_DPP_CONTROL = re.compile(r"\b(quad_perm|row_shl|row_shr|row_ror|row_mirror|row_half_mirror|"
                          r"row_bcast|row_share|row_xmask|wave_shl|wave_shr|wave_rol|wave_ror)")


@dataclass(frozen=True)
class Instruction:
    address: int
    mnemonic: str
    target: int | None  # a branch's target address
    operands: str = ""  # the operand text, e.g. `vmcnt(3) lgkmcnt(0)` of an `s_waitcnt`


def is_cross_lane(i: Instruction) -> bool:
    """Whether `i` moves data between lanes."""
    return (i.mnemonic.startswith(_CROSS_LANE) or i.mnemonic.endswith("_dpp")
            or bool(_DPP_CONTROL.search(i.operands)))


@dataclass(frozen=True)
class HotLoop:
    start: int  # address of its first instruction (the backward branch's target)
    end: int  # address of the backward branch
    body: tuple[Instruction, ...]

    @property
    def instructions(self) -> int:
        return len(self.body)

    @property
    def matrix(self) -> int:
        """v_mfma / v_smfmac instructions."""
        return sum(1 for i in self.body if i.mnemonic.startswith(_MATRIX))

    @property
    def matrix_share(self) -> float:
        return self.matrix / self.instructions if self.instructions else 0.0

    def lds_read_widths(self) -> dict[str, int]:
        """LDS reads by mnemonic (`ds_read_u16`, `ds_read_b128`, `ds_read_b64_tr_b16`...), in
        name order."""
        counts: dict[str, int] = {}
        for i in self.body:
            if memory.is_lds_read(i.mnemonic):
                counts[i.mnemonic] = counts.get(i.mnemonic, 0) + 1
        return dict(sorted(counts.items()))

    def as_dict(self) -> dict[str, float | int | dict[str, int]]:
        mem = memory.parallelism(list(self.body), repeat=True)
        return {
            "instructions": self.instructions,
            "mfma": self.matrix,
            "mfma_share": round(self.matrix_share, 4),
            "global_loads": mem.loads,
            "lds_reads": sum(1 for i in self.body if memory.is_lds_read(i.mnemonic)),
            "lds_read_widths": self.lds_read_widths(),
            "cross_lane": sum(1 for i in self.body if is_cross_lane(i)),
            # branches on the exec mask: code some lanes skip (a predicated copy's chunk...)
            "exec_branches": sum(1 for i in self.body
                                 if i.mnemonic.startswith(("s_cbranch_execz", "s_cbranch_execnz"))),
            "loads_in_flight": mem.peak_loads_in_flight,
            "vmcnt_waits_full": mem.full_waits,
            "vmcnt_waits_partial": mem.partial_waits,
        }


def instructions_by_symbol(disassembly: str) -> dict[str, list[Instruction]]:
    """Each symbol's instructions with their addresses, branch targets and operands."""
    out: dict[str, list[Instruction]] = {}
    current: list[Instruction] | None = None
    base = 0
    for line in disassembly.splitlines():
        header = _SYMBOL.match(line)
        if header:
            base = int(header.group(1), 16)
            current = out.setdefault(header.group(2), [])
            continue
        if current is None or not line.startswith(("\t", " ")):
            if not line.strip():
                current = None
            continue
        address = _ADDRESS.search(line)
        text = line.split("//")[0].strip()
        if not text or address is None:
            continue
        mnemonic, _, operands = text.partition(" ")
        target = None
        if mnemonic == "s_branch" or mnemonic.startswith("s_cbranch_"):
            found = _TARGET.search(line)
            if found:
                target = base + int(found.group(1), 16)
        current.append(Instruction(int(address.group(1), 16), mnemonic, target, operands.strip()))
    return out


def _weight(body: list[Instruction]) -> int:
    return sum(1 for i in body
               if i.mnemonic.startswith(_MATRIX) or memory.is_vector_memory_load(i.mnemonic))


#: branches after which control does not fall through to the next instruction
_NO_FALL_THROUGH = ("s_branch", "s_endpgm", "s_setpc", "s_trap")


def _blocks(instructions: list[Instruction]) -> list[list[Instruction]]:
    """Basic blocks in address order: a block starts at the first instruction, at a branch
    target and after a branch."""
    leaders = {i.target for i in instructions if i.target is not None}
    blocks: list[list[Instruction]] = []
    for i in instructions:
        if not blocks or i.address in leaders or _ends_block(blocks[-1][-1]):
            blocks.append([])
        blocks[-1].append(i)
    return blocks


def _ends_block(i: Instruction) -> bool:
    return i.target is not None or i.mnemonic.startswith(_NO_FALL_THROUGH)


def _predecessors(blocks: list[list[Instruction]]) -> list[list[int]]:
    start = {b[0].address: n for n, b in enumerate(blocks)}
    preds: list[list[int]] = [[] for _ in blocks]
    for n, block in enumerate(blocks):
        last = block[-1]
        if last.target is not None and last.target in start:
            preds[start[last.target]].append(n)
        if not last.mnemonic.startswith(_NO_FALL_THROUGH) and n + 1 < len(blocks):
            preds[n + 1].append(n)
    return preds


def _dominators(preds: list[list[int]]) -> list[int]:
    """Each block's dominators as a bit set (block 0 is the entry)."""
    everything = (1 << len(preds)) - 1
    dom = [everything] * len(preds)
    if preds:
        dom[0] = 1
    changed = True
    while changed:
        changed = False
        for n in range(1, len(preds)):
            new = everything
            for p in preds[n]:
                new &= dom[p]
            new = (new if preds[n] else 0) | (1 << n)
            if new != dom[n]:
                dom[n] = new
                changed = True
    return dom


def _natural_loop(header: int, latch: int, preds: list[list[int]]) -> set[int]:
    """The blocks of the loop closed by the edge latch -> header (the header dominates the
    latch): the header and the blocks that reach the latch without passing through it."""
    body = {header, latch}
    work = [latch] if latch != header else []
    while work:
        for p in preds[work.pop()]:
            if p not in body:
                body.add(p)
                work.append(p)
    return body


def hot_loop(instructions: list[Instruction]) -> HotLoop | None:
    """The loop holding the most global loads plus matrix instructions (the smallest of those),
    or None when no loop holds any."""
    blocks = _blocks(instructions)
    preds = _predecessors(blocks)
    dom = _dominators(preds)
    best: tuple[int, int] | None = None
    found: HotLoop | None = None
    for header, into in enumerate(preds):
        for latch in into:
            if not dom[latch] >> header & 1:
                continue  # not a back edge
            body = [i for n in sorted(_natural_loop(header, latch, preds)) for i in blocks[n]]
            weight = _weight(body)
            if weight == 0:
                continue
            key = (weight, -len(body))
            if best is None or key > best:
                best = key
                found = HotLoop(blocks[header][0].address, blocks[latch][-1].address, tuple(body))
    return found
