"""Markers for DSL names that exist only inside transpiled code."""

from __future__ import annotations

from typing import Any


class DeviceOnly:
    """Stands for a device-side DSL name (``cute.arch.thread_idx``, ...). Attribute access yields
    further markers so module-level references work; calling one from host Python is an error."""

    def __init__(self, qualname: str) -> None:
        self._qualname = qualname

    def __getattr__(self, name: str) -> DeviceOnly:
        if name.startswith("__"):
            raise AttributeError(name)
        return DeviceOnly(f"{self._qualname}.{name}")

    def __getitem__(self, item: Any) -> DeviceOnly:
        return self

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"bbx: {self._qualname} is part of the CuTe DSL that bbx transpiles; it cannot run "
            "from host Python (use it inside a @cute.jit or @cute.kernel function)"
        )

    def __repr__(self) -> str:
        return f"<bbx device-only {self._qualname}>"


def module_getattr(module_name: str) -> Any:
    """A module ``__getattr__`` serving `DeviceOnly` markers for unknown public names."""

    def __getattr__(name: str) -> DeviceOnly:
        if name.startswith("__"):
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return DeviceOnly(f"{module_name}.{name}")

    return __getattr__
