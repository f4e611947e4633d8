"""Steps per second of every toy-text env through `make`, protogym against Gymnasium.

Both libraries get the same env id, the same seed and the same pre-drawn action sequence, and
both go through their own `make` (so the checker, order-enforcing and time-limit wrappers are
included, as a user would run them). An episode that ends is reset inside the timed loop.
`GridWorld-v0` has no Gymnasium twin, so it is timed against the deep-dive article's
reference implementation registered with Gymnasium for this run; `Taxi-v3` and
`CliffWalking-v0`, gone from Gymnasium 1.4, against the current versions.

Run: ``.venv/bin/python benchmarks/bench_toy_text.py [--steps N] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import protogym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, best_rate, print_rows
from results import from_row, table, write_results

TARGET = 3.0  # every toy-text env through make (issue 14)
ENV_IDS = (
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "Taxi-v3",
    "Taxi-v4",
    "CliffWalking-v0",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Blackjack-v1",
    "GridWorld-v0",
)
# Gymnasium 1.4 dropped Taxi-v3 and CliffWalking-v0; their default dynamics are those of the
# current versions, which stand in for them.
GYMNASIUM_ID = {
    "Taxi-v3": "Taxi-v4",
    "CliffWalking-v0": "CliffWalking-v1",
    "GridWorld-v0": "bench/GridWorld-v0",
}


class _ReferenceGridWorld(gymnasium.Env[dict[str, Any], np.int64]):
    """The deep-dive article's GridWorld, written against Gymnasium, as the baseline."""

    metadata = {"render_modes": [], "render_fps": 4}  # noqa: RUF012 - Gymnasium's spelling

    def __init__(self, size: int = 5) -> None:
        self.size = size
        self._agent_location = np.array([0, 0])
        self._target_location = np.array([size - 1, size - 1])
        box = gymnasium.spaces.Box(0, size - 1, shape=(2,), dtype=np.int64)
        self.observation_space = gymnasium.spaces.Dict({"agent": box, "target": box})
        self.action_space = gymnasium.spaces.Discrete(4)

    def _get_obs(self) -> dict[str, Any]:
        return {"agent": self._agent_location, "target": self._target_location}

    def _get_info(self) -> dict[str, Any]:
        gap = self._agent_location - self._target_location
        return {"distance": np.linalg.norm(gap, ord=1)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self._agent_location = np.array([0, 0])
        self._target_location = self.np_random.integers(0, self.size, size=2)
        return self._get_obs(), self._get_info()

    def step(self, action: np.int64) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        direction = {0: [0, 1], 1: [1, 0], 2: [0, -1], 3: [-1, 0]}[int(action)]
        self._agent_location = np.clip(self._agent_location + direction, 0, self.size - 1)
        terminated = bool(np.array_equal(self._agent_location, self._target_location))
        return self._get_obs(), 1.0 if terminated else 0.0, terminated, False, self._get_info()


def _stepper(env: Any, actions: list[int]) -> Callable[[], object]:
    """A closure doing one step per call, resetting when an episode ends."""
    env.reset(seed=0)
    position = 0
    count = len(actions)

    def work() -> None:
        nonlocal position
        _, _, terminated, truncated, _ = env.step(actions[position])
        position = (position + 1) % count
        if terminated or truncated:
            env.reset()

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="steps per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs, best is kept")
    args = parser.parse_args()
    # The article's GridWorld hands out its own position arrays; Gymnasium's checker says so
    # on every run. That is the reference's behaviour, not something this benchmark measures.
    warnings.filterwarnings("ignore", message=".*share an object")
    # Taxi-v3 and CliffWalking-v0 are measured on purpose; make's "out of date" note is noise.
    warnings.filterwarnings("ignore", message=".*is out of date", category=DeprecationWarning)
    gymnasium.register(
        "bench/GridWorld-v0",
        entry_point=lambda **kwargs: _ReferenceGridWorld(**kwargs),
        max_episode_steps=200,
    )
    rows = []
    for env_id in ENV_IDS:
        ours = protogym.make(env_id)
        theirs = gymnasium.make(GYMNASIUM_ID.get(env_id, env_id))
        n_actions = int(getattr(theirs.action_space, "n"))  # noqa: B009 - a Discrete space
        actions = [int(a) for a in np.random.default_rng(0).integers(0, n_actions, 4096)]
        ours_rate = best_rate(_stepper(ours, actions), args.steps, args.repeats)
        theirs_rate = best_rate(_stepper(theirs, actions), args.steps, args.repeats)
        rows.append(Row(f"{env_id} step (make)", "/s", ours_rate, theirs_rate, True, TARGET))
        ours.close()
        theirs.close()
    print_rows("toy-text: steps per second through make", rows)
    write_results(
        "toy_text", [table("steps per second through make", [from_row(row) for row in rows])],
        title="Toy text against Gymnasium 1.4",
    )


if __name__ == "__main__":
    main()
