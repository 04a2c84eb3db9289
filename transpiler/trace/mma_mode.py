"""Which MMA mode a kernel of NVIDIA's warp MMA (`warp.MmaF16BF16Op`) needs on an MFMA target.

Kernels that reach fragments only through layout algebra (partition_*, make_tiled_copy_*,
retile: tensorop_gemm) keep the plain MFMA path. Kernels that read NVIDIA's m16n8 fragment layout
itself — lane operations (a row's 4 consecutive lanes reduced with xor shuffles, ballots, lane
ids) or the accumulator's value mode (`acc.shape[0][0]`, the column pair on NVIDIA) — need the
m16n8-exact mode (bbx.trace.mma_exact), in which MFMA's registers are NVIDIA's fragments.

The tiled MMA is made in host code, before its kernel is traced, so the decision reads the
source of the module that makes it (the module of NVIDIA's kernels: flash_attention_v2.py keeps
host and kernel in one class) for those constructs.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

from .errors import Loc

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
