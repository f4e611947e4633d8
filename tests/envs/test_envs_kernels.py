"""The bit-for-bit tests pass whichever numerical kernels the processor selects.

numpy dispatches its loops on the processor's features and OpenBLAS picks a kernel per
processor, so a value through `np.linalg.norm` or a SIMD loop can differ in its last bit
between machines. The golden and parity tests compare such values live against the reference
library, never a recording's rounding. To keep it so, they run here again in child processes
under other kernels, selected on this machine: numpy without its dispatched targets above
x86-64-v3 (what an AVX2 processor without AVX-512 gets) and OpenBLAS forced to its Haswell
kernel; then OpenBLAS's SSE-only Nehalem kernel with Mesa's rasterizer at 128-bit vectors.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# x86-64-v3 is AVX2 with FMA: numpy's dispatched targets above it are AVX-512 ones.
_AVX2_OR_LOWER = ("X86_V2", "X86_V3", "AVX", "AVX2", "FMA3", "F16C", "SSE41", "SSE42")

GOLDEN_AND_PARITY_TESTS = {
    "mujoco goldens": ["plugins/mujoco/tests/test_mujoco_goldens.py"],
    "mujoco vector and terms": [
        "plugins/mujoco/tests/test_mujoco_vector.py",
        "plugins/mujoco/tests/test_mujoco_terms.py",
    ],
    "classic control": [
        "plugins/classic-control/tests/test_cc_parity.py",
        "plugins/classic-control/tests/test_cc_cartpole_same_step.py",
    ],
    "box2d and atari goldens": [
        "plugins/box2d/tests/test_box2d_lunar_lander.py",
        "plugins/box2d/tests/test_box2d_lunar_lander_v2.py",
        "plugins/box2d/tests/test_box2d_bipedal_walker.py",
        "plugins/atari/tests/test_atari_goldens.py",
    ],
    "first-party ids": ["tests/envs/test_envs_bit_fidelity.py"],
}

_REPORT_KERNELS = """
import ctypes, glob, os
import numpy
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
libs = glob.glob(os.path.join(os.path.dirname(numpy.__file__) + ".libs", "*openblas*"))
corename = None
for path in libs:
    lib = ctypes.CDLL(path)
    for symbol in ("scipy_openblas_get_corename64_", "openblas_get_corename64_",
                   "openblas_get_corename"):
        if hasattr(lib, symbol):
            function = getattr(lib, symbol)
            function.restype = ctypes.c_char_p
            corename = function().decode()
print(corename)
print(" ".join(name for name in __cpu_dispatch__ if __cpu_features__.get(name)))
"""


def _dispatched_above_avx2() -> list[str]:
    """numpy's dispatch targets that this processor has beyond AVX2 (none on an AVX2 one)."""
    script = (
        "from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__\n"
        "print(' '.join(n for n in __cpu_dispatch__ if __cpu_features__.get(n)))"
    )
    found = subprocess.run(
        [sys.executable, "-c", script],
        env={k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.split()
    return [name for name in found if name not in _AVX2_OR_LOWER]


def _settings() -> dict[str, dict[str, str]]:
    above = _dispatched_above_avx2()
    avx2 = {"OPENBLAS_CORETYPE": "Haswell"}
    if above:
        avx2["NPY_DISABLE_CPU_FEATURES"] = " ".join(above)
    return {
        "avx2": avx2,
        "sse": {"OPENBLAS_CORETYPE": "Nehalem", "LP_NATIVE_VECTOR_WIDTH": "128"},
    }


SETTINGS = _settings()


def _child_env(setting: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES", "PYTEST_XDIST_WORKER")
    }
    env.update(MUJOCO_GL="egl", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.update(SETTINGS[setting])
    return env


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_each_setting_selects_other_kernels(setting: str) -> None:
    """The settings take effect: OpenBLAS names the forced kernel, and numpy has no dispatch
    target above AVX2 left."""
    report = subprocess.run(
        [sys.executable, "-c", _REPORT_KERNELS],
        env=_child_env(setting),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.splitlines()
    corename, dispatched = report[0], report[1].split()
    assert corename == SETTINGS[setting]["OPENBLAS_CORETYPE"]
    if setting == "avx2":
        assert not [name for name in dispatched if name not in _AVX2_OR_LOWER]


@pytest.mark.slow
@pytest.mark.parametrize("group", sorted(GOLDEN_AND_PARITY_TESTS))
@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_golden_and_parity_tests_pass_under_other_kernels(setting: str, group: str) -> None:
    result = subprocess.run(
        [
            sys.executable, "-m", "pytest", *GOLDEN_AND_PARITY_TESTS[group],
            "-q", "-x", "-m", "not slow", "-p", "no:cacheprovider", "-p", "no:xdist",
        ],
        cwd=ROOT,
        env=_child_env(setting),
        capture_output=True,
        text=True,
        timeout=900,
    )
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, (
        f"under {SETTINGS[setting]}: {summary}\n{result.stdout[-4000:]}\n{result.stderr[-2000:]}"
    )
    assert " passed" in summary and "failed" not in summary, summary
