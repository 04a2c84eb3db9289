"""Translation speed: builds a ~1,500-line CuTe-DSL module from renamed copies of the samples and
times `bbx` translating it (target: under 2 s).

    python benchmarks/translate_speed.py [--lines 1500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from bbx.translate import translate_source

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
IMPORTS = (
    "import argparse\nimport math\nimport operator\n\nimport cutlass\nimport cutlass.cute as cute\n"
)


def _dsl_part(source: str) -> str:
    """The sample without its imports and `__main__` driver."""
    body = source.split("\ndef main()")[0]
    return "\n".join(
        line for line in body.splitlines() if not line.startswith(("import ", "from "))
    )


def build_module(target_lines: int) -> str:
    parts = [IMPORTS]
    samples = sorted(SAMPLES.glob("*.py"))
    copy = 0
    while sum(p.count("\n") for p in parts) < target_lines:
        for sample in samples:
            text = _dsl_part(sample.read_text())
            names = re.findall(r"^(?:def|class) (\w+)", text, flags=re.M)
            names += re.findall(r"^([A-Z_]+) = ", text, flags=re.M)
            for name in sorted(set(names), key=len, reverse=True):
                text = re.sub(rf"\b{name}\b", f"{name}_{copy}", text)
            parts.append(text)
        copy += 1
    return "\n\n".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=1500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    source = build_module(args.lines)
    lines = source.count("\n") + 1
    best = float("inf")
    result = None
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = translate_source(source, "bench.py")
        best = min(best, time.perf_counter() - start)
    assert result is not None
    if not result.ok:
        print(result.render_diagnostics(), file=sys.stderr)
        return 1
    out_lines = result.text.count("\n") if result.text else 0
    print(
        f"translated {lines} Python lines ({len(result.functions)} functions) into "
        f"{out_lines} C++ lines in {best:.3f} s (best of {args.repeat})"
    )
    return 0 if best < 2.0 else 2


if __name__ == "__main__":
    sys.exit(main())
