"""The hot loop of an AMD kernel, from its disassembly: the loop that runs once per k-tile.

A backward branch (`s_cbranch_*` or `s_branch` to a lower address of the same symbol) closes a
loop spanning from its target to itself. The *hot loop* is the loop whose body holds the most
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

    def as_dict(self) -> dict[str, float | int]:
        mem = memory.parallelism(list(self.body), repeat=True)
        return {
            "instructions": self.instructions,
            "mfma": self.matrix,
            "mfma_share": round(self.matrix_share, 4),
            "global_loads": mem.loads,
            "lds_reads": sum(1 for i in self.body if memory.is_lds_read(i.mnemonic)),
            "cross_lane": sum(1 for i in self.body if is_cross_lane(i)),
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


def hot_loop(instructions: list[Instruction]) -> HotLoop | None:
    """The loop holding the most global loads plus matrix instructions (the smallest of those),
    or None when no loop holds any."""
    best: tuple[int, int] | None = None
    found: HotLoop | None = None
    for branch in instructions:
        if branch.target is None or branch.target > branch.address:
            continue
        body = [i for i in instructions if branch.target <= i.address <= branch.address]
        weight = _weight(body)
        if weight == 0:
            continue
        key = (weight, -len(body))
        if best is None or key > best:
            best = key
            found = HotLoop(branch.target, branch.address, tuple(body))
    return found
