"""`cutlass.utils`: the shared-memory allocator and `LayoutEnum` (row- or column-major, a
compile-time fact of a tensor's strides; C++: bbx/tensor/layout_enum.hpp)."""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from .builder import enum_constant, fn, method
from .control import ANNOTATION
from .entry import Custom, CustomMethod, Marker, Method, OpClass, Param, assemble, params
from .lowerer import Lowerer
from .numeric import BY_CXX
from .registry import Registry
from .roles import CallParts, Role


def register(r: Registry) -> None:
    r.add("cutlass.utils.SmemAllocator", OpClass(
        "SmemAllocator", result=Kind(Cat.SMEM_ALLOCATOR),
        example="smem2 = cutlass.utils.SmemAllocator()"))
    a = Cat.SMEM_ALLOCATOR
    r.add_member(a, "allocate_tensor", Method(
        "allocate_tensor", (*params("element_type:type_c layout:shape byte_alignment:any"),
                            Param("swizzle", SWIZZLE)), k.TENSOR, 2,
        example="s = smem.allocate_tensor(cutlass.Float32, cute.make_layout((4, 8)), 16)\n"
        "t = smem.allocate_tensor(cutlass.Float16, cute.make_layout((8, 64), stride=(64, 1)), "
        "16, cute.make_swizzle(3, 4, 3))"))
    r.add_member(a, "allocate_array", method(
        "allocate_array", "element_type:type_c num_elems:any byte_alignment:any", k.VALUE, 1,
        example="p = smem.allocate_array(cutlass.Float32, 16)"))
    r.add_member(a, "allocate", CustomMethod(
        _allocate, example="p = smem.allocate(64, 16)\nq = smem.allocate(cutlass.Int32)\n"
        "q.store(3)"))
    register_layout_enum(r)


class SwizzleArg(Role):
    """`swizzle=` of a shared-memory tensor (`allocate_tensor`, `MemRange.get_tensor`): passed on
    (the tensor's layout becomes the swizzle composed with the layout; bbx/tensor/smem_struct.hpp),
    dropped when None."""

    name = "swizzle"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        if isinstance(node, cst.Name) and node.value == "None":
            return
        super().apply(lw, param, node, keyword, parts)


SWIZZLE = SwizzleArg()
_STATIC = Kind(Cat.STATIC)
#: LayoutEnum's methods: each a static bool of the enum's value.
LAYOUT_ENUM_METHODS = ("is_k_major_a", "is_m_major_a", "is_n_major_b", "is_k_major_b",
                       "is_n_major_c", "is_m_major_c")  # fmt: skip


def _layout_enum(member: str) -> Custom:
    return enum_constant("layout_enum_c", f"LayoutEnum::{member}",
                         f"e = cutlass.utils.LayoutEnum.{member}")


def register_layout_enum(r: Registry) -> None:
    u = "cutlass.utils.LayoutEnum"
    r.add(u, Marker(
        f"{ANNOTATION} or as `LayoutEnum.ROW_MAJOR` / `.COL_MAJOR` / `.from_tensor(t)`",
        example="e: cutlass.utils.LayoutEnum = cutlass.utils.LayoutEnum.ROW_MAJOR"))
    for member in ("ROW_MAJOR", "COL_MAJOR"):
        r.add(f"{u}.{member}", _layout_enum(member))
    r.add(f"{u}.from_tensor", fn(
        "layout_enum_from_tensor", "tensor:any", _STATIC,
        example="e = cutlass.utils.LayoutEnum.from_tensor(mA)\n"
        "b = cutlass.const_expr(e == cutlass.utils.LayoutEnum.ROW_MAJOR)"))
    for name in LAYOUT_ENUM_METHODS:
        r.add_member((Cat.STATIC, Cat.VALUE), name, method(
            name, "", _STATIC,
            example=f"b = cutlass.utils.LayoutEnum.from_tensor(mA).{name}()"))


def _allocate(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`smem.allocate(bytes, align)`, or `smem.allocate(Struct)`: the struct in shared memory
    (bbx::struct_ref, fields through `->`)."""
    parts = assemble(
        lw, node, "allocate", params("size_in_bytes:any byte_alignment:any"), 1, "'allocate'"
    )
    call = c.Call(c.Member(obj, "allocate"), tuple(parts.args))
    first = parts.first_kind
    if first is not None and first.cat in (Cat.TYPE, Cat.CONSTEXPR):
        if _is_numeric_type(lw, node.args[0].value):
            return Val(k.VALUE, call, node=node)  # allocate(Int32): a pointer to one element
        return Val(Kind(Cat.STRUCT_REF), call, node=node)
    return Val(k.VALUE, call, node=node)


def _is_numeric_type(lw: Lowerer, node: cst.BaseExpression) -> bool:
    """Whether `node` is a numeric type (cutlass.Int32), not a @cute.struct class."""
    val = lw.lower(node)
    cxx = val.type if val.kind.cat is Cat.TYPE else None
    return isinstance(cxx, c.Type) and not cxx.args and cxx.name in BY_CXX
