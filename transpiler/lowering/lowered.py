"""What the lowering of a module produces and keeps while it works: the C++ signature of a
generated function (`ParamSig`, `Signature`), a lowered function (`LoweredFunction`), and a
kernel class as its objects' calls see it (`ObjectClass`). Plain data: the passes that make them
(signature.py, function.py, kernel_objects.py) and the module context that holds them
(context.py) import it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.kinds import Kind
from ..analysis.meta import MetaMember
from ..analysis.value import Val
from ..cxx import ast as c
from ..frontend.discovery import DslFunction


@dataclass(frozen=True)
class ParamSig:
    name: str
    type: c.CxxType
    template: str | None  # the template parameter's name, if the type is one
    kind: Kind
    constexpr: bool
    annotation: str | None  # Python source of the annotation
    default: str | None  # Python source of the default value


@dataclass(frozen=True)
class Signature:
    params: tuple[ParamSig, ...]  # without `self` and without a stream parameter
    stream: str | None  # Python name of an explicit stream parameter


@dataclass
class LoweredFunction:
    fn: DslFunction
    role: str  # "kernel", "device", "host"
    cxx: c.Function
    meta: list[MetaMember]
    signature: Signature
    preamble: list[str]  # namespace-scope code the function needs, emitted before it
    cxx_name: str  # the function's own name, or a helper variant's
    result: Kind  # the kind of what it returns
    calls: list[str]  # C++ names of the module's functions it calls
    #: its C++ parameters: a variant's unbound ones, a sequence parameter's elements
    #: (`inputs_0`, `inputs_1`, ...) in its place.
    params: tuple[str, ...]
    #: lowered for one call (a helper's Python values, a kernel's launch): internal to the module.
    is_variant: bool = False
    #: a returned tuple, list or record with Python-level leaves (FunctionContext.return_shapes)
    result_shape: Val | None = None


@dataclass(frozen=True)
class ObjectClass:
    """A kernel class as its objects' calls see it."""

    name: str  # the class's Python name
    function: str  # the C++ name of its generated `__call__` (qualified for another module)
    local: str | None  # that `__call__` when it is of this module (emitted before callers)
    params: tuple[ParamSig, ...]  # its C++ parameters (no stream)
    python_params: tuple[str, ...]  # its Python parameters in order, the stream included
    stream: str | None  # its stream parameter
