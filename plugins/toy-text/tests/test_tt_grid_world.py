"""GridWorld: the deep-dive article's env, against that article's Gymnasium implementation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from protogym_toy_text.grid_world import GridWorldEnv

import protogym
from protogym.spaces import Box, Dict

RolloutCheck = Callable[[Any, Any, Sequence[int], int], tuple[int, int]]


class ArticleGridWorld(gymnasium.Env[dict[str, Any], np.int64]):
    """The article's code (the deep-dive seed document `env-deep-dive.txt`), as the reference."""

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, size: int = 5, render_mode: str | None = None) -> None:
        self.size = size
        self.render_mode = render_mode
        self._agent_location = np.array([0, 0])
        self._target_location = np.array([size - 1, size - 1])
        self.observation_space = gymnasium.spaces.Dict(
            {
                "agent": gymnasium.spaces.Box(0, size - 1, shape=(2,), dtype=np.int64),
                "target": gymnasium.spaces.Box(0, size - 1, shape=(2,), dtype=np.int64),
            }
        )
        self.action_space = gymnasium.spaces.Discrete(4)

    def _get_obs(self) -> dict[str, Any]:
        return {"agent": self._agent_location, "target": self._target_location}

    def _get_info(self) -> dict[str, Any]:
        return {"distance": np.linalg.norm(self._agent_location - self._target_location, ord=1)}

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
        reward = 1.0 if terminated else 0.0
        return self._get_obs(), reward, terminated, False, self._get_info()


def _article_grid_world(**kwargs: Any) -> ArticleGridWorld:
    return ArticleGridWorld(**kwargs)


gymnasium.register("tt-test/GridWorld-v0", entry_point=_article_grid_world, max_episode_steps=200)


@pytest.mark.parametrize("size", [5, 2, 9])
@pytest.mark.parametrize("seed", [0, 31])
def test_tt_grid_world_parity_through_make(
    size: int, seed: int, same_rollout: RolloutCheck
) -> None:
    ours = protogym.make("GridWorld-v0", size=size)
    # The article returns its own arrays (Gymnasium's checker warns); ours returns copies.
    theirs = gymnasium.make("tt-test/GridWorld-v0", size=size, disable_env_checker=True)
    actions = [int(a) for a in np.random.default_rng(seed).integers(0, 4, 20_000)]
    terminated, truncated = same_rollout(ours, theirs, actions, seed)
    assert terminated > 10
    if size == 9:
        assert truncated > 0


def test_tt_grid_world_spaces() -> None:
    env = GridWorldEnv(size=6)
    assert env.observation_space == Dict(
        {
            "agent": Box(0, 5, shape=(2,), dtype=np.int64),
            "target": Box(0, 5, shape=(2,), dtype=np.int64),
        }
    )
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space
    assert protogym.registry["GridWorld-v0"].max_episode_steps == 200


def test_tt_grid_world_observations_are_copies() -> None:
    env = GridWorldEnv()
    obs, _ = env.reset(seed=2)
    obs["agent"][:] = 4
    obs["target"][:] = 0
    again, _, _, _, info = env.step(1)
    assert again["agent"].tolist() == [1, 0]
    assert info["distance"] == float(np.abs(again["agent"] - again["target"]).sum())


def test_tt_grid_world_moves_and_walls() -> None:
    env = GridWorldEnv(size=3)
    env.reset(seed=0)
    path = [env.step(a)[0]["agent"].tolist() for a in (3, 2, 0, 0, 0, 1, 1, 1)]
    assert path == [[0, 0], [0, 0], [0, 1], [0, 2], [0, 2], [1, 2], [2, 2], [2, 2]]


@pytest.mark.parametrize("size", [1, 2.5, True])
def test_tt_grid_world_rejects_bad_size(size: Any) -> None:
    with pytest.raises(ValueError, match=rf"^GridWorld size must be an int >= 2, got {size!r}$"):
        GridWorldEnv(size=size)


def test_tt_grid_world_ansi() -> None:
    env = GridWorldEnv(size=3, render_mode="ansi")
    obs, _ = env.reset(seed=4)
    tx, ty = obs["target"].tolist()
    rows = [["."] * 3 for _ in range(3)]
    rows[2 - ty][tx] = "T"
    rows[2][0] = "*" if (tx, ty) == (0, 0) else "A"
    assert env.render() == "\n".join(" ".join(row) for row in rows) + "\n"
