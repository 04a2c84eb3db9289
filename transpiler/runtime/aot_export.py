"""`CompiledFunction.export_to_c(file_path, file_name, function_prefix)`: writes
`<file_name>.h` and `<file_name>.o` for the compiled specialization (aot_source.py says what
they hold).

The object is the specialization's own unit — the one the lazy builder loads — compiled
position independent for the specialization's target (the simulator: host code running the
simulator; CUDA: nvcc's host code with the sm_90 device code embedded; gfx942/gfx950: clang's
HIP host code launching through the HIP runtime, the device code object embedded), with its
entry points renamed after the prefix so that one shared library can link several exports.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from .. import __version__
from ..host_errors import HostApiError
from ..paths import include_dir
from ..targets.backend import Backend, ToolMissing
from ..targets.registry import default_target
from .aot_source import Export, entry_text, header_text
from .argspec import ArgSpec, SequenceSpec, TensorSpec
from .builder import BuildError, run_build
from .dtypes import dtype as dtype_info

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ExportError(HostApiError):
    """An export that cannot be made (located at the user's export_to_c call)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(what, why, "export")


def export_compiled(compiled: Any, dispatcher: Any, file_path: str | Path, file_name: str,
                    function_prefix: str) -> tuple[Path, Path]:
    """Writes the header and the object of `compiled` (a `jit.CompiledFunction`) with the unit
    source of `dispatcher` (the `dispatch.Dispatcher` that built it); returns their paths."""
    name = compiled.function.__qualname__
    if not _IDENTIFIER.fullmatch(function_prefix):
        raise ExportError(f"export_to_c(function_prefix={function_prefix!r})",
                          "the prefix starts the C names of the export, so it must be a C "
                          "identifier")
    if not file_name or "/" in file_name or file_name.startswith("."):
        raise ExportError(f"export_to_c(file_name={file_name!r})",
                          "the file name is the stem of the .h and .o written in file_path")
    _refuse_unexportable(name, compiled.specs)
    directory = Path(file_path)
    if not directory.is_dir():
        raise ExportError(f"export_to_c(file_path={str(file_path)!r})",
                          "no such directory (create it first, as the DSL requires)")
    target = getattr(compiled.launcher, "target", None) or default_target()
    assert isinstance(target, Backend)
    if not hasattr(dispatcher, "unit_source"):
        raise ExportError(f"export_to_c of {name}", "the function was compiled by a dispatcher "
                          "other than bbx's, which has no C++ unit to export")
    source = dispatcher.unit_source(compiled.function, compiled.bound_self, compiled.specs,
                                     target)
    export = Export(function_prefix, name, Path(compiled.function.source_file).name,
                    target.name, source.specs, file_name)
    header = directory / f"{file_name}.h"
    obj = directory / f"{file_name}.o"
    with tempfile.TemporaryDirectory(prefix="bbx-export-") as temp:
        staging = Path(temp)
        files = {}
        for module_name, text in source.generated.items():
            files[module_name] = staging / module_name
            files[module_name].write_text(text)
        (staging / "unit.cpp").write_text(source.unit.text)
        header_source = header_text(export, __version__, target.object_link_flags())
        (staging / header.name).write_text(header_source)
        entry = staging / f"{file_name}.export.cpp"
        entry.write_text(entry_text(export, "unit.cpp", __version__))
        includes = [f"-I{include_dir()}", f"-I{staging}"]
        try:
            command = target.object_command(entry, obj, includes, target.unit_opt())
        except ToolMissing as exc:
            raise ExportError(f"exporting {name} for target {target.name}",
                              f"its object cannot be built here: {exc}") from None
        try:
            run_build(f"{export.source}:{name} (export)", target.name, command, files)
        except BuildError as exc:
            raise ExportError(f"exporting {name} for target {target.name}",
                              f"the object did not build:\n{exc.output}") from None
    header.write_text(header_source)  # (only with its object)
    return header, obj


def _refuse_unexportable(name: str, specs: dict[str, ArgSpec]) -> None:
    for param, spec in specs.items():
        if isinstance(spec, SequenceSpec):
            raise ExportError(f"exporting {name}: argument {param!r} is a Python sequence",
                              "exported functions take tensors, scalars, pointers and a stream "
                              "(pass the elements as arguments of their own)")
        if isinstance(spec, TensorSpec) and dtype_info(spec.dtype).bits % 8:
            raise ExportError(f"exporting {name}: argument {param!r} is a {spec.dtype} tensor",
                              "exported tensors have whole-byte elements")
