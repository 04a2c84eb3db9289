"""``cutlass.base_dsl.enums``: ``Arch`` and ``AddressSpace`` with the DSL's members and order.

``Arch`` members are ``(major, minor, suffix)``; comparisons look at (major, minor) only, as
the DSL's do (``Arch.sm_90a > Arch.sm_90`` is False). The architecture bbx reports on AMD and on
the simulator is ``Arch.sm_80`` (see `bbx.host_arch`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from bbx.trace.address_space import AddressSpace  # noqa: F401 - the tracer's enum


class Arch(enum.Enum):
    sm_80 = (8, 0, "")
    sm_86 = (8, 6, "")
    sm_87 = (8, 7, "")
    sm_89 = (8, 9, "")
    sm_90 = (9, 0, "")
    sm_90a = (9, 0, "a")
    sm_100 = (10, 0, "")
    sm_100a = (10, 0, "a")
    sm_100f = (10, 0, "f")
    sm_110 = (11, 0, "")
    sm_110a = (11, 0, "a")
    sm_110f = (11, 0, "f")
    sm_101 = (11, 0, "")  # the DSL's alias of sm_110 (Thor, renamed in CUDA 13)
    sm_101a = (11, 0, "a")
    sm_101f = (11, 0, "f")
    sm_103 = (10, 3, "")
    sm_103a = (10, 3, "a")
    sm_103f = (10, 3, "f")
    sm_107 = (10, 7, "")
    sm_107a = (10, 7, "a")
    sm_107f = (10, 7, "f")
    sm_120 = (12, 0, "")
    sm_120a = (12, 0, "a")
    sm_120f = (12, 0, "f")
    sm_121 = (12, 1, "")
    sm_121a = (12, 1, "a")
    sm_121f = (12, 1, "f")

    @property
    def major(self) -> int:
        return int(self.value[0])

    @property
    def minor(self) -> int:
        return int(self.value[1])

    @property
    def suffix(self) -> str:
        return str(self.value[2])

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"base_dsl.Arch.{self.name}"

    @classmethod
    def from_string(cls, arch_str: str) -> Arch:
        return cls[arch_str]

    def to_string(self) -> str:
        return self.name

    @classmethod
    def filter(cls, criterion: Callable[[Arch], bool]) -> list[Arch]:
        return [arch for arch in cls if criterion(arch)]

    def is_family_of(self, arch: Arch) -> bool:
        return self.major == arch.major and self.minor >= arch.minor and self.suffix in ("a", "f")

    def can_run_binary_built_for(self, target: Arch) -> bool:
        if self == target:
            return True
        if self.major != target.major or target.suffix == "a":
            return False
        return self.minor >= target.minor

    def _key(self) -> tuple[int, int]:
        return (self.major, self.minor)

    def __lt__(self, other: object) -> bool:
        return self._key() < other._key() if isinstance(other, Arch) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self._key() <= other._key() if isinstance(other, Arch) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self._key() > other._key() if isinstance(other, Arch) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self._key() >= other._key() if isinstance(other, Arch) else NotImplemented
