"""``bbx run``: the script runs as __main__ with the hook; bbx errors print without traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = '''
import sys
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.jit
def noop(x: cute.Tensor):
    pass


if __name__ == "__main__":
    t = from_dlpack(torch.zeros(4, 8), assumed_align=16).mark_layout_dynamic()
    print("argv", sys.argv[1:])
    print("spec", t.bbx_arg_spec(), cutlass.Int32(7), cutlass.Float16.width)
    if "--fail-bbx" in sys.argv:
        from_dlpack(torch.zeros(2, 2)).mark_layout_dynamic(leading_dim=0)
    if "--fail-other" in sys.argv:
        raise KeyError("plain user error")
    if "--exit" in sys.argv:
        sys.exit(3)
    if "--cuda" in sys.argv:
        print("cuda", torch.cuda.is_available(), torch.ones(1, device="cuda").device.type)
'''


def _bbx_run(tmp_path: Path, *args: str, source: str = SCRIPT,
             env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "script.py"
    script.write_text(source)
    code = ("import sys, torch; from bbx.cli.run_command import main; rc = main(sys.argv[1:]); "
            "print('after', torch.cuda.is_available()); sys.exit(rc)")
    env = {**os.environ, "BBX_FORCE_SHIM": "1", **(env_extra or {})}
    return subprocess.run([sys.executable, "-c", code, str(script), *args], capture_output=True,
                          text=True, env=env, timeout=120, check=False)


def test_runs_script_as_main_with_args(tmp_path: Path) -> None:
    done = _bbx_run(tmp_path, "a", "--b")
    assert done.returncode == 0, done.stderr
    assert "argv ['a', '--b']" in done.stdout
    assert "spec f32[?,?]:stride(?,1)@16:cpu Int32(7) 16" in done.stdout


def test_bbx_errors_print_without_traceback(tmp_path: Path) -> None:
    done = _bbx_run(tmp_path, "--fail-bbx")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "bbx: expected strides[leading_dim] == 1, but got 2" in done.stderr


def test_other_errors_keep_their_traceback(tmp_path: Path) -> None:
    done = _bbx_run(tmp_path, "--fail-other")
    assert done.returncode == 1
    assert "Traceback" in done.stderr and "KeyError: 'plain user error'" in done.stderr


def test_exit_code_and_missing_script(tmp_path: Path) -> None:
    assert _bbx_run(tmp_path, "--exit").returncode == 3
    from bbx.cli import run_command

    parser_ns = type("NS", (), {"script": str(tmp_path / "nope.py"), "args": []})()
    assert run_command.run(parser_ns) == 2  # type: ignore[arg-type]


def test_add_parser_wires_handler() -> None:
    import argparse

    from bbx.cli import run_command

    parser = argparse.ArgumentParser(prog="bbx")
    run_command.add_parser(parser.add_subparsers(dest="command"))
    ns = parser.parse_args(["run", "s.py", "x", "--flag"])
    assert ns.script == "s.py" and ns.args == ["x", "--flag"] and ns.handler is run_command.run


def test_cuda_standin_on_the_simulator_only_while_the_script_runs(tmp_path: Path) -> None:
    done = _bbx_run(tmp_path, "--cuda", env_extra={"BBX_TARGET": "cpu"})
    assert done.returncode == 0, done.stderr
    assert "cuda True cpu" in done.stdout and "after False" in done.stdout
    done = _bbx_run(tmp_path, "--cuda", env_extra={"BBX_TARGET": "cpu", "BBX_CUDA_STANDIN": "0"})
    assert done.returncode == 1 and "Torch not compiled with CUDA enabled" in done.stderr


def test_trace_errors_of_the_script_print_without_traceback(tmp_path: Path) -> None:
    bad = (
        "import cutlass\nimport cutlass.cute as cute\n\n\n@cute.kernel\ndef k(x: cute.Tensor):\n"
        "    rank = cute.arch.block_idx_in_cluster()\n"  # NVIDIA-only, on every path
        "\n\n@cute.jit\ndef launch(x: cute.Tensor):\n"
        "    k(x).launch(grid=(1, 1, 1), block=(32, 1, 1))\n\n\n"
        "import torch\nfrom cutlass.cute.runtime import from_dlpack\n"
        "launch(from_dlpack(torch.randn(64)))\n"  # the error surfaces when `k` is traced
    )
    done = _bbx_run(tmp_path, source=bad, env_extra={"BBX_TARGET": "cpu"})
    assert done.returncode == 1
    assert "Traceback" not in done.stderr, done.stderr
    assert f"{tmp_path / 'script.py'}:7:" in done.stderr and "error:" in done.stderr
