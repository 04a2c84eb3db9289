"""``cutlass.cute.testing`` (also ``cutlass.testing``): timing compiled functions from host code.

``benchmark`` follows the DSL: the callable runs ``warmup_iterations`` times, then
``iterations`` times under the clock, cycling through ``workspace_count`` argument sets made by
``workspace_generator`` (or the one ``kernel_arguments``); the result is the mean time of one
call in microseconds.

* GPU targets: CUDA events recorded on the benchmark's stream (``stream``, else the default
  stream), and with several workspaces the L2 cache is flushed first (a device buffer of twice
  the L2 size is cleared), as the DSL does;
* the simulator: wall clock around the timed calls (a launch returns when its kernel is done).

``use_cuda_graphs`` and ``use_cupti`` are NVIDIA capture/profiling modes: bbx times the calls
directly and warns once. ``nvtx_tag`` has no effect.

The DSL's autotuners (``autotune_jit``, ``tune``; also ``cutlass.testing.tune``): every
combination of the candidate values is compiled and timed, the fastest kept.

* ``autotune_jit(params_dict=..., update_on_change=[...], warmup_iterations, iterations)``
  decorates a ``@cute.jit`` function: its first call for each value of the ``update_on_change``
  arguments (and of the Constexpr arguments the caller gives, which a compiled function is
  specialized on) compiles the function for every combination of ``params_dict`` (keyword
  arguments replacing its defaults), times each and calls the fastest; later calls with the same
  values call the remembered compilation directly. A configuration that raises is an error, as
  in the DSL's autotune_jit.
* ``tune(func, params_dict, kernel_arguments, warmup_iterations, iterations)`` calls
  ``func(*kernel_arguments.args, **kwargs, **config)`` for each configuration, which returns a
  callable taking no arguments, times it and returns the fastest configuration (a dict). A
  configuration raising ``ValueError``, ``TypeError``, ``CantImplementError`` or another
  exception is skipped (``NotImplementedError`` stops the tuning), as in the DSL.

Times are the target's: on GPUs CUDA/HIP events around each call, with the L2 cache cleared
before it (a buffer of the L2's size is zeroed on the stream, as the DSL's tuner does); on the
simulator the wall clock around each call. ``CUTE_DSL_LOG_AUTOTUNE=1`` logs every configuration
and its time.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import logging
import os
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from bbx.runtime.jit import compile_callable
from bbx.targets.registry import default_target

from .._markers import module_getattr

__all__ = ["CantImplementError", "JitArguments", "autotune_jit", "benchmark",
           "get_workspace_count", "tune"]


class JitArguments:
    """The arguments one benchmarked call passes: ``JitArguments(a, b, c, stream)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs
        self.references: list[Any] = []

    def add_to_scope(self, references: Any) -> None:
        """Keep objects (e.g. the torch tensors behind views) alive as long as the arguments."""
        self.references.extend(references)


class CantImplementError(Exception):
    """Raised by examples' ``can_implement`` checks when a configuration is not supported."""

    def __init__(self, message: str | None = None) -> None:
        self.message = message or "The current config is invalid/unsupported"
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


_warned: set[str] = set()


def _warn_once(key: str, message: str) -> None:
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, stacklevel=3)


def _workspaces(kernel_arguments: JitArguments | None,
                workspace_generator: Callable[[], JitArguments] | None,
                workspace_count: int) -> list[JitArguments]:
    if workspace_count < 1:
        raise ValueError("workspace_count must be at least 1")
    if workspace_generator is None:
        if workspace_count != 1:
            raise ValueError("Need a single workspace if not providing a generator")
        if kernel_arguments is None:
            raise ValueError("Please pass a kernel argument if not providing a generator")
        workspaces = [kernel_arguments]
    else:
        workspaces = [workspace_generator() for _ in range(workspace_count)]
    for workspace in workspaces:
        if not isinstance(workspace, JitArguments):
            raise TypeError("workspace_generator and/or kernel_arguments should use "
                            "JitArguments type")
    return workspaces


def _torch_stream(stream: Any) -> Any:
    """The torch stream kernels of this benchmark run on (CUDA/HIP targets): `stream`, or
    torch's current stream (where bbx launches kernels that take no stream)."""
    import torch

    if stream is None:
        return torch.cuda.current_stream()
    handle = int(getattr(stream, "cuda_stream", stream))
    return torch.cuda.default_stream() if handle == 0 else torch.cuda.ExternalStream(handle)


def _flush_l2(torch_stream: Any) -> None:
    import torch

    from ..utils import HardwareInfo

    flush_bytes = 2 * HardwareInfo().get_l2_cache_size_in_bytes()
    with torch.cuda.stream(torch_stream):
        buffer = torch.empty(flush_bytes // 4, dtype=torch.int32, device="cuda")
        buffer.zero_()
        del buffer


def benchmark(callable: Callable[..., Any], *,  # noqa: A002 - the DSL's name
              warmup_iterations: int = 10, iterations: int = 100, stream: Any = None,
              kernel_arguments: JitArguments | None = None,
              workspace_generator: Callable[[], JitArguments] | None = None,
              workspace_count: int = 1, use_cuda_graphs: bool = False, use_cupti: bool = False,
              nvtx_tag: str | None = None) -> float:
    """Mean time of one call of `callable` in microseconds (see the module docstring)."""
    workspaces = _workspaces(kernel_arguments, workspace_generator, workspace_count)
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    if use_cuda_graphs:
        _warn_once("graphs", "bbx: benchmark(use_cuda_graphs=True): bbx does not capture CUDA "
                   "graphs; the calls are timed directly (launch overhead included)")
    if use_cupti:
        _warn_once("cupti", "bbx: benchmark(use_cupti=True): CUPTI is NVIDIA's profiler; bbx "
                   "times with events (GPU) or the wall clock (simulator)")

    position = 0

    def run(count: int) -> None:
        nonlocal position
        for _ in range(count):
            workspace = workspaces[position]
            callable(*workspace.args, **workspace.kwargs)
            position = (position + 1) % len(workspaces)

    if default_target().runs_on_host:
        run(warmup_iterations)
        began = time.perf_counter()
        run(iterations)
        return (time.perf_counter() - began) * 1e6 / iterations

    import torch

    torch_stream = _torch_stream(stream)
    if len(workspaces) > 1:
        _flush_l2(torch_stream)
    run(warmup_iterations)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record(torch_stream)
    run(iterations)
    end.record(torch_stream)
    end.synchronize()
    return float(start.elapsed_time(end)) * 1e3 / iterations


def get_workspace_count(one_workspace_bytes: int, warmup_iterations: int,
                        iterations: int) -> int:
    """How many workspaces keep the L2 cache cold: enough to span three times the L2, at most
    one per call."""
    from ..utils import HardwareInfo

    num_workspaces = (HardwareInfo().get_l2_cache_size_in_bytes() * 3) // one_workspace_bytes + 1
    num_iters = warmup_iterations + iterations
    return num_iters if num_iters < num_workspaces else num_workspaces


# -- the autotuners -------------------------------------------------------------------------------

_log = logging.getLogger("cutlass.cute.testing_Autotune")


def _logger() -> logging.Logger:
    if not _log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s - %(name)s - %(levelname)s - "
                                               "%(message)s"))
        _log.addHandler(handler)
    if os.environ.get("CUTE_DSL_LOG_AUTOTUNE", "0") != "0":
        _log.setLevel(logging.INFO)
    return _log


def configurations(params_dict: dict[str, list[Any]] | None) -> Iterator[dict[str, Any]]:
    """Every combination of the candidate values, in the order of the dict and its lists."""
    if not params_dict:
        raise ValueError("params_dict must be provided")
    names = list(params_dict)
    for values in itertools.product(*params_dict.values()):
        yield dict(zip(names, values, strict=True))


def time_call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], *,
              warmup_iterations: int, iterations: int, stream: Any = None) -> float:
    """Mean time of one call of `fn(*args, **kwargs)` in microseconds, by the target's clock."""
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    for _ in range(warmup_iterations):
        fn(*args, **kwargs)
    if default_target().runs_on_host:
        began = time.perf_counter()
        for _ in range(iterations):
            fn(*args, **kwargs)
        return (time.perf_counter() - began) * 1e6 / iterations
    import torch

    from ..utils import HardwareInfo

    torch_stream = _torch_stream(stream)
    l2 = torch.empty(HardwareInfo().get_l2_cache_size_in_bytes() // 4, dtype=torch.int32,
                     device="cuda")
    total_ms = 0.0
    for _ in range(iterations):
        with torch.cuda.stream(torch_stream):
            l2.zero_()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record(torch_stream)
        fn(*args, **kwargs)
        end.record(torch_stream)
        end.synchronize()
        total_ms += float(start.elapsed_time(end))
    return total_ms * 1e3 / iterations


def _key_part(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return ("id", id(value))
    return value


class autotune_jit:  # noqa: N801 - the DSL's name
    """``@autotune_jit(params_dict={...}, update_on_change=[...])`` above ``@cute.jit``."""

    def __init__(self, params_dict: dict[str, list[Any]] | None = None,
                 update_on_change: list[str] | None = None, warmup_iterations: int = 10,
                 iterations: int = 100) -> None:
        self.params_dict = dict(params_dict or {})
        self.update_on_change = list(update_on_change or [])
        self.warmup_iterations = warmup_iterations
        self.iterations = iterations

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        params = dict(self.params_dict)
        signature = inspect.signature(getattr(func, "__wrapped__", func))
        constexpr_names = frozenset(getattr(func, "constexpr_names", ()))
        best: dict[tuple[Any, ...], tuple[Any, dict[str, Any]]] = {}
        watched = self.update_on_change
        warmup, iterations = self.warmup_iterations, self.iterations

        def key_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
            bound = signature.bind_partial(*args, **kwargs).arguments
            names = [*watched, *sorted(n for n in bound if n in constexpr_names
                                       and n not in params and n not in watched)]
            return tuple((n, _key_part(bound[n])) for n in names if n in bound)

        @functools.wraps(func)
        def tuning_wrapper(*args: Any, **kwargs: Any) -> Any:
            log = _logger()
            key = key_of(args, kwargs)
            if key in best:
                compiled, config = best[key]
                log.info(f"Using cached best configuration: {config}")
                return compiled(*args, **kwargs)
            began = time.perf_counter()
            fastest: tuple[float, Any, dict[str, Any]] | None = None
            for config in configurations(params):
                log.info(f"Tuning configuration: {config}")
                merged = {**kwargs, **config}
                compiled = compile_callable(func, args, merged)
                # (the compiled function holds the configuration's Constexpr values)
                us = time_call(compiled, args, kwargs, warmup_iterations=warmup,
                               iterations=iterations)
                log.info(f"   Execution time: {us} us")
                if fastest is None or us < fastest[0]:
                    fastest = (us, compiled, config)
            assert fastest is not None
            us, compiled, config = fastest
            log.info(f"Best configuration: {config}, execution time: {us} us")
            log.info(f"Total tuning time: {time.perf_counter() - began} s")
            best[key] = (compiled, config)
            return compiled(*args, **kwargs)

        tuning_wrapper.__name__ = func.__name__ + "_autotune_wrapper"
        tuning_wrapper.__qualname__ = func.__qualname__ + "_autotune_wrapper"
        tuning_wrapper.bbx_best_configs = best  # type: ignore[attr-defined]
        return tuning_wrapper


def tune(func: Callable[..., Callable[[], Any]], params_dict: dict[str, list[Any]] | None = None,
         kernel_arguments: Any = None, warmup_iterations: int = 10, iterations: int = 100,
         stream: Any = None) -> dict[str, Any]:
    """The fastest configuration of `func` (see the module docstring)."""
    log = _logger()
    arguments = kernel_arguments if kernel_arguments is not None else JitArguments()
    fastest: tuple[float, dict[str, Any]] | None = None
    began = time.perf_counter()
    for config in configurations(params_dict):
        log.info(f"Tuning configuration: {config}")
        try:
            call = func(*arguments.args, **{**arguments.kwargs, **config})
            us = time_call(call, (), {}, warmup_iterations=warmup_iterations,
                           iterations=iterations, stream=stream)
        except NotImplementedError:
            raise
        except (ValueError, TypeError, CantImplementError) as e:
            log.info(f"   Configuration parameter skipping: {e}")
            continue
        except Exception as e:  # noqa: BLE001 - the DSL skips a configuration that fails
            log.info(f"   Execution error skipping: {e}")
            continue
        log.info(f"   Execution time: {us} us")
        if fastest is None or us < fastest[0]:
            fastest = (us, config)
    if fastest is None:
        raise ValueError("No best kernel found")
    log.info(f"Best configuration: {fastest[1]}, execution time: {fastest[0]} us")
    log.info(f"Total tuning time: {time.perf_counter() - began} s")
    return fastest[1]


__getattr__ = module_getattr(__name__)
