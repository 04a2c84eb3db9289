"""The dispatcher: from a call of a `@cute.jit` function to a launch of its built specialization.

    translate the module (once per source text) -> evaluate Meta -> render the specialization
    unit -> build it into the cache (or find it there) -> load -> launch

`install()` registers it with `bbx.runtime.jit` and with the import hook, which translates every
DSL module when it is imported so that unsupported constructs are reported up front.
"""

from __future__ import annotations

import hashlib
import inspect
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .. import toolchain
from ..paths import include_dir
from ..translate import FunctionInfo, TranslationResult, translate_source
from . import jit
from .argspec import ArgSpec, ArgumentError, ConstexprSpec, ScalarSpec, StreamSpec, TensorSpec
from .builder import ExtensionBuild, build_extension
from .cache import BuildCache, specialization_key
from .loader import load_extension
from .source_map import annotate_sites
from .specialize import evaluate_meta, render_unit
from .targets import Target, default_target


class TranslationFailed(RuntimeError):
    """The module of a jit function does not translate; the message holds the diagnostics."""


class KernelError(RuntimeError):
    """A launched kernel failed (on the simulator: its report, e.g. a race or a deadlock)."""


_translations: dict[str, TranslationResult] = {}
_translations_lock = threading.Lock()


def translate_module(path: str, source: str | None = None) -> TranslationResult:
    """The translation of a module's source, memoised per source text."""
    if source is None:
        source = Path(path).read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode()).hexdigest()
    with _translations_lock:
        found = _translations.get(digest)
        if found is None:
            found = translate_source(source, Path(path).name, display_path=path,
                                     source_path=path)
            _translations[digest] = found
    if not found.ok:
        raise TranslationFailed(
            f"bbx: {path} cannot be translated:\n{found.render_diagnostics()}"
        )
    return found


def dependency_texts(translation: TranslationResult) -> dict[str, str]:
    """`<stem>.hip` -> generated text of every module whose helpers `translation` includes."""
    return {dep.stem + ".hip": translate_module(str(dep)).text or ""
            for dep in translation.dependencies}


def on_dsl_module(module_name: str, path: str, source: str) -> None:
    """Import-hook callback: record the module and translate it at import, so that diagnostics
    are reported before any of its code runs."""
    from .. import hook

    hook.dsl_modules[module_name] = path
    translate_module(path, source)


@cache
def header_library_hash() -> str:
    digest = hashlib.sha256()
    root = include_dir()
    for header in sorted(root.rglob("*")):
        if header.is_file():
            digest.update(str(header.relative_to(root)).encode())
            digest.update(header.read_bytes())
    return digest.hexdigest()


@cache
def compiler_identity(target: Target) -> str:
    if target.is_cpu:
        path = toolchain.host_compiler().path
    elif target.is_cuda:
        found = toolchain.cuda_compiler()
        path = found.path if found else "nvcc"
    else:
        found = toolchain.amd_compiler()
        path = found.path if found else "hipcc"
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
        version = (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        version = "unknown"
    return f"{path} {version}"


def find_function(translation: TranslationResult, fn: jit.JitFunction) -> FunctionInfo:
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


@dataclass(frozen=True)
class TensorArgument:
    """What the binding receives for a tensor: address, extents, strides, bytes spanned."""

    @staticmethod
    def describe(value: Any) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
        tensor = getattr(value, "bbx_torch_tensor", value)
        shape = tuple(int(n) for n in tensor.shape)
        stride = tuple(int(s) for s in tensor.stride())
        if any(n > 2**31 - 1 for n in (*shape, *stride)):
            raise ArgumentError("bbx: extents and strides must fit in 32 bits")
        span = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, stride, strict=True)) if all(
            shape) else 0
        return int(tensor.data_ptr()), shape, stride, span * tensor.element_size()


def _scalar_value(value: Any) -> Any:
    raw = getattr(value, "value", value)
    return raw.item() if hasattr(raw, "item") else raw


def _stream_handle(value: Any) -> int:
    for attr in ("cuda_stream", "handle", "value"):
        inner = getattr(value, attr, None)
        if isinstance(inner, int):
            return inner
    return int(value) if isinstance(value, int) else 0


def _check_device(name: str, value: Any, target: Target) -> None:
    tensor = getattr(value, "bbx_torch_tensor", value)
    device = getattr(getattr(tensor, "device", None), "type", None)
    if device is not None and device != target.torch_device_type:
        raise ArgumentError(
            f"bbx: argument '{name}' is on device '{device}', but this specialization runs on "
            f"target '{target.name}', which needs '{target.torch_device_type}' tensors "
            "(set BBX_TARGET or move the tensor)"
        )


class Launcher:
    """Calls one loaded specialization with a call's values (by parameter name)."""

    def __init__(self, module: Any, specs: dict[str, ArgSpec], function: FunctionInfo,
                 target: Target, label: str, generated: dict[str, str] | None = None) -> None:
        self.module, self.specs, self.function = module, specs, function
        self.target, self.label = target, label
        #: generated file name -> text, to name Python lines in run-time reports
        self.generated = generated or {}

    def __call__(self, values: dict[str, Any]) -> None:
        packed: list[Any] = []
        stream = 0
        for name, spec in self.specs.items():
            value = values[name]
            if isinstance(spec, TensorSpec):
                _check_device(name, value, self.target)
                packed.append(TensorArgument.describe(value))
            elif isinstance(spec, ScalarSpec):
                packed.append(_scalar_value(value))
            elif isinstance(spec, StreamSpec):
                stream = _stream_handle(value)
                packed.append(None)
            else:
                packed.append(None)  # Constexpr values are baked into the build
        if not any(isinstance(s, StreamSpec) for s in self.specs.values()) and self.target.is_cuda:
            import torch

            stream = torch.cuda.current_stream().cuda_stream
        try:
            self.module.call(tuple(packed), stream)
        except RuntimeError as exc:
            report = annotate_sites(str(exc), self.generated)
            raise KernelError(
                f"bbx: {self.label} failed on target {self.target.name}:\n{report}"
            ) from None


class Dispatcher:
    def __init__(self, cache: BuildCache | None = None, target: Target | None = None) -> None:
        self.cache = cache or BuildCache()
        self.target = target
        self._launchers: dict[Any, Launcher] = {}
        self._lock = threading.Lock()

    def __call__(self, fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                 values: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
        target = self.target or default_target()
        memo = (id(fn), jit.self_config(bound_self), tuple(specs.items()), target)
        with self._lock:
            launcher = self._launchers.get(memo)
            if launcher is None:
                launcher = self._specialize(fn, bound_self, specs, target)
                self._launchers[memo] = launcher
        return launcher

    def _specialize(self, fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                    target: Target) -> Launcher:
        translation = translate_module(fn.source_file)
        info = find_function(translation, fn)
        python_fn = inspect.unwrap(fn.__wrapped__)
        scope = {"self": bound_self} if bound_self is not None else {}
        # Run-time arguments stand for themselves (their spec: never None), so that Meta members
        # such as `mW is not None` evaluate for tensors as well as for None.
        scope |= {n: s for n, s in specs.items() if not isinstance(s, ConstexprSpec)}
        scope |= {n: s.value for n, s in specs.items() if isinstance(s, ConstexprSpec)}
        meta_values = evaluate_meta(info.all_meta, getattr(python_fn, "__globals__", {}), scope)
        stem = Path(translation.path).stem
        hip_name = f"{stem}.hip"
        label = f"{Path(fn.source_file).name}:{fn.__qualname__}"
        arguments = ", ".join(f"{n}: {s}" for n, s in specs.items())
        unit = render_unit(translation, info, hip_name, meta_values, specs, target.name,
                           f"{label}({arguments})")
        assert translation.text is not None
        dependencies = dependency_texts(translation)
        key = specialization_key({
            "unit": hashlib.sha256(unit.text.encode()).hexdigest(),
            "hip": hashlib.sha256(translation.text.encode()).hexdigest(),
            "dependencies": {name: hashlib.sha256(text.encode()).hexdigest()
                             for name, text in dependencies.items()},
            "headers": header_library_hash(),
            "target": target.name,
            "compiler": compiler_identity(target),
        })

        def build(staging: Path) -> dict[str, Any]:
            hip = staging / hip_name
            hip.write_text(translation.text or "")
            generated = {hip_name: hip}
            for name, text in dependencies.items():
                generated[name] = staging / name
                generated[name].write_text(text)
            unit_path = staging / "unit.cpp"
            unit_path.write_text(unit.text)
            ext = ExtensionBuild(label, unit.module_name, unit_path, target,
                                 generated_files=generated)
            built = build_extension(ext, staging)
            return {"module": unit.module_name, "extension": built.name, "target": target.name,
                    "function": label, "arguments": arguments}

        entry, _ = self.cache.get_or_build(key, build)
        module = load_extension(entry.artifact(entry.manifest["extension"]), unit.module_name)
        generated = {hip_name: translation.text, **dependencies}
        return Launcher(module, specs, info, target, label, generated)


_installed: Dispatcher | None = None


def install(dispatcher: Dispatcher | None = None) -> Dispatcher:
    """Make jit calls build and launch through `dispatcher` (default: a new one)."""
    global _installed
    from .. import hook

    _installed = dispatcher or _installed or Dispatcher()
    jit.set_dispatcher(_installed)
    hook.set_on_dsl_module(on_dsl_module)
    return _installed
