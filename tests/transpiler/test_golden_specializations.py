"""Golden specializations: the C++ that staged execution (`BBX_STAGED=1`) makes of each sample
for one set of arguments, compared byte for byte with `tests/golden/specializations/`. Each
golden file names the `bbx translate FILE.py:NAME ...` command that makes it again; this list
adds the `--init` arguments of class-based samples, which a header cannot know.

Regenerate them all, after an intended change, from the repository root:

    python tests/transpiler/test_golden_specializations.py

and review the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
GOLDEN = ROOT / "tests" / "golden" / "specializations"
REGEN = "python tests/transpiler/test_golden_specializations.py"

ROW_1000 = "f32[?,1000]:stride(1000,1)@16"
WEIGHT_1000 = "f32[1,1000]:stride(1,1)@16"
ADD = "f32[?,?]:stride(?,1)@16"
VECTOR = "f32[32768]:stride(1)"

#: (golden file, sample:function, the command's other words)
SPECIALIZATIONS: list[tuple[str, str, list[str]]] = [
    ("cross_entropy.cpu.hip", "cross_entropy.py:CrossEntropy",
     ["--init", "n=1000", "--arg", "f32[?]:stride(1)", "--arg", ROW_1000,
      "--arg", "i64[?]:stride(1)"]),
    ("dynamic_control.cpu.hip", "dynamic_control.py:row_stats",
     ["--arg", "f32[64,37]:stride(37,1)", "--arg", "f32[64,3]:stride(3,1)", "--arg", "f32",
      "--arg", "f32"]),
    ("elementwise_add.cpu.hip", "elementwise_add.py:elementwise_add",
     ["--arg", ADD, "--arg", ADD, "--arg", ADD, "--const", "copy_bits=128"]),
    ("elementwise_add.gfx942.hip", "elementwise_add.py:elementwise_add",
     ["--target", "gfx942", "--arg", ADD, "--arg", ADD, "--arg", ADD]),
    ("elementwise_add.cuda.hip", "elementwise_add.py:elementwise_add",
     ["--target", "cuda", "--arg", ADD, "--arg", ADD, "--arg", ADD]),
    ("elementwise_apply.multiply.cpu.hip", "elementwise_apply.py:multiply",
     ["--arg", VECTOR, "--arg", VECTOR, "--arg", VECTOR]),
    ("elementwise_apply.scaled_add.cpu.hip", "elementwise_apply.py:scaled_add",
     ["--arg", VECTOR, "--arg", VECTOR, "--arg", VECTOR]),
    ("hello_world.cpu.hip", "hello_world.py:hello_world", ["--arg", "i32"]),
    ("layernorm.cpu.hip", "layernorm.py:LayerNorm",
     ["--init", "dtype=cutlass.Float32", "--init", "n=1000", "--arg", ROW_1000,
      "--arg", ROW_1000, "--arg", WEIGHT_1000, "--arg", WEIGHT_1000, "--arg", "f32"]),
    ("naive_add.cpu.hip", "naive_add.py:naive_add",
     ["--arg", "f32[64,96]:stride(96,1)", "--arg", "f32[64,96]:stride(96,1)",
      "--arg", "f32[64,96]:stride(96,1)"]),
    ("rmsnorm.cpu.hip", "rmsnorm.py:RMSNorm",
     ["--init", "n=1000", "--arg", ROW_1000, "--arg", ROW_1000, "--arg", WEIGHT_1000,
      "--arg", "f32"]),
    ("row_scale.cpu.hip", "row_scale.py:RowScale",
     ["--init", "n=256", "--arg", "f32[8,256]:stride(256,1)", "--arg", "f32[8,256]:stride(256,1)",
      "--arg", "f32"]),
    ("softmax.cpu.hip", "softmax.py:Softmax",
     ["--init", "n=1000", "--arg", ROW_1000, "--arg", ROW_1000]),
    ("softmax.online.gfx950.hip", "softmax.py:Softmax",
     ["--target", "gfx950", "--init", "n=1000", "--init", "online=True", "--arg", ROW_1000,
      "--arg", ROW_1000]),
    ("specialize.cpu.hip", "specialize.py:specialize",
     ["--arg", "f32[8192]:stride(1)", "--arg", "f32[8192]:stride(1)", "--arg", "f32",
      "--const", "mode='relu'", "--const", "passes=2"]),
]


def _command(source: str, words: list[str], output: Path, check: bool) -> list[str]:
    target = [] if "--target" in words else ["--target", "cpu"]
    return ["translate", str(SAMPLES / source), *target, *words, "-o", str(output),
            *(["--check"] if check else [])]


def test_every_sample_has_a_golden_specialization() -> None:
    covered = {source.split(".py:")[0] for _, source, _ in SPECIALIZATIONS}
    assert covered == {p.stem for p in SAMPLES.glob("*.py")}


@pytest.mark.parametrize(("golden", "source", "words"), SPECIALIZATIONS,
                         ids=[g.removesuffix(".hip") for g, _, _ in SPECIALIZATIONS])
def test_golden_specialization(golden: str, source: str, words: list[str],
                               capsys: pytest.CaptureFixture[str]) -> None:
    from bbx.cli.main import main

    path = GOLDEN / golden
    assert path.exists(), f"missing {path}; regenerate with `{REGEN}`"
    status = main(_command(source, words, path, check=True))
    assert status == 0, (f"{golden} is stale; regenerate with `{REGEN}` and review the diff\n"
                         f"{capsys.readouterr().err[-3000:]}")
    # the header's command names what this list says (the --init arguments aside)
    header = path.read_text(encoding="utf-8").split("#pragma once")[0]
    assert f"`bbx translate {source} " in header


def regenerate() -> int:
    from bbx.cli.main import main

    GOLDEN.mkdir(parents=True, exist_ok=True)
    for stale in GOLDEN.glob("*.hip"):
        stale.unlink()
    failed = 0
    for golden, source, words in SPECIALIZATIONS:
        if main(_command(source, words, GOLDEN / golden, check=False)) != 0:
            print(f"{golden}: failed", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(regenerate())
