"""The DSL's type names as they appear in annotations (`mA: cutlass.Tensor`,
`layout: cutlass.Layout`, `x: cutlass.Float`...) and enumeration classes named only through their
members (`cute.ReductionOp.ADD`). Each is a marker: meaningful in its position, a diagnostic
naming that position elsewhere."""

from __future__ import annotations

from .control import ANNOTATION
from .entry import Marker
from .registry import Registry

#: Annotation-only names -> a value of that type from the examples' prelude.
_ANNOTATIONS = {
    "cutlass.Tensor": "gA", "cutlass.Layout": "layout", "cutlass.ComposedLayout": "layout",
    "cutlass.Shape": "(4, 8)", "cutlass.Stride": "(8, 1)", "cutlass.Coord": "(0, 1)",
    "cutlass.Tile": "(4, 8)", "cutlass.Tiler": "(4, 8)", "cutlass.IntTuple": "(4, 8)",
    "cutlass.XTuple": "(4, 8)", "cutlass.Pointer": "gA.iterator",
    "cutlass.TypedPointer": "gA.iterator", "cutlass.TypedTensor": "gA", "cutlass.Integer": "n",
    "cutlass.Float": "x", "cutlass.cute.Numeric": "x", "cutlass.cute.MathOperand": "x",
    "cutlass.NumericMeta": "cutlass.Float32",
}  # fmt: skip

#: Enumerations used through their members only.
_ENUMS = {"cutlass.cute.ReductionOp": "s = ssa.reduce(cute.ReductionOp.MAX, 0.0, 0)"}


def register(r: Registry) -> None:
    for name, value in _ANNOTATIONS.items():
        r.add(name, Marker(ANNOTATION, example=f"v: {name} = {value}"))
    for name, example in _ENUMS.items():
        r.add(name, Marker("as `<enumeration>.<member>`", example=example))
