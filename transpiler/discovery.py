"""Discovery: the `@cute.kernel` / `@cute.jit` functions of a module, their classes and the
pure-Python context (module constants, `__init__` config on `self`, undecorated helpers)."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .imports import NameResolver

KERNEL = "cutlass.cute.kernel"
JIT = "cutlass.cute.jit"
STRUCT = "cutlass.cute.struct"


@dataclass
class DslFunction:
    node: cst.FunctionDef
    decorator: str  # "kernel" or "jit"
    cls: DslClass | None = None

    @property
    def name(self) -> str:
        return self.node.name.value

    @property
    def cxx_name(self) -> str:
        if self.cls is None:
            return self.name
        method = "call" if self.name == "__call__" else self.name.strip("_")
        return f"{self.cls.name}_{method}"

    @property
    def is_kernel(self) -> bool:
        return self.decorator == "kernel"


@dataclass
class DslClass:
    node: cst.ClassDef
    methods: dict[str, DslFunction] = field(default_factory=dict)
    #: `self.x = <expr>` in `__init__` (last assignment wins).
    init_attrs: dict[str, cst.BaseExpression] = field(default_factory=dict)
    #: `__init__` parameters: name -> (annotation, default).
    init_params: dict[str, cst.Param] = field(default_factory=dict)
    #: undecorated methods other than `__init__` (pure-Python helpers).
    plain_methods: set[str] = field(default_factory=set)
    #: `self.x = S` in a @cute.jit method, S a `@cute.struct` class defined in that method:
    #: attribute -> S (kernels of the class see S through `self.x`).
    struct_attrs: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.node.name.value


@dataclass
class ModuleInfo:
    functions: list[DslFunction] = field(default_factory=list)
    classes: list[DslClass] = field(default_factory=list)
    #: module-level `NAME = <literal>` constants.
    constants: dict[str, cst.BaseExpression] = field(default_factory=dict)
    #: undecorated module-level functions (pure-Python helpers).
    plain_functions: dict[str, cst.FunctionDef] = field(default_factory=dict)
    #: module-level `@cute.struct` classes, in source order.
    structs: dict[str, cst.ClassDef] = field(default_factory=dict)

    def free_function(self, name: str) -> DslFunction | None:
        for f in self.functions:
            if f.cls is None and f.name == name:
                return f
        return None


def _decorator_kind(func: cst.FunctionDef, names: NameResolver) -> str | None:
    for dec in func.decorators:
        target = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
        resolved = names.resolve(target)
        if resolved == KERNEL:
            return "kernel"
        if resolved == JIT:
            return "jit"
    return None


def is_struct_class(node: cst.ClassDef, names: NameResolver) -> bool:
    """A `@cute.struct` class."""
    return any(names.resolve(d.decorator) == STRUCT for d in node.decorators)


def _struct_attrs(method: cst.FunctionDef, cls: DslClass, names: NameResolver) -> None:
    params = method.params.params
    self_name = params[0].name.value if params else "self"
    structs: set[str] = set()
    for node in _walk_statements(method.body, classes=True):
        if isinstance(node, cst.ClassDef) and is_struct_class(node, names):
            structs.add(node.name.value)
        elif (
            isinstance(node, cst.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Attribute)
            and isinstance(node.targets[0].target.value, cst.Name)
            and node.targets[0].target.value.value == self_name
            and isinstance(node.value, cst.Name)
            and node.value.value in structs
        ):
            cls.struct_attrs[node.targets[0].target.attr.value] = node.value.value


def _is_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return _is_literal(node.expression)
    if isinstance(node, cst.Tuple):
        return all(_is_literal(e.value) for e in node.elements)
    return False


def _init_attrs(init: cst.FunctionDef, cls: DslClass) -> None:
    for p in init.params.params:
        cls.init_params[p.name.value] = p
    for node in _walk_statements(init.body):
        if not isinstance(node, (cst.Assign, cst.AnnAssign)):
            continue
        targets = (
            [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        )
        for target in targets:
            if (
                isinstance(target, cst.Attribute)
                and isinstance(target.value, cst.Name)
                and target.value.value == "self"
                and node.value is not None
            ):
                cls.init_attrs[target.attr.value] = node.value


def _walk_statements(block: cst.BaseSuite, classes: bool = False) -> list[cst.CSTNode]:
    """The simple statements of a block and its nested if/for/while blocks, in order (and the
    class definitions, with `classes`)."""
    out: list[cst.CSTNode] = []
    body = block.body if isinstance(block, cst.IndentedBlock) else [block]
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            out.extend(stmt.body)
        elif isinstance(stmt, cst.SimpleStatementSuite):
            out.extend(stmt.body)
        elif isinstance(stmt, cst.ClassDef) and classes:
            out.append(stmt)
        elif isinstance(stmt, (cst.If, cst.For, cst.While)):
            out.extend(_walk_statements(stmt.body, classes))
            if isinstance(stmt, cst.If) and stmt.orelse is not None:
                out.extend(_walk_statements(stmt.orelse.body, classes))
    return out


def discover(module: cst.Module, names: NameResolver) -> ModuleInfo:
    info = ModuleInfo()
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            kind = _decorator_kind(stmt, names)
            if kind:
                info.functions.append(DslFunction(stmt, kind))
            else:
                info.plain_functions[stmt.name.value] = stmt
        elif isinstance(stmt, cst.ClassDef) and is_struct_class(stmt, names):
            info.structs[stmt.name.value] = stmt
        elif isinstance(stmt, cst.ClassDef):
            cls = DslClass(stmt)
            body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else []
            for member in body:
                if not isinstance(member, cst.FunctionDef):
                    continue
                kind = _decorator_kind(member, names)
                if kind:
                    fn = DslFunction(member, kind, cls)
                    cls.methods[member.name.value] = fn
                    info.functions.append(fn)
                    if kind == "jit":
                        _struct_attrs(member, cls, names)
                elif member.name.value == "__init__":
                    _init_attrs(member, cls)
                else:
                    cls.plain_methods.add(member.name.value)
            if cls.methods:
                info.classes.append(cls)
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if (
                    isinstance(small, cst.Assign)
                    and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name)
                    and _is_literal(small.value)
                ):
                    info.constants[small.targets[0].target.value] = small.value
    return info
