"""``cutlass.experimental.primitives`` on the host: its enumerations are real Python enums with
the DSL's members and values (an ``IntEnum`` or a ``str``-valued ``Enum``, as in the DSL), so
host code can choose one and pass it to a kernel as a Constexpr argument
(``REDUX_KIND = prims.ReductionKind.ADD``). Functions are used inside transpiled code and are
device-only markers here. The members come from the registry's data file
``bbx/dsl/public_names.txt``, introspected from NVIDIA's package."""

from __future__ import annotations

import ast
import enum

from bbx.public_names import read_public_names

from .._markers import module_getattr

MODULE = "cutlass.experimental.primitives"


class StrEnum(str, enum.Enum):
    """A string-valued member compares equal to its value, as the DSL's enums do."""

    def __str__(self) -> str:
        return str(self.value)


def _enumerations() -> dict[str, type[enum.Enum]]:
    """Every class of the module whose members are all listed with values."""
    found: dict[str, type[enum.Enum]] = {}
    for public in read_public_names():
        if public.module != MODULE or public.kind != "class" or not public.members:
            continue
        if len(public.values) != len(public.members):
            continue  # a class with methods (descriptors, addresses): device-only
        values = {name: ast.literal_eval(value) for name, value in public.values}
        base: type[enum.Enum] = (enum.IntEnum if all(isinstance(v, int) for v in values.values())
                                 else StrEnum)
        found[public.name] = base(public.name, values, module=MODULE)  # type: ignore[call-overload]
    return found


globals().update(_enumerations())
__getattr__ = module_getattr(MODULE)
