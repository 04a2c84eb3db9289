"""Facts about a call that no single argument shows, checked before the launch.

Always checked, before any launch, on every target (argspec.validate / the C launcher): each
argument against its specialization — dtype, rank, device, static extents and strides,
divisibilities, alignment, and whether its offsets fit the specialization's index width.

Checked by default (the C launcher, a few compares per call; `BBX_CHECK_ARGS=0` turns it off):
shape agreement — the tensors that the specialization's kernels index with one shape (a
`ShapeGroup`, found by `shape_groups.infer`) must have equal extents. A mismatch is an
ArgumentError naming the arguments and their shapes. `BBX_CHECK_ARGS=1` checks all of this in
Python as well, on every call (the checked mode).

Not checked here: whether a kernel stays inside its tensors in any other way (indices computed
from scalar arguments, tensors of different shapes indexed by hand). On the CPU simulator every
global access outside the launch's tensors is a kernel error, and `BBX_SIM_CHECK=1` checks
every access against the tensors' bounds and shared memory for races.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import settings
from .argspec import ArgumentError


@dataclass(frozen=True)
class ShapeGroup:
    """Tensor parameters that a specialization's kernels index with one shape."""

    params: tuple[str, ...]
    why: str  # e.g. "partitioned with one tiler `tiler_mn` (elementwise_add.py:79)"


def check_args_enabled() -> bool:
    """`BBX_CHECK_ARGS=1`: every call is checked in Python as well (the checked mode)."""
    return settings.enabled("BBX_CHECK_ARGS")


def shape_agreement_enabled() -> bool:
    """Shape agreement is checked unless `BBX_CHECK_ARGS=0`."""
    return settings.value("BBX_CHECK_ARGS") != "0"


def _shape(value: Any) -> tuple[int, ...] | None:
    tensor = getattr(value, "bbx_torch_tensor", value)
    shape = getattr(tensor, "shape", None)
    return None if shape is None else tuple(int(n) for n in shape)


def check_shape_groups(groups: tuple[ShapeGroup, ...], values: dict[str, Any]) -> None:
    """Raise ArgumentError when the tensors of a group do not all have one shape."""
    for group in groups:
        shapes = {name: _shape(values[name]) for name in group.params if name in values}
        if len({s for s in shapes.values() if s is not None}) > 1:
            listed = ", ".join(f"'{n}' {list(s) if s is not None else '?'}"
                               for n, s in shapes.items())
            raise ArgumentError(
                f"bbx: arguments {listed} must have one shape: the kernels index them with one "
                f"shape ({group.why}); nothing was launched (BBX_CHECK_ARGS=0 turns this check "
                "off)")
