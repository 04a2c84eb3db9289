"""Pointers and reinterpreting views: `cute.make_ptr`, `cutlass.inttoptr`, `cute.recast_ptr`,
`cute.recast_tensor`, and the `AddressSpace` enumeration (C++: bbx/tensor/recast.hpp).

`AddressSpace` members are the DSL's integers (it is an IntEnum: `mem_space=3` is shared
memory), so comparisons with them fold like any integer. Generic and constant memory are
global memory to bbx; tensor memory and distributed shared memory are NVIDIA-only.
"""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat
from ..analysis.value import Val
from ..cxx import ast as c
from .builder import method
from .control import ANNOTATION
from .entry import (
    RECEIVER,
    Attribute,
    Constant,
    CustomMethod,
    Function,
    Marker,
    NvidiaOnly,
    Param,
    assemble,
    params,
)
from .lowerer import Lowerer
from .nvidia import CLUSTER, TMEM
from .registry import Registry
from .roles import CallParts, Role, literal_value

#: The DSL's AddressSpace (cutlass.base_dsl.enums): name -> value.
ADDRESS_SPACES = {"generic": 0, "gmem": 1, "smem": 3, "cmem": 4, "rmem": 5, "tmem": 6, "dsmem": 7}
#: value -> bbx::mem_space (generic and constant memory are addressed like global memory).
_MEM_SPACES = {0: "gmem", 1: "gmem", 3: "smem", 4: "gmem", 5: "rmem"}
_NVIDIA_SPACES = {6: TMEM, 7: CLUSTER}


class AddressSpaceArg(Role):
    """`mem_space=`: an AddressSpace member (or its integer) -> `mem_space::gmem` template
    argument; tensor memory and distributed shared memory are NVIDIA-only."""

    name = "mem_space"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        value = literal_value(lw, node)
        if isinstance(value, int) and value in _NVIDIA_SPACES:
            space = next(n for n, v in ADDRESS_SPACES.items() if v == value)
            raise NvidiaOnly(_NVIDIA_SPACES[value]).error(lw, node, f"AddressSpace.{space}")
        if not isinstance(value, int) or value not in _MEM_SPACES:
            raise lw.error(
                node,
                "bad-arguments",
                f"{param}= must be a cute.AddressSpace member",
                "e.g. cute.AddressSpace.gmem or cute.AddressSpace.smem",
            )
        parts.template_args.append(c.Type(f"mem_space::{_MEM_SPACES[value]}"))

    def default(self, value: str, parts: CallParts) -> None:
        parts.template_args.append(c.Type(f"mem_space::{value}"))


class NoSwizzle(Role):
    """`swizzle_=`: only None (a swizzled iterator is not supported)."""

    name = "swizzle_"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        if isinstance(node, cst.Name) and node.value == "None":
            return
        raise lw.error(
            node,
            "not-yet-supported",
            f"{param}= (a swizzled pointer) is not yet supported by bbx",
            "swizzle the layout instead: cute.make_composed_layout(swizzle, 0, layout)",
        )

    def default(self, value: str, parts: CallParts) -> None:
        return None


MEM_SPACE = AddressSpaceArg()
NO_SWIZZLE = NoSwizzle()


def _fn(cxx: str, ps: tuple[Param, ...], required: int, example: str) -> Function:
    return Function(cxx, ps, k.VALUE, required, example=example)


def register(r: Registry) -> None:
    modules = ("cutlass", "cutlass.cute")
    for space, value in ADDRESS_SPACES.items():
        r.add([f"{m}.AddressSpace.{space}" for m in modules], Constant(
            value, example=f"s = cutlass.AddressSpace.{space}"))
    r.add([f"{m}.AddressSpace" for m in modules], Marker(
        f"{ANNOTATION} or as `AddressSpace.<space>`",
        example="v: cutlass.AddressSpace = cutlass.AddressSpace.smem"))
    r.add("cutlass.cute.make_ptr", _fn(
        "make_ptr",
        (*params("dtype:type value:value"), Param("mem_space", MEM_SPACE, "gmem"),
         *params("* assumed_align:mode"), Param("swizzle_", NO_SWIZZLE, keyword_only=True)),
        2,
        example="p = cute.make_ptr(cutlass.Float32, gA.iterator.toint(), "
        "cute.AddressSpace.gmem, assumed_align=4)"))
    r.add("cutlass.inttoptr", _fn(
        "inttoptr", (*params("value:value"), Param("mem_space", MEM_SPACE),
                     *params("dtype:type")), 3,
        example="p = cutlass.inttoptr(gA.iterator.toint(), cutlass.AddressSpace.gmem, "
        "cutlass.Float32)\nq = cutlass.inttoptr(0, mem_space=3, dtype=cutlass.Float16)"))
    r.add("cutlass.cute.recast_ptr", _fn(
        "recast_ptr", (*params("ptr:any"), Param("swizzle_", NO_SWIZZLE),
                       *params("dtype:type")), 1,
        example="p = cute.recast_ptr(gA.iterator, dtype=cutlass.Int32)"))
    r.add("cutlass.cute.recast_tensor", Function(
        "recast_tensor", (*params("src:any dtype:type"), Param("swizzle_", NO_SWIZZLE)),
        k.TENSOR, 2,
        example="t = cute.recast_tensor(rA, cutlass.Int32)\n"
        "h = cute.recast_tensor(gA, cutlass.Float16)"))
    # Pointers (`tensor.iterator`, allocations) are C++ values: their address and raw form.
    r.add_member(Cat.VALUE, "toint", method(
        "ptr_toint", "", k.dynamic("int64_t"), member=False,
        example="a = gA.iterator.toint()"))
    r.add_member(Cat.VALUE, "llvm_ptr", Attribute(
        custom=_same, result=RECEIVER, example="p = gA.iterator.llvm_ptr"))
    # Pointers are values; pointer arithmetic (`p + i`) gives a dynamic value.
    pointers = (Cat.VALUE, Cat.DYNAMIC)
    r.add_member(pointers, "raw_ptr", CustomMethod(
        _raw_ptr, example="p = gA.iterator.raw_ptr() + 4\ny = p.load()"))
    r.add_member(pointers, "align", method(
        "align_up", "min_align:shape", RECEIVER, member=False,
        example="p = gA.iterator.align(16)\nt = cute.make_tensor(p, gA.layout)"))
    r.add_member(pointers, "load", CustomMethod(
        _pointer_load, example="p = gA.iterator\ny = p.load()\nv = (p + 4).load(count=4)"))
    r.add_member(pointers, "masked_load", CustomMethod(
        _pointer_masked_load, example="p = gA.iterator\n"
        "m = cutlass.Vector.from_elements((True, False), cutlass.Boolean)\n"
        "v = p.masked_load(m)\nw = p.masked_load(m, v, alignment=8)"))
    r.add_member(pointers, "masked_store", CustomMethod(
        _pointer_masked_store, example="p = gA.iterator\n"
        "m = cutlass.Vector.from_elements((True, False), cutlass.Boolean)\n"
        "p.masked_store(p.load(count=2), m)"))
    r.add_member(pointers, "store", CustomMethod(
        _pointer_store, example="p = gA.iterator\np.store(x)\n"
        "(p + 4).store(cute.full(4, 1.0, cutlass.Float32))"))


#: Pointer.load / Pointer.store: the DSL's parameters after the value (hints are dropped;
#: `is_volatile` and `ordering` change the access, see _plain_access).
_LOAD_PARAMS = params(
    "alignment:ignored * count:ignored is_volatile:ignored is_invariant:ignored "
    "is_invariant_group:ignored ordering:ignored syncscope:ignored loc:ignored ip:ignored"
)
_STORE_PARAMS = params(
    "value:value * alignment:ignored is_volatile:ignored is_invariant_group:ignored "
    "ordering:ignored syncscope:ignored loc:ignored ip:ignored"
)


def _plain_access(lw: Lowerer, node: cst.Call) -> None:
    """bbx translates plain pointer accesses only: a volatile or ordered one is refused rather
    than silently made plain."""
    for arg in node.args:
        name = arg.keyword.value if arg.keyword is not None else None
        value = literal_value(lw, arg.value) if name in ("is_volatile", "ordering") else None
        if (name == "is_volatile" and value is not False) or (
            name == "ordering" and value != "not_atomic"
        ):
            raise lw.error(
                arg.value,
                "not-yet-supported",
                f"Pointer access with {name}= is not yet supported by bbx",
                "for an ordered access use cute.arch.load/store with sem= and scope=",
            )


def _pointer_load(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`ptr.load()`: the pointee; `ptr.load(count=N)`: N elements as a register value."""
    _plain_access(lw, node)
    parts = assemble(lw, node, "ptr_load", _LOAD_PARAMS, 0, "Pointer.load", leading=(obj,))
    count = next((a.value for a in node.args if a.keyword and a.keyword.value == "count"), None)
    if count is None or (isinstance(count, cst.Name) and count.value == "None"):
        return Val(k.dynamic(), c.Call(c.Id(parts.cxx), tuple(parts.args)), node=node)
    # count: a compile-time integer (a literal, a Python value or a Constexpr parameter)
    n = lw.lower(count)
    if lw.static_int_expr(n, count) is None:
        raise lw.error(count, "bad-arguments", "Pointer.load: count= must be a compile-time "
                       "integer", "the DSL loads a vector of a static length")
    args = (*parts.args, lw.materialize(n, True, count))
    return Val(k.Kind(Cat.TENSOR_SSA), c.Call(c.Id(parts.cxx), args), node=node)


def _pointer_store(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`ptr.store(v)`: v (an element, or a register value from there on)."""
    _plain_access(lw, node)
    parts = assemble(lw, node, "ptr_store", _STORE_PARAMS, 1, "Pointer.store", leading=(obj,))
    return Val(k.VALUE, c.Call(c.Id(parts.cxx), tuple(parts.args)), node=node)


_MASKED_LOAD_PARAMS = params(
    "mask:value pass_thru:value * alignment:ignored loc:ignored ip:ignored")
_MASKED_STORE_PARAMS = params(
    "value:value mask:value * alignment:ignored loc:ignored ip:ignored")


def _pointer_masked_load(
    lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str
) -> Val:
    """`ptr.masked_load(mask, pass_thru=None)`: a vector of len(mask) elements; masked-off lanes
    are not read and take pass_thru's lanes (zero without it)."""
    parts = assemble(lw, node, "ptr_masked_load", _MASKED_LOAD_PARAMS, 1,
                     "Pointer.masked_load", leading=(obj,))
    return Val(k.Kind(Cat.TENSOR_SSA), c.Call(c.Id(parts.cxx), tuple(parts.args)), node=node)


def _pointer_masked_store(
    lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str
) -> Val:
    """`ptr.masked_store(value, mask)`: the lanes of value whose mask holds."""
    parts = assemble(lw, node, "ptr_masked_store", _MASKED_STORE_PARAMS, 2,
                     "Pointer.masked_store", leading=(obj,))
    return Val(k.VALUE, c.Call(c.Id(parts.cxx), tuple(parts.args)), node=node)


def _raw_ptr(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`ptr.raw_ptr()`: the pointer itself (bbx pointers are the machine's pointers)."""
    if node.args:
        raise lw.error(node.args[0].value, "bad-arguments", "raw_ptr() takes no arguments")
    return Val(receiver.kind, obj, node=node)


def _same(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`ptr.llvm_ptr`: the pointer itself (bbx pointers are the machine's pointers)."""
    return Val(receiver.kind, obj, node=node)

