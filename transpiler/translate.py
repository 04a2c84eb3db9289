"""Public API: translate one CuTe-DSL Python module into a generic `.hip` module.

result = translate_file("samples/row_scale.py")
if result.ok: Path("row_scale.hip").write_text(result.text)
else: print(result.render_diagnostics())
result.functions[i].meta  # Meta members (name, Python expression, kind) per function
"""

from __future__ import annotations

import hashlib
from functools import partial
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from . import __version__
from .analysis.call_facts import TENSOR_ELEMENT, CallFacts
from .analysis.meta import MetaMember, rebase_member
from .cxx.emit import Section, render_module
from .cxx.printer import function_text
from .diagnostics import Diagnostic, DiagnosticSink, TranslationError, internal_error
from .frontend.callgraph import build, emission_order
from .frontend.cross_module import ExternalResolver
from .frontend.discovery import DslFunction, discover
from .frontend.imports import NameResolver
from .lowering.context import Aggregates, ModuleContext
from .lowering.function import LoweredFunction, lower_function, lower_variant, meta_block
from .lowering.kernel_objects import python_params
from .lowering.records import struct_text
from .lowering.sequence_params import per_call_note, qualified_name, sequence_params
from .lowering.signature import signature
from .lowering.stmt import kernel_uses_smem_allocator
from .lowering.struct import module_struct_sections
from .nesting import MAX_NESTING, nesting_problem, with_recursion_room
from .translation_result import FunctionInfo, TranslationResult, module_namespace


def translate_file(
    path: str | Path, display_path: str | None = None, call_facts: CallFacts | None = None,
    representative: bool = False,
) -> TranslationResult:
    p = Path(path)
    source = p.read_text(encoding="utf-8")
    return translate_source(source, p.name, display_path=display_path or str(path), source_path=p,
                            call_facts=call_facts, representative=representative)


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
    call_facts: CallFacts | None = None,
    representative: bool = False,
) -> TranslationResult:
    """Translate `source` (the text of `file_name`). Only the base name of `file_name` appears in
    the output, so the result does not depend on where the file lives. `source_path`, the file on
    disk, locates the modules whose `@cute.jit` helpers it imports. `call_facts`: what a call
    from host Python tells beyond the source (the sequences a jit function is given).
    `representative`: functions translated per call are translated for a representative call
    (each sequence two tensors), so that what cannot be translated in them is reported now
    (the corpus and fuzz tools). Never raises: anything unexpected becomes an `internal-error`
    diagnostic."""
    return with_recursion_room(partial(
        _translate_source_safely, source, file_name, display_path, output_name, source_path,
        call_facts, representative))


def _translate_source_safely(source: str, file_name: str, display_path: str | None,
                             output_name: str | None, source_path: str | Path | None,
                             call_facts: CallFacts | None,
                             representative: bool) -> TranslationResult:
    file_name = Path(file_name).name
    display = display_path or file_name
    sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
    result = TranslationResult(display, source, None, sha256=sha)
    sink = DiagnosticSink(display, source)
    try:
        result = _translate_source(source, file_name, display, sha, result, sink,
                                   output_name, source_path, call_facts or CallFacts())
        if representative and result.per_call and call_facts is None:
            facts = CallFacts(tuple((function, param, (TENSOR_ELEMENT, TENSOR_ELEMENT))
                                    for function, params in result.per_call for param in params))
            return translate_source(source, file_name, display_path=display,
                                    output_name=output_name, source_path=source_path,
                                    call_facts=facts)
        return result
    except Exception as exc:  # noqa: BLE001 - never a traceback: an internal-error diagnostic
        sink.add(internal_error(display, 1, 1, exc))
        result.text = None
        result.diagnostics = sink.sorted()
        return result


def _translate_source(
    source: str,
    file_name: str,
    display: str,
    sha: str,
    result: TranslationResult,
    sink: DiagnosticSink,
    output_name: str | None,
    source_path: str | Path | None,
    call_facts: CallFacts,
) -> TranslationResult:
    deep = nesting_problem(source)
    if deep is not None:
        levels = f"deeper than Python's parser takes ({deep.parser_says})" \
            if deep.depth is None else f"{deep.depth} levels deep"
        sink.add(Diagnostic(
            display, deep.line, deep.col, "nesting-too-deep",
            f"this expression is nested {levels}",
            f"bbx translates up to {MAX_NESTING} levels of nesting (about where Python's own "
            "parser stops); split it into several statements"))
        result.diagnostics = sink.sorted()
        return result
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
        call_facts=call_facts,
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
    mod.callees = graph.callees
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
    except Exception as exc:  # noqa: BLE001 - reported at the module
        sink.add(internal_error(display, 1, 1, exc))
    mod.lower_variant = partial(lower_variant, mod)
    called = {t.cxx_name for caller, calls in graph.callees.items() for t, _ in calls
              if not t.is_kernel and t.cxx_name != caller}  # (recursion is reported at its call)
    order = emission_order(info, graph)
    # Kernels and functions nothing in the module calls are lowered as they are; helpers are
    # lowered per call, for the Python values they are called with (bbx.lowering.function).
    # Host functions first, as the DSL traces them before the kernels they launch (what they
    # assign to `self.x` is what the kernels read).
    roots = [fn for fn in order if fn.is_kernel or fn.cxx_name not in called]
    root_errors: dict[str, list[Diagnostic]] = {}
    module_errors = sink.has_errors  # before any function: the module itself
    for fn in sorted(roots, key=lambda f: f.is_kernel):
        errors = _lower_root(mod, fn)
        if errors:
            root_errors[fn.cxx_name] = errors
    # A free helper may also be called from other modules: its generic form is kept where it
    # translates on its own (a helper that needs its callers' values has none).
    for fn in order:
        if fn.cls is None and not fn.is_kernel and fn.cxx_name in called:
            _lower_speculatively(mod, fn)
    failed = _failed_entries(mod, graph.callees, root_errors)
    lowered = [lf for lf in _callees_first(mod.lowered, mod.object_calls)
               if qualified_name(lf.fn) not in failed]
    result.functions = _function_infos(mod, lowered)
    result.per_call = [(qualified_name(fn), params) for fn, params in mod.per_call]
    result.diagnostics = sink.sorted()
    result.failed = failed
    # what a program can still call
    working = [lf for lf in lowered if lf.role == "host"] or mod.per_call
    if module_errors or (sink.has_errors and not working):
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


def _failed_entries(
    mod: ModuleContext, callees: dict[str, list[tuple[DslFunction, cst.Call]]],
    root_errors: dict[str, list[Diagnostic]],
) -> dict[str, list[Diagnostic]]:
    """The functions with errors of their own, and the host functions that call or launch
    one (transitively), by qualified name, each with the errors that stop it."""
    def errors_of(name: str, seen: set[str]) -> list[Diagnostic]:
        if name in seen:
            return []
        seen.add(name)
        found = list(root_errors.get(name, []))
        linked = [t.cxx_name for t, _ in callees.get(name, [])]
        for callee in [*linked, *mod.object_calls.get(name, [])]:
            found += [d for d in errors_of(callee, seen) if d not in found]
        return found

    failed: dict[str, list[Diagnostic]] = {}
    for fn in mod.info.functions:
        errors = errors_of(fn.cxx_name, set())
        if errors:
            failed[qualified_name(fn)] = errors
    return failed


def _callees_first(
    lowered: list[LoweredFunction], after: dict[str, list[str]] | None = None
) -> list[LoweredFunction]:
    """Emission order: every function after the functions it calls or launches (and those
    `after` names for it: the `__call__` of kernel objects it builds), otherwise in the order
    they were lowered."""
    by_name: dict[str, list[LoweredFunction]] = {}
    for lf in lowered:
        by_name.setdefault(lf.cxx_name, []).append(lf)
    out: list[LoweredFunction] = []
    placed: set[int] = set()

    def place(lf: LoweredFunction) -> None:
        if id(lf) in placed:
            return
        placed.add(id(lf))
        for callee in [*lf.calls, *(after or {}).get(lf.fn.cxx_name, [])]:
            for target in by_name.get(callee, []):
                place(target)
        out.append(lf)

    for lf in lowered:
        place(lf)
    return out


def _lower_root(mod: ModuleContext, fn: DslFunction) -> list[Diagnostic]:
    """Lower a kernel or a function host Python calls; its errors (reported to the module's
    sink as well). A function with errors leaves nothing lowered behind."""
    sink, point = mod.sink, mod.checkpoint()
    mod.sink = DiagnosticSink(sink.path, sink.source)
    try:
        _lower_root_into(mod, fn)
    finally:
        scratch, mod.sink = mod.sink, sink
    for d in scratch.items:
        sink.add(d)
    errors = [d for d in scratch.items if d.severity == "error"]
    if errors:
        mod.roll_back(point)
    return errors


def _lower_root_into(mod: ModuleContext, fn: DslFunction) -> None:
    """Lower a kernel or a function host Python calls. One that takes Python sequences is
    lowered for the sequences its call gives (`mod.call_facts`), a kernel for each launch that
    gives them (a variant); without them, a note says so."""
    name = qualified_name(fn)
    given = mod.call_facts.for_function(name) if not fn.is_kernel else {}
    values = mod.call_facts.values_for(name) if not fn.is_kernel else {}
    wanted = [p for p in sequence_params(mod, fn) if p not in given and p not in values]
    if wanted:
        launched = any(key[0] == fn.cxx_name for key in mod.variants)
        if not (fn.is_kernel and launched):
            mod.sink.add(per_call_note(mod, fn, wanted))
        if not fn.is_kernel:
            mod.per_call.append((fn, tuple(wanted)))
        return
    try:
        callables = mod.call_facts.callables_for(name) if not fn.is_kernel else {}
        mod.lowered.append(lower_function(mod, fn, aggregates=Aggregates(given),
                                          callables=callables,
                                          values=values))
    except TranslationError as err:
        mod.sink.add(err.diagnostic)
    except Exception as exc:  # noqa: BLE001 - reported at the function
        mod.sink.add(mod.internal_error(fn.node, exc))


def _lower_speculatively(mod: ModuleContext, fn: DslFunction) -> None:
    """Lower `fn` as it is, keeping the result only if that succeeds without a diagnostic."""
    if any(lf.cxx_name == fn.cxx_name for lf in mod.lowered):  # a call needed it as it is
        return
    sink, point = mod.sink, mod.checkpoint()
    mod.sink = DiagnosticSink(sink.path, sink.source)
    try:
        lowered: LoweredFunction | None = lower_function(mod, fn)
    except Exception:  # noqa: BLE001 - a helper that cannot stand alone is simply not kept
        lowered = None
    failed = lowered is None or mod.sink.has_errors
    mod.sink = sink
    if failed:
        mod.roll_back(point)
    elif lowered is not None:
        mod.lowered.append(lowered)


def _sections(
    mod: ModuleContext, lowered: list[LoweredFunction], structs: list[str]
) -> list[Section]:
    sections = [Section([], text) for text in structs]
    # the templates of @cute.struct classes defined in functions: before every function, as a
    # host function may lower a kernel's class first (its shared-memory size at a launch)
    sections += [Section([], text) for text in mod.struct_templates.values()
                 if not any(text in module_level for module_level in structs)]
    sections += [Section([], struct_text(mod, cls)) for cls in mod.info.records.values()]
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


def _function_infos(mod: ModuleContext, lowered: list[LoweredFunction]) -> list[FunctionInfo]:
    """The module's functions as the runtime sees them (helper variants are internal); the
    Meta members of each include those of everything it calls or launches."""
    by_name = {lf.cxx_name: lf for lf in lowered}

    def transitive(name: str, seen: set[str]) -> list[MetaMember]:
        out: list[MetaMember] = []
        if name in seen or name not in by_name:
            return out
        seen.add(name)
        out += by_name[name].meta
        for callee in by_name[name].calls:
            out += [x for x in launched(name, callee, transitive(callee, seen)) if x not in out]
        for helper in mod.external_calls.get(name, []):
            rebased = launched(name, helper.cxx_name, list(helper.info.all_meta))
            out += [x for x in rebased if x not in out]
        return out

    def launched(caller: str, kernel: str, members: list[MetaMember]) -> list[MetaMember]:
        """A launched kernel's Meta members in its launcher's terms."""
        launches = mod.launch_arguments.get((caller, kernel), [{}])
        rebased = [[rebase_member(m, given) for m in members] for given in launches]
        if any(r != rebased[0] for r in rebased[1:]) and caller in by_name:
            line, col = mod.position(by_name[caller].fn.node)
            mod.sink.add(Diagnostic(
                mod.display_path, line, col, "bad-launch",
                f"'{by_name[caller].fn.name}' launches kernel '{kernel.rpartition(':')[2]}' "
                "with different compile-time arguments",
                "bbx binds a kernel's compile-time parameters once per launching function; "
                "launch it from separate @cute.jit functions"))
        return rebased[0]

    infos = []
    for lf in sorted(lowered, key=lambda x: mod.position(x.fn.node)):
        if lf.is_variant:
            continue
        line, _ = mod.position(lf.fn.node)
        infos.append(
            FunctionInfo(
                lf.fn.name,
                lf.fn.cxx_name,
                lf.fn.cls.name if lf.fn.cls else None,
                lf.role,
                line,
                tuple(lf.meta),
                tuple(transitive(lf.cxx_name, set())),
                lf.signature.params,
                lf.signature.stream,
                lf.role == "kernel" and kernel_uses_smem_allocator(mod, lf.fn),
                python_params=python_params(lf.fn),
            )
        )
    for fn, _ in mod.per_call:
        line, _ = mod.position(fn.node)
        sig = signature(mod, fn)
        infos.append(FunctionInfo(fn.name, fn.cxx_name, fn.cls.name if fn.cls else None, "host",
                                  line, (), (), sig.params, sig.stream, per_call=True))
    return infos
