"""The `cutlass` shim imported in this process through the import hook (``BBX_FORCE_SHIM=1``),
removed again after the session so that no other test sees it."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest

SHIMMED = ("cutlass", "cuda")


def _purge() -> None:
    for name in [m for m in sys.modules if m.partition(".")[0] in SHIMMED]:
        del sys.modules[name]


@pytest.fixture(scope="session")
def cutlass() -> Iterator[ModuleType]:
    """The shim's ``cutlass`` package (``cutlass.cute``, ``cutlass.torch``, ... imported)."""
    hook_was_installed = "bbx.hook" in sys.modules and sys.modules["bbx.hook"].installed()
    from bbx import hook  # importing it installs it
    from bbx.runtime import jit

    saved_env = os.environ.get("BBX_FORCE_SHIM")
    previous_dispatcher = jit.set_dispatcher(None)
    jit.set_dispatcher(previous_dispatcher)
    os.environ["BBX_FORCE_SHIM"] = "1"
    _purge()
    hook.install()
    try:
        import cutlass as shim
        import cutlass.cute.runtime  # noqa: F401
        import cutlass.cute.testing  # noqa: F401
        import cutlass.torch  # noqa: F401

        assert getattr(shim, "__bbx_shim__", False), shim.__file__
        yield shim
    finally:
        _purge()
        if not hook_was_installed:
            hook.uninstall()
        jit.set_dispatcher(previous_dispatcher)
        if saved_env is None:
            os.environ.pop("BBX_FORCE_SHIM", None)
        else:
            os.environ["BBX_FORCE_SHIM"] = saved_env


@pytest.fixture
def cpu_target(monkeypatch: pytest.MonkeyPatch) -> None:
    """Host helpers decide GPU vs simulator from the target: the simulator here."""
    monkeypatch.setenv("BBX_TARGET", "cpu")
