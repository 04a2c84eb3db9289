"""How a translation's end is classified: by real translations, and by an internal-error
diagnostic carrying the translator's traceback (as the translator writes it with BBX_DEBUG=1)."""

from __future__ import annotations

import textwrap

from bbx.diagnostics import Diagnostic
from bbx.tools.outcome import (
    CLEAN,
    CRASHED,
    REFUSED,
    WARNINGS,
    describe_exception,
    describe_result,
    signature,
)
from bbx.translate import TranslationResult, translate_source

KERNEL = """\
import cutlass.cute as cute


@cute.kernel
def k(a: cute.Tensor):
    a[0] = a[1]
"""


def test_real_translations_are_clean_warned_or_refused() -> None:
    clean = describe_result(translate_source(KERNEL, "k.py"))
    warned = describe_result(translate_source("x = 1\n", "host.py"))
    with_try = KERNEL.replace("a[0] = a[1]", "try:\n        pass\n    finally:\n        pass")
    refused = describe_result(translate_source(with_try, "t.py"))
    assert (clean["status"], warned["status"], refused["status"]) == (CLEAN, WARNINGS, REFUSED)
    assert clean["diagnostics"] == [] and clean["digest"]
    assert [d["severity"] for d in warned["diagnostics"]] == ["warning"]
    assert any(d["severity"] == "error" for d in refused["diagnostics"])
    assert clean["digest"] == describe_result(translate_source(KERNEL, "k.py"))["digest"]
    assert clean["digest"] != describe_result(translate_source(KERNEL + "\n", "k.py"))["digest"]


def _internal(hint: str) -> TranslationResult:
    what = "internal error: KeyError: 'x' \u2014 please report"
    result = TranslationResult("m.py", KERNEL, None)
    result.diagnostics = [Diagnostic("m.py", 6, 5, "internal-error", what, hint)]
    return result


def test_an_internal_error_is_a_crash_located_in_the_translator() -> None:
    traceback_text = textwrap.dedent(f'''\
        Traceback (most recent call last):
          File "{translate_source.__code__.co_filename}", line 10, in translate_source
            x()
          File "/usr/lib/python3.11/json/decoder.py", line 5, in decode
            y()
        KeyError: 'x'
    ''')
    outcome = describe_result(_internal(traceback_text))
    assert outcome["status"] == CRASHED and outcome["crash"] == "internal-error"
    assert outcome["error"] == "KeyError: 'x'"
    assert outcome["at"] == "m.py:6:5"
    assert outcome["where"] == "bbx/translate.py:10 in translate_source"
    assert signature(outcome) == "KeyError at bbx/translate.py:10 in translate_source"
    plain = describe_result(_internal("set BBX_DEBUG=1 to see the Python traceback"))
    assert plain["where"] == "" and signature(plain) == "KeyError: 'x'"


def test_no_output_and_no_error_is_a_silent_crash() -> None:
    outcome = describe_result(TranslationResult("m.py", KERNEL, None))
    assert outcome["status"] == CRASHED and outcome["crash"] == "silent"


def test_an_escaped_exception_names_its_innermost_translator_frame() -> None:
    try:  # a real exception raised inside the `bbx` package
        Diagnostic("m.py", 1, 1, "code", "what").render([None])  # type: ignore[list-item]
    except AttributeError as err:
        outcome = describe_exception(err)
    assert outcome["status"] == CRASHED and outcome["crash"] == "exception"
    assert outcome["error"].startswith("AttributeError: ")
    assert outcome["where"].startswith("bbx/diagnostics.py:")
    assert outcome["where"].endswith(" in render")
    assert "Traceback" in outcome["traceback"]
