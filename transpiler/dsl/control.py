"""Names that steer translation rather than compute: decorators, annotations, compile-time
markers (`const_expr`, `range_constexpr`), `@cute.struct` and its field annotations."""

from __future__ import annotations

import libcst as cst

from ..analysis.value import Val
from .builder import C
from .entry import Custom, Marker
from .lowerer import Lowerer
from .registry import Registry

#: Examples that start with this line are placed at module level, not in a kernel.
MODULE = "# module\n"
STRUCT_EXAMPLE = (
    MODULE + "@cute.struct\nclass Storage:\n    a: cute.struct.MemRange[cutlass.Float32, 8]\n"
    "    b: cute.struct.Align[cutlass.Int32, 16]"
)
LOOP = "as the iterable of a `for` loop"
DECORATOR = "as a decorator"
ANNOTATION = "in an annotation"


#: DSL types used as annotations, with a value of that type from the examples' prelude.
_ANNOTATION_EXAMPLES = {
    "Tensor": "gA", "Layout": "layout", "ComposedLayout": "layout", "Shape": "(4, 8)",
    "Stride": "(8, 1)", "Coord": "(0, 1)", "Tile": "(4, 8)", "IntTuple": "(4, 8)",
    "Tiler": "(4, 8)", "TiledCopy": "tiled_copy", "CopyAtom": "atom", "ThrCopy": "thr_copy",
    "TensorSSA": "ssa", "Pointer": "gA.iterator",
}  # fmt: skip


def _const_expr(lw: Lowerer, node: cst.Call, name: str) -> Val:
    bound = lw.bind(node, ["expression"], f"'{name}'", 1)
    return lw.lower(bound["expression"])


def register(r: Registry) -> None:
    r.add(["cutlass.const_expr", C + "const_expr"], Custom(
        call=_const_expr, example="v = cutlass.const_expr(4 * 2)"))
    r.add("cutlass.dynamic_expr", Custom(
        call=_const_expr, example="v = cutlass.dynamic_expr(n + 1)"))
    r.add(["cutlass.range_constexpr", C + "range_constexpr"], Marker(
        LOOP, example="for i in cutlass.range_constexpr(4):\n    rA[i] = 0.0"))
    r.add(["cutlass.range", C + "range", "cutlass.range_dynamic"], Marker(
        LOOP, example="for i in cutlass.range(n, unroll=2):\n    rA[0] = 0.0"))
    r.add(C + "kernel", Marker(
        DECORATOR, example=MODULE + "@cute.kernel\ndef k(a: cute.Tensor):\n    pass"))
    r.add(C + "jit", Marker(
        DECORATOR, example=MODULE + "@cute.jit\ndef helper(v):\n    return v + 1"))
    r.add(["cutlass.Constexpr", C + "Constexpr"], Marker(
        ANNOTATION, example="v: cutlass.Constexpr = 4"))
    r.add("cutlass.Numeric", Marker(ANNOTATION, example="v: cutlass.Numeric = x"))
    r.add(C + "struct", Marker(DECORATOR, example=STRUCT_EXAMPLE))
    r.add([C + "struct.MemRange", C + "struct.Align"], Marker(
        "in a `@cute.struct` field annotation", example=STRUCT_EXAMPLE))
    for name, value in _ANNOTATION_EXAMPLES.items():
        names = [m + name for m in (C, "cutlass.cute.typing.") if m + name in r.public]
        r.add(names, Marker(ANNOTATION, example=f"v: cute.{name} = {value}"))
