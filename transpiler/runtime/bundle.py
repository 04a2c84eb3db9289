"""`bbx build`: one specialization of a `@cute.jit` function (or class) for one target, written as
a self-contained repro bundle, without running the user's script.

    DIR/<stem>.hip          the generated module
    DIR/unit.cpp            the specialization unit (templates/specialization.cpp.j2)
    DIR/include/            a copy of the header library (the commands `-I` only this)
    DIR/manifest.json       what was built, from what, with which exact commands
    DIR/repro.sh            reruns those commands from DIR; needs the compiler, not bbx
    DIR/compiler.log        what the compilers printed (cuda: ptxas's resources per kernel)
    DIR/<outputs>           gfxN: <stem>.<arch>.hsaco (+ the loadable bbx_<...>.so with hipcc);
                            cuda: <stem>.sm_90.o; cpu: bbx_<...>.so (a loadable specialization
                            exports the C entry point of bbx/platform/abi.h)

The module is imported with the bbx import hook installed (its top-level Python runs, as on
`import`; a `__main__` block does not) so that Meta members can be evaluated against its globals
and, for a class NAME, the object `NAME(**init)` exists.

What each target builds (its commands, its code objects, what its manifest adds) is its
backend's (bbx.targets: Backend.bundle_steps).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import json
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__, settings
from ..paths import include_dir
from ..targets.backend import Backend, Step, ToolMissing
from ..trace.errors import TraceError
from ..translate import FunctionInfo
from . import jit, staged
from .argspec import (
    DEFAULT_LAMBDA,
    ArgSpec,
    ArgSpecSyntaxError,
    ConstexprSpec,
    StreamSpec,
    is_lambda,
    parse,
)
from .cache import file_sha256
from .dispatch import (
    TranslationFailed,
    dependency_texts,
    find_host_function,
    prepare_call,
    translate_module,
)
from .meta_struct import SpecializationError
from .source_map import annotate_compiler_output
from .specialize import Unit, UnitFunction, render_staged_unit, render_unit

UNIT = "unit.cpp"
COMPILER_LOG = "compiler.log"
BUNDLE_INCLUDE = "include"


class BuildInputError(ValueError):
    """A mistake in what `bbx build` was asked to do (one line, no traceback)."""


class BuildFailed(RuntimeError):
    """A compiler command failed; the message holds its output mapped to Python lines."""


@dataclass(frozen=True)
class BuildRequest:
    source: Path
    name: str
    target: Backend
    args: tuple[str, ...]
    consts: tuple[str, ...] = ()  # "k=v", v a Python literal
    init: tuple[str, ...] = ()  # "k=v" for a class NAME's __init__
    output: Path = Path("bbx-build")
    opt: str = "-O3"


@dataclass
class Bundle:
    directory: Path
    manifest: dict[str, Any]
    code_objects: list[Path] = field(default_factory=list)


def parse_assignments(items: tuple[str, ...], flag: str,
                      namespace: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """NAME=VALUE pairs; VALUE is a Python literal or, resolved in `namespace` (the module's
    globals), a dotted name such as `cutlass.Float16` (a constructor's dtype parameter), or a
    tuple or list of those."""
    out: dict[str, Any] = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or not key.strip().isidentifier():
            raise BuildInputError(f"bbx build: {flag} expects NAME=VALUE, got {item!r}")
        try:
            out[key.strip()] = _literal_or_name(ast.parse(text.strip(), mode="eval").body,
                                                namespace or {})
        except (ValueError, SyntaxError, LookupError, AttributeError):
            raise BuildInputError(
                f"bbx build: {flag} {key.strip()}: {text.strip()!r} is not a Python literal "
                "or a dotted name of the module (quote strings: --const mode=\"'relu'\"; "
                "dtypes: --init dtype=cutlass.Float16)") from None
    return out


def _literal_or_name(node: ast.expr, namespace: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Tuple | ast.List):
        items = [_literal_or_name(e, namespace) for e in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else items
    if isinstance(node, ast.Name):
        return namespace[node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name | ast.Attribute):
        return getattr(_literal_or_name(node.value, namespace), node.attr)
    return ast.literal_eval(node)


def import_module(source: Path, command: str = "bbx build") -> Any:
    """Import the user's module with the bbx import hook (the `cutlass` shim) installed."""
    from .. import hook

    hook.install()
    digest = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:8]
    name = f"bbx_build_{source.stem}_{digest}"
    spec = importlib.util.spec_from_file_location(name, source)
    if spec is None or spec.loader is None:
        raise BuildInputError(f"{command}: cannot import {source}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(source.resolve().parent))
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise BuildInputError(
            f"{command}: importing {source} raised {type(exc).__name__}: {exc}") from None
    finally:
        sys.path.remove(str(source.resolve().parent))
    return module


def resolve_jit(module: Any, info: FunctionInfo, name: str,
                init: dict[str, Any]) -> tuple[jit.JitFunction, Any]:
    """(the jit function object, the bound object or None)."""
    if info.class_name is None:
        if init:
            raise BuildInputError(f"bbx build: --init is for a class; {name} is a function")
        return getattr(module, info.python_name), None
    cls = getattr(module, info.class_name)
    try:
        obj = cls(**init)
    except Exception as exc:
        given = ", ".join(f"{k}={v!r}" for k, v in init.items())
        raise BuildInputError(f"bbx build: {info.class_name}({given}) raised "
                              f"{type(exc).__name__}: {exc}") from None
    return inspect.getattr_static(cls, info.python_name), obj


def _jit_names(module: Any) -> list[str]:
    """The module's own @cute.jit functions and classes with a @cute.jit `__call__`: the names
    `bbx build FILE.py:NAME` takes without a method."""
    return sorted(
        attr for attr, value in vars(module).items()
        if getattr(value, "__module__", None) == module.__name__ and (
            isinstance(value, jit.JitFunction) or (
                isinstance(value, type)
                and isinstance(vars(value).get("__call__"), jit.JitFunction))))


def _resolve_by_name(module: Any, name: str, init: dict[str, Any], label: str,
                     command: str) -> tuple[jit.JitFunction, Any]:
    """(the jit function, the object or None) that NAME names in `module`: a function, a class
    (its `__call__`, on `NAME(**init)`) or `Class.method`."""
    owner, _, method = name.rpartition(".")
    if not owner:  # a function, or a class called through its __call__
        method = "__call__"
    found = getattr(module, owner or name, None)
    if found is None:
        raise BuildInputError(f"{command}: {label}: {Path(module.__file__ or label).name} has "
                              f"no @cute.jit function or class {owner or name!r} (it has: "
                              f"{', '.join(_jit_names(module)) or 'none'})")
    if not owner and not isinstance(found, type):
        if init:
            raise BuildInputError(f"{command}: --init is for a class; {name} is a function")
        if not isinstance(found, jit.JitFunction):
            raise BuildInputError(f"{command}: {label} is not a @cute.jit function")
        return found, None
    if not isinstance(found, type):
        raise BuildInputError(f"{command}: {label}: {owner} is not a class")
    attribute = inspect.getattr_static(found, method, None)
    if not isinstance(attribute, jit.JitFunction):
        raise BuildInputError(f"{command}: {label}: {found.__name__}.{method} is not a "
                              "@cute.jit method")
    try:
        obj = found(**init)
    except Exception as exc:
        given = ", ".join(f"{k}={v!r}" for k, v in init.items())
        raise BuildInputError(f"{command}: {found.__name__}({given}) raised "
                              f"{type(exc).__name__}: {exc}") from None
    return attribute, obj


def argument_specs(fn: jit.JitFunction, constexpr: frozenset[str], stream_param: str | None,
                   arg_texts: tuple[str, ...], consts: dict[str, Any], label: str,
                   command: str = "bbx build") -> dict[str, ArgSpec]:
    """Specs by parameter name in signature order: `--arg` fills the run-time parameters,
    `--const` (else the Python default) the Constexpr ones; a stream parameter is implicit."""
    params = [p for i, p in enumerate(fn.signature.parameters.values())
              if not (i == 0 and fn.is_method)]
    runtime = [p.name for p in params if p.name not in constexpr and p.name != stream_param]
    if len(arg_texts) != len(runtime):
        raise BuildInputError(
            f"{command}: {label} takes {len(runtime)} run-time argument(s) "
            f"({', '.join(runtime) or 'none'}), got {len(arg_texts)} --arg")
    unknown = sorted(set(consts) - constexpr)
    if unknown:
        raise BuildInputError(
            f"{command}: --const {unknown[0]}: {label} has no Constexpr parameter of that name "
            f"(it has: {', '.join(sorted(constexpr)) or 'none'})")
    texts = iter(zip(runtime, arg_texts, strict=True))
    specs: dict[str, ArgSpec] = {}
    for p in params:
        if p.name == stream_param:
            specs[p.name] = StreamSpec()
        elif p.name in constexpr:
            if p.name in consts:
                specs[p.name] = ConstexprSpec.of(consts[p.name])
            elif is_lambda(p.default):
                specs[p.name] = ConstexprSpec(DEFAULT_LAMBDA, p.default)  # traced from source
            elif p.default is not inspect.Parameter.empty:
                specs[p.name] = ConstexprSpec.of(p.default)
            else:
                raise BuildInputError(f"{command}: Constexpr parameter {p.name} of {label} has "
                                      f"no default; pass --const {p.name}=VALUE")
        else:
            name, text = next(texts)
            try:
                specs[p.name] = parse(text)
            except ArgSpecSyntaxError as exc:
                raise BuildInputError(f"{command}: --arg for {name}: bad spec {text!r} at "
                                      f"column {exc.column}: {exc.what}") from None
    return specs


def _relocated(command: list[str]) -> list[str]:
    """The command with the header library's `-I` pointing at the bundle's copy."""
    absolute = f"-I{include_dir()}"
    return [f"-I{BUNDLE_INCLUDE}" if arg == absolute else arg for arg in command]


def build_steps(target: Backend, stem: str, label: str, module_name: str,
                opt: str) -> tuple[list[Step], list[str]]:
    """(the commands to run in the bundle directory, the device code objects they produce); a
    loadable specialization is `<module_name>.so`."""
    try:
        steps, code_objects = target.bundle_steps(Path(UNIT), stem, Path(f"{module_name}.so"),
                                                  opt)
    except ToolMissing as exc:
        raise BuildFailed(f"bbx build: building {label} for {target.name} failed:\n{exc}"
                          ) from None
    return [Step(_relocated(step.command), step.outputs) for step in steps], code_objects


def compiler_version(target: Backend) -> str:
    """The compiler's path and the first line of its `--version`, for the manifest."""
    path = target.compiler_path()
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
        return f"{path} {(out.stdout or out.stderr).strip().splitlines()[0]}"
    except (OSError, subprocess.SubprocessError, IndexError):
        return f"{path} (version unknown)"


def _copy_headers(directory: Path) -> None:
    target = directory / BUNDLE_INCLUDE
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(include_dir(), target,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def _repro_script(steps: list[Step]) -> str:
    lines = ["#!/bin/sh", "# Rebuilds this bundle's outputs with the exact commands bbx ran.",
             "# Needs only the compiler named below; the header library is the copy in",
             "# ./include.",
             "set -eu", 'cd "$(dirname "$0")"']
    lines += [shlex.join(step.command) for step in steps]
    return "\n".join(lines) + "\n"


def _run(step: Step, directory: Path, generated: dict[str, Path], label: str,
         target: Backend) -> None:
    try:
        proc = subprocess.run(step.command, cwd=directory, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    except OSError as exc:
        raise BuildFailed(f"bbx build: cannot run {step.command[0]}: {exc}") from None
    if proc.returncode != 0:
        raise BuildFailed(f"bbx build: building {label} for {target.name} failed:\n"
                          f"{annotate_compiler_output(proc.stdout, generated)}")
    with (directory / COMPILER_LOG).open("a") as log:
        log.write(proc.stdout)


@dataclass(frozen=True)
class Specialization:
    """What a request names: the jit function, the object it is called on (a class NAME's
    `NAME(**init)`), the specs of its parameters."""

    fn: jit.JitFunction
    bound_self: Any
    specs: dict[str, ArgSpec]
    init: dict[str, Any]
    label: str  # FILE.py:NAME


def staged_specialization(request: BuildRequest, command: str = "bbx build") -> Specialization:
    """The specialization `request` names, found by importing its module (no translation):
    `--const`s and Constexpr defaults fill the Constexpr parameters, `--arg`s the others."""
    source = request.source
    if not source.is_file():
        raise BuildInputError(f"{command}: no such file: {source}")
    label = f"{source.name}:{request.name}"
    module = import_module(source, command)
    consts = parse_assignments(request.consts, "--const", vars(module))
    init = parse_assignments(request.init, "--init", vars(module))
    fn, bound_self = _resolve_by_name(module, request.name, init, label, command)
    specs = argument_specs(fn, fn.constexpr_names, fn.stream_param, request.args, consts,
                           label, command)
    return Specialization(fn, bound_self, specs, init, label)


def staged_module(request: BuildRequest, command: str) -> staged.StagedModule:
    """The C++ module of the specialization `request` names, traced by staged execution."""
    special = staged_specialization(request, command)
    try:
        return staged.trace_call(special.fn, special.bound_self, special.specs, request.target)
    except TraceError as exc:
        raise BuildInputError(f"{command}: {special.label}: {exc}") from None


@dataclass
class Generated:
    """What a bundle compiles: the generated modules by file name (the called one first) and
    the specialization unit."""

    texts: dict[str, str]
    unit: Unit
    label: str
    specs: dict[str, ArgSpec]
    init: dict[str, Any]


def generate(request: BuildRequest) -> Generated:
    """The sources of the specialization `request` names: translated, or traced by staged
    execution under `BBX_STAGED=1`."""
    source = request.source
    hip_name = f"{source.stem}.hip"
    if settings.enabled("BBX_STAGED"):
        special = staged_specialization(request)
        label, specs, init = special.label, special.specs, special.init
        try:
            texts, unit = _staged_unit(special.fn, special.bound_self, specs, hip_name,
                                       request.target, label)
        except (SpecializationError, TraceError) as exc:
            raise BuildInputError(f"bbx build: {label}: {exc}") from None
    else:
        if not source.is_file():
            raise BuildInputError(f"bbx build: no such file: {source}")
        translation = translate_module(str(source))
        info = find_host_function(translation, request.name)
        label = f"{source.name}:{request.name}"
        module = import_module(source)
        consts = parse_assignments(request.consts, "--const", vars(module))
        init = parse_assignments(request.init, "--init", vars(module))
        fn, bound_self = resolve_jit(module, info, request.name, init)
        constexpr = frozenset(p.name for p in info.params if p.constexpr)
        specs = argument_specs(fn, constexpr, info.stream_param, request.args, consts, label)
        try:
            texts, unit = _translated_unit(fn, bound_self, specs, hip_name, request, label)
        except (SpecializationError, TranslationFailed) as exc:
            raise BuildInputError(f"bbx build: {label}: {exc}") from None
    return Generated(texts, unit, label, specs, init)


def build(request: BuildRequest) -> Bundle:
    source = request.source
    stem = source.stem
    hip_name = f"{stem}.hip"
    generated_sources = generate(request)
    texts, unit = generated_sources.texts, generated_sources.unit
    label, specs, init = generated_sources.label, generated_sources.specs, generated_sources.init
    directory = request.output
    directory.mkdir(parents=True, exist_ok=True)
    generated: dict[str, Path] = {}
    for name, text in texts.items():
        generated[name] = directory / name
        generated[name].write_text(text)
    (directory / UNIT).write_text(unit.text)
    _copy_headers(directory)
    steps, code_objects = build_steps(request.target, stem, label, unit.module_name,
                                     request.opt)
    (directory / COMPILER_LOG).unlink(missing_ok=True)
    (directory / "repro.sh").write_text(_repro_script(steps))
    (directory / "repro.sh").chmod(0o755)
    for step in steps:
        _run(step, directory, generated, label, request.target)

    manifest: dict[str, Any] = {
        "bbx_version": __version__,
        "source": {"path": str(source), "sha256": file_sha256(source)},
        "function": request.name,
        "init": {k: repr(v) for k, v in init.items()},
        "args": [{"name": n, "spec": str(s)} for n, s in specs.items()],
        "consts": {n: s.key for n, s in specs.items() if isinstance(s, ConstexprSpec)},
        "target": request.target.name,
        "compiler": compiler_version(request.target),
        "header_library": BUNDLE_INCLUDE,
        "commands": [step.command for step in steps],
        "cwd": ".",
        "outputs": [o for step in steps for o in step.outputs],
        "code_objects": code_objects,
        "generated": hip_name,
        "unit": UNIT,
        "staged": settings.enabled("BBX_STAGED"),
    }
    manifest.update(request.target.manifest_facts())
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return Bundle(directory, manifest, [directory / c for c in code_objects])


def _translated_unit(fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                     hip_name: str, request: BuildRequest, label: str
                     ) -> tuple[dict[str, str], Unit]:
    """(the generated modules by file name, the called one first; the unit) of the module's
    translation, specialized for `specs`."""
    # translated again for the arguments' facts (sequences, functions), as a call would be
    call = prepare_call(fn, bound_self, specs, lambda t: find_host_function(t, request.name))
    translation, info, specs = call.translation, call.info, call.specs
    arguments = ", ".join(f"{n}: {s}" for n, s in specs.items())
    unit = render_unit(translation, info, hip_name, call.meta_values, specs,
                       request.target, f"{label}({arguments})", traced=call.traced)
    return {hip_name: translation.text or "", **dependency_texts(translation)}, unit


def _staged_unit(fn: jit.JitFunction, bound_self: Any, specs: dict[str, ArgSpec],
                 hip_name: str, target: Backend, label: str) -> tuple[dict[str, str], Unit]:
    """The same for `BBX_STAGED=1`: the module traced by staged execution, as a call builds
    it (bbx.runtime.dispatch)."""
    module = staged.trace_call(fn, bound_self, specs, target)
    function = UnitFunction(module.namespace, module.sha256, module.cxx_name,
                            module.stream_param)
    arguments = ", ".join(f"{n}: {s}" for n, s in specs.items())
    unit = render_staged_unit(function, hip_name, specs, target, f"{label}({arguments})")
    return {hip_name: module.text}, unit
