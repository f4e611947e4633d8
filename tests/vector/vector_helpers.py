"""A tiny deterministic env for the vector tests: episodes of known length, known infos."""

from __future__ import annotations

import functools
import os
import time
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym import Env
from protogym.spaces import Box, Dict, Discrete


class Countdown(Env[NDArray[np.float32], np.int64]):
    """Observation `[steps taken, ident, seed-derived noise]`; the episode ends after `length`.

    Reward is the action plus the step count. `truncate=True` truncates instead of
    terminating. The info has `count` every step and `reset_seed` on reset; `fail_at`
    raises on that step, `exit_at` ends the process on that step (a dying worker).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 4}
    observation_space: Box
    action_space: Discrete
    render_mode: str | None

    def __init__(
        self,
        ident: int = 0,
        length: int = 3,
        truncate: bool = False,
        fail_at: int | None = None,
        exit_at: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.ident = ident
        self.length = length
        self.truncate = truncate
        self.fail_at = fail_at
        self.exit_at = exit_at
        self.render_mode = render_mode
        self.observation_space = Box(-1e6, 1e6, shape=(3,), dtype=np.float32)
        self.action_space = Discrete(3)
        self.count = 0
        self.noise = 0.0
        self.pid = os.getpid()
        self.mpi_rank = os.environ.get("OMPI_COMM_WORLD_RANK")  # what an MPI library would see
        self.closed = False

    def _obs(self) -> NDArray[np.float32]:
        return np.array([self.count, self.ident, self.noise], dtype=np.float32)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        self.count = 0
        self.noise = float(self.np_random.random())
        return self._obs(), {"reset_seed": -1 if seed is None else seed}

    def step(
        self, action: np.int64
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        self.count += 1
        if self.fail_at is not None and self.count == self.fail_at:
            raise ValueError(f"Countdown {self.ident} fails at step {self.count}")
        if self.exit_at is not None and self.count == self.exit_at:
            os._exit(3)
        ended = self.count >= self.length
        reward = float(action) + self.count
        info = {"count": self.count}
        return self._obs(), reward, ended and not self.truncate, ended and self.truncate, info

    def render(self) -> NDArray[np.uint8] | None:
        if self.render_mode is None:
            return None
        return np.full((2, 2, 3), self.count, dtype=np.uint8)

    def close(self) -> None:
        self.closed = True


class DictEnv(Countdown):
    """Countdown with a Dict observation, to exercise nested shared memory."""

    def __init__(self, ident: int = 0) -> None:
        super().__init__(ident=ident)
        self.observation_space = Dict(  # type: ignore[assignment]
            {"count": Discrete(100), "vec": Box(-1e6, 1e6, shape=(3,), dtype=np.float32)}
        )

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        obs, info = super().reset(seed=seed, options=options)
        return {"count": np.int64(self.count), "vec": obs}, info

    def step(self, action: Any) -> Any:
        obs, *rest = super().step(action)
        return {"count": np.int64(self.count), "vec": obs}, *rest


def countdowns(num: int, **kwargs: Any) -> list[Any]:
    """Env functions for sub-envs 0..num-1, sub-env i with `length = 2 + i`."""
    return [
        (lambda i=i: Countdown(ident=i, length=kwargs.get("length", 2 + i),
                               **{k: v for k, v in kwargs.items() if k != "length"}))
        for i in range(num)
    ]


class Sleepy(Countdown):
    """Countdown whose every step sleeps 0-`max_ms` milliseconds (drawn from its own
    generator seeded by `ident`, never from the env's), so sub-envs finish in a varying
    order while their trajectories stay exact."""

    def __init__(self, ident: int = 0, length: int = 3, max_ms: float = 2.0, **kwargs: Any
                 ) -> None:
        super().__init__(ident=ident, length=length, **kwargs)
        self.delays = np.random.default_rng(ident).uniform(0.0, max_ms / 1000, size=64)

    def step(
        self, action: np.int64
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        time.sleep(float(self.delays[self.count % 64]))
        return super().step(action)


def sleepies(num: int, **kwargs: Any) -> list[Any]:
    """Env functions for Sleepy sub-envs 0..num-1, sub-env i with `length = 2 + i`."""
    return [functools.partial(Sleepy, ident=i, length=2 + i, **kwargs) for i in range(num)]
