"""Calling one loaded specialization: its launch plan, the C launcher, and the Python helpers
the launcher falls back on.

The hot path is C (templates/launcher.c.j2): per call it reads each argument (torch tensors
through torch's DLPack C exchange API), checks it against the plan built here once per
specialization — dtype, rank, device, static extents and strides, divisibilities, alignment,
index width — and calls the specialization's entry point. Python runs only when something is
unusual: an argument the C code cannot read (a numeric instance, a stream object, a tensor of a
library without the exchange API: `convert`), an argument that does not match (`mismatch`
raises the ArgumentError of `argspec.validate`, naming the argument), or a kernel error
(`failed` raises KernelError with the generated and Python lines of the report).

The C launcher also checks shape agreement between the tensors the specialization indexes with
one shape (`checks.py`, `shape_groups.py`; unless `BBX_CHECK_ARGS=0`, read when a
specialization is loaded); with `BBX_CHECK_ARGS=1` every call is checked in Python as well.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from ..targets.backend import Backend
from . import dtypes
from .argspec import (
    ArgSpec,
    ArgumentError,
    ConstexprSpec,
    Dyn,
    PointerSpec,
    ScalarSpec,
    StreamSpec,
    TensorSpec,
    dlpack_strides,
    validate,
)
from .argspec import _problems as spec_problems
from .checks import (
    ShapeGroup,
    check_args_enabled,
    check_shape_groups,
    shape_agreement_enabled,
)
from .dlpack_tensor import DLPackTensor
from .native import launcher_module
from .source_map import annotate_sites
from .tensor_input import unsupported_reason

# Row kinds of the C launcher's plan (templates/launcher.c.j2).
K_TENSOR, K_INT, K_FLOAT, K_BOOL, K_POINTER, K_STREAM = range(6)

# DLPack type codes and device types (the DLPack C ABI).
DL_INT, DL_UINT, DL_FLOAT, DL_BFLOAT, DL_BOOL = 0, 1, 2, 4, 6
DL_CPU, DL_CUDA, DL_ROCM = 1, 2, 10
_DL_DEVICES = {"cpu": (DL_CPU,), "cuda": (DL_CUDA, DL_ROCM)}
NO_DEVICE = (-1,)  # no DLPack device type is -1: nothing matches
MAX_RANK = 8  # BBX_ABI_MAX_RANK


class KernelError(RuntimeError):
    """A launched kernel failed (on the simulator: its report, e.g. a race or a deadlock)."""


def dlpack_code(dtype_name: str) -> tuple[int, int]:
    """(DLPack type code, bits) of a bbx dtype."""
    info = dtypes.dtype(dtype_name)
    if info.kind == "bool":
        return DL_BOOL, 8
    if info.kind == "float":
        return (DL_BFLOAT if info.name == "bf16" else DL_FLOAT), info.bits
    return (DL_INT if info.kind == "int" else DL_UINT), info.bits


def _dims(dims: tuple[int | Dyn, ...]) -> tuple[int, ...]:
    """Plan encoding: a static value as itself, a dynamic one as -divisibility."""
    return tuple(d if isinstance(d, int) else -d.divisibility for d in dims)


def device_types(spec: TensorSpec, target: Backend) -> tuple[int, ...]:
    """The DLPack device types a tensor may have: the target's, narrowed by the spec's."""
    allowed = set(_DL_DEVICES[target.torch_device_type])
    if spec.device is not None:
        allowed &= set(_DL_DEVICES.get(spec.device, ()))
    return tuple(sorted(allowed)) or NO_DEVICE


def plan_row(slot: int, spec: ArgSpec, target: Backend) -> tuple[Any, ...]:
    """One row of the C launcher's plan (see plan_row in templates/launcher.c.j2)."""
    if isinstance(spec, TensorSpec):
        code, bits = dlpack_code(spec.dtype)
        return (K_TENSOR, slot, code, bits, spec.rank, device_types(spec, target), spec.align,
                _dims(spec.shape), _dims(spec.stride), spec.index_bits, 0, 0)
    if isinstance(spec, ScalarSpec):
        info = dtypes.dtype(spec.dtype)
        if info.kind == "bool":
            return (K_BOOL, slot, 0, 0, 0, (), 1, (), (), 32, 0, 0)
        if info.is_float:
            return (K_FLOAT, slot, 0, 0, 0, (), 1, (), (), 32, 0, 0)
        low, high = ((-(1 << (info.bits - 1)), (1 << (info.bits - 1)) - 1) if info.kind == "int"
                     else (0, (1 << info.bits) - 1))
        return (K_INT, slot, 0, 0, 0, (), 1, (), (), 32, low, high)
    if isinstance(spec, PointerSpec):
        return (K_POINTER, slot, 0, 0, 0, (), 1, (), (), 32, 0, 0)
    if isinstance(spec, StreamSpec):
        return (K_STREAM, slot, 0, 0, 0, (), 1, (), (), 32, 0, 0)
    raise TypeError(f"bbx: no launch plan for {spec}")


def _torch_tensor(value: Any) -> Any:
    tensor = getattr(value, "bbx_torch_tensor", None)
    if tensor is not None:
        return tensor
    import torch

    return value if isinstance(value, torch.Tensor) else None


def _dlpack_device(tensor: Any) -> tuple[int, int]:
    """(DLPack device type, index) of a torch tensor; -2 for devices DLPack has no type for."""
    import torch

    device = tensor.device
    kind = {"cpu": DL_CPU, "cuda": DL_CUDA}.get(device.type, -2)
    if kind == DL_CUDA and getattr(torch.version, "hip", None):
        kind = DL_ROCM
    return kind, device.index or 0


def scalar_value(value: Any) -> Any:
    raw = getattr(value, "value", value)
    return raw.item() if hasattr(raw, "item") else raw


def stream_handle(value: Any) -> int:
    for attr in ("cuda_stream", "handle", "value"):
        inner = getattr(value, attr, None)
        if isinstance(inner, int):
            return inner
    return int(value) if isinstance(value, int) else 0


def check_device(name: str, value: Any, target: Backend) -> None:
    tensor = getattr(value, "bbx_torch_tensor", value)
    device = getattr(getattr(tensor, "device", None), "type", None)
    if device is not None and device != target.torch_device_type:
        raise ArgumentError(
            f"bbx: argument '{name}' is on device '{device}', but this specialization runs on "
            f"target '{target.name}', which needs '{target.torch_device_type}' tensors "
            "(set BBX_TARGET or move the tensor)"
        )


class Launcher:
    """Calls one loaded specialization (entry point `entry`) with a call's values."""

    def __init__(self, entry: int, specs: dict[str, ArgSpec], target: Backend, label: str,
                 generated: dict[str, str] | None = None,
                 shape_groups: Callable[[], tuple[ShapeGroup, ...]] | None = None) -> None:
        self.specs, self.target, self.label = specs, target, label
        #: generated file name -> text, to name Python lines in run-time reports
        self.generated = generated or {}
        self._find_shape_groups = shape_groups or tuple
        self.dynamic = [n for n, s in specs.items() if not isinstance(s, ConstexprSpec)]
        slots = {name: slot for slot, name in enumerate(specs)}
        self._by_slot = {slots[n]: (n, specs[n]) for n in self.dynamic}
        rows = tuple(plan_row(slots[n], specs[n], target) for n in self.dynamic)
        current_stream = not target.runs_on_host and not any(
            isinstance(s, StreamSpec) for s in specs.values())
        #: shape agreement (unless BBX_CHECK_ARGS=0), in the C launcher and in `_mismatch`
        self.agreement = shape_agreement_enabled()
        positions = {name: i for i, name in enumerate(self.dynamic)}
        groups = tuple(tuple(positions[n] for n in g.params if n in positions)
                       for g in self.shape_groups) if self.agreement else ()
        #: the C launcher: call it with the dynamic arguments in signature order
        self.fast: Callable[..., None] = launcher_module().Launcher(
            entry, len(specs), rows, current_stream, DLPackTensor, self._convert,
            self._mismatch, self._failed, self._stream_of, interruptible=target.runs_on_host,
            groups=tuple(g for g in groups if len(g) > 1))
        #: BBX_CHECK_ARGS=1: also check every call in Python before the launch
        self.checked = check_args_enabled()

    def __call__(self, values: dict[str, Any]) -> None:
        args = [values[n] for n in self.dynamic]
        if self.checked:
            self.check(args)
        self.fast(*args)

    @cached_property
    def shape_groups(self) -> tuple[ShapeGroup, ...]:
        """The tensors the kernels index with one shape (shape_groups.py)."""
        return self._find_shape_groups()

    def check(self, args: list[Any]) -> None:
        """The checked mode's checks beyond each argument's own (see checks.py)."""
        for name, value in zip(self.dynamic, args, strict=True):
            validate(self.specs[name], value, name)
        check_shape_groups(self.shape_groups, dict(zip(self.dynamic, args, strict=True)))

    # -- helpers the C launcher calls ----------------------------------------------------------
    def _convert(self, slot: int, value: Any) -> Any:
        """A value the C code cannot read itself, converted for its plan row; None when it does
        not match (the C code then calls `_mismatch`)."""
        name, spec = self._by_slot[slot]
        if isinstance(spec, TensorSpec):
            tensor = _torch_tensor(value)
            if tensor is None or tensor.dim() > MAX_RANK or unsupported_reason(tensor):
                return None
            try:
                code, bits = dlpack_code(dtypes.from_torch(tensor.dtype).name)
            except ValueError:
                return None
            shape = tuple(int(n) for n in tensor.shape)
            return (int(tensor.data_ptr()), shape, dlpack_strides(tensor), code, bits,
                    *_dlpack_device(tensor))
        if spec_problems(spec, value):
            return None
        if isinstance(spec, ScalarSpec):
            raw = scalar_value(value)
            return float(raw) if dtypes.dtype(spec.dtype).is_float else int(raw)
        if isinstance(spec, PointerSpec):
            return int(getattr(value, "address", 0))
        return stream_handle(value)

    def _mismatch(self, args: tuple[Any, ...]) -> None:
        """Raise the ArgumentError that describes why `args` do not fit (names the argument)."""
        for name, value in zip(self.dynamic, args, strict=True):
            spec = self.specs[name]
            validate(spec, value, name)
            if isinstance(spec, TensorSpec):
                check_device(name, value, self.target)
                tensor = _torch_tensor(value)
                if tensor is not None and tensor.dim() > MAX_RANK:
                    raise ArgumentError(f"bbx: argument {name!r} has rank {tensor.dim()}; bbx "
                                        f"passes tensors of at most {MAX_RANK} modes")
        if self.agreement:
            check_shape_groups(self.shape_groups, dict(zip(self.dynamic, args, strict=True)))

    def _failed(self, message: str) -> None:
        report = annotate_sites(message, self.generated)
        raise KernelError(f"bbx: {self.label} failed on target {self.target.name}:\n{report}")

    def _stream_of(self, device_type: int, device_id: int) -> int:
        import torch

        if device_type == 0:
            return int(torch.cuda.current_stream().cuda_stream)
        return int(torch.cuda.current_stream(device_id).cuda_stream)
