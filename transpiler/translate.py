"""Public API: translate one CuTe-DSL Python module into a generic `.hip` module.

result = translate_file("samples/row_scale.py")
if result.ok: Path("row_scale.hip").write_text(result.text)
else: print(result.render_diagnostics())
result.functions[i].meta  # Meta members (name, Python expression, kind) per function
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from . import __version__
from .callgraph import build, emission_order
from .context import ModuleContext
from .cross_module import ExternalResolver
from .cxx_printer import function_text
from .diagnostics import Diagnostic, DiagnosticSink, TranslationError
from .discovery import discover
from .emit import Section, render_module
from .imports import NameResolver
from .lower_function import LoweredFunction, lower_function, meta_block
from .lower_struct import module_struct_sections
from .meta import MetaMember
from .signature import ParamSig


@dataclass(frozen=True)
class FunctionInfo:
    python_name: str
    cxx_name: str
    class_name: str | None
    role: str  # "kernel", "device" or "host"
    line: int
    meta: tuple[MetaMember, ...]  # members this function uses itself
    all_meta: tuple[MetaMember, ...]  # including members used by the functions it calls
    params: tuple[ParamSig, ...]
    stream_param: str | None


@dataclass
class TranslationResult:
    path: str
    source: str
    text: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    functions: list[FunctionInfo] = field(default_factory=list)
    sha256: str = ""
    #: other modules whose generated `.hip` this one includes (transitively), by path.
    dependencies: list[Path] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.text is not None and not any(d.severity == "error" for d in self.diagnostics)

    def render_diagnostics(self) -> str:
        lines = self.source.splitlines()
        return "\n".join(d.render(lines) for d in self.diagnostics)

    def function(self, name: str) -> FunctionInfo:
        for f in self.functions:
            if name in (f.cxx_name, f.python_name):
                return f
        raise KeyError(name)


def module_namespace(file_name: str) -> str:
    stem = Path(file_name).stem
    ident = re.sub(r"[^0-9A-Za-z_]", "_", stem)
    return ident if not ident[:1].isdigit() else "m_" + ident


def translate_file(path: str | Path, display_path: str | None = None) -> TranslationResult:
    p = Path(path)
    source = p.read_text(encoding="utf-8")
    return translate_source(source, p.name, display_path=display_path or str(path), source_path=p)


#: modules being translated (to refuse import cycles between helper modules).
_in_progress: list[Path] = []


def _translate_dependency(path: Path) -> TranslationResult:
    key = path.resolve()
    if key in _in_progress:
        return TranslationResult(str(path), "", None)
    _in_progress.append(key)
    try:
        return translate_file(path)
    finally:
        _in_progress.pop()


def translate_source(
    source: str,
    file_name: str,
    *,
    display_path: str | None = None,
    output_name: str | None = None,
    source_path: str | Path | None = None,
) -> TranslationResult:
    """Translate `source` (the text of `file_name`). Only the base name of `file_name` appears in
    the output, so the result does not depend on where the file lives. `source_path`, the file on
    disk, locates the modules whose `@cute.jit` helpers it imports."""
    file_name = Path(file_name).name
    display = display_path or file_name
    sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
    result = TranslationResult(display, source, None, sha256=sha)
    sink = DiagnosticSink(display, source)
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as err:
        sink.add(
            Diagnostic(
                display,
                err.raw_line,
                err.raw_column + 1,
                "syntax-error",
                "invalid Python syntax",
                err.message.splitlines()[0],
            )
        )
        result.diagnostics = sink.sorted()
        return result
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    names = NameResolver(wrapper.module)
    info = discover(wrapper.module, names)
    mod = ModuleContext(
        file_name,
        display,
        wrapper.module,
        names,
        positions,
        info,
        sink,
        source_lines=source.splitlines(),
    )
    origin = Path(source_path) if source_path is not None else None
    mod.externals = ExternalResolver(origin, wrapper.module, _translate_dependency)
    if origin is not None:
        _in_progress.append(origin.resolve())
    try:
        return _translate(mod, result, sha, output_name)
    finally:
        if origin is not None:
            _in_progress.pop()


def _translate(
    mod: ModuleContext, result: TranslationResult, sha: str, output_name: str | None
) -> TranslationResult:
    info, sink, display, file_name = mod.info, mod.sink, mod.display_path, mod.file_name
    graph = build(info)
    mod.device_functions = graph.device
    mod.host_functions = graph.host
    for caller, call in graph.cycles:
        sink.add(
            mod.diagnostic(
                call,
                "recursion",
                f"recursive call cycle through '{caller.name}'",
                "recursion cannot be unrolled at compile time; use a loop",
            )
        )
    if not info.functions:
        sink.add(
            Diagnostic(
                display,
                1,
                1,
                "no-dsl-functions",
                "no @cute.kernel or @cute.jit function found",
                "nothing to translate",
                severity="warning",
            )
        )

    structs: list[str] = []
    try:
        structs = module_struct_sections(mod)
    except TranslationError as err:
        sink.add(err.diagnostic)
    lowered: list[LoweredFunction] = []
    for fn in emission_order(info, graph):
        try:
            lowered.append(lower_function(mod, fn))
        except TranslationError as err:
            sink.add(err.diagnostic)
    result.functions = _function_infos(mod, lowered, graph)
    result.diagnostics = sink.sorted()
    if sink.has_errors:
        return result
    helpers = list(mod.externals.used.values()) if mod.externals else []
    for helper in helpers:
        for dep in [*helper.dependencies, helper.path]:
            if dep not in result.dependencies:
                result.dependencies.append(dep)
    out_name = output_name or (Path(file_name).stem + ".hip")
    result.text = render_module(
        version=__version__,
        file_name=file_name,
        output_name=out_name,
        sha256=sha,
        namespace=module_namespace(file_name),
        sections=_sections(mod, lowered, structs),
        includes=[h.hip_name for h in helpers],
    )
    return result


def _sections(
    mod: ModuleContext, lowered: list[LoweredFunction], structs: list[str]
) -> list[Section]:
    sections = [Section([], text) for text in structs]
    seen_classes: set[str] = set()
    for lf in lowered:
        cls = lf.fn.cls
        if cls is not None and cls.name not in seen_classes:
            seen_classes.add(cls.name)
            members: list[MetaMember] = []
            for other in lowered:
                if other.fn.cls is cls:
                    members += [x for x in other.meta if x not in members]
            line, _ = mod.position(cls.node)
            sections.append(
                Section([f"{mod.file_name}:{line}  class {cls.name}", *meta_block(members)])
            )
        sections += [Section([], item) for item in lf.preamble]
        sections.append(Section([], function_text(lf.cxx)))
    return sections


def _function_infos(
    mod: ModuleContext, lowered: list[LoweredFunction], graph
) -> list[FunctionInfo]:
    by_name = {lf.fn.cxx_name: lf for lf in lowered}

    def transitive(name: str, seen: set[str]) -> list[MetaMember]:
        out: list[MetaMember] = []
        if name in seen or name not in by_name:
            return out
        seen.add(name)
        out += by_name[name].meta
        for target, _ in graph.callees.get(name, []):
            out += [x for x in transitive(target.cxx_name, seen) if x not in out]
        for helper in mod.external_calls.get(name, []):
            out += [x for x in helper.info.all_meta if x not in out]
        return out

    infos = []
    for lf in sorted(lowered, key=lambda x: mod.position(x.fn.node)):
        line, _ = mod.position(lf.fn.node)
        infos.append(
            FunctionInfo(
                lf.fn.name,
                lf.fn.cxx_name,
                lf.fn.cls.name if lf.fn.cls else None,
                lf.role,
                line,
                tuple(lf.meta),
                tuple(transitive(lf.fn.cxx_name, set())),
                lf.signature.params,
                lf.signature.stream,
            )
        )
    return infos
