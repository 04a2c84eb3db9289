"""``cute.compile`` options: the DSL's option classes and its option string, and what bbx does
with each.

Both spellings of the DSL are accepted: ``cute.compile[cute.GenerateLineInfo(True)](fn, ...)``
(or the bare class, ``cute.compile[cute.GenerateLineInfo]``: a flag given without a value) and
``cute.compile(fn, ..., options="--generate-line-info --opt-level 2")`` (``--flag value``,
``--flag=value``; boolean flags take no value). What bbx does:

* **honoured without effect on the result** (accepted silently): ``generate-line-info``
  (bbx's builds always map generated lines to Python lines), ``enable-tvm-ffi`` (bbx's compiled
  functions take torch tensors and DLPack tensors directly either way), ``opt-level`` (checked
  to be 0..3; bbx builds optimized);
* **NVIDIA toolchain options** (PTX/CUBIN/SASS dumps, ptxas/nvdisasm flags, ``gpu-arch``,
  ``link-libraries``, ``rdc``, ``host-target``, diagnostics filters, ``enable-assertions``...):
  accepted, with one warning per option and process saying that it has no effect with bbx;
* **unknown** options: accepted with one warning each.
"""

from __future__ import annotations

import shlex
import warnings
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = ["CompileOption", "ParsedOptions", "parse_options"]

_SILENT = "silent"
_NVIDIA = "nvidia"


class CompileOption:
    """Base of the DSL's compile-option classes: ``GenerateLineInfo(True)``, ``OptLevel(2)``."""

    cli_flag: ClassVar[str] = ""
    value_kind: ClassVar[str] = "bool"  # bool, int or str
    default: ClassVar[Any] = False
    effect: ClassVar[str] = _NVIDIA

    def __init__(self, val: Any = None) -> None:
        self.value = self.default if val is None and self.value_kind != "bool" else \
            (True if val is None else val)
        if self.value_kind == "int":
            self.value = int(self.value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.value!r})"


def _option(name: str, flag: str, kind: str = "bool", default: Any = False,
            effect: str = _NVIDIA) -> type[CompileOption]:
    return type(name, (CompileOption,), {"cli_flag": flag, "value_kind": kind,
                                         "default": default, "effect": effect,
                                         "__module__": "cutlass.cute"})


class OptLevel(CompileOption):
    cli_flag, value_kind, default, effect = "opt-level", "int", 3, _SILENT

    def __init__(self, val: Any = 3) -> None:
        super().__init__(val)
        if not 0 <= self.value <= 3:
            raise ValueError(f"bbx: OptLevel must be between 0 and 3, got {self.value}")


GenerateLineInfo = _option("GenerateLineInfo", "generate-line-info", effect=_SILENT)
EnableTVMFFI = _option("EnableTVMFFI", "enable-tvm-ffi", effect=_SILENT)
EnableAssertions = _option("EnableAssertions", "enable-assertions")
KeepPTX = _option("KeepPTX", "keep-ptx")
KeepCUBIN = _option("KeepCUBIN", "keep-cubin")
KeepSASS = _option("KeepSASS", "keep-sass")
RDC = _option("RDC", "rdc")
PtxasOptions = _option("PtxasOptions", "ptxas-options", "str", "")
NvdisasmOptions = _option("NvdisasmOptions", "nvdisasm-options", "str", "-g -c")
GPUArch = _option("GPUArch", "gpu-arch", "str", "")
LinkLibraries = _option("LinkLibraries", "link-libraries", "str", "")
DumpDir = _option("DumpDir", "dump-dir", "str", "")
HostTarget = _option("HostTarget", "host-target", "str", "")
RemarkFilter = _option("RemarkFilter", "remark-filter", "str", "")
RemarkOutput = _option("RemarkOutput", "remark-output", "str", "")
EnablePYIR = _option("EnablePYIR", "enable-pyir")
FlattenLocsOutputJsonPath = _option("FlattenLocsOutputJsonPath",
                                    "flatten-locs-output-json-path", "str", "")
DisableCuteExtCompile = _option("DisableCuteExtCompile", "")
DeviceTarget = _option("DeviceTarget", "")
FrontendNext = _option("FrontendNext", "")

OPTION_CLASSES: tuple[type[CompileOption], ...] = (
    OptLevel, GenerateLineInfo, EnableTVMFFI, EnableAssertions, KeepPTX, KeepCUBIN, KeepSASS, RDC,
    PtxasOptions, NvdisasmOptions, GPUArch, LinkLibraries, DumpDir, HostTarget, RemarkFilter,
    RemarkOutput, EnablePYIR, FlattenLocsOutputJsonPath, DisableCuteExtCompile, DeviceTarget,
    FrontendNext,
)
_BY_FLAG = {cls.cli_flag: cls for cls in OPTION_CLASSES if cls.cli_flag}


@dataclass
class ParsedOptions:
    """The options of one ``cute.compile`` call, by class; `unknown` keeps what bbx does not
    know, as written."""

    options: dict[type[CompileOption], CompileOption]
    unknown: list[str]

    def get(self, cls: type[CompileOption]) -> Any:
        found = self.options.get(cls)
        return found.value if found is not None else cls.default


_warned: set[str] = set()


def _warn_once(key: str, message: str) -> None:
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, stacklevel=4)


def _parse_string(text: str, parsed: ParsedOptions) -> None:
    try:
        tokens = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"bbx: cannot parse cute.compile options {text!r}: {exc}") from None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        name, has_value, value = token.removeprefix("--").partition("=")
        cls = _BY_FLAG.get(name)
        if cls is None:
            parsed.unknown.append(token)
            continue
        if cls.value_kind == "bool":
            parsed.options[cls] = cls(value.lower() in ("1", "true", "yes", "on")
                                      if has_value else True)
            continue
        if not has_value:
            if i >= len(tokens) or tokens[i].startswith("--"):
                if cls.value_kind == "int":  # `--opt-level` alone keeps the default
                    parsed.options[cls] = cls(None)
                    continue
                raise ValueError(f"bbx: cute.compile option --{name} needs a value")
            value, i = tokens[i], i + 1
        parsed.options[cls] = cls(value)


def parse_options(sources: tuple[Any, ...]) -> ParsedOptions:
    """Parse option objects, tuples of them and option strings; warn (once each) about options
    that have no effect with bbx and about unknown ones."""
    parsed = ParsedOptions({}, [])
    for source in sources:
        if source is None:
            continue
        items = source if isinstance(source, (tuple, list)) else (source,)
        for item in items:
            if isinstance(item, type) and issubclass(item, CompileOption):
                item = item()  # `cute.compile[cute.GenerateLineInfo]`: the flag given bare
            if isinstance(item, CompileOption):
                parsed.options[type(item)] = item
            elif isinstance(item, str):
                _parse_string(item, parsed)
            else:
                parsed.unknown.append(repr(item))
    for cls, option in parsed.options.items():
        if cls.effect == _NVIDIA and option.value not in (False, "", None):
            _warn_once(cls.__name__, f"bbx: cute.compile option {cls.__name__} "
                       f"(--{cls.cli_flag or cls.__name__}) is NVIDIA-toolchain specific and has "
                       "no effect with bbx")
    for text in parsed.unknown:
        _warn_once(text, f"bbx: unknown cute.compile option {text!r} is ignored")
    return parsed
