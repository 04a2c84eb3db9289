"""The mutator: each mutation does what it says, cases are reproducible from (seed, index)
alone, in any process, and mutants of one case never overlap."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import libcst as cst
import pytest

from bbx.nesting import with_recursion_room
from bbx.tools import mutate
from bbx.tools.mutate import MUTATIONS, SiteIndex, apply, mutant_of

from .conftest import SAMPLES

SOURCE = """\
import cutlass
import cutlass.cute as cute


@cute.kernel
def kernel(a: cute.Tensor, n: cutlass.Constexpr):
    total = 0
    for i in cutlass.range_constexpr(4):
        if cutlass.const_expr(n > 2):
            total = total + a[i] * 3
    a[0] = total


@cute.jit
def host(a: cute.Tensor):
    kernel(a, 4).launch(grid=(1, 1, 1), block=(64, 1, 1))
"""


def _edit(name: str, seed: int) -> tuple[str, str]:
    module = cst.parse_module(SOURCE)
    index = SiteIndex(module)
    mutation = getattr(mutate, name)
    rng = random.Random(seed)
    edit = mutation(index, rng)
    assert edit is not None, name
    return with_recursion_room(lambda: apply(module, index, [edit]).code), edit.description


@pytest.mark.parametrize("mutation", [m.__name__ for m in MUTATIONS])
def test_each_mutation_changes_the_source_and_keeps_it_python(
        mutation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mutate, "CHAIN_LENGTHS", (3, 8))  # (libcst parses long ones slowly)
    changed = 0
    for seed in range(20):
        code, description = _edit(mutation, seed)
        assert description
        cst.parse_module(code)  # still parses
        changed += code != SOURCE
    assert changed >= 15, mutation


def test_deleting_a_statement_removes_exactly_that_statement() -> None:
    before = SOURCE.splitlines()
    for seed in range(30):
        code, description = _edit("delete_statement", seed)
        removed = description.removeprefix("delete statement `").removesuffix("`")
        after = code.splitlines()
        prefix = 0
        while prefix < len(after) and after[prefix] == before[prefix]:
            prefix += 1
        suffix = 0
        while suffix < len(after) - prefix and after[-1 - suffix] == before[-1 - suffix]:
            suffix += 1
        gone = before[prefix : len(before) - suffix]
        inserted = after[prefix : len(after) - suffix]
        # one contiguous cut, or the only statement of a block replaced by `pass`
        assert [line.strip() for line in inserted] in ([], ["pass"]), inserted
        assert any(removed.strip() in line for line in gone), (removed, gone)


def test_range_and_const_expr_toggles() -> None:
    codes = {_edit("toggle_range", seed)[0] for seed in range(20)}
    assert any("for i in range(4):" in c for c in codes)
    assert any("for i in cutlass.range(4):" in c for c in codes)
    unwrapped = {_edit("toggle_const_expr", seed)[0] for seed in range(40)}
    assert any("if (n > 2):" in c for c in unwrapped)
    assert any("cutlass.const_expr(cutlass.const_expr(n > 2))" in c for c in unwrapped)


def test_a_case_is_the_same_mutant_every_time_and_cases_differ() -> None:
    sample = SAMPLES / "layernorm.py"
    first = [mutant_of(sample, 11, i) for i in range(12)]
    mutate._parsed.clear()  # as in a fresh process
    again = [mutant_of(sample, 11, i) for i in range(12)]
    assert first == again
    assert len({m.source for m in first}) >= 10
    assert all(1 <= len(m.mutations) <= 3 for m in first)
    assert all(m.source != sample.read_text() for m in first)


def test_a_case_does_not_depend_on_the_hash_seed() -> None:
    script = (
        "import hashlib, sys\n"
        "from pathlib import Path\n"
        "from bbx.tools.mutate import mutant_of\n"
        "h = hashlib.sha256()\n"
        "for i in range(8):\n"
        "    h.update(mutant_of(Path(sys.argv[1]), 5, i).source.encode())\n"
        "print(h.hexdigest())\n"
    )
    digests = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", script, str(SAMPLES / "softmax.py")],
            env=env, capture_output=True, text=True, check=True,
        ).stdout
        digests.add(out.strip())
    assert len(digests) == 1


def test_mutations_of_one_case_do_not_overlap() -> None:
    sample = SAMPLES / "cross_entropy.py"
    for index in range(40):
        mutant = mutant_of(sample, 3, index)
        cst.parse_module(mutant.source)
        assert 1 <= len(mutant.mutations) <= 3


def test_long_chains_have_the_length_they_say_and_hold_is_a_variable() -> None:
    lengths = set()
    for seed in range(60):
        code, description = _edit("long_chain", seed)
        count = int(description.split("a ", 1)[1].split("-term", 1)[0])
        lengths.add(count)
        chain = max(code.splitlines(), key=lambda line: len(line.split()))
        assert len(chain.split()) >= 2 * count - 1, (count, chain[:80])  # terms and operators
    assert {400, 4000} <= lengths
    held = [_edit("hold_in_variable", seed) for seed in range(30)]
    assert all("_held = " in code and code.count("_held") >= 2 for code, _ in held)
    assert any("cutlass.Float32" in code for code, _ in held)
