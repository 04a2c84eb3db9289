"""The jobs a worker runs, each in a process of its own: translate a file, a source text, or a
mutant made from (seed, index, file), or import a file by staged execution's rules
(`staged_import`). Each returns the outcome dict of `outcome`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bbx.translate import TranslationResult, translate_file, translate_source

from . import mutate, staged_import
from .outcome import describe_exception, describe_result

#: status of a case whose mutant could not be made (a bug of the fuzzer, not the translator).
MUTATOR_ERROR = "mutator-error"


def prepare(task: dict[str, Any]) -> None:
    """Work done once per worker, before the job's process is forked, so that later jobs on
    the same file inherit it: parsing the file a mutant is made from."""
    if task["job"] == "mutant":
        try:
            mutate.parsed(Path(task["path"]))
        except Exception:  # noqa: BLE001 - the job itself reports it
            pass
    elif task["job"] == "staged-import":
        staged_import.prepare()


def run(task: dict[str, Any]) -> dict[str, Any]:
    job = task["job"]
    if job == "translate":
        return _translate(lambda: translate_file(task["path"], display_path=task["display"],
                                                 representative=True))
    if job == "staged-import":
        return staged_import.import_file(Path(task["path"]), Path(task["root"]))
    if job == "source":
        return _translate(lambda: _translate_text(task, task["source"]))
    if job == "mutant":
        try:
            mutant = mutate.mutant_of(Path(task["path"]), task["seed"], task["index"])
        except Exception as err:  # noqa: BLE001 - a bug of the mutator, reported as such
            outcome = describe_exception(err)
            outcome["status"] = MUTATOR_ERROR
            return outcome
        outcome = _translate(lambda: _translate_text(task, mutant.source))
        outcome["source"] = mutant.source
        outcome["mutations"] = list(mutant.mutations)
        return outcome
    raise ValueError(f"unknown job {job!r}")


def _translate_text(task: dict[str, Any], source: str) -> TranslationResult:
    path = Path(task["path"])
    return translate_source(source, path.name, display_path=task["display"], source_path=path,
                            representative=True)


def _translate(translation: Callable[[], TranslationResult]) -> dict[str, Any]:
    try:
        result = translation()
        return describe_result(result)
    except BaseException as err:  # noqa: BLE001 - anything escaping the translator is the finding
        return describe_exception(err)
