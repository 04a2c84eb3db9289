"""Discovery: the `@cute.kernel` / `@cute.jit` functions of a module, their classes and the
pure-Python context (module constants, `__init__` config on `self`, undecorated helpers)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst

from .imports import NameResolver

KERNEL = "cutlass.cute.kernel"
JIT = "cutlass.cute.jit"
STRUCT = "cutlass.cute.struct"


@dataclass
class DslFunction:
    node: cst.FunctionDef
    decorator: str  # "kernel", "jit", or "plain" (undecorated, translated where DSL code calls it)
    cls: DslClass | None = None
    #: the class of a @staticmethod or @classmethod (`cls` is None: no `self`)
    owner: str | None = None
    #: a @classmethod: its first parameter is the class
    takes_class: bool = False

    @property
    def name(self) -> str:
        return self.node.name.value

    @property
    def cxx_name(self) -> str:
        if self.cls is None:
            return f"{self.owner}_{self.name}" if self.owner else self.name
        method = "call" if self.name == "__call__" else self.name.strip("_")
        return f"{self.cls.name}_{method}"

    @property
    def is_kernel(self) -> bool:
        return self.decorator == "kernel"

    @property
    def self_is_value(self) -> bool:
        """A method of a record class: `self` is the record, a value like any argument (the
        configuration `self` of a kernel class is read through Meta instead)."""
        return self.cls is not None and self.cls.record_fields is not None


@dataclass
class DslClass:
    node: cst.ClassDef
    methods: dict[str, DslFunction] = field(default_factory=dict)
    #: `self.x = <expr>` in `__init__` (last assignment wins).
    init_attrs: dict[str, cst.BaseExpression] = field(default_factory=dict)
    #: `NAME = <expr>` in the class body (class constants such as `_CTA_TILER = (128, 128, 32)`).
    class_attrs: dict[str, cst.BaseExpression] = field(default_factory=dict)
    #: `__init__` parameters: name -> (annotation, default).
    init_params: dict[str, cst.Param] = field(default_factory=dict)
    #: undecorated methods other than `__init__` (pure-Python helpers).
    plain_methods: set[str] = field(default_factory=set)
    #: the same as functions, translated where DSL code calls them with run-time values.
    plain_defs: dict[str, DslFunction] = field(default_factory=dict)
    #: a record class (a dataclass or NamedTuple): its fields in order, with their defaults.
    record_fields: list[tuple[str, cst.BaseExpression | None]] | None = None
    #: the `__init__` of a class whose objects DSL code builds (a plain class, or one whose DSL
    #: methods are all @cute.jit helpers): building one runs it (its `self.x = ...` are the
    #: record's fields).
    init: DslFunction | None = None
    #: @staticmethod members (factories such as `create`), called as `Cls.name(...)`
    static_defs: dict[str, DslFunction] = field(default_factory=dict)
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
    #: undecorated module-level functions as translatable functions (decorator "plain").
    plain_dsl: dict[str, DslFunction] = field(default_factory=dict)
    #: record classes (dataclasses, NamedTuples, classes built in DSL code) by name.
    records: dict[str, DslClass] = field(default_factory=dict)
    #: every module-level class but @cute.struct ones, by name.
    all_classes: dict[str, DslClass] = field(default_factory=dict)

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


RECORD_DECORATORS = frozenset({"dataclasses.dataclass"})
RECORD_BASES = frozenset({"typing.NamedTuple"})


def _is_static(func: cst.FunctionDef, names: NameResolver) -> bool:
    """A @staticmethod or @classmethod."""
    return _is_decorated(func, "staticmethod") or _is_decorated(func, "classmethod")


def _is_decorated(func: cst.FunctionDef, name: str) -> bool:
    return any(isinstance(d.decorator, cst.Name) and d.decorator.value == name
               for d in func.decorators)


def _built_in_dsl_code(module: cst.Module, cls: DslClass, names: NameResolver) -> bool:
    """Whether a @cute.jit / @cute.kernel function of the module (or a static method of `cls`)
    builds an object of `cls`: `Cls(...)`."""
    bodies: list[cst.CSTNode] = [fn.node for fn in cls.static_defs.values()]
    for stmt in _module_definitions(module.body):
        if isinstance(stmt, cst.FunctionDef) and _decorator_kind(stmt, names):
            bodies.append(stmt)
        elif isinstance(stmt, cst.ClassDef):
            body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else []
            bodies += [m for m in body
                       if isinstance(m, cst.FunctionDef) and _decorator_kind(m, names)]
    if any(isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
           and node.func.value == cls.name for body in bodies for node in _walk_all(body)):
        return True
    # `cls(...)` in a @classmethod
    return any(isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
               and fn.node.params.params and node.func.value == fn.node.params.params[0].name.value
               for fn in cls.static_defs.values() if fn.takes_class
               for node in _walk_all(fn.node))


def _walk_all(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk_all(child)


def _record_fields(
    node: cst.ClassDef, names: NameResolver
) -> list[tuple[str, cst.BaseExpression | None]] | None:
    """The fields of a dataclass or NamedTuple (class-level annotated names), else None."""
    decorated = any(
        names.imported(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
        in RECORD_DECORATORS
        for d in node.decorators
    )
    based = any(names.imported(b.value) in RECORD_BASES for b in node.bases)
    if not (decorated or based):
        return None
    fields: list[tuple[str, cst.BaseExpression | None]] = []
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else []
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    fields.append((small.target.value, small.value))
    return fields


def _assignment(
    small: cst.BaseSmallStatement,
) -> tuple[str | None, cst.BaseExpression | None]:
    """`NAME = value` or `NAME: T = value` at module level."""
    if (
        isinstance(small, cst.Assign)
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name)
    ):
        return small.targets[0].target.value, small.value
    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
        return small.target.value, small.value
    return None, None


def _is_constant(node: cst.BaseExpression, info: ModuleInfo) -> bool:
    """A literal, or arithmetic on literals and constants defined before it (folded where it
    is used): `_THREADS = 4 * _WARP_SIZE`."""
    if _is_literal(node):
        return True
    if isinstance(node, cst.Name):
        return node.value in info.constants
    if isinstance(node, cst.BinaryOperation):
        return _is_constant(node.left, info) and _is_constant(node.right, info)
    if isinstance(node, cst.UnaryOperation):
        return _is_constant(node.expression, info)
    return False


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


def _class_attrs(line: cst.SimpleStatementLine, cls: DslClass) -> None:
    for small in line.body:
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            if isinstance(target, cst.Name):
                cls.class_attrs[target.value] = small.value


def _init_attrs(init: cst.FunctionDef, cls: DslClass) -> None:
    for p in init.params.params:
        cls.init_params[p.name.value] = p
    for node in _walk_statements(init.body):
        if not isinstance(node, (cst.Assign, cst.AnnAssign)):
            continue
        targets = (
            [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        )
        pairs: list[tuple[cst.BaseExpression, cst.BaseExpression | None]] = []
        for target in targets:
            value = node.value
            if isinstance(target, (cst.Tuple, cst.List)):
                # `self.a, self.b = x, y`: element by element when the right side is spelled so
                values = (value.elements if isinstance(value, (cst.Tuple, cst.List))
                          and len(value.elements) == len(target.elements) else None)
                pairs += [(e.value, values[i].value if values else None)
                          for i, e in enumerate(target.elements)]
            else:
                pairs.append((target, value))
        for attr_target, attr_value in pairs:
            if (
                isinstance(attr_target, cst.Attribute)
                and isinstance(attr_target.value, cst.Name)
                and attr_target.value.value == "self"
                and attr_value is not None
            ):
                cls.init_attrs[attr_target.attr.value] = attr_value


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


def _module_definitions(body: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    """The module's statements, and the function and class definitions inside its top-level
    `if` blocks (`if __name__ == "__main__":` often defines the jit launcher)."""
    for stmt in body:
        if isinstance(stmt, cst.If):
            arms: list[cst.BaseSuite] = [stmt.body]
            orelse = stmt.orelse
            while orelse is not None:
                arms.append(orelse.body)
                orelse = orelse.orelse if isinstance(orelse, cst.If) else None
            for arm in arms:
                if isinstance(arm, cst.IndentedBlock):
                    nested = _module_definitions(arm.body)
                    yield from (d for d in nested if isinstance(d, (cst.FunctionDef, cst.ClassDef)))
        else:
            yield stmt


def discover(module: cst.Module, names: NameResolver) -> ModuleInfo:
    info = ModuleInfo()
    for stmt in _module_definitions(module.body):
        if isinstance(stmt, cst.FunctionDef):
            kind = _decorator_kind(stmt, names)
            if kind:
                info.functions.append(DslFunction(stmt, kind))
            else:
                info.plain_functions[stmt.name.value] = stmt
                info.plain_dsl[stmt.name.value] = DslFunction(stmt, "plain")
        elif isinstance(stmt, cst.ClassDef) and is_struct_class(stmt, names):
            info.structs[stmt.name.value] = stmt
        elif isinstance(stmt, cst.ClassDef):
            cls = DslClass(stmt)
            cls.record_fields = _record_fields(stmt, names)
            init: DslFunction | None = None
            body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else []
            for member in body:
                if isinstance(member, cst.SimpleStatementLine):
                    _class_attrs(member, cls)
                if not isinstance(member, cst.FunctionDef):
                    continue
                kind = _decorator_kind(member, names)
                if _is_static(member, names):
                    cls.static_defs[member.name.value] = DslFunction(
                        member, kind or "plain", None, owner=cls.name,
                        takes_class=_is_decorated(member, "classmethod"))
                    if kind:
                        info.functions.append(cls.static_defs[member.name.value])
                elif kind:
                    fn = DslFunction(member, kind, cls)
                    cls.methods[member.name.value] = fn
                    info.functions.append(fn)
                    if kind == "jit":
                        _struct_attrs(member, cls, names)
                elif member.name.value == "__init__":
                    _init_attrs(member, cls)
                    init = DslFunction(member, "plain", cls)
                else:
                    cls.plain_methods.add(member.name.value)
                    cls.plain_defs[member.name.value] = DslFunction(member, "plain", cls)
            info.all_classes[cls.name] = cls
            value_class = (cls.record_fields is None and init is not None and cls.init_attrs
                           and all(not fn.is_kernel for fn in cls.methods.values())
                           and (not cls.methods or _built_in_dsl_code(module, cls, names)))
            if value_class:
                # A class of values (`SeqlenInfo(...)`, an accumulator, a helper object with
                # @cute.jit methods that kernels build): a record whose fields are the
                # attributes `__init__` sets.
                cls.init = init
                cls.record_fields = [(attr, None) for attr in cls.init_attrs]
                # its methods are helpers, translated where an object calls them
                methods = set(map(id, cls.methods.values()))
                info.functions = [fn for fn in info.functions if id(fn) not in methods]
            elif cls.methods:
                info.classes.append(cls)
            if cls.record_fields is not None:
                info.records[cls.name] = cls
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                target, value = _assignment(small)
                if target is not None and value is not None and _is_constant(value, info):
                    info.constants[target] = value
    return info


def is_stream_parameter(name: str, annotation: str) -> bool:
    """Whether a jit function's parameter `name`, annotated `annotation` (its dotted text, ''
    without one), is the launch stream: named `stream`, or annotated `cuda.CUstream` or some
    `...Stream` type."""
    return name == "stream" or "CUstream" in annotation or annotation.endswith("Stream")
