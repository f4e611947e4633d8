"""InvertedDoublePendulum-v5: balance two poles, one on the other, on a cart.

Gymnasium 1.4's `InvertedDoublePendulum-v5`, to the bit. Observation (9 float64): cart
position, sines then cosines of the two hinge angles, the three velocities clipped to
[-10, 10], and the cart's constraint force clipped to [-10, 10]. Action: 1 float32 force in
[-1, 1]. Reward: `healthy_reward` while the tip stays above 1, minus `0.01 x**2 + (y - 2)**2`
for the tip at (x, y), minus `1e-3 v1**2 + 5e-3 v2**2` for the hinges' velocities. The
episode ends when the tip's height `y` drops to 1 or below. The tip is MuJoCo's `site_xpos`,
which MuJoCo last computed before the final sub-step (no `mj_forward` follows a step), as in
Gymnasium. `InvertedDoublePendulum-v5` truncates at 1000 steps.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.keys import Keys, one_axis
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, MujocoEnv, Observation
from protogym_mujoco.terms import clip, power_of_two

__all__ = ["DEFAULT_CAMERA_CONFIG", "InvertedDoublePendulumEnv", "observation", "penalties"]

# Gymnasium 1.4 defines this camera but renders v5 without it (its default is None).
DEFAULT_CAMERA_CONFIG: dict[str, Any] = {
    "trackbodyid": 0,
    "distance": 4.1225,
    "lookat": np.array((0.0, 0.0, 0.12250000000000005)),
}

_concatenate = np.concatenate
_sin = np.sin
_cos = np.cos
_isfinite = np.isfinite
_all = np.logical_and.reduce


def observation(
    qpos: NDArray[np.float64],
    qvel: NDArray[np.float64],
    qfrc_constraint: NDArray[np.float64],
    constraint_forces: int = 1,
) -> NDArray[np.float64]:
    """Cart position, sin and cos of the hinges, clipped velocities and the first
    `constraint_forces` clipped constraint forces (all three in v4)."""
    hinges = qpos[..., 1:]
    return _concatenate(
        (
            qpos[..., :1],
            _sin(hinges),
            _cos(hinges),
            clip(qvel, -10, 10),
            clip(qfrc_constraint, -10, 10)[..., :constraint_forces],
        ),
        axis=-1,
    )


def penalties(tip: NDArray[np.float64], qvel: NDArray[np.float64]) -> tuple[Any, Any]:
    """`(distance_penalty, velocity_penalty)` for the tip at `tip` (its x, _, y) and the
    hinges' velocities `qvel[1:3]`."""
    x, y = tip[..., 0], tip[..., 2]
    v1, v2 = qvel[..., 1], qvel[..., 2]
    square = power_of_two
    return 0.01 * square(x) + square(y - 2), 1e-3 * square(v1) + 5e-3 * square(v2)


class InvertedDoublePendulumEnv(MujocoEnv):
    """Keep both poles up; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "inverted_double_pendulum.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] | None = None,
        healthy_reward: float = 10.0,
        reset_noise_scale: float = 0.1,
        *,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        self._healthy_reward = healthy_reward
        self._reset_noise_scale = reset_noise_scale
        super().__init__(
            xml_file,
            frame_skip,
            Box(-np.inf, np.inf, (9,), np.float64),
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            default_camera_config=default_camera_config,
            max_geom=max_geom,
            visual_options=visual_options,
        )
        self._tip = self.data.site_xpos[0]

    def step(self, action: Action) -> tuple[Observation, Any, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not _all(_isfinite(action)):
            self._reject_non_finite(action)
        self.do_simulation(action, self.frame_skip)
        tip = self._tip.copy()
        obs = self._get_obs()
        ended = bool(tip[2] <= 1)
        distance_penalty, velocity_penalty = penalties(tip, self._qvel)
        alive_bonus = self._healthy_reward * int(not ended)
        reward = alive_bonus - distance_penalty - velocity_penalty
        info = {
            "reward_survive": alive_bonus,
            "distance_penalty": -distance_penalty,
            "velocity_penalty": -velocity_penalty,
        }
        if self.render_mode == "human":
            self.render()
        return obs, reward, ended, False, info

    def get_keys_to_action(self) -> Keys:
        """`protogym play`: the arrows push the cart with the full force of 1."""
        return one_axis(1.0)

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel, self.data.qfrc_constraint)

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        self.set_state(
            self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq),
            self.init_qvel + self.np_random.standard_normal(self.model.nv) * scale,
        )
        return self._get_obs()
