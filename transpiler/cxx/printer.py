"""Prints the C++ syntax tree of `bbx.cxx_ast` with one consistent style (2-space indent)."""

from __future__ import annotations

from . import ast as c

INDENT = "  "

# C++ operator precedence: higher binds tighter.
_BINARY_PRECEDENCE = {
    "*": 13, "/": 13, "%": 13,
    "+": 12, "-": 12,
    "<<": 11, ">>": 11,
    "<": 9, "<=": 9, ">": 9, ">=": 9,
    "==": 8, "!=": 8,
    "&": 7, "^": 6, "|": 5,
    "&&": 4, "||": 3,
}  # fmt: skip
_UNARY_PRECEDENCE = 14
_TERNARY_PRECEDENCE = 2
_ATOM = 16


def type_text(t: c.CxxType) -> str:
    if isinstance(t, c.Decltype):
        inner = f"decltype({expr_text(t.expr)})"
        return f"std::decay_t<{inner}>" if t.decay else inner
    text = ("typename " if t.typename else "") + t.name
    if t.args:
        text += "<" + ", ".join(_template_arg(a) for a in t.args) + ">"
    return text


def _template_arg(a: c.CxxType | c.Expr) -> str:
    if isinstance(a, (c.Type, c.Decltype)):
        return type_text(a)
    return expr_text(a)


def _precedence(e: c.Expr) -> int:
    if isinstance(e, c.Binary):
        return _BINARY_PRECEDENCE[e.op]
    if isinstance(e, c.Unary):
        return _UNARY_PRECEDENCE
    if isinstance(e, c.Ternary):
        return _TERNARY_PRECEDENCE
    if isinstance(e, c.Annotated):
        return _precedence(e.expr)
    return _ATOM


def _wrap(e: c.Expr, minimum: int) -> str:
    text = expr_text(e)
    return f"({text})" if _precedence(e) < minimum else text


def expr_text(e: c.Expr) -> str:
    if isinstance(e, c.Id):
        return e.name
    if isinstance(e, c.Lit):
        return e.text
    if isinstance(e, c.TemplateId):
        return f"{e.name}<{', '.join(_template_arg(a) for a in e.args)}>"
    if isinstance(e, c.ValueOf):
        return f"{type_text(e.type)}::value"
    if isinstance(e, c.TypeValue):
        return type_text(e.type)
    if isinstance(e, c.Construct):
        args = ", ".join(expr_text(a) for a in e.args)
        return f"{type_text(e.type)}{{{args}}}" if e.brace else f"{type_text(e.type)}({args})"
    if isinstance(e, c.Call):
        func = _wrap(e.func, _ATOM)
        if e.template_args:
            func += "<" + ", ".join(_template_arg(a) for a in e.template_args) + ">"
        return f"{func}({', '.join(expr_text(a) for a in e.args)})"
    if isinstance(e, c.Member):
        return f"{_wrap(e.obj, _ATOM)}{'->' if e.arrow else '.'}{e.name}"
    if isinstance(e, c.Index):
        return f"{_wrap(e.base, _ATOM)}[{expr_text(e.index)}]"
    if isinstance(e, c.Binary):
        p = _BINARY_PRECEDENCE[e.op]
        return f"{_wrap(e.left, p)} {e.op} {_wrap(e.right, p + 1)}"
    if isinstance(e, c.Unary):
        return f"{e.op}{_wrap(e.operand, _UNARY_PRECEDENCE)}"
    if isinstance(e, c.Ternary):
        p = _TERNARY_PRECEDENCE
        return f"{_wrap(e.cond, p + 1)} ? {_wrap(e.then, p + 1)} : {_wrap(e.other, p)}"
    if isinstance(e, c.Annotated):
        return f"/*{e.note}*/{expr_text(e.expr)}"
    if isinstance(e, c.StaticChoice):
        return (
            f"[&]() BBX_INLINE -> decltype(auto) {{ if constexpr ({expr_text(e.cond)}) {{ return "
            f"{expr_text(e.then)}; }} else {{ return {expr_text(e.other)}; }} }}()"
        )
    if isinstance(e, c.Lambda):
        params = ", ".join(f"auto {p}" for p in e.params)
        if len(e.body) == 1 and isinstance(e.body[0], c.Return):
            return f"[{e.capture}]({params}) BBX_INLINE {{ {stmt_lines(e.body[0], 0)[0]} }}"
        inner = "\n".join(line for s in e.body for line in stmt_lines(s, 1))
        return f"[{e.capture}]({params}) BBX_INLINE {{\n{inner}\n}}"
    raise TypeError(f"not an expression node: {e!r}")


def _block(stmts: tuple[c.Stmt, ...] | list[c.Stmt], depth: int) -> list[str]:
    return [line for s in stmts for line in stmt_lines(s, depth)]


def stmt_lines(s: c.Stmt, depth: int) -> list[str]:
    """The lines of a statement at `depth`; an expression spanning lines (a lambda's body) has
    its continuation lines indented with the statement."""
    pad = INDENT * depth
    # (split here, so that the statements around it do not indent the continuation again)
    return [part for line in _stmt_lines(s, depth, pad)
            for part in line.replace("\n", "\n" + pad).split("\n")]


def _stmt_lines(s: c.Stmt, depth: int, pad: str) -> list[str]:
    if isinstance(s, c.Comment):
        return [f"{pad}// {line}".rstrip() for line in s.lines]
    if isinstance(s, c.Decl):
        prefix = "[[maybe_unused]] " if s.maybe_unused else ""
        prefix += "constexpr " if s.constexpr else ""
        if s.init is None:
            assert s.type is not None and len(s.names) == 1, s
            return [f"{pad}{prefix}{type_text(s.type)} {s.names[0]};"]
        if len(s.names) > 1:
            return [f"{pad}{prefix}auto [{', '.join(s.names)}] = {expr_text(s.init)};"]
        t = "auto" if s.type is None else type_text(s.type)
        return [f"{pad}{prefix}{t} {s.names[0]} = {expr_text(s.init)};"]
    if isinstance(s, c.Using):
        return [f"{pad}using {s.name} = {type_text(s.type)};"]
    if isinstance(s, c.ExprStmt):
        if s.one_arg_per_line and isinstance(s.expr, c.Call) and len(s.expr.args) > 1:
            head = expr_text(c.Call(s.expr.func, (), s.expr.template_args))[:-1]  # `name(`
            cont = pad + " " * len(head)
            texts = [expr_text(a) for a in s.expr.args]
            return [f"{pad}{head}{texts[0]},", *(f"{cont}{a}," for a in texts[1:-1]),
                    f"{cont}{texts[-1]});"]
        return [f"{pad}{expr_text(s.expr)};"]
    if isinstance(s, c.Assign):
        return [f"{pad}{expr_text(s.target)} {s.op} {expr_text(s.value)};"]
    if isinstance(s, c.Break):
        return [f"{pad}break;"]
    if isinstance(s, c.Return):
        return [f"{pad}return;" if s.value is None else f"{pad}return {expr_text(s.value)};"]
    if isinstance(s, c.StaticAssert):
        return [f"{pad}static_assert({expr_text(s.cond)}, {_string_literal(s.message)});"]
    if isinstance(s, c.If):
        return _if_lines(s, depth)
    if isinstance(s, c.BranchValues):
        head = f"{pad}[[maybe_unused]] auto [{', '.join(s.names)}] = [&]() BBX_INLINE {{"
        return [head, *_if_lines(s.branch, depth + 1), f"{pad}}}();"]
    if isinstance(s, c.For):
        lines = [] if s.unroll is None else [f"{pad}#pragma unroll {s.unroll}".rstrip()]
        cmp = ">" if s.descending else "<"
        if s.step is None:
            step = f"--{s.var}" if s.descending else f"++{s.var}"
        else:
            step = f"{s.var} += {expr_text(s.step)}"
        var_type = "int" if s.var_type is None else type_text(s.var_type)
        cond = f"{s.var} {cmp} {_wrap(s.stop, 10)}" if s.cond is None else expr_text(s.cond)
        head = f"for ({var_type} {s.var} = {expr_text(s.start)}; {cond}; {step})"
        return [*lines, f"{pad}{head} {{", *_block(s.body, depth + 1), f"{pad}}}"]
    if isinstance(s, c.While):
        return [f"{pad}while ({expr_text(s.cond)}) {{", *_block(s.body, depth + 1), f"{pad}}}"]
    if isinstance(s, c.StaticFor):
        head = f"{pad}static_for<{_template_arg(s.count)}>([&](auto {s.var}) BBX_INLINE {{"
        return [head, *_block(s.body, depth + 1), f"{pad}}});"]
    if isinstance(s, c.Block):
        return [f"{pad}{{", *_block(s.body, depth + 1), f"{pad}}}"]
    if isinstance(s, c.Launch):
        cont = pad + " " * len("launch(")
        args = ", ".join(expr_text(a) for a in (s.smem, s.stream, *s.args))
        head = ""
        if s.options:
            fields = ", ".join(f".{name} = {expr_text(v)}" for name, v in s.options)
            head = f"bbx::launch_options{{{fields}}}, "
        return [
            f"{pad}launch({head}{expr_text(s.kernel)},",
            f"{cont}{expr_text(s.grid)}, {expr_text(s.block)},",
            f"{cont}{args});",
        ]
    raise TypeError(f"not a statement node: {s!r}")


def _if_lines(s: c.If, depth: int) -> list[str]:
    pad = INDENT * depth
    keyword = "if constexpr" if s.constexpr else "if"
    lines = [f"{pad}{keyword} ({expr_text(s.cond)}) {{", *_block(s.then, depth + 1)]
    other = s.other
    while len(other) == 1 and isinstance(other[0], c.If) and other[0].constexpr == s.constexpr:
        nested = other[0]
        lines += [f"{pad}}} else {keyword} ({expr_text(nested.cond)}) {{"]
        lines += _block(nested.then, depth + 1)
        other = nested.other
    if other:
        lines += [f"{pad}}} else {{", *_block(other, depth + 1)]
    lines.append(f"{pad}}}")
    return lines


def _string_literal(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def string_literal(text: str) -> str:
    """A C++ string literal for `text`."""
    return _string_literal(text)


def function_text(f: c.Function) -> str:
    lines = [f"// {line}".rstrip() for line in f.comments]
    if f.template_params:
        lines.append("template <" + ", ".join(f"class {p}" for p in f.template_params) + ">")
    params = ", ".join(f"{type_text(p.type)}{'&&' if p.forward else ''} {p.name}"
                       for p in f.params)
    head = " ".join(part for part in (f.space, f.return_type) if part)
    lines.append(f"{head} {f.name}({params}) {{")
    lines += _block(f.body, 1)
    lines.append("}")
    return "\n".join(lines)


def functor_text(
    name: str, params: list[str], body: c.Expr | tuple[c.Stmt, ...], comment: str,
    meta: bool = False,
) -> str:
    """A generic functor struct standing for a Python function written in host code and called
    in kernels: nvcc cannot pass a generic lambda from host code to a kernel, a struct it can.
    `body` is the returned expression or the statements; `meta`: a template on the Meta struct
    (the body reads compile-time configuration)."""
    targs = ", ".join(f"class A{i}" for i in range(len(params)))
    args = ", ".join(f"A{i} {p}" for i, p in enumerate(params))
    lines = [f"// {comment}".rstrip()]
    if meta:
        lines.append("template <class Meta>")
    lines.append(f"struct {name} {{")
    if params:
        lines.append(f"  template <{targs}>")
    head = f"  BBX_HOST_DEVICE auto operator()({args}) const {{"
    if isinstance(body, tuple):
        lines += [head, *_block(body, 2), "  }"]
    else:
        lines.append(f"{head} {stmt_lines(c.Return(body), 0)[0]} }}")
    lines.append("};")
    return "\n".join(lines)

