"""`protogym.utils.performance`: what each probe calls and how it counts, on a fake clock."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.utils import performance
from protogym.vector import SyncVectorEnv


class FakeClock:
    """`time.time` that advances one second every `every` readings."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.readings = 0

    def __call__(self) -> float:
        now = float(self.readings // self.every)
        self.readings += 1
        return now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    fake = FakeClock(every=4)
    monkeypatch.setattr("protogym.utils.performance.time.time", fake)
    yield fake


class Counter:
    """Records calls; its episodes end every third step."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.action_space = protogym.spaces.Discrete(2)
        self.steps = 0

    def reset(self, *, seed: int | None = None, options: Any = None) -> tuple[int, dict[str, Any]]:
        self.calls.append(f"reset({seed})")
        return 0, {}

    def step(self, action: Any) -> tuple[int, float, bool, bool, dict[str, Any]]:
        self.steps += 1
        self.calls.append("step")
        return 0, 0.0, self.steps % 3 == 0, False, {}

    def render(self) -> None:
        self.calls.append("render")


def test_benchmark_step_counts_steps_over_the_elapsed_time(clock: FakeClock) -> None:
    env = Counter()
    # Readings 0-3 are second 0 (the start and three steps), reading 4 is second 1.
    assert performance.benchmark_step(env, target_duration=0.5, seed=7) == 4.0
    assert env.calls == ["reset(7)", "step", "step", "step", "reset(None)", "step"]


def test_benchmark_init_builds_and_resets(clock: FakeClock) -> None:
    built: list[Counter] = []

    def build() -> Counter:
        built.append(Counter())
        return built[-1]

    assert performance.benchmark_init(build, target_duration=0.5, seed=3) == 4.0
    assert len(built) == 4 and all(env.calls == ["reset(3)"] for env in built)


def test_benchmark_render(clock: FakeClock) -> None:
    env = Counter()
    assert performance.benchmark_render(env, target_duration=0.5) == 4.0
    assert env.calls == ["render"] * 4


@pytest.mark.parametrize(("mode", "expected"), [
    ("next_step", 4.0),  # every other step only resets the ended sub-envs: not counted
    ("same_step", 8.0),
    ("disabled", 8.0),
])
def test_benchmark_vector_step_counts_sub_env_steps(
    clock: FakeClock, mode: str, expected: float
) -> None:
    envs = SyncVectorEnv([lambda: protogym.make("CartPole-v1", max_episode_steps=1)] * 2,
                         autoreset_mode=mode)
    try:
        assert performance.benchmark_vector_step(envs, target_duration=0.5, seed=0) == expected
    finally:
        envs.close()


def test_benchmarks_run_for_real_time() -> None:
    env = protogym.make("CartPole-v1")
    rate = performance.benchmark_step(env, target_duration=0.05, seed=0)
    assert rate > 100
    drawn = protogym.make("CartPole-v1", render_mode="rgb_array")
    drawn.reset(seed=0)
    assert np.isfinite(performance.benchmark_render(drawn, target_duration=0.02))
