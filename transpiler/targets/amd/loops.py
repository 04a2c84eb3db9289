"""The main loop of an AMD kernel, from its disassembly: where the matrix instructions are.

A backward branch (`s_cbranch_*` or `s_branch` to a lower address of the same symbol) closes a
loop spanning from its target to itself. The *main loop* is the one holding the most `v_mfma*`
/ `v_smfmac*` instructions (the smallest such loop when several hold as many: the innermost);
its share of matrix instructions is what a GEMM's hot loop is judged by (HipKittens' BF16 GEMM:
41.7% on gfx950, 51.4% on gfx942, compiled by the same clang). Kernels without matrix
instructions have no main loop here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: `0000000000002900 <symbol>:` — a symbol and its address
_SYMBOL = re.compile(r"^([0-9a-fA-F]+) <(.+)>:\s*$")
#: an instruction line's address, in the comment objdump appends: `// 0000000029DC: ...`
_ADDRESS = re.compile(r"//\s*([0-9a-fA-F]+):")
#: a branch target: `<symbol+0x1af0>`
_TARGET = re.compile(r"<[^<>]*\+0x([0-9a-fA-F]+)>\s*$")
_MATRIX = ("v_mfma", "v_smfmac")


@dataclass(frozen=True)
class Instruction:
    address: int
    mnemonic: str
    target: int | None  # a branch's target address


@dataclass(frozen=True)
class MainLoop:
    start: int  # address of its first instruction (the backward branch's target)
    end: int  # address of the backward branch
    instructions: int
    matrix: int  # v_mfma / v_smfmac instructions

    @property
    def matrix_share(self) -> float:
        return self.matrix / self.instructions if self.instructions else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "instructions": self.instructions,
            "mfma": self.matrix,
            "mfma_share": round(self.matrix_share, 4),
        }


def instructions_by_symbol(disassembly: str) -> dict[str, list[Instruction]]:
    """Each symbol's instructions with their addresses and branch targets."""
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
        words = line.split("//")[0].split()
        if not words or address is None:
            continue
        mnemonic = words[0]
        target = None
        if mnemonic == "s_branch" or mnemonic.startswith("s_cbranch_"):
            found = _TARGET.search(line)
            if found:
                target = base + int(found.group(1), 16)
        current.append(Instruction(int(address.group(1), 16), mnemonic, target))
    return out


def main_loop(instructions: list[Instruction]) -> MainLoop | None:
    """The loop with the most matrix instructions (the smallest of those), or None."""
    best: MainLoop | None = None
    for branch in instructions:
        if branch.target is None or branch.target > branch.address:
            continue
        body = [i for i in instructions if branch.target <= i.address <= branch.address]
        matrix = sum(1 for i in body if i.mnemonic.startswith(_MATRIX))
        if matrix == 0:
            continue
        loop = MainLoop(branch.target, branch.address, len(body), matrix)
        if best is None or (loop.matrix, -loop.instructions) > (best.matrix, -best.instructions):
            best = loop
    return best
