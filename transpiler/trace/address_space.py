"""The DSL's `AddressSpace` (`cute.AddressSpace.rmem`): what `tensor.memspace` and
`pointer.memspace` answer, by the numbers of NVIDIA's DSL."""

from __future__ import annotations

import enum


class AddressSpace(enum.IntEnum):
    generic = 0
    gmem = 1
    smem = 3
    rmem = 5
    tmem = 6
    dsmem = 7
    cmem = 4

    def __str__(self) -> str:
        return self.name

    @classmethod
    def named(cls, name: str) -> AddressSpace:
        """The address space of a tracer memory kind ("gmem", "smem", "rmem"); identity tensors'
        coordinates are in no memory (generic)."""
        return cls.__members__.get(name, cls.generic)
