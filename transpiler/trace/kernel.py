"""`@cute.kernel` at trace time: a kernel called while a host function is traced becomes a C++
kernel of the same specialization, and `.launch(...)` its launch.

As in the DSL, the kernel's Python runs when it is launched: its run-time arguments (proxies)
become kernel parameters — a fresh proxy of the same static facts stands for each inside the
kernel — and its Python arguments (numbers, layouts, atoms, callables, Constexprs) are
trace-time constants of that kernel. A kernel launched twice with the same facts is traced once.

The kernel's C++:

    template <class MaxThreads, class T0, class T1>
    BBX_GLOBAL BBX_LAUNCH_BOUNDS(MaxThreads) void add_kernel(T0 gA, T1 gB) { ... }

and its launch in the host function:

    launch(add_kernel<bbx::block_threads_t<_256, _1, _1>, decltype(mA), decltype(mB)>,
           bbx::dim3(...), bbx::dim3(256, 1, 1), /*smem=*/0, stream, mA, mB);
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..cxx import ast as c
from ..cxx.literals import static_int_type
from ..dsl import launch_options
from ..preprocess.loader import raw_function
from .barrier_ids import kernel_declarations
from .context import NameAllocator, TraceContext, activate, require
from .dsl_array import annotated_arrays
from .errors import TraceError, trace_error, user_location
from .kernel_scope import KERNEL, KernelTrace
from .scalar import Integer, Numeric, as_numeric
from .tensor import Tensor
from .tensor_argument import TensorArgument
from .traced_call import rewritten
from .value_tree import FromValues, flatten, leaf_paths, unflatten


@runtime_checkable
class KernelArgument(Protocol):
    """A run-time value that can be passed to a kernel, as one or more C++ parameters (a tensor:
    its pointer and each run-time extent and stride)."""

    def bbx_piece_names(self) -> list[str]:
        """The name suffix of each parameter (the Python name's, for each C++ parameter)."""
        ...

    def bbx_piece_values(self) -> list[c.Expr]:
        """The C++ value of each parameter, in the launching function (spelled once)."""
        ...

    def bbx_parameter(self, names: list[str]) -> Any:
        """The proxy that stands for it inside a kernel, over the parameters `names` (one per
        piece, in order)."""
        ...

    def bbx_parameter_key(self) -> object:
        """Its static facts (hashable): kernels traced for equal keys are the same."""
        ...


def kernel_argument(value: Any) -> KernelArgument | None:
    """`value` as a kernel parameter, or None when it is a trace-time constant."""
    if isinstance(value, Numeric):
        return None if value.is_static else _NumericArgument(value)
    if isinstance(value, Tensor):
        return TensorArgument(value)
    if isinstance(value, KernelArgument):
        return value
    structure, leaves = flatten(value, dataclass_fields=True, self_flattening=False)
    if structure is None:
        return None
    items = [kernel_argument(leaf) for leaf in leaves]
    if any(item is not None for item in items):
        return _TreeArgument(structure, tuple(leaves), tuple(items))
    return None


def _refuse_plain_object_with_run_time_values(name: str, value: Any) -> None:
    """A kernel argument that is neither a DSL value, a dataclass nor an object of the value
    protocol is a trace-time constant; one holding run-time values of the launching trace is
    refused here (as the DSL refuses its type), not where the kernel first reads one."""
    path = _run_time_path(value, name, depth=3)
    if path is not None:
        raise trace_error(
            "kernel-argument",
            f"kernel argument `{name}` is a {type(value).__name__} holding the run-time value "
            f"`{path}` — a kernel takes DSL values, tensors, tuples, dataclasses and objects "
            f"of the DSL's value protocol, and plain objects only as compile-time constants",
            f"pass the run-time values as arguments of their own, or give "
            f"{type(value).__name__} the DSL's value protocol "
            f"(`__extract_mlir_values__`/`__new_from_mlir_values__`)")


def _run_time_path(value: Any, path: str, depth: int) -> str | None:
    """The attribute path to a run-time value inside a plain object (or None)."""
    if isinstance(value, Numeric):
        return None if value.is_static else path
    if isinstance(value, Tensor) or isinstance(value, KernelArgument):
        return path
    if depth == 0 or isinstance(value, (type, str, bytes, int, float, bool)):
        return None
    if isinstance(value, (list, tuple)):
        items: Iterable[tuple[str, Any]] = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    elif isinstance(value, dict):
        items = ((f"{path}[{k!r}]", v) for k, v in value.items())
    elif hasattr(value, "__dict__") and not callable(value):
        items = ((f"{path}.{k}", v) for k, v in vars(value).items())
    else:
        return None
    for sub_path, sub in items:
        found = _run_time_path(sub, sub_path, depth - 1)
        if found is not None:
            return found
    return None


@dataclass(frozen=True)
class _NumericArgument:
    """A run-time number passed to a kernel (by value)."""

    value: Numeric

    def bbx_piece_names(self) -> list[str]:
        return [""]

    def bbx_piece_values(self) -> list[c.Expr]:
        return [self.value.expr()]

    def bbx_parameter(self, names: list[str]) -> Any:
        return self.value.dtype.run_time(c.Id(names[0]))

    def bbx_parameter_key(self) -> object:
        return self.value.dtype


@dataclass(frozen=True)
class _TreeArgument:
    """An object holding run-time values (a tuple or list such as `mC.shape`, a dataclass of
    tensors, an object of the DSL's value protocol: bbx.trace.value_tree): the run-time leaves'
    parameters, named after the path to each (`params_src`, `shape_0`); the Python leaves
    constants of the kernel. Inside, the same kind of object over the parameters."""

    structure: Any
    leaves: tuple[Any, ...]
    items: tuple[KernelArgument | None, ...]

    def bbx_piece_names(self) -> list[str]:
        return [path + suffix
                for path, item in zip(leaf_paths(self.structure), self.items, strict=True)
                if item is not None for suffix in item.bbx_piece_names()]

    def bbx_piece_values(self) -> list[c.Expr]:
        return [value for item in self.items if item is not None
                for value in item.bbx_piece_values()]

    def bbx_parameter(self, names: list[str]) -> Any:
        remaining = iter(names)
        rebuilt = []
        for leaf, item in zip(self.leaves, self.items, strict=True):
            if item is None:
                rebuilt.append(leaf)
            else:
                count = len(item.bbx_piece_names())
                rebuilt.append(item.bbx_parameter([next(remaining) for _ in range(count)]))
        return unflatten(self.structure, rebuilt)

    def bbx_parameter_key(self) -> object:
        return (_structure_key(self.structure), tuple(
            item.bbx_parameter_key() if item is not None else _constant_key(leaf)
            for leaf, item in zip(self.leaves, self.items, strict=True)))


def _structure_key(structure: Any) -> object:
    """A tree's shape as part of a kernel's key: an object of the value protocol is rebuilt
    from its own Python state (`template`), which is part of it."""
    if structure is None:
        return None
    kind, parts = structure
    own = _constant_key(kind.template) if isinstance(kind, FromValues) else kind
    return (own, tuple(_structure_key(p) for p in parts))


# -- the specialization's module ------------------------------------------------------------------


@dataclass
class TracedKernel:
    name: str
    function: c.Function
    smem_bytes: int  # what its SmemAllocators take (a launch without `smem=` passes it)


@dataclass
class SpecializationModule:
    """The kernels of one specialization, in the order they were first launched."""

    kernels: list[TracedKernel] = field(default_factory=list)
    names: NameAllocator = field(default_factory=NameAllocator)
    _by_key: dict[object, TracedKernel] = field(default_factory=dict)


_MODULE: contextvars.ContextVar[SpecializationModule | None] = contextvars.ContextVar(
    "bbx_trace_module", default=None)


@contextlib.contextmanager
def collecting(module: SpecializationModule) -> Iterator[SpecializationModule]:
    """Kernels launched while tracing go into `module`."""
    token = _MODULE.set(module)
    try:
        yield module
    finally:
        _MODULE.reset(token)


# -- calling and launching a kernel ---------------------------------------------------------------


class KernelCall:
    """`kernel(args...)` while tracing: launched by `.launch(...)`."""

    def __init__(self, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any],
                 method: bool = False) -> None:
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.method = method  # args[0] is the object of a kernel method (`self.kernel(...)`)

    def launch(self, *, grid: Any = (1, 1, 1), block: Any = (1, 1, 1), smem: Any = None,
               stream: Any = None, **options: Any) -> None:
        ctx = require("a kernel launch")
        module = _MODULE.get()
        if KERNEL.get() is not None or module is None:
            raise trace_error("launch-in-kernel", "a kernel launched from a kernel",
                              "kernels are launched from @cute.jit host functions")
        _check_cluster(options.pop("cluster", None))
        attributes = _launch_attributes(options)
        block_dims = _dims(block, "block")
        grid_dims = _dims(grid, "grid")
        signature = inspect.signature(raw_function(self.fn))
        bound = signature.bind(*self.args, **self.kwargs)
        bound.apply_defaults()
        passed = {name: kernel_argument(value) for name, value in bound.arguments.items()}
        for i, (name, value) in enumerate(bound.arguments.items()):
            # the object of a kernel method is the caller's state, read only where it is used
            if passed[name] is None and not (self.method and i == 0):
                _refuse_plain_object_with_run_time_values(name, value)
        key = (raw_function(self.fn), tuple(_static_key(block_dims)), tuple(
            (name, arg.bbx_parameter_key() if arg is not None else _constant_key(value))
            for (name, value), arg in zip(bound.arguments.items(), passed.values(), strict=True)))
        values = [value for arg in passed.values() if arg is not None
                  for value in arg.bbx_piece_values()]
        kernel = module._by_key.get(key)
        if kernel is None:
            site = user_location()
            suffixes = {name: arg.bbx_piece_names() for name, arg in passed.items()
                        if arg is not None}
            try:
                kernel = _trace_kernel(self.fn, bound, passed, suffixes, module)
            except TraceError as e:
                if site is not None:
                    e.reached_from.append(f"in the kernel launched at "
                                          f"{os.path.basename(site[0])}:{site[1]}")
                raise
            module._by_key[key] = kernel
            module.kernels.append(kernel)
        bound_dims = block_dims
        if options.get("max_number_threads") is not None:  # the launch bound, not the block
            bound_dims = _dims(options["max_number_threads"], "max_number_threads")
            if any(_static_key([d])[0] is None for d in bound_dims):
                raise trace_error("bad-launch", "launch(max_number_threads=...) must be known "
                                  "when the kernel is compiled",
                                  "use literal integers, Constexpr or configuration values")
        max_threads = c.Type("bbx::block_threads_t", tuple(_extent_type(d) for d in bound_dims))
        min_blocks = options.get("min_blocks_per_mp")
        if min_blocks is not None:
            if _static_key([min_blocks])[0] is None:
                raise trace_error("bad-launch", "launch(min_blocks_per_mp=...): the value must "
                                  "be known at compile time", "a literal or a Constexpr")
            max_threads = c.Type("bbx::with_min_blocks",
                                 (max_threads, _extent_type(min_blocks)))
        arguments = tuple(values)
        template_args: tuple[c.CxxType | c.Expr, ...] = (max_threads, *(
            c.Decltype(a, decay=True) for a in arguments))
        ctx.emit(c.Launch(c.TemplateId(kernel.name, template_args),
                          _dim3(grid_dims), _dim3(block_dims),
                          as_numeric(kernel.smem_bytes if smem is None else smem).expr(),
                          c.Id("stream") if stream is None else as_numeric(stream).expr(),
                          arguments, attributes))


def _launch_attributes(options: dict[str, Any]) -> tuple[tuple[str, c.Expr], ...]:
    """The launch options besides grid, block, smem, stream and cluster
    (bbx.dsl.launch_options says what each is): `cooperative=` and
    `preferred_smem_carveout=` as fields of `bbx::launch_options`; `min_blocks_per_mp` and
    `max_number_threads` are the caller's (launch bounds); hints change nothing; NVIDIA-only
    ones are refused unless they ask for nothing."""
    for key, value in options.items():
        what = launch_options.NVIDIA_ONLY.get(key)
        if what is not None and not _asks_nothing(value):
            raise trace_error("nvidia-only", f"launch({key}=...): {what} has no AMD counterpart",
                              "leave the option out (or keep it behind a compile-time "
                              "condition that is false on AMD)")
        if key not in launch_options.ALL:
            raise trace_error("unsupported-keyword",
                              f"'{key}' is not a launch option of CuTe DSL (4.8.1)",
                              "its options: " + ", ".join((*launch_options.TRANSLATED,
                                                           *launch_options.HINTS)))
    out: list[tuple[str, c.Expr]] = []
    cooperative = options.get("cooperative")
    if cooperative is not None:
        if isinstance(cooperative, Numeric) and cooperative.is_static:
            cooperative = cooperative.value
        if not isinstance(cooperative, bool):
            raise trace_error("bad-launch", "launch(cooperative=...) must be True or False when "
                              "the kernel is compiled", "pass a literal or a Constexpr bool")
        if cooperative:
            out.append(("cooperative", c.Lit("true")))
    carveout = options.get("preferred_smem_carveout")
    if carveout is not None:
        out.append(("smem_carveout", as_numeric(carveout).expr()))
    return tuple(out)


def _check_cluster(cluster: Any) -> None:
    """`cluster=None` or a cluster of one block launches as without; a larger cluster is an
    NVIDIA (sm_90+) feature."""
    if _asks_nothing(cluster):
        return
    dims = cluster if isinstance(cluster, (list, tuple)) else (cluster,)
    raise trace_error("nvidia-only", f"launch(cluster={list(dims)})",
                      "thread-block clusters are an NVIDIA sm_90 feature; AMD GPUs and the "
                      "simulator launch independent blocks (host code reads sm_80 here, where "
                      "kernels choose cluster size 1)")


def _asks_nothing(value: Any) -> bool:
    """An NVIDIA-only launch option that asks for nothing: None, False, or extents all 1 (a
    cluster of one block), as the translator accepts them."""
    if value is None or value is False:
        return True
    dims = value if isinstance(value, (list, tuple)) else (value,)
    return all(isinstance(d, int) and not isinstance(d, bool) and d == 1 for d in dims)


def _dims(value: Any, what: str) -> list[Any]:
    dims = list(value) if isinstance(value, (list, tuple)) else [value]
    if not 1 <= len(dims) <= 3:
        raise trace_error("launch-geometry", f"{what}={value!r}: 1 to 3 extents expected")
    for d in dims:
        if not isinstance(d, (int, Integer)) or isinstance(d, bool):
            raise trace_error("launch-geometry",
                              f"{what} extent {d!r} is a {type(d).__name__}",
                              "grid and block extents are integers")
    return dims + [1] * (3 - len(dims))


def _static_key(dims: list[Any]) -> list[Any]:
    return [d if isinstance(d, int) else (int(d) if d.is_static else None) for d in dims]


def _extent_type(d: Any) -> c.CxxType:
    """A block extent's type for launch bounds: `Int<N>` if static, else `int` (at most 1024)."""
    static = d if isinstance(d, int) else (int(d) if d.is_static else None)
    return static_int_type(static) if static is not None else c.Type("int")


def _dim3(dims: list[Any]) -> c.Expr:
    return c.Call(c.Id("bbx::dim3"), tuple(as_numeric(d).expr() for d in dims))


def _constant_key(value: Any) -> object:
    """A trace-time constant's part of a kernel's key: itself when hashable, else identity."""
    try:
        hash(value)
    except TypeError:
        return ("id", id(value))
    return ("value", type(value), value)


def _any_argument(bound: inspect.BoundArguments, flag: str) -> bool:
    """Whether an argument's class has the property `flag` and it is true (tiled MMAs:
    bbx.trace.mma)."""
    return any(isinstance(getattr(type(v), flag, None), property) and getattr(v, flag)
               for v in bound.arguments.values())


def _trace_kernel(fn: Any, bound: inspect.BoundArguments, passed: dict[str, Any],
                  suffixes: dict[str, list[str]], module: SpecializationModule) -> TracedKernel:
    """The kernel `fn` traced for `bound` (`passed`: the run-time arguments, whose C++
    parameters are named after the Python one with `suffixes`)."""
    raw = raw_function(fn)
    prepared = rewritten(raw)
    name = module.names.fresh(raw.__name__)
    ctx = TraceContext(name)
    ctx.entry = prepared.entry
    params: list[c.Param] = []
    template_params = ["MaxThreads"]
    arguments = dict(bound.arguments)
    trace = KernelTrace(name, ctx, lane_renaming=_any_argument(bound, "bbx_lane_renaming"),
                        plain_warp_mma=_any_argument(bound, "bbx_plain_warp_mma"))
    token = KERNEL.set(trace)
    try:
        with activate(ctx):
            for pname, arg in passed.items():
                if arg is None:
                    continue
                names = []
                for suffix in suffixes[pname]:
                    names.append(ctx.names.fresh(pname + suffix))
                    tparam = f"T{len(template_params) - 1}"
                    template_params.append(tparam)
                    params.append(c.Param(c.Type(tparam), names[-1]))
                arguments[pname] = arg.bbx_parameter(names)
            annotated_arrays(raw, arguments)
            bound.arguments.update(arguments)
            result = prepared(*bound.args, **bound.kwargs)
            if result is not None:
                raise trace_error("kernel-return", f"the kernel {raw.__name__} returns a value",
                                  "a @cute.kernel returns nothing; write results to tensors",
                                  loc=ctx.return_loc)
    finally:
        KERNEL.reset(token)
    function = c.Function(name=name, template_params=template_params,
                          space="BBX_GLOBAL BBX_LAUNCH_BOUNDS(MaxThreads)", return_type="void",
                          params=params, body=[*kernel_declarations(trace), *ctx.root.stmts],
                          comments=prepared.comments())
    return TracedKernel(name, function, trace.smem_bytes)
