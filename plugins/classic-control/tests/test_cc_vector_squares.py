"""Batch squares equal the scalar `x ** 2` Gymnasium takes, bit for bit, on both paths.

numpy squares a float32 scalar with the C library's `powf` and Python a float with `pow`;
glibc's round some squares the other way from the correctly rounded `x * x`. The vector envs
square whole batches (`squares`): one by one for small batches, and for large ones correctly
rounded with only the elements near a rounding midpoint squared again. Both paths are tested
against the scalar power itself, on inputs where it is known to round the other way.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from protogym_classic_control.vector import squares

# float32 x whose glibc powf(x, 2) is not the correctly rounded square: Pendulum's torques at
# seed 3 (action seed 5), steps 1702 and 2041, others from [-2, 2], two with subnormal squares.
POWF_MISROUNDED = np.array(
    [0xBFDCC281, 0x3F49F5CE, 0x3BFE332F, 0x3D51B717, 0x3F2A2541, 0x3E01E494, 0x1AC00000,
     0x1B200000, 0x3FFFC313],
    dtype=np.uint32,
).view(np.float32)
# float64 x whose glibc pow(x, 2) is not the correctly rounded square.
POW_MISROUNDED = np.array(
    [-0.050802461226483374, 22.038760400443962, 0.03897594576868552, -0.012052554477915577,
     0.044347084840671465]
)


@pytest.fixture(params=["one by one", "batch"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each test runs on both paths, whatever the size of its input."""
    size = 10**9 if request.param == "one by one" else 0
    monkeypatch.setattr(squares, "POW_ONE_BY_ONE", size)
    monkeypatch.setattr(squares, "POWF_ONE_BY_ONE", size)
    yield request.param


def scalar_powf(x: np.ndarray) -> np.ndarray:
    return np.array([value**2 for value in x.ravel()], dtype=np.float32).reshape(x.shape)


def scalar_pow(x: np.ndarray) -> np.ndarray:
    """numpy's float64 scalar power, Gymnasium's (inf where a square overflows)."""
    with np.errstate(over="ignore"):
        return np.array([value**2 for value in x.ravel()]).reshape(x.shape)


def assert_bits(got: np.ndarray, expected: np.ndarray) -> None:
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.tobytes() == expected.tobytes(), (got, expected)


def test_the_pinned_inputs_are_misrounded_by_this_c_library() -> None:
    """What makes the other tests meaningful here: where this fails, the C library rounds
    these squares correctly and the tests below cannot tell the paths apart."""
    correct32 = (POWF_MISROUNDED.astype(np.float64) ** 2).astype(np.float32)
    if np.array_equal(scalar_powf(POWF_MISROUNDED), correct32):
        pytest.skip("this C library's powf rounds these squares correctly")
    assert not np.any(scalar_powf(POWF_MISROUNDED) == correct32)
    assert not np.any(scalar_pow(POW_MISROUNDED) == POW_MISROUNDED * POW_MISROUNDED)


def test_misrounded_squares_come_out_as_the_scalar_power_gives_them(path: str) -> None:
    x32 = np.concatenate([POWF_MISROUNDED, -POWF_MISROUNDED])
    assert_bits(squares.powf_squares(x32), scalar_powf(x32))
    x64 = np.concatenate([POW_MISROUNDED, -POW_MISROUNDED]).reshape(2, -1)
    assert_bits(squares.pow_squares(x64), scalar_pow(x64))


@pytest.mark.parametrize("seed", [0, 1])
def test_many_random_squares_equal_the_scalar_power(path: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x32 = rng.uniform(-2, 2, 50_000).astype(np.float32)
    assert_bits(squares.powf_squares(x32), scalar_powf(x32))
    x64 = rng.uniform(-40, 40, (3, 20_000)) * rng.choice([1e-6, 1e-3, 1.0], (3, 20_000))
    assert_bits(squares.pow_squares(x64), scalar_pow(x64))


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_zeros_tiny_and_huge_values_take_the_scalar_power(path: str) -> None:
    x64 = np.array([0.0, -0.0, 5e-324, 1e-160, 2.0**-484, 1e-300, 1e100, 1e150, 2.0, -8.0])
    assert_bits(squares.pow_squares(x64), scalar_pow(x64))
    overflowing = np.array([1e200, -3.0, -1e300])  # numpy's inf, where Python's ** raises
    assert_bits(squares.pow_squares(overflowing), np.array([np.inf, 9.0, np.inf]))
    x32 = np.array([0.0, -0.0, 1e-45, 1e-30, 1e-20, 2.0, -2.0], dtype=np.float32)
    assert_bits(squares.powf_squares(x32), scalar_powf(x32))


@settings(max_examples=60, deadline=None)
@given(
    x=hnp.arrays(np.float64, st.integers(1, 400),
                 elements=st.floats(-1e150, 1e150, allow_nan=False, allow_subnormal=True)),
    batch=st.booleans(),
)
def test_any_float64_batch_squares_as_pow_does(x: np.ndarray, batch: bool) -> None:
    one_by_one = squares.POW_ONE_BY_ONE
    try:
        squares.POW_ONE_BY_ONE = 0 if batch else 10**9
        assert_bits(squares.pow_squares(x), scalar_pow(x))
    finally:
        squares.POW_ONE_BY_ONE = one_by_one


@settings(max_examples=60, deadline=None)
@given(
    x=hnp.arrays(np.float32, st.integers(1, 400),
                 elements=st.floats(-2, 2, width=32, allow_subnormal=True)),
    batch=st.booleans(),
)
def test_any_float32_torque_batch_squares_as_powf_does(x: np.ndarray, batch: bool) -> None:
    one_by_one = squares.POWF_ONE_BY_ONE
    try:
        squares.POWF_ONE_BY_ONE = 0 if batch else 10**9
        assert_bits(squares.powf_squares(x), scalar_powf(x))
    finally:
        squares.POWF_ONE_BY_ONE = one_by_one


def compile_margin_program(tmp_path: Path) -> Callable[[Path], str]:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler to build powf_square_margin.c")
    source = Path(__file__).with_name("powf_square_margin.c")
    program = tmp_path / "powf_square_margin"
    subprocess.run(
        [compiler, "-O2", "-fno-builtin", str(source), "-o", str(program), "-lm"], check=True
    )

    def run(mismatches: Path) -> str:
        done = subprocess.run([str(program), str(mismatches)], check=True, capture_output=True)
        return done.stdout.decode()

    return run


@pytest.mark.slow
def test_every_float32_torque_that_powf_misrounds_is_within_the_margin(tmp_path: Path) -> None:
    """All 2**31 float32 in [-2, 2]: powf's misrounded squares lie within POWF_MARGIN of a
    midpoint, and the batch path gives every one of them as powf does (about a minute)."""
    run = compile_margin_program(tmp_path)
    mismatches = tmp_path / "mismatches.f32"
    report = run(mismatches)
    found = re.fullmatch(r"tried (\d+) differ (\d+) farthest (\S+)\n", report)
    assert found, report
    tried, differ, farthest = int(found[1]), int(found[2]), float(found[3])
    assert tried == 2 * (0x40000000 + 1)
    assert farthest < squares.POWF_MARGIN
    x: Any = np.fromfile(mismatches, dtype=np.float32)
    assert x.size == differ
    if differ:
        old = squares.POWF_ONE_BY_ONE
        try:
            squares.POWF_ONE_BY_ONE = 0
            assert_bits(squares.powf_squares(x), scalar_powf(x))
        finally:
            squares.POWF_ONE_BY_ONE = old
