"""A CUDA stand-in for torch, so that unmodified scripts run on the simulator without a GPU.

Upstream CuTe-DSL scripts check ``torch.cuda.is_available()``, create tensors with
``device="cuda"``, make streams and time with CUDA events. On the CPU target (the simulator),
`CudaStandIn` makes that work for the running script:

* ``torch.cuda.is_available()`` is True, with one device (``device_count() == 1``) whose
  capability is (8, 0) (sm_80, the portable answer of `bbx.host_arch`) and whose name says it is
  the simulator;
* tensors created on, or moved to, ``"cuda"`` (``"cuda:0"``, ``torch.device("cuda")``, a device
  index) live in host memory: a torch function mode rewrites the ``device=`` of every torch call
  and the target of ``.to(...)``/``.cuda()`` to the CPU (``pin_memory`` is dropped). The tensors
  *are* CPU tensors (``t.device.type == "cpu"``), which is what the simulator's kernels take;
* ``torch.cuda.synchronize/Stream/ExternalStream/Event/current_stream/default_stream/stream/
  set_stream`` work: kernels on the simulator finish before their launch returns, so streams
  are only handles (the default stream is 0) and an event records the wall clock when it is
  recorded (``elapsed_time`` in milliseconds, as CUDA's);
* ``torch.cuda.manual_seed`` seeds torch's CPU generator (which makes the "cuda" tensors), and
  ``get_rng_state``/``set_rng_state`` are its state; memory queries answer from the host;
* ``tensor.is_cuda`` is True for those tensors, and operators registered for CUDA
  (``torch.library.custom_op(..., device_types="cuda")``, ``register_kernel``) serve them too.

`activate()`/`deactivate()` (or ``with CudaStandIn():``) scope it: everything is restored after
the script. The function mode is per thread (the thread that activated it). ``BBX_TARGET`` is set
to ``cpu`` while it is active (unless already set), so that bbx itself keeps building for the
simulator. Anything else in ``torch.cuda`` (graphs, NCCL, ...) is left as it is and fails as on
a CPU-only torch.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import torch
from torch.overrides import TorchFunctionMode

from . import settings
from .targets.backend import PORTABLE_ARCH, PORTABLE_CAPABILITY
from .targets.simulator import SIMULATOR_L2_BYTES

DEVICE_NAME = "bbx CPU simulator (CUDA stand-in)"


def _is_cuda_device(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):  # a device index means a CUDA device in torch
        return True
    if isinstance(value, str):
        return value == "cuda" or value.startswith("cuda:")
    return isinstance(value, torch.device) and value.type == "cuda"


def _host(value: Any) -> Any:
    return "cpu" if _is_cuda_device(value) else value


class _HostMemoryMode(TorchFunctionMode):
    """Rewrites CUDA device arguments of torch calls to the CPU."""

    def __torch_function__(self, func: Any, types: Any, args: Any = (),
                           kwargs: Any = None) -> Any:
        kwargs = dict(kwargs or {})
        name = getattr(func, "__name__", "")
        if name in ("cuda", "pin_memory") and args and isinstance(args[0], torch.Tensor) and \
                getattr(func, "__qualname__", "").startswith("TensorBase."):
            return args[0]
        if name == "record_stream" and args and isinstance(args[0], torch.Tensor):
            return None
        if "device" in kwargs:
            kwargs["device"] = _host(kwargs["device"])
        if kwargs.get("pin_memory"):
            kwargs["pin_memory"] = False
        if name == "to" and args:
            args = (args[0], *(_host(a) for a in args[1:]))
        return func(*args, **kwargs)


class Stream:
    """A stream handle of the stand-in (work on the simulator is synchronous)."""

    _handles = itertools.count(1)

    def __init__(self, device: Any = None, priority: int = 0, **_kwargs: Any) -> None:
        self.cuda_stream = next(self._handles)
        self.priority = priority
        self.device = torch.device("cuda", 0)

    @classmethod
    def external(cls, stream_ptr: int, device: Any = None) -> Stream:
        """``torch.cuda.ExternalStream(handle)``: the stream of an existing handle."""
        stream = cls.__new__(cls)
        stream.cuda_stream, stream.priority, stream.device = int(stream_ptr), 0, \
            torch.device("cuda", 0)
        return stream

    @classmethod
    def _default(cls) -> Stream:
        stream = cls.__new__(cls)
        stream.cuda_stream, stream.priority, stream.device = 0, 0, torch.device("cuda", 0)
        return stream

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        return None

    def wait_event(self, event: Event) -> None:
        return None

    def wait_stream(self, stream: Stream) -> None:
        return None

    def record_event(self, event: Event | None = None) -> Event:
        event = event or Event()
        event.record(self)
        return event

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream) and other.cuda_stream == self.cuda_stream

    def __hash__(self) -> int:
        return hash(("bbx-stream", self.cuda_stream))

    def __repr__(self) -> str:
        return f"<torch.cuda.Stream (bbx stand-in) cuda_stream={self.cuda_stream:#x}>"


class Event:
    """A CUDA event of the stand-in: `record` takes the wall clock (work is synchronous)."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False,
                 interprocess: bool = False) -> None:
        self.enable_timing = enable_timing
        self._recorded_ns: int | None = None

    def record(self, stream: Any = None) -> None:
        self._recorded_ns = time.perf_counter_ns()

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        return None

    def wait(self, stream: Any = None) -> None:
        return None

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds between this event's record and `end_event`'s."""
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        if self._recorded_ns is None or end_event._recorded_ns is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        return (end_event._recorded_ns - self._recorded_ns) / 1e6

    def __repr__(self) -> str:
        return "<torch.cuda.Event (bbx stand-in)>"


class _DeviceProperties:
    """What ``torch.cuda.get_device_properties()`` answers under the stand-in."""

    def __init__(self) -> None:
        self.name = DEVICE_NAME
        self.major, self.minor = PORTABLE_CAPABILITY
        self.multi_processor_count = host_threads()
        self.total_memory = _host_memory_bytes()
        self.L2_cache_size = SIMULATOR_L2_BYTES
        self.warp_size = 32  # a DSL warp; the simulator's wave (BBX_SIM_WAVE) holds two of them
        self.is_integrated = False
        self.is_multi_gpu_board = False
        # read by torch's compile cache on a torch build without CUDA (which it takes for ROCm)
        self.gcnArchName = DEVICE_NAME  # noqa: N815 - torch's name

    def __repr__(self) -> str:
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, "
                f"minor={self.minor}, total_memory={self.total_memory // 2**20}MB, "
                f"multi_processor_count={self.multi_processor_count})")


def host_threads() -> int:
    return settings.positive_int("BBX_SIM_THREADS") or (os.cpu_count() or 1)


def _host_memory_bytes() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 0


def _check_device(device: Any) -> None:
    if device is None:
        return
    index = device if isinstance(device, int) else getattr(torch.device(device), "index", None)
    if index not in (None, 0):
        raise RuntimeError(f"bbx: the CUDA stand-in of the simulator has one device (0); "
                           f"device {device!r} does not exist")


class CudaStandIn:
    """Installs the stand-in into `torch.cuda` (see the module docstring); scoped."""

    def __init__(self) -> None:
        self._mode: _HostMemoryMode | None = None
        self._saved: dict[tuple[Any, str], Any] = {}
        self._saved_target: str | None = None
        self._default_stream = Stream._default()
        self._current = threading.local()

    # -- what replaces torch.cuda's functions ---------------------------------------------------
    def _current_stream(self, device: Any = None) -> Stream:
        return getattr(self._current, "stream", self._default_stream)

    def _set_stream(self, stream: Stream) -> None:
        self._current.stream = stream

    @contextlib.contextmanager
    def _stream(self, stream: Stream | None) -> Iterator[Stream | None]:
        if stream is None:
            yield None
            return
        previous = self._current_stream()
        self._set_stream(stream)
        try:
            yield stream
        finally:
            self._set_stream(previous)

    def _replacements(self) -> dict[str, Any]:
        def get_device_capability(device: Any = None) -> tuple[int, int]:
            _check_device(device)
            return PORTABLE_CAPABILITY

        def get_device_properties(device: Any = None) -> _DeviceProperties:
            _check_device(device)
            return _DeviceProperties()

        def get_device_name(device: Any = None) -> str:
            _check_device(device)
            return DEVICE_NAME

        def set_device(device: Any) -> None:
            _check_device(device)

        def manual_seed(seed: int) -> None:
            torch.default_generator.manual_seed(int(seed))  # torch.manual_seed calls back here

        def mem_get_info(device: Any = None) -> tuple[int, int]:
            total = _host_memory_bytes()
            try:
                free = int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES"))
            except (ValueError, OSError, AttributeError):
                free = total
            return free, total

        def zero(*_args: Any, **_kwargs: Any) -> int:
            return 0

        def nothing(*_args: Any, **_kwargs: Any) -> None:
            return None

        return {
            "is_available": lambda: True,
            "is_initialized": lambda: True,
            "init": nothing,
            "device_count": lambda: 1,
            "current_device": lambda: 0,
            "set_device": set_device,
            "get_device_name": get_device_name,
            "get_device_capability": get_device_capability,
            "get_device_properties": get_device_properties,
            "get_arch_list": lambda: [PORTABLE_ARCH],
            "is_bf16_supported": lambda *a, **k: True,
            "synchronize": lambda device=None: _check_device(device),
            "Stream": Stream,
            "ExternalStream": Stream.external,
            "Event": Event,
            "current_stream": self._current_stream,
            "default_stream": lambda device=None: self._default_stream,
            "set_stream": self._set_stream,
            "stream": self._stream,
            "manual_seed": manual_seed,
            "manual_seed_all": manual_seed,
            # the "cuda" generator is the CPU one (torch.compile saves and restores it)
            "get_rng_state": lambda device="cuda": torch.get_rng_state(),
            "set_rng_state": lambda new_state, device="cuda": torch.set_rng_state(new_state),
            "get_rng_state_all": lambda: [torch.get_rng_state()],
            "set_rng_state_all": lambda new_states: torch.set_rng_state(new_states[0]),
            "empty_cache": nothing,
            "memory_allocated": zero,
            "max_memory_allocated": zero,
            "memory_reserved": zero,
            "max_memory_reserved": zero,
            "reset_peak_memory_stats": nothing,
            "mem_get_info": mem_get_info,
        }

    # -- scope ----------------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self._mode is not None

    def activate(self) -> CudaStandIn:
        global _active
        if self._mode is not None:
            return self
        if _active is not None:
            raise RuntimeError("bbx: a CUDA stand-in is already active")
        for name, replacement in self._replacements().items():
            self._saved[(torch.cuda, name)] = getattr(torch.cuda, name, _MISSING)
            setattr(torch.cuda, name, replacement)
        # a tensor made on "cuda" is a CPU tensor that says it is on CUDA (`assert x.is_cuda`)
        self._saved[(torch.Tensor, _IS_CUDA)] = vars(torch.Tensor).get(_IS_CUDA, _MISSING)
        setattr(torch.Tensor, _IS_CUDA, property(lambda t: t.device.type in ("cpu", "cuda")))
        for name in ("custom_op", "register_kernel"):
            original = getattr(torch.library, name)
            self._saved[(torch.library, name)] = original
            setattr(torch.library, name, _registering_on_host(original))
        self._saved_target = os.environ.get("BBX_TARGET")
        if self._saved_target is None:
            os.environ["BBX_TARGET"] = "cpu"
        self._mode = _HostMemoryMode()
        self._mode.__enter__()
        _active = self
        return self

    def deactivate(self) -> None:
        global _active
        if self._mode is None:
            return
        self._mode.__exit__(None, None, None)
        self._mode = None
        for (module, name), original in self._saved.items():
            if original is _MISSING:
                delattr(module, name)
            else:
                setattr(module, name, original)
        self._saved.clear()
        if self._saved_target is None:
            os.environ.pop("BBX_TARGET", None)
        _active = None

    def __enter__(self) -> CudaStandIn:
        return self.activate()

    def __exit__(self, *exc: object) -> None:
        self.deactivate()


_MISSING = object()
#: torch's tensor property that the stand-in answers (a torch name, not a bbx target flag)
_IS_CUDA = "is_cuda"


def _with_host(device_types: Any) -> Any:
    """`device_types` of a torch.library registration, with "cpu" wherever "cuda" is named."""
    if device_types is None:
        return None
    names = [device_types] if isinstance(device_types, str) else list(device_types)
    if any(_is_cuda_device(n) for n in names) and "cpu" not in names:
        names.append("cpu")
    return tuple(names)


def _registering_on_host(original: Any) -> Any:
    """`torch.library.custom_op` / `register_kernel` whose CUDA kernels also serve the "cuda"
    tensors of the stand-in, which are CPU tensors."""

    @functools.wraps(original)
    def register(*args: Any, **kwargs: Any) -> Any:
        if "device_types" in kwargs:
            kwargs["device_types"] = _with_host(kwargs["device_types"])
        elif original.__name__ == "register_kernel" and len(args) >= 2:
            args = (args[0], _with_host(args[1]), *args[2:])
        return original(*args, **kwargs)

    return register
_active: CudaStandIn | None = None


def active() -> bool:
    """Whether a stand-in is active in this process."""
    return _active is not None
