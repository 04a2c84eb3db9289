"""Memory parallelism of AMD code, from its disassembly: how many global loads a wave keeps in
flight, and how its waits drain them.

A model of the `vmcnt` counter of gfx9 (CDNA): every vector-memory instruction (global, buffer,
flat and scratch loads, stores and atomics) enters one in-order queue; `s_waitcnt vmcnt(N)`
waits until at most N remain. Walking a straight run of instructions, the *loads in flight* are
the most loads in that queue at once — 1 for code that waits for every load before issuing the
next, 4 for four `buffer_load_dwordx4` issued before a `vmcnt(3)`. Branches are not followed;
for a loop body, `repeat=True` walks it twice and reports the second pass, so loads issued in
one iteration and waited for in the next (a pipelined loop) count as in flight.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Protocol

_VECTOR_MEMORY = ("global_", "buffer_", "flat_", "scratch_")
_VMCNT = re.compile(r"vmcnt\((\d+)\)")


class _Instruction(Protocol):
    @property
    def mnemonic(self) -> str: ...

    @property
    def operands(self) -> str: ...


def is_vector_memory(mnemonic: str) -> bool:
    return mnemonic.startswith(_VECTOR_MEMORY)


def is_vector_memory_load(mnemonic: str) -> bool:
    """A load from global memory (`global_load_*`, `buffer_load_*` including loads into LDS,
    `flat_load_*`); scratch loads are spills, not data."""
    return mnemonic.startswith(("global_load", "buffer_load", "flat_load"))


def is_lds_read(mnemonic: str) -> bool:
    return mnemonic.startswith(("ds_read", "ds_load"))


@dataclass(frozen=True)
class Parallelism:
    loads: int  # global loads in the walked code (one pass)
    peak_loads_in_flight: int
    full_waits: int  # `s_waitcnt vmcnt(0)` (one pass)
    partial_waits: int  # `s_waitcnt vmcnt(N)`, N > 0 (one pass)


def parallelism(code: list[_Instruction], repeat: bool = False) -> Parallelism:
    """Walk `code` in order through the vmcnt model (twice when `repeat`, reporting the last
    pass)."""
    queue: deque[bool] = deque()  # True for a load
    peak = loads = full = partial = 0
    passes = 2 if repeat else 1
    for _ in range(passes):
        peak = loads = full = partial = 0
        for inst in code:
            if is_vector_memory(inst.mnemonic):
                is_load = is_vector_memory_load(inst.mnemonic)
                queue.append(is_load)
                if is_load:
                    loads += 1
                    peak = max(peak, sum(queue))
            elif inst.mnemonic.startswith("s_waitcnt"):
                count = _VMCNT.search(inst.operands)
                if count is None and inst.operands != "0":  # `s_waitcnt 0` waits for all
                    continue
                allowed = int(count.group(1)) if count else 0
                while len(queue) > allowed:
                    queue.popleft()
                if allowed == 0:
                    full += 1
                else:
                    partial += 1
    return Parallelism(loads, peak, full, partial)
