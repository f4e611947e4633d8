"""Test envs for the conformance checker: one correct env, and the same env with one fault.

`Corridor` walks a position along a line: action 1 moves right, 0 left; the episode ends when
the position reaches 1.0. Every fault below breaks exactly one rule. The same behaviour comes
in two flavours that the checker must treat alike: `StructuralCorridor` inherits nothing
from protogym, `SubclassedCorridor` subclasses `protogym.Env`.
"""

from __future__ import annotations

from typing import Any, ClassVar, SupportsFloat

import numpy as np
from numpy.typing import NDArray

import protogym
from protogym.spaces import Box, Discrete
from protogym.utils.seeding import np_random

Obs = NDArray[np.float32]

FAULTS: dict[str, str] = {
    "PG101": "observation_space is not a space",
    "PG102": "Box bounds of the wrong shape",
    "PG103": "reset() without seed and options",
    "PG104": "reset(options={}) raises",
    "PG110": "reset() returns only the observation",
    "PG111": "reset() returns a 3-tuple",
    "PG112": "step() returns a list as info",
    "PG113": "step() returns an observation out of bounds",
    "PG120": "step() returns the legacy 4-tuple",
    "PG121": "step() returns a 6-tuple",
    "PG122": "step() returns terminated as an int",
    "PG123": "step() returns the reward as a str",
    "PG124": "step(1) raises",
    "PG130": "reset() draws its start from an unseeded generator",
    "PG131": "reset() never reseeds np_random",
    "PG132": "step() draws its reward from an unseeded generator",
    "PG133": "reset() and step() return the same array",
    "PG140": "render_mode not among the declared modes",
    "PG141": "render_fps is 0",
    "PG142": "rgb_array render returns a list",
    "PG200": "a Box coordinate with low == high",
    "PG201": "observations of dtype float16 in a float32 Box",
    "PG202": "reset()'s seed defaults to 0",
    "PG203": "a seed() method",
    "PG204": "reset() takes return_info",
    "PG205": "image observations in float32 with bounds 0..255",
    "PG210": "a NaN reward",
    "PG211": "info['TimeLimit.truncated'] in step's info",
    "PG213": "truncated on the first step",
    "PG214": "observations with a tiny unseeded jitter",
    "PG240": "no render_modes in metadata",
    "PG241": "no render_fps in metadata",
    "PG242": "rgb_array frames of float32",
    "PG250": "close() raises the second time",
    "PG300": "an unbounded Box action space",
    "PG301": "a Box action space of [-2, 3]",
    "PG302": "an unbounded Box observation space",
}

VARIANT_FAULTS: dict[str, str] = {
    "PG112reset": "reset() returns a list as info",
}
"""Faults that break a rule in another place than its `FAULTS` entry does."""


_METADATA: dict[str, Any] = {"render_modes": ["rgb_array", "ansi"], "render_fps": 30}


class _Corridor:
    """The behaviour shared by both flavours; `fault` names the one rule it breaks."""

    metadata: dict[str, Any] = _METADATA  # at class level too, where make() looks for it
    action_space: Any
    observation_space: Any
    np_random: np.random.Generator

    def __init__(
        self, render_mode: str | None = None, fault: str = "", numpy_types: bool = False
    ) -> None:
        if fault and fault not in FAULTS and fault not in VARIANT_FAULTS:
            raise ValueError(
                f"unknown fault {fault!r}; choose one of {sorted(FAULTS | VARIANT_FAULTS)}"
            )
        self.fault = fault
        self.numpy_types = numpy_types
        self.render_mode = render_mode
        self.metadata = dict(_METADATA)
        if fault == "PG140":
            self.render_mode = "human"
        elif fault == "PG141":
            self.metadata["render_fps"] = 0
        elif fault == "PG240":
            del self.metadata["render_modes"]
        elif fault == "PG241":
            del self.metadata["render_fps"]
        self.action_space = Discrete(2)
        self.observation_space = Box(-2.0, 2.0, (2,), np.float32)
        if fault == "PG101":
            self.observation_space = "Box(-2, 2, (2,))"
        elif fault == "PG102":
            self.observation_space.low = np.zeros(3, np.float32)
        elif fault == "PG200":
            self.observation_space = Box(np.array([-2, 0]), np.array([2, 0]), dtype=np.float32)
        elif fault == "PG205":
            self.observation_space = Box(0, 255, (8, 8, 3), np.float32)
        elif fault in ("PG300", "PG301"):
            bound = np.inf if fault == "PG300" else 3.0
            self.action_space = Box(np.array([-2.0]), np.array([bound]), dtype=np.float32)
        elif fault == "PG302":
            self.observation_space = Box(-np.inf, np.inf, (2,), np.float32)
        if fault == "PG103":
            self.reset = self._reset_without_seed  # type: ignore[method-assign,assignment]
        elif fault == "PG202":
            self.reset = self._reset_seed_zero  # type: ignore[method-assign]
        elif fault == "PG204":
            self.reset = self._reset_return_info  # type: ignore[method-assign]
        elif fault == "PG203":
            self.seed = lambda seed=None: [seed]
        self.np_random, _ = np_random(None)
        self._position = 0.0
        self._buffer = np.zeros(2, np.float32)
        self._closed = 0

    def _obs(self) -> Any:
        if self.fault == "PG205":
            return np.full((8, 8, 3), self._position * 100 + 100, np.float32)
        second = 0.0 if self.fault == "PG200" else self._position / 2
        obs = np.array([self._position, second], np.float32)
        if self.fault == "PG201":
            return obs.astype(np.float16)
        if self.fault == "PG214":
            obs = obs + np.float32(np.random.default_rng().random() * 1e-7)
        if self.fault == "PG133":
            self._buffer[:] = obs
            return self._buffer
        return obs

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        if seed is not None and self.fault != "PG131":
            self.np_random, _ = np_random(seed)
        if options is not None and self.fault == "PG104":
            raise KeyError("no options are supported")
        if self.fault == "PG130":
            self._position = float(np.random.default_rng().uniform(-0.5, 0.5))
        elif self.fault == "PG131":
            self._position = 0.0
        else:
            self._position = float(self.np_random.uniform(-0.5, 0.5))
        obs = self._obs()
        if self.fault == "PG110":
            return obs  # type: ignore[no-any-return]
        if self.fault == "PG111":
            return obs, {}, {}  # type: ignore[return-value]
        if self.fault == "PG112reset":  # the info of reset, not step, is a list
            return obs, [self._position]  # type: ignore[return-value]
        return obs, {"start": self._position}

    def _reset_without_seed(self) -> tuple[Obs, dict[str, Any]]:
        return self._obs(), {}

    def _reset_seed_zero(
        self, *, seed: int | None = 0, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        self.fault = ""
        result = _Corridor.reset(self, seed=seed, options=options)
        self.fault = "PG202"
        return result

    def _reset_return_info(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None,
        return_info: bool = True,
    ) -> tuple[Obs, dict[str, Any]]:
        self.fault = ""
        result = _Corridor.reset(self, seed=seed, options=options)
        self.fault = "PG204"
        return result

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        fault = self.fault
        if fault == "PG124" and action == 1:
            raise IndexError("action 1 is not implemented")
        move = float(np.asarray(action).reshape(-1)[0]) * 2 - 1
        self._position = float(np.clip(self._position + 0.25 * move, -2.0, 2.0))
        obs = self._obs()
        terminated = self._position >= 1.0
        reward: Any = 1.0 if terminated else -0.1
        info: Any = {"position": self._position}
        truncated = fault == "PG213"
        if fault == "PG113":
            obs = np.full(2, 5.0, np.float32)
        elif fault == "PG122":
            terminated = int(terminated)  # type: ignore[assignment]
        elif fault == "PG123":
            reward = "-0.1"
        elif fault == "PG132":
            reward = float(np.random.default_rng().random())
        elif fault == "PG210":
            reward = float("nan")
        elif fault == "PG112":
            info = [self._position]
        elif fault == "PG211":
            info["TimeLimit.truncated"] = False
        if self.numpy_types:  # numpy scalars are as good as Python ones
            numpy_result = obs, np.float32(reward), np.bool_(terminated), np.bool_(truncated), info
            return numpy_result  # type: ignore[return-value]
        if fault == "PG120":
            return obs, reward, terminated, info  # type: ignore[return-value]
        if fault == "PG121":
            return obs, reward, terminated, False, info, None  # type: ignore[return-value]
        return obs, reward, terminated, truncated, info

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return f"position {self._position:.2f}"
        if self.render_mode == "rgb_array":
            if self.fault == "PG142":
                return [[0, 0, 0]]
            dtype = np.float32 if self.fault == "PG242" else np.uint8
            frame = np.zeros((4, 8, 3), dtype)
            frame[:, int(np.clip((self._position + 2) * 2, 0, 7))] = 255
            return frame
        return None

    def close(self) -> None:
        self._closed += 1
        if self.fault == "PG250" and self._closed > 1:
            raise RuntimeError("already closed")


class StructuralCorridor(_Corridor):
    """The corridor as a plain class: an environment only by its members."""


class SubclassedCorridor(_Corridor, protogym.Env[Obs, np.int64]):
    """The corridor as an explicit `protogym.Env` subclass."""

    action_space: Any
    observation_space: Any
    render_mode: str | None
    metadata: dict[str, Any] = _METADATA


FLAVOURS: dict[str, type[_Corridor]] = {
    "structural": StructuralCorridor,
    "subclassed": SubclassedCorridor,
}


def register_corridors() -> dict[str, str]:
    """Register both flavours once (``checker/<Class>-v0``); returns flavour -> id."""
    ids = {}
    for flavour, cls in FLAVOURS.items():
        env_id = f"checker/{cls.__name__}-v0"
        if env_id not in protogym.registry:
            entry_point = f"tests.checker.checker_testenvs:{cls.__name__}"
            protogym.register(env_id, entry_point, max_episode_steps=50)
        ids[flavour] = env_id
    return ids


class NoStep:
    """Everything an env has, except `step`."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}
    render_mode = None
    action_space = Discrete(2)
    observation_space = Discrete(3)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        return 0, {}

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


class LyingBox(Box):
    """A Box whose sampler ignores its bounds: internally inconsistent."""

    def sample(self, mask: None = None, probability: None = None) -> NDArray[Any]:
        return np.full(self.shape or (), 10.0, self.dtype)


VECTOR_FAULTS: dict[str, str] = {
    "PG160": "no single_action_space",
    "PG161": "observation_space not batched",
    "PG162": "float64 observation batches",
    "PG163": "rewards as a list",
    "PG164": "next_step: reward 1 on the autoreset step",
    "PG165": "same_step: no final observation",
    "PG166": "reset() returns only the observations",
    "PG260": "no autoreset_mode in metadata",
}


class CorridorVector:
    """A structural vector env over `StructuralCorridor`s, in any autoreset mode.

    Written out by hand (not with SyncVectorEnv) so that each fault breaks one promise.
    """

    def __init__(self, num_envs: int = 3, autoreset_mode: str = "same_step",
                 fault: str = "") -> None:
        if fault and fault not in VECTOR_FAULTS:
            raise ValueError(f"unknown fault {fault!r}; choose one of {sorted(VECTOR_FAULTS)}")
        self.fault = fault
        self.num_envs = num_envs
        self.autoreset_mode = autoreset_mode
        self.envs = [StructuralCorridor() for _ in range(num_envs)]
        self.metadata: dict[str, Any] = {"autoreset_mode": autoreset_mode}
        if fault == "PG260":
            self.metadata = {}
        self.render_mode = None
        self.single_observation_space = self.envs[0].observation_space
        if fault != "PG160":
            self.single_action_space = self.envs[0].action_space
        self.observation_space = Box(-2.0, 2.0, (num_envs, 2), np.float32)
        if fault == "PG161":
            self.observation_space = Box(-2.0, 2.0, (2,), np.float32)
        self.action_space = Box(0, 1, (num_envs,), np.int64)
        self._ended = np.zeros(num_envs, np.bool_)

    def _batch(self, rows: list[Any]) -> NDArray[Any]:
        return np.stack(rows).astype(np.float64 if self.fault == "PG162" else np.float32)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[NDArray[Any], dict[str, Any]]:
        mask = (options or {}).get("reset_mask")
        rows = []
        for index, env in enumerate(self.envs):
            if mask is None or mask[index]:
                obs, _ = env.reset(seed=None if seed is None else seed + index)
                self._ended[index] = False
            else:
                obs = env._obs()
            rows.append(obs)
        if self.fault == "PG166":
            return self._batch(rows)  # type: ignore[return-value]
        return self._batch(rows), {}

    def step(self, actions: NDArray[Any]) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        n = self.num_envs
        rows = []
        rewards = np.zeros(n)
        terminations = np.zeros(n, np.bool_)
        truncations = np.zeros(n, np.bool_)
        infos: dict[str, Any] = {}
        for index, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            if self.autoreset_mode == "next_step" and self._ended[index]:
                obs, _ = env.reset()
                self._ended[index] = False
                rewards[index] = 1.0 if self.fault == "PG164" else 0.0
            else:
                obs, reward, terminated, truncated, info = env.step(int(action))
                rewards[index] = float(reward)
                terminations[index], truncations[index] = terminated, truncated
                if terminated or truncated:
                    if self.autoreset_mode == "same_step":
                        if self.fault != "PG165":
                            for key, value in (("final_observation", obs), ("final_info", info)):
                                infos.setdefault(key, np.full(n, None, object))[index] = value
                                infos.setdefault(f"_{key}", np.zeros(n, np.bool_))[index] = True
                        obs, _ = env.reset()
                    else:
                        self._ended[index] = True
            rows.append(obs)
        reward_out: Any = rewards.tolist() if self.fault == "PG163" else rewards
        return self._batch(rows), reward_out, terminations, truncations, infos

    def render(self) -> None:
        return None

    def close(self) -> None:
        for env in self.envs:
            env.close()


class LegacyCorridor:
    """The corridor written for the old Gym API: obs-only reset, 4-tuple step, seed()."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}
    render_mode = None

    def __init__(self) -> None:
        self.action_space = Discrete(2)
        self.observation_space = Box(-2.0, 2.0, (2,), np.float32)
        self._rng, _ = np_random(None)
        self._position = 0.0

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._rng, _ = np_random(seed)
        return [seed]

    def _obs(self) -> Obs:
        return np.array([self._position, self._position / 2], np.float32)

    def reset(self) -> Obs:
        self._position = float(self._rng.uniform(-0.5, 0.5))
        return self._obs()

    def step(self, action: int) -> tuple[Obs, float, bool, dict[str, Any]]:
        self._position = float(np.clip(self._position + 0.5 * int(action) - 0.25, -2, 2))
        done = self._position >= 1.0
        return self._obs(), 1.0 if done else -0.1, done, {}

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def register_legacy_corridors() -> tuple[str, str]:
    """Register the legacy corridor twice: as it is, and with api="done"; returns both ids."""
    entry_point = "tests.checker.checker_testenvs:LegacyCorridor"
    as_is, with_done = "checker/LegacyCorridor-v0", "checker/LegacyCorridorDone-v0"
    if as_is not in protogym.registry:
        protogym.register(as_is, entry_point, max_episode_steps=50)
    if with_done not in protogym.registry:
        protogym.register(with_done, entry_point, max_episode_steps=50, api="done")
    return as_is, with_done
