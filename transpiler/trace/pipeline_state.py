"""`cutlass.pipeline.PipelineState` at trace time: the position in a circular buffer of `stages`
slots that a producer or a consumer of a multi-stage pipeline walks — `index` (the slot),
`count` (steps taken) and `phase` (flips at each wrap) — as the DSL defines it
(`cutlass/pipeline/helpers.py`). Portable: it is counters only; the mbarrier pipelines that use
it on NVIDIA GPUs are another matter.

Its fields are `Int32`s, static while they are known and C++ values once a run-time loop
carries them: a state advanced in a `cutlass.range` loop is a loop-carried variable through
the DSL's value protocol (`__extract_mlir_values__` / `__new_from_mlir_values__`), which
subclasses (QuACK's `PipelineStateWAdvance`) override."""

from __future__ import annotations

import enum
from typing import Any

from .errors import trace_error
from .placement import takes_placement
from .scalar import Int32, Numeric, as_numeric, is_dynamic, select


class PipelineUserType(enum.Enum):
    Producer = enum.auto()
    Consumer = enum.auto()


def _int32(x: Any) -> Numeric:
    return x if isinstance(x, Int32) else Int32(as_numeric(x))


@takes_placement
class PipelineState:
    """`PipelineState(stages, count, index, phase)`."""

    __module__ = "cutlass.pipeline"

    def __init__(self, stages: int, count: Any, index: Any, phase: Any) -> None:
        self._stages = stages
        # Int32 values (Any: the tracer's integer operators are not typed per class)
        self._count: Any = _int32(count)
        self._index: Any = _int32(index)
        self._phase: Any = _int32(phase)

    @property
    def stages(self) -> int:
        return self._stages

    @property
    def count(self) -> Numeric:
        return self._count

    @property
    def index(self) -> Numeric:
        return self._index

    @property
    def phase(self) -> Numeric:
        return self._phase

    def clone(self) -> PipelineState:
        return type(self).__new_from_mlir_values__(self, self.__extract_mlir_values__())

    def reset_count(self) -> None:
        self._count = Int32(0)

    def advance(self, count: Any = 1) -> None:
        """`count` steps ahead (a Python int >= 1 or an `Int32`): the index wraps at `stages`
        and the phase flips at each wrap."""
        if isinstance(count, int) and count < 1:
            raise trace_error("pipeline-advance", f"PipelineState.advance({count})",
                              "count must be >= 1")
        if not isinstance(count, int) or count > 1:
            self._count = self._count + count
            index = self._index + count
            self._phase = self._phase ^ ((index // self._stages) % 2)
            self._index = index % self._stages
            return
        self._index, self._count = self._index + 1, self._count + 1
        self._wrap(self._index == self._stages, 0)

    def reverse(self) -> None:
        """One step back: the index wraps below 0 and the phase flips."""
        self._index, self._count = self._index - 1, self._count - 1
        self._wrap(self._index == -1, self._stages - 1)

    def _wrap(self, wraps: Any, index: int) -> None:
        """Where `wraps` holds, the index becomes `index` and the phase flips."""
        if is_dynamic(wraps):
            self._phase = select(wraps, self._phase ^ 1, self._phase)
            self._index = select(wraps, Int32(index), self._index)
        elif bool(wraps):
            self._index, self._phase = Int32(index), self._phase ^ 1

    # the DSL's value protocol (what a run-time loop carries)
    def __extract_mlir_values__(self) -> list[Numeric]:
        return [self._count, self._index, self._phase]

    def __new_from_mlir_values__(self, values: list[Any]) -> PipelineState:
        return PipelineState(self._stages, values[0], values[1], values[2])

    def __repr__(self) -> str:
        return (f"PipelineState(stages={self._stages}, count={self._count}, "
                f"index={self._index}, phase={self._phase})")


def make_pipeline_state(type: PipelineUserType, stages: int) -> PipelineState:  # noqa: A002
    """A producer starts at phase 1 (its buffers start empty), a consumer at phase 0."""
    if type is PipelineUserType.Producer:
        return PipelineState(stages, Int32(0), Int32(0), Int32(1))
    if type is PipelineUserType.Consumer:
        return PipelineState(stages, Int32(0), Int32(0), Int32(0))
    raise trace_error("pipeline-state", f"make_pipeline_state({type!r}, ...)",
                      "give PipelineUserType.Producer or PipelineUserType.Consumer")
