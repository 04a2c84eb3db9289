"""`cutlass.experimental.primitives`: the DSL's low-level, PTX-shaped API (`from
cutlass.experimental import primitives as prims`).

Supported (C++: bbx/experimental/*.hpp, and the platform's shuffles, votes, warp reductions,
atomics and fences): warp shuffles with their `Shfl` modes and PTX's validity predicate, votes,
`redux_sync`, `match_sync`, `bar_warp_sync`; the named block barriers `barrier_cta_sync` /
`barrier_cta_arrive` / `barrier_cta_red` (and `_aligned`, and `barrier`); memory reductions `red`
and `atomicrmw`; `fence_acq_rel`, `memory_barrier`; `fmin`, `fabs`; `print_runtime`; and the
enumerations these take (`prims.Shfl.IDX` is the DSL's value, `"idx"`). A DSL warp is 32 lanes
(half an AMD wavefront); member masks are the whole warp.

The module's Hopper/Blackwell features are NVIDIA-only by the rules of `RULES` (each naming the
feature); every other name of the module is "not yet supported".
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from .entry import Custom, Entry, Marker
from .lowerer import Lowerer
from .nvidia import (
    BULK,
    CLC,
    CLUSTER,
    ELECT,
    MBARRIER,
    MLIR,
    PROXY,
    SETMAXNREG,
    TCGEN05,
    TMA,
    TMEM,
    WGMMA,
)
from .registry import Registry
from .roles import literal_value

P = "cutlass.experimental.primitives."
#: How examples spell the module (the example module imports only `cutlass`).
E = "cutlass.experimental.primitives."

INLINE_PTX = "inline PTX assembly"
SREG = "PTX hardware special registers (read_sreg_hw)"
PROFILING = "PTX performance-monitor events and trace markers"
GRIDDEP = "programmatic dependent launch (griddepcontrol)"
FRAGMENTS = (
    "warp-level MMA and ldmatrix/stmatrix on registers in NVIDIA's fragment layouts (bbx maps "
    "the DSL's MMA and copy atoms onto the target's instead)"
)
CVTA = "PTX state-space address conversion (cvta)"

#: NVIDIA-only names of the module, by feature (a prefix ending in `*` or a whole name).
RULES: tuple[tuple[str, str], ...] = (
    *((P + n, TCGEN05) for n in (
        "tcgen05_*", "Tcgen05*", "S2TCopyMode", "TCBarParam", "MMACtaCount", "CTAGroup")),
    *((P + n, TMEM) for n in ("TmemAddr", "TmemLayout", "make_tmem_ptr*")),
    *((P + n, WGMMA) for n in ("wgmma_*", "Wgmma*", "WGMMA*")),
    *((P + n, MBARRIER) for n in (
        "mbarrier_*", "MBarrier*", "fence_mbarrier_init", "cp_async_mbarrier_arrive")),
    *((P + n, BULK) for n in (
        "cp_async_bulk_*", "cp_reduce_async_bulk_*", "st_bulk", "CpReduceOp", "CpReduceType")),
    *((P + n, TMA) for n in (
        "tensormap_*", "prefetch_tensormap", "Tensormap*", "TMALoadMode", "TMAStoreMode",
        "TMARedux")),
    *((P + n, CLUSTER) for n in (
        "barrier_cluster_*", "cluster_ctarank", "mapa", "fence_sc_cluster", "fence_sync_restrict",
        "fence_proxy_sync_restrict", "fence_proxy_async_acquire_sync_restrict",
        "fence_proxy_async_release_sync_restrict")),
    *((P + n, CLC) for n in ("clusterlaunchcontrol_*", "ClusterLaunchControlQueryType")),
    (P + "elect_sync", ELECT),
    *((P + n, SETMAXNREG) for n in ("setmaxregister", "SetMaxRegisterAction")),
    *((P + n, PROXY) for n in ("fence_proxy", "fence_proxy_acquire", "fence_proxy_release",
                               "Proxy")),
    *((P + n, INLINE_PTX) for n in ("inline_ptx", "inline_ptx_hl", "ptx_add_comment")),
    *((P + n, MLIR) for n in ("dialect", "auto")),
    (P + "read_sreg_hw", SREG),
    *((P + n, PROFILING) for n in ("pmevent", "trace_mark")),
    *((P + n, GRIDDEP) for n in ("griddepcontrol", "GridDepAction")),
    *((P + n, FRAGMENTS) for n in (
        "mma_sync", "mma_sp_sync", "mma_block_scale", "mma_sp_block_scale", "mma_smem_desc",
        "wmma_*", "ldmatrix", "stmatrix", "MMA*", "LdStMatrixEltType", "LoadShape",
        "LoadSrcFormat", "StoreShape", "SparsityFormat", "ScaleVecSize", "BlockScaleFormat",
        "MxScaleFormat")),
    *((P + n, CVTA) for n in ("cvta_to", "CvtaSpace", "CvtaSize", "StateSpace",
                              "NVVMMemorySpace")),
)  # fmt: skip

_BOOL = k.dynamic("bool")
_I32 = k.dynamic("int32_t")


# -- enumerations ------------------------------------------------------------------------------

#: The module's enumerations that supported functions take; their members are the DSL's values.
ENUMS = ("Shfl", "VoteSync", "ReductionKind", "BarrierRedux", "ReductionOp", "ReductionType",
         "MemOrder", "MemScope", "SharedSpace", "AtomicOp", "MatchSync")  # fmt: skip


class EnumMember(Entry):
    """A member of one of the module's enumerations: its value (a str or an int), as in the
    DSL's StrEnum / IntEnum (`prims.Shfl.IDX == "idx"`)."""

    def __init__(self, values: Mapping[str, object], example: str) -> None:
        self.values = dict(values)
        self.example = example

    def lower_value(self, lw: Lowerer, node: cst.BaseExpression, name: str) -> Val:
        return Val(k.literal(self.values[name.rpartition(".")[2]]), node=node)


def enum_values(r: Registry, enum: str) -> dict[str, object]:
    """`{member: value}` of an enumeration of the module, from experimental_names.txt."""
    public = r.public[P + enum]
    return {name: ast.literal_eval(value) for name, value in public.values}


# -- argument helpers --------------------------------------------------------------------------


def choice(
    lw: Lowerer, node: cst.BaseExpression, param: str, choices: Mapping[Any, str], enum: str
) -> str:
    """The C++ spelling of a static enumeration argument (a member or its value)."""
    value = literal_value(lw, node)
    if isinstance(value, bool) or value not in choices:
        names = ", ".join(f"{enum}.{str(v).upper()}" if isinstance(v, str) else str(v)
                          for v in choices)
        raise lw.error(node, "bad-arguments",
                       f"{param}= must be a compile-time {enum} member, one of {names}",
                       f"e.g. prims.{enum}.{_first_member(choices)}")
    return choices[value]


def _first_member(choices: Mapping[object, str]) -> str:
    first = next(iter(choices))
    return first.upper() if isinstance(first, str) else str(first)


def flag(lw: Lowerer, bound: Mapping[str, cst.BaseExpression], param: str) -> bool:
    """A keyword given as a literal True / False / None (None and absent: False)."""
    node = bound.get(param)
    if node is None or (isinstance(node, cst.Name) and node.value == "None"):
        return False
    value = literal_value(lw, node)
    if not isinstance(value, bool):
        raise lw.error(node, "bad-arguments", f"{param}= must be a literal True or False",
                       "the choice is made when the code is translated")
    return value


def is_none(node: cst.BaseExpression | None) -> bool:
    return node is None or (isinstance(node, cst.Name) and node.value == "None")


def barrier_id(lw: Lowerer, node: cst.BaseExpression) -> c.Expr:
    value = literal_value(lw, node)
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= 15:
        raise lw.error(node, "bad-arguments", f"barrier_id={value} is not in [0, 15]",
                       "a block has sixteen named barriers")
    return lw.value(node)


def call(cxx: str, args: tuple[c.Expr, ...], targs: tuple[c.CxxType | c.Expr, ...] = ()) -> c.Expr:
    return c.Call(c.Id(cxx), args, targs)


def tag(cxx: str) -> c.CxxType:
    return c.Type(cxx)


def bind(lw: Lowerer, node: cst.Call, name: str, params: str, required: int,
         positional: int | None = None) -> dict[str, cst.BaseExpression]:
    """Bind arguments; parameters after the first `positional` are keyword-only."""
    names = params.split()
    limit = len(names) if positional is None else positional
    given = [a for a in node.args if a.keyword is None and not a.star]
    if len(given) > limit:
        raise lw.error(given[limit], "bad-arguments",
                       f"'{name}' takes {limit} positional argument{'s' if limit != 1 else ''}; "
                       f"'{names[limit]}' is keyword-only", f"pass it by name: {names[limit]}=...")
    bound = lw.bind(node, names, f"'{name}'", required)
    for ignored in ("loc", "ip"):
        bound.pop(ignored, None)
    return bound


# -- warp ----------------------------------------------------------------------------------------

SHFL_SUFFIX = {"idx": "", "up": "_up", "down": "_down", "bfly": "_bfly"}


def _shfl_sync(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`shfl_sync(thread_mask, val, offset, mask_and_clamp, kind, *,
    return_value_and_is_valid=None)` -> `arch::shuffle_sync_<mode>(val, offset,
    arch::mask_and_clamp(c))`, or `experimental::shfl_sync_and_valid<...>` for (value, valid)."""
    b = bind(lw, node, name, "thread_mask val offset mask_and_clamp kind "
             "return_value_and_is_valid loc ip", 5, 5)
    mode = choice(lw, b["kind"], "kind", {m: m for m in SHFL_SUFFIX}, "Shfl")
    val = lw.lower(b["val"])
    args = (lw.materialize(val, False, b["val"]), lw.value(b["offset"]),
            call("arch::mask_and_clamp", (lw.value(b["mask_and_clamp"]),)))
    kind = val.kind if val.kind.cat is Cat.DYNAMIC else k.dynamic()
    if flag(lw, b, "return_value_and_is_valid"):
        expr = call("experimental::shfl_sync_and_valid", args, (tag(f"experimental::shfl_{mode}"),))
        return Val(Kind(Cat.TUPLE, elems=(kind, _BOOL)), expr, node=node)
    return Val(kind, call(f"arch::shuffle_sync{SHFL_SUFFIX[mode]}", args), node=node)


#: VoteSync -> (the C++ function, the C++ type of its result).
VOTE = {"any": ("arch::vote_any", "bool"), "all": ("arch::vote_all", "bool"),
        "uni": ("arch::vote_uni", "bool"), "ballot": ("experimental::vote_sync_ballot", "int32_t")}


def _vote_sync(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`vote_sync(mask, pred, kind)`: any / all / uni -> Boolean, ballot -> Int32."""
    b = bind(lw, node, name, "mask pred kind loc ip", 3, 3)
    kind = choice(lw, b["kind"], "kind", {m: m for m in VOTE}, "VoteSync")
    cxx, result = VOTE[kind]
    return Val(k.dynamic(result), call(cxx, (lw.value(b["pred"]),)), node=node)


#: ReductionKind (an IntEnum) -> the C++ enumerator of experimental::reduction_kind.
REDUX = {1: "add", 2: "and_", 3: "max", 4: "min", 5: "or_", 6: "umax", 7: "umin", 8: "xor_",
          9: "fmin", 10: "fmax"}


def _redux_sync(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`redux_sync(val, kind, mask_and_clamp, *, abs=None, nan=None)` ->
    `experimental::redux_sync<kind, Abs, NaN>(val)` over the 32 lanes of the warp."""
    b = bind(lw, node, name, "val kind mask_and_clamp abs nan loc ip", 3, 3)
    kind = lw.lower(b["kind"])
    if kind.kind.cat is Cat.LITERAL:
        which: c.CxxType | c.Expr = c.Lit(
            "experimental::reduction_kind::" + choice(lw, b["kind"], "kind", REDUX,
                                                     "ReductionKind"))
    else:  # a Constexpr argument: the DSL's integer, checked by the C++ mapping
        which = call("experimental::reduction_kind_of", (lw.materialize(kind, False, b["kind"]),))
    flags = (c.Lit("true" if flag(lw, b, "abs") else "false"),
             c.Lit("true" if flag(lw, b, "nan") else "false"))
    val = lw.lower(b["val"])
    result = val.kind if val.kind.cat is Cat.DYNAMIC else k.dynamic()
    expr = call("experimental::redux_sync", (lw.materialize(val, False, b["val"]),),
                (which, *flags))
    return Val(result, expr, node=node)


def _match_sync(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`match_sync(thread_mask, val, kind)`: ANY -> Int32 mask, ALL -> (Int32 mask, Boolean)."""
    b = bind(lw, node, name, "thread_mask val kind loc ip", 3, 3)
    kind = choice(lw, b["kind"], "kind", {"any": "any", "all": "all"}, "MatchSync")
    expr = call(f"experimental::match_{kind}_sync", (lw.value(b["val"]),))
    result = _I32 if kind == "any" else Kind(Cat.TUPLE, elems=(_I32, _BOOL))
    return Val(result, expr, node=node)


def _bar_warp_sync(lw: Lowerer, node: cst.Call, name: str) -> Val:
    b = bind(lw, node, name, "mask loc ip", 1, 1)
    return Val(k.VALUE, call("experimental::bar_warp_sync", (lw.value(b["mask"]),)), node=node)


# -- block barriers ------------------------------------------------------------------------------


def _barrier_cta_sync(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`barrier_cta_sync(barrier_id=0, *, thread_count=None)` (and `_aligned`)."""
    b = bind(lw, node, name, "barrier_id thread_count loc ip", 0, 1)
    args = [barrier_id(lw, b["barrier_id"]) if "barrier_id" in b else c.Lit("0")]
    if not is_none(b.get("thread_count")):
        args.append(lw.value(b["thread_count"]))
    return Val(k.VALUE, call("experimental::barrier_cta_sync", tuple(args)), node=node)


def _barrier_cta_arrive(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`barrier_cta_arrive(barrier_id, thread_count)` (and `_aligned`)."""
    b = bind(lw, node, name, "barrier_id thread_count loc ip", 2, 2)
    args = (barrier_id(lw, b["barrier_id"]), lw.value(b["thread_count"]))
    return Val(k.VALUE, call("experimental::barrier_cta_arrive", args), node=node)


#: BarrierRedux -> (the C++ tag, the C++ type of the result).
BAR_RED = {"popc": ("experimental::bar_red_popc", "int32_t"),
           "and": ("experimental::bar_red_and", "bool"),
           "or": ("experimental::bar_red_or", "bool")}


def _barrier_cta_red(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`barrier_cta_red(pred, barrier_id, kind, *, thread_count=None)` (and `_aligned`):
    popc -> Int32, and / or -> Boolean."""
    b = bind(lw, node, name, "pred barrier_id kind thread_count loc ip", 3, 3)
    kind = choice(lw, b["kind"], "kind", {m: m for m in BAR_RED}, "BarrierRedux")
    op, result = BAR_RED[kind]
    args = [lw.value(b["pred"]), barrier_id(lw, b["barrier_id"])]
    if not is_none(b.get("thread_count")):
        args.append(lw.value(b["thread_count"]))
    expr = call("experimental::barrier_cta_red", tuple(args), (tag(op),))
    return Val(k.dynamic(result), expr, node=node)


def _barrier(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`barrier(*, barrier_id=None, number_of_threads=None)`: the whole block, or a named
    barrier with a thread count."""
    b = bind(lw, node, name, "barrier_id number_of_threads loc ip", 0, 0)
    ident = None if is_none(b.get("barrier_id")) else b["barrier_id"]
    count = None if is_none(b.get("number_of_threads")) else b["number_of_threads"]
    args = [barrier_id(lw, ident) if ident is not None else c.Lit("0")]
    if count is not None:
        args.append(lw.value(count))
    return Val(k.VALUE, call("experimental::barrier_cta_sync", tuple(args)), node=node)


# -- memory ---------------------------------------------------------------------------------------

#: ReductionType -> the C++ type of the reduction.
RED_TYPES = {"b32": "uint32_t", "b64": "uint64_t", "u32": "uint32_t", "u64": "uint64_t",
              "s32": "int32_t", "s64": "int64_t", "f32": "float", "f64": "double",
              "f16": "half_t", "bf16": "bfloat16_t", "f16x2": "", "bf16x2": ""}
#: PTX red: the types each operation takes (scalar forms).
RED_OPS = {
    "add": ("u32", "s32", "u64", "f32", "f64", "f16", "bf16"),
    "and": ("b32", "b64"), "or": ("b32", "b64"), "xor": ("b32", "b64"),
    "min": ("u32", "s32", "u64", "s64"), "max": ("u32", "s32", "u64", "s64"),
    "inc": ("u32",), "dec": ("u32",),
}  # fmt: skip
SEM = {"weak": "arch::sem_relaxed", "relaxed": "arch::sem_relaxed",
        "acquire": "arch::sem_acquire", "release": "arch::sem_release",
        "acq_rel": "arch::sem_acq_rel"}
#: MemScope -> the scope tag. A cluster is one block on AMD, which the device scope covers.
SCOPE = {"cta": "arch::scope_cta", "cluster": "arch::scope_gpu", "gpu": "arch::scope_gpu",
          "sys": "arch::scope_sys"}


def _ordering(
    lw: Lowerer, bound: Mapping[str, cst.BaseExpression], sem_param: str, scope_param: str,
    sems: tuple[str, ...],
) -> tuple[c.CxxType, c.CxxType]:
    sem = "arch::sem_relaxed"
    if not is_none(bound.get(sem_param)):
        sem = choice(lw, bound[sem_param], sem_param, {s: SEM[s] for s in sems}, "MemOrder")
    scope = "arch::scope_gpu"
    if not is_none(bound.get(scope_param)):
        scope = choice(lw, bound[scope_param], scope_param, SCOPE, "MemScope")
    return tag(sem), tag(scope)


def _shared_space(lw: Lowerer, node: cst.BaseExpression | None, name: str) -> None:
    """`shared_space=` / `space=`: shared::cta is the pointer's own space; shared::cluster is
    another block's shared memory (NVIDIA-only)."""
    if is_none(node):
        return
    assert node is not None
    if literal_value(lw, node) != 0:
        from .entry import NvidiaOnly

        raise NvidiaOnly(CLUSTER).error(lw, node, f"{name}(SharedSpace.shared_cluster)")


def red_form_problem(op: str, rtype: str) -> tuple[str, str, str] | None:
    """Why PTX `red.<op>.<rtype>` is refused (code, what, hint), or None."""
    if not RED_TYPES[rtype]:
        return ("not-yet-supported", f"red on packed {rtype} vectors is not yet supported by bbx",
                "reduce the two halves as scalars")
    if rtype not in RED_OPS[op]:
        allowed = ", ".join(t.upper() for t in RED_OPS[op])
        return ("bad-arguments", f"PTX red.{op} has no .{rtype} form (ReductionType {allowed})",
                "the DSL's red is PTX's instruction: use a type it takes, or atomicrmw")
    return None


def _red(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`red(op, type_, a, b, *, mem_order=None, mem_scope=None, shared_space=None,
    cache_hint=None)` -> `experimental::red<Op, T, Sem, Scope>(a, b)`."""
    b = bind(lw, node, name, "op type_ a b mem_order mem_scope shared_space cache_hint loc ip",
             4, 4)
    op = choice(lw, b["op"], "op", {o: o for o in RED_OPS}, "ReductionOp")
    rtype = choice(lw, b["type_"], "type_", {t: t for t in RED_TYPES}, "ReductionType")
    problem = red_form_problem(op, rtype)
    if problem is not None:
        raise lw.error(b["type_"], *problem)
    _shared_space(lw, b.get("shared_space"), name)
    sem, scope = _ordering(lw, b, "mem_order", "mem_scope", ("weak", "relaxed", "release"))
    args = (lw.value(b["a"]), lw.value(b["b"]))
    targs = (tag(f"experimental::red_{op}"), tag(RED_TYPES[rtype]), sem, scope)
    return Val(k.VALUE, call("experimental::red", args, targs), node=node)


ATOMIC_OPS = ("and", "or", "xor", "cas", "exch", "add", "inc", "dec", "min", "max")


def _atomicrmw(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`atomicrmw(op, ptr, a, *, b=None, mem_order=None, syncscope=None, space=None)`: the old
    value; CAS compares with `a` and stores `b`."""
    b = bind(lw, node, name, "op ptr a b mem_order syncscope space results loc ip", 3, 3)
    op = choice(lw, b["op"], "op", {o: o for o in ATOMIC_OPS}, "AtomicOp")
    if not is_none(b.get("results")):
        from .entry import NvidiaOnly

        raise NvidiaOnly(MLIR).error(lw, b["results"], f"{name}(results=...)")
    _shared_space(lw, b.get("space"), name)
    sem, scope = _ordering(lw, b, "mem_order", "syncscope",
                           ("weak", "relaxed", "acquire", "release", "acq_rel"))
    ptr = lw.value(b["ptr"])
    if op == "cas":
        if is_none(b.get("b")):
            raise lw.error(node, "bad-arguments", "atomicrmw(AtomicOp.CAS, ...) needs b=",
                           "a is the compared value, b= the value stored")
        args = (ptr, lw.value(b["a"]), lw.value(b["b"]))
        return Val(k.dynamic(), call("experimental::atomicrmw_cas", args, (sem, scope)),
                   node=node)
    if not is_none(b.get("b")):
        raise lw.error(b["b"], "bad-arguments", f"b= is the new value of AtomicOp.CAS only, not "
                       f"of AtomicOp.{op.upper()}")
    cxx_op = "experimental::atomic_exch" if op == "exch" else f"experimental::red_{op}"
    expr = call("experimental::atomicrmw", (ptr, lw.value(b["a"])), (tag(cxx_op), sem, scope))
    return Val(k.dynamic(), expr, node=node)


def _fence_acq_rel(lw: Lowerer, node: cst.Call, name: str) -> Val:
    b = bind(lw, node, name, "scope loc ip", 1, 1)
    scope = choice(lw, b["scope"], "scope", SCOPE, "MemScope").rpartition("_")[2]
    return Val(k.VALUE, call(f"arch::fence_acq_rel_{scope}", ()), node=node)


def _memory_barrier(lw: Lowerer, node: cst.Call, name: str) -> Val:
    b = bind(lw, node, name, "scope loc ip", 1, 1)
    scope = choice(lw, b["scope"], "scope", SCOPE, "MemScope")
    return Val(k.VALUE, call("experimental::memory_barrier", (), (tag(scope),)), node=node)


# -- math and printing --------------------------------------------------------------------------


def _fmin(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`fmin(a, b, *, c=None, ftz=None, nan=None, abs=None)` (NVVM fmin, PTX min.f32)."""
    b = bind(lw, node, name, "a b c ftz nan abs results loc ip", 2, 2)
    first = lw.lower(b["a"])
    args = [lw.materialize(first, False, b["a"]), lw.value(b["b"])]
    if not is_none(b.get("c")):
        if flag(lw, b, "abs"):
            raise lw.error(b["abs"], "bad-arguments", "abs=True takes two operands, not c=",
                           "PTX min.xorsign.abs has no three-operand form")
        args.append(lw.value(b["c"]))
    flags = tuple(c.Lit("true" if flag(lw, b, f) else "false") for f in ("nan", "abs", "ftz"))
    result = first.kind if first.kind.cat is Cat.DYNAMIC else k.dynamic("float")
    return Val(result, call("experimental::fmin", tuple(args), flags), node=node)


def _fabs(lw: Lowerer, node: cst.Call, name: str) -> Val:
    b = bind(lw, node, name, "value ftz results loc ip", 1, 1)
    first = lw.lower(b["value"])
    ftz = c.Lit("true" if flag(lw, b, "ftz") else "false")
    result = first.kind if first.kind.cat is Cat.DYNAMIC else k.dynamic("float")
    expr = call("experimental::fabs", (lw.materialize(first, False, b["value"]),), (ftz,))
    return Val(result, expr, node=node)


def _print_runtime(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`print_runtime(fmt, *args)`: `{}` placeholders filled by the arguments' printf forms."""
    from ..cxx.printer import string_literal

    positional = [a for a in node.args if a.keyword is None]
    fmt = None
    if positional and isinstance(positional[0].value, cst.BaseString):
        value = positional[0].value
        fmt = value.evaluated_value if isinstance(
            value, (cst.SimpleString, cst.ConcatenatedString)) else None
    elif positional:
        literal = literal_value(lw, positional[0].value)
        fmt = literal if isinstance(literal, str) else None
    if not isinstance(fmt, str):
        where = positional[0].value if positional else node
        raise lw.error(where, "bad-arguments", "print_runtime needs a literal format string first",
                       'e.g. prims.print_runtime("x = {}\\n", x)')
    args: list[c.Expr] = [c.Lit(string_literal(fmt))]
    args += [lw.value(a.value) for a in positional[1:]]
    return Val(k.VALUE, call("experimental::print_runtime", tuple(args)), node=node)


# -- registration ---------------------------------------------------------------------------------


def _add(r: Registry, names: tuple[str, ...],
         lower: Callable[[Lowerer, cst.Call, str], Val], example: str) -> None:
    r.add([P + n for n in names], Custom(call=lower, example=example))


def register(r: Registry) -> None:
    for pattern, what in RULES:
        r.nvidia_only(pattern, what)
    for enum in ENUMS:
        values = enum_values(r, enum)
        first = next(iter(values))
        r.add([f"{P}{enum}.{m}" for m in values], EnumMember(
            values, example=f"v = {E}{enum}.{first}"))
        r.add(P + enum, Marker(f"as `{enum}.<member>`", example=f"w = {E}{enum}.{first}"))
    _add(r, ("shfl_sync",), _shfl_sync,
         f"y = {E}shfl_sync(0xFFFFFFFF, x, 1, 0x1F, {E}Shfl.BFLY)\n"
         f"z = {E}shfl_sync(0xFFFFFFFF, n, 2, 0x1F, {E}Shfl.IDX)\n"
         f"u, ok = {E}shfl_sync(0xFFFFFFFF, x, 1, 0, {E}Shfl.UP, return_value_and_is_valid=True)")
    _add(r, ("vote_sync",), _vote_sync,
         f"a = {E}vote_sync(0xFFFFFFFF, tidx > 3, {E}VoteSync.ANY)\n"
         f"m = {E}vote_sync(0xFFFFFFFF, tidx > 3, {E}VoteSync.BALLOT)")
    _add(r, ("redux_sync",), _redux_sync,
         f"s = {E}redux_sync(n, {E}ReductionKind.ADD, 0xFFFFFFFF)\n"
         f"f = {E}redux_sync(x, {E}ReductionKind.FMAX, 0xFFFFFFFF, abs=True, nan=True)")
    _add(r, ("match_sync",), _match_sync,
         f"m = {E}match_sync(0xFFFFFFFF, n, {E}MatchSync.ANY)\n"
         f"a, same = {E}match_sync(0xFFFFFFFF, n, {E}MatchSync.ALL)")
    _add(r, ("bar_warp_sync",), _bar_warp_sync, f"{E}bar_warp_sync(0xFFFFFFFF)")
    _add(r, ("barrier_cta_sync", "barrier_cta_sync_aligned"), _barrier_cta_sync,
         f"{E}barrier_cta_sync()\n{E}barrier_cta_sync(1, thread_count=32)")
    _add(r, ("barrier_cta_arrive", "barrier_cta_arrive_aligned"), _barrier_cta_arrive,
         f"{E}barrier_cta_arrive(barrier_id=2, thread_count=32)")
    _add(r, ("barrier_cta_red", "barrier_cta_red_aligned"), _barrier_cta_red,
         f"c = {E}barrier_cta_red(tidx > 3, 0, {E}BarrierRedux.POPC)\n"
         f'p = {E}barrier_cta_red(tidx > 3, barrier_id=3, kind="and", thread_count=32)')
    _add(r, ("barrier",), _barrier,
         f"{E}barrier()\n{E}barrier(barrier_id=4, number_of_threads=32)")
    _add(r, ("red",), _red,
         f"{E}red({E}ReductionOp.ADD, {E}ReductionType.F32, gA.iterator, x)\n"
         f"{E}red({E}ReductionOp.MAX, {E}ReductionType.S32, "
         f"smem.allocate_array(cutlass.Int32, 4), n, mem_order={E}MemOrder.RELAXED, "
         f"mem_scope={E}MemScope.CTA)")
    _add(r, ("atomicrmw",), _atomicrmw,
         f"old = {E}atomicrmw({E}AtomicOp.ADD, gA.iterator, x)\n"
         f"p = smem.allocate_array(cutlass.Int32, 4)\n"
         f"prev = {E}atomicrmw({E}AtomicOp.CAS, p, 0, b=n, mem_order={E}MemOrder.ACQ_REL, "
         f"syncscope={E}MemScope.CTA)")
    _add(r, ("fence_acq_rel",), _fence_acq_rel, f"{E}fence_acq_rel({E}MemScope.GPU)")
    _add(r, ("memory_barrier",), _memory_barrier, f"{E}memory_barrier({E}MemScope.CTA)")
    _add(r, ("fmin",), _fmin,
         f"y = {E}fmin(x, x)\nz = {E}fmin(x, x, c=x, nan=True)")
    _add(r, ("fabs",), _fabs, f"y = {E}fabs(x)")
    _add(r, ("print_runtime",), _print_runtime, f'{E}print_runtime("x = {{}}, n = {{}}\\n", x, n)')
