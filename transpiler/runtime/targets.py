"""Which target a specialization is built for.

`BBX_TARGET` overrides; otherwise a ROCm torch with a GPU builds for that GPU's `gcnArchName`
(e.g. gfx942), a CUDA torch with a GPU builds for `cuda`, and anything else runs on the CPU
reference simulator (`cpu`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .. import settings

AMD_TARGETS = ("gfx90a", "gfx942", "gfx950")
ALL_TARGETS = (*AMD_TARGETS, "cuda", "cpu")


class TargetError(ValueError):
    pass


@dataclass(frozen=True)
class Target:
    name: str  # one of ALL_TARGETS

    @property
    def is_amd(self) -> bool:
        return self.name in AMD_TARGETS

    @property
    def is_cuda(self) -> bool:
        return self.name == "cuda"

    @property
    def is_cpu(self) -> bool:
        return self.name == "cpu"

    @property
    def torch_device_type(self) -> str:
        # ROCm torch also calls its devices "cuda".
        return "cpu" if self.is_cpu else "cuda"


def parse_target(name: str) -> Target:
    cleaned = name.strip().lower().split(":")[0]  # "gfx942:sramecc+:xnack-" -> "gfx942"
    if cleaned not in ALL_TARGETS:
        raise TargetError(
            f"bbx: unknown target {name!r}; expected one of {', '.join(ALL_TARGETS)}"
        )
    return Target(cleaned)


def default_target() -> Target:
    """`BBX_TARGET`, else what torch has (asked once per process; a call of a jit function asks
    every time)."""
    override = settings.given("BBX_TARGET")
    if override:
        return _parsed(override)
    return _from_torch()


@cache
def _parsed(name: str) -> Target:
    return parse_target(name)


@cache
def _from_torch() -> Target:
    try:
        import torch
    except ImportError:
        return Target("cpu")
    if not torch.cuda.is_available():
        return Target("cpu")
    if getattr(torch.version, "hip", None):
        return parse_target(torch.cuda.get_device_properties(0).gcnArchName)
    return Target("cuda")
