"""``cutlass.cute`` on the host: annotation classes, the jit/kernel decorators, ``compile``.

Device-side functions (``cute.make_layout``, ``cute.arch.*``, ...) live only in transpiled code;
here they are markers that raise if called from host Python.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from bbx.runtime.jit import CompiledFunction, JitFunction, KernelFunction, compile_callable

from .._markers import DeviceOnly, module_getattr
from .._numeric import (  # noqa: F401 - the DSL re-exports its numeric types here
    BFloat16,
    Boolean,
    Float16,
    Float32,
    Float64,
    Int8,
    Int16,
    Int32,
    Int64,
    Numeric,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
)
from . import nvgpu, runtime, testing, typing  # noqa: F401


class _Annotation:
    """Base of the annotation-only classes: usable in signatures, never constructed on host."""

    def __class_getitem__(cls, item: Any) -> type:
        return cls


class Tensor(_Annotation):
    pass


class Layout(_Annotation):
    pass


class ComposedLayout(_Annotation):
    pass


class Shape(_Annotation):
    pass


class Stride(_Annotation):
    pass


class Coord(_Annotation):
    pass


class IntTuple(_Annotation):
    pass


class Tile(_Annotation):
    pass


class TiledCopy(_Annotation):
    pass


class TiledMma(_Annotation):
    pass


class CopyAtom(_Annotation):
    pass


class MmaAtom(_Annotation):
    pass


class Pointer(_Annotation):
    pass


class AddressSpace(enum.Enum):
    generic = 0
    gmem = 1
    smem = 3
    rmem = 5


def _decorator(kind: type[JitFunction] | type[KernelFunction], fn: Any,
               options: dict[str, Any]) -> Any:
    if fn is not None:
        return kind(fn, options)
    return lambda f: kind(f, options)


def jit(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """``@cute.jit`` / ``@cute.jit(...)``: a host function (or method) that bbx transpiles."""
    return _decorator(JitFunction, fn, options)


def kernel(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """``@cute.kernel`` / ``@cute.kernel(...)``: a device kernel, launched from jit code."""
    return _decorator(KernelFunction, fn, options)


class _Compile:
    """``cute.compile(fn, *args, options=...)``; ``cute.compile[opts](fn, ...)`` also works.
    Options are accepted and ignored with a warning."""

    def __init__(self, options: tuple[Any, ...] = ()) -> None:
        self._options = options

    def __getitem__(self, options: Any) -> _Compile:
        extra = options if isinstance(options, tuple) else (options,)
        return _Compile(self._options + extra)

    def __call__(self, fn: Any, *args: Any, options: Any = None, **kwargs: Any) -> CompiledFunction:
        requested = [o for o in (*self._options, options) if o]
        return compile_callable(fn, args, kwargs, options=requested or None)


compile = _Compile()  # noqa: A001 - the DSL's name


class struct:  # noqa: N801 - the DSL's name
    """``@cute.struct`` shared-storage declarations belong to transpiled code; on the host the
    decorator leaves the class unchanged."""

    MemRange = DeviceOnly("cute.struct.MemRange")
    Align = DeviceOnly("cute.struct.Align")

    def __new__(cls, decorated: type) -> Any:  # type: ignore[misc]
        return decorated


__getattr__ = module_getattr(__name__)
