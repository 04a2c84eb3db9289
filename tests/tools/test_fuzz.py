"""Fuzzing the translator: seeded mutants of the samples and of the upstream corpus must each
end in output or diagnostics, in time, identically in two processes of different hash seeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from bbx.tools.fuzz import main, render_report, run_fuzz, source_files
from bbx.tools.mutate import mutant_of

from .conftest import SAMPLES

SEED = 20260126
JOBS = 2


def _fuzz(inputs: list[Path], count: int) -> None:
    report = run_fuzz(source_files(inputs), seed=SEED, count=count, jobs=JOBS,
                      inputs=[str(p) for p in inputs])
    text = render_report(report)
    print(text)
    assert sum(report.counts.values()) == count, text
    assert report.failed == 0, text


def test_mutants_of_the_samples() -> None:
    _fuzz([SAMPLES], 300)


def test_mutants_of_the_upstream_corpus(corpus_dir: Path) -> None:
    _fuzz([corpus_dir], 100)


def test_a_case_runs_alone_and_dumps_its_mutant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = SAMPLES / "softmax.py"
    assert main([str(sample), "--seed", "5", "--count", "4", "--jobs", "2"]) == 0
    campaign = capsys.readouterr().out
    assert campaign.startswith("bbx fuzz: seed 5\n")
    assert main([str(sample), "--seed", "5", "--case", "3", "--dump", str(tmp_path)]) == 0
    alone = capsys.readouterr().out
    expected = mutant_of(sample, 5, 3)
    assert (tmp_path / "fuzz-5-3.py").read_text() == expected.source
    assert all(m in alone for m in expected.mutations)
    assert "mutants                 1" in alone and "mutants                 4" in campaign


def test_cases_over_the_time_limit_are_reported_hung_with_their_reproducer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = SAMPLES / "layernorm.py"
    code = main([str(sample), "--seed", "9", "--count", "3", "--timeout", "0.001",
                 "--dump", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "hung                    3" in out
    assert f"python -m bbx.tools.fuzz --seed 9 --case 0 {sample}" in out
    for index in range(3):
        assert (tmp_path / f"fuzz-9-{index}.py").read_text() == mutant_of(sample, 9, index).source
        assert "hung" in (tmp_path / f"fuzz-9-{index}.txt").read_text()
