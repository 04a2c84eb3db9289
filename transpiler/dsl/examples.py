"""The registry's examples as one CuTe-DSL module, for the generated per-entry tests.

Every supported entry carries an example: Python statements that may use the names the prelude
defines below. `example_module()` puts each example into a kernel of its own (after the
prelude), launches every kernel from one `@cute.jit` function `launch_all(mA, mB, mC)` (three
f32 matrices), and records which source lines belong to which entry, so that a diagnostic or a
compiler error can be charged to the entry whose example caused it.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from ..analysis.kinds import Cat
from . import REGISTRY
from .control import MODULE
from .entry import Entry, Status

HEADER = """\
import math
import operator

import cutlass
import cutlass.cute as cute
"""

#: Names every example may use (inside a @cute.kernel).
PRELUDE = """\
tidx, _, _ = cute.arch.thread_idx()
bidx, _, _ = cute.arch.block_idx()
layout = cute.make_layout((4, 8), stride=(8, 1))
gA = cute.local_tile(mA, (4, 8), (bidx, 0))
gC = cute.local_tile(mC, (4, 8), (bidx, 0))
rA = cute.make_rmem_tensor((4, 8), cutlass.Float32)
rA.fill(1.0)
ssa = rA.load()
x = cutlass.Float32(1.5)
n = cutlass.Int32(tidx)
atom = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32)
tiled_copy = cute.make_tiled_copy_tv(atom, cute.make_layout(32), cute.make_layout(1))
thr_copy = tiled_copy.get_slice(tidx)
smem = cutlass.utils.SmemAllocator()
"""


@dataclass(frozen=True)
class Example:
    key: str  # `cutlass.cute.make_layout` or `TENSOR.load`
    source: str


@dataclass
class ExampleModule:
    source: str
    #: (first line, last line) of each example's statements in `source` -> the entry's key.
    lines: dict[tuple[int, int], str] = field(default_factory=dict)

    def owner(self, line: int) -> str | None:
        for (first, last), key in self.lines.items():
            if first <= line <= last:
                return key
        return None


def supported_examples() -> tuple[list[Example], list[str]]:
    """The examples of every supported entry, and the keys of supported entries without one."""
    examples: list[Example] = []
    missing: list[str] = []
    seen: set[int] = set()

    def add(key: str, entry: Entry) -> None:
        if entry.status is not Status.SUPPORTED:
            return
        if entry.example is None:
            missing.append(key)
        elif id(entry) not in seen:
            examples.append(Example(key, entry.example))
        seen.add(id(entry))

    for name, entry in REGISTRY.entries():
        add(name, entry)
    for cat, name, member in REGISTRY.member_entries():
        add(f"{_receiver(cat)}.{name}", member)
    return examples, sorted(set(missing))


def _receiver(cat: Cat) -> str:
    return cat.name


def example_module(examples: list[Example]) -> ExampleModule:
    parts = [HEADER]
    line = HEADER.count("\n") + 1
    lines: dict[tuple[int, int], str] = {}
    for i, ex in enumerate(examples):
        if ex.source.startswith(MODULE):  # a module-level example (a decorator, a struct)
            body = ex.source[len(MODULE) :].strip() + "\n"
            first = line + 2
            lines[(first, first + body.count("\n") - 1)] = ex.key
            parts += ["\n\n", body]
            line = first + body.count("\n")
            continue
        head = (
            f"\n\n@cute.kernel  # {ex.key}\n"
            f"def example_{i}(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):\n"
            + textwrap.indent(PRELUDE, "    ")
        )
        body = textwrap.indent(textwrap.dedent(ex.source).strip() + "\n", "    ")
        first = line + head.count("\n")
        last = first + body.count("\n") - 1
        lines[(first, last)] = ex.key
        parts += [head, body]
        line = last + 1
    launches = "".join(
        f"    example_{i}(mA, mB, mC).launch(grid=[1, 1, 1], block=[32, 1, 1])\n"
        for i, ex in enumerate(examples)
        if not ex.source.startswith(MODULE)
    )
    parts.append(
        "\n\n@cute.jit\ndef launch_all(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):\n"
        + (launches or "    pass\n")
    )
    return ExampleModule("".join(parts), lines)
