"""Which tensor arguments a specialization's kernels index with one shape (checked before every
launch unless BBX_CHECK_ARGS=0, see checks.py).

The rule, read from the Python source of the @cute.jit function and of the kernels it launches:
tensor parameters that are partitioned with one tiler — `cute.zipped_divide`,
`logical_divide`, `tiled_divide` or `flat_divide` with the same tiler expression, or
`cute.local_tile` with the same tiler and the same coordinate expressions, each given the
parameter itself or the parameter sliced with the same subscript (`mX[row, None]`, the row-wise
norms) — in the jit function,
or in a kernel it launches with those parameters passed straight through, form one group. This
is the elementwise and row-wise pattern (elementwise_add, softmax, the norms): one grid walks
one tiling, and every tensor of the tiling must have the shape the predicates are computed from.

Tensors partitioned differently (a GEMM's A and B, a norm's weight vector tiled at (0, 0)), or
indexed by hand, form no group and are not checked. A source that cannot be read yields no
groups.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

from .argspec import ArgSpec, TensorSpec
from .checks import ShapeGroup

DIVIDES = ("zipped_divide", "logical_divide", "tiled_divide", "flat_divide")


@lru_cache(maxsize=32)
def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def _functions(tree: ast.Module) -> dict[tuple[str | None, str], ast.FunctionDef]:
    """(class name or None, function name) -> definition, for module and class level."""
    found: dict[tuple[str | None, str], ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[(None, node.name)] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    found[(node.name, item.name)] = item
    return found


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return call.args[position] if len(call.args) > position else None


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _operand(expr: ast.expr | None) -> tuple[str, str] | None:
    """(name, slice key) of a partitioned operand: a name (`mX`), or a name sliced
    (`mX[row, None]`: tensors sliced alike and tiled alike are indexed with one shape too)."""
    if isinstance(expr, ast.Name):
        return expr.id, ""
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
        return expr.value.id, f"[{ast.dump(expr.slice)}]"
    return None


def _tiling(call: ast.Call) -> tuple[str, str] | None:
    """(the tensor's name, a key of its tiling) of a partitioning call, else None."""
    name = _callee(call)
    operand = _operand(_argument(call, 0, "target" if name in DIVIDES else "input"))
    if operand is None:
        return None
    tensor, sliced = operand
    if name in DIVIDES:
        tiler = _argument(call, 1, "tiler")
        return (tensor, f"{name}{sliced}:{ast.dump(tiler)}") if tiler is not None else None
    if name == "local_tile":
        tiler, coord = _argument(call, 1, "tiler"), _argument(call, 2, "coord")
        proj = _argument(call, 3, "proj")
        if tiler is None or coord is None:
            return None
        extra = ast.dump(proj) if proj is not None else ""
        return tensor, f"local_tile{sliced}:{ast.dump(tiler)}:{ast.dump(coord)}:{extra}"
    return None


def _tilings(function: ast.FunctionDef, names: dict[str, str]) -> dict[str, set[str]]:
    """Tiling key -> the parameters (`names`: local name -> parameter) partitioned with it."""
    groups: dict[str, set[str]] = defaultdict(set)
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            found = _tiling(node)
            if found is not None and found[0] in names:
                groups[found[1]].add(names[found[0]])
    return groups


def _launched_kernels(function: ast.FunctionDef) -> list[tuple[ast.Call, str | None, str]]:
    """`kernel(args).launch(...)` calls: (the kernel call, 'self' or None, kernel name)."""
    out: list[tuple[ast.Call, str | None, str]] = []
    for node in ast.walk(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "launch" and isinstance(node.func.value, ast.Call)):
            kernel_call = node.func.value
            callee = kernel_call.func
            if isinstance(callee, ast.Name):
                out.append((kernel_call, None, callee.id))
            elif isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
                out.append((kernel_call, callee.value.id, callee.attr))
    return out


def _parameters(function: ast.FunctionDef, method: bool) -> list[str]:
    names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    return names[1:] if method and names else names


def infer_shape_groups(source: str, path: str, class_name: str | None, function_name: str,
                       specs: dict[str, ArgSpec]) -> tuple[ShapeGroup, ...]:
    """The shape groups of one specialization of the jit function `function_name` (a method of
    `class_name`, or of the module) of the module `source` at `path` (see the module
    docstring). Both paths read them so: the translator's and staged execution."""
    tree = _parse(source)
    if tree is None:
        return ()
    functions = _functions(tree)
    host = functions.get((class_name, function_name))
    if host is None:
        return ()
    tensors = {n for n, s in specs.items() if isinstance(s, TensorSpec)}
    file = Path(path).name
    collected: dict[str, set[str]] = _tilings(host, {n: n for n in tensors})
    where = {key: f"{file}:{host.lineno}" for key in collected}
    for call, owner, kernel_name in _launched_kernels(host):
        kernel = functions.get((class_name if owner == "self" else None, kernel_name))
        if kernel is None:
            continue
        params = _parameters(kernel, method=owner == "self")
        passed = {params[i]: a.id for i, a in enumerate(call.args)
                  if i < len(params) and isinstance(a, ast.Name) and a.id in tensors}
        for key, members in _tilings(kernel, passed).items():
            collected.setdefault(f"{kernel_name}:{key}", set()).update(members)
            where.setdefault(f"{kernel_name}:{key}", f"{file}:{kernel.lineno}")
    groups = []
    for key, members in collected.items():
        if len(members) > 1:
            ordered = tuple(n for n in specs if n in members)
            groups.append(ShapeGroup(ordered, f"partitioned with one tiling in {where[key]}"))
    return tuple(groups)
