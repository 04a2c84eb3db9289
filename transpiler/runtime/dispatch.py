"""The dispatcher: from a call of a `@cute.jit` function to a launch of its built specialization.

    translate the module (once per source text) -> evaluate Meta -> render the specialization
    unit -> build it into the cache (or find it there) -> load -> launch (launch.py)

`install()` registers it with `bbx.runtime.jit` and with the record of DSL modules that the
import hook reports to (bbx.dsl_files): every DSL module is translated when it is imported, so
that unsupported constructs are reported up front.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import dsl_files, settings
from ..analysis.call_facts import POINTER_ELEMENT, SCALAR_ELEMENT, TENSOR_ELEMENT, CallFacts
from ..targets.backend import Backend
from ..targets.registry import compiler_identity, default_target
from ..translate import FunctionInfo, TranslationResult
from . import host_callables, jit, staged
from .argspec import (
    DEFAULT_LAMBDA,
    ArgSpec,
    ConstexprSpec,
    ScalarSpec,
    SequenceSpec,
    TensorSpec,
    flatten,
    flatten_values,
    jit_call_of,
    self_config,
    validate,
)
from .builder import UnitBuild, build_unit
from .cache import BuildCache, specialization_key
from .checks import ShapeGroup
from .dtypes import dtype as dtype_info
from .fingerprint import header_library_hash
from .launch import KernelError, Launcher
from .meta_struct import evaluate_meta
from .module_translation import TranslationFailed, dependency_texts, translate_module
from .native import DeviceUnavailable, open_specialization
from .prebuilt import prebuilt_for
from .shape_groups import infer_shape_groups
from .specialize import Unit, UnitFunction, operator_functor, render_staged_unit, render_unit

__all__ = ["DeviceUnavailable", "Dispatcher", "KernelError", "TranslationFailed", "install",
           "translate_module"]


#: What a built unit is (part of every cache key): 2 = a shared object with a C entry point.
UNIT_FORMAT = 2

def on_dsl_module(module_name: str, path: str, source: str) -> None:
    """Import-hook callback: record the module and translate it at import, so that diagnostics
    are reported before any of its code runs (staged execution finds errors when it traces a
    function, as the DSL does)."""
    dsl_files.dsl_modules[module_name] = path
    if not settings.enabled("BBX_STAGED"):
        translate_module(path, source)


def refuse_if_failed(translation: TranslationResult, qualified_name: str, where: str) -> None:
    """A function of a module whose other functions translate, that itself does not: its
    errors, raised where the program calls it (as the DSL raises them when it traces it)."""
    if qualified_name in translation.failed:
        raise TranslationFailed(
            f"bbx: {qualified_name} ({where}) cannot be translated:\n"
            f"{translation.render_failure(qualified_name)}")


def find_function(translation: TranslationResult, fn: jit.JitFunction) -> FunctionInfo:
    refuse_if_failed(translation, fn.__qualname__, fn.where)
    parts = fn.__qualname__.split(".")
    name, owner = parts[-1], (parts[-2] if len(parts) > 1 else None)
    for info in translation.functions:
        if info.python_name == name and info.class_name == owner and info.role == "host":
            return info
    raise TranslationFailed(
        f"bbx: {fn.__qualname__} ({fn.where}) was not translated as a @cute.jit host function"
    )


def find_host_function(translation: TranslationResult, name: str) -> FunctionInfo:
    """The host (@cute.jit) function that `bbx build FILE.py:NAME` names: a module-level
    function `NAME`, a class `NAME` (its `__call__`), or `Class.method`."""
    owner, _, method = name.rpartition(".")
    wanted = [(method, owner or None)] if owner else [(name, None), ("__call__", name)]
    for python_name, class_name in wanted:
        qualified = f"{class_name}.{python_name}" if class_name else python_name
        refuse_if_failed(translation, qualified, Path(translation.path).name)
    for python_name, class_name in wanted:
        for info in translation.functions:
            if (info.role == "host" and info.python_name == python_name
                    and info.class_name == class_name):
                return info
    known = sorted(f"{i.class_name}.{i.python_name}" if i.class_name else i.python_name
                   for i in translation.functions if i.role == "host")
    known = [k.removesuffix(".__call__") for k in known]
    raise TranslationFailed(
        f"bbx: {Path(translation.path).name} has no @cute.jit function or class {name!r}"
        f" (it has: {', '.join(known) or 'none'})"
    )


def _emit(texts: dict[str, str]) -> None:
    """Writes generated C++ (by file name) into BBX_EMIT_DIR, where that is set (`bbx run
    --emit DIR`); a file that already holds the text is left as it is."""
    directory = settings.value("BBX_EMIT_DIR")
    if not directory:
        return
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        path = root / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


class Dispatcher:
    def __init__(self, cache: BuildCache | None = None, target: Backend | None = None) -> None:
        self.cache = cache or BuildCache()
        self.target = target
        self._launchers: dict[Any, Launcher | SequenceLauncher] = {}
        self._lock = threading.Lock()

    def __call__(self, fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                 values: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
        target = self.target or default_target()
        memo = (id(fn), self_config(bound_self), tuple(specs.items()), target)
        with self._lock:
            launcher = self._launchers.get(memo)
            if launcher is None:
                launcher = self._specialize(fn, bound_self, specs, target)
                self._launchers[memo] = launcher
        return launcher

    def _specialize(self, fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                    target: Backend) -> Launcher | SequenceLauncher:
        source = self.unit_source(fn, bound_self, specs, target)
        address = self._build(source.unit, source.generated, target, source.label,
                              source.arguments)
        launcher = Launcher(address, source.specs, target, source.label, source.generated,
                            source.shape_groups)
        return (SequenceLauncher(launcher, source.sequences) if source.sequences
                else launcher)

    def unit_source(self, fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                    target: Backend) -> UnitSource:
        """What the specialization of `fn` for `specs` on `target` is built from: by staged
        execution (`BBX_STAGED=1`) or from the module's translation."""
        if settings.enabled("BBX_STAGED"):
            return self._staged_source(fn, bound_self, specs, target)
        call = prepare_call(fn, bound_self, specs, lambda t: find_function(t, fn))
        translation, info, specs = call.translation, call.info, call.specs
        hip_name = f"{Path(translation.path).stem}.hip"
        label = f"{Path(fn.source_file).name}:{fn.__qualname__}"
        arguments = ", ".join(f"{n}: {s}" for n, s in specs.items())
        unit = render_unit(translation, info, hip_name, call.meta_values, specs, target,
                           f"{label}({arguments})", traced=call.traced)
        assert translation.text is not None
        generated = {hip_name: translation.text, **dependency_texts(translation)}
        _emit(generated)
        return UnitSource(unit, generated, label, arguments, specs, call.sequences,
                          lambda: infer_shape_groups(translation.source, translation.path,
                                                     info.class_name, info.python_name, specs))

    def _staged_source(self, fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                       target: Backend) -> UnitSource:
        """The specialization built by staged execution (bbx.runtime.staged). A sequence
        argument is a Python list or tuple of proxies while tracing; its elements are
        parameters of their own (`argspec.flatten`), passed by a SequenceLauncher."""
        module = staged.trace_call(fn, bound_self, specs, target)
        sequences = {n: s for n, s in specs.items() if isinstance(s, SequenceSpec)}
        flat = flatten(specs)
        hip_name = f"{Path(fn.source_file).stem}.hip"
        label = f"{Path(fn.source_file).name}:{fn.__qualname__}"
        arguments = ", ".join(f"{n}: {s}" for n, s in specs.items())
        function = UnitFunction(module.namespace, module.sha256, module.cxx_name,
                                module.stream_param)
        unit = render_staged_unit(function, hip_name, flat, target, f"{label}({arguments})")
        generated = {hip_name: module.text}
        _emit({f"{Path(fn.source_file).stem}.{fn.__qualname__}.{module.sha256[:8]}.hip":
               module.text})
        return UnitSource(unit, generated, label, arguments, flat, sequences,
                          lambda: _staged_shape_groups(fn, specs))

    def _build(self, unit: Unit, generated: dict[str, str], target: Backend, label: str,
               arguments: str) -> int:
        """The entry point of `unit` (with its `generated` modules by file name, the module of
        the called function first), built into the cache or found there, and loaded."""
        (_, text), *dependencies = generated.items()
        key = specialization_key({
            "unit": unit.key,
            "hip": hashlib.sha256(text.encode()).hexdigest(),
            "dependencies": {name: hashlib.sha256(dependency.encode()).hexdigest()
                             for name, dependency in dependencies},
            "headers": header_library_hash(),
            "target": target.name,
            "compiler": compiler_identity(target),
            "flags": target.unit_flags(),
            "unit format": UNIT_FORMAT,
        })

        def build(staging: Path) -> dict[str, Any]:
            files = {}
            for name, text in generated.items():
                files[name] = staging / name
                files[name].write_text(text)
            unit_path = staging / "unit.cpp"
            unit_path.write_text(unit.text)
            unit_build = UnitBuild(label, unit_path, target, generated_files=files)
            built = build_unit(unit_build, staging, prebuilt=prebuilt_for(target))
            return {"extension": built.name, "target": target.name, "function": label,
                    "arguments": arguments}

        entry, _ = self.cache.get_or_build(key, build)
        try:
            return open_specialization(entry.artifact(entry.manifest["extension"]))
        except DeviceUnavailable as exc:
            raise DeviceUnavailable(f"bbx: {label} cannot run on target {target.name} here: "
                                    f"{exc}", target) from None


def _staged_shape_groups(fn: jit.JitFunction, specs: dict[str, ArgSpec]
                         ) -> tuple[ShapeGroup, ...]:
    """The shape groups of a staged specialization, read from its module's source as the
    translated path reads them (a function nested in another has none)."""
    *owner, name = fn.__qualname__.split(".")
    if "<locals>" in owner or len(owner) > 1:
        return ()
    try:
        source = Path(fn.source_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ()
    return infer_shape_groups(source, fn.source_file, owner[0] if owner else None, name, specs)


@dataclass(frozen=True)
class UnitSource:
    """One specialization's unit and the generated modules it includes (by file name, the
    called function's module first), with what its launcher needs."""

    unit: Unit
    generated: dict[str, str]
    label: str  # FILE.py:function
    arguments: str  # the specs as the user reads them
    specs: dict[str, ArgSpec]  # flattened (argspec.flatten): one ABI entry each
    sequences: dict[str, SequenceSpec]
    shape_groups: Callable[[], tuple[ShapeGroup, ...]] | None


@dataclass(frozen=True)
class PreparedCall:
    """What one specialization is built from: the module translated for the call's facts, the
    function's info, its Meta values, and the arguments with sequences flattened."""

    translation: TranslationResult
    info: FunctionInfo
    meta_values: dict[str, Any]
    specs: dict[str, ArgSpec]  # flattened: `inputs[0]`, `inputs[1]`, ... (argspec.flatten)
    sequences: dict[str, SequenceSpec]  # the call's sequence arguments, by parameter
    traced: set[str]  # Constexpr parameters given Python functions that the translation traces


def prepare_call(fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                 find: Callable[[TranslationResult], FunctionInfo]) -> PreparedCall:
    """Translate `fn`'s module for a call with `specs` (`find` picks the function's info) and
    evaluate its Meta members; SpecializationError if a value has no C++ form."""
    module = translate_module(fn.source_file)  # as imported: which functions are per call
    facts = call_facts_of(fn, specs, dict(module.per_call).get(fn.__qualname__, ()))
    translation = translate_module(fn.source_file, call_facts=facts) if facts else module
    info = find(translation)
    if info.per_call:
        given = ", ".join(f"{n}: {s}" for n, s in specs.items())
        raise TranslationFailed(
            f"bbx: {fn.__qualname__} ({fn.where}) uses a parameter as a Python sequence, but "
            f"this call gives it no sequence of tensors ({given}); bbx translates such "
            "functions for lists and tuples of tensors, pointers and scalars")
    python_fn = inspect.unwrap(fn.__wrapped__)
    scope = {"self": bound_self} if bound_self is not None else {}
    # Run-time arguments stand for themselves (their spec: never None), so that Meta members
    # such as `mW is not None` evaluate for tensors as well as for None.
    scope |= {n: s for n, s in specs.items() if not isinstance(s, ConstexprSpec)}
    scope |= {n: s.value for n, s in specs.items() if isinstance(s, ConstexprSpec)}
    scope |= {n: list(s.elements) for n, s in specs.items() if isinstance(s, SequenceSpec)}
    meta_values = evaluate_meta(info.all_meta, getattr(python_fn, "__globals__", {}), scope)
    sequences = {n: s for n, s in specs.items() if isinstance(s, SequenceSpec)}
    traced = set(facts.callables_for(fn.__qualname__)) if facts else set()
    return PreparedCall(translation, info, meta_values, flatten(specs), sequences, traced)


def call_facts_of(fn: jit.JitFunction, specs: dict[str, ArgSpec],
                  per_call: tuple[str, ...] = ()) -> CallFacts | None:
    """The facts a call gives the translation: the Python sequences `fn` is given, the Python
    functions given to its Constexpr parameters that the translation traces, and the Python
    data given to the parameters it uses as sequences (`per_call`, from its translation)."""
    sequences = tuple(
        (fn.__qualname__, name, tuple(_element(e) for e in spec.elements))
        for name, spec in specs.items() if isinstance(spec, SequenceSpec)
    )
    callables = tuple(
        (fn.__qualname__, name, where) for name, where in traced_callables(fn, specs).items()
    )
    values = tuple(
        (fn.__qualname__, name, repr(spec.value)) for name, spec in specs.items()
        if name in per_call and isinstance(spec, ConstexprSpec) and _python_literal(spec.value)
    )
    facts = CallFacts(sequences, callables, values)
    return facts if facts else None


def _python_literal(value: Any) -> bool:
    """A tuple or list of Python literals, which its repr spells."""
    if not isinstance(value, (tuple, list)):
        return False
    try:
        return bool(ast.literal_eval(repr(value)) == value)
    except (ValueError, SyntaxError):
        return False


def traced_callables(fn: jit.JitFunction, specs: dict[str, ArgSpec]) -> dict[str, str]:
    """Constexpr arguments that are Python functions of `fn`'s module (not operator.*, not a
    jit-callable object, not the parameter's own lambda default): parameter -> descriptor."""
    out: dict[str, str] = {}
    for name, spec in specs.items():
        if not isinstance(spec, ConstexprSpec) or spec.key == DEFAULT_LAMBDA:
            continue
        value = spec.value
        if not callable(value) or operator_functor(value) or jit_call_of(value) is not None:
            continue
        where = host_callables.describe(value, fn.source_file)
        if where is not None:
            out[name] = where
    return out


def _element(spec: ArgSpec) -> str:
    if isinstance(spec, TensorSpec):
        return TENSOR_ELEMENT
    if isinstance(spec, ScalarSpec):
        return SCALAR_ELEMENT + dtype_info(spec.dtype).cxx
    return POINTER_ELEMENT


class SequenceLauncher:
    """The launcher of a specialization taking Python sequences: a call's sequences are
    checked, then passed element by element (`argspec.flatten_values`)."""

    def __init__(self, inner: Launcher, sequences: dict[str, SequenceSpec]) -> None:
        self.inner, self.sequences = inner, sequences

    def __call__(self, values: dict[str, Any]) -> None:
        for name, spec in self.sequences.items():
            validate(spec, values[name], name)
        self.inner(flatten_values(self.sequences, values))


_installed: Dispatcher | None = None


def installed() -> Dispatcher:
    """The dispatcher jit calls go through (installed now if none is)."""
    return _installed or install()


def install(dispatcher: Dispatcher | None = None) -> Dispatcher:
    """Make jit calls build and launch through `dispatcher` (default: a new one)."""
    global _installed
    _installed = dispatcher or _installed or Dispatcher()
    jit.set_dispatcher(_installed)
    dsl_files.set_on_dsl_module(on_dsl_module)
    return _installed
