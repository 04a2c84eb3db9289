"""Which MMA mode a kernel of NVIDIA's warp MMA (`warp.MmaF16BF16Op`) needs on an MFMA target.

Kernels that reach fragments only through layout algebra (partition_*, make_tiled_copy_*,
retile: tensorop_gemm) keep the plain MFMA path. Kernels that read NVIDIA's m16n8 fragment layout
itself — lane operations (a row's 4 consecutive lanes reduced with xor shuffles, ballots, lane
ids) or the accumulator's value mode (`acc.shape[0][0]`, the column pair on NVIDIA) — need the
m16n8-exact mode (bbx.trace.mma_exact), in which MFMA's registers are NVIDIA's fragments.

The tiled MMA is made in host code, before its kernel is traced. Two ways decide:
* the source of the module that makes it (the module of NVIDIA's kernels: flash_attention_v2.py
  keeps host and kernel in one class) is read for those constructs (`fragment_reads`);
* while tracing, a lane operation in a kernel given a plain MFMA tiled MMA of NVIDIA's warp MMA
  (found in whatever module: a library's helpers) stops the trace (`ExactModeNeeded`), and the
  specialization is traced again from the start with the exact mode (`selecting_mode`), the
  first attempt's trace-time output discarded: one trace's output is shown, as in the DSL.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import functools
import io
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .errors import Loc, trace_error, user_location

T = TypeVar("T")

#: cute.arch functions whose results depend on which lane holds which fragment value
LANE_OPERATIONS = frozenset({
    "shuffle_sync", "shuffle_sync_bfly", "shuffle_sync_down", "shuffle_sync_up",
    "vote_all_sync", "vote_any_sync", "vote_ballot_sync", "vote_uni_sync", "match_sync",
    "warp_redux_sync", "lane_idx", "lanemask_eq", "lanemask_ge", "lanemask_gt", "lanemask_le",
    "lanemask_lt",
})


@dataclass(frozen=True)
class FragmentRead:
    """One construct that reads NVIDIA's fragment layout: its text and where it is."""

    what: str
    loc: Loc

    def __str__(self) -> str:
        return f"{self.what} at {Path(self.loc[0]).name}:{self.loc[1]}"


class _Finder(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[FragmentRead] = []

    def _add(self, what: str, node: ast.expr) -> None:
        self.found.append(FragmentRead(what, (self.path, node.lineno, node.col_offset + 1)))

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802 - ast's name
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if name in LANE_OPERATIONS:
            self._add(ast.unparse(f), node)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:  # noqa: N802 - ast's name
        # x.shape[0][0]: the first extent of a fragment's value mode
        inner = node.value
        if (_is_const(node.slice, 0) and isinstance(inner, ast.Subscript)
                and _is_const(inner.slice, 0) and isinstance(inner.value, ast.Attribute)
                and inner.value.attr == "shape"):
            self._add(ast.unparse(node), node)
            return
        self.generic_visit(node)


def _is_const(node: ast.expr, value: int) -> bool:
    return isinstance(node, ast.Constant) and node.value == value


@functools.lru_cache(maxsize=64)
def fragment_reads(path: str) -> tuple[FragmentRead, ...]:
    """The constructs of the module at `path` that read NVIDIA's fragment layout, in source
    order (none when the source cannot be read or parsed)."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=path)
    except (OSError, SyntaxError, ValueError):
        return ()
    finder = _Finder(path)
    finder.visit(tree)
    return tuple(sorted(finder.found, key=lambda r: (r.loc[1], r.loc[2])))


class ExactModeNeeded(BaseException):  # noqa: N818 - a signal, not an error
    """A trace met NVIDIA's fragment layout with a plain MFMA tiled MMA: the specialization is
    traced again in the exact mode. (A BaseException: user code's `except Exception` must not
    swallow it.)"""

    def __init__(self, read: FragmentRead) -> None:
        super().__init__(str(read))
        self.read = read


_REQUESTED: contextvars.ContextVar[tuple[FragmentRead, ...]] = contextvars.ContextVar(
    "bbx_exact_mode_reads", default=())


def requested_reads() -> tuple[FragmentRead, ...]:
    """The constructs that made this trace ask for the exact mode (none in a first attempt)."""
    return _REQUESTED.get()


def need_exact_mode(what: str) -> None:
    """`what` (a lane operation) runs in a kernel given a plain MFMA tiled MMA of NVIDIA's warp
    MMA: stop this trace (the caller retraces in the exact mode)."""
    loc = user_location() or ("<unknown>", 0, 0)
    raise ExactModeNeeded(FragmentRead(what, loc))


def selecting_mode(trace: Callable[[], T]) -> T:
    """`trace()` (a specialization's trace), again in the exact mode when it stops with
    `ExactModeNeeded`; trace-time output of the stopped attempt is discarded."""
    reads: tuple[FragmentRead, ...] = ()
    while True:
        out = io.StringIO()
        token = _REQUESTED.set(reads)
        try:
            with contextlib.redirect_stdout(out):
                result = trace()
        except ExactModeNeeded as need:
            if reads:  # the exact mode was on: nothing more to select
                raise trace_error("mma-exact", f"{need.read.what} in a kernel of NVIDIA's warp "
                                  "MMA that the m16n8-exact mode does not cover",
                                  "lane operations need the exact mode's tiled MMA passed to "
                                  "the kernel", loc=need.read.loc) from None
            reads = (need.read,)
            continue
        except BaseException:
            sys.stdout.write(out.getvalue())
            raise
        finally:
            _REQUESTED.reset(token)
        sys.stdout.write(out.getvalue())
        return result
