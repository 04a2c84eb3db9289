"""`cutlass.cute.arch`: thread and block indices, barriers, warp shuffles, votes, masks and
reductions, atomics (with `sem=` / `scope=`), explicit loads and stores, fences, shared memory,
bit operations and the fast scalar math of the architecture.

A DSL warp is 32 lanes on every target (half an AMD wavefront): lane masks, votes and warp
reductions are over those 32 lanes. C++: bbx/platform/*.hpp and bbx/intrinsics/*.hpp.
"""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from .builder import A, fn
from .entry import FIRST, Constant, Custom, Function, NvidiaOnly, Param, assemble, params
from .lowerer import Lowerer
from .nvidia import NAMED_BARRIER
from .registry import Registry
from .roles import IGNORED, CallParts, Role, literal_value

_TID = Kind(Cat.TUPLE, elems=(k.dynamic(), k.dynamic(), k.dynamic()))
_BOOL = k.dynamic("bool")
_INT = k.dynamic()
_I32 = k.dynamic("int32_t")
_U32 = k.dynamic("uint32_t")
# mask= (the member mask) is dropped: every lane of a DSL warp takes part on every target.
_SHUFFLE = "value:value offset:value mask:ignored mask_and_clamp:mask_and_clamp"


class TagArg(Role):
    """A string option that becomes a C++ tag argument (`sem="acquire"` ->
    `arch::sem_acquire{}`); None adds nothing."""

    def __init__(self, name: str, tags: dict[str, str | None]) -> None:
        self.name = name
        self.tags = tags

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        value = literal_value(lw, node)
        if value is None and isinstance(node, cst.Name) and node.value == "None":
            return
        if not isinstance(value, str) or value not in self.tags:
            choices = ", ".join(f'"{t}"' for t in self.tags)
            raise lw.error(
                node,
                "bad-arguments",
                f"{param}= must be a literal string, one of {choices}",
                f'e.g. {param}="{next(iter(self.tags))}"',
            )
        tag = self.tags[value]
        if tag is not None:
            parts.args.append(c.Construct(c.Type(tag)))

    def default(self, value: str, parts: CallParts) -> None:
        return None


class WholeBlockBarrier(Role):
    """`barrier_id=` / `number_of_threads=` of `cute.arch.barrier`: None (or barrier 0) is the
    whole block's barrier; a named barrier over a subset of the threads is NVIDIA-only (AMD's
    s_barrier always waits for the whole work-group)."""

    def __init__(self, name: str, whole_block: tuple[object, ...]) -> None:
        self.name = name
        self.whole_block = whole_block

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        if isinstance(node, cst.Name) and node.value == "None":
            return
        if literal_value(lw, node) in self.whole_block:
            return
        raise NvidiaOnly(NAMED_BARRIER).error(lw, node, f"cute.arch.barrier({param}=...)")

    def default(self, value: str, parts: CallParts) -> None:
        return None


class RoundToNearest(Role):
    """`rnd=` of the packed f32x2 operations: "rn" (the default) only; a directed rounding
    mode is refused (bbx does not change the rounding mode)."""

    name = "rnd"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        value = literal_value(lw, node)
        if value in ("rn", None):
            return
        raise lw.error(
            node, "unsupported-argument",
            f"rnd={lw.code(node)}: directed rounding is not supported",
            'bbx computes in the default mode (round to nearest even): drop rnd= or pass "rn"',
        )

    def default(self, value: str, parts: CallParts) -> None:
        return None


class MustBeNone(Role):
    """An optional argument that only has its default here (`src_c=` of the two-operand packed
    operations)."""

    name = "none"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        if isinstance(node, cst.Name) and node.value == "None":
            return
        raise lw.error(node, "bad-arguments", f"{param}= is not an operand of this operation")

    def default(self, value: str, parts: CallParts) -> None:
        return None


def _packed(name: str, operands: str) -> Function:
    """`cute.arch.<op>_packed_f32x2(a, b[, c])` on 2-tuples -> a 2-tuple of Float32."""
    ps = [*params(" ".join(f"{o}:tuple" for o in operands.split()))]
    if "src_c" not in operands:
        ps.append(Param("src_c", MustBeNone(), keyword_only=True))
    ps += [Param("calc_func", IGNORED, keyword_only=True),
           Param("result_type_inferred", IGNORED, keyword_only=True),
           Param("rnd", RoundToNearest(), keyword_only=True),
           Param("ftz", IGNORED, keyword_only=True)]
    pair = Kind(Cat.TUPLE, elems=(k.dynamic("float"), k.dynamic("float")))
    args = ", ".join(["(x, x)"] * len(operands.split()))
    return Function(
        f"arch::{name}", tuple(ps), pair, len(operands.split()),
        example=f"y0, y1 = cute.arch.{name}({args})\nz = cute.arch.{name}({args}, rnd=\"rn\")")


#: `sem=`: the memory order of an atomic, load or store.
SEM = TagArg("sem", {
    "relaxed": "arch::sem_relaxed", "acquire": "arch::sem_acquire",
    "release": "arch::sem_release", "acq_rel": "arch::sem_acq_rel",
})  # fmt: skip
#: `scope=`: the threads the order is with. A cluster is one block on AMD, and gpu scope
#: includes it, so "cluster" is served by the (stronger) device scope.
SCOPE = TagArg("scope", {
    "cta": "arch::scope_cta", "gpu": "arch::scope_gpu", "sys": "arch::scope_sys",
    "cluster": "arch::scope_gpu",
})  # fmt: skip
_ORDERING = (Param("sem", SEM, keyword_only=True), Param("scope", SCOPE, keyword_only=True))


def _atomic(
    cxx: str, spec: str, result: Kind | None, required: int, example: str
) -> Function:
    """An atomic with the DSL's keyword-only `sem=` and `scope=` after `spec`."""
    ps = (*params(spec), *_ORDERING)
    return Function(cxx, ps, result, required, example=example)


#: The DSL's warp_redux_sync kinds -> the C++ tags (max/min of unsigned types compare unsigned).
REDUX_KINDS = {
    "add": "arch::redux_add", "and": "arch::redux_and", "or": "arch::redux_or",
    "xor": "arch::redux_xor", "max": "arch::redux_max", "min": "arch::redux_min",
    "umax": "arch::redux_umax", "umin": "arch::redux_umin", "fmax": "arch::redux_fmax",
    "fmin": "arch::redux_fmin",
}  # fmt: skip


def _warp_redux(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`warp_redux_sync(value, kind, mask_and_clamp=..., *, abs=None, nan=None)` ->
    `arch::warp_redux_sync<Kind, Abs, NaN>(value)` (the member mask is the whole warp)."""
    allowed = 3
    positional = [a for a in node.args if a.keyword is None]
    if len(positional) > allowed:
        raise lw.error(positional[allowed], "bad-arguments",
                       f"'{name}' takes 3 positional arguments; 'abs' and 'nan' are keyword-only")
    bound = lw.bind(node, ["value", "kind", "mask_and_clamp", "abs", "nan"], f"'{name}'", 2)
    kind = literal_value(lw, bound["kind"])
    if not isinstance(kind, str) or kind not in REDUX_KINDS:
        choices = ", ".join(f'"{k}"' for k in REDUX_KINDS)
        raise lw.error(bound["kind"], "bad-arguments", f"kind= must be one of {choices}")
    flags: list[c.CxxType | c.Expr] = [c.Type(REDUX_KINDS[kind])]
    for flag in ("abs", "nan"):
        arg = bound.get(flag)
        value = literal_value(lw, arg) if arg is not None else None
        if arg is not None and value is not None and not isinstance(value, bool):
            raise lw.error(arg, "bad-arguments", f"{flag}= must be a literal True or False")
        flags.append(c.Lit("true" if value else "false"))
    val = lw.lower(bound["value"])
    x = lw.materialize(val, False, bound["value"])
    call = c.Call(c.Id("arch::warp_redux_sync"), (x,), tuple(flags))
    kind_ = val.kind if val.kind.cat is Cat.DYNAMIC else k.dynamic()
    return Val(kind_, call, node=node)


def _load(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`load(ptr, dtype, *, sem=, scope=, <cache hints>)` -> `arch::load<T>(ptr, tags...)`."""
    ps = (
        *params("ptr:any dtype:type * level1_eviction_priority:ignored cop:ignored "
                "level_prefetch_size:ignored ss:ignored"),
        *_ORDERING,
    )
    parts = assemble(lw, node, "arch::load", ps, 2, f"'{name}'")
    dtype = parts.template_args[0] if parts.template_args else None
    ctype = dtype.name if isinstance(dtype, c.Type) and not dtype.args else None
    call = c.Call(c.Id(parts.cxx), tuple(parts.args), tuple(parts.template_args))
    return Val(k.dynamic(ctype), call, node=node)


def register(r: Registry) -> None:
    r.add(A + "WARP_SIZE", Constant(32, example="v = cute.arch.WARP_SIZE"))
    r.add(A + "FULL_MASK", Constant(0xFFFFFFFF, example="m = cute.arch.FULL_MASK"))
    r.add(A + "THREADS_PER_WARPGROUP", Constant(
        128, example="t = cute.arch.THREADS_PER_WARPGROUP"))
    r.add(A + "WARPS_PER_WARPGROUP", Constant(4, example="w = cute.arch.WARPS_PER_WARPGROUP"))
    for name in ("thread_idx", "block_idx", "block_dim", "grid_dim"):
        r.add(A + name, fn(
            f"arch::{name}", "", _TID, example=f"i0, i1, i2 = cute.arch.{name}()"))
    r.add(A + "lane_idx", fn("arch::lane_idx", "", _INT, example="v = cute.arch.lane_idx()"))
    r.add(A + "warp_idx", fn("arch::warp_idx", "", _INT, example="v = cute.arch.warp_idx()"))
    r.add(A + "cp_async_commit_group", fn(
        "arch::cp_async_commit_group", "", None, example="cute.arch.cp_async_commit_group()"))
    r.add(A + "cp_async_wait_group", fn(
        "arch::cp_async_wait_group", "n:any", None,
        example="cute.arch.cp_async_commit_group()\ncute.arch.cp_async_wait_group(0)"))
    r.add(A + "sync_threads", fn(
        "arch::sync_threads", "", None, example="cute.arch.sync_threads()"))
    r.add(A + "barrier", Function(
        "arch::sync_threads",
        (Param("barrier_id", WholeBlockBarrier("barrier_id", (0,)), keyword_only=True),
         Param("number_of_threads", WholeBlockBarrier("number_of_threads", ()),
               keyword_only=True)),
        None, 0, example="cute.arch.barrier()\ncute.arch.barrier(barrier_id=0)"))
    r.add(A + "sync_warp", fn(
        "arch::sync_warp", "mask:ignored", None, 0, example="cute.arch.sync_warp()"))
    for name in ("shuffle_sync", "shuffle_sync_bfly", "shuffle_sync_down"):
        r.add(A + name, fn(
            f"arch::{name}", _SHUFFLE, FIRST, 2,
            example=f"y = cute.arch.{name}(x, 1)"))
    # The DSL's (4.8.1) default mask_and_clamp for `up` is 0, a whole-warp up shuffle
    # (its PTX: `shfl.sync.up.b32 d, a, b, 0, -1`); the other modes default to 31. Spelled out
    # so that the generated code says what runs.
    r.add(A + "shuffle_sync_up", fn(
        "arch::shuffle_sync_up", "value:value offset:value mask:ignored * "
        "mask_and_clamp:mask_and_clamp", FIRST, 2, defaults={"mask_and_clamp": "0"},
        example="y = cute.arch.shuffle_sync_up(x, offset=1)"))
    # Votes, masks and reductions over the 32 lanes of the DSL's warp.
    r.add(A + "vote_ballot_sync", fn(
        "arch::vote_ballot", "pred:value mask:ignored", _INT, 1,
        example="v = cute.arch.vote_ballot_sync(tidx > 3)"))
    r.add(A + "vote_any_sync", fn(
        "arch::vote_any", "pred:value mask:ignored", _BOOL, 1,
        example="p = cute.arch.vote_any_sync(tidx > 3)"))
    r.add(A + "vote_all_sync", fn(
        "arch::vote_all", "pred:value mask:ignored", _BOOL, 1,
        example="p = cute.arch.vote_all_sync(tidx > 3)"))
    r.add(A + "vote_uni_sync", fn(
        "arch::vote_uni", "pred:value mask:ignored", _BOOL, 1,
        example="p = cute.arch.vote_uni_sync(tidx > 3)"))
    for name in ("lanemask_eq", "lanemask_lt", "lanemask_le", "lanemask_gt", "lanemask_ge",
                 "activemask"):
        r.add(A + name, fn(f"arch::{name}", "", _U32, example=f"m = cute.arch.{name}()"))
    r.add(A + "warpsize", fn("arch::warpsize", "", _I32, example="w = cute.arch.warpsize()"))
    r.add(A + "warp_redux_sync", Custom(
        call=_warp_redux,
        example='s = cute.arch.warp_redux_sync(n, "add")\n'
        'm = cute.arch.warp_redux_sync(x, "fmax", abs=True, nan=True)'))
    # Shared memory: a static array per call site, and the base of the dynamic allocation.
    r.add(A + "alloc_smem", fn(
        "arch::alloc_smem", "element_type:type_c size_in_elems:any alignment:any", k.VALUE, 2,
        per_site=True, example="p = cute.arch.alloc_smem(cutlass.Float32, 64)"))
    r.add(A + "get_dyn_smem", fn(
        "arch::get_dyn_smem", "element_type:type_c alignment:any", k.VALUE, 1,
        example="p = cute.arch.get_dyn_smem(cutlass.Float32)"))
    for name in ("dynamic_smem_size", "get_dyn_smem_size"):
        r.add(A + name, fn(
            "arch::dynamic_smem_size", "", _I32, example=f"b = cute.arch.{name}()"))
    # Atomics: the old value. sem= / scope= become tags (bbx/intrinsics/atomic.hpp).
    for name in ("atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or",
                 "atomic_xor", "atomic_exch"):
        value = "1.0" if name in ("atomic_add", "atomic_max", "atomic_min") else "n"
        target = "gA.iterator" if value == "1.0" else "smem.allocate_array(cutlass.Int32, 4)"
        r.add(A + name, _atomic(
            f"arch::{name}", "ptr:any val:value", _INT, 2,
            example=f"old = cute.arch.{name}({target}, {value})\n"
            f'old2 = cute.arch.{name}({target}, {value}, sem="acq_rel", scope="cta")'))
    r.add(A + "atomic_cas", _atomic(
        "arch::atomic_cas", "ptr:any * cmp:value val:value", _INT, 3,
        example="old = cute.arch.atomic_cas(gA.iterator, cmp=1.0, val=2.0)\n"
        'old2 = cute.arch.atomic_cas(gA.iterator, cmp=1.0, val=2.0, sem="acquire")'))
    for name in ("atomic_fmax", "atomic_fmin"):
        r.add(A + name, _atomic(
            f"arch::{name}", "ptr:any val:value * sign_bit:ignored", k.dynamic("float"), 2,
            example=f"old = cute.arch.{name}(gA.iterator, x)\n"
            f'old2 = cute.arch.{name}(gA.iterator, x, sem="relaxed", scope="gpu")'))
    r.add(A + "atomic_max_float32", fn(
        "arch::atomic_fmax", "ptr:any value:value * positive_only:ignored", k.dynamic("float"),
        2, example="old = cute.arch.atomic_max_float32(gA.iterator, x)"))
    # Explicit loads and stores (cache hints dropped), fences.
    r.add(A + "load", Custom(
        call=_load, example='v = cute.arch.load(gA.iterator, cutlass.Float32)\n'
        'w = cute.arch.load(gA.iterator, cutlass.Int32, sem="acquire", scope="gpu")'))
    r.add(A + "store", _atomic(
        "arch::store", "ptr:any val:value * level1_eviction_priority:ignored cop:ignored "
        "ss:ignored", None, 2,
        example='cute.arch.store(gA.iterator, x)\n'
        'cute.arch.store(gA.iterator, x, sem="release", scope="sys")'))
    for scope in ("cta", "gpu", "sys"):
        r.add(A + f"fence_acq_rel_{scope}", fn(
            f"arch::fence_acq_rel_{scope}", "", None,
            example=f"cute.arch.fence_acq_rel_{scope}()"))
    r.add(A + "clock", fn("arch::clock", "", _I32, example="t = cute.arch.clock()"))
    r.add(A + "clock64", fn("arch::clock64", "", k.dynamic("int64_t"),
                            example="t = cute.arch.clock64()"))
    r.add(A + "make_warp_uniform", fn(
        "arch::make_warp_uniform", "value:value", FIRST,
        example="v = cute.arch.make_warp_uniform(n)"))
    # Integer bit operations (PTX semantics; bbx/intrinsics/bits.hpp).
    for name, result in (("popc", FIRST), ("clz", _U32), ("brev", FIRST), ("bfind", _INT)):
        r.add(A + name, fn(f"arch::{name}", "value:value", result,
                           example=f"m = cute.arch.{name}(n)"))
    r.add(A + "bfe", fn("arch::bfe", "value:value start:value length:value", FIRST,
                        example="m = cute.arch.bfe(n, 3, 5)"))
    r.add(A + "bfi", fn(
        "arch::bfi", "replacement:value value:value start:value length:value", FIRST,
        example="m = cute.arch.bfi(n, n, start=4, length=8)"))
    r.add(A + "mul_hi", fn("arch::mul_hi", "a:value b:value", FIRST,
                           example="m = cute.arch.mul_hi(n, n)"))
    r.add(A + "mul_wide", fn("arch::mul_wide", "a:value b:value", _INT,
                             example="m = cute.arch.mul_wide(n, n)"))
    # Packed pairs of Float32 (v_pk_add/mul/fma_f32 on AMD).
    for op in ("add", "sub", "mul"):
        r.add(A + f"{op}_packed_f32x2", _packed(f"{op}_packed_f32x2", "src_a src_b"))
    r.add(A + "fma_packed_f32x2", _packed("fma_packed_f32x2", "src_a src_b src_c"))
    # Fast scalar math.
    r.add(A + "fmax", fn("arch::fmax", "a:value b:value", FIRST,
                         example="y = cute.arch.fmax(x, x)"))
    r.add(A + "fmin", fn("arch::fmin", "a:value b:value", FIRST,
                         example="y = cute.arch.fmin(x, x)"))
    r.add(A + "rcp_approx", fn("rcp_approx", "a:value", FIRST,
                               example="y = cute.arch.rcp_approx(x)"))
    r.add(A + "exp2", fn("fast_exp2", "a:value", FIRST, example="y = cute.arch.exp2(x)"))
    r.add(A + "exp", fn("fast_exp", "a:value", FIRST, example="y = cute.arch.exp(x)"))
