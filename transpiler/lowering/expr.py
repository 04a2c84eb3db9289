"""Lowering of Python expressions to C++ expressions, with a kind for each.

Python int literals are static (`_4{}`) wherever layout algebra or other static values are
involved and plain (`4`) next to run-time values. Pure-Python (meta) sub-expressions are folded
when they only involve literals, otherwise lifted into `Meta` members.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import libcst as cst

from ..analysis import kinds as k
from ..analysis import meta as m
from ..analysis.fold import FoldLimit, fold
from ..analysis.kinds import Cat, Kind
from ..analysis.scope import Var
from ..analysis.value import Val, python_level, sequence, value_items
from ..cxx import ast as c
from ..cxx.literals import float_literal, static_int, static_int_type
from ..diagnostics import TranslationError
from ..dsl import REGISTRY, roles
from ..dsl.entry import Entry, OpClass
from ..dsl.python import META_BUILTINS
from ..dsl.roles import Role
from ..dsl.values import vector_subscript
from ..frontend.imports import dotted
from .context import FunctionContext
from .names import cxx_name

_BINARY_OPS: dict[type, str] = {
    cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "/",
    cst.Modulo: "%", cst.LeftShift: "<<", cst.RightShift: ">>", cst.BitAnd: "&",
    cst.BitOr: "|", cst.BitXor: "^",
}  # fmt: skip
_COMPARE_OPS: dict[type, str] = {
    cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=",
    cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
}  # fmt: skip
#: Python's operator methods (`__add__`, reflected `__radd__`) of records' classes.
_OPERATOR_METHODS: dict[type, str] = {
    cst.Add: "add", cst.Subtract: "sub", cst.Multiply: "mul", cst.Divide: "truediv",
    cst.FloorDivide: "floordiv", cst.Modulo: "mod", cst.Power: "pow", cst.LeftShift: "lshift",
    cst.RightShift: "rshift", cst.BitAnd: "and", cst.BitOr: "or", cst.BitXor: "xor",
    cst.MatrixMultiply: "matmul",
}  # fmt: skip
_UNARY_METHODS: dict[type, str] = {cst.Minus: "neg", cst.Plus: "pos", cst.BitInvert: "invert"}
_RUNTIME_CATS = frozenset({Cat.DYNAMIC, Cat.VALUE, Cat.TENSOR_SSA})
#: Keyword arguments accepted and dropped by every DSL call (MLIR plumbing).
IGNORED_KEYWORDS = frozenset({"loc", "ip"})


def _static_index(idx: Val) -> bool:
    """An integer the DSL knows at trace time but bbx only in C++ (a range_constexpr
    variable, a Constexpr parameter, a Meta member, arithmetic of those)."""
    return idx.kind.cat in (Cat.STATIC, Cat.CONSTEXPR) or (
        idx.kind.cat is Cat.META and idx.kind.meta_kind in (m.STATIC_INT, m.VALUE))


def _joined_sequence(node: cst.BinaryOperation, left: Val, right: Val) -> Val | None:
    """`xs + ys`, `xs * 2` of Python sequences known at trace time (not records): the
    sequence Python builds."""
    lefts, rights = (value_items(v) if v.fields is None else None for v in (left, right))
    if isinstance(node.operator, cst.Add) and lefts is not None and rights is not None:
        return sequence(lefts + rights, node)
    if isinstance(node.operator, cst.Multiply):
        for items, times in ((lefts, right), (rights, left)):
            count = times.kind.value
            if items is not None and times.kind.cat is Cat.LITERAL and type(count) is int:
                return sequence(items * count, node)
    return None


def meta_type(member: str) -> c.Type:
    return c.Type(f"Meta::{member}", typename=True)


class _AliasSubstituter(cst.CSTTransformer):
    def __init__(self, fc: FunctionContext) -> None:
        self.fc = fc

    def leave_Attribute(
        self, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        resolved = self.fc.mod.names.resolve(original)
        constant = _dsl_constant(self.fc, resolved) if resolved is not None else None
        if constant is not None:
            return cst.parse_expression(_python_literal(constant))
        traced = self.fc.traced_attribute(original)
        if traced is not None and _value_scan(traced.value) is not None:
            return _substitute_value(traced.value)
        # `x.N`: the attribute name is no variable, whatever a local `N` stands for.
        return updated.with_changes(attr=original.attr)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        var = self.fc.env.lookup(original.value)
        if var is not None and var.value is not None and _value_scan(var.value) is not None:
            return _substitute_value(var.value)
        if var is not None and var.alias is not None:
            return (
                var.alias.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
                if not isinstance(var.alias, (cst.Name, cst.Attribute, cst.Integer))
                else var.alias
            )
        return updated


class ExprLowerer:
    def __init__(self, fc: FunctionContext) -> None:
        self.fc = fc
        self.mod = fc.mod

    # ------------------------------------------------------------------------------------
    # entry points
    # ------------------------------------------------------------------------------------
    def value(
        self, node: cst.BaseExpression, static: bool = False, role: Role | None = None
    ) -> c.Expr:
        return self.materialize(self.lower(node, role), static, node, role)

    def lower(self, node: cst.BaseExpression, role: Role | None = None) -> Val:
        if isinstance(node, cst.Comparison):
            decided = self._none_test_now(node)
            if decided is not None:
                return decided
        if isinstance(node, cst.Attribute):
            host_made = self._host_instance(node)
            if host_made is not None:
                return host_made
        scan = self.meta_scan(node)
        if scan is not None:
            return self.lower_meta(node, scan, role)
        return self._lower(node, role)

    def _host_instance(self, node: cst.Attribute) -> Val | None:
        """`self.x` where `__init__` set `self.x = Op(...)`, Op a DSL class whose instances
        keep their constructor arguments (`pipeline.NamedBarrier`): the C++ object."""
        fc = self.fc
        cls = fc.fn.cls
        on_self = isinstance(node.value, cst.Name) and node.value.value == fc.self_name
        if cls is None or not on_self:
            return None
        init = cls.init_attrs.get(node.attr.value)
        if not isinstance(init, cst.Call):
            return None
        entry = REGISTRY.lookup(self.mod.names.resolve(init.func) or "")
        if not isinstance(entry, OpClass) or not entry.host_arguments:
            return None
        return entry.lower_host_instance(self, node)

    def materialize(
        self, val: Val, static: bool, node: cst.CSTNode | None = None, role: Role | None = None
    ) -> c.Expr:
        kind = val.kind
        where = node if node is not None else val.node
        if kind.cat is Cat.LITERAL:
            v = kind.value
            if isinstance(v, bool):
                return c.Lit("true" if v else "false")
            if isinstance(v, int):
                if static:
                    return static_int(v)
                return c.Lit(str(v))
            if isinstance(v, float):
                return float_literal(v)
            if v is None:
                return c.Id("_")
            if isinstance(v, tuple):
                return self._tuple_of(
                    [Val(k.literal(e)) for e in v],
                    static=True,
                    role=role or roles.ANY,
                    node=where,
                )
            raise self.fc.error(
                where or self.fc.fn.node,
                "unsupported-value",
                f"a Python {type(v).__name__} value cannot be used at run time",
                "strings and other Python objects may only be compared inside "
                "`cutlass.const_expr(...)`",
            )
        if kind.cat is Cat.META:
            member = str(kind.value)
            if kind.meta_kind == m.OBJECT:  # bbx.lowering.kernel_objects
                raise self.fc.error(where or self.fc.fn.node, "kernel-object",
                                    "a kernel object used as a value", "call it: `op(...)`")
            if kind.meta_kind == m.VALUE and (static or (role is not None and role.layout)):
                # A Python value inside layout algebra or next to a static integer: a static
                # integer (C<v>, v the member's constexpr value, so that the member stays a
                # value for its other uses).
                return c.Construct(c.Type("C", (c.Id(f"Meta::{member}"),)))
            if kind.meta_kind == m.STATIC_INT:
                return c.Construct(meta_type(member))
            if kind.meta_kind == m.TYPE:
                return c.Construct(c.Type("type_c", (meta_type(member),)))
            if kind.meta_kind == m.TUPLE:
                # Every leaf is static: the value is its type's (read without ODR-using the
                # host member, which device code cannot).
                return c.Construct(c.Decltype(c.Id(f"Meta::{member}")))
            if kind.meta_kind == m.STRING:
                raise self.fc.error(
                    where or self.fc.fn.node,
                    "unsupported-value",
                    "a string value cannot be used at run time",
                    "compare it inside `cutlass.const_expr(...)` instead",
                )
            return c.Id(f"Meta::{member}")
        if kind.cat is Cat.TYPE:
            if val.type is None:  # a dtype read back out of a tuple or list (`t[1]`)
                raise self.fc.error(
                    where or self.fc.fn.node, "unsupported-value",
                    "a numeric type held in a tuple or list, used as a value",
                    "name the type itself where it is used (e.g. cutlass.Float32)")
            return c.Construct(c.Type("type_c", (val.type,)))
        if kind.cat is Cat.RECORD and kind.value is None and val.expr is None:
            raise self.fc.error(
                where or self.fc.fn.node,
                "unsupported-value",
                "a dict or SimpleNamespace of DSL values used as one C++ value",
                "use its elements, or a dataclass (which becomes a C++ struct) to pass them on",
            )
        if kind.cat is Cat.RECORD and val.items is not None and val.expr is None:
            args = tuple(self.record_field(v, v.node or where) for v in val.items)
            return c.Call(c.Id(f"make_{kind.value}"), args)
        if kind.cat is Cat.TUPLE and val.items is not None and val.expr is None:
            maker = (role or roles.TUPLE).tuple_maker
            parts = tuple(self.materialize(v, True, v.node or where, role) for v in val.items)
            return c.Call(c.Id(maker), parts)
        if kind.cat is Cat.TUPLE and val.expr is None:
            raise self.fc.error(where or self.fc.fn.node, "unsupported-value", "empty tuple")
        assert val.expr is not None, val
        return val.expr

    def record_field(self, val: Val, node: cst.CSTNode | None) -> c.Expr:
        """A field of an object as a member of its C++ struct. A Python or configuration bool
        is a static `C<b>{}` and an int a static integer, so that a kernel given the object
        still decides `const_expr(p.flag)` at compile time (`if constexpr (p.flag)`); a Python
        value C++ cannot spell (a string, an object) is `_` — DSL code reads those from the
        object's Python-level field."""
        kind = val.kind
        if kind.cat is Cat.LITERAL and isinstance(kind.value, bool):
            return c.Construct(c.Type("C", (c.Lit("true" if kind.value else "false"),)))
        if kind.cat is Cat.META and kind.meta_kind == "bool":
            return c.Construct(c.Type("C", (c.Id(f"Meta::{kind.value}"),)))
        if val.items is None and python_level(val):
            try:
                return self.materialize(val, True, node)
            except TranslationError:
                return c.Id("_")
        return self.materialize(val, True, node)

    def static_type(self, node: cst.BaseExpression) -> c.CxxType:
        """The type of an integer that must be static: `bbx::Int<k>` of a literal, else the
        value's type (a static integer type when it is one; the C++ use checks)."""
        if isinstance(node, cst.Integer):
            return static_int_type(int(node.evaluated_value))
        return c.Decltype(self.value(node, static=True), decay=True)

    def as_type(self, node: cst.BaseExpression) -> c.CxxType:
        val = self.lower(node)
        if val.kind.cat is Cat.TYPE and val.type is not None:
            return val.type
        if val.kind.cat is Cat.META and val.kind.meta_kind in (m.TYPE, m.VALUE):
            return meta_type(str(val.kind.value))
        raise self.fc.error(
            node,
            "expected-type",
            f"expected a numeric type, got a {val.kind.describe()}",
            "pass a cutlass numeric type such as cutlass.Float32 or `tensor.element_type`",
        )

    # ------------------------------------------------------------------------------------
    # meta-level (pure Python) expressions
    # ------------------------------------------------------------------------------------
    def meta_scan(self, node: cst.CSTNode) -> str | None:
        """ "lit" if `node` is pure Python built from literals only, "sym" if it also involves
        values filled in by the specialization (self.x, Constexpr parameters), None otherwise."""
        fc = self.fc
        if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)):
            return "lit"
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return "lit"
            var = fc.env.lookup(node.value)
            if var is not None:
                if var.value is not None:
                    return _value_scan(var.value)
                if var.alias is not None:
                    return self.meta_scan(var.alias)
                if var.kind.cat is Cat.CONSTEXPR:
                    return "sym"
                return None
            if node.value in self.mod.info.constants and node.value not in fc.env.hidden:
                return "lit"
            return None
        if isinstance(node, cst.Attribute):
            name = dotted(node)
            if name is None:
                return None
            resolved = self.mod.names.resolve(node)
            if resolved is not None and (
                resolved.startswith("math.") or _dsl_constant(fc, resolved) is not None
            ):
                return "lit"
            traced = fc.traced_attribute(node)
            if traced is not None:
                return _value_scan(traced.value)
            base = node
            while isinstance(base.value, cst.Attribute):
                base = base.value
            if fc.traced_attribute(base) is not None:  # `self.x.width`, x set while tracing
                return None
            if fc.self_name and name.startswith(fc.self_name + "."):
                first = name.split(".")[1]
                cls = fc.fn.cls
                if cls is not None and (first in cls.methods or first in cls.plain_methods):
                    return None
                if first in fc.struct_types:  # a @cute.struct class: a C++ type
                    return None
                return "sym"
            return None
        if isinstance(node, cst.Call):
            fname = self._meta_callable(node.func)
            if fname is None:
                return None
            scans = [self.meta_scan(a.value) for a in node.args]
            if any(s is None for s in scans):
                return None
            if fname in ("plain", "plain_method"):
                return "sym"
            return "sym" if "sym" in scans else "lit"
        if isinstance(node, cst.Comparison):
            if self._is_none_test(node):
                return "sym"
            return self._combine([node.left, *(t.comparator for t in node.comparisons)])
        if isinstance(node, (cst.BinaryOperation, cst.BooleanOperation)):
            return self._combine([node.left, node.right])
        if isinstance(node, cst.UnaryOperation):
            return self.meta_scan(node.expression)
        if isinstance(node, cst.IfExp):
            return self._combine([node.test, node.body, node.orelse])
        if isinstance(node, cst.Tuple):
            if not node.elements:
                return None
            return self._combine([e.value for e in node.elements])
        if isinstance(node, cst.Subscript):
            parts: list[cst.CSTNode] = [node.value]
            for el in node.slice:
                if not isinstance(el.slice, cst.Index):
                    return None
                parts.append(el.slice.value)
            if self.meta_scan(node.value) is None:
                return None
            return self._combine(parts)
        return None

    def _combine(self, parts: Sequence[cst.CSTNode]) -> str | None:
        scans = [self.meta_scan(p) for p in parts]
        if any(s is None for s in scans):
            return None
        return "sym" if "sym" in scans else "lit"

    def _none_tested(self, node: cst.Comparison) -> Var | None:
        """The variable of `x is None` / `x is not None`, or None for other comparisons."""
        if len(node.comparisons) != 1:
            return None
        op = node.comparisons[0].operator
        right = node.comparisons[0].comparator
        if not (
            isinstance(op, (cst.Is, cst.IsNot))
            and isinstance(right, cst.Name)
            and right.value == "None"
            and isinstance(node.left, cst.Name)
        ):
            return None
        return self.fc.env.lookup(node.left.value)

    def _is_none_test(self, node: cst.Comparison) -> bool:
        return self._none_tested(node) is not None

    def _none_test_now(self, node: cst.Comparison) -> Val | None:
        """`x is None` decided at translation, as at the DSL's trace time: a value computed in
        the function (a tensor, a number) is never None. A parameter's None-ness is decided per
        specialization (a Meta member); a compile-time alias by its value."""
        var = self._none_tested(node)
        if var is None or var.alias is not None or var.param:
            return None
        is_none = var.value is not None and (
            var.value.kind.cat is Cat.LITERAL and var.value.kind.value is None
        )
        negated = isinstance(node.comparisons[0].operator, cst.IsNot)
        return Val(k.literal(is_none != negated), node=node)

    def _meta_callable(self, func: cst.BaseExpression) -> str | None:
        resolved = self.mod.names.resolve(func)
        if resolved is not None:
            if resolved.startswith("math."):
                return resolved
            if resolved.startswith("builtins.") and resolved[9:] in META_BUILTINS:
                return resolved
            return None
        if isinstance(func, cst.Name) and func.value in self.mod.info.plain_functions:
            if self.fc.env.lookup(func.value) is None:
                return "plain"
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value == self.fc.self_name
            and self.fc.fn.cls is not None
            and func.attr.value in self.fc.fn.cls.plain_methods
        ):
            return "plain_method"
        return None

    def substitute(self, node: cst.BaseExpression) -> cst.BaseExpression:
        return node.visit(_AliasSubstituter(self.fc))  # type: ignore[return-value]

    def lower_meta(self, node: cst.BaseExpression, scan: str, role: Role | None = None) -> Val:
        fc = self.fc
        if isinstance(node, cst.Name) and node.value not in ("True", "False", "None"):
            var = fc.env.lookup(node.value)
            if var is not None and var.alias is not None:
                return self.lower(var.alias)
            if var is not None and var.kind.cat is Cat.CONSTEXPR:
                return Val(var.kind, c.Id(var.cxx), node=node)
        substituted = self.substitute(node)
        if scan == "lit":
            try:
                value = fold(self.mod.code(substituted), self.mod.constant_values())
            except FoldLimit as exc:
                raise fc.error(
                    node,
                    "constant-too-large",
                    f"this compile-time expression is too large to fold: {exc}",
                    "bbx folds integers up to 4096 bits and sequences up to 100000 elements",
                ) from None
            except Exception as exc:  # noqa: BLE001 - any evaluation failure is a diagnostic
                raise fc.error(
                    node,
                    "constant-evaluation",
                    f"cannot evaluate this constant expression ({type(exc).__name__}: {exc})",
                ) from None
            if not isinstance(value, (int, float, bool, str, tuple, type(None))):
                raise fc.error(
                    node,
                    "unsupported-value",
                    f"constant of type {type(value).__name__} has no C++ form",
                )
            return Val(k.literal(value), node=node)
        # Integer arithmetic on static values stays in C++ (Int<N> algebra).
        if isinstance(node, cst.BinaryOperation) and type(node.operator) in _BINARY_OPS:
            if m.infer_kind(substituted, self.leaf_kinds()) == m.STATIC_INT:
                return self._binary(node)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            inner = self.lower(node.expression)
            if inner.kind.cat is not Cat.META or inner.kind.meta_kind == m.STATIC_INT:
                return Val(inner.kind, c.Unary("-", self.materialize(inner, True, node)), node=node)
        if isinstance(node, cst.Tuple):
            return self._tuple(node, role)
        kind = m.infer_kind(substituted, self.leaf_kinds())
        member = fc.add_meta(substituted, kind)
        return Val(Kind(Cat.META, value=member.name, meta_kind=member.kind), node=node)

    def leaf_kinds(self) -> dict[str, str]:
        return self.fc.leaf_kinds  # type: ignore[attr-defined, no-any-return]

    # ------------------------------------------------------------------------------------
    # structural lowering
    # ------------------------------------------------------------------------------------
    def _lower(self, node: cst.BaseExpression, role: Role | None) -> Val:
        visit = getattr(self, f"visit_{type(node).__name__}", None)
        if visit is None:
            raise self.fc.error(
                node,
                "unsupported-construct",
                _describe(node) + " is not supported",
                "CuTe DSL kernels support scalar, tensor and layout expressions only",
            )
        return visit(node, role)  # type: ignore[no-any-return]

    # -- one method per expression node type ------------------------------------------------
    def visit_Name(self, node: cst.Name, role: Role | None) -> Val:
        return self._name(node)

    def visit_Attribute(self, node: cst.Attribute, role: Role | None) -> Val:
        return self._attribute(node)

    def visit_Call(self, node: cst.Call, role: Role | None) -> Val:
        return self.lower_call(node)

    def lower_call(self, node: cst.Call) -> Val:
        """Calls are lowered by `bbx.lowering.call.CallLowerer`, which extends this class."""
        raise NotImplementedError

    def dunder_call(
        self, node: cst.CSTNode, receiver: Val, name: str,
        args: Sequence[cst.BaseExpression],
    ) -> Val | None:
        """`obj[i]`, `len(obj)` of an object whose class defines `__getitem__`, `__len__`: that
        method, traced as Python calls it (`bbx.lowering.call.CallLowerer`); None without one."""
        return None

    def visit_Subscript(self, node: cst.Subscript, role: Role | None) -> Val:
        return self._subscript(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation, role: Role | None) -> Val:
        return self._binary(node)

    def visit_UnaryOperation(self, node: cst.UnaryOperation, role: Role | None) -> Val:
        return self._unary(node)

    def visit_Comparison(self, node: cst.Comparison, role: Role | None) -> Val:
        return self._comparison(node)

    def visit_Tuple(self, node: cst.Tuple, role: Role | None) -> Val:
        return self._tuple(node, role)

    def visit_List(self, node: cst.List, role: Role | None) -> Val:
        return self._tuple(node, role)

    def visit_BooleanOperation(self, node: cst.BooleanOperation, role: Role | None) -> Val:
        op = "&&" if isinstance(node.operator, cst.And) else "||"
        lv = self.lower(node.left)
        rv = self.lower(node.right)
        static = self.static_context(lv, rv)
        left = self.materialize(lv, static, node.left)
        right = self.materialize(rv, static, node.right)
        kind = k.STATIC if static else k.dynamic("bool")
        return Val(kind, c.Binary(op, left, right), node=node)

    def visit_IfExp(self, node: cst.IfExp, role: Role | None) -> Val:
        cond = self.lower(node.test)
        if cond.kind.cat is Cat.LITERAL:  # decided now, as at the DSL's trace time
            return self.lower(node.body if cond.kind.value else node.orelse, role)
        if cond.kind.cat in (Cat.META, Cat.STATIC, Cat.CONSTEXPR):
            return self._static_if_expression(node, cond, role)
        test = self.materialize(cond, False, node.test)
        body = self.lower(node.body)
        other = self.lower(node.orelse)
        static = self.static_context(body, other)
        kind = body.kind if body.kind.cat not in (Cat.LITERAL,) else other.kind
        if kind.cat is Cat.LITERAL:
            kind = k.VALUE
        expr = c.Ternary(
            test,
            self.materialize(body, static, node.body),
            self.materialize(other, static, node.orelse),
        )
        return Val(kind, expr, node=node)

    def _static_if_expression(self, node: cst.IfExp, cond: Val, role: Role | None) -> Val:
        """`a if c else b` with a compile-time `c`: a type (`std::conditional_t`) or a value of
        either branch's type, only the chosen one instantiated (`c.StaticChoice`)."""
        test = self.materialize(cond, True, node.test)
        body = self.lower(node.body, role)
        other = self.lower(node.orelse, role)
        if body.kind.cat is Cat.TYPE or other.kind.cat is Cat.TYPE:
            types = (self.as_type(node.body), self.as_type(node.orelse))
            chosen = c.Type("std::conditional_t", (test, *types))
            return Val(k.TYPE, type=chosen, node=node)
        return self.static_choice(test, (body, node.body), (other, node.orelse), node, role)

    def static_choice(
        self,
        test: c.Expr,
        then: tuple[Val, cst.CSTNode],
        other: tuple[Val, cst.CSTNode],
        node: cst.CSTNode,
        role: Role | None = None,
    ) -> Val:
        """`then if test else other` with a compile-time C++ `test`: only the chosen value is
        instantiated (`c.StaticChoice`); each value comes with the node it was lowered from."""
        (a, a_node), (b, b_node) = then, other
        static = self.static_context(a, b)
        kind = a.kind if a.kind == b.kind else k.VALUE
        if all(_static_integer_arm(v) for v in (a, b)):
            # Python ints on both arms (`4 if c else 1`, `tiler[1] if row_major else tiler[0]`):
            # a compile-time integer, as in the DSL.
            static, kind = True, k.STATIC
        elif kind.cat in (Cat.LITERAL, Cat.META):
            kind = k.VALUE
        a_expr = self.materialize(a, static, a_node, role)
        b_expr = self.materialize(b, static, b_node, role)
        return Val(kind, c.StaticChoice(test, a_expr, b_expr), node=node)

    def visit_Dict(self, node: cst.Dict, role: Role | None) -> Val:
        """A dict with keys known at translation: its values by key, as the DSL sees it
        (`d["tile"]` is the value; the dict itself is no C++ value)."""
        keys: list[str] = []
        items: list[Val] = []
        for element in node.elements:
            if not isinstance(element, cst.DictElement):
                raise self.fc.error(element, "unsupported-construct", "`**` in a dict literal")
            key = self.lower(element.key)
            if key.kind.cat is not Cat.LITERAL or not isinstance(key.kind.value, (str, int)):
                raise self.fc.error(
                    element.key,
                    "unsupported-value",
                    "a dict key that is not known at compile time",
                    "use string or integer literals (or constants) as keys",
                )
            keys.append(repr(key.kind.value))
            items.append(self.lower(element.value))
        return Val(Kind(Cat.RECORD), None, node=node, items=tuple(items), fields=tuple(keys))

    def visit_FormattedString(self, node: cst.FormattedString, role: Role | None) -> Val:
        """An f-string: a Python string at trace time, for host-only uses (kernel names,
        messages). Using it at run time is the usual error for strings."""
        return Val(k.literal(self.mod.code(node)), node=node)

    def visit_Lambda(self, node: cst.Lambda, role: Role | None) -> Val:
        raise self.fc.error(
            node,
            "non-constexpr-lambda",
            "a lambda can only be passed to a `cutlass.Constexpr` parameter",
            "annotate the receiving parameter with `cutlass.Constexpr`",
        )

    # -- what registry entries may ask of the lowering (bbx.dsl.lowerer.Lowerer) --------------
    def error(self, node: cst.CSTNode, code: str, what: str, hint: str = "") -> TranslationError:
        return self.fc.error(node, code, what, hint)

    def code(self, node: cst.CSTNode) -> str:
        return self.mod.code(node)

    def site_number(self, node: cst.CSTNode) -> int:
        line, col = self.mod.position(node)
        return zlib.crc32(f"{self.mod.file_name}:{line}:{col}".encode()) & 0x7FFFFFFF

    def bind(
        self, node: cst.Call, params: Sequence[str], what: str, required: int
    ) -> dict[str, cst.BaseExpression]:
        fc = self.fc
        bound: dict[str, cst.BaseExpression] = {}
        positional = 0
        for arg in node.args:
            if arg.star:
                raise fc.error(
                    arg, "unsupported-construct", "`*`/`**` arguments are not supported"
                )
            if arg.keyword is None:
                if positional >= len(params):
                    raise fc.error(arg, "bad-arguments", f"too many arguments to {what}")
                bound[params[positional]] = arg.value
                positional += 1
                continue
            kw = arg.keyword.value
            if kw in params:
                if kw in bound:
                    raise fc.error(arg, "bad-arguments", f"{what} got '{kw}' twice")
                bound[kw] = arg.value
            elif kw not in IGNORED_KEYWORDS:
                raise fc.error(
                    arg,
                    "unsupported-keyword",
                    f"keyword argument '{kw}' of {what} is not supported",
                )
        for p in params[:required]:
            if p not in bound:
                raise fc.error(node, "bad-arguments", f"{what} needs argument '{p}'")
        return bound

    def _name(self, node: cst.Name) -> Val:
        fc = self.fc
        var = fc.env.lookup(node.value)
        if var is not None:
            if var.value is not None:
                return var.value
            if var.alias is not None:
                return self.lower(var.alias)
            if var.kind.cat is Cat.TYPE:
                return Val(var.kind, type=c.Type(var.cxx), node=node)
            return Val(var.kind, c.Id(var.cxx), node=node)
        hidden = fc.env.hidden.get(node.value)
        if hidden is not None:
            raise fc.error(
                node,
                "dynamic-scope",
                f"'{node.value}' is defined inside a {hidden.region} (line {hidden.line}) and is "
                "not visible after it",
                "define it before the block (with the same type on every path)",
            )
        if node.value in self.mod.info.structs:
            return Val(k.TYPE, type=c.Type(node.value), node=node)
        resolved = self.mod.names.resolve(node)
        if resolved is not None:
            return self._dsl_value(node, resolved)
        imported = self.mod.names.imported(node)
        if imported is not None:
            raise fc.error(
                node,
                "unsupported-module",
                f"'{node.value}' is imported from '{imported}', which generated code cannot use",
                "kernels may only use cutlass, cutlass.cute, math and operator",
            )
        if node.value in self.mod.info.plain_functions or self.mod.info.free_function(node.value):
            raise fc.error(
                node,
                "unsupported-value",
                f"function '{node.value}' used as a value",
                "only lambdas and `operator.*` may be passed as Constexpr functions",
            )
        raise fc.error(
            node,
            "undefined-name",
            f"'{node.value}' is not defined in this function",
            "only parameters, locals and module-level literal constants are visible to kernels",
        )

    def _dsl_value(self, node: cst.BaseExpression, resolved: str) -> Val:
        return self.entry(node, resolved).lower_value(self, node, resolved)

    def entry(self, node: cst.CSTNode, resolved: str) -> Entry:
        """The registry entry of a name that resolves outside the module (`cute.size`,
        `builtins.abs`, `math.log2`), or the diagnostic for one that has none."""
        entry = REGISTRY.lookup(resolved)
        if entry is not None:
            return entry
        fc = self.fc
        if resolved.startswith("math."):
            raise fc.error(
                node,
                "runtime-math",
                f"'{resolved}' applied to a run-time value",
                "Python's math module only works on compile-time constants",
            )
        if resolved.startswith("builtins."):
            raise fc.error(
                node,
                "unsupported-builtin",
                f"Python builtin '{resolved[9:]}' is not supported in kernels",
                "supported: abs, min, max, int, float, bool, range, print (dropped)",
            )
        raise fc.error(
            node,
            "unknown-dsl-name",
            f"'{resolved}' is not a name of CuTe DSL (4.8.1)",
            "check the spelling; `python -m bbx.dsl.coverage` lists the names bbx knows",
        )

    def _attribute(self, node: cst.Attribute) -> Val:
        fc = self.fc
        resolved = self.mod.names.resolve(node)
        if resolved is not None and not self._member_of_entry(resolved):
            return self._dsl_value(node, resolved)
        attr = node.attr.value
        traced = fc.traced_attribute(node)
        if traced is not None and attr in fc.traced_params:  # a kernel's parameter
            return fc.traced_params[attr]
        if traced is not None:
            if traced.runtime and traced.function != fc.fn.cxx_name:
                raise fc.error(
                    node,
                    "traced-attribute",
                    f"self.{attr} holds a run-time value set by another method (line "
                    f"{traced.line})",
                    "pass the value to the kernel or helper as an argument",
                )
            return traced.value
        if (
            isinstance(node.value, cst.Name)
            and node.value.value == fc.self_name
            and fc.fn.cls is not None
            and (attr in fc.fn.cls.methods or attr in fc.fn.cls.plain_methods)
        ):
            raise fc.error(
                node, "unsupported-value", f"method '{attr}' used as a value", "call it instead"
            )
        if (
            isinstance(node.value, cst.Name)
            and node.value.value == fc.self_name
            and attr in fc.struct_types
        ):
            if fc.role == "device":
                raise fc.error(
                    node,
                    "unsupported-value",
                    f"self.{attr} (a @cute.struct class) read in a @cute.jit helper",
                    "read it in the kernel and pass the struct or its fields to the helper",
                )
            return Val(k.TYPE, type=c.Type(fc.struct_types[attr]), node=node)
        obj = self.lower(node.value)
        cat = obj.kind.cat
        field = obj.field(attr)
        if field is not None:  # a record known field by field
            return field
        if cat is Cat.RECORD:  # a record passed in C++: its struct's member
            objx = self.materialize(obj, False, node.value)
            return Val(k.VALUE, c.Member(objx, cxx_name(attr)), node=node)
        if cat in (Cat.STRUCT_REF, Cat.STRUCT_FIELD):
            objx = self.materialize(obj, False, node.value)
            if attr == "ptr" and cat is Cat.STRUCT_FIELD:  # a scalar field's pointer
                return Val(k.VALUE, c.Call(c.Member(objx, "ptr")), node=node)
            return Val(
                Kind(Cat.STRUCT_FIELD),
                c.Member(objx, cxx_name(attr), arrow=cat is Cat.STRUCT_REF),
                node=node,
            )
        member = REGISTRY.member(cat, attr)
        if member is None:
            raise fc.error(
                node,
                "unsupported-attribute",
                f"attribute '{attr}' of a {obj.kind.describe()} is not supported",
            )
        objx = self.materialize(obj, False, node.value)
        return member.lower_attribute(self, node, obj, objx, attr)

    def array_slice(self, node: cst.Subscript, base: Val) -> tuple[c.Expr, c.Expr] | None:
        """(start, count) of `a[start:count]` (or `a[start:count, alignment]`) on a
        cutlass.Array or tensor: the DSL's vector access of `count` elements from linear index
        `start` (`count` a compile-time integer; not Python's stop)."""
        if base.kind.cat is not Cat.TENSOR or not node.slice:
            return None
        first = node.slice[0].slice
        if not isinstance(first, cst.Slice) or len(node.slice) > 2:
            return None
        if first.lower is None or first.upper is None or first.step is not None:
            raise self.fc.error(node, "not-yet-supported",
                                "only the DSL's vector slice a[start:count] is supported",
                                "open-ended views (a[start:]) and steps are not yet supported")
        count = self.lower(first.upper)
        if count.kind.cat is Cat.LITERAL and isinstance(count.kind.value, int):
            if count.kind.value <= 0:
                raise self.fc.error(first.upper, "bad-arguments",
                                    f"invalid vector count {count.kind.value}")
        n = self.static_int_expr(count, first.upper)
        if n is None:
            raise self.fc.error(first.upper, "bad-arguments",
                                "the count of a[start:count] must be a compile-time integer",
                                "the DSL loads a vector of a static length")
        return self.value(first.lower), n

    def static_int_expr(self, val: Val, node: cst.CSTNode) -> c.Expr | None:
        """A compile-time integer as a C++ constant expression, for a template argument: a
        literal (`4`), a Meta member (`Meta::n::value`) or a static value
        (`decltype(x)::value`); None when `val` is not one."""
        kind = val.kind
        if kind.cat is Cat.LITERAL:
            is_int = isinstance(kind.value, int) and not isinstance(kind.value, bool)
            return c.Lit(str(kind.value)) if is_int else None
        if kind.cat is Cat.META:
            static = kind.meta_kind == m.STATIC_INT
            return c.ValueOf(c.Type(f"Meta::{kind.value}")) if static else None
        if kind.cat in (Cat.STATIC, Cat.CONSTEXPR):
            return c.ValueOf(c.Decltype(self.materialize(val, True, node)))
        return None

    @staticmethod
    def _member_of_entry(resolved: str) -> bool:
        """`cutlass.Float16.width`: an attribute of a DSL value that has an entry, lowered as a
        member of that value."""
        parent = resolved.rpartition(".")[0]
        return not REGISTRY.has_entry(resolved) and REGISTRY.has_entry(parent)

    def held(self, val: Val, stands_for: cst.CSTNode) -> cst.Name:
        """A name bbx writes for a value already lowered (an operand given to its operator
        method, a helper's folded result), so that lowering it again reads the value instead of
        emitting it twice."""
        env = self.fc.env
        name = env.reserve_name("_bbx_operand")
        env.define(Var(name, name, val.kind, self.mod.position(stands_for)[0], value=val))
        held = cst.Name(name)
        self.mod.stands_for[held] = stands_for
        return held

    def _operator_method(self, node: cst.CSTNode, dunder: str, left: Val,
                         right: Val | None = None) -> Val | None:
        """`a + b` of a record whose class defines `__add__` (else `b.__radd__(a)`), `-a` by
        `__neg__`...: the method, as Python calls it; None when neither operand has one."""
        operands = (left,) if right is None else (left, right)
        if all(v.kind.cat is not Cat.RECORD for v in operands):
            return None
        if right is None:
            return self.dunder_call(node, left, f"__{dunder}__", ())
        called = self.dunder_call(node, left, f"__{dunder}__", (self.held(right, node),))
        if called is None:
            called = self.dunder_call(node, right, f"__r{dunder}__", (self.held(left, node),))
        return called

    def _pick(self, index: c.Expr, items: Sequence[Val], node: cst.CSTNode) -> Val:
        """`seq[i]` at an index only C++ knows: the element C++ picks, by reference (its kind
        when every element has that one). Records of one class stay records known field by
        field, each field picked in turn (`seq[i].pos.x` reads one member); Python values equal
        in every element stay that value."""
        first = items[0]
        if first.fields is not None and first.items is not None and all(
            v.kind == first.kind and v.fields == first.fields and v.items is not None
            for v in items
        ):
            fields = tuple(
                self._pick(index, [v.items[j] for v in items if v.items is not None], node)
                for j in range(len(first.fields))
            )
            return Val(first.kind, None, node=node, items=fields, fields=first.fields)
        if python_level(first) and all(v.kind == first.kind for v in items):
            return first
        kinds = {item.kind for item in items}
        kind = kinds.pop() if len(kinds) == 1 else k.VALUE
        picked = (index, *(self.materialize(v, False, v.node or node) for v in items))
        return Val(kind, c.Call(c.Id("pick"), picked), node=node)

    def _subscript(self, node: cst.Subscript) -> Val:
        fc = self.fc
        base = self.lower(node.value)
        vector = self.array_slice(node, base)
        if vector is not None:  # `a[start:count]`: a register value of count elements
            start, count = vector
            array = self.materialize(base, False, node.value)
            return Val(Kind(Cat.TENSOR_SSA), c.Call(c.Id("array_load"), (array, start), (count,)),
                       node=node)
        if base.kind.cat is Cat.TENSOR_SSA and any(isinstance(e.slice, cst.Slice)
                                                   for e in node.slice):  # a Vector's slice
            return vector_subscript(self, node, self.materialize(base, False, node.value))
        indices: list[cst.BaseExpression] = []
        for el in node.slice:
            if not isinstance(el.slice, cst.Index):
                raise fc.error(
                    el,
                    "unsupported-construct",
                    "slices with ':' are not supported",
                    "use None to keep a mode: t[None, 0]",
                )
            indices.append(el.slice.value)
        if base.kind.cat is Cat.RECORD:
            argument = indices[0] if len(indices) == 1 else cst.Tuple(
                [cst.Element(i) for i in indices])
            called = self.dunder_call(node, base, "__getitem__", (argument,))
            if called is not None:
                return called
        if len(indices) == 1 and isinstance(indices[0], cst.Tuple):
            indices = [e.value for e in indices[0].elements]
        if base.fields is not None and base.kind.value is None and len(indices) == 1:
            key = self.lower(indices[0])
            found = base.field(repr(key.kind.value)) if key.kind.cat is Cat.LITERAL else None
            if found is None:
                raise fc.error(node, "key-error", f"no key {self.code(indices[0])} in this dict")
            return found
        if base.items is not None and len(indices) == 1:  # an element of a Python sequence
            idx = self.lower(indices[0])
            if idx.kind.cat is Cat.LITERAL and isinstance(idx.kind.value, int):
                try:
                    return base.items[idx.kind.value]
                except IndexError:
                    raise fc.error(
                        node, "index-error", f"index {idx.kind.value} out of range "
                        f"(the sequence has {len(base.items)} elements)"
                    ) from None
        elements = value_items(base) if base.fields is None else None  # (a literal tuple too)
        if elements and len(indices) == 1:
            idx = self.lower(indices[0])
            if _static_index(idx):  # `seq[i]`, i a range_constexpr variable or a Constexpr
                return self._pick(self.materialize(idx, True, indices[0]), elements, node)
        basex = self.materialize(base, False, node.value)
        if base.kind.cat is Cat.STRUCT_FIELD and len(indices) == 1:  # a MemRange element
            index = self.value(indices[0])
            return Val(k.VALUE, c.Call(basex, (index,)), node=node, tensor_element=True)
        if base.kind.cat in (Cat.TENSOR, Cat.TENSOR_SSA):
            coords = [(i, self.lower(i, roles.COORD)) for i in indices]
            args = tuple(self.materialize(v, True, i, roles.COORD) for i, v in coords)
            # A subscript with a run-time index selects an element; with `None` a sub-tensor.
            is_slice = any(_kind_has_underscore(v.kind) for _, v in coords)
            kind = k.TENSOR if is_slice else k.VALUE
            element = not is_slice and base.kind.cat is Cat.TENSOR
            return Val(kind, c.Call(basex, args), node=node, tensor_element=element)
        if base.kind.cat is Cat.VALUE:
            # Known only at instantiation (a helper's result, a parameter): a tensor or a tuple;
            # bbx::subscript indexes either (get<I> for a static index into a tuple).
            args = tuple(self.value(i, True, roles.COORD) for i in indices)
            is_slice = any(_has_none(i) for i in indices)
            return Val(
                k.TENSOR if is_slice else k.VALUE,
                c.Call(c.Id("subscript"), (basex, *args)),
                node=node,
                tensor_element=not is_slice,
            )
        if len(indices) == 1:
            idx = self.lower(indices[0])
            if base.kind.cat is Cat.TUPLE and _static_index(idx):  # C++'s get<i>
                kinds = set(base.kind.elems)
                at = self.materialize(idx, True, indices[0])
                return Val(kinds.pop() if len(kinds) == 1 else k.VALUE,
                           c.Call(c.Id("subscript"), (basex, at)), node=node)
            if idx.kind.cat is Cat.LITERAL and isinstance(idx.kind.value, int):
                i = int(idx.kind.value)
                kind = k.VALUE
                elems = base.kind.elems if base.kind.cat is Cat.TUPLE else ()
                if elems and -len(elems) <= i < len(elems):
                    kind = elems[i]
                    i = i % len(elems)
                elif base.kind.cat is Cat.LAYOUT:
                    kind = k.LAYOUT
                if i < 0:  # from the end of a tuple whose rank C++ knows: bbx::subscript
                    call: c.Expr = c.Call(c.Id("subscript"), (basex, static_int(i)))
                else:
                    call = c.Call(c.Id("get"), (basex,), (c.Lit(str(i)),))
                return Val(kind, call, node=node)
        raise fc.error(
            node,
            "unsupported-construct",
            f"indexing a {base.kind.describe()} with a run-time index is not supported",
            "tuples and layouts are indexed with literal integers (get<I>)",
        )

    def static_context(self, *vals: Val) -> bool:
        """Whether integer literals next to these values are static (`_4{}`)."""
        cats = {v.kind.cat for v in vals}
        if cats & _RUNTIME_CATS:
            return False
        for v in vals:
            if v.kind.cat in (Cat.STATIC, Cat.CONSTEXPR, Cat.TYPE):
                return True
            if v.kind.cat is Cat.META and v.kind.meta_kind == m.STATIC_INT:
                return True
        # Configuration values combined with each other or with Python ints
        # (`atom_layout[1] * self.mma_shape[1]` where the Python expression is no single Meta
        # member): Python values, so static, as the DSL computes them at trace time.
        metas = [v for v in vals if v.kind.cat is Cat.META]
        return bool(metas) and all(
            (v.kind.cat is Cat.META and v.kind.meta_kind in (m.STATIC_INT, m.VALUE))
            or _literal_int(v)
            for v in vals
        )

    def _binary(self, node: cst.BinaryOperation) -> Val:
        fc = self.fc
        left = self.lower(node.left)
        right = self.lower(node.right)
        dunder = _OPERATOR_METHODS.get(type(node.operator))
        called = None if dunder is None else self._operator_method(node, dunder, left, right)
        if called is not None:
            return called
        joined = _joined_sequence(node, left, right)
        if joined is not None:
            return joined
        op = _BINARY_OPS.get(type(node.operator))
        if op is None:
            what = (
                "`**` on run-time values"
                if isinstance(node.operator, cst.Power)
                else (f"operator '{self.mod.code(node.operator).strip()}'")
            )
            raise fc.error(
                node,
                "unsupported-operator",
                f"{what} is not supported",
                "`**` is only supported on compile-time constants",
            )
        static = self.static_context(left, right)
        lx = self.materialize(left, static, node.left)
        rx = self.materialize(right, static, node.right)
        cats = {left.kind.cat, right.kind.cat}
        if static and isinstance(node.operator, cst.Divide):
            # Python's true division of static numbers is a float (`width / 3`)
            return Val(k.STATIC, c.Call(c.Id("static_math::true_div"), (lx, rx)), node=node)
        if static:
            kind = k.STATIC
        elif Cat.TENSOR_SSA in cats:
            kind = Kind(Cat.TENSOR_SSA)
        elif Cat.DYNAMIC in cats:
            ctypes = {v.kind.ctype for v in (left, right) if v.kind.cat is Cat.DYNAMIC}
            kind = k.dynamic(ctypes.pop() if len(ctypes) == 1 else None)
        else:
            kind = k.VALUE
        return Val(kind, c.Binary(op, lx, rx), node=node)

    def _unary(self, node: cst.UnaryOperation) -> Val:
        inner = self.lower(node.expression)
        dunder = _UNARY_METHODS.get(type(node.operator))
        called = None if dunder is None else self._operator_method(node, dunder, inner)
        if called is not None:
            return called
        static = self.static_context(inner)
        x = self.materialize(inner, static, node.expression)
        if isinstance(node.operator, cst.Not):
            return Val(k.STATIC if static else k.dynamic("bool"), c.Unary("!", x), node=node)
        if isinstance(node.operator, cst.Plus):
            return Val(inner.kind, x, node=node)
        op = "-" if isinstance(node.operator, cst.Minus) else "~"
        return Val(inner.kind, c.Unary(op, x), node=node)

    def _comparison(self, node: cst.Comparison) -> Val:
        fc = self.fc
        parts: list[c.Expr] = []
        left_node: cst.BaseExpression = node.left
        left = self.lower(left_node)
        all_static = True
        for target in node.comparisons:
            op = _COMPARE_OPS.get(type(target.operator))
            if isinstance(target.operator, (cst.In, cst.NotIn)):
                member = self._membership(left, left_node, target)
                if member is not None:
                    all_static = all_static and member.kind.cat is not Cat.DYNAMIC
                    assert member.expr is not None
                    parts.append(member.expr)
                    left_node, left = target.comparator, self.lower(target.comparator)
                    continue
            if isinstance(target.operator, (cst.Is, cst.IsNot)) and left.kind.cat is Cat.TYPE:
                op = "==" if isinstance(target.operator, cst.Is) else "!="  # dtype is Float32
            if op is None:
                raise fc.error(
                    target,
                    "unsupported-operator",
                    f"'{self.mod.code(target.operator).strip()}' on run-time values "
                    "is not supported",
                    "`is`/`in` are only supported in compile-time (`const_expr`) conditions",
                )
            right = self.lower(target.comparator)
            static = self.static_context(left, right)
            all_static = all_static and static
            parts.append(
                c.Binary(
                    op,
                    self.materialize(left, static, left_node),
                    self.materialize(right, static, target.comparator),
                )
            )
            left_node, left = target.comparator, right
        expr = parts[0]
        for p in parts[1:]:
            expr = c.Binary("&&", expr, p)
        return Val(k.STATIC if all_static else k.dynamic("bool"), expr, node=node)

    def _membership(
        self, left: Val, left_node: cst.BaseExpression, target: cst.ComparisonTarget
    ) -> Val | None:
        """`x in (a, b, ...)` over a sequence known at translation: `x == a || x == b ...`
        (a compile-time fact for dtypes: `dtype in [cutlass.Float16, cutlass.BFloat16]`)."""
        right = self.lower(target.comparator)
        items = right.items
        if items is None and right.kind.cat is Cat.LITERAL and isinstance(
            right.kind.value, (tuple, list)
        ):
            items = tuple(Val(k.literal(v), node=target.comparator) for v in right.kind.value)
        if items is None:
            return None
        negate = isinstance(target.operator, cst.NotIn)
        if not items:
            return Val(k.literal(negate), c.Lit("true" if negate else "false"))
        static = self.static_context(left, *items)
        lhs = self.materialize(left, static, left_node)
        expr: c.Expr | None = None
        for item in items:
            rhs = self.materialize(item, static, item.node)
            test = c.Binary("!=" if negate else "==", lhs, rhs)
            expr = test if expr is None else c.Binary("&&" if negate else "||", expr, test)
        assert expr is not None
        return Val(k.STATIC if static else k.dynamic("bool"), expr)

    def _tuple(self, node: cst.Tuple | cst.List, role: Role | None = None) -> Val:
        if role is None:
            role = roles.COORD if _has_none(node) else roles.TUPLE
        if any(isinstance(e, cst.StarredElement) for e in node.elements):
            return self._starred_tuple(node, role)
        vals = [self.lower(e.value) for e in node.elements]
        return Val(
            Kind(Cat.TUPLE, elems=tuple(v.kind for v in vals)),
            self._tuple_of(vals, True, role, node, [e.value for e in node.elements]),
            node=node,
            items=tuple(vals),
        )

    def _starred_tuple(self, node: cst.Tuple | cst.List, role: Role) -> Val:
        """`(*a, b)`: a sequence known at translation is spliced element by element; a C++
        tuple (whose length only C++ knows) is concatenated with `tuple_cat`."""
        lowered = [(e, self.lower(e.value)) for e in node.elements]
        if all(_spliced(v) is not None for e, v in lowered if isinstance(e, cst.StarredElement)):
            vals: list[Val] = []
            nodes: list[cst.BaseExpression] = []
            for e, val in lowered:
                elements = _spliced(val) if isinstance(e, cst.StarredElement) else [val]
                assert elements is not None
                vals += elements
                nodes += [e.value] * len(elements)
            return Val(
                Kind(Cat.TUPLE, elems=tuple(v.kind for v in vals)),
                self._tuple_of(vals, True, role, node, nodes),
                node=node,
                items=tuple(vals),
            )
        # Runs of plain elements become tuples between the starred C++ tuples.
        parts: list[c.Expr | list[tuple[Val, cst.BaseExpression]]] = []
        for e, val in lowered:
            if isinstance(e, cst.StarredElement):
                parts.append(self.materialize(val, False, e.value))
            elif parts and isinstance(parts[-1], list):
                parts[-1].append((val, e.value))
            else:
                parts.append([(val, e.value)])
        joined = tuple(
            self._tuple_of([v for v, _ in p], True, role, node, [n for _, n in p])
            if isinstance(p, list) else p
            for p in parts
        )
        return Val(Kind(Cat.TUPLE), c.Call(c.Id("tuple_cat"), joined), node=node)

    def _tuple_of(
        self,
        vals: list[Val],
        static: bool,
        role: Role,
        node: cst.CSTNode | None,
        nodes: list[cst.BaseExpression] | None = None,
    ) -> c.Expr:
        maker = role.tuple_maker
        args = []
        for i, v in enumerate(vals):
            sub = nodes[i] if nodes else node
            if v.kind.cat is Cat.TUPLE and v.items is not None and v.expr is not None:
                # a nested tuple written here: the same maker, from its lowered elements
                args.append(self._tuple_of(list(v.items), static, role, sub))
            else:
                args.append(self.materialize(v, static, sub, role))
        return c.Call(c.Id(maker), tuple(args))


def _spliced(val: Val) -> list[Val] | None:
    """The elements `*val` spreads when the sequence is known at translation, else None."""
    if val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, tuple):
        return [Val(k.literal(v), node=val.node) for v in val.kind.value]
    return list(val.items) if val.items is not None else None


def _literal_int(val: Val) -> bool:
    return val.kind.cat is Cat.LITERAL and type(val.kind.value) is int


def _static_integer_arm(val: Val) -> bool:
    """An arm of a compile-time choice that is a Python integer: a literal, a static integer, or
    a configuration value (a Meta member, `C<Meta::x>` when used statically)."""
    if val.kind.cat is Cat.META:
        return val.kind.meta_kind in (m.STATIC_INT, m.VALUE)
    return _literal_int(val) or val.kind.cat is Cat.STATIC


def _substitute_value(value: Val) -> cst.BaseExpression:
    """The Python expression standing for a translation-time value in a folded or Meta
    expression: a literal's text, or the expression of a Meta value."""
    if value.kind.cat is Cat.LITERAL:
        return cst.parse_expression(_python_literal(value.kind.value))
    assert isinstance(value.node, cst.BaseExpression)
    if isinstance(value.node, (cst.Name, cst.Attribute, cst.Integer)):
        return value.node
    return value.node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _value_scan(val: Val) -> str | None:
    """How a name bound to a translation-time value takes part in a compile-time expression:
    a literal folds ("lit"), a Meta value is evaluated by the specialization ("sym")."""
    if val.kind.cat is Cat.LITERAL:
        return "lit"
    if val.kind.cat is Cat.META and isinstance(val.node, cst.BaseExpression):
        return "sym"
    return None


def _dsl_constant(fc: FunctionContext, resolved: str) -> object | None:
    """The value of a DSL constant (`cute.arch.WARP_SIZE`, `cutlass.Float32.inf`), or None."""
    from ..dsl.entry import Constant

    entry = REGISTRY.lookup(resolved)
    return entry.value if isinstance(entry, Constant) else None


def _python_literal(value: object) -> str:
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return f'float("{value}")'
    return repr(value)


def _kind_has_underscore(kind: Kind) -> bool:
    """A coordinate (e.g. a variable bound to `((None, None), i)`) that keeps modes."""
    if kind.cat is Cat.UNDERSCORE:
        return True
    if kind.cat is Cat.LITERAL:
        return _literal_has_none(kind.value)
    return kind.cat is Cat.TUPLE and any(_kind_has_underscore(e) for e in kind.elems)


def _literal_has_none(value: object) -> bool:
    if value is None:
        return True
    return isinstance(value, tuple) and any(_literal_has_none(v) for v in value)


def _has_none(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name) and node.value == "None":
        return True
    if isinstance(node, (cst.Tuple, cst.List)):
        return any(_has_none(e.value) for e in node.elements)
    return False


def _describe(node: cst.CSTNode) -> str:
    names = {
        cst.ListComp: "a list comprehension", cst.SetComp: "a set comprehension",
        cst.DictComp: "a dict comprehension", cst.GeneratorExp: "a generator expression",
        cst.Dict: "a dict literal", cst.Set: "a set literal", cst.Yield: "`yield`",
        cst.Await: "`await`", cst.NamedExpr: "the walrus operator `:=`",
        cst.FormattedString: "an f-string", cst.StarredElement: "`*` unpacking",
        cst.Ellipsis: "`...`",
    }  # fmt: skip
    return names.get(type(node), f"expression '{type(node).__name__}'")
