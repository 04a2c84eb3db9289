"""Seeded mutations of a Python module's libcst tree, to fuzz the translator.

`mutant_of(path, seed, index)` applies 1 to 3 mutations to the file, chosen by a generator seeded
with (seed, index) only, so a case is made again, identically, from those two numbers and the
file. Mutations: delete or duplicate a statement; change a literal (ints 0, 1, -1, big, 10**30,
floats, strings, constants); swap two names of one function; `range` <-> `range_constexpr`;
`const_expr(x)` <-> `x`; insert `return`/`break`/`continue`/`pass`; drop, reorder, exchange or
re-kind decorators; wrap an expression in a call; nest a literal in tuples and lists; change an
operator; insert a statement of another kind (`global`, `del`, `try`, `with`, a nested `def`,
`match`...); replace an expression by one of another kind (lambda, comprehension, slice,
`yield`, walrus, starred...); make an operator chain of 8 to 4,000 terms (`e + e + ...`,
`e < e < ...`, `e and e ...`: past what Python's parser takes at the long end); hold an
expression, or a tuple with a dtype in it, in a variable first (`_held = (e, cutlass.Float32,
1)`); put dtypes and non-finite literals in value positions. Sites inside
`@cute.kernel`/`@cute.jit` functions are chosen most of the time.

A tree is changed by rebuilding only the path from the root to the changed nodes (libcst nodes
are immutable), which keeps a mutation of a 4,000-line file within a few hundred milliseconds.
"""

from __future__ import annotations

import dataclasses
import random
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

import libcst as cst

from bbx.nesting import with_recursion_room

#: how often a mutation site is taken from a DSL function when the file has one there.
DSL_BIAS = 0.85
#: attempts at finding an applicable mutation before a mutant keeps fewer mutations.
ATTEMPTS = 40

INT_VALUES = (
    "0", "1", "-1", "2", "3", "31", "32", "64", "127", "128", "255", "1024", "65536",
    "2147483647", "2147483648", "-2147483649", "4294967296", "9223372036854775807",
    "18446744073709551616", "10**30", "1000000000000000000000000000000", "0x7fffffff", "0b1",
    "1_000_000", "1.5", "True", "'4'", "None",
)
FLOAT_VALUES = (
    "0.0", "-0.0", "0.5", "1.0", "-1.5", "1e-30", "1e30", "1e308", "1e999", "-1e999",
    "float('nan')", "float('inf')", "float('-inf')", "-float('nan')", "math.inf", "math.nan",
    "3", "0",
)
STRING_VALUES = (
    '""', '"x"', '"{}"', '"{0}"', '"%s %d"', '"*/"', '"/*"', '"// x"', '"\\n"', '"\\t"',
    '"\\x00"', '"\\\\"', '"\\""', "'\\''", '"é"', '"\\U0001f600"', '"??="', '"#include <x>"',
    '"a" * 3', 'b"bytes"', 'f"{1}"', '"' + "x" * 300 + '"', "1", "None",
)
CONSTANT_VALUES = ("True", "False", "None", "0", "1", "-1")
NEST_TEMPLATES: tuple[Callable[[str], str], ...] = (
    lambda x: f"({x},)",
    lambda x: f"[{x}, {x}]",
    lambda x: f"(({x}, {x}), {x})",
    lambda x: f"({x}, ({x}, ({x}, {x})))",
    lambda x: f"[[{x}]]",
    lambda x: "{" + f"{x}: {x}" + "}",
    lambda x: "(" * 4 + x + ",)" * 4,
    lambda x: "(" * 16 + x + ",)" * 16,
    lambda x: "(" * 64 + x + ",)" * 64,
)
WRAPPERS = (
    "cutlass.Int32({0})", "cutlass.Float32({0})", "cutlass.Float16({0})", "cutlass.Boolean({0})",
    "cutlass.Int64({0})", "cute.size({0})", "cutlass.const_expr({0})", "int({0})", "float({0})",
    "bool({0})", "abs({0})", "len({0})", "tuple({0})", "str({0})", "min({0}, {0})",
    "max({0}, 1)", "cute.make_layout({0})", "cute.make_layout(({0}, {0}))", "print({0})",
    "undefined_function({0})", "cute.arch.thread_idx({0})", "cute.where({0}, {0}, {0})",
)
FLOW_STATEMENTS = ("return", "return None", "return 0", "break", "continue", "pass")
#: expressions of every other kind, most built around the one they replace (`{0}`).
UNUSUAL_EXPRESSIONS = (
    "lambda: {0}", "[{0} for _ in range(2)]", "{{{0}: 1 for _ in range(2)}}", "({0} for _ in ())",
    "{0}[1:2:3]", "{0}[...]", "{0}[::-1]", "(yield {0})", "(await {0})", "(_walrus := {0})",
    "not {0}", "-{0}", "~{0}", "+{0}", "{0} if {0} else {0}", "{0} < {0} < {0}",
    "{0}.missing_attribute", "{0}({0})", "{0}[{0}]", "{0} @ {0}", "({0}, *{0})", "[*{0}]",
    "{{**{0}}}", "{{{0}}}", "...", "f'{{{0}}}'", "{0} is None", "{0} in ({0},)", "({0}).real",
    "type({0})", "{0}.__class__", "super()", "globals()", "__name__", "NotImplemented",
    # dtypes where values go
    "cutlass.Float32", "cutlass.Int32", "({0}, cutlass.Float32, 1)", "[cutlass.Int8, {0}]",
    "({0}, cutlass.Float16)[1]",
    # non-finite and out-of-range values converted to integers
    "cutlass.Int32(float('nan'))", "cutlass.Int64(float('inf'))", "cutlass.Int32(-float('inf'))",
    "cutlass.Int32(1e30)", "cutlass.Uint8(float('nan'))", "cutlass.Int32({0} * float('inf'))",
)
#: statements of every other kind, for insertion anywhere.
UNUSUAL_STATEMENTS = (
    "global _g", "nonlocal _n", "del _d", "assert False, 'x'", "raise ValueError('x')", "raise",
    "import math", "from math import sqrt", "x = yield", "print('x')", "_t: int = 1",
    "_a, *_b = (1, 2, 3)", "(_w := 5)", "_x = _x = 1", "_i += 1", "...",
    "with open('f') as _fh:\n    pass", "try:\n    pass\nexcept Exception:\n    pass",
    "try:\n    pass\nfinally:\n    pass", "while True:\n    break",
    "for _i in range(2):\n    pass\nelse:\n    pass", "def _inner():\n    return 1",
    "class _C:\n    pass", "async def _co():\n    pass", "async with _m:\n    pass",
    "if True:\n    pass\nelif False:\n    pass\nelse:\n    pass",
    "match _v:\n    case 1:\n        pass", "@cute.jit\ndef _helper():\n    pass",
    "@cute.kernel\ndef _kernel():\n    pass",
)
RANGE_NAMES = ("range", "range_constexpr", "range_dynamic")
#: terms of an operator chain: short, long (hundreds, as held-out code has), and past the
#: nesting Python's own parser takes (the translator must refuse those, not crash). Not 1,000:
#: a 1,000-term chain of run-time values takes the translator longer than a fuzz case's 30 s
#: on a busy 2-core machine (its kind scan is quadratic in the nesting), which is a hang there.
CHAIN_LENGTHS = (8, 60, 400, 4000)
#: what a held expression `{0}` becomes in `_held = ...`.
HELD_TEMPLATES = ("{0}", "({0}, cutlass.Float32, 1)", "({0}, 1, 1)", "[{0}, cutlass.Int32]",
                  "cutlass.Float32")
BINARY_OPERATORS: tuple[type[cst.BaseBinaryOp], ...] = (
    cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
    cst.LeftShift, cst.RightShift, cst.BitAnd, cst.BitOr, cst.BitXor,
)
COMPARISON_OPERATORS: tuple[type[cst.BaseCompOp], ...] = (
    cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual, cst.Equal,
    cst.NotEqual, cst.Is, cst.In,
)
BOOLEAN_OPERATORS: tuple[type[cst.BaseBooleanOp], ...] = (cst.And, cst.Or)
#: nodes holding only whitespace and comments: never a mutation site, never walked into.
_WHITESPACE = (
    cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.TrailingWhitespace, cst.EmptyLine,
    cst.Newline, cst.Comment,
)
_EXPRESSION_FIELDS = {
    cst.Arg: ("value",), cst.Assign: ("value",), cst.AugAssign: ("value",),
    cst.AnnAssign: ("value",), cst.Return: ("value",), cst.BinaryOperation: ("left", "right"),
    cst.UnaryOperation: ("expression",), cst.Comparison: ("left",),
    cst.ComparisonTarget: ("comparator",), cst.If: ("test",), cst.While: ("test",),
    cst.IfExp: ("test", "body", "orelse"), cst.Index: ("value",),
}
_TEST_PARENTS = (cst.If, cst.While, cst.IfExp)
_STATEMENTS = frozenset({
    cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While,
    cst.With, cst.Try, cst.TryStar, cst.Match,
})
#: categories of sites that are known by their node's type alone.
_CATEGORIES: dict[type[cst.CSTNode], str] = {
    cst.IndentedBlock: "block", cst.Integer: "int", cst.Float: "float",
    cst.BinaryOperation: "binary", cst.ComparisonTarget: "comparison",
    cst.BooleanOperation: "boolean",
}

#: what replaces a node: a node, nothing (removed from its sequence) or several (spliced in).
Replacement = Union[cst.CSTNode, None, list[cst.CSTNode]]  # noqa: UP007 - a runtime alias


@dataclass(frozen=True)
class Mutant:
    source: str
    mutations: tuple[str, ...]  # what was done, in order, e.g. "delete statement `x = 1`"


@dataclass(frozen=True)
class Site:
    node: cst.CSTNode
    dsl: bool  # inside a @cute.kernel / @cute.jit function
    scope: int  # id() of the innermost enclosing function; 0 at module level


@dataclass(frozen=True)
class Edit:
    changes: tuple[tuple[cst.CSTNode, Replacement], ...]
    description: str


@dataclass(frozen=True)
class Parsed:
    module: cst.Module
    index: SiteIndex


#: parsed files, most recently used last; a fuzz campaign runs its cases grouped by file.
_parsed: OrderedDict[Path, Parsed] = OrderedDict()
PARSED_CACHE_SIZE = 8


def parsed(path: Path) -> Parsed:
    """The libcst tree of `path` and its mutation sites, made once per process and file."""
    key = path.resolve()
    if key in _parsed:
        _parsed.move_to_end(key)
    else:
        module = cst.parse_module(path.read_text(encoding="utf-8"))
        _parsed[key] = Parsed(module, SiteIndex(module))
        while len(_parsed) > PARSED_CACHE_SIZE:
            _parsed.popitem(last=False)
    return _parsed[key]


def case_random(seed: int, index: int) -> random.Random:
    """The generator of case (seed, index); seeded from a string, so independent of the
    interpreter's hash seed."""
    return random.Random(f"bbx-fuzz:{seed}:{index}")


def mutant_of(path: Path, seed: int, index: int) -> Mutant:
    """Case (seed, index) of `path`; made with the translator's recursion room, since writing
    out a mutant with a long operator chain recurses as deep as the chain is long."""
    tree = parsed(path)
    return with_recursion_room(lambda: mutate(tree.module, tree.index, case_random(seed, index)))


def mutate(module: cst.Module, index: SiteIndex, rng: random.Random) -> Mutant:
    """1 to 3 mutations of `module` (indexed by `index`), at sites none of which contains
    another, so that they apply together to the original tree."""
    edits: list[Edit] = []
    for _ in range(rng.randint(1, 3)):
        for _attempt in range(ATTEMPTS):
            edit = rng.choice(MUTATIONS)(index, rng)
            if edit is None or any(_overlap(edit, e, index) for e in edits):
                continue
            try:
                apply(module, index, [edit])
            except cst.CSTValidationError:
                continue
            edits.append(edit)
            break
    mutant = apply(module, index, edits)
    return Mutant(mutant.code, tuple(e.description for e in edits))


def _overlap(a: Edit, b: Edit, index: SiteIndex) -> bool:
    return any(
        x is y or index.is_ancestor(x, y) or index.is_ancestor(y, x)
        for x, _ in a.changes
        for y, _ in b.changes
    )


class SiteIndex:
    """The mutation sites of a tree by category, and the parent of every node."""

    def __init__(self, module: cst.Module) -> None:
        self.parents: dict[int, cst.CSTNode] = {}
        self.sites: dict[str, list[Site]] = {}
        self._walk(module, None, False, 0)

    def pick(self, category: str, rng: random.Random) -> Site | None:
        sites = self.sites.get(category, [])
        if not sites:
            return None
        in_dsl = [s for s in sites if s.dsl]
        return rng.choice(in_dsl if in_dsl and rng.random() < DSL_BIAS else sites)

    def parent(self, node: cst.CSTNode) -> cst.CSTNode:
        return self.parents[id(node)]

    def is_ancestor(self, node: cst.CSTNode, of: cst.CSTNode) -> bool:
        current = self.parents.get(id(of))
        while current is not None:
            if current is node:
                return True
            current = self.parents.get(id(current))
        return False

    def _add(self, category: str, node: cst.CSTNode, dsl: bool, scope: int) -> None:
        self.sites.setdefault(category, []).append(Site(node, dsl, scope))

    def _walk(self, node: cst.CSTNode, parent: cst.CSTNode | None, dsl: bool, scope: int) -> None:
        if parent is not None:
            self.parents[id(node)] = parent
            self._classify(node, parent, dsl, scope)
        if type(node) is cst.FunctionDef:
            dsl = dsl or any(_is_dsl_decorator(d) for d in node.decorators)
            scope = id(node)
        for child in _children(node):
            self._walk(child, node, dsl, scope)

    def _classify(self, node: cst.CSTNode, parent: cst.CSTNode, dsl: bool, scope: int) -> None:
        kind, parent_kind = type(node), type(parent)
        if kind in _STATEMENTS and parent_kind in (cst.IndentedBlock, cst.Module):
            self._add("statement", node, dsl, scope)
        category = _CATEGORIES.get(kind)
        if category is not None:
            self._add(category, node, dsl, scope)
        elif kind is cst.SimpleString and parent_kind is not cst.Expr:
            self._add("string", node, dsl, scope)  # not a docstring
        elif kind is cst.Name:
            value = node.value  # type: ignore[attr-defined]
            constant = value in ("True", "False", "None")
            self._add("constant" if constant else "name", node, dsl, scope)
        elif kind is cst.Call:
            assert isinstance(node, cst.Call)
            callee = _terminal_name(node.func)
            if callee in RANGE_NAMES:
                self._add("range", node, dsl, scope)
            elif callee == "const_expr" and len(node.args) == 1 and node.args[0].keyword is None:
                self._add("const_expr", node, dsl, scope)
        elif kind in (cst.FunctionDef, cst.ClassDef):
            assert isinstance(node, (cst.FunctionDef, cst.ClassDef))
            if node.decorators:
                dsl = dsl or any(_is_dsl_decorator(d) for d in node.decorators)
                self._add("decorated", node, dsl, scope)
        fields = _EXPRESSION_FIELDS.get(parent_kind, ())
        if any(getattr(parent, f) is node for f in fields):
            self._add("expression", node, dsl, scope)
            if parent_kind in _TEST_PARENTS and getattr(parent, "test", None) is node:
                self._add("test", node, dsl, scope)


def apply(module: cst.Module, index: SiteIndex, edits: Sequence[Edit]) -> cst.Module:
    """`module` with the edits' nodes replaced, rebuilding only their ancestors."""
    changes = [change for edit in edits for change in edit.changes]
    targets = {id(old): new for old, new in changes}
    ancestors: set[int] = set()
    for old, _ in changes:
        current = index.parents.get(id(old))
        while current is not None and id(current) not in ancestors:
            ancestors.add(id(current))
            current = index.parents.get(id(current))
    rebuilt = _rebuild(module, targets, ancestors)
    assert isinstance(rebuilt, cst.Module)
    return rebuilt


def _rebuild(
    node: cst.CSTNode, targets: dict[int, Replacement], ancestors: set[int]
) -> cst.CSTNode:
    updates: dict[str, object] = {}
    for name in _fields(node):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            if id(value) in targets:
                new = targets[id(value)]
                if not isinstance(new, cst.CSTNode):
                    raise cst.CSTValidationError(f"{name} of {type(node).__name__} is one node")
                updates[name] = new
            elif id(value) in ancestors:
                updates[name] = _rebuild(value, targets, ancestors)
        elif isinstance(value, (list, tuple)) and any(
            isinstance(x, cst.CSTNode) and (id(x) in targets or id(x) in ancestors) for x in value
        ):
            items: list[object] = []
            for item in value:
                if isinstance(item, cst.CSTNode) and id(item) in targets:
                    new = targets[id(item)]
                    items.extend([] if new is None else new if isinstance(new, list) else [new])
                elif isinstance(item, cst.CSTNode) and id(item) in ancestors:
                    items.append(_rebuild(item, targets, ancestors))
                else:
                    items.append(item)
            updates[name] = type(value)(items)
    return node.with_changes(**updates) if updates else node


# ---- the mutations: (index, rng) -> Edit, or None where the tree has no site for it ----------


def delete_statement(index: SiteIndex, rng: random.Random) -> Edit | None:
    site = index.pick("statement", rng)
    if site is None:
        return None
    block = index.parent(site.node)
    body = block.body if isinstance(block, (cst.IndentedBlock, cst.Module)) else ()
    if len(body) == 1 and isinstance(block, cst.IndentedBlock):
        replacement: Replacement = cst.SimpleStatementLine([cst.Pass()])
    else:
        replacement = None
    return Edit(((site.node, replacement),), f"delete statement `{snippet(site.node)}`")


def duplicate_statement(index: SiteIndex, rng: random.Random) -> Edit | None:
    site = index.pick("statement", rng)
    if site is None:
        return None
    copies = [site.node, site.node.deep_clone()]
    return Edit(((site.node, copies),), f"duplicate statement `{snippet(site.node)}`")


def change_literal(index: SiteIndex, rng: random.Random) -> Edit | None:
    choices = {"int": INT_VALUES, "float": FLOAT_VALUES, "string": STRING_VALUES,
               "constant": CONSTANT_VALUES}
    categories = [c for c in choices if index.sites.get(c)]
    if not categories:
        return None
    category = rng.choice(categories)
    site = index.pick(category, rng)
    assert site is not None
    old = snippet(site.node)
    value = rng.choice([v for v in choices[category] if v != old])
    return _replace_by_text(site.node, value, f"change literal `{old}` to `{value}`")


def nest_literal(index: SiteIndex, rng: random.Random) -> Edit | None:
    categories = [c for c in ("int", "float", "string", "constant") if index.sites.get(c)]
    if not categories:
        return None
    site = index.pick(rng.choice(categories), rng)
    assert site is not None
    old = snippet(site.node)
    text = rng.choice(NEST_TEMPLATES)(old)
    return _replace_by_text(site.node, text, f"nest literal `{old}` as `{_shorten(text)}`")


def swap_names(index: SiteIndex, rng: random.Random) -> Edit | None:
    site = index.pick("name", rng)
    if site is None:
        return None
    a = site.node
    assert isinstance(a, cst.Name)
    others = [s.node for s in index.sites["name"] if s.scope == site.scope]
    others = [n for n in others if isinstance(n, cst.Name) and n.value != a.value]
    if not others:
        return None
    b = rng.choice(others)
    assert isinstance(b, cst.Name)
    return Edit(
        ((a, a.with_changes(value=b.value)), (b, b.with_changes(value=a.value))),
        f"swap names `{a.value}` and `{b.value}`",
    )


def toggle_range(index: SiteIndex, rng: random.Random) -> Edit | None:
    site = index.pick("range", rng)
    if site is None:
        return None
    assert isinstance(site.node, cst.Call)
    func = site.node.func
    new: cst.BaseExpression
    if isinstance(func, cst.Name):
        if func.value == "range":
            new = cst.Attribute(cst.Name("cutlass"), cst.Name("range_constexpr"))
        else:
            new = cst.Name("range")
    elif isinstance(func, cst.Attribute):
        if func.attr.value == "range_constexpr":
            new = rng.choice([cst.Name("range"), func.with_changes(attr=cst.Name("range"))])
        else:
            new = func.with_changes(attr=cst.Name("range_constexpr"))
    else:
        return None
    return Edit(((func, new),), f"call `{snippet(new)}` instead of `{snippet(func)}`")


def toggle_const_expr(index: SiteIndex, rng: random.Random) -> Edit | None:
    unwrap = index.sites.get("const_expr")
    wrap = index.sites.get("test")
    if not unwrap and not wrap:
        return None
    if unwrap and (not wrap or rng.random() < 0.5):
        site = index.pick("const_expr", rng)
        assert site is not None and isinstance(site.node, cst.Call)
        value = site.node.args[0].value
        if not isinstance(value, (cst.Name, cst.Attribute)) and not value.lpar:
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return Edit(((site.node, value),), f"unwrap `{snippet(site.node)}`")
    site = index.pick("test", rng)
    assert site is not None and isinstance(site.node, cst.BaseExpression)
    call = cst.Call(
        cst.Attribute(cst.Name("cutlass"), cst.Name("const_expr")), [cst.Arg(site.node)]
    )
    return Edit(((site.node, call),), f"wrap test `{snippet(site.node)}` in cutlass.const_expr")


def insert_flow(index: SiteIndex, rng: random.Random) -> Edit | None:
    site = index.pick("block", rng)
    if site is None:
        return None
    block = site.node
    assert isinstance(block, cst.IndentedBlock)
    at = rng.randint(0, len(block.body))
    text = rng.choice(FLOW_STATEMENTS)
    statement = cst.parse_statement(text + "\n")
    body = [*block.body[:at], statement, *block.body[at:]]
    where = f"before `{snippet(block.body[at])}`" if at < len(block.body) else "at a block's end"
    return Edit(((block, block.with_changes(body=body)),), f"insert `{text}` {where}")


def insert_statement(index: SiteIndex, rng: random.Random) -> Edit | None:
    site = index.pick("block", rng)
    if site is None:
        return None
    block = site.node
    assert isinstance(block, cst.IndentedBlock)
    at = rng.randint(0, len(block.body))
    text = rng.choice(UNUSUAL_STATEMENTS)
    try:
        statement = cst.parse_statement(text + "\n")
    except cst.ParserSyntaxError:
        return None
    body = [*block.body[:at], statement, *block.body[at:]]
    where = f"before `{snippet(block.body[at])}`" if at < len(block.body) else "at a block's end"
    shown = text.split("\n")[0]
    return Edit(((block, block.with_changes(body=body)),), f"insert `{shown}` {where}")


def replace_expression(index: SiteIndex, rng: random.Random) -> Edit | None:
    site = index.pick("expression", rng)
    if site is None:
        return None
    template = rng.choice(UNUSUAL_EXPRESSIONS)
    code = cst.Module([]).code_for_node(site.node)
    return _replace_by_text(
        site.node, template.format(code), f"replace `{snippet(site.node)}` by `{template}`"
    )


def change_decorators(index: SiteIndex, rng: random.Random) -> Edit | None:
    site = index.pick("decorated", rng)
    if site is None:
        return None
    node = site.node
    assert isinstance(node, (cst.FunctionDef, cst.ClassDef))
    decorators = list(node.decorators)
    kinds = ["drop"]
    if len(decorators) > 1:
        kinds.append("reorder")
    retargetable = [d for d in decorators if _is_dsl_decorator(d)]
    if retargetable:
        kinds.append("retarget")
    partners = [s.node for s in index.sites["decorated"] if s.node is not node]
    partners = [
        p for p in partners if not index.is_ancestor(p, node) and not index.is_ancestor(node, p)
    ]
    if partners:
        kinds.append("exchange")
    kind = rng.choice(kinds)
    name = node.name.value
    if kind == "drop":
        dropped = rng.choice(decorators)
        return Edit(((dropped, None),), f"drop decorator `@{snippet(dropped.decorator)}` of {name}")
    if kind == "reorder":
        i, j = rng.sample(range(len(decorators)), 2)
        decorators[i], decorators[j] = decorators[j], decorators[i]
        reordered = node.with_changes(decorators=decorators)
        return Edit(((node, reordered),), f"reorder decorators of {name}")
    if kind == "retarget":
        decorator = rng.choice(retargetable)
        callee = _callee(decorator.decorator)
        target = callee.attr if isinstance(callee, cst.Attribute) else callee
        assert isinstance(target, cst.Name)
        other = "jit" if target.value == "kernel" else "kernel"
        return Edit(((target, target.with_changes(value=other)),), f"make {name} a `{other}`")
    partner = rng.choice(partners)
    assert isinstance(partner, (cst.FunctionDef, cst.ClassDef))
    return Edit(
        (
            (node, node.with_changes(decorators=partner.decorators)),
            (partner, partner.with_changes(decorators=node.decorators)),
        ),
        f"exchange the decorators of {name} and {partner.name.value}",
    )


def wrap_in_call(index: SiteIndex, rng: random.Random) -> Edit | None:
    site = index.pick("expression", rng)
    if site is None:
        return None
    template = rng.choice(WRAPPERS)
    code = cst.Module([]).code_for_node(site.node)
    return _replace_by_text(
        site.node, template.format(code), f"wrap `{snippet(site.node)}` as `{template}`"
    )


def change_operator(index: SiteIndex, rng: random.Random) -> Edit | None:
    categories = [c for c in ("binary", "comparison", "boolean") if index.sites.get(c)]
    if not categories:
        return None
    category = rng.choice(categories)
    site = index.pick(category, rng)
    assert site is not None
    node = site.node
    assert isinstance(node, (cst.BinaryOperation, cst.ComparisonTarget, cst.BooleanOperation))
    operator: Any = node.operator  # each concrete operator has the two whitespace fields
    classes: Sequence[type[cst.CSTNode]] = {
        "binary": BINARY_OPERATORS, "comparison": COMPARISON_OPERATORS, "boolean": BOOLEAN_OPERATORS
    }[category]
    new_class = rng.choice([c for c in classes if not isinstance(operator, c)])
    new = new_class(  # type: ignore[call-arg]
        whitespace_before=operator.whitespace_before, whitespace_after=operator.whitespace_after
    )
    return Edit(((operator, new),), f"change `{snippet(node)}` to use {new_class.__name__}")


def long_chain(index: SiteIndex, rng: random.Random) -> Edit | None:
    """An expression `e` made an operator chain of CHAIN_LENGTHS terms, built as nodes (no
    parsing, which is quadratic in libcst): `e + e + ...` (left-nested, as Python nests it),
    `e < e < ...` (one comparison), `e and e and ...`."""
    site = index.pick("expression", rng)
    if site is None or not isinstance(site.node, cst.BaseExpression):
        return None
    term = site.node
    if not isinstance(term, (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.Subscript,
                             cst.Call)) and not term.lpar:
        term = term.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    count = rng.choice(CHAIN_LENGTHS)
    kind = rng.choice(("binary", "comparison", "boolean"))
    chain: cst.BaseExpression
    if kind == "comparison":
        compare = rng.choice(COMPARISON_OPERATORS)
        chain = cst.Comparison(term, [cst.ComparisonTarget(compare(), term)  # type: ignore[call-arg]
                                      for _ in range(count - 1)])
        shown = f"{compare.__name__} comparison"
    elif kind == "binary":
        binary = rng.choice(BINARY_OPERATORS)
        chain = term
        for _ in range(count - 1):
            chain = cst.BinaryOperation(chain, binary(), term)  # type: ignore[call-arg]
        shown = f"{binary.__name__} chain"
    else:
        boolean = rng.choice(BOOLEAN_OPERATORS)
        chain = term
        for _ in range(count - 1):
            chain = cst.BooleanOperation(chain, boolean(), term)  # type: ignore[call-arg]
        shown = f"{boolean.__name__} chain"
    return Edit(((site.node, chain),),
                f"make `{snippet(site.node)}` a {count}-term {shown}")


def hold_in_variable(index: SiteIndex, rng: random.Random) -> Edit | None:
    """`stmt(... e ...)` -> `_held = T(e)` then `stmt(... _held ...)`, T from HELD_TEMPLATES:
    a value the translator sees through a variable (where `grid=(n, cutlass.Float32, 1)`
    written inline and held in a variable once took different paths)."""
    site = index.pick("expression", rng)
    if site is None:
        return None
    statement = site.node
    while not (type(statement) in _STATEMENTS
               and isinstance(index.parents.get(id(statement)), (cst.IndentedBlock, cst.Module))):
        parent = index.parents.get(id(statement))
        if parent is None:
            return None
        statement = parent
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
        return None  # a default or decorator: no statement runs before it
    template = rng.choice(HELD_TEMPLATES)
    code = cst.Module([]).code_for_node(site.node)
    try:
        value = cst.parse_expression(template.format(code))
    except (cst.ParserSyntaxError, RecursionError):
        return None
    held = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name("_held"))], value)])
    changed = statement.deep_replace(site.node, cst.Name("_held"))
    return Edit(((statement, [held, changed]),),
                f"hold `{snippet(site.node)}` in `_held = {_shorten(template)}`")


MUTATIONS: tuple[Callable[[SiteIndex, random.Random], Edit | None], ...] = (
    delete_statement, duplicate_statement, change_literal, nest_literal, swap_names,
    toggle_range, toggle_const_expr, insert_flow, change_decorators, wrap_in_call,
    change_operator, insert_statement, replace_expression, long_chain, hold_in_variable,
)


# ---- helpers ---------------------------------------------------------------------------------


def snippet(node: cst.CSTNode) -> str:
    """The first line of a node's code, shortened: for descriptions. A compound statement is
    shown by its header, without generating the code of its body."""
    code = cst.Module([]).code_for_node
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        text = f"{'def' if isinstance(node, cst.FunctionDef) else 'class'} {node.name.value}"
    elif isinstance(node, (cst.If, cst.While)):
        text = f"{'if' if isinstance(node, cst.If) else 'while'} {code(node.test)}:"
    elif isinstance(node, cst.For):
        text = f"for {code(node.target)} in {code(node.iter)}:"
    elif isinstance(node, (cst.With, cst.Try, cst.TryStar, cst.Match)):
        text = f"{type(node).__name__.lower()}: ..."
    else:
        text = code(node)
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]  # not leading comments
    return _shorten(lines[0]) if lines else ""


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _replace_by_text(node: cst.CSTNode, text: str, description: str) -> Edit | None:
    try:
        new = cst.parse_expression(text)
    except (cst.ParserSyntaxError, RecursionError):
        return None
    return Edit(((node, new),), description)


_field_names: dict[type, tuple[str, ...]] = {}


def _fields(node: cst.CSTNode) -> tuple[str, ...]:
    names = _field_names.get(type(node))
    if names is None:
        names = _field_names[type(node)] = tuple(f.name for f in dataclasses.fields(node))
    return names


_walked: dict[type, bool] = {}


def _is_walked(kind: type) -> bool:
    """Whether values of type `kind` are nodes to walk (not whitespace, not plain values)."""
    walked = _walked.get(kind)
    if walked is None:
        walked = _walked[kind] = issubclass(kind, cst.CSTNode) and not issubclass(kind, _WHITESPACE)
    return walked


def _children(node: cst.CSTNode) -> list[cst.CSTNode]:
    out: list[cst.CSTNode] = []
    for name in _fields(node):
        value = getattr(node, name)
        kind = type(value)
        if kind is list or kind is tuple:
            out += [x for x in value if _is_walked(type(x))]
        elif _is_walked(kind):
            out.append(value)
    return out


def _callee(expression: cst.BaseExpression) -> cst.BaseExpression:
    return expression.func if isinstance(expression, cst.Call) else expression


def _terminal_name(expression: cst.BaseExpression) -> str:
    if isinstance(expression, cst.Name):
        return expression.value
    if isinstance(expression, cst.Attribute):
        return expression.attr.value
    return ""


def _is_dsl_decorator(decorator: cst.Decorator) -> bool:
    return _terminal_name(_callee(decorator.decorator)) in ("jit", "kernel")
