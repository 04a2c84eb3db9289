"""`cutlass.cute` tensors and register values (TensorSSA): construction, partitioning, methods
and attributes of `Tensor` and `TensorSSA`, printing."""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from ..analysis.value import Val
from ..cxx import ast as c
from ..cxx.literals import static_int
from .builder import C, fn, method
from .entry import FIRST, RECEIVER, Attribute, Custom, CustomMethod
from .lowerer import Lowerer
from .registry import Registry
from .roles import literal_value

SSA = Kind(Cat.TENSOR_SSA)
_INT_TUPLE = Kind(Cat.TUPLE)  # a shape or stride: an integer tuple (its rank known in C++)
_TENSORS = (Cat.TENSOR, Cat.TENSOR_SSA)
_SHAPED = (Cat.TENSOR, Cat.LAYOUT, Cat.VALUE, Cat.TENSOR_SSA)


def register(r: Registry) -> None:
    r.add(C + "make_identity_tensor", fn(
        "make_identity_tensor", "shape:shape", k.TENSOR,
        example="t = cute.make_identity_tensor((4, 8))"))
    r.add(C + "local_tile", fn(
        "local_tile", "input:any tiler:tile coord:coord proj:coord", k.TENSOR, 3,
        example="t = cute.local_tile(mA, (4, 8), (bidx, 0))"))
    r.add(C + "local_partition", fn(
        "local_partition", "target:any tiler:any index:value proj:coord", k.TENSOR, 3,
        example="t = cute.local_partition(gA, cute.make_layout((4, 8)), tidx)"))
    r.add(C + "make_fragment_like", fn(
        "make_fragment_like", "src:any dtype:type", k.TENSOR, 1,
        example="t = cute.make_fragment_like(gA, cutlass.Float16)"))
    r.add(C + "make_rmem_tensor_like", fn(
        "make_fragment_like", "src:any dtype:type", k.TENSOR, 1,
        example="t = cute.make_rmem_tensor_like(gA)"))
    r.add(C + "make_rmem_tensor", fn(
        "make_rmem_tensor", "layout_or_shape:shape dtype:type", k.TENSOR,
        example="t = cute.make_rmem_tensor((4, 8), cutlass.Float32)"))
    r.add(C + "make_tensor", fn(
        "make_tensor", "iterator:any layout:any", k.TENSOR,
        example="t = cute.make_tensor(gA.iterator, cute.make_layout((4, 8), stride=(8, 1)))"))
    r.add(C + "domain_offset", fn(
        "domain_offset", "coord:coord tensor:any", k.TENSOR,
        example="t = cute.domain_offset((1, 0), mA)"))
    r.add([C + "where", "cutlass.vector.where"], fn(  # one C++ type for TensorSSA, Vector
        "where", "cond:any x:value y:value", SSA,
        example="v = cute.where(ssa > 0.0, ssa, cute.zeros_like(ssa))"))
    r.add(C + "full_like", fn(
        "full_like", "a:any fill_value:value dtype:type_c", SSA, 2,
        example="v = cute.full_like(ssa, 2.0)"))
    r.add([C + "zeros_like", "cutlass.vector.zeros_like"], fn(  # one C++ type for TensorSSA, Vector
        "zeros_like", "a:any dtype:type_c", SSA, 1, example="v = cute.zeros_like(ssa)"))
    r.add([C + "ones_like", "cutlass.vector.ones_like"], fn(  # one C++ type for TensorSSA, Vector
        "ones_like", "a:any dtype:type_c", SSA, 1, example="v = cute.ones_like(ssa)"))
    r.add(C + "full", fn(
        "full", "shape:shape fill_value:value dtype:type", SSA,
        example="v = cute.full((4, 8), 1.0, cutlass.Float32)"))
    r.add(C + "print_tensor", Custom(
        call=_print_tensor, example="cute.print_tensor(rA)\ncute.print_tensor(rA, verbose=True)"))
    r.add(C + "printf", Custom(call=_printf, example='cute.printf("x = {}", x)'))

    # -- Tensor methods and attributes --------------------------------------------------------
    # `t.load()` / `t.store(v)` of a tensor; with an index, `cutlass.Array`'s element and
    # vector accesses (both are Cat.TENSOR; C++ overloads tell them apart).
    r.add_member(Cat.TENSOR, "load", CustomMethod(
        _load, example="v = rA.load()\na = cutlass.Array(cutlass.Float32, 8)\n"
        "y = a.load(2)\nw = a.load(4, vector_size=4)"))
    r.add_member(Cat.TENSOR, "store", CustomMethod(
        _store, example="rA.store(ssa)\na = cutlass.Array(cutlass.Float32, 8)\n"
        "a.store(x, 3)\na.store(cutlass.Vector.from_elements((x, x), cutlass.Float32), idx=4)"))
    r.add_member(Cat.TENSOR, "masked_load", CustomMethod(
        _masked_load, example="a = cutlass.Array(cutlass.Float32, 8)\n"
        "m = cutlass.Array(cutlass.Boolean, 4)\nw = a.masked_load(4, 4, m, default=0.0)"))
    r.add_member(Cat.TENSOR, "masked_store", CustomMethod(
        _masked_store, example="a = cutlass.Array(cutlass.Float32, 8)\n"
        "m = cutlass.Array(cutlass.Boolean, 4)\na.masked_store(0, a.load(4, vector_size=4), m)"))
    r.add_member(Cat.TENSOR, "fill", method(
        "fill", "value:value", None, member=False, example="rA.fill(0.0)"))
    r.add_member(_SHAPED, "shape", Attribute("shape", _INT_TUPLE, example="s = gA.shape"))
    r.add_member((Cat.TENSOR, Cat.LAYOUT, Cat.VALUE), "stride", Attribute(
        "stride", _INT_TUPLE, example="s = gA.stride"))
    r.add_member(Cat.TENSOR, "layout", Attribute("layout", k.LAYOUT, example="L2 = gA.layout"))
    r.add_member(Cat.TENSOR, "iterator", Attribute(
        "iterator", k.VALUE, example="p = gA.iterator"))
    for name in ("element_type", "dtype"):
        r.add_member((*_TENSORS, Cat.VALUE), name, Attribute(
            custom=_element_type, example=f"T = gA.{name}"))
    r.add_member(Cat.DYNAMIC, "dtype", Attribute(custom=_scalar_dtype, example="T = x.dtype"))

    # -- TensorSSA methods ------------------------------------------------------------------
    r.add_member(Cat.TENSOR_SSA, "to", CustomMethod(_to, example="v = ssa.to(cutlass.Float16)"))
    r.add_member((Cat.DYNAMIC, Cat.VALUE), "to", CustomMethod(
        _to, example="y = x.to(cutlass.Float16)"))
    r.add_member(Cat.TENSOR_SSA, "reduce", CustomMethod(
        _reduce, example="s = ssa.reduce(cute.ReductionOp.ADD, 0.0, 0)\nm = ssa.reduce('max')\n"
        "t = ssa.reduce(op='add', acc=s)"))
    r.add_member(Cat.TENSOR_SSA, "numel", Attribute(custom=_numel, example="n2 = ssa.numel"))
    _ = FIRST, RECEIVER


#: Memory-access options of cutlass.Array's load/store that bbx accepts and drops (hints).
_ARRAY_HINTS = ("alignment", "is_volatile", "is_nontemporal", "is_invariant", "is_invariant_group")


def _array_access(
    lw: Lowerer, node: cst.Call, name: str, params: list[str], required: int
) -> dict[str, cst.BaseExpression]:
    bound = lw.bind(node, [*params, *_ARRAY_HINTS, "ordering", "syncscope"], f"'.{name}'", required)
    for option in ("ordering", "syncscope"):
        given = bound.get(option)
        if given is not None and not (isinstance(given, cst.Name) and given.value == "None"):
            raise lw.error(
                bound[option], "not-yet-supported",
                f"cutlass.Array.{name}({option}=...) (an atomic access) is not yet supported",
                "use cute.arch.load / cute.arch.store with sem= and scope=",
            )
    return bound


def _vector_size(lw: Lowerer, node: cst.BaseExpression | None) -> c.Expr | None:
    """A vector size: a compile-time positive integer (a literal, a Python value or a Constexpr
    parameter), as a C++ constant expression; None when not given."""
    if node is None or (isinstance(node, cst.Name) and node.value == "None"):
        return None
    n = lw.lower(node)
    positive = n.kind.cat is not Cat.LITERAL or (
        isinstance(n.kind.value, int) and n.kind.value >= 1)
    size = lw.static_int_expr(n, node) if positive else None
    if size is not None:
        return size
    raise lw.error(node, "bad-arguments", "vector_size= must be a compile-time positive integer",
                   "the DSL accesses a vector of a static length")


def _load(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`t.load()`: a tensor's register value. `a.load(idx, vector_size)`: a cutlass.Array's
    element at linear index idx, or vector_size elements from there."""
    if not node.args:
        return Val(SSA, c.Call(c.Member(obj, "load")), node=node)
    bound = _array_access(lw, node, name, ["idx", "vector_size"], 0)
    n = _vector_size(lw, bound.get("vector_size"))
    args = (obj, lw.value(bound["idx"])) if "idx" in bound else (obj,)
    targs = (n,) if n is not None else ()
    call = c.Call(c.Id("array_load"), args, targs)
    return Val(SSA if n is not None else k.dynamic(), call, node=node)


def _store(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`t.store(v)`: a tensor's register value. `a.store(v, idx)`: a cutlass.Array's element
    (or a vector of them) at linear index idx."""
    bound = _array_access(lw, node, name, ["value", "idx", "vector_size"], 1)
    n = _vector_size(lw, bound.get("vector_size"))
    value = lw.value(bound["value"])
    if "idx" not in bound and n is None:
        return Val(k.VALUE, c.Call(c.Member(obj, "store"), (value,)), node=node)
    idx = lw.value(bound["idx"]) if "idx" in bound else static_int(0)
    call = c.Call(c.Id("array_store"), (obj, value, idx), (n,) if n is not None else ())
    return Val(k.VALUE, call, node=node)


def _masked_load(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`a.masked_load(idx, count, mask, default=None)`: count elements from idx where mask[k]
    holds, default (or zero) elsewhere — no memory access for the others."""
    bound = _array_access(lw, node, name, ["idx", "count", "mask", "default"], 3)
    n = _vector_size(lw, bound["count"])
    assert n is not None
    default = bound.get("default")
    args = [obj, lw.value(bound["idx"]), lw.value(bound["mask"])]
    if default is not None and not (isinstance(default, cst.Name) and default.value == "None"):
        args.append(lw.value(default))
    return Val(SSA, c.Call(c.Id("array_masked_load"), tuple(args), (n,)), node=node)


def _masked_store(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """`a.masked_store(idx, value, mask)`: the elements of value where mask[k] holds."""
    bound = _array_access(lw, node, name, ["idx", "value", "mask"], 3)
    args = (obj, lw.value(bound["idx"]), lw.value(bound["value"]), lw.value(bound["mask"]))
    return Val(k.VALUE, c.Call(c.Id("array_masked_store"), args), node=node)


_PRINT_TENSOR = fn(
    "print_tensor", "tensor:any * verbose:static_bool loc:ignored ip:ignored", None, 1,
    defaults={"verbose": "C<false>{}"})


def _print_tensor(lw: Lowerer, node: cst.Call, name: str) -> Val:
    """`cute.print_tensor(t)` of a tensor. The DSL also prints a TensorSSA (stored to a
    register tensor of its shape); bbx's loaded values are flat, so it refuses one."""
    first = node.args[0].value if node.args and node.args[0].keyword is None else None
    if isinstance(first, cst.Name) and lw.lower(first).kind.cat is Cat.TENSOR_SSA:
        raise lw.error(
            first,
            "not-yet-supported",
            "cute.print_tensor of a TensorSSA is not yet supported by bbx",
            "store the value into a register tensor (`r = cute.make_rmem_tensor(t.shape, "
            "t.element_type); r.store(v)`) and print that",
        )
    return _PRINT_TENSOR.lower_call(lw, node, name)


def _printf(lw: Lowerer, node: cst.Call, name: str) -> Val:
    from ..cxx.printer import string_literal

    if not node.args or not isinstance(node.args[0].value, cst.SimpleString):
        raise lw.error(
            node,
            "bad-arguments",
            "cute.printf needs a literal format string first",
            'e.g. cute.printf("x = {}", x)',
        )
    fmt = node.args[0].value.evaluated_value
    args: list[c.Expr] = [c.Lit(string_literal(str(fmt)))]
    for a in node.args[1:]:
        if a.keyword is None:
            args.append(lw.value(a.value))
    return Val(k.VALUE, c.Call(c.Id("printf_fmt"), tuple(args)), node=node)


def _element_type(
    lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str
) -> Val:
    return Val(k.TYPE, type=c.Type("element_type_t", (c.Decltype(obj),)), node=node)


def _scalar_dtype(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
    return Val(k.TYPE, type=c.Decltype(obj, decay=True), node=node)


def _numel(lw: Lowerer, node: cst.Attribute, receiver: Val, obj: c.Expr, name: str) -> Val:
    return Val(k.VALUE, c.Call(c.Id("size"), (obj,)), node=node)


def _to(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    bound = lw.bind(node, ["dtype"], ".to", 1)
    t = lw.as_type(bound["dtype"])
    if receiver.kind.cat is Cat.TENSOR_SSA:
        kind = receiver.kind
    else:
        kind = k.dynamic(t.name if isinstance(t, c.Type) and not t.args else None)
    return Val(kind, c.Call(c.Id("to"), (obj,), (t,)), node=node)


#: cutlass.Vector.reduce's op names -> C++ functors.
_VECTOR_REDUCE_OPS = {"add": "plus", "mul": "multiplies", "max": "maximum", "min": "minimum"}


def _reduce(lw: Lowerer, node: cst.Call, receiver: Val, obj: c.Expr, name: str) -> Val:
    """TensorSSA.reduce(op, init_val, reduction_profile), or cutlass.Vector.reduce(op='add', *,
    dim=None, acc=None) (op a string): both are register values here."""
    first = node.args[0].value if node.args else None
    if first is None or lw.lower(first).kind.cat is not Cat.FUNC:  # not a cute.ReductionOp
        return _vector_reduce(lw, node, obj)
    bound = lw.bind(node, ["op", "init_val", "reduction_profile"], ".reduce", 2)
    profile = bound.get("reduction_profile")
    if profile is not None and not (
        isinstance(profile, cst.Integer) and profile.evaluated_value == 0
    ):
        # Register values are flat here (bbx/tensor/value.hpp): only a full reduction.
        raise lw.error(
            profile,
            "unsupported-argument",
            f"reduction_profile={lw.code(profile)} (a reduction over some modes only) "
            "is not supported",
            "reduce every mode with reduction_profile=0, e.g. of a sliced tensor's load()",
        )
    op = lw.materialize(lw.lower(bound["op"]), False)
    init = lw.value(bound["init_val"])
    return Val(k.dynamic(), c.Call(c.Id("reduce"), (obj, op, init)), node=node)


def _op_chosen_at_specialization(lw: Lowerer, op: cst.BaseExpression) -> c.Expr | None:
    """The functor for an op name that is a Python value of the specialization (a Constexpr
    string parameter): `op == "add"`, ... as Meta members choosing the type; None when `op` is
    a run-time value."""
    tests: list[c.Expr] = []
    for name in _VECTOR_REDUCE_OPS:
        target = cst.ComparisonTarget(cst.Equal(), cst.SimpleString(f'"{name}"'))
        test = lw.lower(cst.Comparison(left=op, comparisons=[target]))
        if test.kind.cat not in (Cat.META, Cat.STATIC, Cat.CONSTEXPR, Cat.LITERAL):
            return None
        tests.append(lw.materialize(test, True, op))
    chosen: c.CxxType = c.Type("python_only_value")  # no op matched: no C++ use accepts it
    for chooses, name in reversed(list(zip(tests, _VECTOR_REDUCE_OPS.values(), strict=True))):
        chosen = c.Type("std::conditional_t", (chooses, c.Type(name), chosen))
    return c.Construct(chosen)


def _vector_reduce(lw: Lowerer, node: cst.Call, obj: c.Expr) -> Val:
    bound = lw.bind(node, ["op", "dim", "acc"], "Vector.reduce", 0)
    op_name = literal_value(lw, bound["op"]) if "op" in bound else "add"
    functor = (
        c.Construct(c.Type(_VECTOR_REDUCE_OPS[op_name]))
        if isinstance(op_name, str) and op_name in _VECTOR_REDUCE_OPS
        else _op_chosen_at_specialization(lw, bound["op"]) if op_name is None else None
    )
    if functor is None:
        where = bound.get("op", node)
        raise lw.error(where, "not-yet-supported" if op_name is None else "bad-arguments",
                       "Vector.reduce: op must be one of the strings 'add', 'mul', 'min', 'max' "
                       "written at the call" + (" (bbx does not yet take it from a variable or "
                       "a Constexpr parameter)" if op_name is None else ""),
                       "e.g. v.reduce('max'), or cute.ReductionOp.MAX with init_val")
    dim = bound.get("dim")
    if dim is not None and not (isinstance(dim, cst.Name) and dim.value == "None"):
        raise lw.error(dim, "unsupported-argument", "Vector.reduce(dim=...) (a reduction over "
                       "some dimensions only) is not supported", "reduce the whole vector")
    args: tuple[c.Expr, ...] = (obj, functor)
    if "acc" in bound:
        args += (lw.value(bound["acc"]),)
    return Val(k.dynamic(), c.Call(c.Id("reduce"), args), node=node)
