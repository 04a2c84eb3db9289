"""NVIDIA's flash_attention_v2.py (unmodified, the corpus) by staged execution on the simulator:
its softmax reads NVIDIA's m16n8 accumulator layout (acc.shape[0][0], quad xor-shuffles, P reused
as an A operand), so its warp MMA runs in the m16n8-exact mode (bbx.trace.mma_exact_tiled); the
script's own check against torch must pass (issue 28): fp16 and bf16, causal and not, head_dim 64
and 128, a ragged key length. The corpus is looked up as in test_upstream_scripts.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("BBX_CUTLASS_CORPUS", ROOT.parent / "shared" / "corpus" / "cutlass"))
SCRIPT = CORPUS / "cute" / "ampere" / "kernel" / "attention" / "flash_attention_v2.py"
COMMON = ["--batch_size", "1", "--num_head", "1", "--n_block_size", "64",
          "--warmup_iterations", "0", "--iterations", "1"]


@pytest.mark.skipif(not SCRIPT.is_file(), reason=f"no {SCRIPT}")
@pytest.mark.parametrize("args", [
    pytest.param(["--dtype", "Float16", "--head_dim", "64", "--seqlen_q", "64", "--seqlen_k", "64",
                  "--m_block_size", "64", "--is_causal"], id="fp16-d64-causal"),
    pytest.param(["--dtype", "BFloat16", "--head_dim", "128", "--seqlen_q", "128",
                  "--seqlen_k", "96", "--m_block_size", "128"], id="bf16-d128-ragged"),
])
def test_flash_attention_v2_passes_staged(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "BBX_TARGET": "cpu", "BBX_CACHE_DIR": str(tmp_path), "BBX_STAGED": "1"}
    env.pop("BBX_CUDA_STANDIN", None)
    done = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(SCRIPT), *COMMON, *args],
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-6000:]
    assert "Results verified successfully!" in done.stdout and "PASS" in done.stdout
    emitted = "\n".join(p.read_text() for p in tmp_path.rglob("*.hip"))
    assert "gemm_m16n8_exact<" in emitted and "arch::shuffle_sync_bfly<true>(" in emitted
