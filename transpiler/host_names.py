"""What a DSL name that the `cutlass` shim serves only as a marker is, for the error when host
Python calls it: a device-side name (use it in jit code), an NVIDIA-only feature, a real name of
the DSL that bbx does not support yet, or no name of the DSL at all (a spelling mistake).

The classification is the registry's (`bbx.dsl.registry`), over the table of names introspected
from NVIDIA's package; it is loaded only when such an error is raised.
"""

from __future__ import annotations

from .public_names import DSL_VERSION


def qualified_name(marker_name: str) -> str:
    """`cutlass.cute.arch.thread_idx` for a marker named `cute.arch.thread_idx`."""
    return "cutlass." + marker_name if marker_name.startswith("cute.") else marker_name


def host_call_diagnostic(marker_name: str) -> tuple[str, str, str]:
    """(what, why, code) for host Python calling the DSL name `marker_name`."""
    from .dsl import REGISTRY  # noqa: PLC0415 - the translator, only on this error path
    from .dsl.entry import NvidiaOnly, Status

    name = qualified_name(marker_name)
    entry = REGISTRY.lookup(name)
    if entry is None:
        return (f"'{name}' is not a name of CuTe DSL ({DSL_VERSION})",
                "check the spelling; `python -m bbx.dsl.coverage` lists the names bbx knows",
                "unknown-dsl-name")
    if isinstance(entry, NvidiaOnly):
        return (f"'{name}' is NVIDIA-only: {entry.what} has no AMD counterpart",
                "keep this path behind a condition that is false on AMD", "nvidia-only-host")
    if entry.status is Status.SUPPORTED:
        return (f"'{marker_name}' was called from host Python",
                "it is part of the CuTe DSL that bbx transpiles; use it inside a @cute.jit or "
                "@cute.kernel function", "device-only-on-host")
    return (f"'{name}' is not supported yet by bbx",
            "it is a name of CuTe DSL that bbx does not provide yet; "
            "`python -m bbx.dsl.coverage --list 'not yet'` lists them", "not-yet-supported")
