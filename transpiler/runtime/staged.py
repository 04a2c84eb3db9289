"""Staged execution of a jit call (DESIGN.md, "Staged execution"; `BBX_STAGED=1` while it grows):
the function's Python runs with proxies for the call's run-time arguments, the kernels it launches
are traced into C++ kernels, and the result is the C++ module of this one specialization — built
by the same specialization unit as a translated module.

The host function keeps the translated module's signature, so the unit needs nothing new:

    template <class Meta, class T0, class T1>
    void add(T0 mA, T1 mB, Stream stream) { ... launch(add_kernel<...>, ...); }

(`Meta` is empty: every fact the Meta struct carried for a translated module is a Python value
of the trace.)
"""

from __future__ import annotations

import hashlib
import inspect
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..cxx import ast as c
from ..cxx.emit import Section, render_module
from ..cxx.printer import function_text
from ..nesting import with_recursion_room
from ..preprocess.loader import raw_function
from ..targets.backend import Backend
from ..trace.context import TraceContext, activate
from ..trace.dsl_array import annotated_arrays
from ..trace.errors import trace_error
from ..trace.kernel import SpecializationModule, collecting
from ..trace.mma_mode import selecting_mode
from ..trace.scalar import NUMERIC_TYPES
from ..trace.target import tracing_for
from ..trace.tensor_argument import RunTimeDim, host_tensor
from ..trace.traced_call import rewritten
from ..translate import module_namespace
from . import jit
from .argspec import (
    DEFAULT_LAMBDA,
    ArgSpec,
    ConstexprSpec,
    Dim,
    ScalarSpec,
    SequenceSpec,
    StreamSpec,
    TensorSpec,
)

#: the tracer's numeric type of each dtype of the specialization key (`f32` -> Float32)
_NUMERIC_BY_SHORT = {t.bbx_dtype: t for t in NUMERIC_TYPES if t.bbx_dtype}


@dataclass(frozen=True)
class StagedModule:
    """The C++ of one specialization."""

    text: str  # the `.hip` module
    namespace: str
    cxx_name: str  # the host function
    stream_param: str | None
    sha256: str  # of the text


def trace_call(fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
               target: Backend) -> StagedModule:
    """Runs `fn` for a call with `specs` on `target` and returns its module (a sequence
    argument's elements are parameters of their own, in the order of `argspec.flatten`); traced
    again in the m16n8-exact mode where the first trace finds it needed (bbx.trace.mma_mode)."""
    return with_recursion_room(
        lambda: selecting_mode(lambda: _trace_once(fn, bound_self, specs, target)))


def _trace_once(fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                target: Backend) -> StagedModule:
    raw = raw_function(fn.__wrapped__)
    prepared = rewritten(raw)
    namespace = module_namespace(fn.source_file)
    module = SpecializationModule()
    host_name = module.names.fresh(raw.__name__)
    ctx = TraceContext(host_name)
    ctx.entry = prepared.entry
    stream_param = next((n for n, s in specs.items() if isinstance(s, StreamSpec)), None)
    params: list[c.Param] = []
    arguments: dict[str, Any] = {}
    with activate(ctx), collecting(module), tracing_for(target):
        for name, spec in specs.items():
            if isinstance(spec, StreamSpec):
                arguments[name] = None  # launches use the call's stream
                continue
            if isinstance(spec, ConstexprSpec):
                arguments[name] = spec.value  # a Python value of the trace
                continue
            if isinstance(spec, SequenceSpec):  # a list or tuple of run-time values
                items = [_parameter(ctx, params, f"{name}_{i}", e)
                         for i, e in enumerate(spec.elements)]
                arguments[name] = items if spec.is_list else tuple(items)
                continue
            arguments[name] = _parameter(ctx, params, name, spec)
        annotated_arrays(raw, arguments)
        signature = inspect.signature(raw)
        args = (bound_self,) if bound_self is not None else ()
        try:
            bound = signature.bind(*args, **arguments)
        except TypeError as exc:
            raise trace_error("call-arguments", f"{raw.__name__}: {exc}") from None
        result = prepared(*bound.args, **bound.kwargs)
        if result is not None:
            raise trace_error("host-return", f"{raw.__name__} returns a value",
                              "a traced host function launches kernels and returns nothing",
                              loc=ctx.return_loc)
    host = c.Function(
        name=host_name, template_params=["Meta", *(f"T{i}" for i in range(len(params)))],
        space="", return_type="void", params=[*params, c.Param(c.Type("Stream"), "stream")],
        body=list(ctx.root.stmts), comments=prepared.comments())
    sections = [Section([], function_text(k.function)) for k in module.kernels]
    sections.append(Section([], function_text(host)))
    file_name = Path(fn.source_file).name
    text = render_module(version=__version__, file_name=file_name,
                         output_name=Path(file_name).stem + ".hip",
                         sha256=hashlib.sha256(Path(fn.source_file).read_bytes()).hexdigest(),
                         namespace=namespace, sections=sections,
                         regenerate=regenerate_command(file_name, fn, bound_self, specs,
                                                                 target))
    return StagedModule(text, namespace, host_name, stream_param,
                        hashlib.sha256(text.encode()).hexdigest())


def regenerate_command(file_name: str, fn: jit.JitFunction, bound_self: Any,
                       specs: dict[str, ArgSpec], target: Backend) -> str:
    """The `bbx translate FILE.py:NAME --target T --arg ... --const ...` that makes this module
    again (the target chooses the MMA atoms NVIDIA's warp MMAs become)."""
    owner, _, method = fn.__qualname__.rpartition(".")
    name = (owner if method == "__call__" else fn.__qualname__) if owner else fn.__name__
    words = [shlex.quote(f"{file_name}:{name}"), f"--target {target.name}"]
    for param, spec in specs.items():
        if isinstance(spec, ConstexprSpec):
            if spec.key != DEFAULT_LAMBDA:  # (a default lambda is the default again)
                words.append(f"--const {shlex.quote(f'{param}={spec.key}')}")
        elif not isinstance(spec, StreamSpec):
            words.append(f"--arg {shlex.quote(str(spec))}")
    init = " (and the --init arguments of its object)" if bound_self is not None else ""
    return f"`bbx translate {' '.join(words)}`{init}."


def _parameter(ctx: TraceContext, params: list[c.Param], name: str, spec: ArgSpec) -> Any:
    """A parameter `T<n> name` of the host function for a run-time argument, and its proxy."""
    cname = ctx.names.fresh(name)
    params.append(c.Param(c.Type(f"T{len(params)}"), cname))
    return _run_time_parameter(cname, spec)


def _run_time_parameter(cname: str, spec: ArgSpec) -> Any:
    """The proxy standing for the run-time argument `cname` of the host function."""
    if isinstance(spec, ScalarSpec):
        return _NUMERIC_BY_SHORT[spec.dtype].run_time(c.Id(cname))
    if isinstance(spec, TensorSpec):
        def dim(d: Dim) -> int | RunTimeDim:
            return d if isinstance(d, int) else RunTimeDim(d.divisibility)

        return host_tensor(cname, _NUMERIC_BY_SHORT[spec.dtype],
                           tuple(dim(d) for d in spec.shape), tuple(dim(d) for d in spec.stride),
                           spec.index_bits == 64, spec.align)
    raise trace_error("staged-argument",
                      f"argument {cname}: a {type(spec).__name__.removesuffix('Spec').lower()} "
                      "argument", "the staged path (BBX_STAGED=1) takes tensors and scalars so far")
