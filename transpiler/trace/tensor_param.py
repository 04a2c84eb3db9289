"""Run-time tensor arguments of a traced function (`dynamic_tensor(Float32, (None, 8))`): a
pointer parameter, plus one `int32_t` parameter per run-time extent or stride, and the `Tensor`
over them that the traced function receives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cxx import ast as c
from . import layout as L
from .context import TraceContext
from .dynamic_int import mul
from .pointer import MEMSPACES, Pointer
from .run_time_int import RunTimeInt
from .scalar import Int32, Numeric
from .tensor import Tensor


@dataclass(frozen=True)
class DynamicTensor:
    """A run-time tensor argument: element type, shape and strides (`None` for a run-time
    extent or stride; strides default to row-major over the shape, as a torch/numpy array's),
    its address space and the bytes its pointer is aligned to (0: the element's alignment)."""

    dtype: type[Numeric]
    shape: tuple[int | None, ...]
    stride: tuple[int | None, ...] | None = None
    memspace: str = "gmem"
    align: int = 0


def dynamic_tensor(dtype: type[Numeric], shape: tuple[int | None, ...],
                   stride: tuple[int | None, ...] | None = None,
                   memspace: str = "gmem", align: int = 0) -> DynamicTensor:
    """The run-time tensor argument (`trace_function(f, [dynamic_tensor(Float32, (None, 4))])`)."""
    if memspace not in MEMSPACES:
        raise ValueError(f"memspace must be one of {MEMSPACES}, not {memspace!r}")
    if stride is not None and len(stride) != len(shape):
        raise ValueError(f"the stride {stride} does not match the shape {shape}")
    if align < 0 or align & (align - 1):
        raise ValueError(f"the alignment {align} is not a power of two")
    return DynamicTensor(dtype, tuple(shape), None if stride is None else tuple(stride), memspace,
                         align)


#: (Python expression, C++ name, C++ type, dtype) of each C++ parameter of a tensor argument
Made = list[tuple[str, str, c.CxxType, type[Numeric]]]


def tensor_parameter(ctx: TraceContext, name: str, spec: DynamicTensor) -> tuple[Tensor, Made]:
    """The C++ parameters of the tensor argument `name` and the Tensor over them."""
    row = spec.dtype.bbx_row
    assert row is not None
    pointer = ctx.names.fresh(name)
    made: Made = [(name, pointer, c.Type(f"{row.cxx}*"), spec.dtype)]

    def leaf(value: int | None, what: str, i: int) -> Any:
        if value is not None:
            return value
        cname = ctx.names.fresh(f"{name}_{what}{i}")
        made.append((f"{name}.{what}[{i}]", cname, c.Type("int32_t"), Int32))
        return RunTimeInt(Int32.run_time(c.Id(cname)))

    shape = tuple(leaf(s, "shape", i) for i, s in enumerate(spec.shape))
    if spec.stride is None:
        strides: list[Any] = []
        running: Any = 1
        for extent in reversed(shape):
            strides.insert(0, running)
            running = mul(running, extent)
        stride = tuple(strides)
    else:
        stride = tuple(leaf(d, "stride", i) for i, d in enumerate(spec.stride))
    tensor = Tensor(Pointer(c.Id(pointer), spec.dtype, spec.memspace, known_align=spec.align),
                    L.Layout(shape, stride))
    return tensor, made
