"""Markers for DSL names that exist only inside transpiled code (NVIDIA-only host names:
`bbx.host_errors.NvidiaOnly`)."""

from __future__ import annotations

from typing import Any

from bbx.host_errors import HostApiError, user_frame
from bbx.host_names import host_call_diagnostic
from bbx.trace.context import current as tracing
from bbx.trace.errors import trace_error

_MLIR_PLACEMENT = ("loc", "ip")


class DeviceOnly:
    """Stands for a device-side DSL name (``cute.arch.thread_idx``, ...). Attribute access yields
    further markers so module-level references work (``ALIGN = cpasync.CopyG2SOp``); calling one
    from host Python is an error located at the caller's line that says what the name is
    (device-side, NVIDIA-only, not supported yet, or no DSL name: `bbx.host_names`)."""

    def __init__(self, qualname: str) -> None:
        self._qualname = qualname

    def __getattr__(self, name: str) -> Any:
        # Private and bbx_* names are protocol probes (bbx_constexpr, bbx_arg_spec, ...): a
        # marker has none of them.
        if name.startswith("_") or name.startswith("bbx_"):
            raise AttributeError(name)
        qualname = f"{self._qualname}.{name}"
        constant = dsl_constant(qualname)
        if constant is not NOT_A_CONSTANT:
            return constant
        if tracing() is not None:  # `cute.ReductionOp.ADD` while tracing: the traced object
            found = traced_name(qualname)
            if found is not None:
                return found
        return DeviceOnly(qualname)

    def __getitem__(self, item: Any) -> DeviceOnly:
        return self

    def __or__(self, other: Any) -> DeviceOnly:
        """`cute.SomeClass | None` in an annotation: the annotation stays a marker."""
        return self

    __ror__ = __or__

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type, ...]:
        """`class MyState(cutlass.pipeline.PipelineState)` at import: a base class standing for
        the DSL class, whose instances are the name's error (where they are made)."""
        return (_device_only_base(self._qualname),)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if tracing() is not None:  # staged execution: the name's trace implementation
            implementation = traced_name(self._qualname)
            if implementation is not None:
                # `loc=`/`ip=`: the MLIR location and insertion point every DSL function takes
                return implementation(*(resolved(a) for a in args),
                                      **{k: resolved(v) for k, v in kwargs.items()
                                         if k not in _MLIR_PLACEMENT})
            what, why, code = host_call_diagnostic(self._qualname)
            if code == "device-only-on-host":
                what = f"{self._qualname.removeprefix('cutlass.')} is not traced yet"
                why = "bbx traces a part of the DSL so far"
            raise trace_error(code, what, why)
        what, why, code = host_call_diagnostic(self._qualname)
        raise HostApiError(what, why, code, user_frame())

    def __eq__(self, other: object) -> bool:
        # `prims.ReductionKind.ADD` makes a new marker at each access; as Constexpr values
        # (compared when a specialization is built) markers of one name are one value.
        return isinstance(other, DeviceOnly) and other._qualname == self._qualname

    def __hash__(self) -> int:
        return hash(("bbx-device-only", self._qualname))

    def __repr__(self) -> str:
        return f"<bbx device-only {self._qualname}>"


def _device_only_base(qualname: str) -> type:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        DeviceOnly(qualname)(*args, **kwargs)

    return type(qualname.rpartition(".")[2], (), {"__init__": __init__,
                                                    "__module__": qualname.rpartition(".")[0]})


def traced_name(qualname: str) -> Any:
    """The registry's trace face of a DSL name (bbx.dsl.trace_face), or None."""
    from bbx.dsl.trace_face import traced_name as face  # noqa: PLC0415 - the registry, only while tracing

    return face(qualname)


NOT_A_CONSTANT = object()


def dsl_constant(qualname: str) -> Any:
    """The value of a DSL constant (`cute.arch.WARP_SIZE` is 32, on the host as while tracing),
    or NOT_A_CONSTANT."""
    from bbx.dsl.trace_face import constant_value  # noqa: PLC0415 - the registry, when asked

    return constant_value(qualname, NOT_A_CONSTANT)


def resolved(value: Any) -> Any:
    """While tracing, a marker made before (`ADD = cute.ReductionOp.ADD` at import) as the
    traced object it names; any other value as it is."""
    if isinstance(value, DeviceOnly):
        found = traced_name(value._qualname)
        if found is not None:
            return found
    return value


def module_getattr(module_name: str) -> Any:
    """A module ``__getattr__`` serving `DeviceOnly` markers for unknown public names."""

    def __getattr__(name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        qualname = f"{module_name}.{name}"
        constant = dsl_constant(qualname)
        return DeviceOnly(qualname) if constant is NOT_A_CONSTANT else constant

    return __getattr__
