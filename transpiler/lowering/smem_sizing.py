"""The shared memory a kernel's SmemAllocator takes, for a launch without `smem=`.

The DSL sizes such a launch from the allocator's calls, which it traces: their sizes are
trace-time values (static layouts, struct sizes). bbx replays those calls where the kernel is
launched: `allocation_slice` picks the kernel's statements that allocate (the SmemAllocator, its
`allocate*` calls, the @cute.struct classes they use) and those they depend on; the launch
lowers them in the launching function with the kernel's parameters bound to the launch's
arguments, the allocator in its sizing mode (`bbx::SmemAllocator{bbx::smem_sizing}`: it counts
bytes, its pointers are never read), and passes the bytes it counted.

A kernel whose allocations depend on run-time values (a thread index, a loop variable), or
happen in a `const_expr` branch, has no slice: its launch gets the target's default dynamic
shared memory, as before.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import cast

import libcst as cst

from ..cxx import ast as c
from ..frontend.discovery import DslFunction, is_struct_class
from ..frontend.walk import children, walk
from .context import ModuleContext

#: The allocator's methods that take shared memory.
_ALLOCATING = frozenset({"allocate", "allocate_tensor", "allocate_array"})
_ALLOCATOR = "cutlass.utils.SmemAllocator"
#: Calls whose value is only known in a running kernel.
_RUN_TIME_MODULES = ("cutlass.cute.arch", "cutlass.experimental", "cutlass.pipeline")


@dataclass(frozen=True)
class AllocationSlice:
    statements: tuple[cst.CSTNode, ...]  # in source order: lines and @cute.struct classes
    allocators: tuple[str, ...]  # the Python names bound to SmemAllocator()


@dataclass(frozen=True)
class _Item:
    node: cst.CSTNode  # a SimpleStatementLine or a ClassDef
    in_loop: bool
    in_static_branch: bool
    loop_targets: frozenset[str]


def allocation_slice(mod: ModuleContext, kernel: DslFunction) -> AllocationSlice | None:
    """The statements of `kernel` that compute its SmemAllocator's size, or None when they
    cannot be replayed where it is launched."""
    items = _flatten(mod, kernel.node.body, False, False, frozenset())
    allocators = {name for item in items for name in _allocator_names(mod, item.node)}
    roots = [i for i, item in enumerate(items) if _allocates(mod, item.node, allocators)]
    if not roots:
        return None
    needed = set(roots)
    work = list(roots)
    while work:
        i = work.pop()
        item = items[i]
        for name in reads(item.node) - defines(item.node):
            if name in item.loop_targets:
                return None
            j = next((j for j in range(i - 1, -1, -1) if name in defines(items[j].node)), None)
            if j is not None and j not in needed:
                needed.add(j)
                work.append(j)
    chosen = [items[i] for i in sorted(needed)]
    if any(item.in_loop or item.in_static_branch or _runs_in_kernel(mod, item.node)
           for item in chosen):
        return None
    return AllocationSlice(tuple(item.node for item in chosen), tuple(sorted(allocators)))


def _flatten(
    mod: ModuleContext, body: cst.BaseSuite, in_loop: bool, in_static: bool,
    targets: frozenset[str],
) -> list[_Item]:
    """The simple statements and @cute.struct classes of `body`, in source order, with the
    control flow they are in (the DSL traces every arm of a run-time `if` and every loop body
    once)."""
    out: list[_Item] = []
    statements = body.body if isinstance(body, cst.IndentedBlock) else []
    for stmt in statements:
        if isinstance(stmt, cst.SimpleStatementLine):
            out.append(_Item(stmt, in_loop, in_static, targets))
        elif isinstance(stmt, cst.ClassDef) and is_struct_class(stmt, mod.names):
            out.append(_Item(stmt, in_loop, in_static, targets))
        elif isinstance(stmt, cst.If):
            static = in_static or _is_const_expr(mod, stmt.test)
            branch: cst.If | cst.Else | None = stmt
            while branch is not None:
                out += _flatten(mod, branch.body, in_loop, static, targets)
                branch = branch.orelse if isinstance(branch, cst.If) else None
        elif isinstance(stmt, (cst.For, cst.While)):
            bound = targets | (_names(stmt.target) if isinstance(stmt, cst.For) else frozenset())
            out += _flatten(mod, stmt.body, True, in_static, bound)
        elif isinstance(stmt, (cst.With, cst.Try)):
            out += _flatten(mod, stmt.body, in_loop, in_static, targets)
    return out


def _is_const_expr(mod: ModuleContext, test: cst.BaseExpression) -> bool:
    return isinstance(test, cst.Call) and (mod.names.resolve(test.func) or "").endswith(
        "const_expr")


def _allocator_names(mod: ModuleContext, node: cst.CSTNode) -> set[str]:
    out: set[str] = set()
    for n in walk(node):
        if (isinstance(n, cst.Assign) and isinstance(n.value, cst.Call)
                and mod.names.resolve(n.value.func) == _ALLOCATOR):
            for target in n.targets:
                out |= _names(target.target)
    return out


def _allocates(mod: ModuleContext, node: cst.CSTNode, allocators: set[str]) -> bool:
    for n in walk(node):
        if not isinstance(n, cst.Call):
            continue
        if mod.names.resolve(n.func) == _ALLOCATOR:
            return True
        func = n.func
        if (isinstance(func, cst.Attribute) and func.attr.value in _ALLOCATING
                and isinstance(func.value, cst.Name) and func.value.value in allocators):
            return True
    return False


def _runs_in_kernel(mod: ModuleContext, node: cst.CSTNode) -> bool:
    """Whether `node` calls something only a running kernel knows (thread indices...)."""
    for n in walk(node):
        if isinstance(n, cst.Call):
            resolved = mod.names.resolve(n.func) or ""
            if resolved.startswith(_RUN_TIME_MODULES):
                return True
            if isinstance(n.func, cst.Attribute) and n.func.attr.value in ("load", "store"):
                return True
    return False


def _names(target: cst.CSTNode) -> frozenset[str]:
    if isinstance(target, cst.Name):
        return frozenset({target.value})
    if isinstance(target, (cst.Tuple, cst.List)):
        return frozenset(n for e in target.elements for n in _names(e.value))
    return frozenset()


def defines(node: cst.CSTNode) -> frozenset[str]:
    if isinstance(node, cst.ClassDef):
        return frozenset({node.name.value})
    out: set[str] = set()
    for n in walk(node):
        if isinstance(n, cst.AssignTarget):
            out |= _names(n.target)
        elif isinstance(n, (cst.AnnAssign, cst.AugAssign)):
            out |= _names(n.target)
    return frozenset(out)


def reads(node: cst.CSTNode) -> set[str]:
    """The names `node` reads (an attribute's object, not its name; not keyword names)."""
    out: set[str] = set()

    def visit(n: cst.CSTNode) -> None:
        if isinstance(n, cst.Name):
            out.add(n.value)
            return
        if isinstance(n, cst.Attribute):
            visit(n.value)
            return
        if isinstance(n, cst.Arg):
            visit(n.value)
            return
        if isinstance(n, cst.ClassDef):  # a struct: its field annotations and decorators
            for d in n.decorators:
                visit(d.decorator)
            for field in walk(n.body):
                if isinstance(field, cst.Annotation):
                    visit(field.annotation)
            return
        for child in children(n):
            visit(child)

    visit(node)
    return out


def sizing_allocators(stmt: c.Stmt) -> c.Stmt:
    """`stmt` with every SmemAllocator it makes in its sizing mode."""
    return cast(c.Stmt, _sizing(stmt))


def _sizing(node: object) -> object:
    if isinstance(node, c.Construct) and node.type == c.Type("SmemAllocator") and not node.args:
        return c.Construct(node.type, (c.Id("smem_sizing"),))
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: _sizing(getattr(node, f.name)) for f in dataclasses.fields(node)}
        return dataclasses.replace(node, **changes)
    if isinstance(node, tuple):
        return tuple(_sizing(item) for item in node)
    return node
