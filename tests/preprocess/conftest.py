"""The `cutlass` shim through the import hook (``BBX_FORCE_SHIM=1``) for tests that reach the
preprocessor where libraries do (`cutlass.base_dsl.ast_preprocessor`); removed afterwards."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest


def _purge() -> None:
    for name in [m for m in sys.modules if m.partition(".")[0] in ("cutlass", "cuda")]:
        del sys.modules[name]


@pytest.fixture
def shim_ast_preprocessor() -> Iterator[ModuleType]:
    """`cutlass.base_dsl.ast_preprocessor`, served by bbx's shim."""
    hook_was_installed = "bbx.hook" in sys.modules and sys.modules["bbx.hook"].installed()
    from bbx import hook

    saved = {k: v for k, v in sys.modules.items() if k.partition(".")[0] in ("cutlass", "cuda")}
    saved_env = os.environ.get("BBX_FORCE_SHIM")
    os.environ["BBX_FORCE_SHIM"] = "1"
    _purge()
    hook.install()
    try:
        import cutlass.base_dsl.ast_preprocessor as module

        yield module
    finally:
        _purge()
        sys.modules.update(saved)
        if not hook_was_installed:
            hook.uninstall()
        if saved_env is None:
            os.environ.pop("BBX_FORCE_SHIM", None)
        else:
            os.environ["BBX_FORCE_SHIM"] = saved_env
