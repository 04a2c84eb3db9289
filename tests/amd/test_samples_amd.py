"""Every sample builds for gfx942 and gfx950 and its code object meets the basic budget: no
scratch, LDS within the target, the canonical f32 elementwise add moves 128-bit vectors; the
bundle is self-contained (repro.sh rebuilds the same code object without bbx)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from bbx.targets.amd import occupancy

from .conftest import ARCHS, CASES, Built, Case, bbx


def _param(case: Case, arch: str):
    marks = [pytest.mark.xfail(reason=case.xfail, strict=False)] if case.xfail else []
    return pytest.param(case, arch, id=f"{arch}-{case.id}", marks=marks)


PARAMS = [_param(c, a) for a in ARCHS for c in CASES]


def _built(amd_builds: dict[tuple[str, str], Built], case: Case, arch: str) -> Built:
    built = amd_builds[(case.id, arch)]
    assert built.build.returncode == 0, built.build.stderr[-6000:]
    assert built.report is not None and built.report["kernels"], "no kernel in the code object"
    return built


@pytest.mark.parametrize(("case", "arch"), PARAMS)
def test_sample_builds_without_scratch_within_lds(amd_builds, case: Case, arch: str) -> None:
    built = _built(amd_builds, case, arch)
    lds_limit = occupancy.limits(arch).lds_bytes_per_cu
    for kernel in built.report["kernels"]:
        assert kernel["arch"] == arch
        assert kernel["scratch_bytes"] == 0, kernel
        assert kernel["lds_bytes"] <= lds_limit, kernel
        assert kernel["waves_per_simd"] >= 1, kernel
        assert not any(m.startswith("scratch_") for m in kernel["instruction_mix"]), kernel


@pytest.mark.parametrize("arch", ARCHS)
def test_elementwise_add_moves_128_bit_vectors(amd_builds, arch: str) -> None:
    case = next(c for c in CASES if c.id == "elementwise_add")
    mix = _built(amd_builds, case, arch).report["kernels"][0]["instruction_mix"]
    assert mix.get("global_load_dwordx4", 0) >= 2, mix  # a and b
    assert mix.get("global_store_dwordx4", 0) >= 1, mix


def test_row_scale_shuffles_use_dpp_and_swizzle(amd_builds) -> None:
    case = next(c for c in CASES if c.id == "row_scale")
    mix = _built(amd_builds, case, "gfx942").report["kernels"][0]["instruction_mix"]
    # butterfly offsets 1, 2, 8 -> DPP; 4, 16 -> ds_swizzle (platform/amd.hpp)
    assert mix.get("v_mov_b32_dpp", 0) == 3 and mix.get("ds_swizzle_b32", 0) == 2, mix
    assert mix.get("global_load_dwordx4", 0) >= 1, mix


def test_bundle_manifest_and_code_object_version(amd_builds) -> None:
    case = next(c for c in CASES if c.id == "naive_add")
    built = _built(amd_builds, case, "gfx942")
    manifest = json.loads((built.bundle / "manifest.json").read_text())
    source = Path(manifest["source"]["path"])
    assert manifest["source"]["sha256"] == hashlib.sha256(source.read_bytes()).hexdigest()
    assert manifest["target"] == "gfx942" and manifest["code_object_version"] == 5
    assert manifest["args"][0] == {"name": "mA", "spec": "f32[?,?]:stride(?,1)@16"}
    (command,) = manifest["commands"]
    assert "-mcode-object-version=5" in command and "-Iinclude" in command
    assert not any(a.startswith("-I/") for a in command), command
    assert (built.bundle / "include" / "bbx" / "bbx.hpp").is_file()
    header = subprocess.run(["llvm-readelf-22", "-h", "--notes",
                             str(built.bundle / manifest["code_objects"][0])],
                            stdout=subprocess.PIPE, text=True).stdout
    assert "ABI Version:                       3" in header  # ELFABIVERSION_AMDGPU_HSA_V5
    assert "amdhsa.target:   amdgcn-amd-amdhsa--gfx942\n" in header  # xnack/sramecc "any"


def test_repro_script_rebuilds_the_same_code_object(amd_builds, tmp_path: Path) -> None:
    case = next(c for c in CASES if c.id == "row_scale")
    built = _built(amd_builds, case, "gfx950")
    copy = tmp_path / "bundle"
    shutil.copytree(built.bundle, copy)
    (code_object,) = json.loads((copy / "manifest.json").read_text())["code_objects"]
    original = (copy / code_object).read_bytes()
    (copy / code_object).unlink()
    proc = subprocess.run(["sh", str(copy / "repro.sh")], cwd=tmp_path, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env={"PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stdout
    assert (copy / code_object).read_bytes() == original


def test_inspect_prints_a_table(amd_builds) -> None:
    case = next(c for c in CASES if c.id == "naive_add")
    built = _built(amd_builds, case, "gfx942")
    proc = bbx("inspect", str(built.bundle))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "kernel bbx_gen::py_naive_add::naive_add_kernel"
    assert lines[1].split() == ["arch", "VGPR", "AGPR", "SGPR", "scratch", "LDS", "waves/SIMD"]
    assert lines[2].split()[0] == "gfx942" and lines[2].split()[-1] == "8"
    assert any(line.split()[0] == "global_store_dword" for line in lines[4:] if line.strip())


def test_every_sample_has_a_case() -> None:
    from .conftest import SAMPLES

    covered = {Path(c.function.split(":")[0]).stem for c in CASES}
    assert covered == {p.stem for p in SAMPLES.glob("*.py")}


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("sample", ["softmax", "rmsnorm", "layernorm", "cross_entropy"])
def test_predicated_row_loads_are_in_flight_together(amd_builds, sample: str, arch: str) -> None:
    """The reduction samples read a row tile with `cute.copy(..., pred=...)` into registers:
    the predicated vectors are branch-free conditional loads (arch::load_if), so a wave has
    several global loads in flight (FlyDSL's kernels keep 4) instead of a branch and a full wait
    per vector (1 in flight)."""
    case = next(c for c in CASES if c.id == sample)
    kernel = _built(amd_builds, case, arch).report["kernels"][0]
    assert kernel["memory"]["loads_in_flight"] >= 4, kernel["memory"]
