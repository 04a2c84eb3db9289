"""Host-side objects for ``@cute.jit`` and ``@cute.kernel``.

A `JitFunction` is what ``@cute.jit`` leaves in the user's module. Calling it (or passing it to
``cute.compile``) computes the `ArgSpec` of every argument and hands them to the *dispatcher*, an
internal seam: ``set_dispatcher(fn)`` installs the callable that translates, builds, loads and
returns a launcher for one specialization::

    dispatcher(jit_function, bound_self, arg_specs, args) -> launcher
    launcher(args) -> result          # args: dict parameter name -> value, specs already checked

``arg_specs`` and ``args`` are dicts keyed by parameter name in signature order (``self``
excluded). For a method, the object's configuration (`self_config`) is part of the key.
Until a dispatcher is installed, calling raises `NoDispatcherError`.

A `KernelFunction` (``@cute.kernel``) cannot be called from host Python: kernels are launched
from jit functions, whose bodies are transpiled, never executed.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from functools import cached_property
from typing import Any

from ..frontend.discovery import is_stream_parameter
from ..host_errors import ArgumentRefused
from ..preprocess.loader import raw_function, rewrite_function
from ..trace import control
from ..trace.context import current as tracing
from ..trace.kernel import KernelCall
from .aot_export import export_compiled
from .argspec import (
    DEFAULT_LAMBDA,
    ArgSpec,
    ConstexprSpec,
    same_lambda,
    validate,
)
from .argspec import from_value as spec_of_value
from .constexpr_values import ConstexprTypeError, Expected, checked, expected_type
from .native import DeviceUnavailable
from .tensor_input import UnsupportedTensor

Launcher = Callable[[dict[str, Any]], Any]
Dispatcher = Callable[["JitFunction", Any, dict[str, ArgSpec], dict[str, Any]], Launcher]

_dispatcher: Dispatcher | None = None


class JitError(RuntimeError):
    """A misuse of a jit or kernel function from host Python."""


class NoDispatcherError(JitError):
    pass


def set_dispatcher(fn: Dispatcher | None) -> Dispatcher | None:
    """Install the dispatcher (None removes it); returns the previous one."""
    global _dispatcher
    previous, _dispatcher = _dispatcher, fn
    return previous


def get_dispatcher() -> Dispatcher:
    if _dispatcher is None:
        raise NoDispatcherError(
            "bbx: no dispatcher installed (bbx.runtime.jit.set_dispatcher); nothing can translate "
            "and build jit functions in this process yet"
        )
    return _dispatcher


class _Decorated:
    """What jit and kernel functions share: the wrapped function and where it was written."""

    kind = "function"

    def __init__(self, fn: Callable[..., Any], options: dict[str, Any] | None = None) -> None:
        target = inspect.unwrap(fn)
        self.__wrapped__ = fn
        self.__name__ = getattr(fn, "__name__", "<jit>")
        self.__qualname__ = getattr(fn, "__qualname__", self.__name__)
        self.__module__ = getattr(fn, "__module__", None) or ""
        self.__doc__ = getattr(fn, "__doc__", None)
        code = getattr(target, "__code__", None)
        self.source_file: str = code.co_filename if code else "<unknown>"
        self.source_line: int = code.co_firstlineno if code else 0
        self.options = dict(options or {})
        self.signature = inspect.signature(fn)
        params = list(self.signature.parameters)
        self.is_method = bool(params) and params[0] in ("self", "cls")

    @property
    def where(self) -> str:
        return f"{self.source_file}:{self.source_line}"

    def __repr__(self) -> str:
        return f"<bbx {self.kind} {self.__qualname__} at {self.where}>"


class JitFunction(_Decorated):
    kind = "jit function"

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return BoundJit(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if tracing() is not None:
            return self.inline(None, args, kwargs)
        return self.invoke(None, args, kwargs)

    def inline(self, bound_self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """A call from code being traced: the function runs in that trace (the DSL inlines a
        jit function called from jit code), its control flow rewritten like its caller's."""
        rewritten = rewrite_function(raw_function(self.__wrapped__), control)
        return rewritten(*((bound_self,) if bound_self is not None else ()), *args, **kwargs)

    # -- specialization -----------------------------------------------------------------------
    def _annotations(self) -> dict[str, Any]:
        fn = inspect.unwrap(self.__wrapped__)
        out: dict[str, Any] = {}
        for name, param in self.signature.parameters.items():
            ann = param.annotation
            if isinstance(ann, str):
                try:
                    ann = eval(ann, getattr(fn, "__globals__", {}))  # noqa: S307 - user's own code
                except Exception:
                    ann = _TextAnnotation(ann)
            out[name] = ann
        return out

    def split_self(self, bound_self: Any, args: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...]]:
        """``Class.method(obj, ...)`` passes ``self`` as the first argument."""
        if self.is_method and bound_self is None:
            if not args:
                raise JitError(f"bbx: {self.__qualname__} ({self.where}) is a method; call it "
                               "on an object")
            return args[0], args[1:]
        return bound_self, args

    def bind(self, bound_self: Any, args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> dict[str, Any]:
        """Arguments by parameter name (defaults applied, ``self`` dropped)."""
        lead = (bound_self,) if self.is_method else ()
        try:
            bound = self.signature.bind(*lead, *args, **kwargs)
        except TypeError as exc:
            raise JitError(f"bbx: {self.__qualname__} ({self.where}): {exc}") from None
        bound.apply_defaults()
        values = dict(bound.arguments)
        if self.is_method:
            values.pop(next(iter(self.signature.parameters)))
        return values

    @cached_property
    def _param_facts(self) -> dict[str, tuple[bool, str | None]]:
        """Parameter name -> (annotated Constexpr, numeric dtype of its annotation), read from
        the annotations once."""
        return {name: (is_constexpr_annotation(ann), _numeric_dtype(ann))
                for name, ann in self._annotations().items()}

    @cached_property
    def stream_param(self) -> str | None:
        """The parameter that is the launch stream (`argspec.is_stream_parameter`), if any."""
        return next((name for name, ann in self._annotations().items()
                     if is_stream_parameter(name, annotation_text(ann))), None)

    @property
    def constexpr_names(self) -> frozenset[str]:
        """The parameters annotated ``Constexpr``."""
        return frozenset(self._constexpr_types)

    @cached_property
    def _constexpr_types(self) -> dict[str, Expected | None]:
        """Constexpr parameter name -> the type it takes (annotation or default), if known."""
        params = self.signature.parameters
        return {name: expected_type(ann, params[name].default)
                for name, ann in self._annotations().items() if is_constexpr_annotation(ann)}

    def arg_specs(self, values: dict[str, Any]) -> dict[str, ArgSpec]:
        """The specs of a call's values (Constexpr values normalized in `values`, and checked:
        a refusal names the parameter at the user's line)."""
        facts = self._param_facts
        specs: dict[str, ArgSpec] = {}
        for name, value in values.items():
            constexpr, dtype = facts.get(name, (False, None))
            param = self.signature.parameters.get(name)
            if constexpr and param is not None and same_lambda(value, param.default):
                specs[name] = ConstexprSpec(DEFAULT_LAMBDA, value)  # traced by the translator
                continue
            if constexpr:
                try:
                    value = values[name] = checked(name, value,
                                                   self._constexpr_types.get(name))
                except ConstexprTypeError as exc:
                    raise ArgumentRefused(exc.what, f"{self.__qualname__} is compiled for "
                                          f"each value of it; {exc.why}") from None
            try:
                specs[name] = spec_of_value(value, constexpr=constexpr, dtype=dtype)
            except UnsupportedTensor as exc:
                raise ArgumentRefused(f"argument '{name}' of {self.__qualname__}: {exc.what}",
                                      exc.why) from None
        return specs

    def specialize(self, bound_self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
                   ) -> tuple[Any, dict[str, ArgSpec], dict[str, Any]]:
        """(self, specs by parameter name, values by parameter name) of one call."""
        bound_self, args = self.split_self(bound_self, args)
        values = self.bind(bound_self, args, kwargs)
        return bound_self, self.arg_specs(values), values

    def invoke(self, bound_self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        bound_self, specs, values = self.specialize(bound_self, args, kwargs)
        launcher = get_dispatcher()(self, bound_self, specs, values)
        return launcher(values)

    def compile(self, bound_self: Any, args: tuple[Any, ...],
                kwargs: dict[str, Any]) -> CompiledFunction:
        """The specialization, built; as the DSL compiles without a GPU, one that cannot run
        in this process (no GPU of its target) raises when it is called, and can still be
        exported (`CompiledFunction.export_to_c`)."""
        bound_self, specs, values = self.specialize(bound_self, args, kwargs)
        launcher: Launcher
        try:
            launcher = get_dispatcher()(self, bound_self, specs, values)
        except DeviceUnavailable as exc:
            launcher = _Unavailable(exc)
        return CompiledFunction(self, bound_self, specs, launcher)


class _Unavailable:
    """The launcher of a specialization built for a target this process cannot run."""

    checked = True  # no C fast path

    def __init__(self, error: DeviceUnavailable) -> None:
        self.error, self.target = error, error.target

    def __call__(self, values: dict[str, Any]) -> Any:
        raise DeviceUnavailable(str(self.error), self.target)


class BoundJit:
    """``obj.method`` for a jit method: the function with ``self`` bound."""

    def __init__(self, function: JitFunction, obj: Any) -> None:
        self.__func__ = function
        self.__self__ = obj

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if tracing() is not None:
            return self.__func__.inline(self.__self__, args, kwargs)
        return self.__func__.invoke(self.__self__, args, kwargs)

    def compile(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> CompiledFunction:
        return self.__func__.compile(self.__self__, args, kwargs)

    def __getattr__(self, name: str) -> Any:
        """The function's other attributes, as a Python bound method gives its function's
        (`obj.method.set_name_prefix(...)`)."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.__func__, name)

    def __repr__(self) -> str:
        return f"<bound {self.__func__!r} of {self.__self__!r}>"


class CompiledFunction:
    """What ``cute.compile`` returns: calls validate their arguments against the specs first.

    Constexpr arguments may be passed again (they must equal the compiled values) or left out.
    The usual call — exactly the run-time arguments, positionally — goes straight to the
    launcher's C fast path (`fast`, launch.py), which checks each argument against its spec
    itself and raises the same errors.
    """

    def __init__(self, function: JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                 launcher: Launcher) -> None:
        self.function, self.bound_self, self.specs, self.launcher = (
            function, bound_self, specs, launcher)
        dynamic = [n for n, s in specs.items() if not isinstance(s, ConstexprSpec)]
        self._dynamic_count = len(dynamic)
        fast = getattr(launcher, "fast", None)
        self._fast = None if getattr(launcher, "checked", False) else fast

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._fast is not None and not kwargs and len(args) == self._dynamic_count:
            return self._fast(*args)
        names = list(self.specs)
        dynamic = [n for n in names if not isinstance(self.specs[n], ConstexprSpec)]
        positional = names if len(args) + len(kwargs) > len(dynamic) else dynamic
        if len(args) > len(positional):
            raise JitError(f"bbx: compiled {self.function.__qualname__} takes {len(positional)} "
                           f"positional arguments, got {len(args)}")
        values = dict(zip(positional[:len(args)], args, strict=True))
        for key, value in kwargs.items():
            if key not in self.specs or key in values:
                raise JitError(f"bbx: compiled {self.function.__qualname__}: unexpected or "
                               f"repeated argument {key!r}")
            values[key] = value
        for name in names:
            spec = self.specs[name]
            if name not in values:
                if isinstance(spec, ConstexprSpec):
                    values[name] = spec.value
                    continue
                param = self.function.signature.parameters.get(name)
                if param is not None and param.default is not inspect.Parameter.empty:
                    values[name] = param.default  # e.g. `stream=` left at its default
                    validate(spec, values[name], name)
                    continue
                raise JitError(f"bbx: compiled {self.function.__qualname__}: missing argument "
                               f"{name!r}")
            validate(spec, values[name], name)
        return self.launcher({n: values[n] for n in names})

    def export_to_c(self, file_path: str, file_name: str, function_prefix: str) -> None:
        """Writes `<file_path>/<file_name>.h` (the C API) and `.o` (its entry points) for this
        specialization (bbx.runtime.aot_export); `cute.runtime.load_module` loads the object."""
        export_compiled(self, get_dispatcher(), file_path, file_name, function_prefix)

    def call_signature(self) -> inspect.Signature:
        """The compiled function's parameters as a caller passes them (``self`` bound)."""
        signature = self.function.signature
        if self.bound_self is None:
            return signature
        return signature.replace(parameters=list(signature.parameters.values())[1:])

    def __repr__(self) -> str:
        args = ", ".join(f"{n}: {s}" for n, s in self.specs.items())
        return f"<bbx compiled {self.function.__qualname__}({args})>"


class KernelFunction(_Decorated):
    kind = "kernel"

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return BoundKernel(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.call(None, args, kwargs)

    def call(self, bound_self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """`kernel(args...)`: while a host function is traced, the call to launch."""
        if tracing() is not None:
            bound = (bound_self,) if bound_self is not None else ()
            return KernelCall(self.__wrapped__, (*bound, *args), kwargs,
                              method=bound_self is not None)
        raise JitError(
            f"bbx: @cute.kernel {self.__qualname__} ({self.where}) was called from host Python; "
            "kernels are launched from a @cute.jit function (kernel(...).launch(grid=..., "
            "block=...)), which bbx transpiles"
        )


class BoundKernel:
    """``obj.kernel`` for a kernel method: the kernel with ``self`` bound."""

    def __init__(self, function: KernelFunction, obj: Any) -> None:
        self.__func__ = function
        self.__self__ = obj

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__func__.call(self.__self__, args, kwargs)

    def __getattr__(self, name: str) -> Any:
        """The function's other attributes, as a Python bound method gives its function's
        (`obj.method.set_name_prefix(...)`)."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.__func__, name)

    def __repr__(self) -> str:
        return f"<bound {self.__func__!r} of {self.__self__!r}>"


def compile_callable(target: Any, args: tuple[Any, ...], kwargs: dict[str, Any],
                     options: Any = None) -> CompiledFunction:
    """``cute.compile(target, *args, **kwargs)``: a jit function, a bound jit method, or an object
    whose class's ``__call__`` is a jit method."""
    if options:
        warnings.warn(f"bbx: cute.compile options {options!r} are not supported and are ignored",
                      stacklevel=3)
    if isinstance(target, JitFunction):
        return target.compile(None, args, kwargs)
    if isinstance(target, BoundJit):
        return target.compile(args, kwargs)
    call = next((vars(k)["__call__"] for k in type(target).__mro__ if "__call__" in vars(k)),
                None)
    if isinstance(call, JitFunction):
        return call.compile(target, args, kwargs)
    raise JitError(f"bbx: cute.compile expects a @cute.jit function or method, got "
                   f"{type(target).__name__}")


class _TextAnnotation:
    """An annotation that could not be evaluated; classified by its text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.bbx_constexpr = "Constexpr" in text


def annotation_text(annotation: Any) -> str:
    """An annotation as its dotted name (`cuda.bindings.driver.CUstream`); '' for none."""
    if annotation is inspect.Parameter.empty:
        return ""
    if isinstance(annotation, _TextAnnotation):
        return annotation.text
    if isinstance(annotation, str):
        return annotation
    name = getattr(annotation, "__qualname__", None)
    return f"{getattr(annotation, '__module__', '')}.{name}" if name else str(annotation)


def is_constexpr_annotation(annotation: Any) -> bool:
    origin = getattr(annotation, "__origin__", annotation)
    return bool(getattr(origin, "bbx_constexpr", False))


def _numeric_dtype(annotation: Any) -> str | None:
    name = getattr(annotation, "bbx_dtype", None) if isinstance(annotation, type) else None
    return name if isinstance(name, str) else None
