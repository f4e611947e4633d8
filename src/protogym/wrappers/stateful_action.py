"""Action wrappers that keep state across steps: sticky actions and action repeats."""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np

from protogym.core import ActionWrapper, ActType, Env, ObsType, Wrapper
from protogym.error import InvalidBound, InvalidProbability
from protogym.wrappers.utils import check_positive_int

__all__ = ["RepeatAction", "StickyAction"]


class StickyAction(ActionWrapper[ObsType, ActType, ActType]):
    """With probability `repeat_action_probability`, repeats the previous action instead.

    A repeat lasts `repeat_action_duration` steps (an int, or a `(low, high)` range drawn
    from uniformly), as in Machado et al. 2018. Draws come from the env's `np_random`, so a
    seeded reset gives the same sticky steps as Gymnasium.
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        repeat_action_probability: float,
        repeat_action_duration: int | tuple[int, int] = 1,
    ) -> None:
        if not 0 <= repeat_action_probability < 1:
            raise InvalidProbability(
                "StickyAction: repeat_action_probability must be in [0, 1), got "
                f"{repeat_action_probability}"
            )
        if isinstance(repeat_action_duration, int | np.integer):
            duration = (repeat_action_duration, repeat_action_duration)
        elif isinstance(repeat_action_duration, tuple) and len(repeat_action_duration) == 2:
            duration = (repeat_action_duration[0], repeat_action_duration[1])
        else:
            raise ValueError(
                "StickyAction: repeat_action_duration must be an int or a (low, high) tuple, "
                f"got {repeat_action_duration!r}"
            )
        low = check_positive_int("StickyAction", "repeat_action_duration", duration[0])
        high = check_positive_int("StickyAction", "repeat_action_duration", duration[1])
        if low > high:
            raise InvalidBound(
                f"StickyAction: repeat_action_duration range {duration} has low > high"
            )
        super().__init__(env)
        self.repeat_action_probability = repeat_action_probability
        self.repeat_action_duration_range = (low, high)
        self.last_action: ActType | None = None
        self.is_sticky_actions = False
        self.num_repeats = 0
        self.repeats_taken = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        self.last_action = None
        self.is_sticky_actions = False
        self.num_repeats = 0
        self.repeats_taken = 0
        return self.env.reset(seed=seed, options=options)

    def action(self, action: ActType) -> ActType:
        if self.is_sticky_actions or (
            self.last_action is not None
            and self.np_random.uniform() < self.repeat_action_probability
        ):
            if self.num_repeats == 0:
                low, high = self.repeat_action_duration_range
                self.num_repeats = int(self.np_random.integers(low, high + 1))
            action = self.last_action  # type: ignore[assignment]  # not None: see above
            self.is_sticky_actions = True
            self.repeats_taken += 1
        if self.is_sticky_actions and self.num_repeats == self.repeats_taken:
            self.is_sticky_actions = False
            self.num_repeats = 0
            self.repeats_taken = 0
        self.last_action = action
        return action


class RepeatAction(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Steps the inner env `num_repeats` times per action, summing the rewards.

    Stops early when the episode ends; the last observation, flags and info are returned.
    """

    def __init__(self, env: Env[ObsType, ActType], num_repeats: int) -> None:
        self.num_repeats = check_positive_int("RepeatAction", "num_repeats", num_repeats)
        super().__init__(env)

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        step = self.env.step
        total = 0.0
        for _ in range(self.num_repeats):
            obs, reward, terminated, truncated, info = step(action)
            total += float(reward)
            if terminated or truncated:
                break
        return obs, total, terminated, truncated, info
