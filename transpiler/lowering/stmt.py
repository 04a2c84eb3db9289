"""Lowering of Python statements (assignments, control flow, launches) to C++ statements.

Each translated statement is preceded by its Python line as a comment. A statement that cannot be
translated produces a diagnostic and is skipped, so that one run reports every error.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from functools import cached_property, partial
from typing import cast

import libcst as cst

from ..analysis import kinds as k
from ..analysis import meta as m
from ..analysis.kinds import Cat, Kind
from ..analysis.scope import DYNAMIC_IF, DYNAMIC_LOOP, INLINED, STATIC_IF, STATIC_LOOP, Var
from ..analysis.value import PyFunction, Val, python_level, value_items
from ..cxx import ast as c
from ..cxx.ast import identifiers
from ..cxx.literals import static_int_type
from ..diagnostics import DeferredBranch, TranslationError
from ..dsl import launch_options, numeric_type
from ..dsl.numeric_entries import cast_value
from ..frontend.discovery import DslFunction, is_struct_class
from ..frontend.walk import walk
from .call import CallLowerer, deferred_error, kernel_argument
from .context import Aggregates, FunctionContext, ModuleContext, TracedAttribute
from .names import cxx_name
from .records import element_view, materialize_tree, result_shape
from .sequence_params import sequence_params
from .sequences import bind_target, static_items
from .signature import ParamSig
from .smem_sizing import allocation_slice, sizing_allocators
from .smem_sizing import defines as smem_sizing_defines
from .smem_sizing import reads as smem_sizing_reads
from .struct import Annotations, kernel_struct_attrs, kernel_traced_attrs, lower_struct

_AUG_OPS: dict[type, str] = {
    cst.AddAssign: "+=", cst.SubtractAssign: "-=", cst.MultiplyAssign: "*=",
    cst.DivideAssign: "/=", cst.FloorDivideAssign: "/=", cst.ModuloAssign: "%=",
    cst.LeftShiftAssign: "<<=", cst.RightShiftAssign: ">>=", cst.BitAndAssign: "&=",
    cst.BitOrAssign: "|=", cst.BitXorAssign: "^=",
}  # fmt: skip
_REBINDABLE = frozenset({Cat.DYNAMIC, Cat.VALUE, Cat.TENSOR_SSA})
_ALIAS_CATS = frozenset({Cat.LITERAL, Cat.META})
#: C++ spellings of one DSL type (a loop index is an `int`, Int32 an `int32_t`)
_SAME_CTYPE = {"int": "int32_t"}
#: Methods of DSL functions that only affect the host (kernel names).
_HOST_ONLY = frozenset({"set_name_prefix"})
_RANGES = frozenset({
    "builtins.range", "cutlass.range", "cutlass.cute.range", "cutlass.range_constexpr",
    "cutlass.cute.range_constexpr", "cutlass.range_dynamic",
})  # fmt: skip
_META_CTYPES = {m.FLOAT: "float", m.BOOL: "bool", m.STATIC_INT: "int"}


def _collapse(text: str) -> str:
    text = " ".join(part.strip() for part in text.strip().splitlines())
    text = re.sub(r"([(\[{])\s+", r"\1", text)
    text = re.sub(r",?\s+([)\]}])", r"\1", text)
    return text


class StmtLowerer:
    def __init__(self, fc: FunctionContext) -> None:
        self.fc = fc
        self.mod = fc.mod
        self.lw = CallLowerer(fc)
        fc.inline_body = self._inline_body

    # ------------------------------------------------------------------------------------
    # blocks and comments
    # ------------------------------------------------------------------------------------
    def block(self, body: cst.BaseSuite | Sequence[cst.BaseStatement]) -> list[c.Stmt]:
        if isinstance(body, cst.IndentedBlock):
            stmts: Sequence[cst.CSTNode] = body.body
        elif isinstance(body, cst.SimpleStatementSuite):
            stmts = [cst.SimpleStatementLine(body=body.body)]
        else:
            stmts = body  # type: ignore[assignment]
        out: list[c.Stmt] = []
        for i, stmt in enumerate(stmts):
            out += self._comments(stmt)
            if i == 0 and _is_docstring(stmt):
                continue
            lowered = self.statement(stmt)
            guard = _returning_static_if(lowered)
            if guard is not None and i + 1 < len(stmts):
                # `if const_expr(c): return a` then more statements: as Python traces it, the
                # rest runs only when `c` is false — it becomes the `else` of `if constexpr`,
                # so a specialization taking the return never instantiates it.
                following = cast(Sequence[cst.BaseStatement], stmts[i + 1:])
                rest, _ = self._scoped_vars(STATIC_IF, partial(self.block, following))
                out += [*lowered[:-1], dataclasses.replace(guard, other=tuple(rest))]
                break
            out += lowered
            if any(isinstance(x, c.Return) for x in lowered):
                break  # Python does not trace what follows a return (or a continue)
        return out

    def _comments(self, stmt: cst.CSTNode) -> list[c.Stmt]:
        lines = [
            line.comment.value.lstrip("#").strip()
            for line in getattr(stmt, "leading_lines", ())
            if line.comment is not None
        ]
        return [c.Comment(tuple(lines))] if lines else []

    def provenance(self, stmt: cst.CSTNode) -> c.Comment:
        line, _ = self.mod.position(stmt)
        if isinstance(stmt, cst.SimpleStatementLine):
            text = "; ".join(_collapse(self.mod.code(s)).rstrip(";").strip() for s in stmt.body)
        else:
            text = self.mod.source_lines[line - 1].strip() if self.mod.source_lines else ""
        trailing = getattr(stmt, "trailing_whitespace", None)
        if isinstance(stmt, cst.SimpleStatementLine) and trailing and trailing.comment is not None:
            text += "  " + trailing.comment.value
        return c.Comment((f"{self.mod.file_name}:{line}  {text}",))

    def statement(self, stmt: cst.CSTNode) -> list[c.Stmt]:
        """One statement, or nothing and a diagnostic: the one place where errors of a
        statement are caught, an unexpected exception included (an internal error)."""
        head = [self.provenance(stmt)]
        try:
            return head + self.dispatch(stmt)
        except TranslationError as err:
            if self.fc.env.in_static_branch():
                raise DeferredBranch(err.diagnostic) from None
            self.mod.sink.add(err.diagnostic)
        except DeferredBranch:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure is reported at the statement
            self.mod.sink.add(self.mod.internal_error(stmt, exc))
        self._poison(stmt)
        return []

    def dispatch(self, node: cst.CSTNode) -> list[c.Stmt]:
        """`visit_<Node>` for a statement or small statement."""
        visit = getattr(self, f"visit_{type(node).__name__}", None)
        if visit is None:
            raise self._unsupported_statement(node)
        return visit(node)  # type: ignore[no-any-return]

    # -- one method per statement node type ------------------------------------------------
    def visit_SimpleStatementLine(self, stmt: cst.SimpleStatementLine) -> list[c.Stmt]:
        out: list[c.Stmt] = []
        for small in stmt.body:
            out += self.dispatch(small)
        return out

    def visit_If(self, stmt: cst.If) -> list[c.Stmt]:
        return self.if_(stmt)

    def visit_For(self, stmt: cst.For) -> list[c.Stmt]:
        return self.for_(stmt)

    def visit_While(self, stmt: cst.While) -> list[c.Stmt]:
        return self.while_(stmt)

    def visit_ClassDef(self, stmt: cst.ClassDef) -> list[c.Stmt]:
        if is_struct_class(stmt, self.mod.names):
            return self.struct(stmt)
        raise self._unsupported_statement(stmt)

    def visit_FunctionDef(self, stmt: cst.FunctionDef) -> list[c.Stmt]:
        """A nested function: as the DSL traces each of its calls, each call inlines its body
        (bbx.lowering.call.inline_call); the definition itself emits nothing."""
        line, _ = self.mod.position(stmt)
        name = stmt.name.value
        val = Val(Kind(Cat.FUNC), node=stmt, function=PyFunction(stmt))
        self.fc.env.define(Var(name, cxx_name(name), val.kind, line, value=val))
        return [c.Comment((f"def {name}: its body is inlined where it is called",))]

    def _inline_body(
        self, fdef: cst.FunctionDef, bindings: list[tuple[str, Val]]
    ) -> tuple[list[c.Stmt], list[Kind], Val | None]:
        """The body of nested function `fdef` with its parameters bound: Python-level values
        stand for themselves; other arguments are copied into a local of the parameter's name
        (a Python parameter is a local variable of the call)."""
        fc = self.fc
        saved_loops, saved_returns, saved_shapes = fc.loops, fc.return_kinds, fc.return_shapes
        fc.loops, fc.return_kinds, fc.return_shapes = [], [], []
        line, _ = self.mod.position(fdef)
        out: list[c.Stmt] = []
        fc.env.push(INLINED)
        try:
            for name, val in bindings:
                if val.kind.cat in _ALIAS_CATS or val.items is not None or val.function:
                    fc.env.define(Var(name, cxx_name(name), val.kind, line, value=val))
                    continue
                if val.expr == c.Id(cxx_name(name)):  # already a variable of that name
                    fc.env.define(Var(name, cxx_name(name), val.kind, line))
                    continue
                expr = self.lw.materialize(val, False, val.node)
                if val.tensor_element:
                    expr = c.Call(c.Id("value_copy"), (expr,))
                cxx = cxx_name(name)
                if cxx in identifiers(expr):  # `f(x * 2)`: not `auto x = x * 2`
                    cxx = fc.env.reserve_name(cxx)
                out.append(c.Decl(None, (cxx,), expr))
                fc.env.define(Var(name, cxx, val.kind, line))
            out += self.block(fdef.body)
            first = fc.env.lookup(bindings[0][0]) if bindings else None
            return out, fc.return_kinds, first.value if first is not None else None
        finally:
            fc.env.pop()
            fc.loops, fc.return_kinds = saved_loops, saved_returns
            fc.return_shapes = saved_shapes

    def _poison(self, stmt: cst.CSTNode) -> None:
        """After a failed statement, define the names it assigns (as unknown values) so that
        their later uses do not cascade into more errors."""
        targets: list[cst.CSTNode] = []
        for small in getattr(stmt, "body", ()) if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign):
                targets += [t.target for t in small.targets]
            elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                targets.append(small.target)
        names: list[str] = []
        for t in targets:
            if isinstance(t, cst.Name):
                names.append(t.value)
            elif isinstance(t, (cst.Tuple, cst.List)):
                names += [e.value.value for e in t.elements if isinstance(e.value, cst.Name)]
        for name in names:
            if name != "_" and self.fc.env.lookup(name) is None:
                self.fc.env.define(Var(name, cxx_name(name), k.VALUE, 0))

    def _unsupported_statement(self, stmt: cst.CSTNode) -> TranslationError:
        fc = self.fc
        if isinstance(stmt, (cst.Try, cst.TryStar)):
            return fc.error(
                stmt,
                "unsupported-construct",
                "`try` is not supported in kernels",
                "exceptions do not exist on the GPU",
            )
        if isinstance(stmt, cst.With):
            return fc.error(stmt, "unsupported-construct", "`with` is not supported in kernels")
        if isinstance(stmt, cst.ClassDef):
            return fc.error(
                stmt,
                "unsupported-construct",
                "class definitions inside DSL functions are not supported",
                "define the class at module level (classes inside DSL functions must be "
                "@cute.struct)",
            )
        if isinstance(stmt, cst.Match):
            return fc.error(stmt, "unsupported-construct", "`match` is not supported in kernels")
        return fc.error(stmt, "unsupported-construct", f"statement {type(stmt).__name__}")

    def struct(self, node: cst.ClassDef) -> list[c.Stmt]:
        """A @cute.struct class defined here: its template goes before the module's functions
        (`ModuleContext.struct_templates`), its alias (annotations evaluated here) is a local
        type (bbx.lowering.struct)."""
        fc = self.fc
        _, alias = lower_struct(
            self.mod, node, Annotations(fc.structs, self.lw.as_type, self.lw.static_type)
        )
        line, _ = self.mod.position(node)
        fc.env.define(Var(alias.name, alias.name, k.TYPE, line))
        fc.structs.add(alias.name)
        return [alias]

    # ------------------------------------------------------------------------------------
    # simple statements
    # ------------------------------------------------------------------------------------
    def visit_Assign(self, s: cst.Assign) -> list[c.Stmt]:
        if len(s.targets) != 1:
            raise self.fc.error(
                s,
                "unsupported-construct",
                "chained assignment `a = b = ...`",
                "assign each name separately",
            )
        return self.assign(s.targets[0].target, s.value, s)

    def visit_AnnAssign(self, s: cst.AnnAssign) -> list[c.Stmt]:
        if s.value is None:
            return []
        return self.assign(s.target, s.value, s)

    def visit_AugAssign(self, s: cst.AugAssign) -> list[c.Stmt]:
        return self.aug_assign(s)

    def visit_Return(self, s: cst.Return) -> list[c.Stmt]:
        return self.return_(s)

    def visit_Pass(self, s: cst.Pass) -> list[c.Stmt]:
        return []

    def visit_Raise(self, s: cst.Raise) -> list[c.Stmt]:
        return self.raise_(s)

    def visit_Assert(self, s: cst.Assert) -> list[c.Stmt]:
        return self.lower_assert(s)

    def visit_Break(self, s: cst.Break) -> list[c.Stmt]:
        return self.break_(s)

    def visit_Continue(self, s: cst.Continue) -> list[c.Stmt]:
        return self.break_(s)

    def visit_Global(self, s: cst.Global | cst.Nonlocal) -> list[c.Stmt]:
        raise self.fc.error(
            s,
            "global-mutation",
            f"`{'global' if isinstance(s, cst.Global) else 'nonlocal'}` is not "
            "supported in kernels",
            "module state cannot be changed from generated code; pass values in",
        )

    visit_Nonlocal = visit_Global

    def visit_Import(self, s: cst.Import | cst.ImportFrom) -> list[c.Stmt]:
        raise self.fc.error(
            s, "unsupported-construct", "imports inside DSL functions", "import at module level"
        )

    visit_ImportFrom = visit_Import

    def visit_Del(self, s: cst.Del) -> list[c.Stmt]:
        raise self.fc.error(s, "unsupported-construct", "`del` is not supported in kernels")

    def visit_Expr(self, s: cst.Expr) -> list[c.Stmt]:
        value = s.value
        if isinstance(value, cst.Call):
            resolved = self.mod.names.resolve(value.func)
            if resolved == "builtins.print":
                return [c.Comment(("print(...) dropped: it runs at trace time in CuTe DSL",))]
            if isinstance(value.func, cst.Attribute) and value.func.attr.value == "launch":
                return [self.launch(value)]
            if isinstance(value.func, cst.Attribute) and value.func.attr.value in _HOST_ONLY:
                what = value.func.attr.value
                return [c.Comment((f"{what}(...) dropped: kernel names are host-only",))]
        val = self.lw.lower(value)
        if val.kind.cat in _ALIAS_CATS:
            return [c.Comment(("compile-time expression statement dropped",))]
        return [c.ExprStmt(self.lw.materialize(val, False, value))]

    # -- assignment ------------------------------------------------------------------------
    def assign(
        self, target: cst.BaseAssignTargetExpression, value: cst.BaseExpression, stmt: cst.CSTNode
    ) -> list[c.Stmt]:
        fc = self.fc
        if isinstance(target, cst.Name):
            return self.assign_name(target, value, stmt)
        if isinstance(target, (cst.Tuple, cst.List)):
            return self.unpack(target, value, stmt)
        if isinstance(target, cst.Subscript):
            element = self._assign_element(target, value, stmt)
            if element is not None:
                return element
            base = self.lw.lower(target.value)
            vector = self.lw.array_slice(target, base)
            if vector is not None:  # `a[start:count] = v`: count elements from start
                array = self.lw.materialize(base, False, target.value)
                args = (array, self.lw.value(value), vector[0])
                return [c.ExprStmt(c.Call(c.Id("array_store"), args, (vector[1],)))]
            sliced = self.lw.lower(target)
            lhs = self.lw.materialize(sliced, False, target)
            if sliced.kind.cat is Cat.TENSOR:
                # `t[None] = ssa`: a slice takes the register vector's values (the DSL's
                # `t[crd].store(ssa)`)
                return [c.ExprStmt(c.Call(c.Member(lhs, "store"), (self.lw.value(value),)))]
            return [c.Assign(lhs, "=", self.lw.value(value))]
        if isinstance(target, cst.Attribute):
            attr = target.attr.value
            on_self = isinstance(target.value, cst.Name) and target.value.value == fc.self_name
            if on_self and attr in fc.struct_types:
                struct = self.mod.code(value)
                note = f"self.{attr}: kernels that read it take {struct} as a template argument"
                return [c.Comment((note,))]
            if not on_self and self.lw.lower(target.value).kind.cat in (
                Cat.STRUCT_REF,
                Cat.STRUCT_FIELD,
            ):
                return [c.Assign(self.lw.value(target), "=", self.lw.value(value))]
            if on_self and fc.role == "host" and fc.fn.cls is not None:
                return self._trace_attribute(target, value, stmt)
            field = self._assign_field(target, value) if not on_self else None
            if field is not None:
                return field
            raise fc.error(
                target,
                "global-mutation",
                f"assignment to '{self.mod.code(target)}' inside a DSL function",
                "configuration on self is read-only here; set it in __init__",
            )
        raise fc.error(target, "unsupported-construct", "unsupported assignment target")

    def _assign_element(
        self, target: cst.Subscript, value: cst.BaseExpression, stmt: cst.CSTNode
    ) -> list[c.Stmt] | None:
        """`seq[i] = value` on a Python list known element by element (`mInputs[i] =
        cute.composition(t, ...)` in a loop over `enumerate(mInputs)`): as in Python, the
        name now stands for the list with element i replaced, whatever its type. None when
        `target` is not such an element."""
        fc = self.fc
        var = fc.env.lookup(target.value.value) if isinstance(target.value, cst.Name) else None
        if var is None or var.value is None or var.value.items is None or var.value.fields:
            return None
        index = target.slice[0].slice if len(target.slice) == 1 else None
        if not isinstance(index, cst.Index):
            return None
        idx = self.lw.lower(index.value)
        items = list(var.value.items)
        if idx.kind.cat is not Cat.LITERAL or not isinstance(idx.kind.value, int):
            raise fc.error(index, "unsupported-value",
                           f"an element of the Python sequence '{var.name}' chosen at run time",
                           "the DSL indexes Python sequences at trace time: use a compile-time "
                           "index (a literal, a range_constexpr or enumerate loop variable)")
        i = idx.kind.value
        if not -len(items) <= i < len(items):
            raise fc.error(index, "index-error", f"index {i} out of range (the sequence has "
                           f"{len(items)} elements)")
        return self._replace_item(var, i % len(items), f"{var.name}[{i}]", target, value)

    def _assign_field(
        self, target: cst.Attribute, value: cst.BaseExpression, val: Val | None = None
    ) -> list[c.Stmt] | None:
        """`ns.x = value` on a namespace of DSL values (SimpleNamespace, dict) known field by
        field (flash attention's `basic_params.n_block = n_block` in a loop): as in Python, the
        field holds the new value from here on. A field holding a run-time scalar is its own
        C++ variable (`_hold_elements`), assigned in place; others are replaced. None when
        `target` is not such a field."""
        fc = self.fc
        var = fc.env.lookup(target.value.value) if isinstance(target.value, cst.Name) else None
        held = var.value if var is not None else None
        if (var is None or held is None or held.items is None or held.fields is None
                or held.kind.cat is not Cat.RECORD or held.kind.value is not None):
            return None
        name = target.attr.value
        added = name not in held.fields
        if added:  # a new attribute
            held = dataclasses.replace(held, items=(*held.items, Val(k.VALUE)),
                                       fields=(*held.fields, name))
            var = dataclasses.replace(var, value=held)
        assert held.fields is not None and held.items is not None
        i = held.fields.index(name)
        old = held.items[i]
        new = val if val is not None else self.lw.lower(value)
        if (old.kind.cat is Cat.DYNAMIC and isinstance(old.expr, c.Id)
                and new.kind.cat in (Cat.DYNAMIC, Cat.LITERAL, Cat.VALUE, Cat.STATIC)
                and new.kind.ctype in (None, old.kind.ctype)):
            return [c.Assign(old.expr, "=", self.lw.materialize(new, False, value))]
        out = self._replace_item(var, i, self.mod.code(target), target, value, val)
        return [] if added and isinstance(out[0], c.Comment) else out

    def _replace_item(
        self, var: Var, i: int, what: str, target: cst.BaseExpression,
        value: cst.BaseExpression, val: Val | None = None,
    ) -> list[c.Stmt]:
        """`var` (a Python sequence or namespace) with item `i` replaced by `value`: a new C++
        variable in the aggregate's own scope; inside a loop or branch, the expression, which
        must not use names that end with it."""
        fc = self.fc
        assert var.value is not None and var.value.items is not None
        items = list(var.value.items)
        new = val if val is not None else self.lw.lower(value)
        out: list[c.Stmt] = []
        if not python_level(new):
            label = var.value.fields[i] if var.value.fields else str(i)
            if var.depth == len(fc.env.scopes) - 1 and new.items is not None:
                # a sequence or object: its elements held, its structure kept
                new = self._hold_elements(f"{var.cxx}_{label}", new, value, out)
            elif var.depth == len(fc.env.scopes) - 1 and not isinstance(new.expr, c.Id):
                cxx = fc.env.reserve_name(f"{var.cxx}_{label}")
                expr = self.lw.materialize(new, True, value)
                if new.tensor_element:
                    expr = c.Call(c.Id("value_copy"), (expr,))
                out.append(c.Decl(None, (cxx,), expr))
                new = Val(new.kind, c.Id(cxx), node=value)
            elif var.depth != len(fc.env.scopes) - 1:
                # inside a loop body or branch: the expression, if it outlives the block
                inner = {v.cxx for scope in fc.env.scopes[var.depth + 1:]
                         for v in scope.names.values() if v.value is None and v.alias is None}
                expr = self.lw.materialize(new, True, value)
                if identifiers(expr) & inner:
                    raise fc.error(
                        target, "type-change",
                        f"'{what}' is assigned a value computed from names of this "
                        f"{fc.env.region.replace('`', '')}, which C++ cannot see after it",
                        "give the new value a variable before the block, or build a new "
                        f"'{var.name}' (a comprehension)")
                new = Val(new.kind, expr, node=value)
        items[i] = new
        held = dataclasses.replace(var.value, items=tuple(items), expr=None)
        fc.env.rebind(dataclasses.replace(var, value=held, kind=held.kind))
        return out or [c.Comment((f"{what} is a new Python value from here on",))]

    def _trace_attribute(
        self, target: cst.Attribute, value: cst.BaseExpression, stmt: cst.CSTNode
    ) -> list[c.Stmt]:
        """`self.x = value` in a host @cute.jit method: the DSL runs it at trace time, so what
        is traced later (this method's next statements, the kernels it launches) reads the
        new value. A compile-time value is used as it is; a run-time one is held in a local
        (`self_x`) that only this method can read."""
        fc = self.fc
        assert fc.fn.cls is not None
        attr = target.attr.value
        line, _ = self.mod.position(stmt)
        val = self.lw.lower(value)
        key = (fc.fn.cls.name, attr)
        if val.kind.cat is Cat.TYPE and self._argument_dtype(value):
            # `self.dtype = mX.element_type`: a type of the specialization, which the kernels
            # and helpers traced later read too: a Meta member (not a C++ expression of this
            # method's names)
            member = fc.add_meta(value, m.TYPE)
            val = Val(k.TYPE, type=c.Type(f"Meta::{member.name}", typename=True), node=value)
        if python_level(val):
            self.mod.traced_attributes[key] = TracedAttribute(val, line, fc.fn.cxx_name, False)
            return [c.Comment((f"self.{attr} is a compile-time value from here on",))]
        cxx = f"self_{attr}"
        if cxx in fc.env.used_cxx:  # set twice: a new variable
            cxx = fc.env.version_name(cxx)
        fc.env.used_cxx.add(cxx)
        expr = self.lw.materialize(val, True, value)
        if val.tensor_element:
            expr = c.Call(c.Id("value_copy"), (expr,))
        held = Val(val.kind, c.Id(cxx), node=value)
        self.mod.traced_attributes[key] = TracedAttribute(held, line, fc.fn.cxx_name, True)
        return [c.Decl(None, (cxx,), expr)]

    def _argument_dtype(self, value: cst.BaseExpression) -> bool:
        """`mX.element_type` of a tensor parameter of this function: a type the specialization
        knows in Python (its argument's spec), so a Meta member can hold it."""
        if not (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)
                and value.attr.value == "element_type"):
            return False
        var = self.fc.env.lookup(value.value.value)
        return var is not None and var.param and var.kind.cat is Cat.TENSOR

    def _declare(
        self, name: str, val: Val, node: cst.CSTNode, stmt: cst.CSTNode, cxx: str | None = None
    ) -> list[c.Stmt]:
        fc = self.fc
        line, _ = self.mod.position(stmt)
        cxx = cxx or cxx_name(name)
        kind = val.kind
        if val.function is not None:  # a Python function: called by inlining it
            fc.env.define(Var(name, cxx, kind, line, value=val))
            return [c.Comment((f"'{name}' is a Python function; calls inline its body",))]
        if val.items is not None and name in fc.carried:
            # A tuple, list or record that dynamic control flow rebinds (a loop-carried
            # state): each element C++ computes is a variable of its own, which the rebinding
            # assigns leaf by leaf (`_assign_leaves`), as the DSL carries a Python tree of DSL
            # values through a loop.
            out: list[c.Stmt] = []
            if _reads_whole(val):  # (a record a call returned)
                val = self._read_once(val, cxx, out)
            held = self._hold_elements(cxx, val, node, out, name, carried=True)
            fc.env.define(Var(name, cxx, held.kind, line, value=held))
            return out
        if val.items is not None:
            # A Python tuple, list or record: a C++ variable holds it, and the name also stands
            # for its elements (Python-level ones keep their values, as in Python). One with
            # values C++ cannot hold (strings) only holds its computed elements.
            out = []
            try:
                whole: c.Expr | None = self.lw.materialize(val, True, node)
            except TranslationError:
                whole = None
            if whole is not None:
                out.append(c.Decl(None, (cxx,), whole))
                held = element_view(val, c.Id(cxx))
            else:
                held = self._hold_elements(cxx, val, node, out, name)
            fc.env.define(Var(name, cxx, held.kind, line, value=held))
            return out
        if kind.cat is Cat.LITERAL and isinstance(kind.value, (int, float, bool)):
            if (
                name in fc.dynamically_assigned
                or not isinstance(kind.value, int)
                or isinstance(kind.value, bool)
            ):
                ctype = _literal_ctype(kind.value)
                fc.env.define(Var(name, cxx, k.dynamic(ctype), line))
                return [c.Decl(c.Type(ctype), (cxx,), self.lw.materialize(val, False, node))]
            fc.env.define(Var(name, cxx, k.STATIC, line))
            return [c.Decl(None, (cxx,), self.lw.materialize(val, True, node))]
        if kind.cat is Cat.META and name in fc.dynamically_assigned:
            # A configuration value that the function later replaces by run-time values
            # (`m = -self.dtype.inf`, then `m = fmax(m, x)` in a loop): a run-time variable.
            meta_ctype = _META_CTYPES.get(kind.meta_kind)
            fc.env.define(Var(name, cxx, k.dynamic(meta_ctype), line))
            decl_type = c.Type(meta_ctype) if meta_ctype else None
            return [c.Decl(decl_type, (cxx,), self.lw.materialize(val, False, node))]
        if kind.cat is Cat.META and kind.meta_kind == m.STATIC_INT:
            fc.env.define(Var(name, cxx, k.STATIC, line))
            return [c.Decl(None, (cxx,), self.lw.materialize(val, True, node))]
        if kind.cat in _ALIAS_CATS:
            alias = val.node if isinstance(val.node, cst.BaseExpression) else node
            # Closed over the aliases it uses now: `x = x + 1` refers to the previous x.
            closed = self.lw.substitute(alias)  # type: ignore[arg-type]
            fc.env.define(Var(name, cxx, kind, line, alias=closed))
            return [c.Comment((f"'{name}' is a compile-time Python value; uses are substituted",))]
        if kind.cat is Cat.TYPE:
            if val.type is None:
                raise fc.error(node, "unsupported-value", "a type that is not known statically")
            fc.env.define(Var(name, cxx, kind, line))
            return [c.Using(cxx, val.type)]
        expr = self.lw.materialize(val, True, node)
        if val.tensor_element:
            # `x = t[i]` binds the element's value, not a reference into t (DSL semantics).
            expr = c.Call(c.Id("value_copy"), (expr,))
        decl_type = c.Type(kind.ctype) if kind.cat is Cat.DYNAMIC and kind.ctype else None
        fc.env.define(Var(name, cxx, kind, line))
        return [c.Decl(decl_type, (cxx,), expr)]

    def assign_name(
        self,
        target: cst.Name,
        value: cst.BaseExpression,
        stmt: cst.CSTNode,
        val: Val | None = None,
    ) -> list[c.Stmt]:
        """`name = value`; `val` is the value when it is already lowered (unpacking)."""
        fc = self.fc
        name = target.value
        if isinstance(value, cst.Lambda) and val is None:
            # A lambda bound to a name: a Python function, inlined where it is called.
            val = Val(Kind(Cat.FUNC), node=value, function=PyFunction(value))
        if val is None:
            val = self.lw.lower(value)
        if isinstance(stmt, cst.AnnAssign):
            ann = self.mod.names.resolve(stmt.annotation.annotation)
            numeric = numeric_type(ann)
            if numeric is not None:
                val = cast_value(self.lw, val, numeric.cxx, value, value)
        var = fc.env.lookup(name)
        if var is None or not fc.env.local_to_call(var):
            return self._declare(name, val, value, stmt)
        crosses = var.depth < fc.env.closure_depth()
        same = (
            var.alias is None
            and not var.partial
            and var.kind.cat in _REBINDABLE
            and val.items is None  # a Python tuple, list or record is no scalar
            and (
                val.kind.cat is var.kind.cat
                or val.kind.cat in (Cat.LITERAL, Cat.VALUE)
                or var.kind.cat is Cat.VALUE
            )
            and not (var.kind.ctype and val.kind.ctype and var.kind.ctype != val.kind.ctype)
            and not (val.kind.cat is Cat.LITERAL and not isinstance(val.kind.value, (int, float)))
        )
        if same:
            return [c.Assign(c.Id(var.cxx), "=", self.lw.materialize(val, False, value))]
        if crosses and var.value is not None and var.value.items is not None:
            return self._assign_leaves(name, var.value, val, target)
        if crosses and var.alias is None and var.kind.cat is val.kind.cat is Cat.TENSOR:
            # The DSL rebinds the name to another view (`t = s[None, i]` in a dynamic if): a
            # view of the same C++ type takes the new pointer and layout (checked in C++).
            view = self.lw.materialize(val, False, value)
            return [c.ExprStmt(c.Call(c.Id("rebind_view"), (c.Id(var.cxx), view)))]
        if crosses:
            line, _ = self.mod.position(stmt)
            raise fc.error(
                target,
                "type-change",
                f"'{name}' changes type inside {fc.env.region.replace('`', '')}: it is a "
                f"{var.kind.describe()} (line {var.line}) and is assigned a {val.kind.describe()}",
                "a variable keeps one C++ type; use a new name for the new value",
            )
        # A rebinding with a new type outside dynamic control flow: a new C++ variable. A
        # compile-time value is closed over the old binding first (`x = x + 1`).
        if val.kind.cat in _ALIAS_CATS and isinstance(val.node, cst.BaseExpression):
            val = dataclasses.replace(val, node=self.lw.substitute(val.node))
        cxx = fc.env.version_name(name)
        if any(scope.region == STATIC_IF for scope in fc.env.scopes[var.depth + 1 :]):
            # Inside a `const_expr` branch: the new variable belongs to the branch, which
            # exports it (the other arm keeps the old one).
            return self._declare(name, val, value, stmt, cxx)
        fc.env.scopes[var.depth].names.pop(name, None)
        saved = fc.env.scopes
        out = self._declare(name, val, value, stmt, cxx)
        new = fc.env.lookup(name)
        if new is not None and new.depth != var.depth:
            saved[new.depth].names.pop(name, None)
            new.depth = var.depth
            fc.env.rebind(new)
        return out

    def unpack(
        self, target: cst.Tuple | cst.List, value: cst.BaseExpression, stmt: cst.CSTNode
    ) -> list[c.Stmt]:
        """`a, b = value`. Python evaluates the right side first, then binds each target: a
        sequence known at translation binds element by element (new or existing names, nested
        targets); any other value is a C++ tuple, bound by a structured binding."""
        targets = [e.value for e in target.elements]
        out: list[c.Stmt] = []
        if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(targets):
            vals = [self.lw.lower(e.value) for e in value.elements]
            if any(isinstance(t, cst.Name) and self.fc.env.lookup(t.value) for t in targets):
                # `a, b = b, a`: every right-hand value is read before any target is written.
                elements = [e.value for e in value.elements]
                vals = [self._temporary(v, e, out) for v, e in zip(vals, elements, strict=True)]
            parts = list(zip(targets, vals, [e.value for e in value.elements], strict=True))
        else:
            val = self.lw.lower(value)
            if not isinstance(val.expr, c.Id) and _reads_whole(val):  # (a helper's result)
                val = self._read_once(val, self.fc.env.reserve_name("unpacked"), out)
            items = value_items(val)
            if items is None:
                return self._unpack_cxx_tuple(targets, val, value, stmt)
            if len(items) != len(targets):
                raise self.fc.error(
                    target,
                    "unpack-error",
                    f"cannot unpack {len(items)} values into {len(targets)} names",
                )
            parts = [(t, v, value) for t, v in zip(targets, items, strict=True)]
        for t, v, node in parts:
            out += self.bind(t, v, node, stmt)
        return out

    def _hold_elements(
        self, base: str, val: Val, node: cst.CSTNode, out: list[c.Stmt], python: str = "",
        carried: bool = False,
    ) -> Val:
        """`val` with each element that C++ computes held in a variable (`base_0`, or
        `base_field` for a record); Python-level elements and plain names stay as they are.
        A namespace field that dynamic control flow assigns (`python.field`) is a run-time
        variable from the start, as a name assigned there is. `carried`: the whole value is
        rebound by dynamic control flow, so every C++ element is copied into a variable of its
        own (assigning it must not change the name it came from) and numeric literals are
        run-time variables, as a scalar assigned there is."""
        assert val.items is not None
        labels = val.fields or tuple(str(i) for i in range(len(val.items)))
        held: list[Val] = []
        for label, item in zip(labels, val.items, strict=True):
            if (((val.fields is not None
                  and f"{python}.{label}" in self.fc.dynamically_assigned) or carried)
                    and item.kind.cat is Cat.LITERAL
                    and isinstance(item.kind.value, (int, float))):
                name = self.fc.env.version_name(f"{base}_{label}")
                ctype = _literal_ctype(item.kind.value)
                out.append(c.Decl(c.Type(ctype), (name,),
                                  self.lw.materialize(item, False, item.node or node)))
                self.fc.env.used_cxx.add(name)
                held.append(Val(k.dynamic(ctype), c.Id(name), node=item.node))
            elif item.items is not None:
                held.append(self._hold_elements(f"{base}_{label}", item, node, out,
                                                carried=carried))
            elif item.kind.cat in _ALIAS_CATS or item.kind.cat is Cat.TYPE or (
                isinstance(item.expr, c.Id)
                and not (carried and item.kind.cat is not Cat.TENSOR)
                and not (val.fields is not None and item.kind.cat is Cat.DYNAMIC)
            ):
                # (a run-time scalar field of a namespace is copied: the namespace's own
                # variable, which `ns.x = ...` assigns, as Python rebinds only the field)
                held.append(item)
            else:
                name = f"{base}_{label}"
                if not carried or name in self.fc.env.used_cxx:
                    name = self.fc.env.version_name(name)
                expr = self.lw.materialize(item, True, item.node or node)
                if item.tensor_element:
                    expr = c.Call(c.Id("value_copy"), (expr,))
                out.append(c.Decl(None, (name,), expr))
                self.fc.env.used_cxx.add(name)
                held.append(dataclasses.replace(item, expr=c.Id(name), tensor_element=False))
        return dataclasses.replace(val, items=tuple(held), expr=None)

    def _assign_leaves(
        self, name: str, old: Val, new: Val, target: cst.CSTNode
    ) -> list[c.Stmt]:
        """`name = new` inside dynamic control flow, `name` holding a tuple, list or record
        whose C++ elements are variables (`_declare`): each variable is assigned its new
        element, as the DSL carries the tree's DSL values through the loop or branch. The tree
        keeps its structure and its compile-time leaves; every new value is read before any
        variable is written (`s = (s[1], s[0])`)."""
        out: list[c.Stmt] = []
        returned = (new.items is None and new.expr is not None
                    and new.kind.cat is Cat.RECORD and new.kind == old.kind)
        if returned or _reads_whole(new):
            # a record a C++ function returned (a method's `return Acc(...)`: its compile-time
            # fields are the ones the method was specialised for, this record's) or an object
            # `__init__` built
            new = self._read_once(new, self.fc.env.reserve_name(f"{cxx_name(name)}_next"), out,
                                  old if returned else None)
        pairs: list[tuple[c.Expr, c.Expr]] = []  # (variable, its new value)
        self._leaf_pairs(name, old, new, target, pairs)
        written: set[str] = set()
        reads_written = False
        for var, value in pairs:
            reads_written = reads_written or bool(identifiers(value) & written)
            written |= identifiers(var)
        if reads_written:
            staged: list[tuple[c.Expr, c.Expr]] = []
            for var, value in pairs:
                temp = self.fc.env.reserve_name(f"{cxx_name(name)}_next")
                out.append(c.Decl(None, (temp,), value))
                staged.append((var, c.Id(temp)))
            pairs = staged
        out += [c.Assign(var, "=", value) for var, value in pairs]
        return out or [c.Comment((f"'{name}' keeps its compile-time value",))]

    def _read_once(
        self, val: Val, cxx: str, out: list[c.Stmt], shape: Val | None = None
    ) -> Val:
        """`val`'s C++ value computed once, into variable `cxx`, and its elements read from it
        (laid out as `shape` when `val` is a C++ value without elements of its own)."""
        assert val.expr is not None
        out.append(c.Decl(None, (cxx,), val.expr))
        return element_view(shape or val, c.Id(cxx))

    def _leaf_pairs(
        self, label: str, old: Val, new: Val, target: cst.CSTNode,
        pairs: list[tuple[c.Expr, c.Expr]],
    ) -> None:
        fc = self.fc
        region = fc.env.region.replace("`", "")
        node = new.node if isinstance(new.node, cst.BaseExpression) else None
        if old.items is not None:
            new_items = value_items(new) if new.items is None else new.items
            same_shape = (
                new_items is not None and len(new_items) == len(old.items)
                and new.fields == old.fields
                and (old.kind.cat is not Cat.RECORD or new.kind.value == old.kind.value)
            )
            if not same_shape or new_items is None:
                raise fc.error(
                    target, "type-change",
                    f"'{label}' changes structure inside {region}: it is a "
                    f"{old.kind.describe()} of {len(old.items)} elements and is assigned a "
                    f"{new.kind.describe()}"
                    + (f" of {len(new_items)} elements" if new_items is not None else ""),
                    "a value carried through dynamic control flow keeps its structure",
                )
            labels = old.fields or tuple(f"[{i}]" for i in range(len(old.items)))
            for part, o, n in zip(labels, old.items, new_items, strict=True):
                sep = "." if old.fields else ""
                self._leaf_pairs(f"{label}{sep}{part}", o, n, target, pairs)
            return
        if python_level(old):
            if python_level(new) and new.kind == old.kind and new.type == old.type:
                return
            raise fc.error(
                target, "type-change",
                f"'{label}' is a compile-time value ({old.kind.describe()}) and is assigned "
                f"a {'different value' if python_level(new) else new.kind.describe()} "
                f"inside {region}",
                "only DSL values change in dynamic control flow: make it one before, e.g. "
                "cutlass.Int32(0)",
            )
        if not isinstance(old.expr, c.Id):
            raise fc.error(target, "type-change",
                           f"'{label}' cannot be assigned inside {region}")
        if old.kind.cat is Cat.TENSOR:
            # the element is the tensor a name holds (a register fragment is its storage):
            # it can stay, not become another tensor
            if new.kind.cat is Cat.TENSOR and new.expr == old.expr:
                return
            raise fc.error(
                target, "type-change",
                f"'{label}' is a tensor and is assigned another {new.kind.describe()} inside "
                f"{region}",
                "carry the tensors under names of their own; rebind those")
        compatible = new.kind.cat in (Cat.DYNAMIC, Cat.LITERAL, Cat.VALUE, Cat.STATIC,
                                      Cat.TENSOR_SSA, Cat.META) or (
            old.kind.cat is Cat.RECORD and new.kind == old.kind)  # one C++ struct
        if not compatible or (old.kind.ctype and new.kind.ctype
                              and _SAME_CTYPE.get(old.kind.ctype, old.kind.ctype)
                              != _SAME_CTYPE.get(new.kind.ctype, new.kind.ctype)):
            raise fc.error(
                target, "type-change",
                f"'{label}' changes type inside {region}: it is a {old.kind.describe()} and "
                f"is assigned a {new.kind.describe()}",
                "a value carried through dynamic control flow keeps its type; convert it, "
                "e.g. cutlass.Float32(x)",
            )
        value = self.lw.materialize(new, False, node)
        if new.tensor_element:
            value = c.Call(c.Id("value_copy"), (value,))
        pairs.append((old.expr, value))

    def _temporary(self, val: Val, node: cst.BaseExpression, out: list[c.Stmt]) -> Val:
        """`val` read into a fresh variable now (a compile-time value needs none)."""
        if val.kind.cat in _ALIAS_CATS:
            return val
        name = self.fc.env.fresh_unused()
        expr = self.lw.materialize(val, False, node)
        if val.tensor_element:
            expr = c.Call(c.Id("value_copy"), (expr,))
        out.append(c.Decl(None, (name,), expr))
        return Val(val.kind, c.Id(name), node=node)

    def bind(
        self, target: cst.BaseExpression, val: Val, value: cst.BaseExpression, stmt: cst.CSTNode
    ) -> list[c.Stmt]:
        """Bind an assignment target to an already lowered value."""
        if isinstance(target, cst.Name):
            if target.value == "_":
                return []
            return self.assign_name(target, value, stmt, val)
        if isinstance(target, (cst.Tuple, cst.List)):
            items = value_items(val)
            if items is None:
                return self._unpack_cxx_tuple([e.value for e in target.elements], val, value, stmt)
            out: list[c.Stmt] = []
            for t, v in zip([e.value for e in target.elements], items, strict=True):
                out += self.bind(t, v, value, stmt)
            return out
        if isinstance(target, cst.Attribute):  # `obj.a, obj.b = x, y` on a Python object
            field = self._assign_field(target, value, val)
            if field is not None:
                return field
        lhs = self.lw.value(target)  # a subscript or attribute target
        return [c.Assign(lhs, "=", self.lw.materialize(val, False, value))]

    def _unpack_cxx_tuple(
        self, targets: list[cst.BaseExpression], val: Val, value: cst.BaseExpression,
        stmt: cst.CSTNode,
    ) -> list[c.Stmt]:
        """Unpack a C++ tuple (`m, n = mX.shape`): a structured binding into new names; into
        existing names or nested targets, element by element through a temporary."""
        fc = self.fc
        line, _ = self.mod.position(stmt)
        elems = val.kind.elems if val.kind.cat is Cat.TUPLE else ()
        fresh = all(
            isinstance(t, cst.Name) and (t.value == "_" or fc.env.lookup(t.value) is None)
            for t in targets
        )
        expr = self.lw.materialize(val, True, value)
        if fresh:
            cxx_names = []
            for i, t in enumerate(targets):
                assert isinstance(t, cst.Name)
                cxx = fc.env.fresh_unused() if t.value == "_" else cxx_name(t.value)
                cxx_names.append(cxx)
                if t.value != "_":
                    kind = elems[i] if i < len(elems) else k.VALUE
                    fc.env.define(Var(t.value, cxx, kind, line))
            return [c.Decl(None, tuple(cxx_names), expr, maybe_unused=True)]
        temp = fc.env.fresh_unused()
        out: list[c.Stmt] = [c.Decl(None, (temp,), expr)]
        for i, t in enumerate(targets):
            kind = elems[i] if i < len(elems) else k.VALUE
            part = Val(kind, c.Call(c.Id("get"), (c.Id(temp),), (c.Lit(str(i)),)), node=value)
            out += self.bind(t, part, value, stmt)
        return out

    def aug_assign(self, s: cst.AugAssign) -> list[c.Stmt]:
        fc = self.fc
        op = _AUG_OPS.get(type(s.operator))
        if op is None:
            raise fc.error(s, "unsupported-operator", "`**=` is not supported")
        if isinstance(s.target, cst.Name):
            var = fc.env.lookup(s.target.value)
            if var is None:
                self.lw.lower(s.target)  # raises undefined / dynamic-scope
                raise fc.error(s.target, "undefined-name", f"'{s.target.value}' is not defined")
            if var.alias is not None or var.kind.cat not in _REBINDABLE:
                # e.g. a static integer: a rebinding with a new type.
                binary = cst.BinaryOperation(
                    left=s.target, operator=_binary_of(s.operator), right=s.value
                )
                return self.assign_name(s.target, binary, s)
            return [c.Assign(c.Id(var.cxx), op, self.lw.value(s.value))]
        if isinstance(s.target, cst.Subscript):
            return [c.Assign(self.lw.value(s.target), op, self.lw.value(s.value))]
        raise fc.error(
            s.target,
            "global-mutation",
            f"assignment to '{self.mod.code(s.target)}' inside a DSL function",
            "configuration on self is read-only here; set it in __init__",
        )

    # -- return / raise / assert / break ---------------------------------------------------
    def return_(self, s: cst.Return) -> list[c.Stmt]:
        fc = self.fc
        if fc.env.in_dynamic():
            raise fc.error(
                s,
                "dynamic-return",
                "`return` inside dynamic control flow",
                "CuTe DSL functions return once, at the end; assign a result instead",
            )
        if fc.loops:
            raise fc.error(s, "dynamic-return", "`return` inside a loop is not supported")
        if s.value is None:
            return [c.Return()]
        if fc.role == "kernel" and not fc.env.inlining():
            raise fc.error(s, "kernel-return", "a @cute.kernel cannot return a value")
        val = self.lw.lower(s.value)
        fc.return_kinds.append(val.kind)
        if (val.items is not None and not python_level(val)
                and (_python_leaf(val) or _holds_record(val)) and not fc.env.inlining()):
            fc.return_shapes.append(result_shape(val))
            return [c.Return(materialize_tree(self.lw, val, s.value))]
        if python_level(val) and not fc.env.inlining():  # `len(self.items)`: callers see 3
            fc.return_shapes.append(result_shape(val))
        return [c.Return(self.lw.materialize(val, False, s.value))]

    def raise_(self, s: cst.Raise) -> list[c.Stmt]:
        fc = self.fc
        if fc.env.in_dynamic():
            raise fc.error(
                s,
                "dynamic-raise",
                "`raise` inside dynamic control flow",
                "only errors under compile-time (`const_expr`) conditions are supported",
            )
        message = "unsupported configuration"
        exc = s.exc
        if isinstance(exc, cst.Call):
            if exc.args and isinstance(exc.args[0].value, cst.SimpleString):
                message = str(exc.args[0].value.evaluated_value)
            else:
                message = self.mod.code(exc)
        elif exc is not None:
            message = self.mod.code(exc)
        dependent = c.Id("dependent_false<Meta>")
        return [c.StaticAssert(dependent, message)]

    def lower_assert(self, s: cst.Assert) -> list[c.Stmt]:
        fc = self.fc
        val = self.lw.lower(s.test)
        message = (
            str(s.msg.evaluated_value)
            if isinstance(s.msg, cst.SimpleString)
            else self.mod.code(s.test)
        )
        if val.kind.cat is Cat.LITERAL:
            if not val.kind.value:
                raise fc.error(s, "static-assert", f"assertion is always false: {message}")
            return [c.Comment(("assertion checked at translation time",))]
        if val.kind.cat is Cat.META or val.kind.cat is Cat.STATIC:
            return [c.StaticAssert(self.lw.materialize(val, True, s.test), message)]
        raise fc.error(
            s,
            "dynamic-assert",
            "`assert` on a run-time value is not supported",
            "assert compile-time facts only",
        )

    def break_(self, s: cst.Break | cst.Continue) -> list[c.Stmt]:
        fc = self.fc
        word = "break" if isinstance(s, cst.Break) else "continue"
        if not fc.loops:
            raise fc.error(s, "syntax-error", f"`{word}` outside a loop")
        if fc.loops[-1] == "unrolled":
            raise fc.error(
                s,
                "static-break",
                f"`{word}` in a loop over a Python sequence",
                "the loop is unrolled at compile time; guard the body instead",
            )
        if fc.loops[-1] == "static":
            if word == "continue":
                return [c.Return()]
            raise fc.error(
                s,
                "static-break",
                "`break` in a `range_constexpr` loop",
                "the loop is unrolled at compile time; guard the body instead",
            )
        raise fc.error(
            s,
            "dynamic-break",
            f"`{word}` in a dynamic loop is not supported",
            "CuTe DSL loops cannot exit early; use a while condition or a predicate",
        )

    # ------------------------------------------------------------------------------------
    # control flow
    # ------------------------------------------------------------------------------------
    def _is_const_expr(self, test: cst.BaseExpression) -> bool:
        return isinstance(test, cst.Call) and self.mod.names.resolve(test.func) in (
            "cutlass.const_expr",
            "cutlass.cute.const_expr",
        )

    def if_(self, s: cst.If) -> list[c.Stmt]:
        fc = self.fc
        const = self._is_const_expr(s.test)
        val = self.lw.lower(s.test)
        static = val.kind.cat in (Cat.LITERAL, Cat.META, Cat.STATIC, Cat.CONSTEXPR)
        if const and not static and val.kind.cat not in (Cat.VALUE,):
            raise fc.error(
                s.test,
                "dynamic-const-expr",
                "the `const_expr` condition depends on a run-time value",
                "only compile-time values may appear in cutlass.const_expr(...)",
            )
        static = static or const
        if val.kind.cat is Cat.LITERAL:
            chosen = s.body if val.kind.value else s.orelse
            note = c.Comment(("condition folded at translation time",))
            if chosen is None:
                return [note]
            if isinstance(chosen, cst.If):
                return [note, *self.if_(chosen)]
            body = chosen.body if isinstance(chosen, cst.Else) else chosen
            return [note, *self.block(body)]
        cond = self.lw.materialize(val, static, s.test)
        region = STATIC_IF if static else DYNAMIC_IF
        if static and not _has_jump(s):
            return self._static_if(s, cond)
        then = self._scoped(region, s.body)
        other: list[c.Stmt] = []
        if isinstance(s.orelse, cst.If):
            try:
                other = self.if_(s.orelse)
            except TranslationError as err:
                self.mod.sink.add(err.diagnostic)
        elif isinstance(s.orelse, cst.Else):
            other = self._scoped(region, s.orelse.body)
        return [c.If(cond, tuple(then), tuple(other), constexpr=static)]

    def _static_if(self, s: cst.If, cond: c.Expr) -> list[c.Stmt]:
        """A `const_expr` branch. As in Python (and the DSL), a variable it defines stays
        visible after it: when one is used later, the branch becomes a lambda returning those
        variables, bound by a structured binding (`BranchValues`); the arm that does not define
        a variable binds `python_only_value`, which no C++ use accepts."""
        fc = self.fc
        then, then_vars = self._scoped_vars(STATIC_IF, s.body)
        other: list[c.Stmt] = []
        other_vars: dict[str, Var] = {}
        if isinstance(s.orelse, cst.Else):
            other, other_vars = self._scoped_vars(STATIC_IF, s.orelse.body)
        elif isinstance(s.orelse, cst.If):  # `elif`: an else arm holding the next `if`
            elif_ = s.orelse
            other, other_vars = self._scoped_vars(STATIC_IF, lambda: self.if_(elif_))
        end = self.mod.positions[s].end
        line, _ = self.mod.position(s)
        exported: dict[str, Var] = {}
        outer = {n: fc.env.lookup(n) for n in [*then_vars, *other_vars]}  # before the branch
        for name, var in [*then_vars.items(), *other_vars.items()]:
            if name in exported or var.kind.cat is Cat.TYPE:
                continue
            if not self._used_after(name, (end.line, end.column)):
                continue
            then_var, other_var = then_vars.get(name), other_vars.get(name)
            if then_var is not None and other_var is not None and (
                then_var.alias is not None and other_var.alias is not None
            ):
                # A compile-time Python value on both arms (`op = prims.ReductionOp.ADD`): the
                # name stands for `a if cond else b`, decided per specialization.
                choice = cst.IfExp(test=s.test, body=then_var.alias, orelse=other_var.alias)
                fc.env.define(Var(name, var.cxx, var.kind, line, alias=choice))
            elif var.alias is None:
                exported[name] = var
        if not exported:
            return [c.If(cond, tuple(then), tuple(other), constexpr=True)]

        def before(n: str) -> Var | None:
            """The variable `n` named before the branch (an arm that does not assign it keeps
            it), if it has a C++ value."""
            var = outer.get(n)
            return var if var is not None and var.alias is None and not var.partial else None

        def returned(defined: dict[str, Var]) -> c.Return:
            values = []
            for n in exported:
                var = defined.get(n) or before(n)
                if var is not None and var.alias is not None:
                    # a compile-time Python value on this arm (`t = self.tile`): its C++ form
                    values.append(self.lw.materialize(self.lw.lower(var.alias), True, var.alias))
                    continue
                values.append(c.Id(var.cxx) if var is not None
                              else c.Construct(c.Type("python_only_value")))
            return c.Return(c.Call(c.Id("make_tuple"), tuple(values)))

        branch = c.If(
            cond,
            (*then, returned(then_vars)),
            (*other, returned(other_vars)),
            constexpr=True,
        )
        # A compile-time value (`Int<N>`) stays one after the branch: the structured binding is
        # no constant expression, so the name is re-declared `constexpr` from its type.
        arms = [{n: arm.get(n) or before(n) for n in exported} for arm in (then_vars, other_vars)]
        static = {
            n for n in exported
            if all(arm[n] is None or arm[n].kind.cat is Cat.STATIC for arm in arms)  # type: ignore[union-attr]
        }
        names = tuple(var.cxx + ("_" if n in static else "") for n, var in exported.items())
        out: list[c.Stmt] = [c.BranchValues(names, branch)]
        for name, var in exported.items():
            partial = any(arm[name] is None for arm in arms)
            fc.env.define(Var(name, var.cxx, _branch_value_kind(var.kind), line, partial=partial))
            if name in static:
                init = c.Construct(c.Decltype(c.Id(var.cxx + "_")))
                out.append(c.Decl(None, (var.cxx,), init, constexpr=True))
        return out

    def _used_after(self, name: str, position: tuple[int, int]) -> bool:
        """Whether `name` occurs in the function after `position` (line, column)."""
        uses = self._name_positions.get(name)
        if uses is None:
            return False
        return any(pos > position for pos in uses)

    @cached_property
    def _name_positions(self) -> dict[str, list[tuple[int, int]]]:
        """(line, column) of every name in the function body, by name."""
        positions: dict[str, list[tuple[int, int]]] = {}
        for node in walk(self.fc.fn.node.body):
            if isinstance(node, cst.Name):
                start = self.mod.positions[node].start
                positions.setdefault(node.value, []).append((start.line, start.column))
        return positions

    def _scoped_vars(
        self, region: str, body: cst.BaseSuite | Callable[[], list[c.Stmt]]
    ) -> tuple[list[c.Stmt], dict[str, Var]]:
        """The statements of `body` (a block, or a function lowering one) in a new scope of
        `region`, with the variables that scope defined."""
        self.fc.env.push(region)
        try:
            stmts = body() if callable(body) else self.block(body)
            names = dict(self.fc.env.scopes[-1].names)
        except DeferredBranch as deferred:
            if region != STATIC_IF:
                raise  # up to the innermost `const_expr` branch, which gives up as a whole
            stmts, names = [self._deferred(deferred)], {}
        finally:
            self.fc.env.pop()
        return stmts, names

    def _deferred(self, deferred: DeferredBranch) -> c.Stmt:
        """The body of a `const_expr` branch that cannot be translated: an error if, and only
        if, a specialization takes the branch."""
        return deferred_error(self.mod, deferred.diagnostic)

    def _scoped(self, region: str, body: cst.BaseSuite) -> list[c.Stmt]:
        return self._scoped_vars(region, body)[0]

    def for_(self, s: cst.For) -> list[c.Stmt]:
        fc = self.fc
        if s.orelse is not None:
            raise fc.error(s.orelse, "unsupported-construct", "`for ... else` is not supported")
        it = s.iter
        resolved = self.mod.names.resolve(it.func) if isinstance(it, cst.Call) else None
        if not isinstance(it, cst.Call) or resolved not in _RANGES:
            return self._unrolled_for(s)
        if not isinstance(s.target, cst.Name):
            raise fc.error(s.target, "unsupported-construct", "loop targets must be a single name")
        name = fc.env.fresh_unused() if s.target.value == "_" else cxx_name(s.target.value)
        line, _ = self.mod.position(s)
        if resolved is not None and resolved.endswith("range_constexpr"):
            return self._static_for(s, it, name, line)
        positional = [a.value for a in it.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in it.args if a.keyword is not None}
        if not 1 <= len(positional) <= 3:
            raise fc.error(it, "bad-arguments", "range takes 1 to 3 positional arguments")
        unroll = None
        for key, v in keywords.items():
            if key == "unroll":
                uv = self.lw.lower(v)
                unroll = str(uv.kind.value) if uv.kind.cat is Cat.LITERAL else ""
            elif key == "unroll_full":
                unroll = ""
            elif key not in ("loc", "ip"):
                raise fc.error(v, "unsupported-keyword", f"range keyword '{key}' is not supported")
        start: c.Expr = c.Lit("0")
        step: c.Expr | None = None
        descending = False
        if len(positional) == 1:
            stop = self.lw.value(positional[0])
        else:
            start = self.lw.value(positional[0])
            stop = self.lw.value(positional[1])
        if len(positional) == 3:
            sv = self.lw.lower(positional[2])
            if sv.kind.cat is Cat.LITERAL and sv.kind.value == 1:
                step = None
            elif (
                sv.kind.cat is Cat.LITERAL and isinstance(sv.kind.value, int) and sv.kind.value < 0
            ):
                descending = True
                step = None if sv.kind.value == -1 else self.lw.materialize(sv, False)
            else:
                step = self.lw.materialize(sv, False, positional[2])
        fc.env.push(DYNAMIC_LOOP)
        fc.loops.append("dynamic")
        try:
            fc.env.define(Var(s.target.value, name, k.dynamic("int"), line))
            body = self.block(s.body)
        finally:
            fc.loops.pop()
            fc.env.pop()
        fc.env.hidden.pop(s.target.value, None)
        return [c.For(name, start, stop, step, tuple(body), descending, unroll)]

    def _unrolled_for(self, s: cst.For) -> list[c.Stmt]:
        """A loop over a Python sequence (a tuple, `zip`, `enumerate`...): Python runs it at
        trace time, so each iteration is emitted, in a block of its own, with the loop target
        bound to that element."""
        fc = self.fc
        items = static_items(self.lw, s.iter)
        if items is None:
            raise fc.error(
                s.iter,
                "unsupported-construct",
                "iteration over this value is not supported",
                "loop with range(...), cutlass.range(...) or cutlass.range_constexpr(...), or "
                "over a tuple or list known at compile time",
            )
        line, _ = self.mod.position(s)
        target = self.mod.code(s.target)
        out: list[c.Stmt] = []
        fc.loops.append("unrolled")
        try:
            for i, item in enumerate(items):
                fc.env.push(STATIC_LOOP)
                try:
                    bind_target(self.lw, s.target, item, line)
                    body = self.block(s.body)
                finally:
                    fc.env.pop()
                out.append(c.Block((c.Comment((f"{target}: element {i}",)), *body)))
        finally:
            fc.loops.pop()
        return out

    def _static_for(self, s: cst.For, it: cst.Call, name: str, line: int) -> list[c.Stmt]:
        """`for i in range_constexpr([start,] stop[, step])`: unrolled by `static_for`; `i` is a
        compile-time integer (`Int<N>`) in each copy of the body."""
        fc = self.fc
        args = [a.value for a in it.args if a.keyword is None]
        if len(args) != len(it.args) or not 1 <= len(args) <= 3:
            raise fc.error(it, "bad-arguments",
                           "range_constexpr takes 1 to 3 positional arguments: "
                           "([start,] stop[, step])")
        bounds = [self._static_bound(a, it) for a in args]
        start, stop, step = (
            (c.Lit("0"), bounds[0], c.Lit("1")) if len(bounds) == 1
            else (bounds[0], bounds[1], bounds[2] if len(bounds) == 3 else c.Lit("1"))
        )
        literal = [b.text for b in (start, stop, step) if isinstance(b, c.Lit)]
        counted = start == c.Lit("0") and step == c.Lit("1")
        if counted and not isinstance(stop, c.Lit):
            count: c.CxxType | c.Expr = stop
        elif len(literal) == 3:
            lo, hi, by = (int(v) for v in literal)
            if by == 0:
                raise fc.error(args[2], "bad-arguments", "range_constexpr() step must not be 0")
            count = c.Lit(str(len(range(lo, hi, by))))
        else:
            count = c.Call(c.Id("static_range_count"), (), (start, stop, step))
        assert isinstance(s.target, cst.Name)
        index = name if counted else fc.env.fresh_unused()
        fc.env.push(STATIC_LOOP)
        fc.loops.append("static")
        try:
            fc.env.define(Var(s.target.value, name, k.STATIC, line))
            head: list[c.Stmt] = []
            if not counted:
                # the Python value: start + index * step, still an Int<N>
                stride: c.Expr = c.Id(index) if step == c.Lit("1") else c.Binary(
                    "*", c.Id(index), c.Construct(c.Type("Int", (step,))))
                value = c.Binary("+", c.Construct(c.Type("Int", (start,))), stride)
                head.append(c.Decl(None, (name,), value))
            body = head + self.block(s.body)
        finally:
            fc.loops.pop()
            fc.env.pop()
        fc.env.hidden.pop(s.target.value, None)
        return [c.StaticFor(count, index, tuple(body))]

    def _static_bound(self, arg: cst.BaseExpression, it: cst.Call) -> c.Expr:
        """A bound of `range_constexpr`, as a C++ constant expression."""
        val = self.lw.lower(arg)
        bound = self.lw.static_int_expr(val, arg)
        if bound is not None:
            return bound
        if val.kind.cat is Cat.VALUE:  # a C++ value whose type carries the integer
            return c.ValueOf(c.Decltype(self.lw.materialize(val, True)))
        raise self.fc.error(
            it,
            "dynamic-range-constexpr",
            "range_constexpr needs compile-time bounds",
            "use range(...) for a run-time trip count",
        )

    def while_(self, s: cst.While) -> list[c.Stmt]:
        fc = self.fc
        if s.orelse is not None:
            raise fc.error(s.orelse, "unsupported-construct", "`while ... else` is not supported")
        val = self.lw.lower(s.test)
        if val.kind.cat in (Cat.LITERAL, Cat.META, Cat.STATIC):
            raise fc.error(
                s.test,
                "static-while",
                "`while` on a compile-time condition",
                "use cutlass.range_constexpr(n) for compile-time loops",
            )
        cond = self.lw.materialize(val, False, s.test)
        fc.env.push(DYNAMIC_LOOP)
        fc.loops.append("dynamic")
        try:
            body = self.block(s.body)
        finally:
            fc.loops.pop()
            fc.env.pop()
        return [c.While(cond, tuple(body))]

    # ------------------------------------------------------------------------------------
    # kernel launches
    # ------------------------------------------------------------------------------------
    def launch(self, call: cst.Call) -> c.Stmt:
        from .signature import signature

        fc = self.fc
        func = call.func
        assert isinstance(func, cst.Attribute)
        kcall = func.value
        target = None
        external = None
        if isinstance(kcall, cst.Call):
            kref = kcall.func
            if (
                isinstance(kref, cst.Attribute)
                and isinstance(kref.value, cst.Name)
                and kref.value.value == fc.self_name
                and fc.fn.cls is not None
            ):
                target = fc.fn.cls.methods.get(kref.attr.value)
            elif isinstance(kref, cst.Name) and fc.env.lookup(kref.value) is None:
                target = self.mod.info.free_function(kref.value)
            if target is None and self.mod.externals is not None:
                # a kernel of another module (`from kernels import add_kernel`)
                external = self.mod.externals.lookup(kref, self.mod.error)
                if external is not None and external.info.role != "kernel":
                    external = None
        is_kernel = external is not None or (target is not None and target.is_kernel)
        if not is_kernel or not isinstance(kcall, cst.Call):
            raise fc.error(
                call,
                "bad-launch",
                "`.launch(...)` on something that is not a @cute.kernel call",
                "write kernel(args).launch(grid=..., block=...)",
            )
        if fc.role != "host":
            raise fc.error(
                call, "bad-launch", "kernels can only be launched from host @cute.jit functions"
            )
        if external is not None:
            name, params = external.info.python_name, external.info.params
            kernel_cxx = external.cxx_name
            self.mod.external_calls.setdefault(fc.fn.cxx_name, []).append(external)
            uses_allocator = external.info.uses_smem_allocator
        else:
            assert target is not None
            name, params = target.name, signature(self.mod, target).params
            kernel_cxx = target.cxx_name
            fc.calls.append(target.cxx_name)
            uses_allocator = kernel_uses_smem_allocator(self.mod, target)
        names = [p.name for p in params]
        bound: dict[str, cst.BaseExpression] = {}
        for i, a in enumerate(kcall.args):
            key = (
                a.keyword.value if a.keyword is not None else (names[i] if i < len(names) else None)
            )
            if key is None or key not in names:
                raise fc.error(a, "bad-arguments", f"unexpected argument to kernel '{name}'")
            bound[key] = a.value
        args: list[c.Expr] = []
        targs: list[c.CxxType | c.Expr] = [c.Type("Meta")]
        given: dict[str, str] = {}
        sequences: dict[str, tuple[Kind, ...]] = {}
        takes_sequences = sequence_params(self.mod, target) if target is not None else []
        for sp in params:
            arg = bound.get(sp.name)
            if arg is None and sp.default is not None:
                arg = cst.parse_expression(sp.default)
            if arg is None:
                raise fc.error(
                    kcall, "bad-arguments", f"kernel '{name}' needs argument '{sp.name}'"
                )
            given[sp.name] = " ".join(self.mod.code(self.lw.substitute(arg)).split())
            elements = self._sequence_argument(arg) if sp.name in takes_sequences else None
            if elements is not None:  # a Python sequence: one kernel argument per element
                sequences[sp.name] = tuple(v.kind for v in elements)
                for element in elements:
                    x = self.lw.materialize(element, True, element.node or arg)
                    args.append(x)
                    targs.append(c.Decltype(x, decay=True))
                continue
            x = kernel_argument(self.lw, arg, sp)
            args.append(x)
            if sp.template is not None:
                targs.append(self._arg_type(arg, x))
        if sequences:
            assert target is not None and self.mod.lower_variant is not None
            variant = self.mod.lower_variant(target, {}, {}, "kernel", kcall,
                                             Aggregates(sequences))
            fc.calls[fc.calls.index(target.cxx_name)] = kernel_cxx = variant.cxx_name
        launches = self.mod.launch_arguments.setdefault((fc.fn.cxx_name, kernel_cxx), [])
        if given not in launches:
            launches.append(given)
        options = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        self._check_launch_options(options)
        for key in ("grid", "block"):
            if key not in options:
                raise fc.error(call, "bad-launch", f"launch needs {key}=[x, y, z]")
        sized = None
        if "smem" not in options and uses_allocator and target is not None:
            sized = self._allocated_smem(target, params, bound)
        if "smem" in options:
            smem: c.Expr = self.lw.value(options["smem"])
        elif sized is not None:
            smem = c.Annotated("smem=", sized)
        elif uses_allocator:
            # The DSL sizes the launch from the kernel's SmemAllocator calls; where they cannot
            # be replayed here, the kernel gets the target's default dynamic shared memory.
            smem = c.Annotated("smem=", c.Id("bbx::smem_allocator_default_bytes"))
        else:
            smem = c.Annotated("smem=", c.Lit("0"))
        stream = self.lw.value(options["stream"]) if "stream" in options else c.Id(fc.stream_name)
        block = self._block_threads(options["block"])
        if "min_blocks_per_mp" in options:
            block = c.Type(
                "bbx::with_min_blocks", (block, self.lw.static_type(options["min_blocks_per_mp"]))
            )
        if "max_number_threads" in options:  # the launch bound instead of the block's size
            block = self._static_block_threads(options["max_number_threads"])
            if "min_blocks_per_mp" in options:
                block = c.Type("bbx::with_min_blocks",
                               (block, self.lw.static_type(options["min_blocks_per_mp"])))
        targs.insert(1, block)
        if target is not None and target.cls is not None:
            # The @cute.struct classes the kernel reads through `self.x`.
            targs += [c.Type(target.cls.struct_attrs[a]) for a in kernel_struct_attrs(target)]
            # Run-time values this method stored on `self` that the kernel reads.
            for attr in kernel_traced_attrs(self.mod, target):
                held = self.mod.traced_attributes[(target.cls.name, attr)].value
                assert held.expr is not None
                args.append(held.expr)
                targs.append(c.Decltype(held.expr, decay=True))
        return c.Launch(
            c.TemplateId(kernel_cxx, tuple(targs)),
            self._dim3(options["grid"]),
            self._dim3(options["block"]),
            smem,
            stream,
            tuple(args),
            self._launch_attributes(options),
        )

    def _check_launch_options(self, options: dict[str, cst.BaseExpression]) -> None:
        """Every keyword is a launch option of the DSL; NVIDIA-only ones are refused unless
        they ask for nothing (`cluster=(1, 1, 1)`, `launch_completion_event=None`)."""
        fc = self.fc
        for key, v in options.items():
            what = launch_options.NVIDIA_ONLY.get(key)
            if what is not None and not self._trivial_launch_option(v):
                raise fc.error(
                    v,
                    "nvidia-only",
                    f"launch({key}=...): {what} has no AMD counterpart",
                    "leave the option out (or keep it behind a compile-time condition that is "
                    "false on AMD)",
                )
            if key not in launch_options.ALL:
                raise fc.error(
                    v,
                    "unsupported-keyword",
                    f"'{key}' is not a launch option of CuTe DSL (4.8.1)",
                    "its options: " + ", ".join((*launch_options.TRANSLATED,
                                                   *launch_options.HINTS)),
                )

    def _trivial_launch_option(self, node: cst.BaseExpression) -> bool:
        """`None`, `False`, or extents that are all 1 (a cluster of one block); a value this
        function cannot see (a module-level shape) is not."""
        try:
            val = self.lw.lower(node)
            if val.kind.cat is Cat.LITERAL and val.kind.value in (None, False):
                return True
            extents = self._extents(node)
        except TranslationError:
            return False
        return all(v.kind.cat is Cat.LITERAL and v.kind.value == 1 for v, _ in extents)

    def _static_block_threads(self, node: cst.BaseExpression) -> c.CxxType:
        """`max_number_threads=[x, y, z]`: extents known when the kernel is compiled (literals,
        static integers, configuration values such as `self.threads_per_cta`)."""
        types: list[c.CxxType | c.Expr] = []
        for v, n in self._extents(node):
            if v.kind.cat is Cat.LITERAL and isinstance(v.kind.value, int):
                types.append(static_int_type(v.kind.value))
            elif v.kind.cat is Cat.META and v.kind.meta_kind == m.VALUE:  # a constexpr member
                types.append(c.Type("C", (c.Id(f"Meta::{v.kind.value}"),)))
            elif v.kind.cat in (Cat.STATIC, Cat.CONSTEXPR) or (
                    v.kind.cat is Cat.META and v.kind.meta_kind == m.STATIC_INT):  # a type
                types.append(c.Decltype(self.lw.materialize(v, True, n), decay=True))
            else:
                raise self.fc.error(
                    node,
                    "bad-launch",
                    "launch(max_number_threads=...) must be known when the kernel is compiled",
                    "use literal integers, Constexpr or configuration values",
                )
        return c.Type("bbx::block_threads_t", tuple(types))

    def _launch_attributes(
        self, options: dict[str, cst.BaseExpression]
    ) -> tuple[tuple[str, c.Expr], ...]:
        """`cooperative=` and `preferred_smem_carveout=` as fields of `bbx::launch_options`."""
        out: list[tuple[str, c.Expr]] = []
        if "cooperative" in options:
            node = options["cooperative"]
            val = self.lw.lower(node)
            if not (val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, bool)):
                raise self.fc.error(
                    node,
                    "bad-launch",
                    "launch(cooperative=...) must be True or False when the kernel is compiled",
                    "pass a literal or a Constexpr bool",
                )
            if val.kind.value:
                out.append(("cooperative", c.Lit("true")))
        if "preferred_smem_carveout" in options:
            node = options["preferred_smem_carveout"]
            val = self.lw.lower(node)
            if not (val.kind.cat is Cat.LITERAL and val.kind.value is None):
                out.append(("smem_carveout", self.lw.value(node)))
        return tuple(out)

    def _allocated_smem(
        self, kernel: DslFunction, params: Sequence[ParamSig],
        bound: dict[str, cst.BaseExpression],
    ) -> c.Expr | None:
        """The bytes the kernel's SmemAllocator takes, as the DSL counts them: its allocating
        statements (bbx.lowering.smem_sizing) replayed here, in a lambda, with the kernel's
        parameters standing for the launch's arguments and the allocator counting; None when
        they cannot be replayed."""
        plan = allocation_slice(self.mod, kernel)
        if plan is None:
            return None
        fc = self.fc
        reads = set().union(*(smem_sizing_reads(node) for node in plan.statements))
        saved = (list(fc.meta), list(fc.preamble), set(fc.env.used_cxx))
        fc.env.push(INLINED)
        try:
            line, _ = self.mod.position(kernel.node)
            for sp in params:
                arg = bound.get(sp.name)
                if sp.name not in reads or (arg is None and sp.default is None):
                    continue
                val = self.lw.lower(arg if arg is not None else cst.parse_expression(
                    sp.default or "None"))
                fc.env.define(Var(sp.name, cxx_name(sp.name), val.kind, line, value=val))
            body: list[c.Stmt] = []
            for node in plan.statements:
                body += self.statement(node)
            sizes: list[c.Expr] = []
            for name in plan.allocators:
                var = fc.env.lookup(name)
                if var is not None:
                    sizes.append(c.Call(c.Member(c.Id(var.cxx), "size"), ()))
        except (TranslationError, DeferredBranch):
            fc.meta[:], fc.preamble[:] = saved[0], saved[1]
            fc.env.used_cxx = saved[2]
            return None
        finally:
            fc.env.pop()
            for node in plan.statements:
                for name in smem_sizing_defines(node):
                    fc.env.hidden.pop(name, None)
        if not sizes:
            return None
        total = sizes[0]
        for size in sizes[1:]:
            total = c.Call(c.Id("bbx::max"), (total, size))
        counted = tuple(sizing_allocators(stmt) for stmt in body)
        return c.Call(c.Lambda((), (*counted, c.Return(total)), "&"), ())

    def _sequence_argument(self, arg: cst.BaseExpression) -> list[Val] | None:
        """The elements of a Python sequence of C++ values passed to a kernel (a list of
        tensors), else None (a Python-level tuple of ints is a value like any other)."""
        if isinstance(arg, cst.Lambda):
            return None
        val = self.lw.lower(arg)
        if val.items is None or val.fields is not None or python_level(val):
            return None
        if any(v.items is not None for v in val.items):
            raise self.fc.error(
                arg, "unsupported-value", "a nested Python sequence passed to a kernel",
                "pass a flat list or tuple of tensors or values",
            )
        return list(val.items)

    def _extents(self, node: cst.BaseExpression) -> list[tuple[Val, cst.BaseExpression]]:
        extents = self._launch_extents(node, whole_ok=False)
        assert isinstance(extents, list)
        return extents

    def _launch_extents(
        self, node: cst.BaseExpression, whole_ok: bool
    ) -> list[tuple[Val, cst.BaseExpression]] | c.Expr:
        """The 1 to 3 extents of `grid=` / `block=`: a list or tuple written there, or a value
        holding one (`block = (32, 4, 1)` ... `launch(block=block)`). With `whole_ok`, a C++
        tuple whose length only C++ knows (`*t` spliced into it) is returned whole."""
        expr = self.lw.substitute(node)
        starred = isinstance(expr, (cst.List, cst.Tuple)) and any(
            isinstance(e, cst.StarredElement) for e in expr.elements
        )
        if isinstance(expr, (cst.List, cst.Tuple)) and not starred:
            items = [(self.lw.lower(e.value), e.value) for e in expr.elements]
        else:
            val = self.lw.lower(node)
            if whole_ok and val.items is None and (
                (val.kind.cat is Cat.TUPLE and not val.kind.elems) or val.kind.cat is Cat.VALUE
            ):  # a tuple only C++ knows (`grid=cute.product_each(shape)`)
                return self.lw.materialize(val, False, node)
            if val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, tuple):
                items = [(Val(k.literal(v), node=node), node) for v in val.kind.value]
            elif val.kind.cat is Cat.TUPLE and val.kind.elems:
                whole = self.lw.materialize(val, False, node)
                items = [
                    (Val(kind, c.Call(c.Id("get"), (whole,), (c.Lit(str(i)),)), node=node), node)
                    for i, kind in enumerate(val.kind.elems)
                ]
            else:
                items = []
        if not 1 <= len(items) <= 3:
            raise self.fc.error(
                node,
                "bad-launch",
                "grid/block must be a list or tuple of 1 to 3 values",
                "e.g. grid=[m, 1, 1]",
            )
        for index, (val, where) in enumerate(items):
            self._check_extent(val, where, node, index)
        return items

    def _check_extent(self, val: Val, where: cst.BaseExpression, launch_arg: cst.BaseExpression,
                      index: int) -> None:
        """A grid/block extent is an integer: a numeric type or a Python value of another
        kind there (`grid=(n, cutlass.Float32, 1)`) is an error at its element."""
        kind = val.kind
        if kind.cat is Cat.TYPE or (kind.cat is Cat.META and kind.meta_kind == m.TYPE):
            what = "a numeric type"
        elif kind.cat is Cat.LITERAL and not isinstance(kind.value, int):
            what = f"a Python {type(kind.value).__name__} ({kind.value!r})"
        else:
            return
        mod = self.fc.mod
        if where is not launch_arg and mod.positions.get(mod.stands_for.get(where, where)):
            at, said = where, f"`{self.lw.code(where)}`, extent {index} of a launch's grid/block,"
        else:  # a value holding the extents (`grid = (n, cutlass.Float32, 1)`)
            at, said = launch_arg, f"extent {index} of `{self.lw.code(launch_arg)}`"
        raise self.fc.error(
            at, "bad-launch", f"{said} is {what}, not an integer",
            "grid and block extents are integers: the number of blocks or threads along x, y "
            "and z")

    def _dim3(self, node: cst.BaseExpression) -> c.Expr:
        # Qualified: under nvcc, CUDA's global ::dim3 and bbx::dim3 (via `using namespace bbx`)
        # would make a plain `dim3` ambiguous.
        extents = self._launch_extents(node, whole_ok=True)
        if not isinstance(extents, list):
            return c.Call(c.Id("bbx::dim3_of"), (extents,))
        values = (self.lw.materialize(v, False, n) for v, n in extents)
        return c.Call(c.Id("bbx::dim3"), tuple(values))

    def _block_threads(self, node: cst.BaseExpression) -> c.CxxType:
        """`bbx::block_threads_t<X, Y, Z>` of the block extents: literal ints are static."""
        types: list[c.CxxType | c.Expr] = []
        for v, n in self._extents(node):
            if v.kind.cat is Cat.LITERAL and isinstance(v.kind.value, int):
                types.append(static_int_type(v.kind.value))
            else:
                types.append(c.Decltype(self.lw.materialize(v, True, n), decay=True))
        return c.Type("bbx::block_threads_t", tuple(types))

    def _arg_type(self, arg: cst.BaseExpression, x: c.Expr) -> c.CxxType:
        if isinstance(arg, cst.Name):
            var = self.fc.env.lookup(arg.value)
            if var is not None and var.template_type is not None:
                return c.Type(var.template_type)
            if var is not None and var.kind.cat is Cat.TYPE:  # passed as type_c<T>{}
                return c.Type("type_c", (c.Type(var.cxx),))
            if var is not None and var.alias is None and var.value is None:
                return c.Decltype(c.Id(var.cxx))
        return c.Decltype(x, decay=True)


def _python_leaf(val: Val) -> bool:
    """Whether a tuple, list or record holds a Python-level value somewhere."""
    return any(python_level(item) or (item.items is not None and _python_leaf(item))
               for item in val.items or ())


def _holds_record(val: Val) -> bool:
    """Whether a tuple, list or record is or holds a record (whose fields callers read by
    name: `system[i].position.x`)."""
    return val.fields is not None or any(_holds_record(item) for item in val.items or ())


def _reads_whole(val: Val) -> bool:
    """Whether elements of `val` are read from the C++ value `val.expr` (`element_view`)."""
    def reads(item: Val) -> bool:
        return c.contains(item.expr, val.expr) or any(reads(v) for v in item.items or ())
    return val.expr is not None and any(reads(item) for item in val.items or ())


def _literal_ctype(v: object) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, float):
        return "float"
    return "int"


def _binary_of(op: cst.BaseAugOp) -> cst.BaseBinaryOp:
    table = {
        cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
        cst.DivideAssign: cst.Divide, cst.FloorDivideAssign: cst.FloorDivide,
        cst.ModuloAssign: cst.Modulo, cst.LeftShiftAssign: cst.LeftShift,
        cst.RightShiftAssign: cst.RightShift, cst.BitAndAssign: cst.BitAnd,
        cst.BitOrAssign: cst.BitOr, cst.BitXorAssign: cst.BitXor,
    }  # fmt: skip
    return table[type(op)]()  # type: ignore[abstract]  # the concrete operator classes


def _is_docstring(stmt: cst.CSTNode) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


__all__ = ["StmtLowerer", "Kind"]


def kernel_uses_smem_allocator(mod: ModuleContext, kernel: DslFunction) -> bool:
    """Whether `kernel`, or a function it calls, makes a `cutlass.utils.SmemAllocator`."""
    from ..frontend.callgraph import reachable

    return any(
        isinstance(node, cst.Call)
        and mod.names.resolve(node.func) == "cutlass.utils.SmemAllocator"
        for fn in reachable(kernel, mod.callees)
        for node in walk(fn.node.body)
    )


def _returning_static_if(lowered: list[c.Stmt]) -> c.If | None:
    """The `if constexpr` without `else` that `lowered` ends with, when its branch returns."""
    last = lowered[-1] if lowered else None
    if isinstance(last, c.If) and last.constexpr and not last.other and _returns(last.then):
        return last
    return None


def _returns(body: Sequence[c.Stmt]) -> bool:
    """Whether every path through `body` ends in a `return`."""
    last = next((s for s in reversed(body) if not isinstance(s, c.Comment)), None)
    if isinstance(last, c.Return):
        return True
    if isinstance(last, c.If):
        return _returns(last.then) and _returns(last.other)
    if isinstance(last, c.Block):
        return _returns(last.body)
    return False


def _has_jump(s: cst.If) -> bool:
    """A `return`, `break` or `continue` in the branches (a lambda could not carry it out)."""
    return any(
        isinstance(node, (cst.Return, cst.Break, cst.Continue))
        for node in walk(s, into_lambdas=False)
    )


def _branch_value_kind(kind: Kind) -> Kind:
    """The kind of a value a `const_expr` branch exports: what C++ holds after the branch,
    whichever arm ran. Configuration values inside it (`(self.tile[1], self.tile[0])`) were
    materialized as static numbers: they no longer stand for one Meta member."""
    if kind.cat is Cat.META and kind.meta_kind in (m.STATIC_INT, m.VALUE):
        return k.STATIC
    if kind.cat is Cat.TUPLE and kind.elems:
        return Kind(Cat.TUPLE, elems=tuple(_branch_value_kind(e) for e in kind.elems))
    return kind
