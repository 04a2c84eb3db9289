"""The table of supported CuTe-DSL functions and how each maps onto the bbx header library.

Adding a DSL function is one entry here; `bbx.lower_call` does the argument binding.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import kinds as k
from .kinds import Cat, Kind

# Argument roles.
ANY = "any"  # translated normally; int literals are static (`_4{}`), tuples `make_tuple`
SHAPE = "shape"  # tuples -> make_shape
STRIDE = "stride"  # tuples -> make_stride
COORD = "coord"  # tuples -> make_coord, None -> _
TILE = "tile"  # tuples -> make_tile
TUPLE = "tuple"  # tuples -> make_tuple
VALUE = "value"  # run-time value: int literals stay plain (`4`)
TYPE_ARG = "type"  # a dtype, becomes a template argument
TYPE_C = "type_c"  # a dtype used as a value: type_c<T>{}
MODE = "mode"  # mode=[i, j] -> template arguments <i, j>
IGNORED = "ignored"  # accepted and dropped (NVIDIA-only hints such as mask=)
FASTMATH = "fastmath"  # a literal bool: True selects the function's fast form (`Fn.fast`)
SHUFFLE_CONTROL = "mask_and_clamp"  # the PTX c operand of a shuffle: arch::mask_and_clamp(c)

FIRST = "first"  # result kind: the kind of the first argument


@dataclass(frozen=True)
class Fn:
    cxx: str
    params: tuple[tuple[str, str], ...]  # (python name, role)
    result: Kind | str | None  # None: a statement (no value)
    required: int = 1  # how many leading params are required
    extra_ignored: tuple[str, ...] = field(default=("loc", "ip"))
    fast: str | None = None  # the C++ name used with fastmath=True
    defaults: tuple[tuple[str, str], ...] = ()  # (param, C++ literal) used when it is not given
    #: The call site's number is the first template argument (one static allocation per site).
    per_site: bool = False


def _fn(
    cxx: str,
    params: str,
    result: Kind | str | None,
    required: int | None = None,
    fast: str | None = None,
    defaults: tuple[tuple[str, str], ...] = (),
    per_site: bool = False,
) -> Fn:
    pairs = tuple(tuple(p.split(":")) for p in params.split()) if params else ()
    n = len(pairs) if required is None else required
    return Fn(cxx, pairs, result, n, fast=fast, defaults=defaults, per_site=per_site)  # type: ignore[arg-type]


_SHUFFLE = "value:value offset:value mask:ignored mask_and_clamp:mask_and_clamp"


def _math(name: str, fast: str | None = None) -> Fn:
    """`cute.math.<name>(a, fastmath=False)`: elementwise on scalars and register values."""
    return _fn(name, "a:value fastmath:fastmath", FIRST, 1, fast=fast or f"fast_{name}")


_TID = Kind(Cat.TUPLE, elems=(k.dynamic(), k.dynamic(), k.dynamic()))
_BOOL = k.dynamic("bool")
_INT = k.dynamic()

C = "cutlass.cute."
A = "cutlass.cute.arch."

FUNCTIONS: dict[str, Fn] = {
    C + "make_layout": _fn("make_layout", "shape:shape stride:stride", k.LAYOUT, 1),
    C + "make_ordered_layout": _fn("make_ordered_layout", "shape:shape order:tuple", k.LAYOUT),
    C + "make_identity_tensor": _fn("make_identity_tensor", "shape:shape", k.TENSOR),
    C + "make_layout_tv": _fn(
        "make_layout_tv",
        "thr_layout:any val_layout:any",
        Kind(Cat.TUPLE, elems=(k.VALUE, k.LAYOUT)),
    ),
    C + "zipped_divide": _fn("zipped_divide", "target:any tiler:tile", FIRST),
    C + "logical_divide": _fn("logical_divide", "target:any tiler:tile", FIRST),
    C + "tiled_divide": _fn("tiled_divide", "target:any tiler:tile", FIRST),
    C + "flat_divide": _fn("flat_divide", "target:any tiler:tile", FIRST),
    C + "logical_product": _fn("logical_product", "block:any tiler:any", FIRST),
    C + "blocked_product": _fn("blocked_product", "block:any tiler:any", FIRST),
    C + "raked_product": _fn("raked_product", "block:any tiler:any", FIRST),
    C + "composition": _fn("composition", "lhs:any rhs:tile", FIRST),
    C + "complement": _fn("complement", "input:any cotarget:any", k.LAYOUT, 1),
    C + "coalesce": _fn("coalesce", "input:any", FIRST),
    C + "local_tile": _fn("local_tile", "input:any tiler:tile coord:coord", k.TENSOR),
    C + "local_partition": _fn("local_partition", "target:any tiler:any index:value", k.TENSOR),
    C + "make_fragment_like": _fn("make_fragment_like", "src:any dtype:type", k.TENSOR, 1),
    C + "make_rmem_tensor": _fn("make_rmem_tensor", "layout_or_shape:shape dtype:type", k.TENSOR),
    C + "make_fragment": _fn("make_rmem_tensor", "layout_or_shape:shape dtype:type", k.TENSOR),
    C + "make_tensor": _fn("make_tensor", "iterator:any layout:any", k.TENSOR),
    C + "make_copy_atom": _fn(
        "make_copy_atom",
        "op:any copy_internal_type:type_c num_bits_per_copy:any",
        Kind(Cat.ATOM),
        2,
    ),
    C + "make_tiled_copy_tv": _fn(
        "make_tiled_copy_tv", "atom:any thr_layout:any val_layout:any", Kind(Cat.TILED_COPY)
    ),
    C + "copy": _fn("copy", "atom:any src:any dst:any pred:any", None, 3),
    C + "autovec_copy": _fn("autovec_copy", "src:any dst:any", None),
    C + "size": _fn("size", "a:any mode:mode", k.VALUE, 1),
    C + "rank": _fn("rank", "a:any mode:mode", k.VALUE, 1),
    C + "depth": _fn("depth", "a:any mode:mode", k.VALUE, 1),
    C + "cosize": _fn("cosize", "a:any mode:mode", k.VALUE, 1),
    C + "get": _fn("get", "input:any mode:mode", k.VALUE),
    C + "elem_less": _fn("elem_less", "lhs:coord rhs:coord", _BOOL),
    C + "ceil_div": _fn("ceil_div", "input:any tiler:tile", k.VALUE),
    C + "where": _fn("where", "cond:any x:value y:value", Kind(Cat.TENSOR_SSA)),
    C + "print_tensor": _fn("print_tensor", "tensor:any", None),
    C + "printf": _fn("printf_fmt", "", None, 0),  # handled specially
    A + "thread_idx": _fn("arch::thread_idx", "", _TID),
    A + "block_idx": _fn("arch::block_idx", "", _TID),
    A + "block_dim": _fn("arch::block_dim", "", _TID),
    A + "grid_dim": _fn("arch::grid_dim", "", _TID),
    A + "lane_idx": _fn("arch::lane_idx", "", _INT),
    A + "warp_idx": _fn("arch::warp_idx", "", _INT),
    A + "sync_threads": _fn("arch::sync_threads", "", None),
    A + "barrier": _fn(
        "arch::sync_threads", "barrier_id:ignored number_of_threads:ignored", None, 0
    ),
    # mask= (the member mask) is dropped: every lane of a DSL warp takes part on every target.
    A + "shuffle_sync": _fn("arch::shuffle_sync", _SHUFFLE, FIRST, 2),
    A + "shuffle_sync_bfly": _fn("arch::shuffle_sync_bfly", _SHUFFLE, FIRST, 2),
    A + "shuffle_sync_down": _fn("arch::shuffle_sync_down", _SHUFFLE, FIRST, 2),
    # The DSL's default mask_and_clamp (31) keeps every lane's own value in an `up` shuffle;
    # spelled out so that the generated code says what runs.
    A + "shuffle_sync_up": _fn(
        "arch::shuffle_sync_up", _SHUFFLE, FIRST, 2, defaults=(("mask_and_clamp", "31"),)
    ),
    A + "vote_ballot_sync": _fn("arch::vote_ballot", "pred:value", _INT),
    A + "vote_any_sync": _fn("arch::vote_any", "pred:value", _BOOL),
    A + "vote_all_sync": _fn("arch::vote_all", "pred:value", _BOOL),
    # Shared memory: a static array per call site, and the base of the dynamic allocation.
    A + "alloc_smem": _fn(
        "arch::alloc_smem",
        "element_type:type_c size_in_elems:any alignment:any",
        k.VALUE,
        2,
        per_site=True,
    ),
    A + "get_dyn_smem": _fn("arch::get_dyn_smem", "element_type:type_c alignment:any", k.VALUE, 1),
    A + "atomic_add": _fn("arch::atomic_add", "ptr:any value:value", _INT),
    A + "atomic_max": _fn("arch::atomic_max", "ptr:any value:value", _INT),
    A + "atomic_min": _fn("arch::atomic_min", "ptr:any value:value", _INT),
    A + "atomic_cas": _fn("arch::atomic_cas", "ptr:any cmp:value val:value", _INT),
    A + "make_warp_uniform": _fn("arch::make_warp_uniform", "value:value", FIRST),
    # Fast math of cute.arch (scalars).
    A + "fmax": _fn("arch::fmax", "a:value b:value", FIRST),
    A + "fmin": _fn("arch::fmin", "a:value b:value", FIRST),
    A + "rcp_approx": _fn("rcp_approx", "a:value", FIRST),
    A + "exp2": _fn("fast_exp2", "a:value", FIRST),
    A + "exp": _fn("fast_exp", "a:value", FIRST),
    # Register values.
    C + "full_like": _fn(
        "full_like", "a:any fill_value:value dtype:type_c", Kind(Cat.TENSOR_SSA), 2
    ),
    C + "zeros_like": _fn("zeros_like", "a:any", Kind(Cat.TENSOR_SSA)),
    C + "ones_like": _fn("ones_like", "a:any", Kind(Cat.TENSOR_SSA)),
    # cute.math: precise by default, the target's fast form with fastmath=True.
    C + "math.exp": _math("exp"),
    C + "math.exp2": _math("exp2"),
    C + "math.log": _math("log"),
    C + "math.log2": _math("log2"),
    C + "math.sqrt": _math("sqrt"),
    C + "math.rsqrt": _math("rsqrt"),
    C + "math.tanh": _math("tanh"),
    C + "math.erf": _math("erf"),
    C + "math.sin": _math("sin", "sin"),
    C + "math.cos": _math("cos", "cos"),
}

#: DSL constants, folded at translation time.
CONSTANTS: dict[str, object] = {
    A + "WARP_SIZE": 32,
}
for _t in ("Float32", "Float64", "Float16", "BFloat16"):
    for _root in ("cutlass.", C):
        CONSTANTS[f"{_root}{_t}.inf"] = float("inf")
        CONSTANTS[f"{_root}{_t}.nan"] = float("nan")

#: Methods of objects made by `OP_CLASSES` entries (shared-memory allocators): name ->
#: (C++ member, parameters as for `Fn`, result kind).
ALLOCATOR_METHODS: dict[str, Fn] = {
    "allocate_tensor": _fn(
        "allocate_tensor",
        "element_type:type_c layout:any byte_alignment:any swizzle:ignored",
        k.TENSOR,
        2,
    ),
    "allocate_array": _fn(
        "allocate_array", "element_type:type_c num_elems:any byte_alignment:any", k.VALUE, 1
    ),
    "allocate": _fn("allocate", "size_in_bytes:any byte_alignment:any", k.VALUE, 1),
}

#: Keyword arguments accepted and dropped, per function (NVIDIA-only hints).
IGNORED_KEYWORDS = {"loc", "ip", "mask", "width"}

#: Objects constructed from a DSL class: `cute.nvgpu.CopyUniversalOp()` -> `CopyUniversalOp{}`.
OP_CLASSES = {
    C + "nvgpu.CopyUniversalOp": "CopyUniversalOp",
    "cutlass.utils.SmemAllocator": "SmemAllocator",
}

#: Functors: `operator.mul` / `cute.ReductionOp.ADD` used as values.
FUNCTORS = {
    "operator.add": "plus",
    "operator.sub": "minus",
    "operator.mul": "multiplies",
    "operator.truediv": "divides",
    "operator.max": "maximum",
    "builtins.max": "maximum",
    "builtins.min": "minimum",
    C + "ReductionOp.ADD": "plus",
    C + "ReductionOp.MUL": "multiplies",
    C + "ReductionOp.MAX": "maximum",
    C + "ReductionOp.MIN": "minimum",
}

#: DSL names that are only meaningful as annotations / decorators / control-flow markers.
MARKERS = {
    "cutlass.const_expr",
    "cutlass.range_constexpr",
    "cutlass.range",
    "cutlass.cute.range",
    "cutlass.cute.kernel",
    "cutlass.cute.jit",
    "cutlass.Constexpr",
    "cutlass.cute.Constexpr",
    "cutlass.Numeric",
    # @cute.struct and its field annotations (bbx.lower_struct).
    "cutlass.cute.struct",
    "cutlass.cute.struct.MemRange",
    "cutlass.cute.struct.Align",
}

#: Builtins with a direct C++ counterpart in bbx (run-time values).
BUILTINS = {"builtins.abs": "abs", "builtins.min": "min", "builtins.max": "max"}

#: Builtins allowed inside pure-Python (meta) expressions.
META_BUILTINS = {"int", "float", "bool", "min", "max", "abs", "round", "len", "str"}


def is_known(qualified: str) -> bool:
    return (
        qualified in FUNCTIONS
        or qualified in OP_CLASSES
        or qualified in FUNCTORS
        or qualified in MARKERS
        or qualified in k.NUMERIC_TYPES
        or qualified in k.ANNOTATION_KINDS
        or qualified in CONSTANTS
    )
