"""The corpus job of staged execution (`bbx corpus --staged`): import a file as a module under
the hook, as `bbx run` would but without running its driver, and rewrite the control flow of
every `@cute.jit`/`@cute.kernel` function it defines (module functions and class members) as
tracing would. What tracing itself reaches depends on a driver's arguments; the upstream scripts
that bbx runs are that half (tests/shim/test_upstream_scripts.py, `STAGED_PASSING`).

Outcomes (the statuses of `outcome`):
  clean     imported, and every jit function rewritten
  refused   a located bbx diagnostic (the module uses a name bbx refuses at import, or the
            preprocessor refuses a construct), or a module the file imports is not there
            (`missing-module`: a package the hook does not serve, such as `cuda.core`)
  crashed   any other exception: what a user would see as a traceback
"""

from __future__ import annotations

import re
import runpy
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from .outcome import CLEAN, CRASHED, REFUSED, describe_exception

#: the module name the file is imported as (not `__main__`: its driver must not run)
MODULE_NAME = "__bbx_corpus__"
_CODE = re.compile(r"\[([a-z0-9-]+)\]\s*$", re.M)
_LOCATION = re.compile(r"^[^\n:]+:(\d+):(\d+): error: (.*)$", re.M)


def prepare() -> None:
    """Once per worker: what every job imports (torch through the shim)."""
    from bbx import hook  # noqa: F401 - imported before the fork, shared by the jobs

    try:
        import torch  # noqa: F401
    except ImportError:
        pass


def import_file(path: Path, root: Path) -> dict[str, Any]:
    """Imports `path` (a file under the corpus `root`) by staged execution's rules and rewrites
    its jit functions; the outcome dict of `outcome`."""
    from bbx import hook, settings

    settings.set_for_process("BBX_STAGED", "1")

    hook.install()
    hook.activate_standin()
    # the file's own directory and the corpus root, as the examples are run from there
    sys.path[:0] = [str(path.parent), str(root)]
    try:
        source = path.read_text(encoding="utf-8", errors="replace")
        if hook.is_dsl_source(source):
            hook.prepare_dsl_execution(str(path))
            hook.notify_dsl_module(MODULE_NAME, str(path), source)
        namespace = runpy.run_path(str(path), run_name=MODULE_NAME)
        functions = list(_jit_functions(namespace))
        for function in functions:
            _rewrite(function)
    except BaseException as err:  # noqa: BLE001 - what escapes is the finding
        return _failure(err)
    return {"status": CLEAN, "diagnostics": [], "digest": "", "error": "", "where": "",
            "functions": len(functions)}


def _jit_functions(namespace: dict[str, Any]) -> Iterator[Any]:
    """The jit and kernel functions the module defines, at module level and in its classes."""
    from bbx.runtime import jit

    seen: set[int] = set()
    decorated = (jit.JitFunction, jit.KernelFunction)

    def walk(values: list[Any]) -> Iterator[Any]:
        for value in values:
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if isinstance(value, decorated):
                yield value
            elif isinstance(value, type) and value.__module__ == MODULE_NAME:
                yield from walk(list(vars(value).values()))

    yield from walk([v for v in namespace.values() if not isinstance(v, ModuleType)])


def _rewrite(function: Any) -> None:
    from bbx.preprocess.loader import raw_function
    from bbx.trace.traced_call import rewritten

    rewritten(raw_function(function.__wrapped__))


def _failure(err: BaseException) -> dict[str, Any]:
    if isinstance(err, ModuleNotFoundError) and not _is_ours(err.name or ""):
        return _refused("missing-module", f"no module named {err.name!r}", 0, 0)
    module = type(err).__module__ or ""
    if module == "bbx" or module.startswith("bbx."):  # a located diagnostic
        text = str(err)
        code = _CODE.search(text)
        located = _LOCATION.search(text)
        if code is not None and located is not None:
            return _refused(code.group(1), located.group(3), int(located.group(1)),
                            int(located.group(2)))
    outcome = describe_exception(err)
    outcome["status"] = CRASHED
    return outcome


def _is_ours(module: str) -> bool:
    """A module the hook serves (a missing one is bbx's gap, not the environment's)."""
    return module.split(".")[0] in ("bbx", "cutlass")


def _refused(code: str, what: str, line: int, col: int) -> dict[str, Any]:
    return {"status": REFUSED, "digest": "", "error": "", "where": "",
            "diagnostics": [{"code": code, "severity": "error", "line": line, "col": col,
                             "what": what}]}
