"""Names visible while a function is lowered: their kinds, C++ names and where they were defined.

Python lets a name defined inside an `if`/`for` be used after it; C++ does not, and CuTe DSL
forbids it for dynamic control flow. Names leaving a block are remembered so that a later use
gets a precise diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .kinds import Kind
from .value import Val

# Region kinds.
FUNCTION = "function"
DYNAMIC_IF = "dynamic `if`"
DYNAMIC_LOOP = "dynamic loop"
STATIC_IF = "`const_expr` branch"
STATIC_LOOP = "`range_constexpr` loop"

INLINED = "inlined call"  # the body of a nested function or lambda, at one of its calls

DYNAMIC_REGIONS = (DYNAMIC_IF, DYNAMIC_LOOP)


@dataclass
class Var:
    name: str  # Python name
    cxx: str  # C++ name
    kind: Kind
    line: int
    #: a pure-Python value that has no C++ declaration; uses are replaced by this expression.
    alias: cst.BaseExpression | None = None
    #: the C++ type of a template-typed parameter (used for kernel template arguments).
    template_type: str | None = None
    #: a value computed at translation time that uses of the name stand for (a comprehension
    #: or unrolled-loop variable, an element of a Python sequence).
    value: Val | None = None
    #: a parameter of the function (its None-ness is decided per specialization).
    param: bool = False
    depth: int = 0  # index of the scope it was defined in
    #: defined by only some arms of a `const_expr` branch (the others bind
    #: `python_only_value`): an assignment makes a new C++ variable.
    partial: bool = False


@dataclass
class Scope:
    region: str
    names: dict[str, Var] = field(default_factory=dict)


@dataclass(frozen=True)
class Hidden:
    line: int
    region: str


class Env:
    def __init__(self) -> None:
        self.scopes: list[Scope] = [Scope(FUNCTION)]
        self.hidden: dict[str, Hidden] = {}
        self._versions: dict[str, int] = {}
        self._fresh = 0
        self.used_cxx: set[str] = set()

    # -- scopes ---------------------------------------------------------------------------
    def push(self, region: str) -> None:
        self.scopes.append(Scope(region))

    def pop(self) -> None:
        scope = self.scopes.pop()
        for name, var in scope.names.items():
            self.hidden.setdefault(name, Hidden(var.line, scope.region))

    @property
    def region(self) -> str:
        return self.scopes[-1].region

    def _own_scopes(self) -> list[Scope]:
        """The scopes of the function being lowered: an inlined call's body starts afresh (a
        `return` there returns from it, whatever control flow surrounds the call)."""
        for i in range(len(self.scopes) - 1, -1, -1):
            if self.scopes[i].region == INLINED:
                return self.scopes[i:]
        return self.scopes

    def inlining(self) -> bool:
        """Inside the body of a nested function inlined at a call."""
        return any(s.region == INLINED for s in self.scopes)

    def local_to_call(self, var: Var) -> bool:
        """Whether `var` may be assigned here as Python would: not from inside an inlined
        call's body when it belongs to the enclosing function (an assignment there makes a
        local of the call, as in a nested Python function)."""
        for i in range(len(self.scopes) - 1, -1, -1):
            if self.scopes[i].region == INLINED:
                return var.depth >= i
        return True

    def in_dynamic(self) -> bool:
        return any(s.region in DYNAMIC_REGIONS for s in self._own_scopes())

    def in_static_branch(self) -> bool:
        """Inside a `const_expr` branch decided per specialization (not at translation)."""
        return any(s.region == STATIC_IF for s in self.scopes)

    def dynamic_depth(self) -> int:
        return sum(1 for s in self._own_scopes() if s.region in DYNAMIC_REGIONS)

    def closure_depth(self) -> int:
        """Index of the innermost scope that is a C++ closure or dynamic region boundary."""
        for i in range(len(self.scopes) - 1, -1, -1):
            if self.scopes[i].region in (*DYNAMIC_REGIONS, STATIC_LOOP, INLINED):
                return i
        return 0

    # -- names ----------------------------------------------------------------------------
    def lookup(self, name: str) -> Var | None:
        for scope in reversed(self.scopes):
            if name in scope.names:
                return scope.names[name]
        return None

    def define(self, var: Var) -> Var:
        var.depth = len(self.scopes) - 1
        self.scopes[-1].names[var.name] = var
        self.hidden.pop(var.name, None)
        self.used_cxx.add(var.cxx)
        return var

    def rebind(self, var: Var) -> None:
        """Replace a variable's entry in the scope it lives in (a versioned redeclaration)."""
        self.scopes[var.depth].names[var.name] = var
        self.used_cxx.add(var.cxx)

    def version_name(self, name: str) -> str:
        n = self._versions.get(name, 0) + 1
        while f"{name}_{n}" in self.used_cxx:
            n += 1
        self._versions[name] = n
        return f"{name}_{n}"

    def reserve_name(self, name: str) -> str:
        """A new version of `name` (`name_1`, ...), taken: no later name is given it."""
        versioned = self.version_name(name)
        self.used_cxx.add(versioned)
        return versioned

    def fresh_unused(self) -> str:
        """A name for a Python `_` target (`_0`, `_1` are CuTe's static integers)."""
        name = f"_u{self._fresh}"
        self._fresh += 1
        return name
