"""InvertedPendulum-v5: balance a pole upright on a cart that slides along a rail.

Gymnasium 1.4's `InvertedPendulum-v5`, to the bit. Observation (4 float64): cart position,
pole angle, cart velocity, pole angular velocity. Action: 1 float32 force in [-3, 3]. Reward:
1 (an int, as in Gymnasium) for every step the pole stays within 0.2 rad of upright; the step
where it falls, or the state stops being finite, gives 0 and ends the episode.
`InvertedPendulum-v5` truncates at 1000 steps.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.keys import Keys, one_axis
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, MujocoEnv, Observation

__all__ = ["DEFAULT_CAMERA_CONFIG", "InvertedPendulumEnv", "observation", "terminated"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"trackbodyid": 0, "distance": 2.04}

_concatenate = np.concatenate
_isfinite = np.isfinite
_all = np.logical_and.reduce
_abs = np.abs


def observation(qpos: NDArray[np.float64], qvel: NDArray[np.float64]) -> NDArray[np.float64]:
    """Positions then velocities."""
    return _concatenate((qpos, qvel), axis=-1)


def terminated(observation: NDArray[np.float64]) -> Any:
    """Whether the episode ends: a non-finite state, or the pole more than 0.2 rad off."""
    return ~_all(_isfinite(observation), -1) | (_abs(observation[..., 1]) > 0.2)


class InvertedPendulumEnv(MujocoEnv):
    """Keep the pole up; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "inverted_pendulum.xml",
        frame_skip: int = 2,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        reset_noise_scale: float = 0.01,
        *,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        self._reset_noise_scale = reset_noise_scale
        super().__init__(
            xml_file,
            frame_skip,
            Box(-np.inf, np.inf, (4,), np.float64),
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            default_camera_config=default_camera_config,
            max_geom=max_geom,
            visual_options=visual_options,
        )
        self.observation_structure = {"qpos": self.model.nq, "qvel": self.model.nv}

    def step(self, action: Action) -> tuple[Observation, int, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not _all(_isfinite(action)):
            self._reject_non_finite(action)
        self.do_simulation(action, self.frame_skip)
        obs = self._get_obs()
        ended = bool(terminated(obs))
        reward = int(not ended)
        if self.render_mode == "human":
            self.render()
        return obs, reward, ended, False, {"reward_survive": reward}

    def get_keys_to_action(self) -> Keys:
        """`protogym play`: the arrows push the cart with the full force of 3."""
        return one_axis(3.0)

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel)

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(size=self.model.nq, low=-scale, high=scale)
        qvel = self.init_qvel + self.np_random.uniform(size=self.model.nv, low=-scale, high=scale)
        self.set_state(qpos, qvel)
        return self._get_obs()
