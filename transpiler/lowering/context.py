"""State shared by the lowering passes of one module and of one function."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import CodeRange

from ..analysis.call_facts import CallFacts
from ..analysis.fold import fold
from ..analysis.kinds import Kind
from ..analysis.meta import MetaMember
from ..analysis.scope import Env
from ..analysis.value import Val, python_level
from ..cxx import ast as c
from ..diagnostics import Diagnostic, DiagnosticSink, TranslationError, internal_error
from ..frontend.cross_module import ExternalHelper, ExternalResolver
from ..frontend.discovery import DslFunction, ModuleInfo
from ..frontend.imports import NameResolver
from .lowered import LoweredFunction, ObjectClass

#: A variant of a helper: the helper and the Python-level values its parameters are bound to
#: (parameter name -> a key of the value), as the DSL traces a call with those values.
VariantKey = tuple[str, tuple[tuple[str, object], ...]]


@dataclass(frozen=True)
class Aggregates:
    """Parameters given Python aggregates of C++ values, which a function takes element by
    element (one C++ parameter each): sequences (a list of tensors: the element kinds) and
    namespaces (SimpleNamespace, dict: the field names and kinds) and objects of the module's
    record classes that hold Python values (their class, `record_classes`)."""

    sequences: dict[str, tuple[Kind, ...]] = field(default_factory=dict)
    records: dict[str, tuple[tuple[str, Kind], ...]] = field(default_factory=dict)
    record_classes: dict[str, str] = field(default_factory=dict)
    #: nested objects and sequences (a record holding a list of records): their shape, Python
    #: values and kinds of the C++ leaves (`records.result_shape`); the leaves are passed one
    #: C++ parameter each, in `tree_leaves` order
    trees: dict[str, Val] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.sequences or self.records or self.trees)

    def key(self) -> tuple[tuple[str, object], ...]:
        return (*((n, ("sequence", kds)) for n, kds in sorted(self.sequences.items())),
                *((n, ("record", self.record_classes.get(n), fks))
                  for n, fks in sorted(self.records.items())),
                *((n, ("tree", tree_key(t))) for n, t in sorted(self.trees.items())))


def tree_key(val: Val) -> object:
    """What identifies the shape of a nested aggregate (equal keys: the same C++ code)."""
    if val.items is None:
        return val.kind
    return (val.kind.cat, val.kind.value, val.fields, tuple(tree_key(v) for v in val.items))


def tree_leaves(name: str, val: Val) -> list[tuple[str, Val]]:
    """(`name_path`, leaf) of each C++ leaf of a nested aggregate, depth first; Python-level
    leaves (literals, configuration) are not passed."""
    if val.items is None:
        return [] if python_level(val) else [(name, val)]
    labels = val.fields or tuple(str(i) for i in range(len(val.items)))
    return [leaf for label, item in zip(labels, val.items, strict=True)
            for leaf in tree_leaves(f"{name}_{label}", item)]


@dataclass(frozen=True)
class Variant:
    """A helper lowered for one binding of its Python-level parameters."""

    cxx_name: str
    #: the parameters still passed in C++ (the others are bound at translation).
    params: tuple[str, ...]
    result: Kind  # the kind of what it returns
    #: a returned tuple, list or record: its Python-level leaves, and the kinds of the others
    result_shape: Val | None = None
    #: the helper only returns this Python value (`__len__`): callers take it, with no call
    python_result: Val | None = None


@dataclass(frozen=True)
class TracedAttribute:
    """`self.x = value` executed while a host @cute.jit method is traced: later reads of
    `self.x` (in that method, and in the kernels and helpers traced after it) see `value`."""

    value: Val
    line: int
    function: str  # the C++ name of the method that set it
    runtime: bool  # a run-time value (held in a C++ local of that method)


@dataclass(frozen=True)
class Checkpoint:
    """A module's lowering state at one moment (`ModuleContext.checkpoint`)."""

    lowered: int  # how many functions were lowered
    variants: dict[VariantKey, Variant | None]
    struct_templates: dict[str, str]


@dataclass
class ModuleContext:
    file_name: str  # base name, used in comments
    display_path: str  # path as given, used in diagnostics
    module: cst.Module
    names: NameResolver
    positions: Mapping[cst.CSTNode, CodeRange]
    info: ModuleInfo
    sink: DiagnosticSink
    #: module-wide Meta member name -> (Python expression, kind). A kernel takes its launcher's
    #: Meta, so one expression of two kinds (an Int<N> type here, a value there) is two members.
    meta_names: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: DSL functions reachable from a kernel (emitted as device functions).
    device_functions: set[str] = field(default_factory=set)
    host_functions: set[str] = field(default_factory=set)
    #: cxx name of a DSL function -> the module's DSL functions it calls (the call graph).
    callees: dict[str, list[tuple[DslFunction, cst.Call]]] = field(default_factory=dict)
    source_lines: list[str] = field(default_factory=list)
    #: `@cute.jit` helpers imported from other modules of the package.
    externals: ExternalResolver | None = None
    #: cxx name of a function -> the imported helpers it calls.
    external_calls: dict[str, list[ExternalHelper]] = field(default_factory=dict)
    #: (launcher, kernel) -> {kernel parameter: the launch's argument, as Python source}: the
    #: kernel's Meta members, written with its parameters, are evaluated in the launcher's terms.
    launch_arguments: dict[tuple[str, str], list[dict[str, str]]] = field(default_factory=dict)
    #: C++ templates of the module's @cute.struct classes: template name -> its text.
    struct_templates: dict[str, str] = field(default_factory=dict)
    #: lowered functions in the order they were finished (callees before their callers).
    lowered: list[LoweredFunction] = field(default_factory=list)
    #: helper variants by key (None while one is being lowered: a recursive call).
    variants: dict[VariantKey, Variant | None] = field(default_factory=dict)
    #: lowers a helper for a binding of its Python-level parameters (set by bbx.translate).
    _constant_values: dict[str, object] | None = None
    #: (class name, attribute) -> the value a traced host method assigned to `self.attr`.
    traced_attributes: dict[tuple[str, str], TracedAttribute] = field(default_factory=dict)
    #: whether the call being lowered is inside a `const_expr` branch decided per specialization.
    current_static_branch: bool = False
    lower_variant: (
        Callable[
            [DslFunction, dict[str, Val], dict[str, Kind], str, cst.CSTNode, Aggregates | None],
            Variant,
        ]
        | None
    ) = None
    #: what the call from host Python that this translation is for says beyond the source
    #: (the Python sequences a jit function is given: bbx.lowering.sequence_params).
    call_facts: CallFacts = field(default_factory=CallFacts)
    #: host functions left for a translation with the facts of a call (they take sequences).
    per_call: list[tuple[DslFunction, tuple[str, ...]]] = field(default_factory=list)
    #: nodes bbx wrote (`obj[i]` as `obj.__getitem__(i)`) -> the source node they stand for.
    stands_for: dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    #: kernel objects built in DSL code: their Meta member -> their class (kernel_objects.py).
    kernel_objects: dict[str, ObjectClass] = field(default_factory=dict)
    #: cxx name of a function -> the `__call__`s of the kernel objects it calls (this module's
    #: are emitted before it; their Meta members are the objects' own, not the caller's).
    object_calls: dict[str, list[str]] = field(default_factory=dict)

    def checkpoint(self) -> Checkpoint:
        """What the module holds now, so that a lowering that fails can be taken back."""
        return Checkpoint(len(self.lowered), dict(self.variants), dict(self.struct_templates))

    def roll_back(self, point: Checkpoint) -> None:
        """Forget the functions, helper variants and struct templates lowered since `point`."""
        del self.lowered[point.lowered:]
        self.variants = point.variants
        self.struct_templates = point.struct_templates

    def position(self, node: cst.CSTNode) -> tuple[int, int]:
        pos = self.positions.get(self.stands_for.get(node, node))
        if pos is None:
            return (1, 1)
        return pos.start.line, pos.start.column + 1

    def diagnostic(self, node: cst.CSTNode, code: str, what: str, hint: str = "") -> Diagnostic:
        line, col = self.position(node)
        return Diagnostic(self.display_path, line, col, code, what, hint)

    def error(self, node: cst.CSTNode, code: str, what: str, hint: str = "") -> TranslationError:
        return TranslationError(self.diagnostic(node, code, what, hint))

    def internal_error(self, node: cst.CSTNode, exc: BaseException) -> Diagnostic:
        line, col = self.position(node)
        return internal_error(self.display_path, line, col, exc)

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(self.stands_for.get(node, node))

    def constant_values(self) -> dict[str, object]:
        """The module's constants (`NAME = <compile-time expression>`), folded in order; one
        that does not fold is reported where it is used."""
        if self._constant_values is None:
            values: dict[str, object] = {}
            for name, expr in self.info.constants.items():
                try:
                    values[name] = fold(self.code(expr), values)
                except Exception:  # noqa: BLE001 - reported at a use
                    continue
            self._constant_values = values
        return self._constant_values


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
    #: names dynamic control flow rebinds after they were bound (loop-carried states)
    carried: set[str] = field(default_factory=set)
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
    #: kinds of the values this function returns (a helper's result kind at its call sites).
    return_kinds: list[Kind] = field(default_factory=list)
    #: what each `return` of a tuple, list or record gave, Python-level leaves with their
    #: values (`result_shape`): callers see those leaves as Python values.
    return_shapes: list[Val] = field(default_factory=list)
    #: C++ names of the module's functions (helper variants) this function calls.
    calls: list[str] = field(default_factory=list)
    #: a kernel's parameters standing for `self.x` values set while a host method was traced.
    traced_params: dict[str, Val] = field(default_factory=dict)
    #: lowers the body of a nested function at one of its calls (set by the statement
    #: lowering): (function, parameter bindings) -> (C++ statements, kinds it returns, the
    #: value the first parameter holds at the end: the object an `__init__` built).
    inline_body: (
        Callable[[cst.FunctionDef, list[tuple[str, Val]]],
                 tuple[list[c.Stmt], list[Kind], Val | None]]
        | None
    ) = None

    @property
    def struct_types(self) -> dict[str, str]:
        """`self.x` attributes holding a @cute.struct class -> the C++ type they stand for: the
        class itself where a @cute.jit method defines it, a template parameter of that name in
        the kernels that read it (the launch fills it in)."""
        return self.fn.cls.struct_attrs if self.fn.cls is not None else {}

    def error(self, node: cst.CSTNode, code: str, what: str, hint: str = "") -> TranslationError:
        return self.mod.error(node, code, what, hint)

    def traced_attribute(self, node: cst.CSTNode) -> TracedAttribute | None:
        """What a traced method assigned to `self.attr`, for a `self.attr` node of a method."""
        if (
            self.self_name is None
            or self.fn.cls is None
            or not isinstance(node, cst.Attribute)
            or not isinstance(node.value, cst.Name)
            or node.value.value != self.self_name
        ):
            return None
        return self.mod.traced_attributes.get((self.fn.cls.name, node.attr.value))

    def add_meta(self, expr: cst.BaseExpression, kind: str) -> MetaMember:
        from ..analysis.meta import STATIC_INT, VALUE, member_name

        text = " ".join(self.mod.code(expr).split())
        if kind == VALUE and (text, STATIC_INT) in self.mod.meta_names.values():
            kind = STATIC_INT  # an Int<N> member serves as a value too
        return self._meta_member(text, member_name(expr), kind)

    def _meta_member(self, text: str, base: str, kind: str) -> MetaMember:
        name = base
        n = 2
        while name in self.mod.meta_names and self.mod.meta_names[name] != (text, kind):
            name = f"{base}_{n}"
            n += 1
        self.mod.meta_names[name] = (text, kind)
        for existing in self.meta:
            if existing.name == name:
                return existing
        member = MetaMember(name, text, kind)
        self.meta.append(member)
        return member
