"""`check_environments_match`: two envs driven side by side, first difference named."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pytest

import protogym
from protogym.spaces import Box, Discrete
from protogym.utils.env_match import check_environments_match


class Walk(protogym.Env[Any, Any]):
    """A seeded random walk whose details a test can make differ from a twin's."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 10}
    action_space: Discrete
    observation_space: Box
    render_mode: str | None

    def __init__(self, render_mode: str | None = None, *, reward_scale: float = 1.0,
                 info: dict[str, Any] | None = None, end_at: int = 4, obs_high: float = 1.0,
                 frame: int = 0) -> None:
        self.render_mode = render_mode
        self.action_space = Discrete(2)
        self.observation_space = Box(0.0, obs_high, (1,), np.float32)
        self.reward_scale = reward_scale
        self.extra = info or {}
        self.end_at = end_at
        self.frame = frame
        self.t = 0

    def reset(self, *, seed: int | None = None, options: Any = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.t = 0
        return self.np_random.random(1).astype(np.float32), {"t": 0, **self.extra}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.t += 1
        obs = self.np_random.random(1).astype(np.float32)
        return obs, float(action) * self.reward_scale, self.t >= self.end_at, False, {
            "t": self.t, **self.extra}

    def render(self) -> Any:
        return np.full((2, 2, 3), self.frame + self.t, np.uint8)


def test_identical_envs_match_over_several_episodes() -> None:
    check_environments_match(Walk("rgb_array"), Walk("rgb_array"), num_steps=12, seed=3)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"reward_scale": 2.0}, r"the rewards of step \d+ \(action 1\) differ: 1.0 vs 2.0"),
    ({"end_at": 3}, r"terminated of step 2 \(action \d\) differs: False vs True"),
    ({"info": {"x": 1}}, "the infos of reset at the start differ"),
    ({"obs_high": 2.0}, "the observation spaces differ"),
])
def test_the_first_difference_is_named(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        check_environments_match(Walk(), Walk(**kwargs), num_steps=10, seed=0)


def test_frames_are_compared_only_when_both_render_arrays() -> None:
    with pytest.raises(AssertionError, match="the frames rendered after reset at the start"):
        check_environments_match(Walk("rgb_array"), Walk("rgb_array", frame=9), num_steps=2)
    check_environments_match(Walk("rgb_array"), Walk("rgb_array", frame=9), num_steps=2,
                             skip_render=True)
    check_environments_match(Walk(), Walk(frame=9), num_steps=2)  # no render_mode


def test_skips_and_info_comparisons() -> None:
    check_environments_match(Walk(), Walk(reward_scale=3.0), num_steps=6, skip_rew=True)
    check_environments_match(Walk(), Walk(end_at=2), num_steps=6, skip_terminal=True)
    check_environments_match(Walk(), Walk(info={"x": 1}), num_steps=6,
                             info_comparison="superset")
    check_environments_match(Walk(), Walk(info={"x": 1}), num_steps=6,
                             info_comparison="keys-superset")
    check_environments_match(Walk(info={"x": 2}), Walk(info={"x": 1}), num_steps=6,
                             info_comparison="keys-equivalence")
    check_environments_match(Walk(info={"y": 2}), Walk(info={"x": 1}), num_steps=6,
                             info_comparison="skip")
    with pytest.raises(AssertionError, match=r"info_b lacks the keys \['y'\]"):
        check_environments_match(Walk(info={"y": 2}), Walk(), num_steps=1,
                                 info_comparison="keys-superset")
    with pytest.raises(AssertionError, match="info_b lacks or differs at key 'y'"):
        check_environments_match(Walk(info={"y": 2}), Walk(), num_steps=1,
                                 info_comparison="superset")
    with pytest.raises(ValueError, match="info_comparison must be one of"):
        check_environments_match(Walk(), Walk(), 1, info_comparison="all")  # type: ignore[arg-type]


def test_a_made_env_matches_its_bare_class() -> None:
    from protogym_classic_control.cartpole import CartPoleEnv

    check_environments_match(protogym.make("CartPole-v1", disable_env_checker=True),
                             CartPoleEnv(), num_steps=30, seed=5, skip_truncated=True)
