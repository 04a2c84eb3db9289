"""Which backend a target name means, and which target this process builds for.

`BBX_TARGET` overrides; otherwise a ROCm torch with a GPU builds for that GPU's `gcnArchName`
(e.g. gfx942), a CUDA torch with a GPU builds for `cuda`, and anything else runs on the CPU
reference simulator (`cpu`). The answer is resolved once per process (torch is asked once) and
held, with the backends registered and each compiler's identity for cache keys, by one
`Session`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from .. import settings
from .amd.archs import ARCHS
from .amd.backend import AmdBackend
from .backend import Backend
from .cuda import CudaBackend
from .simulator import SimulatorBackend


class TargetError(ValueError):
    pass


def builtin_backends() -> list[Backend]:
    return [*(AmdBackend(arch) for arch in ARCHS.values()), CudaBackend(), SimulatorBackend()]


def _cleaned(name: str) -> str:
    return name.strip().lower().split(":")[0]  # "gfx942:sramecc+:xnack-" -> "gfx942"


class Session:
    """The targets of this process: the registered backends and the default one."""

    def __init__(self, backends: Iterable[Backend]) -> None:
        self._backends = {b.name: b for b in backends}
        self._from_torch: Backend | None = None
        self._identities: dict[Backend, str] = {}
        self._lock = threading.Lock()

    def names(self) -> tuple[str, ...]:
        return tuple(self._backends)

    def register(self, backend: Backend) -> None:
        """Make `backend` a target by its name (BBX_TARGET, --target), replacing one of that
        name."""
        self._backends[backend.name] = backend

    def unregister(self, name: str) -> None:
        self._backends.pop(name, None)

    def parse(self, name: str) -> Backend:
        found = self._backends.get(_cleaned(name))
        if found is None:
            raise TargetError(
                f"bbx: unknown target {name!r}; expected one of {', '.join(self._backends)}")
        return found

    def default(self) -> Backend:
        """`BBX_TARGET`, else what torch has (asked once per process; a call of a jit function
        asks every time)."""
        override = settings.given("BBX_TARGET")
        if override:
            return self.parse(override)
        with self._lock:
            if self._from_torch is None:
                self._from_torch = self._ask_torch()
            return self._from_torch

    def compiler_identity(self, backend: Backend) -> str:
        """`backend.compiler_identity()`, asked once per process (cache keys of every build)."""
        with self._lock:
            found = self._identities.get(backend)
            if found is None:
                found = self._identities[backend] = backend.compiler_identity()
            return found

    def _ask_torch(self) -> Backend:
        try:
            import torch
        except ImportError:
            return self.parse("cpu")
        if not torch.cuda.is_available():
            return self.parse("cpu")
        if getattr(torch.version, "hip", None):
            return self.parse(torch.cuda.get_device_properties(0).gcnArchName)
        return self.parse("cuda")


SESSION = Session(builtin_backends())


def parse_target(name: str) -> Backend:
    return SESSION.parse(name)


def default_target() -> Backend:
    return SESSION.default()


def compiler_identity(backend: Backend) -> str:
    return SESSION.compiler_identity(backend)


def target_names() -> tuple[str, ...]:
    return SESSION.names()


def register(backend: Backend) -> None:
    SESSION.register(backend)


def unregister(name: str) -> None:
    SESSION.unregister(name)
