"""Reacher-v5: a two-joint arm moves its fingertip to a random target on a plane.

Gymnasium 1.4's `Reacher-v5`, to the bit. Observation (10 float64): cos and sin of the two
joint angles, the target's x and y, the two joint velocities, and the (x, y) from the target
to the fingertip. Action: 2 float32 torques in [-1, 1]. Reward: minus `reward_dist_weight`
times the fingertip's distance to the target, minus `reward_control_weight * sum(action**2)`.
Positions are the bodies' `xpos`, which MuJoCo last computed before the step's final
sub-step, as in Gymnasium. Each reset draws the target uniformly inside a disc of radius 0.2.
It never terminates; `Reacher-v5` truncates at 50 steps.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.keys import Keys, two_axes
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, MujocoEnv, Observation
from protogym_mujoco.terms import norm, squared_sum

__all__ = ["DEFAULT_CAMERA_CONFIG", "ReacherEnv", "observation", "rewards"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"trackbodyid": 0}

_concatenate = np.concatenate
_cos = np.cos
_sin = np.sin


def observation(
    qpos: NDArray[np.float64],
    qvel: NDArray[np.float64],
    fingertip: NDArray[np.float64],
    target: NDArray[np.float64],
    offset_axes: int = 2,
) -> NDArray[np.float64]:
    """cos and sin of the joints, the target, the joints' velocities and the first
    `offset_axes` coordinates of fingertip minus target (all three in v4)."""
    theta = qpos[..., :2]
    offset = (fingertip - target)[..., :offset_axes]
    return _concatenate((_cos(theta), _sin(theta), qpos[..., 2:], qvel[..., :2], offset), axis=-1)


def rewards(
    fingertip: NDArray[np.float64],
    target: NDArray[np.float64],
    action: Any,
    dist_weight: float,
    control_weight: float,
) -> tuple[Any, Any, Any]:
    """`(reward, reward_dist, reward_ctrl)` of a step."""
    reward_dist = -norm(fingertip - target) * dist_weight
    reward_ctrl = -squared_sum(action) * control_weight
    return reward_dist + reward_ctrl, reward_dist, reward_ctrl


class ReacherEnv(MujocoEnv):
    """Reach the target; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "reacher.xml",
        frame_skip: int = 2,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        reward_dist_weight: float = 1,
        reward_control_weight: float = 1,
        *,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        self._reward_dist_weight = reward_dist_weight
        self._reward_control_weight = reward_control_weight
        super().__init__(
            xml_file,
            frame_skip,
            Box(-np.inf, np.inf, (10,), np.float64),
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            default_camera_config=default_camera_config,
            max_geom=max_geom,
            visual_options=visual_options,
        )
        self._fingertip = self.get_body_com("fingertip")
        self._target = self.get_body_com("target")

    def step(self, action: Action) -> tuple[Observation, Any, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not isfinite(squared_sum(action)):
            self._reject_non_finite(action)
        self.do_simulation(action, self.frame_skip)
        obs = self._get_obs()
        reward, reward_dist, reward_ctrl = rewards(
            self._fingertip,
            self._target,
            action,
            self._reward_dist_weight,
            self._reward_control_weight,
        )
        if self.render_mode == "human":
            self.render()
        return obs, reward, False, False, {"reward_dist": reward_dist, "reward_ctrl": reward_ctrl}

    def get_keys_to_action(self) -> Keys:
        """`protogym play`: left/right turn the shoulder, down/up the elbow."""
        return two_axes(1.0, 1.0)

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel, self._fingertip, self._target)

    def reset_model(self) -> Observation:
        qpos = self.np_random.uniform(low=-0.1, high=0.1, size=self.model.nq) + self.init_qpos
        while True:
            self.goal = self.np_random.uniform(low=-0.2, high=0.2, size=2)
            if norm(self.goal) < 0.2:
                break
        qpos[-2:] = self.goal
        qvel = self.init_qvel + self.np_random.uniform(low=-0.005, high=0.005, size=self.model.nv)
        qvel[-2:] = 0
        self.set_state(qpos, qvel)
        return self._get_obs()
