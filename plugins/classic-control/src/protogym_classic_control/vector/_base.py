"""What the native vector envs share: per-sub-env seeding, autoreset modes, time limits.

Each sub-env owns a generator seeded exactly as its single-env twin would be (`seed + i`),
and draws its reset noise from it in the same order, so sub-env i follows the trajectory
of the single env seeded `seed + i`. To keep resets vectorized, each generator's standard
uniforms are drawn ahead in blocks; ``low + (high - low) * u`` is exactly what numpy's
`uniform` computes, so the values match bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.error import ClosedEnvironmentError
from protogym.spaces import Box
from protogym.spaces.space import Space
from protogym.utils.seeding import np_random
from protogym.vector.sync_vector_env import reset_mask_of
from protogym.vector.vector_env import (
    ActT,
    AutoresetMode,
    ModeT_co,
    VectorEnvBase,
    VectorStepResult,
    parse_autoreset_mode,
    seeds_for,
)
from protogym_classic_control.utils import reset_needed

__all__ = ["UNSIGNED", "ClassicVectorEnv", "IntArray"]

IntArray = NDArray[np.intp]
UNSIGNED = {size: np.dtype(f"u{size}") for size in (1, 2, 4, 8)}
"""The unsigned dtype of each int size: viewed as unsigned, negative actions become huge, so
one `max` checks both ends of the valid range."""

_ONE = np.ones((), dtype=np.intp)  # a ready 0-d operand: ufuncs convert Python ints anew
_NEXT_STEP = AutoresetMode.NEXT_STEP
_SAME_STEP = AutoresetMode.SAME_STEP


class ClassicVectorEnv(VectorEnvBase[NDArray[np.float32], ActT, ModeT_co]):
    """Base of the numpy-vectorized classic-control envs; subclasses write the physics.

    Subclasses set `draws_per_reset` (how many uniforms one single-env reset consumes) and
    implement `_reset_rows`, `_physics`, `_observe` and `_single_env`.
    """

    draws_per_reset: ClassVar[int]
    render_fps: ClassVar[int] = 50
    buffered_resets: int = 64
    """Resets' worth of uniforms drawn ahead per sub-env (memory vs. generator calls)."""

    single_observation_space: Box
    single_action_space: Space[Any]
    observation_space: Space[NDArray[np.float32]]
    action_space: Space[ActT]
    render_mode: str | None

    def __init__(
        self,
        num_envs: int,
        max_episode_steps: int | None,
        render_mode: str | None,
        autoreset_mode: AutoresetMode | str,
    ) -> None:
        name = type(self).__name__
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"{name} needs num_envs to be a positive int, got {num_envs!r}")
        if max_episode_steps is not None and (
            isinstance(max_episode_steps, bool)
            or not isinstance(max_episode_steps, int)
            or max_episode_steps < 1
        ):
            raise ValueError(
                f"{name} needs max_episode_steps to be a positive int or None, "
                f"got {max_episode_steps!r}"
            )
        if render_mode is not None and render_mode != "rgb_array":
            raise ValueError(
                f"{name} supports render_mode 'rgb_array' or None, got {render_mode!r}"
            )
        self.num_envs = num_envs
        self.max_episode_steps = max_episode_steps
        self.render_mode = render_mode
        self._autoreset_mode = parse_autoreset_mode(autoreset_mode)
        self.metadata = {
            "render_modes": ["rgb_array"],
            "render_fps": self.render_fps,
            "autoreset_mode": self._autoreset_mode,
        }
        self._generators: list[np.random.Generator] = []
        self._seeds: list[int] = []
        # Each sub-env owns `buffered_resets` rows of draws and one sentinel row of -1 (a
        # standard uniform never is), so running out shows in the draws themselves;
        # `_next[i]` is the flat index of sub-env i's next unused row.
        stride = self.buffered_resets + 1
        self._uniforms = np.full((num_envs * stride, self.draws_per_reset), -1.0)
        self._sentinel = np.arange(num_envs, dtype=np.intp) * stride + self.buffered_resets
        self._next = self._sentinel.copy()
        # Episode lengths as ticks: sub-env i's episode began at vector step _started_at[i].
        self._tick = 0
        self._started_at = np.zeros(num_envs, dtype=np.int64)
        self._pending = np.zeros(num_envs, dtype=np.bool_)
        self._started = False
        self._renderer: Env[Any, Any] | None = None
        self.closed = False

    @property
    def autoreset_mode(self) -> ModeT_co:
        return self._autoreset_mode  # type: ignore[return-value]

    @property
    def np_random_seeds(self) -> tuple[int, ...]:
        """The seed (or OS entropy) of every sub-env's generator, to reproduce a run."""
        return tuple(self._seeds)

    @property
    def np_random_seed(self) -> tuple[int, ...]:  # type: ignore[override]
        """Every sub-env's seed, as `SyncVectorEnv.np_random_seed` gives them (each sub-env
        has its own generator, like the single env it follows); empty before `reset`."""
        return tuple(self._seeds)

    # -- hooks -------------------------------------------------------------------------

    def _reset_rows(
        self, rows: IntArray, uniforms: NDArray[np.float64], options: dict[str, Any] | None
    ) -> None:
        """Set the state of sub-envs `rows` from their standard uniforms (one row each)."""
        raise NotImplementedError

    def _physics(self, actions: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        """Advance every sub-env one step; return fresh `(rewards, terminated)` arrays."""
        raise NotImplementedError

    def _reseeded(self, rows: list[int]) -> None:
        """Sub-envs `rows` have new generators (an env that draws without them copies
        their state here)."""

    def _observe(self, rows: IntArray | None) -> NDArray[np.float32]:
        """A fresh observation batch of sub-envs `rows` (every sub-env for None).

        It may be Fortran-ordered (a transposed cast of a (vars, num_envs) state), which is
        the cheapest layout to produce and indexes like any (num_envs, dim) array.
        """
        raise NotImplementedError

    def _single_env(self, render_mode: str) -> Env[Any, Any]:
        """A single env of this kind, used to draw the sub-envs' frames."""
        raise NotImplementedError

    def _load_state(self, env: Any, row: int) -> None:
        """Copy sub-env `row`'s state into the single env `env` (for rendering)."""
        raise NotImplementedError

    # -- the protocol ----------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        self._check_open()
        seeds = seeds_for(seed, self.num_envs)
        mask = reset_mask_of(options, self.num_envs)
        if mask is not None:
            assert options is not None
            options = {k: v for k, v in options.items() if k != "reset_mask"}
            if not self._started and not mask.all():
                raise ValueError(
                    f"the first reset of {type(self).__name__} must reset every sub-env; "
                    'drop options["reset_mask"] or make it all True'
                )
        rows = np.arange(self.num_envs) if mask is None else np.flatnonzero(mask)
        first_reset = not self._generators
        if first_reset:  # every row is reset (checked above): each gets a generator below
            self._generators = [None] * self.num_envs  # type: ignore[list-item]
            self._seeds = [0] * self.num_envs
        reseeded = [row for row in rows.tolist() if seeds[row] is not None or first_reset]
        for row in reseeded:
            self._generators[row], self._seeds[row] = np_random(seeds[row])
            self._next[row] = self._sentinel[row]  # drop draws of the old stream
        self._reseeded(reseeded)
        self._reset_rows(rows, self._draw(rows), options)
        self._started_at[rows] = self._tick
        self._pending[rows] = False
        self._started = True
        return self._observe(None), {}

    def step(self, actions: ActT) -> VectorStepResult[NDArray[np.float32]]:
        if not self._started:
            self._check_open()
            raise reset_needed(type(self).__name__)
        rewards, terminated = self._physics(actions)
        self._tick = tick = self._tick + 1
        started_at = self._started_at
        mode = self._autoreset_mode
        infos: dict[str, Any] = {}
        if mode is _NEXT_STEP:
            pending = self._pending
            rows = pending.nonzero()[0]
            if len(rows):  # these restart instead of stepping
                self._reset_rows(rows, self._draw(rows), None)
                started_at[rows] = tick  # set first, so the time limit sees a new episode
                rewards[rows] = 0.0
                terminated[rows] = False
            limit = self.max_episode_steps
            truncated = (
                np.less_equal(started_at, tick - limit)
                if limit is not None
                else np.zeros(self.num_envs, dtype=np.bool_)
            )
            np.logical_or(terminated, truncated, pending)
            return self._observe(None), rewards, terminated, truncated, infos
        truncated = self._truncations(tick)
        if mode is _SAME_STEP:
            done = np.logical_or(terminated, truncated)
            rows = done.nonzero()[0]
            if len(rows):
                # The ended sub-envs' last observations, observed before their resets, one
                # array each in an object array (Gymnasium's layout). Sub-envs here report
                # no info, so the batched final info has no keys.
                final_obs = np.empty(self.num_envs, dtype=object)
                final_obs[rows] = np.fromiter(self._observe(rows), dtype=object, count=len(rows))
                self._reset_rows(rows, self._draw(rows), None)
                started_at[rows] = tick
                infos = {
                    "final_obs": final_obs,
                    "_final_obs": done,
                    "final_info": {},
                    "_final_info": done.copy(),
                }
        return self._observe(None), rewards, terminated, truncated, infos

    def _truncations(self, tick: int) -> NDArray[np.bool_]:
        """Which sub-envs' episodes have reached `max_episode_steps` at vector step `tick`."""
        limit = self.max_episode_steps
        if limit is None:
            return np.zeros(self.num_envs, dtype=np.bool_)
        truncated: NDArray[np.bool_] = np.less_equal(self._started_at, tick - limit)
        return truncated

    def render(self) -> tuple[Any, ...] | None:
        """One frame per sub-env in `rgb_array` mode, drawn by a single env of this kind."""
        self._check_open()
        if self.render_mode is None:
            return None
        if not self._started:
            raise reset_needed(type(self).__name__)
        if self._renderer is None:
            self._renderer = self._single_env(self.render_mode)
        frames = []
        for row in range(self.num_envs):
            self._load_state(self._renderer, row)
            frames.append(self._renderer.render())
        return tuple(frames)

    # -- the Sync/Async interface, on one batched env -------------------------------------

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute `name` for each sub-env, as `SyncVectorEnv.get_attr` gives it: each
        sub-env's slice of a batched attribute (these envs keep sub-envs along the last axis:
        `state` is (features, num_envs)), else the one value all sub-envs share (a physical
        constant) repeated."""
        self._check_open()
        value = getattr(self, name)
        if self._batched(value):
            return tuple(value[..., index] for index in range(self.num_envs))
        return (value,) * self.num_envs

    def set_attr(self, name: str, values: Any) -> None:
        """Set `name` like `SyncVectorEnv.set_attr` (one value, or a list of one per sub-env).

        A batched attribute takes the values row by row; a shared constant takes a value only
        if every sub-env gets the same one, since the sub-envs share it.
        """
        self._check_open()
        per_env = list(values) if isinstance(values, list | tuple) else None
        if per_env is not None and len(per_env) != self.num_envs:
            raise ValueError(
                f"set_attr({name!r}) got {len(per_env)} values for {self.num_envs} sub-envs"
            )
        current = getattr(self, name, None)
        if isinstance(current, np.ndarray) and self._batched(current):
            for index in range(self.num_envs):
                current[..., index] = per_env[index] if per_env is not None else values
            return
        if per_env is not None:
            if any(not _equal(value, per_env[0]) for value in per_env):
                raise ValueError(
                    f"{type(self).__name__} keeps one {name!r} for all its sub-envs, so they "
                    "cannot take different values; set one value, or use "
                    "make_vec(..., vectorization_mode='sync') for per-sub-env values"
                )
            values = per_env[0]
        setattr(self, name, values)

    def _batched(self, value: Any) -> bool:
        return isinstance(value, np.ndarray) and value.ndim > 0 and value.shape[-1] == self.num_envs

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method `name` of the batched env once; a result that is one item per sub-env
        (as `render` gives) is returned as it is, any other is repeated for each sub-env.
        A non-callable attribute is read as `get_attr` reads it."""
        self._check_open()
        member = getattr(self, name)
        if not callable(member):
            return self.get_attr(name)
        result = member(*args, **kwargs)
        if isinstance(result, tuple) and len(result) == self.num_envs:
            return result
        return (result,) * self.num_envs

    def close_extras(self, **kwargs: Any) -> None:
        """Drop the state and the renderer (`close` calls it once)."""
        self._started = False
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None

    # -- helpers -----------------------------------------------------------------------

    def _draw(self, rows: IntArray) -> NDArray[np.float64]:
        """The next reset's standard uniforms of each sub-env in `rows`, shape (len, draws)."""
        following = self._next
        at = following[rows]
        uniforms = self._uniforms
        drawn = np.take(uniforms, at, axis=0)
        if len(at) and np.minimum.reduce(drawn[:, 0]) < 0.0:  # someone hit its sentinel
            self._refill(rows[drawn[:, 0] < 0.0])
            at = following[rows]
            drawn = np.take(uniforms, at, axis=0)
        following[rows] = np.add(at, _ONE)
        return drawn

    def _refill(self, rows: IntArray) -> None:
        """Draw a new block of uniforms for each sub-env in `rows` that is at its sentinel."""
        uniforms, following = self._uniforms, self._next
        generators = self._generators
        blocks = self.buffered_resets
        for row in rows[uniforms[following[rows], 0] < 0.0].tolist():
            start = int(self._sentinel[row]) - blocks
            generators[row].random(out=uniforms[start : start + blocks])
            following[row] = start

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(
                f"this {type(self).__name__} is closed; make a new one to keep going"
            )


def _equal(a: Any, b: Any) -> bool:
    return bool(np.array_equal(a, b)) if isinstance(a, np.ndarray) else bool(a == b)
