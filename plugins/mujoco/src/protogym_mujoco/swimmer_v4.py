"""Swimmer-v4: Gymnasium 1.4's earlier Swimmer, to the bit.

As `Swimmer-v5` (see `swimmer_v5`) with a fixed model and frame skip, no reset info, and the
forward reward in the step's info twice, as `reward_fwd` and `forward_reward`.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np

from protogym.spaces import Box
from protogym_mujoco.keys import Keys, two_axes
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, Action, MujocoEnv, Observation
from protogym_mujoco.swimmer_v5 import observation, rewards
from protogym_mujoco.terms import control_cost, norm

__all__ = ["SwimmerEnv"]


class SwimmerEnv(MujocoEnv):
    """Swim forward as fast as possible (v4)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 25}  # noqa: RUF012

    def __init__(
        self,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-4,
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        *,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = (
            exclude_current_positions_from_observation
        )
        size = 8 if exclude_current_positions_from_observation else 10
        super().__init__(
            "swimmer.xml",
            4,
            Box(-np.inf, np.inf, (size,), np.float64),
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            max_geom=max_geom,
            visual_options=visual_options,
        )

    def control_cost(self, action: Any) -> Any:
        return control_cost(action, self._ctrl_cost_weight)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        ctrl_cost = control_cost(action, self._ctrl_cost_weight)
        if not isfinite(ctrl_cost):
            self._reject_non_finite(action)
        qpos = self._qpos
        xy_before = qpos[0:2].copy()
        self.do_simulation(action, self.frame_skip)
        xy_after = qpos[0:2].copy()
        reward, xy_velocity, forward_reward = rewards(
            xy_before, xy_after, ctrl_cost, self.dt, self._forward_reward_weight
        )
        x_velocity, y_velocity = xy_velocity
        info = {
            "reward_fwd": forward_reward,
            "reward_ctrl": -ctrl_cost,
            "x_position": xy_after[0],
            "y_position": xy_after[1],
            "distance_from_origin": norm(xy_after),
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "forward_reward": forward_reward,
        }
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, False, False, info

    def get_keys_to_action(self) -> Keys:
        """`protogym play`: left/right turn the first rotor, down/up the second."""
        return two_axes(1.0, 1.0)

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel, self._exclude_current_positions_from_observation)

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + self.np_random.uniform(low=-scale, high=scale, size=self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()
