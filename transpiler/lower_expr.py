"""Lowering of Python expressions to C++ expressions, with a kind for each.

Python int literals are static (`_4{}`) wherever layout algebra or other static values are
involved and plain (`4`) next to run-time values. Pure-Python (meta) sub-expressions are folded
when they only involve literals, otherwise lifted into `Meta` members.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from . import cxx_ast as c
from . import dsl_api
from . import kinds as k
from . import meta as m
from .context import FunctionContext
from .cxx_names import cxx_name
from .imports import dotted
from .kinds import Cat, Kind

_BINARY_OPS: dict[type, str] = {
    cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "/",
    cst.Modulo: "%", cst.LeftShift: "<<", cst.RightShift: ">>", cst.BitAnd: "&",
    cst.BitOr: "|", cst.BitXor: "^",
}  # fmt: skip
_COMPARE_OPS: dict[type, str] = {
    cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=",
    cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
}  # fmt: skip
_LAYOUT_ROLES = frozenset({dsl_api.SHAPE, dsl_api.STRIDE, dsl_api.COORD, dsl_api.TILE})
_NAMED_INTS = {*range(33), 64, 128, 256}
_RUNTIME_CATS = frozenset({Cat.DYNAMIC, Cat.VALUE, Cat.TENSOR_SSA})
_TUPLE_MAKERS = {
    dsl_api.SHAPE: "make_shape",
    dsl_api.STRIDE: "make_stride",
    dsl_api.COORD: "make_coord",
    dsl_api.TILE: "make_tile",
    dsl_api.TUPLE: "make_tuple",
    dsl_api.ANY: "make_tuple",
}


@dataclass(frozen=True)
class Val:
    """A lowered expression. LITERAL and META values are materialised only when used, because
    their C++ spelling depends on the context (static `_4{}` or plain `4`)."""

    kind: Kind
    expr: c.Expr | None = None
    type: c.CxxType | None = None  # for TYPE kind
    node: cst.CSTNode | None = None
    #: An element of a tensor (`t[i]`): C++ gives a reference, or a proxy for packed predicates,
    #: so a variable declared from it copies the value (`value_copy`).
    tensor_element: bool = False


def static_int(n: int) -> c.Expr:
    if n in _NAMED_INTS:
        return c.Construct(c.Type(f"_{n}"))
    return c.Construct(c.Type("Int", (c.Lit(str(n)),)))


def static_int_type(n: int) -> c.CxxType:
    """`bbx::Int<n>`, a static integer as a type (a template argument)."""
    return c.Type("bbx::Int", (c.Lit(str(n)),))


def float_literal(value: float, ctype: str = "float") -> c.Expr:
    if value != value or value in (float("inf"), float("-inf")):
        suffix = "" if ctype == "double" else "f"
        if value != value:
            special: c.Expr = c.Lit(f'__builtin_nan{suffix}("")')
        else:
            special = c.Lit(f"__builtin_inf{suffix}()")
            if value < 0:
                special = c.Unary("-", special)
        if ctype in ("float", "double"):
            return special
        return c.Construct(c.Type(ctype), (special,), brace=False)
    text = repr(float(value))
    if "e" not in text and "." not in text and "inf" not in text and "nan" not in text:
        text += ".0"
    if ctype == "double":
        return c.Lit(text)
    if ctype == "float":
        return c.Lit(text + "f")
    return c.Construct(c.Type(ctype), (c.Lit(text + "f"),), brace=False)


def meta_type(member: str) -> c.Type:
    return c.Type(f"Meta::{member}", typename=True)


class _AliasSubstituter(cst.CSTTransformer):
    def __init__(self, fc: FunctionContext) -> None:
        self.fc = fc

    def leave_Attribute(
        self, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        resolved = self.fc.mod.names.resolve(original)
        if resolved is not None and resolved in dsl_api.CONSTANTS:
            return cst.parse_expression(_python_literal(dsl_api.CONSTANTS[resolved]))
        return updated

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        var = self.fc.env.lookup(original.value)
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
    def value(self, node: cst.BaseExpression, static: bool = False, role: str = "") -> c.Expr:
        return self.materialize(self.lower(node, role), static, node, role)

    def lower(self, node: cst.BaseExpression, role: str = "") -> Val:
        scan = self.meta_scan(node)
        if scan is not None:
            return self.lower_meta(node, scan, role)
        return self._lower(node, role)

    def materialize(
        self, val: Val, static: bool, node: cst.CSTNode | None = None, role: str = ""
    ) -> c.Expr:
        kind = val.kind
        where = node if node is not None else val.node
        if kind.cat is Cat.LITERAL:
            v = kind.value
            if isinstance(v, bool):
                return c.Lit("true" if v else "false")
            if isinstance(v, int):
                if static:
                    return static_int(v) if v >= 0 else c.Unary("-", static_int(-v))
                return c.Lit(str(v))
            if isinstance(v, float):
                return float_literal(v)
            if v is None:
                return c.Id("_")
            if isinstance(v, tuple):
                return self._tuple_of(
                    [Val(k.literal(e)) for e in v],
                    static=True,
                    role=role or dsl_api.ANY,
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
            if kind.meta_kind == m.VALUE and role in _LAYOUT_ROLES:
                # A Python value inside layout algebra: a static integer.
                self.fc.refine_meta(member, m.STATIC_INT)
                kind = Kind(Cat.META, value=member, meta_kind=m.STATIC_INT)
            if kind.meta_kind == m.STATIC_INT:
                return c.Construct(meta_type(member))
            if kind.meta_kind == m.TYPE:
                return c.Construct(c.Type("type_c", (meta_type(member),)))
            if kind.meta_kind == m.STRING:
                raise self.fc.error(
                    where or self.fc.fn.node,
                    "unsupported-value",
                    "a string value cannot be used at run time",
                    "compare it inside `cutlass.const_expr(...)` instead",
                )
            return c.Id(f"Meta::{member}")
        if kind.cat is Cat.TYPE:
            assert val.type is not None
            return c.Construct(c.Type("type_c", (val.type,)))
        if kind.cat is Cat.TUPLE and val.expr is None:
            raise self.fc.error(where or self.fc.fn.node, "unsupported-value", "empty tuple")
        assert val.expr is not None, val
        return val.expr

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
            if resolved is not None and (resolved.startswith("math.") or _dsl_constant(resolved)):
                return "lit"
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
            parts = [node.left, *(t.comparator for t in node.comparisons)]
            return self._combine(parts)
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

    def _combine(self, parts: list[cst.CSTNode]) -> str | None:
        scans = [self.meta_scan(p) for p in parts]
        if any(s is None for s in scans):
            return None
        return "sym" if "sym" in scans else "lit"

    def _is_none_test(self, node: cst.Comparison) -> bool:
        if len(node.comparisons) != 1:
            return False
        op = node.comparisons[0].operator
        right = node.comparisons[0].comparator
        return (
            isinstance(op, (cst.Is, cst.IsNot))
            and isinstance(right, cst.Name)
            and right.value == "None"
            and isinstance(node.left, cst.Name)
            and self.fc.env.lookup(node.left.value) is not None
        )

    def _meta_callable(self, func: cst.BaseExpression) -> str | None:
        resolved = self.mod.names.resolve(func)
        if resolved is not None:
            if resolved.startswith("math."):
                return resolved
            if resolved.startswith("builtins.") and resolved[9:] in dsl_api.META_BUILTINS:
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

    def lower_meta(self, node: cst.BaseExpression, scan: str, role: str = "") -> Val:
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
                value = m.fold(self.mod.code(substituted), self.module_constants())
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

    def module_constants(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for name, expr in self.mod.info.constants.items():
            if self.fc.env.lookup(name) is None:
                try:
                    out[name] = m.fold(self.mod.code(expr))
                except Exception:  # noqa: BLE001 - a bad constant is reported where it is used
                    continue
        return out

    def leaf_kinds(self) -> dict[str, str]:
        return self.fc.leaf_kinds  # type: ignore[attr-defined, no-any-return]

    # ------------------------------------------------------------------------------------
    # structural lowering
    # ------------------------------------------------------------------------------------
    def _lower(self, node: cst.BaseExpression, role: str) -> Val:
        from .lower_call import lower_call

        fc = self.fc
        if isinstance(node, cst.Name):
            return self._name(node)
        if isinstance(node, cst.Attribute):
            return self._attribute(node)
        if isinstance(node, cst.Call):
            return lower_call(self, node)
        if isinstance(node, cst.Subscript):
            return self._subscript(node)
        if isinstance(node, cst.BinaryOperation):
            return self._binary(node)
        if isinstance(node, cst.UnaryOperation):
            return self._unary(node)
        if isinstance(node, cst.BooleanOperation):
            op = "&&" if isinstance(node.operator, cst.And) else "||"
            lv = self.lower(node.left)
            rv = self.lower(node.right)
            static = self._static_context(lv, rv)
            left = self.materialize(lv, static, node.left)
            right = self.materialize(rv, static, node.right)
            kind = k.STATIC if static else k.dynamic("bool")
            return Val(kind, c.Binary(op, left, right), node=node)
        if isinstance(node, cst.Comparison):
            return self._comparison(node)
        if isinstance(node, cst.IfExp):
            test = self.value(node.test)
            body = self.lower(node.body)
            other = self.lower(node.orelse)
            static = self._static_context(body, other)
            kind = body.kind if body.kind.cat not in (Cat.LITERAL,) else other.kind
            if kind.cat is Cat.LITERAL:
                kind = k.VALUE
            expr = c.Ternary(
                test,
                self.materialize(body, static, node.body),
                self.materialize(other, static, node.orelse),
            )
            return Val(kind, expr, node=node)
        if isinstance(node, (cst.Tuple, cst.List)):
            return self._tuple(node, role)
        if isinstance(node, cst.Lambda):
            raise fc.error(
                node,
                "non-constexpr-lambda",
                "a lambda can only be passed to a `cutlass.Constexpr` parameter",
                "annotate the receiving parameter with `cutlass.Constexpr`",
            )
        raise fc.error(
            node,
            "unsupported-construct",
            _describe(node) + " is not supported",
            "CuTe DSL kernels support scalar, tensor and layout expressions only",
        )

    def _name(self, node: cst.Name) -> Val:
        fc = self.fc
        var = fc.env.lookup(node.value)
        if var is not None:
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
        if resolved in k.NUMERIC_TYPES:
            return Val(k.TYPE, type=c.Type(k.NUMERIC_TYPES[resolved]), node=node)
        if resolved in dsl_api.FUNCTORS:
            return Val(Kind(Cat.FUNC), c.Construct(c.Type(dsl_api.FUNCTORS[resolved])), node=node)
        if resolved.startswith("builtins."):
            raise self.fc.error(
                node, "unsupported-builtin", f"builtin '{resolved[9:]}' is not supported here"
            )
        if dsl_api.is_known(resolved):
            raise self.fc.error(
                node,
                "unsupported-value",
                f"'{resolved}' cannot be used as a value here",
                "call it, or use it in its documented position",
            )
        raise self.fc.error(
            node,
            "unknown-dsl-name",
            f"unknown CuTe DSL name '{resolved}'",
            "it is not (yet) supported by bbx; see `bbx.dsl_api` for the supported names",
        )

    def _attribute(self, node: cst.Attribute) -> Val:
        fc = self.fc
        resolved = self.mod.names.resolve(node)
        if resolved is not None:
            return self._dsl_value(node, resolved)
        attr = node.attr.value
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
        if cat in (Cat.STRUCT_REF, Cat.STRUCT_FIELD):
            objx = self.materialize(obj, False, node.value)
            if attr == "ptr" and cat is Cat.STRUCT_FIELD:  # a scalar field's pointer
                return Val(k.VALUE, c.Call(c.Member(objx, "ptr")), node=node)
            return Val(
                Kind(Cat.STRUCT_FIELD),
                c.Member(objx, cxx_name(attr), arrow=cat is Cat.STRUCT_REF),
                node=node,
            )
        if cat is Cat.TYPE and obj.type is not None:
            if attr == "width":
                bits = c.Type("sizeof_bits_v", (obj.type,))
                return Val(k.STATIC, c.Construct(c.Type("Int", (c.TypeValue(bits),))), node=node)
            raise fc.error(
                node,
                "unsupported-attribute",
                f"dtype attribute '{attr}' is not supported",
                "supported: .width",
            )
        objx = self.materialize(obj, False, node.value)
        if cat in (Cat.TENSOR, Cat.LAYOUT, Cat.VALUE, Cat.TENSOR_SSA):
            if attr in ("shape", "stride"):
                return Val(k.VALUE, c.Call(c.Member(objx, attr)), node=node)
            if attr == "layout" and cat is Cat.TENSOR:
                return Val(k.LAYOUT, c.Call(c.Member(objx, "layout")), node=node)
            if attr in ("element_type", "dtype"):
                t = c.Type("element_type_t", (c.Decltype(objx),))
                return Val(k.TYPE, type=t, node=node)
        if cat is Cat.DYNAMIC and attr == "dtype":
            return Val(k.TYPE, type=c.Decltype(objx), node=node)
        raise fc.error(
            node,
            "unsupported-attribute",
            f"attribute '{attr}' of a {obj.kind.describe()} is not supported",
        )

    def _subscript(self, node: cst.Subscript) -> Val:
        fc = self.fc
        base = self.lower(node.value)
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
        if len(indices) == 1 and isinstance(indices[0], cst.Tuple):
            indices = [e.value for e in indices[0].elements]
        basex = self.materialize(base, False, node.value)
        if base.kind.cat is Cat.STRUCT_FIELD and len(indices) == 1:  # a MemRange element
            index = self.value(indices[0])
            return Val(k.VALUE, c.Call(basex, (index,)), node=node, tensor_element=True)
        if base.kind.cat in (Cat.TENSOR, Cat.TENSOR_SSA):
            coords = [(i, self.lower(i, dsl_api.COORD)) for i in indices]
            args = tuple(self.materialize(v, True, i, dsl_api.COORD) for i, v in coords)
            # A subscript with a run-time index selects an element; with `None` a sub-tensor.
            is_slice = any(_kind_has_underscore(v.kind) for _, v in coords)
            kind = k.TENSOR if is_slice else k.VALUE
            element = not is_slice and base.kind.cat is Cat.TENSOR
            return Val(kind, c.Call(basex, args), node=node, tensor_element=element)
        if len(indices) == 1:
            idx = self.lower(indices[0])
            if idx.kind.cat is Cat.LITERAL and isinstance(idx.kind.value, int):
                i = int(idx.kind.value)
                kind = k.VALUE
                if base.kind.cat is Cat.TUPLE and i < len(base.kind.elems):
                    kind = base.kind.elems[i]
                elif base.kind.cat is Cat.LAYOUT:
                    kind = k.LAYOUT
                call = c.Call(c.Id("get"), (basex,), (c.Lit(str(i)),))
                return Val(kind, call, node=node)
        raise fc.error(
            node,
            "unsupported-construct",
            f"indexing a {base.kind.describe()} with a run-time index is not supported",
            "tuples and layouts are indexed with literal integers (get<I>)",
        )

    def _static_context(self, *vals: Val) -> bool:
        cats = {v.kind.cat for v in vals}
        if cats & _RUNTIME_CATS:
            return False
        for v in vals:
            if v.kind.cat in (Cat.STATIC, Cat.CONSTEXPR):
                return True
            if v.kind.cat is Cat.META and v.kind.meta_kind == m.STATIC_INT:
                return True
        return False

    def _binary(self, node: cst.BinaryOperation) -> Val:
        fc = self.fc
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
        left = self.lower(node.left)
        right = self.lower(node.right)
        static = self._static_context(left, right)
        lx = self.materialize(left, static, node.left)
        rx = self.materialize(right, static, node.right)
        cats = {left.kind.cat, right.kind.cat}
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
        static = self._static_context(inner)
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
            if op is None:
                raise fc.error(
                    target,
                    "unsupported-operator",
                    f"'{self.mod.code(target.operator).strip()}' on run-time values "
                    "is not supported",
                    "`is`/`in` are only supported in compile-time (`const_expr`) conditions",
                )
            right = self.lower(target.comparator)
            static = self._static_context(left, right)
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

    def _tuple(self, node: cst.Tuple | cst.List, role: str = "") -> Val:
        if not role:
            role = dsl_api.COORD if _has_none(node) else dsl_api.TUPLE  # type: ignore[arg-type]
        vals = [self.lower(e.value) for e in node.elements]
        return Val(
            Kind(Cat.TUPLE, elems=tuple(v.kind for v in vals)),
            self._tuple_of(vals, True, role or dsl_api.ANY, node, [e.value for e in node.elements]),
            node=node,
        )

    def _tuple_of(
        self,
        vals: list[Val],
        static: bool,
        role: str,
        node: cst.CSTNode | None,
        nodes: list[cst.BaseExpression] | None = None,
    ) -> c.Expr:
        maker = _TUPLE_MAKERS.get(role, "make_tuple")
        args = []
        for i, v in enumerate(vals):
            sub = nodes[i] if nodes else node
            if v.kind.cat is Cat.TUPLE and isinstance(sub, (cst.Tuple, cst.List)):
                args.append(
                    self._tuple_of(
                        [self.lower(e.value) for e in sub.elements],
                        static,
                        role,
                        sub,
                        [e.value for e in sub.elements],
                    )
                )
            else:
                args.append(self.materialize(v, static, sub, role))
        return c.Call(c.Id(maker), tuple(args))


def _dsl_constant(resolved: str) -> bool:
    return resolved in dsl_api.CONSTANTS


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
