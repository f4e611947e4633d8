"""Pusher-v5: a seven-joint arm pushes a cylinder to a goal on a table.

Gymnasium 1.4's `Pusher-v5`, to the bit. Observation (23 float64): the arm's 7 joint angles
and 7 velocities, then the positions of the fingertip, the object and the goal. Action: 7
float32 torques in [-2, 2]. Reward: minus `reward_near_weight` times the fingertip's distance
to the object, minus `reward_dist_weight` times the object's distance to the goal, minus
`reward_control_weight * sum(action**2)`. Positions are the bodies' `xpos`, which MuJoCo last
computed before the step's final sub-step, as in Gymnasium. The goal stays at the origin; each
reset draws the object's start until it is more than 0.17 from the goal and writes it into
`init_qpos` (Gymnasium's reset does the same). It never terminates; `Pusher-v5` truncates at
100 steps.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, MujocoEnv, Observation
from protogym_mujoco.terms import norm, squared_sum

__all__ = ["DEFAULT_CAMERA_CONFIG", "PusherEnv", "observation", "rewards"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"trackbodyid": -1, "distance": 4.0}

_concatenate = np.concatenate


def observation(
    qpos: NDArray[np.float64],
    qvel: NDArray[np.float64],
    fingertip: NDArray[np.float64],
    target: NDArray[np.float64],
    goal: NDArray[np.float64],
) -> NDArray[np.float64]:
    """The arm's joints and velocities, then the fingertip, object and goal positions."""
    return _concatenate((qpos[..., :7], qvel[..., :7], fingertip, target, goal), axis=-1)


def rewards(
    fingertip: NDArray[np.float64],
    target: NDArray[np.float64],
    goal: NDArray[np.float64],
    action: Any,
    near_weight: float,
    dist_weight: float,
    control_weight: float,
) -> tuple[Any, Any, Any, Any]:
    """`(reward, reward_near, reward_dist, reward_ctrl)` of a step."""
    reward_near = -norm(target - fingertip) * near_weight
    reward_dist = -norm(target - goal) * dist_weight
    reward_ctrl = -squared_sum(action) * control_weight
    return reward_dist + reward_ctrl + reward_near, reward_near, reward_dist, reward_ctrl


class PusherEnv(MujocoEnv):
    """Push the object to the goal; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "pusher_v5.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        reward_near_weight: float = 0.5,
        reward_dist_weight: float = 1,
        reward_control_weight: float = 0.1,
        *,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        self._reward_near_weight = reward_near_weight
        self._reward_dist_weight = reward_dist_weight
        self._reward_control_weight = reward_control_weight
        super().__init__(
            xml_file,
            frame_skip,
            Box(-np.inf, np.inf, (23,), np.float64),
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            default_camera_config=default_camera_config,
            max_geom=max_geom,
            visual_options=visual_options,
        )
        self._fingertip = self.get_body_com("tips_arm")
        self._object = self.get_body_com("object")
        self._goal = self.get_body_com("goal")

    def step(self, action: Action) -> tuple[Observation, Any, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not isfinite(squared_sum(action)):
            self._reject_non_finite(action)
        self.do_simulation(action, self.frame_skip)
        obs = self._get_obs()
        reward, reward_near, reward_dist, reward_ctrl = rewards(
            self._fingertip,
            self._object,
            self._goal,
            action,
            self._reward_near_weight,
            self._reward_dist_weight,
            self._reward_control_weight,
        )
        info = {"reward_dist": reward_dist, "reward_ctrl": reward_ctrl, "reward_near": reward_near}
        if self.render_mode == "human":
            self.render()
        return obs, reward, False, False, info

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel, self._fingertip, self._object, self._goal)

    def reset_model(self) -> Observation:
        qpos = self.init_qpos  # written into, as Gymnasium's reset does
        self.goal_pos = np.asarray([0, 0])
        while True:
            self.cylinder_pos = np.concatenate(
                [
                    self.np_random.uniform(low=-0.3, high=0, size=1),
                    self.np_random.uniform(low=-0.2, high=0.2, size=1),
                ]
            )
            if norm(self.cylinder_pos - self.goal_pos) > 0.17:
                break
        qpos[-4:-2] = self.cylinder_pos
        qpos[-2:] = self.goal_pos
        qvel = self.init_qvel + self.np_random.uniform(low=-0.005, high=0.005, size=self.model.nv)
        qvel[-4:] = 0
        self.set_state(qpos, qvel)
        return self._get_obs()
