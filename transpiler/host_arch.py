"""The GPU architecture that host code of a CuTe-DSL script is told about.

Kernels choose their code path from the architecture on the host (``if arch >= Arch.sm_90:
use TMA``). bbx answers **sm_80** (compute capability (8, 0), ``Arch.sm_80``) on every target
except CUDA, so that kernels take their portable (Ampere) paths on AMD and on the simulator:

* the DSL's arch queries served by the `cutlass` shim (``cutlass.cuda.get_compute_capability_
  major_minor``, ``BaseDSL._get_dsl().get_arch_enum()``) use `compute_capability` /
  `dsl_arch_name`;
* the compute capability that modules loaded by bbx read through torch: on AMD a ROCm torch
  reports the GPU's own numbers ((9, 4) on MI300X, (9, 5) on MI355X), which kernels would take
  for Hopper; `install_for_dsl_callers` makes ``torch.cuda.get_device_capability()`` and the
  ``major``/``minor`` of ``torch.cuda.get_device_properties()`` answer (8, 0) when the *direct
  caller* is a DSL module (a module the import hook reported, or the script ``bbx run`` runs)
  or the shim; every other caller (torch itself, other libraries) gets the real answer. On the
  simulator the CUDA stand-in answers (8, 0) to everyone (there is no real device).

On the CUDA target the real device answers (``CUTE_DSL_ARCH`` overrides the DSL's arch name).

Shared memory per block (``cutlass.utils.get_smem_capacity_in_bytes``) is the exception to
"pretend sm_80": kernels size their shared memory by it, so it is what the target's backend
says it has — the AMD GPU's LDS, the simulator's (``BBX_SIM_ARCH``) — whatever architecture is
asked for; on CUDA the DSL's figure for the architecture.

Which targets answer sm_80 is their backend's fact (`Backend.reports_portable_arch`).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import dsl_files
from .targets.backend import PORTABLE_ARCH, PORTABLE_CAPABILITY, Backend
from .targets.registry import default_target

# The DSL names the architecture of a device by its capability; these have an arch-specific
# ("a") variant that the DSL compiles for.
_ARCH_SPECIFIC = {(9, 0), (10, 0), (10, 1), (10, 3), (10, 7), (11, 0), (12, 0), (12, 1)}


def reports_portable(target: Backend | None = None) -> bool:
    """Whether host code is told sm_80 for `target` (every target but CUDA)."""
    return (target or default_target()).reports_portable_arch


def compute_capability(target: Backend | None = None) -> tuple[int, int]:
    """(major, minor) as the DSL's host queries should report it for `target`."""
    if reports_portable(target):
        return PORTABLE_CAPABILITY
    import torch

    major, minor = _real_capability(torch)()
    return int(major), int(minor)


def dsl_arch_name(target: Backend | None = None) -> str:
    """The DSL's architecture name (``sm_80``, ``sm_90a``, ...) for `target`."""
    if reports_portable(target):
        return PORTABLE_ARCH
    override = os.environ.get("CUTE_DSL_ARCH", "").strip()
    if override:
        return override
    major, minor = compute_capability(target)
    suffix = "a" if (major, minor) in _ARCH_SPECIFIC else ""
    return f"sm_{major}{minor}{suffix}"


def shared_memory_capacity(requested: str | None = None, target: Backend | None = None) -> int:
    """Bytes of shared memory one block may use (see the module docstring)."""
    target = target or default_target()
    return target.shared_memory_capacity(requested or dsl_arch_name(target))


# ---------------------------------------------------------------------------------------------
# torch's answer for DSL callers (AMD targets)

_shim_dir = str(Path(__file__).resolve().parent / "shim") + os.sep
_lock = threading.Lock()
_saved: dict[str, Any] = {}


def _real_capability(torch: Any) -> Callable[..., Any]:
    return _saved.get("get_device_capability", torch.cuda.get_device_capability)


def is_dsl_caller(filename: str) -> bool:
    """Whether code in `filename` is told the portable architecture: a DSL module or the shim."""
    return filename.startswith(_shim_dir) or dsl_files.is_dsl_file(filename)


class _PortableProperties:
    """torch's device properties with the portable compute capability."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self.major, self.minor = PORTABLE_CAPABILITY

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def __repr__(self) -> str:
        return f"{self._real!r} (bbx: reported to DSL code as sm_80, capability 8.0)"


def _caller_file() -> str:
    return sys._getframe(2).f_code.co_filename


def install_for_dsl_callers() -> bool:
    """Wrap torch's capability queries so that DSL callers get (8, 0); idempotent. Returns
    whether the wrappers are installed (False when torch has no GPU to answer for)."""
    import torch

    with _lock:
        if _saved:
            return True
        if not torch.cuda.is_available():
            return False
        real_capability = torch.cuda.get_device_capability
        real_properties = torch.cuda.get_device_properties

        def get_device_capability(device: Any = None) -> tuple[int, int]:
            if is_dsl_caller(_caller_file()):
                return PORTABLE_CAPABILITY
            return tuple(real_capability(device))  # type: ignore[return-value]

        def get_device_properties(device: Any = None) -> Any:
            props = real_properties(device)
            return _PortableProperties(props) if is_dsl_caller(_caller_file()) else props

        _saved.update(get_device_capability=real_capability,
                      get_device_properties=real_properties)
        torch.cuda.get_device_capability = get_device_capability
        torch.cuda.get_device_properties = get_device_properties
        return True


def uninstall_for_dsl_callers() -> None:
    import torch

    with _lock:
        for name, original in _saved.items():
            setattr(torch.cuda, name, original)
        _saved.clear()


def ensure_for_target(target: Backend | None = None) -> None:
    """Install the DSL-caller answer where it applies: a real GPU whose target is not CUDA (AMD,
    or the simulator chosen on a GPU machine without the CUDA stand-in)."""
    from . import cuda_standin

    if reports_portable(target) and not cuda_standin.active():
        install_for_dsl_callers()
