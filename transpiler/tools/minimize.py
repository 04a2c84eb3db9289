"""Shrink a crashing or hanging mutant to a small reproducer: delete statements, outermost
first, keeping each deletion after which the translation still fails the same way (the same
crash signature, or a hang). Each try runs in a worker process like the fuzz cases."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import libcst as cst

from .cases import CaseResult
from .mutate import Edit, Replacement, SiteIndex, apply
from .outcome import CRASHED, HUNG, signature
from .pool import Job, WorkerPool


def minimize_case(
    result: CaseResult, *, jobs: int, timeout_s: float, memory_mb: int
) -> str | None:
    """The smallest variant of `result`'s mutant found that fails as it does; None when the
    case is not a crash or a hang (nondeterminism is not shrunk)."""
    status = result.status
    if status not in (CRASHED, HUNG) or result.source is None:
        return None
    wanted = signature(result.first)

    def fails_alike(outcome: dict[str, Any]) -> bool:
        if outcome["status"] != status:
            return False
        return status == HUNG or signature(outcome) == wanted

    payload = {"job": "source", "path": str(result.file.path), "display": result.file.display}
    with WorkerPool(jobs, timeout_s=timeout_s, memory_mb=memory_mb) as pool:

        def first_failing(sources: list[str]) -> str | None:
            work = [Job({**payload, "source": s}, n) for n, s in enumerate(sources)]
            kept = {done.job.tag for done in pool.results(work) if fails_alike(done.outcome)}
            return sources[min(kept)] if kept else None

        return shrink(result.source, first_failing, batch=jobs, progress=_progress)


def _progress(message: str) -> None:
    print(f"  minimizing: {message}", file=sys.stderr, flush=True)


def shrink(
    source: str,
    first_failing: Callable[[list[str]], str | None],
    batch: int,
    progress: Callable[[str], None] | None = None,
) -> str:
    """Deletes statements of `source`, shallowest first, while `first_failing` (which returns
    the first of a list of sources that still fails, or None) accepts the result."""
    current = source
    tried = 0  # statements before this position (in the current order) were tried already
    tries = 0
    while True:
        module = cst.parse_module(current)
        index = SiteIndex(module)
        statements = index.sites.get("statement", [])
        order = sorted(range(len(statements)), key=lambda n: _depth(index, statements[n].node))
        accepted = None
        position = tried
        while position < len(order) and accepted is None:
            chosen = order[position : position + batch]
            variants = [_without(module, index, statements[n].node) for n in chosen]
            # only strictly smaller variants (a lone `pass` becomes `pass` again)
            variants = [v for v in variants if len(v) < len(current)]
            accepted = first_failing(variants) if variants else None
            position += len(chosen)
            tries += len(chosen)
        if accepted is None:
            return current
        current = accepted
        if progress is not None:
            progress(f"{len(current.splitlines())} lines after {tries} tries")
        tried = max(0, position - batch)


def _without(module: cst.Module, index: SiteIndex, statement: cst.CSTNode) -> str:
    block = index.parent(statement)
    replacement: Replacement = None
    if isinstance(block, cst.IndentedBlock) and len(block.body) == 1:
        replacement = cst.SimpleStatementLine([cst.Pass()])
    return apply(module, index, [Edit(((statement, replacement),), "")]).code


def _depth(index: SiteIndex, node: cst.CSTNode) -> int:
    depth = 0
    current = index.parents.get(id(node))
    while current is not None:
        depth += 1
        current = index.parents.get(id(current))
    return depth
