"""`bbx corpus --staged`: each file imported as staged execution imports it (its driver not
run) and every jit function preprocessed; the outcomes counted as the table says."""

from __future__ import annotations

from pathlib import Path

from bbx.tools.corpus import render_table, run_corpus
from bbx.tools.outcome import CLEAN, CRASHED, HUNG, REFUSED

FILES = {
    # a kernel and a jit method of a class, with run-time control flow to rewrite
    "clean.py": """\
import cutlass
import cutlass.cute as cute


@cute.kernel
def scale_kernel(a: cute.Tensor, n: cutlass.Int32):
    i = cute.arch.thread_idx()[0]
    if i < n:
        a[i] = a[i] * 2.0


class Scaler:
    @cute.jit
    def __call__(self, a: cute.Tensor, n: cutlass.Int32):
        for _ in range(n):
            scale_kernel(a, n).launch(grid=(1, 1, 1), block=(32, 1, 1))


if __name__ == "__main__":
    raise SystemExit("the driver must not run")
""",
    # a jit function without source: the preprocessor cannot rewrite it
    "no_source.py": """\
import cutlass.cute as cute

namespace = {"cute": cute}
exec("@cute.jit\\ndef made(a):\\n    pass\\n", namespace)
made = namespace["made"]
""",
    "missing_module.py": """\
import cutlass.cute as cute
import a_package_nobody_has
""",
    "raises.py": """\
import cutlass.cute as cute

raise RuntimeError("module body fails")
""",
}


def test_staged_import_outcomes(tmp_path: Path) -> None:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    report = run_corpus(tmp_path, jobs=2, staged=True)
    by_path = {f.path: f for f in report.files}
    table = render_table(report)
    assert by_path["clean.py"].status == CLEAN, table
    assert by_path["no_source.py"].status == REFUSED, table
    assert [d["code"] for d in by_path["no_source.py"].diagnostics] == ["no-source"]
    assert by_path["missing_module.py"].status == REFUSED, table
    assert by_path["missing_module.py"].diagnostics[0]["what"] == (
        "no module named 'a_package_nobody_has'")
    assert by_path["raises.py"].status == CRASHED, table
    assert "RuntimeError: module body fails" in by_path["raises.py"].error
    assert report.count(HUNG) == 0
    assert "imported, every jit function preprocessed" in table
