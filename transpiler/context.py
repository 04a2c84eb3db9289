"""State shared by the lowering passes of one module and of one function."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import CodeRange

from .cross_module import ExternalHelper, ExternalResolver
from .diagnostics import Diagnostic, DiagnosticSink, TranslationError
from .discovery import DslFunction, ModuleInfo
from .imports import NameResolver
from .meta import MetaMember
from .scope import Env


@dataclass
class ModuleContext:
    file_name: str  # base name, used in comments
    display_path: str  # path as given, used in diagnostics
    module: cst.Module
    names: NameResolver
    positions: Mapping[cst.CSTNode, CodeRange]
    info: ModuleInfo
    sink: DiagnosticSink
    #: module-wide Meta member names -> Python expression (names are unique per expression).
    meta_names: dict[str, str] = field(default_factory=dict)
    #: DSL functions reachable from a kernel (emitted as device functions).
    device_functions: set[str] = field(default_factory=set)
    host_functions: set[str] = field(default_factory=set)
    source_lines: list[str] = field(default_factory=list)
    #: `@cute.jit` helpers imported from other modules of the package.
    externals: ExternalResolver | None = None
    #: cxx name of a function -> the imported helpers it calls.
    external_calls: dict[str, list[ExternalHelper]] = field(default_factory=dict)
    #: C++ templates of the module's @cute.struct classes: template name -> its text.
    struct_templates: dict[str, str] = field(default_factory=dict)

    def position(self, node: cst.CSTNode) -> tuple[int, int]:
        pos = self.positions.get(node)
        if pos is None:
            return (1, 1)
        return pos.start.line, pos.start.column + 1

    def diagnostic(self, node: cst.CSTNode, code: str, what: str, hint: str = "") -> Diagnostic:
        line, col = self.position(node)
        return Diagnostic(self.display_path, line, col, code, what, hint)

    def error(self, node: cst.CSTNode, code: str, what: str, hint: str = "") -> TranslationError:
        return TranslationError(self.diagnostic(node, code, what, hint))

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)


@dataclass
class FunctionContext:
    mod: ModuleContext
    fn: DslFunction
    role: str  # "kernel", "device" or "host"
    env: Env = field(default_factory=Env)
    meta: list[MetaMember] = field(default_factory=list)
    #: Python names of parameters annotated `cutlass.Constexpr`.
    constexpr_params: set[str] = field(default_factory=set)
    #: names assigned (anywhere) inside dynamic control flow; literals bound to them are
    #: declared as dynamic scalars.
    dynamically_assigned: set[str] = field(default_factory=set)
    self_name: str | None = None
    #: kinds of `self.x` chains and Constexpr parameters, for meta-member kinds.
    leaf_kinds: dict[str, str] = field(default_factory=dict)
    #: loop nesting: "dynamic" or "static" per enclosing loop.
    loops: list[str] = field(default_factory=list)
    has_stream: bool = False
    stream_name: str = "stream"
    #: namespace-scope code this function needs, emitted before it: functor structs standing
    #: for its host lambdas, templates of the @cute.struct classes it defines.
    preamble: list[str] = field(default_factory=list)
    #: host lambdas emitted as functors so far (they are numbered).
    lambdas: int = 0
    #: `@cute.struct` types visible here by Python name (local classes, module-level ones).
    structs: set[str] = field(default_factory=set)
    @property
    def struct_types(self) -> dict[str, str]:
        """`self.x` attributes holding a @cute.struct class -> the C++ type they stand for: the
        class itself where a @cute.jit method defines it, a template parameter of that name in
        the kernels that read it (the launch fills it in)."""
        return self.fn.cls.struct_attrs if self.fn.cls is not None else {}

    def error(self, node: cst.CSTNode, code: str, what: str, hint: str = "") -> TranslationError:
        return self.mod.error(node, code, what, hint)

    def refine_meta(self, name: str, kind: str) -> None:
        """Give a member of unknown kind the kind its use requires."""
        for i, member in enumerate(self.meta):
            if member.name == name and member.kind != kind:
                self.meta[i] = MetaMember(member.name, member.expr, kind)

    def add_meta(self, expr: cst.BaseExpression, kind: str) -> MetaMember:
        from .meta import member_name

        text = " ".join(self.mod.code(expr).split())
        base = member_name(expr)
        name = base
        n = 2
        while name in self.mod.meta_names and self.mod.meta_names[name] != text:
            name = f"{base}_{n}"
            n += 1
        self.mod.meta_names[name] = text
        for existing in self.meta:
            if existing.name == name:
                return existing
        member = MetaMember(name, text, kind)
        self.meta.append(member)
        return member
