"""``cutlass.cute`` on the host: annotation classes, the jit/kernel decorators, ``compile`` and
its options, symbolic integers.

Device-side functions (``cute.make_layout``, ``cute.arch.*``, ...) live only in transpiled code;
here they are markers that raise, naming the caller's line, if called from host Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bbx.runtime.jit import JitFunction, KernelFunction, compile_callable
from bbx.runtime.tvm_ffi import tvm_ffi_function
from bbx.trace import smem_struct

from .. import _numeric
from .._markers import module_getattr
from ..base_dsl.enums import AddressSpace
from . import nvgpu, runtime, testing, typing  # noqa: F401
from ._compile_options import (  # noqa: F401 - the DSL's option classes
    OPTION_CLASSES,
    CompileOption,
    DeviceTarget,
    DisableCuteExtCompile,
    DumpDir,
    EnableAssertions,
    EnableTVMFFI,
    FrontendNext,
    GenerateLineInfo,
    GPUArch,
    KeepCUBIN,
    KeepPTX,
    KeepSASS,
    LinkLibraries,
    NvdisasmOptions,
    OptLevel,
    PtxasOptions,
    RemarkFilter,
    RemarkOutput,
    parse_options,
)
from ._symbolic import SymInt, sym_int, sym_int32, sym_int64  # noqa: F401
from .tensor import TensorSSA  # noqa: F401 - the tracer's class
from .typing import (  # noqa: F401 - annotation classes
    Array,
    ComposedLayout,
    Coord,
    CopyAtom,
    IntTuple,
    Layout,
    MmaAtom,
    Pointer,
    Shape,
    Stride,
    Tensor,
    Tile,
    TiledCopy,
    TiledMma,
    Tiler,
    XTuple,
)

Numeric, Integer, Float = _numeric.Numeric, _numeric.Integer, _numeric.Float
globals().update(_numeric.BY_NAME)  # the DSL re-exports its numeric types here

__all__ = [
    "AddressSpace", "compile", "jit", "kernel", "struct", "SymInt", "sym_int", "sym_int32",
    "sym_int64", "Numeric", "Integer", "Float", *_numeric.BY_NAME,
    *(cls.__name__ for cls in OPTION_CLASSES),
]


class _NamePrefix:
    """``fn.set_name_prefix(name, *, remove_cutlass_symbol=False, keep_mangled_name=True)``:
    the DSL's host call naming the symbols it generates for `fn` (also through a bound method,
    `self.kernel.set_name_prefix(...)`). bbx checks the arguments as the DSL does and keeps
    them; it has no effect on the code: bbx names generated functions after the Python names,
    deterministically, and a kernel's symbol is not looked up by name."""

    name_prefix: str | None = None

    def set_name_prefix(self, name: str, *, remove_cutlass_symbol: bool = False,
                        keep_mangled_name: bool = True) -> None:
        if not isinstance(name, str):
            raise TypeError(f"set_name_prefix name must be a string, but got "
                            f"{type(name).__name__}")
        for option, value in (("remove_cutlass_symbol", remove_cutlass_symbol),
                              ("keep_mangled_name", keep_mangled_name)):
            if not isinstance(value, bool):
                raise TypeError(f"{option} must be a bool, but got {type(value).__name__}")
        if not name and remove_cutlass_symbol and not keep_mangled_name:
            raise ValueError("set_name_prefix requires a non-empty name when "
                             "remove_cutlass_symbol is True and keep_mangled_name is False")
        self.name_prefix = name


class HostJitFunction(_NamePrefix, JitFunction):
    """What ``@cute.jit`` leaves in the user's module."""


class HostKernelFunction(_NamePrefix, KernelFunction):
    """What ``@cute.kernel`` leaves in the user's module."""


def _decorator(kind: type[JitFunction] | type[KernelFunction], fn: Any,
               options: dict[str, Any]) -> Any:
    if fn is not None:
        return kind(fn, options)
    return lambda f: kind(f, options)


def jit(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """``@cute.jit`` / ``@cute.jit(...)``: a host function (or method) that bbx transpiles."""
    return _decorator(HostJitFunction, fn, options)


def kernel(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """``@cute.kernel`` / ``@cute.kernel(...)``: a device kernel, launched from jit code."""
    return _decorator(HostKernelFunction, fn, options)


class _Compile:
    """``cute.compile(fn, *args, options=...)`` and ``cute.compile[opts](fn, ...)``; the options
    are parsed and checked as `._compile_options` documents."""

    def __init__(self, options: tuple[Any, ...] = ()) -> None:
        self._options = options

    def __getitem__(self, options: Any) -> _Compile:
        extra = options if isinstance(options, tuple) else (options,)
        return _Compile(self._options + extra)

    def __call__(self, fn: Any, *args: Any, options: Any = None, **kwargs: Any) -> Any:
        parsed = parse_options((*self._options, options))
        compiled = compile_callable(fn, args, kwargs)
        if not parsed.get(EnableTVMFFI):
            return compiled
        from . import _tvm_ffi_args_spec_converter as converter  # as patched, at this call

        return tvm_ffi_function(compiled, args, kwargs, converter._tvm_ffi_args_spec_converter)


compile = _Compile()  # noqa: A001 - the DSL's name


class struct:  # noqa: N801 - the DSL's name
    """``@cute.struct`` shared-storage declarations: the decorator marks the class (staged
    execution lays it out from its annotations, `bbx.trace.smem_struct`; the translator reads
    its source) and leaves it otherwise unchanged."""

    MemRange = smem_struct.MemRange
    Align = smem_struct.Align

    def __new__(cls, decorated: type) -> Any:  # type: ignore[misc]
        return smem_struct.declare_struct(decorated)


__getattr__ = module_getattr(__name__)
