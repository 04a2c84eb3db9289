"""The registry of CuTe DSL's public surface (`REGISTRY`), one entry per name.

    from bbx.dsl import REGISTRY
    REGISTRY.lookup("cutlass.cute.make_layout")          # -> Function entry
    REGISTRY.member(Cat.THR_COPY, "partition_S")          # -> Method entry

`python -m bbx.dsl.coverage` prints what is supported, NVIDIA-only and not yet, per module.
"""

from __future__ import annotations

from . import (
    arch,
    array,
    control,
    copy,
    experimental,
    host,
    layout,
    math,
    members,
    mma,
    numeric_entries,
    nvidia,
    pipeline,
    pointer,
    python,
    tensor,
    typing_names,
    utils,
    values,
)
from .numeric import NumericType
from .registry import Registry


def _build() -> Registry:
    r = Registry()
    modules = (control, numeric_entries, layout, tensor, array, values, members, pointer, copy,
               mma, pipeline, arch, math, utils, typing_names, python, host, experimental,
               nvidia)  # fmt: skip
    for module in modules:
        module.register(r)
    return r


REGISTRY = _build()


def numeric_type(qualified: str | None) -> NumericType | None:
    """The numeric type a qualified name stands for (`cutlass.Float32`,
    `cutlass.cute.typing.Float32`), or None."""
    from .numeric_entries import NumericTypeEntry

    entry = REGISTRY.lookup(qualified) if qualified else None
    return entry.row if isinstance(entry, NumericTypeEntry) else None


__all__ = ["REGISTRY", "Registry", "numeric_type"]
