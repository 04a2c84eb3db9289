"""Host API: the names a script uses outside jit/kernel code (compilation, tensors from
DLPack, benchmarking, torch helpers). They are served by the `cutlass` shim (`bbx/shim/`) and
never translated; inside DSL code they get a diagnostic that says so."""

from __future__ import annotations

from .entry import HostOnly
from .registry import Registry

#: Modules whose every name is host API.
HOST_MODULES = ("cutlass.cute.runtime", "cutlass.cute.testing", "cutlass.torch", "cutlass.cuda")

#: Host names in other modules.
HOST_NAMES = (
    "cutlass.cute.compile",
    "cutlass.cute.compile_to",
    "cutlass.dtype",
    "cutlass.CUDA_VERSION",
    "cutlass.CACHE_FILE",
    "cutlass.DSLRuntimeError",
    "cutlass.DSLUserCodeError",
    "cutlass.DSLCudaVersion",
    "cutlass.register_jit_arg_adapter",
    "cutlass.JitArgAdapterRegistry",
    "cutlass.register_library_unload_callback",
    "cutlass.unregister_library_unload_callback",
    "cutlass.cute.register_jit_arg_adapter",
    # Served by the shim for host code (`__init__`, `__call__` before tracing): what the target
    # GPU has. In kernel code the DSL evaluates them at trace time; bbx asks for host code.
    "cutlass.utils.HardwareInfo",
    "cutlass.utils.get_smem_capacity_in_bytes",
    "cutlass.Arch",
)

#: Python's own names that DSL modules re-export (typing, dataclasses...): not DSL names.
PYTHON_REEXPORTS = frozenset(
    {"Any", "Callable", "Dict", "Enum", "List", "NoReturn", "Optional", "Tuple", "Type",
     "Union", "dataclass", "lru_cache", "T"}
)  # fmt: skip


def register(r: Registry) -> None:
    r.add(HOST_NAMES, HostOnly())
    for module in HOST_MODULES:
        r.host_module(module)
