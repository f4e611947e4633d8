"""Small deterministic envs for the wrapper tests, and a Gymnasium twin to compare against.

Each env's data is a simple function of the step count and the action, so tests can state
exact expected values. They are structural envs (no base class), which is also what a
third-party env looks like to the wrappers. `GymTwin` exposes any of them as a
`gymnasium.Env` with equivalent spaces, so the same dynamics can be run through Gymnasium's
wrappers for parity checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, SupportsFloat

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.spaces import Box, Dict, Discrete, Tuple
from protogym.spaces.space import Space
from protogym.utils.seeding import np_random

FloatArray = NDArray[np.float32]


class _Seeded:
    """What `Env` subclasses inherit: a generator that `reset(seed=...)` reseeds."""

    spec: Any = None

    def __init__(self) -> None:
        self.np_random, _ = np_random(None)

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            self.np_random, _ = np_random(seed)

    def render(self) -> Any:
        return None

    def close(self) -> None:
        return None


class CountingEnv(_Seeded):
    """Observation `[t, t, t]` at step `t`, reward `rewards[t-1]` (default `t`), `Discrete(2)`.

    Terminates at step `terminate_at` if given. Records every action it receives and renders
    a `(4, 6, 3)` uint8 frame filled with `t`.
    """

    action_space: Discrete
    observation_space: Box
    render_mode: str | None
    metadata: dict[str, Any]

    def __init__(
        self,
        terminate_at: int | None = None,
        rewards: Sequence[float] | None = None,
        render_mode: str | None = "rgb_array",
    ) -> None:
        super().__init__()
        self.metadata = {"render_modes": ["rgb_array"], "render_fps": 30}
        self.action_space = Discrete(2)
        self.observation_space = Box(-1000.0, 1000.0, shape=(3,), dtype=np.float32)
        self.render_mode = render_mode
        self.terminate_at = terminate_at
        self.rewards = rewards
        self.t = 0
        self.actions: list[Any] = []
        self.reset_seeds: list[int | None] = []
        self.closed = False

    def _obs(self) -> FloatArray:
        return np.full(3, self.t, dtype=np.float32)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        self._seed(seed)
        self.reset_seeds.append(seed)
        self.t = 0
        return self._obs(), {"reset": True}

    def step(self, action: Any) -> tuple[FloatArray, SupportsFloat, bool, bool, dict[str, Any]]:
        self.actions.append(action)
        self.t += 1
        reward = float(self.t) if self.rewards is None else self.rewards[self.t - 1]
        terminated = self.terminate_at is not None and self.t >= self.terminate_at
        return self._obs(), reward, terminated, False, {"t": self.t}

    def render(self) -> NDArray[np.uint8]:
        return np.full((4, 6, 3), self.t, dtype=np.uint8)

    def close(self) -> None:
        self.closed = True


class BoxActionEnv(_Seeded):
    """Echoes the action it receives as the observation; action space `Box(low, high)`."""

    action_space: Box
    observation_space: Box
    render_mode: str | None = None
    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(
        self,
        low: float | Sequence[float] = -1.0,
        high: float | Sequence[float] = 1.0,
        shape: tuple[int, ...] = (2,),
    ) -> None:
        super().__init__()
        self.action_space = Box(np.asarray(low), np.asarray(high), shape=shape, dtype=np.float32)
        self.observation_space = Box(-np.inf, np.inf, shape=shape, dtype=np.float32)
        self.actions: list[Any] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        self._seed(seed)
        return np.zeros(self.observation_space.shape, dtype=np.float32), {}

    def step(self, action: Any) -> tuple[FloatArray, SupportsFloat, bool, bool, dict[str, Any]]:
        self.actions.append(action)
        return np.asarray(action, dtype=np.float32), 0.0, False, False, {}


class ArrayObsEnv(_Seeded):
    """Plays back a fixed list of observations from `space` (index 0 at reset, then one a step).

    Rewards are `rewards[i]` (default 1.0); the last observation terminates the episode.
    """

    action_space: Discrete
    observation_space: Box
    render_mode: str | None = None
    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(
        self,
        space: Box,
        observations: Sequence[NDArray[Any]],
        rewards: Sequence[float] | None = None,
    ) -> None:
        super().__init__()
        self.action_space = Discrete(4)
        self.observation_space = space
        self.observations = list(observations)
        self.rewards = rewards
        self.i = 0
        self.actions: list[Any] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[Any], dict[str, Any]]:
        self._seed(seed)
        self.i = 0
        return self.observations[0].copy(), {}

    def step(
        self, action: Any
    ) -> tuple[NDArray[Any], SupportsFloat, bool, bool, dict[str, Any]]:
        self.actions.append(action)
        self.i += 1
        reward = 1.0 if self.rewards is None else self.rewards[self.i - 1]
        terminated = self.i == len(self.observations) - 1
        return self.observations[self.i].copy(), reward, terminated, False, {"i": self.i}


class DictObsEnv(_Seeded):
    """Dict observations `{"pos": [t, -t], "mode": t % 3}` (keys sorted: mode, pos)."""

    action_space: Discrete
    observation_space: Dict
    render_mode: str | None = None
    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(self) -> None:
        super().__init__()
        self.action_space = Discrete(2)
        self.observation_space = Dict(
            {"pos": Box(-100.0, 100.0, shape=(2,), dtype=np.float32), "mode": Discrete(3)}
        )
        self.t = 0

    def _obs(self) -> dict[str, Any]:
        pos = np.array([self.t, -self.t], dtype=np.float32)
        return {"mode": np.int64(self.t % 3), "pos": pos}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self._seed(seed)
        self.t = 0
        return self._obs(), {}

    def step(
        self, action: Any
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        self.t += 1
        return self._obs(), 0.0, False, False, {}


class TupleObsEnv(_Seeded):
    """Tuple observations `(t, [t, t], t % 2)` from `Tuple(Discrete(100), Box, Discrete(2))`."""

    action_space: Discrete
    observation_space: Tuple
    render_mode: str | None = None
    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(self) -> None:
        super().__init__()
        self.action_space = Discrete(2)
        self.observation_space = Tuple(
            (Discrete(100), Box(0.0, 100.0, shape=(2,), dtype=np.float32), Discrete(2))
        )
        self.t = 0

    def _obs(self) -> tuple[Any, ...]:
        return (np.int64(self.t), np.full(2, self.t, np.float32), np.int64(self.t % 2))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        self._seed(seed)
        self.t = 0
        return self._obs(), {}

    def step(
        self, action: Any
    ) -> tuple[tuple[Any, ...], SupportsFloat, bool, bool, dict[str, Any]]:
        self.t += 1
        return self._obs(), 0.0, False, False, {}


class FakeALE:
    """The emulator interface of `FakeAtariEnv`: screens are a function of the frame count."""

    def __init__(self, shape: tuple[int, int]) -> None:
        self.shape = shape
        self.frame = 0
        self.lives_left = 3

    def rgb(self) -> NDArray[np.uint8]:
        rows, cols = np.indices(self.shape)
        red = (rows * 10 + self.frame * 3) % 256
        green = (cols * 7 + self.frame) % 256
        blue = np.full(self.shape, (self.frame * 11) % 256)
        return np.stack([red, green, blue], axis=-1).astype(np.uint8)

    def lives(self) -> int:
        return self.lives_left

    def getScreenRGB(self, out: NDArray[np.uint8]) -> None:  # noqa: N802 - ALE's name
        out[...] = self.rgb()

    def getScreenGrayscale(self, out: NDArray[np.uint8]) -> None:  # noqa: N802 - ALE's name
        out[...] = self.rgb().mean(axis=-1).astype(np.uint8)


class FakeAtariEnv(_Seeded):
    """An ALE-like env: `(H, W, 3)` screens, reward = frame number, a life lost every
    `life_every` frames, termination when lives run out."""

    action_space: Discrete
    observation_space: Box
    render_mode: str | None = None
    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(self, shape: tuple[int, int] = (21, 16), frameskip: int = 1,
                 life_every: int = 1000) -> None:
        super().__init__()
        self.action_space = Discrete(4)
        self.observation_space = Box(0, 255, shape=(*shape, 3), dtype=np.uint8)
        self.ale = FakeALE(shape)
        self._frameskip = frameskip
        self.life_every = life_every
        self.actions: list[Any] = []

    def get_action_meanings(self) -> list[str]:
        return ["NOOP", "FIRE", "LEFT", "RIGHT"]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.uint8], dict[str, Any]]:
        self._seed(seed)
        self.ale.frame = 0
        self.ale.lives_left = 3
        return self.ale.rgb(), {"lives": 3}

    def step(
        self, action: Any
    ) -> tuple[NDArray[np.uint8], SupportsFloat, bool, bool, dict[str, Any]]:
        self.actions.append(action)
        self.ale.frame += 1
        if self.ale.frame % self.life_every == 0:
            self.ale.lives_left -= 1
        terminated = self.ale.lives_left == 0
        return self.ale.rgb(), float(self.ale.frame), terminated, False, {"frame": self.ale.frame}


def image_frames(count: int, shape: tuple[int, ...], seed: int = 0) -> list[NDArray[np.uint8]]:
    """`count` random uint8 images of `shape`, reproducible from `seed`."""
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 256, size=shape, dtype=np.uint8) for _ in range(count)]


def uint8_box(shape: tuple[int, ...]) -> Box:
    return Box(0, 255, shape=shape, dtype=np.uint8)


# Gymnasium twins -------------------------------------------------------------------------


def to_gym_space(space: Space[Any]) -> Any:
    """The Gymnasium space equal to a protogym Box, Discrete, Dict or Tuple."""
    import gymnasium

    if isinstance(space, Dict):
        return gymnasium.spaces.Dict(
            {key: to_gym_space(sub) for key, sub in space.spaces.items()}
        )
    if isinstance(space, Tuple):
        return gymnasium.spaces.Tuple([to_gym_space(sub) for sub in space.spaces])
    if isinstance(space, Box):
        return gymnasium.spaces.Box(space.low, space.high, space.shape, space.dtype)
    if isinstance(space, Discrete):
        return gymnasium.spaces.Discrete(int(space.n), start=int(space.start))
    raise TypeError(f"no Gymnasium twin for {space!r}")


def gym_twin(env: Env[Any, Any]) -> Any:
    """A `gymnasium.Env` that forwards to `env`, with equivalent spaces."""
    import gymnasium

    class GymTwin(gymnasium.Env):
        metadata = dict(env.metadata)  # noqa: RUF012 - Gymnasium declares it mutable

        def __init__(self) -> None:
            self.inner = env
            self.observation_space = to_gym_space(env.observation_space)
            self.action_space = to_gym_space(env.action_space)
            self.render_mode = env.render_mode

        def reset(
            self, *, seed: int | None = None, options: dict[str, Any] | None = None
        ) -> Any:
            super().reset(seed=seed)
            return self.inner.reset(seed=seed, options=options)

        def step(self, action: Any) -> Any:
            return self.inner.step(action)

        def render(self) -> Any:
            return self.inner.render()

    return GymTwin()


def run_actions(
    env: Any, actions: Sequence[Any], seed: int | None = 0
) -> list[tuple[Any, ...]]:
    """Reset `env` with `seed` and step it through `actions`; every returned tuple, in order."""
    out: list[tuple[Any, ...]] = [tuple(env.reset(seed=seed))]
    out.extend(tuple(env.step(action)) for action in actions)
    return out


def assert_same_data(ours: Any, theirs: Any) -> None:
    """Exact equality of nested tuples/dicts/arrays, dtypes included for arrays."""
    if isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), (ours, theirs)
        assert ours.dtype == theirs.dtype, (ours.dtype, theirs.dtype)
        np.testing.assert_array_equal(ours, theirs)
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and ours.keys() == theirs.keys(), (ours, theirs)
        for key in theirs:
            assert_same_data(ours[key], theirs[key])
    elif isinstance(theirs, tuple | list):
        assert len(ours) == len(theirs), (ours, theirs)
        for mine, other in zip(ours, theirs, strict=True):
            assert_same_data(mine, other)
    else:
        assert ours == theirs, (ours, theirs)



class SubclassedCountingEnv(Env[FloatArray, np.int64]):
    """`CountingEnv`'s dynamics in an explicit `Env` subclass (which supplies `np_random`)."""

    action_space: Discrete
    observation_space: Box
    render_mode: str | None = None
    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(self) -> None:
        self.action_space = Discrete(2)
        self.observation_space = Box(-1000.0, 1000.0, shape=(3,), dtype=np.float32)
        self.t = 0
        self.actions: list[Any] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        self.t = 0
        return np.full(3, self.t, dtype=np.float32), {}

    def step(self, action: Any) -> tuple[FloatArray, SupportsFloat, bool, bool, dict[str, Any]]:
        self.actions.append(action)
        self.t += 1
        return np.full(3, self.t, dtype=np.float32), float(self.t), False, False, {}
