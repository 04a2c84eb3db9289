"""What translating a module gives: the generated text, its diagnostics, and per host, kernel
and device function what calling it needs (`FunctionInfo`), with the generated namespace of a
module (`module_namespace`). Plain data, produced by translate.py and read by the runtime and by
the lowering of calls into other modules (frontend/cross_module.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .analysis.meta import MetaMember
from .diagnostics import Diagnostic
from .lowering.lowered import ParamSig


@dataclass(frozen=True)
class FunctionInfo:
    python_name: str
    cxx_name: str
    class_name: str | None
    role: str  # "kernel", "device" or "host"
    line: int
    meta: tuple[MetaMember, ...]  # members this function uses itself
    all_meta: tuple[MetaMember, ...]  # including members used by the functions it calls
    params: tuple[ParamSig, ...]
    stream_param: str | None
    #: a kernel that (or whose callees) makes a SmemAllocator: launched without `smem=`, it
    #: gets the target's default dynamic shared memory.
    uses_smem_allocator: bool = False
    #: a host function taking Python sequences, not translated here: it is translated for the
    #: facts of each call (bbx.analysis.call_facts); `meta` and `all_meta` are empty.
    per_call: bool = False
    #: the Python parameters in order, without `self` and with the stream (how a call from
    #: DSL code binds its arguments: bbx.lowering.kernel_objects).
    python_params: tuple[str, ...] = ()


@dataclass
class TranslationResult:
    path: str
    source: str
    text: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    functions: list[FunctionInfo] = field(default_factory=list)
    sha256: str = ""
    #: other modules whose generated `.hip` this one includes (transitively), by path.
    dependencies: list[Path] = field(default_factory=list)
    #: host functions translated per call (they take Python sequences): (qualified name,
    #: the parameters taking sequences).
    per_call: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    #: host functions that cannot be translated (they, or what they call or launch, have
    #: errors), by qualified name -> those errors. The rest of the module is translated: as
    #: with the DSL, which traces a function when it is called, a program runs its other
    #: functions and gets these errors where it calls one of these.
    failed: dict[str, list[Diagnostic]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.text is not None and not any(d.severity == "error" for d in self.diagnostics)

    @property
    def usable(self) -> bool:
        """Whether the module's other functions can run: every error belongs to a function
        in `failed`."""
        failing = [d for errors in self.failed.values() for d in errors]
        return self.text is not None and all(
            d.severity != "error" or d in failing for d in self.diagnostics)

    def render_failure(self, name: str) -> str:
        lines = self.source.splitlines()
        return "\n".join(d.render(lines) for d in self.failed[name])

    def render_diagnostics(self) -> str:
        lines = self.source.splitlines()
        return "\n".join(d.render(lines) for d in self.diagnostics)

    def function(self, name: str) -> FunctionInfo:
        for f in self.functions:
            if name in (f.cxx_name, f.python_name):
                return f
        raise KeyError(name)


def module_namespace(file_name: str) -> str:
    """The C++ namespace of a module's generated code (`bbx_gen::<namespace>`): `py_` and its
    file stem as an identifier (`norms.py` -> `py_norms`, `2d.py` -> `py_2d`). The prefix keeps
    a module named like a function of the header library (`make_layout.py`, `local_tile.py`)
    from hiding that function in its own generated code, and every stem (`long`, `2d`) an
    identifier."""
    stem = Path(file_name).stem
    return "py_" + re.sub(r"[^0-9A-Za-z_]", "_", stem)
