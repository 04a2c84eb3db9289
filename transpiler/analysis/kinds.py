"""The kind of every translated expression: what it is at C++ level and whether it is static."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Cat(Enum):
    LITERAL = "Python literal"  # folded at translation time (value holds it)
    META = "meta value"  # pure Python value filled in by the specialization (a Meta member)
    STATIC = "static integer"  # Int<N> at C++ level
    CONSTEXPR = "Constexpr value"  # a cutlass.Constexpr parameter (template-typed value)
    DYNAMIC = "dynamic value"  # run-time scalar; ctype may be known
    VALUE = "value"  # a C++ value whose static-ness is only known at instantiation
    TUPLE = "tuple"
    LAYOUT = "layout"
    TENSOR = "tensor"
    TENSOR_SSA = "register value"  # t.load() results
    ATOM = "copy atom"
    TILED_COPY = "tiled copy"
    THR_COPY = "thread copy slice"
    MMA_ATOM = "MMA atom"
    TILED_MMA = "tiled MMA"
    THR_MMA = "thread MMA slice"
    NAMED_BARRIER = "named barrier"  # cutlass.pipeline.NamedBarrier
    TYPE = "type"  # a C++ type (dtype)
    FUNC = "function"  # lambda / functor
    UNDERSCORE = "underscore"  # None in a slice
    STREAM = "stream"
    STRUCT_REF = "shared-memory struct"  # smem.allocate(Struct): fields through `->`
    STRUCT_FIELD = "struct field"  # a field of one: MemRange, scalar or nested struct
    SMEM_ALLOCATOR = "shared-memory allocator"  # cutlass.utils.SmemAllocator()
    RECORD = "record"  # a dataclass / NamedTuple instance (value: the class name)


#: Categories that are C++ compile-time types and so cannot be rebound in dynamic control flow.
TYPED_CATS = frozenset(
    {Cat.LAYOUT, Cat.TENSOR, Cat.TENSOR_SSA, Cat.ATOM, Cat.TILED_COPY, Cat.THR_COPY, Cat.TUPLE,
     Cat.STATIC, Cat.CONSTEXPR, Cat.FUNC, Cat.STRUCT_REF, Cat.STRUCT_FIELD, Cat.MMA_ATOM,
     Cat.TILED_MMA, Cat.THR_MMA}
)  # fmt: skip

#: Categories that behave as static in arithmetic (a literal next to them stays `_N{}`).
STATIC_CATS = frozenset({Cat.STATIC, Cat.CONSTEXPR, Cat.LITERAL})


@dataclass(frozen=True)
class Kind:
    cat: Cat
    ctype: str | None = None  # DYNAMIC: C++ scalar type if known; TYPE: unused
    value: object = None  # LITERAL: the Python value
    elems: tuple[Kind, ...] = ()  # TUPLE: element kinds
    meta_kind: str = ""  # META: "static integer", "bool", "float", "string", "type", "value"

    def describe(self) -> str:
        if self.cat is Cat.DYNAMIC and self.ctype:
            return f"dynamic {self.ctype}"
        if self.cat is Cat.META:
            return f"meta {self.meta_kind}"
        if self.cat is Cat.LITERAL:
            return f"Python {type(self.value).__name__} literal"
        return self.cat.value


def literal(value: object) -> Kind:
    return Kind(Cat.LITERAL, value=value)


def dynamic(ctype: str | None = None) -> Kind:
    return Kind(Cat.DYNAMIC, ctype=ctype)


VALUE = Kind(Cat.VALUE)
STATIC = Kind(Cat.STATIC)
LAYOUT = Kind(Cat.LAYOUT)
TENSOR = Kind(Cat.TENSOR)
TYPE = Kind(Cat.TYPE)
UNDERSCORE = Kind(Cat.UNDERSCORE)

#: Annotations of parameters and the kind they give.
ANNOTATION_KINDS = {
    "cutlass.cute.Tensor": Cat.TENSOR,
    # a tensor passed where the DSL takes a `cutlass.Array` (a linear view: `a[i]`, a.load(i, n))
    "cutlass.Array": Cat.TENSOR,
    "cutlass.cute.typing.Array": Cat.TENSOR,
    "cutlass.cute.Layout": Cat.LAYOUT,
    "cutlass.cute.ComposedLayout": Cat.LAYOUT,
    "cutlass.cute.Shape": Cat.VALUE,
    "cutlass.cute.Stride": Cat.VALUE,
    "cutlass.cute.Coord": Cat.VALUE,
    "cutlass.cute.Tile": Cat.VALUE,
    "cutlass.cute.IntTuple": Cat.VALUE,
    "cutlass.cute.TiledCopy": Cat.TILED_COPY,
    "cutlass.cute.CopyAtom": Cat.ATOM,
    "cutlass.cute.TiledMma": Cat.TILED_MMA,
    "cutlass.cute.ThrMma": Cat.THR_MMA,
    "cutlass.cute.MmaAtom": Cat.MMA_ATOM,
    "cutlass.pipeline.NamedBarrier": Cat.NAMED_BARRIER,
    "cutlass.Constexpr": Cat.CONSTEXPR,
    "cutlass.cute.Constexpr": Cat.CONSTEXPR,
}
