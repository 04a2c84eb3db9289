"""Meta members: pure-Python values that the specialization unit computes and passes in.

A member is named after the Python expression it stands for (`self.norm == "l1"` ->
`self_norm_eq_l1`); its kind says how C++ uses it. Literal-only expressions are folded here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

#: Kinds of meta members.
STATIC_INT = "static integer"
BOOL = "bool"
FLOAT = "float"
STRING = "string"
TYPE = "type"
#: a tuple of ints (a tile shape in configuration): a static C++ tuple of `Int<N>`.
TUPLE = "static tuple"
VALUE = "value"
#: an object of a kernel class built in DSL code (`op = Gemm(a.element_type, (2, 2, 1))`): the
#: specialization builds it in Python and nests its `__call__`'s Meta members, evaluated with
#: `self` = the object, as a struct (bbx.lowering.kernel_objects).
OBJECT = "kernel object"


@dataclass(frozen=True)
class MetaMember:
    name: str  # C++ member name in `Meta`
    expr: str  # the Python expression the specialization evaluates
    kind: str  # one of the kinds above


_OP_WORDS = {
    cst.Equal: "eq", cst.NotEqual: "ne", cst.LessThan: "lt", cst.LessThanEqual: "le",
    cst.GreaterThan: "gt", cst.GreaterThanEqual: "ge", cst.Is: "is", cst.IsNot: "is_not",
    cst.In: "in", cst.NotIn: "not_in",
    cst.Add: "plus", cst.Subtract: "minus", cst.Multiply: "mul", cst.Divide: "div",
    cst.FloorDivide: "floordiv", cst.Modulo: "mod", cst.Power: "pow", cst.LeftShift: "shl",
    cst.RightShift: "shr", cst.BitAnd: "bitand", cst.BitOr: "bitor", cst.BitXor: "xor",
    cst.And: "and", cst.Or: "or",
}  # fmt: skip


def _words(node: cst.CSTNode) -> list[str]:
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, cst.Attribute):
        return [*_words(node.value), node.attr.value]
    if isinstance(node, (cst.Integer, cst.Float)):
        return [node.value.replace(".", "p")]
    if isinstance(node, cst.SimpleString):
        return [str(node.evaluated_value)]
    if isinstance(node, cst.Comparison):
        out = _words(node.left)
        for t in node.comparisons:
            out += [_OP_WORDS.get(type(t.operator), "cmp"), *_words(t.comparator)]
        return out
    if isinstance(node, (cst.BinaryOperation, cst.BooleanOperation)):
        return [*_words(node.left), _OP_WORDS.get(type(node.operator), "op"), *_words(node.right)]
    if isinstance(node, cst.UnaryOperation):
        word = {cst.Not: "not", cst.Minus: "neg", cst.BitInvert: "inv"}.get(type(node.operator), "")
        return [word, *_words(node.expression)]
    if isinstance(node, cst.Call):
        out = _words(node.func)
        for a in node.args:
            out += _words(a.value)
        return out
    if isinstance(node, cst.Subscript):
        out = _words(node.value)
        for el in node.slice:
            if isinstance(el.slice, cst.Index):
                out += _words(el.slice.value)
        return out
    if isinstance(node, cst.IfExp):
        return [*_words(node.body), "if", *_words(node.test), "else", *_words(node.orelse)]
    if isinstance(node, (cst.Tuple, cst.List)):
        return [w for e in node.elements for w in _words(e.value)]
    return ["expr"]


def member_name(expr: cst.BaseExpression) -> str:
    """A C++ identifier for a Python expression: `self.norm == "l1"` -> `self_norm_eq_l1`."""
    name = "_".join(w for w in _words(expr) if w)
    name = re.sub(r"[^0-9A-Za-z_]", "_", name)
    name = re.sub(r"_+", "_", name).strip("_") or "value"
    if name[0].isdigit():
        name = "v_" + name
    return name


_INT_FUNCS = {"int", "len", "math.ceil", "math.floor", "math.gcd", "math.lcm", "math.comb",
              "math.factorial", "math.isqrt", "round"}  # fmt: skip
_BOOL_FUNCS = {"bool", "isinstance", "math.isclose", "math.isfinite", "math.isnan"}


def infer_kind(expr: cst.BaseExpression, leaf_kind: dict[str, str]) -> str:
    """The kind of a meta expression. `leaf_kind` gives kinds of names / `self.x` chains."""
    from ..frontend.imports import dotted

    if isinstance(expr, cst.Comparison):
        return BOOL
    if isinstance(expr, cst.BooleanOperation):
        # Python's `a or b` / `a and b` is one of its operands, not a bool.
        kinds = {infer_kind(expr.left, leaf_kind), infer_kind(expr.right, leaf_kind)}
        return kinds.pop() if len(kinds) == 1 else VALUE
    if isinstance(expr, cst.UnaryOperation):
        if isinstance(expr.operator, cst.Not):
            return BOOL
        return infer_kind(expr.expression, leaf_kind)
    if isinstance(expr, cst.Integer):
        return STATIC_INT
    if isinstance(expr, cst.Tuple) and expr.elements and all(
        infer_kind(e.value, leaf_kind) in (STATIC_INT, TUPLE) for e in expr.elements
    ):
        return TUPLE
    if isinstance(expr, cst.Float):
        return FLOAT
    if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return STRING
    if isinstance(expr, cst.Name) and expr.value in ("True", "False"):
        return BOOL
    name = dotted(expr)
    if name is not None:
        return leaf_kind.get(name, VALUE)
    if isinstance(expr, cst.Call):
        fname = dotted(expr.func) or ""
        if fname in _INT_FUNCS:
            return STATIC_INT
        if fname in _BOOL_FUNCS:
            return BOOL
        if fname.startswith("math."):
            return FLOAT
        if fname in ("float",):
            return FLOAT
        if fname in ("str",):
            return STRING
        if fname in ("min", "max", "abs"):
            kinds = {infer_kind(a.value, leaf_kind) for a in expr.args}
            return kinds.pop() if len(kinds) == 1 else VALUE
        return VALUE
    if isinstance(expr, cst.BinaryOperation):
        left = infer_kind(expr.left, leaf_kind)
        right = infer_kind(expr.right, leaf_kind)
        if isinstance(expr.operator, cst.Divide):
            return FLOAT
        if left == right == STATIC_INT:
            return STATIC_INT
        if {left, right} <= {STATIC_INT, FLOAT}:
            return FLOAT
        if left == right == STRING:
            return STRING
        return VALUE
    if isinstance(expr, cst.IfExp):
        return infer_kind(expr.body, leaf_kind)
    return VALUE


def annotation_kind(
    annotation: cst.BaseExpression | None, default: cst.BaseExpression | None
) -> str:
    """Kind of an `__init__` parameter from its annotation or default value."""
    from ..frontend.imports import dotted

    if annotation is not None:
        text = dotted(annotation) or ""
        simple = {"int": STATIC_INT, "bool": BOOL, "float": FLOAT, "str": STRING}
        if text in simple:
            return simple[text]
        optional = _optional_of(annotation)
        if optional is not None:
            return annotation_kind(optional, None)
        if isinstance(annotation, cst.Subscript) and dotted(annotation.value) in ("Type", "type"):
            return TYPE
        if isinstance(annotation, cst.Subscript) and (dotted(annotation.value) or "").rsplit(
            ".", 1
        )[-1] in ("Tuple", "tuple"):
            return TUPLE
    if default is not None:
        return infer_kind(default, {})
    return VALUE


def _optional_of(annotation: cst.BaseExpression) -> cst.BaseExpression | None:
    """`X` of `Optional[X]` or `X | None` (None for any other annotation)."""
    from ..frontend.imports import dotted

    if isinstance(annotation, cst.Subscript) and len(annotation.slice) == 1:
        element = annotation.slice[0].slice
        name = dotted(annotation.value) or ""
        if name.rsplit(".", 1)[-1] == "Optional" and isinstance(element, cst.Index):
            return element.value
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        if isinstance(annotation.right, cst.Name) and annotation.right.value == "None":
            return annotation.left
        if isinstance(annotation.left, cst.Name) and annotation.left.value == "None":
            return annotation.right
    return None


class _Rebase(cst.CSTTransformer):
    """Replaces free names (not attribute names, keywords or lambda parameters)."""

    def __init__(self, given: dict[str, str]) -> None:
        self.given = given

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return False  # only the object is renamed (`x.N` keeps its attribute name): below

    def leave_Attribute(
        self, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        return updated.with_changes(value=original.value.visit(self))

    def visit_Arg(self, node: cst.Arg) -> bool:
        return False  # `f(key=v)`: only the value

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(value=original.value.visit(self))

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        text = self.given.get(original.value)
        if text is None or text == original.value:
            return updated
        expr = cst.parse_expression(text)
        if isinstance(expr, (cst.Name, cst.Attribute, cst.SimpleString, cst.Integer)):
            return expr
        return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def rebase_member(member: MetaMember, given: dict[str, str]) -> MetaMember:
    """`member` of a kernel, written with the kernel's parameters, in the terms of a launch
    that passes `given` (parameter -> argument source): `DTYPE == "i32"` launched with
    `k(x, "f32")` is `("f32") == "i32"`."""
    if not given:
        return member
    try:
        tree = cst.parse_expression(member.expr)
    except cst.ParserSyntaxError:
        return member
    rebased = tree.visit(_Rebase(given))
    assert isinstance(rebased, cst.BaseExpression)
    return MetaMember(member.name, cst.Module([]).code_for_node(rebased), member.kind)
