"""Per-kernel resources of a CUDA build from ptxas's own report (`nvcc -Xptxas -v`), which `bbx
build --target cuda` keeps in the bundle's compiler.log:

    ptxas info    : Compiling entry function '_ZN7bbx_gen...' for 'sm_90'
    ptxas info    : Function properties for _ZN7bbx_gen...
        3920 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    ptxas info    : Used 140 registers, used 2 barriers, 3920 bytes cumulative stack size

A stack frame is local memory per thread: register arrays the compiler could not keep in
registers (an index it cannot fold, an address taken by a call that was not inlined) and
spilled registers. `Function properties` of a symbol that is not an entry is a device function
left as a call (bbx inlines every device function, bbx/config.hpp: there should be none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\w+)'")
_PROPERTIES = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")


@dataclass
class KernelResources:
    symbol: str
    arch: str
    registers: int = 0
    stack_bytes: int = 0  # the kernel's own frame (per thread)
    spill_store_bytes: int = 0
    spill_load_bytes: int = 0
    #: device functions of the unit that ptxas compiled as functions of their own (calls that
    #: were not inlined; ptxas does not say from which kernel)
    calls: list[str] = field(default_factory=list)


def parse(log: str) -> list[KernelResources]:
    """The entry functions of a ptxas -v report, in the order ptxas compiled them."""
    kernels: list[KernelResources] = []
    frames: dict[str, tuple[int, int, int]] = {}
    properties_of: str | None = None
    for line in log.splitlines():
        if m := _ENTRY.search(line):
            kernels.append(KernelResources(m.group(1), m.group(2)))
        elif m := _PROPERTIES.search(line):
            properties_of = m.group(1)
        elif (m := _FRAME.search(line)) and properties_of is not None:
            frames[properties_of] = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
            properties_of = None
        elif (m := _USED.search(line)) and kernels:
            kernels[-1].registers = int(m.group(1))
    entries = {k.symbol for k in kernels}
    functions = sorted(s for s in frames if s not in entries)
    for kernel in kernels:
        kernel.stack_bytes, kernel.spill_store_bytes, kernel.spill_load_bytes = frames.get(
            kernel.symbol, (0, 0, 0))
        kernel.calls = functions
    return kernels


def from_bundle(directory: Path) -> list[KernelResources]:
    """The kernels of a `bbx build --target cuda` bundle (its compiler.log)."""
    return parse((directory / "compiler.log").read_text())
