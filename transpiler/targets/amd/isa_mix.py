"""The instruction mix of each kernel, from `llvm-objdump -d` of a code object.

Counted mnemonics (exact, as the disassembler prints them, e.g. `global_load_dwordx4`):
matrix ops (`v_mfma*`, `v_smfmac*`); global/buffer/flat/scratch loads, stores and atomics (the
width is part of the mnemonic: `_dword`, `_dwordx2`, `_dwordx4`, `_ubyte`, ...); LDS traffic
(`ds_read*`/`ds_write*`, `ds_load*`/`ds_store*` on newer spellings, `ds_read_b128`, ...);
cross-lane ops (`*_dpp`, `ds_swizzle*`, `ds_bpermute*`, `ds_permute*`, `v_permlane*`,
`v_readlane*`); `s_waitcnt*`, `s_barrier`; branches (`s_branch`, `s_cbranch_*`, `s_setpc*`).
Everything else is only part of the total.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

from .. import toolchain
from .codeobject import CodeObjectError

_SYMBOL = re.compile(r"^[0-9a-fA-F]+ <(.+)>:\s*$")
_PREFIXES = (
    "v_mfma", "v_smfmac", "global_", "buffer_", "flat_", "scratch_", "ds_read", "ds_write",
    "ds_load", "ds_store", "ds_swizzle", "ds_bpermute", "ds_permute", "v_permlane", "v_readlane",
    "v_writelane", "s_waitcnt", "s_barrier", "s_branch", "s_cbranch_", "s_setpc",
)


def is_counted(mnemonic: str) -> bool:
    return mnemonic.startswith(_PREFIXES) or mnemonic.endswith("_dpp")


def disassemble(path: Path) -> str:
    tool = toolchain.objdump()
    if tool is None:
        raise CodeObjectError("bbx: llvm-objdump not found (install llvm-22)")
    proc = subprocess.run([tool, "-d", "--no-show-raw-insn", str(path)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise CodeObjectError(f"bbx: cannot disassemble {path}: {proc.stdout.strip()[-500:]}")
    return proc.stdout


def mnemonics_by_symbol(disassembly: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in disassembly.splitlines():
        header = _SYMBOL.match(line)
        if header:
            current = out.setdefault(header.group(1), [])
            continue
        if current is not None and line.startswith(("\t", " ")):
            words = line.split("//")[0].split()
            if words:
                current.append(words[0])
        elif not line.strip():
            current = None
    return out


def instruction_mix(mnemonics: list[str]) -> dict[str, int]:
    """{mnemonic: count} of the counted mnemonics, sorted by mnemonic."""
    counts = Counter(m for m in mnemonics if is_counted(m))
    return dict(sorted(counts.items()))
