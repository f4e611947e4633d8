"""`AtariVectorEnv`: many Atari games stepped by ale-py's C++ threads, batched for agents.

`ale_py.ALEVectorInterface` owns the emulators, a pool of worker threads and the DQN-style
preprocessing (frame skip with max-pooling, resize, grayscale, frame stack, no-op and FIRE
starts, reward clipping). One `send` + `recv` pair steps the whole batch; Python only checks
the actions, converts the rewards and shapes the info dict, so a step costs the same for 1
or 64 sub-envs on the Python side.

The arguments, their defaults and the seeding are ale-py's `AtariVectorEnv`'s, so the same
seeds give the same observation batches. What protogym adds: its three autoreset modes
(ale-py's C++ knows "SameStep" and "NextStep"; "disabled" runs on "NextStep" and refuses to
step a sub-env whose episode ended until ``reset(options={"reset_mask": ...})`` restarts it),
the `_key` info masks of the other vector envs, and checked arguments and actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from protogym.error import (
    AlreadyPendingCallError,
    ClosedEnvironmentError,
    InvalidAction,
    NoAsyncCallError,
    ResetNeeded,
)
from protogym.spaces import Box, Discrete, batch_space
from protogym.spaces.space import Space
from protogym.vector.sync_vector_env import reset_mask_of
from protogym.vector.vector_env import (
    AutoresetMode,
    ModeT_co,
    VectorEnvBase,
    VectorStepResult,
    parse_autoreset_mode,
    seeds_for,
)
from protogym_atari._vector_args import (
    check_game,
    check_int,
    check_probability,
    check_threshold,
    direction_table,
)

if TYPE_CHECKING:
    from ale_py import ALEVectorInterface

__all__ = ["AtariVectorEnv"]

_SAME_STEP = AutoresetMode.SAME_STEP
_DISABLED = AutoresetMode.DISABLED
_CPP_MODE = {
    AutoresetMode.SAME_STEP: "SameStep",
    AutoresetMode.NEXT_STEP: "NextStep",
    AutoresetMode.DISABLED: "NextStep",
}
_MAX_SEED = 2**31 - 1  # the C++ side takes a signed 32-bit seed; -1 means "keep the stream"
_INFO_KEYS = ("env_id", "lives", "frame_number", "episode_frame_number")
_INFO_MASKS = tuple(f"_{key}" for key in _INFO_KEYS)
_UNSIGNED = {size: np.dtype(f"u{size}") for size in (1, 2, 4, 8)}
_SETTINGS = frozenset(
    {
        "game", "num_envs", "batch_size", "num_threads", "thread_affinity_offset",
        "max_num_frames_per_episode", "repeat_action_probability", "full_action_space",
        "continuous", "continuous_action_threshold", "img_height", "img_width", "grayscale",
        "stack_num", "frameskip", "maxpool", "noop_max", "episodic_life", "life_loss_info",
        "reward_clipping", "use_fire_reset",
    }
)  # fmt: skip


class AtariVectorEnv(VectorEnvBase[NDArray[np.uint8], NDArray[Any], ModeT_co]):
    """`num_envs` copies of Atari `game` (a ROM name such as ``"pong"``), stepped in C++.

    Observations are uint8 stacks of shape ``(batch_size, stack_num, img_height, img_width)``
    (with a trailing 3 when ``grayscale=False``), oldest frame first; the stack is
    zero-padded after a reset. Actions are indices into the game's minimal action set (the
    full 18 with ``full_action_space``), or with ``continuous=True`` float32 rows
    ``(radius, angle, fire)`` mapped to the nearest joystick direction as ale-py does.

    ``batch_size < num_envs`` is ale-py's asynchronous mode: each step returns the first
    `batch_size` sub-envs to finish, `info["env_id"]` says which, and the next step's
    actions go to those same sub-envs in that order. `send` and `recv` split a step in two,
    as `AsyncVectorEnv`'s partial batches do, so the agent can think while the emulators run.

    The episode ends at game over (terminated), after `max_num_frames_per_episode` emulator
    frames (truncated), and with ``episodic_life`` at every life lost (terminated; the
    sub-env then restarts the game, as ale-py does). ``life_loss_info`` only reports a lost
    life as terminated: no sub-env restarts on it, in any autoreset mode.
    """

    single_observation_space: Box
    single_action_space: Discrete | Box
    observation_space: Space[NDArray[np.uint8]]
    action_space: Space[NDArray[Any]]

    def __init__(
        self,
        num_envs: int,
        game: str,
        *,
        batch_size: int = 0,
        num_threads: int = 0,
        thread_affinity_offset: int = -1,
        max_num_frames_per_episode: int = 108_000,
        repeat_action_probability: float = 0.0,
        full_action_space: bool = False,
        continuous: bool = False,
        continuous_action_threshold: float = 0.5,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        img_height: int = 84,
        img_width: int = 84,
        grayscale: bool = True,
        stack_num: int = 4,
        frameskip: int = 4,
        maxpool: bool = True,
        noop_max: int = 30,
        episodic_life: bool = False,
        life_loss_info: bool = False,
        reward_clipping: bool = True,
        use_fire_reset: bool = True,
        render_mode: str | None = None,
    ) -> None:
        self.num_envs = check_int("num_envs", num_envs, 1)
        self.game = check_game(game)
        self.batch_size = check_int("batch_size", batch_size, 0, self.num_envs) or self.num_envs
        self._autoreset_mode = parse_autoreset_mode(autoreset_mode)
        if self._autoreset_mode is _DISABLED and self.batch_size != self.num_envs:
            raise ValueError(
                "AtariVectorEnv: autoreset_mode='disabled' needs batch_size == num_envs, since "
                "ale-py resets single sub-envs only then; use 'same_step' or 'next_step' with "
                f"batch_size={batch_size}"
            )
        if render_mode is not None:
            raise ValueError(
                "AtariVectorEnv supports only render_mode=None: ale-py's vector interface "
                "returns the preprocessed observations, not the screens; render single envs "
                f"(protogym.make(id, render_mode='rgb_array')) instead, got {render_mode!r}"
            )
        self.render_mode = None
        self.num_threads = check_int("num_threads", num_threads, 0)
        self.thread_affinity_offset = check_int(
            "thread_affinity_offset", thread_affinity_offset, -1
        )
        self.max_num_frames_per_episode = check_int(
            "max_num_frames_per_episode", max_num_frames_per_episode, 1, _MAX_SEED
        )
        self.repeat_action_probability = check_probability(
            "repeat_action_probability", repeat_action_probability
        )
        self.img_height = check_int("img_height", img_height, 1)
        self.img_width = check_int("img_width", img_width, 1)
        self.stack_num = check_int("stack_num", stack_num, 1)
        self.frameskip = check_int("frameskip", frameskip, 1)
        self.noop_max = check_int("noop_max", noop_max, 0)
        self.continuous_action_threshold = check_threshold(continuous_action_threshold)
        self.full_action_space = bool(full_action_space)
        self.continuous = bool(continuous)
        self.grayscale = bool(grayscale)
        self.maxpool = bool(maxpool)
        self.episodic_life = bool(episodic_life)
        self.life_loss_info = bool(life_loss_info)
        self.reward_clipping = bool(reward_clipping)
        self.use_fire_reset = bool(use_fire_reset)
        self.metadata = {"render_modes": [], "autoreset_mode": self._autoreset_mode}

        try:
            import ale_py
            from ale_py import roms
        except ImportError as error:  # pragma: no cover - ale-py is a dependency
            raise ImportError(
                "AtariVectorEnv needs ale-py, a dependency of protogym-atari: reinstall "
                "protogym-atari, or `pip install ale-py==0.12.1`"
            ) from error

        rom_path = roms.get_rom_path(self.game)
        if rom_path is None:  # pragma: no cover - every name in games.ROMS ships with ale-py
            raise ValueError(f"AtariVectorEnv: ale-py has no ROM file for {self.game!r}")
        self._ale: ALEVectorInterface | None = ale_py.ALEVectorInterface(
            rom_path=rom_path,
            num_envs=self.num_envs,
            frame_skip=self.frameskip,
            stack_num=self.stack_num,
            img_height=self.img_height,
            img_width=self.img_width,
            grayscale=self.grayscale,
            maxpool=self.maxpool,
            noop_max=self.noop_max,
            use_fire_reset=self.use_fire_reset,
            episodic_life=self.episodic_life,
            life_loss_info=self.life_loss_info,
            reward_clipping=self.reward_clipping,
            max_episode_steps=self.max_num_frames_per_episode,
            repeat_action_probability=self.repeat_action_probability,
            full_action_space=self.full_action_space or self.continuous,
            batch_size=self.batch_size,
            num_threads=self.num_threads,
            thread_affinity_offset=self.thread_affinity_offset,
            autoreset_mode=_CPP_MODE[self._autoreset_mode],
        )
        self._action_names = [action.name for action in self._ale.get_action_set()]

        shape: tuple[int, ...] = (self.stack_num, self.img_height, self.img_width)
        self.single_observation_space = Box(
            0, 255, shape=shape if self.grayscale else (*shape, 3), dtype=np.uint8
        )
        if self.continuous:
            self.single_action_space = Box(
                np.array([0.0, -np.pi, 0.0], dtype=np.float32),
                np.array([1.0, np.pi, 1.0], dtype=np.float32),
                dtype=np.float32,
            )
            self._directions = direction_table(self._action_names)
        else:
            self.single_action_space = Discrete(len(self._action_names))
        self.observation_space = batch_space(self.single_observation_space, self.batch_size)
        self.action_space = batch_space(self.single_action_space, self.batch_size)

        self._full_strength = np.ones(self.batch_size, dtype=np.float32)
        self._every_row = np.ones((len(_INFO_KEYS), self.batch_size), dtype=np.bool_)
        self._started = False
        self._sent = False  # a send() waits for its recv()
        # Whom send() steps, as a list: the array in the info is the caller's to change.
        self._next_ids = list(range(self.batch_size))
        # Only with life_loss_info (and not episodic_life) can `terminated` be a lost life
        # after which the game goes on; telling those apart needs each sub-env's lives.
        self._life_signal_only = self.life_loss_info and not self.episodic_life
        self._lives = np.zeros(self.num_envs, dtype=np.int32)
        # Disabled mode: which sub-envs ended and are not reset yet, and whether any is.
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)
        self._any_ended = False
        self._watch_ends = self._autoreset_mode is not AutoresetMode.NEXT_STEP
        self.closed = False

    @property
    def autoreset_mode(self) -> ModeT_co:
        return self._autoreset_mode  # type: ignore[return-value]

    def get_action_meanings(self) -> list[str]:
        """The names of the actions, by index (``["NOOP", "FIRE", "RIGHT", ...]``)."""
        return list(self._action_names)

    # -- the protocol ----------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[np.uint8], dict[str, Any]]:
        """Reset every sub-env, or those in ``options["reset_mask"]``.

        An int seed gives sub-env i the seed ``seed + i`` (a fresh emulator and no-op
        stream, as ale-py seeds them); a list or array gives one seed (or None) per sub-env;
        None keeps each sub-env's random stream going.
        """
        ale = self._open_ale()
        if self._sent:
            raise AlreadyPendingCallError(
                "AtariVectorEnv.reset() was called while a send() is pending; call recv() "
                "first",
                "send",
            )
        mask = reset_mask_of(options, self.num_envs)
        unknown = sorted(set(options or ()) - {"reset_mask"})
        if unknown:
            raise ValueError(
                f"AtariVectorEnv.reset() takes only the option 'reset_mask', got {unknown}"
            )
        if isinstance(seed, np.ndarray):  # ale-py's spelling of one seed per sub-env
            seed = seed.tolist()
        seeds = seeds_for(seed, self.num_envs)
        if mask is None:
            rows = np.arange(self.num_envs, dtype=np.int64)
        else:
            if not self._started and not mask.all():
                raise ValueError(
                    "the first reset of AtariVectorEnv must reset every sub-env; drop "
                    'options["reset_mask"] or make it all True'
                )
            if self.batch_size != self.num_envs and not mask.all():
                raise ValueError(
                    f"AtariVectorEnv resets single sub-envs only when batch_size == num_envs "
                    f"(here {self.batch_size} < {self.num_envs}): ale-py's asynchronous mode "
                    "resets the whole batch; drop the reset_mask"
                )
            rows = np.flatnonzero(mask).astype(np.int64)
        row_seeds = np.array([_checked_seed(seeds[row]) for row in rows.tolist()], np.int64)
        observations, info = ale.reset(rows, row_seeds)
        self._started = True
        if self._any_ended:
            self._ended[rows] = False
            self._any_ended = bool(self._ended.any())
        infos = self._masked(info)
        self._lives[info["env_id"]] = info["lives"]
        self._next_ids = info["env_id"].tolist()
        return observations, infos

    def step(self, actions: NDArray[Any]) -> VectorStepResult[NDArray[np.uint8]]:
        self.send(actions)
        return self.recv()

    def send(self, actions: NDArray[Any], env_ids: Any = None) -> None:
        """Start stepping the sub-envs of the last batch returned (by `reset` or `recv`)
        with `actions`, one row each, without waiting; `recv` collects the next batch.

        With ``batch_size < num_envs`` that batch holds the first sub-envs to finish, and
        ale-py gives each action to the sub-env in its row, so `env_ids`, if given, must
        be the last batch's ``info["env_id"]`` in that order (it is checked, not used).
        """
        ale = self._open_ale()
        if not self._started:
            raise ResetNeeded(
                "AtariVectorEnv has no state yet: call env.reset() before env.step()"
            )
        if self._sent:
            raise AlreadyPendingCallError(
                "AtariVectorEnv.send() was called while a send() is pending; call recv() "
                "first",
                "send",
            )
        action_ids: NDArray[np.integer[Any]]
        if self.continuous:
            action_ids, strengths = self._continuous_actions(actions)
        else:
            action_ids, strengths = self._discrete_actions(actions), self._full_strength
        if env_ids is not None:
            given = np.asarray(env_ids).tolist()  # nested lists for other shapes: unequal
            if given != self._next_ids:
                raise ValueError(
                    f"AtariVectorEnv.send(): ale-py steps the sub-envs of the last batch, "
                    f"{self._next_ids}, one action per row in that order; got env_ids "
                    f"{given}. Pass the last info['env_id'] (or no env_ids)"
                )
        if self._any_ended:  # only ever set in disabled mode
            raise ValueError(
                f"AtariVectorEnv: sub-envs {np.flatnonzero(self._ended).tolist()} ended their "
                "episodes and autoreset_mode is 'disabled'; reset them first with "
                'env.reset(options={"reset_mask": mask})'
            )
        ale.send(action_ids, strengths)
        self._sent = True

    def recv(self) -> VectorStepResult[NDArray[np.uint8]]:
        """The batch the pending `send` stepped (with ``batch_size < num_envs``: the first
        `batch_size` sub-envs to finish), ``info["env_id"]`` naming each row's sub-env."""
        ale = self._open_ale()
        if not self._sent:
            raise NoAsyncCallError(
                "AtariVectorEnv.recv() was called with no send() pending; call send(actions) "
                "first",
                "send",
            )
        self._sent = False
        observations, rewards, terminated, truncated, info = ale.recv()
        final_obs = info.pop("final_obs", None)
        infos = self._masked(info)
        if self._watch_ends:  # same-step and disabled modes
            done = terminated | truncated
            if done.any():
                restarted = self._restarted(done, terminated, info)
                if self._autoreset_mode is _SAME_STEP:
                    self._add_finals(infos, observations, final_obs, done, restarted)
                elif restarted.any():
                    self._ended[info["env_id"][restarted]] = True
                    self._any_ended = True
        if self._life_signal_only:
            self._lives[info["env_id"]] = info["lives"]
        self._next_ids = info["env_id"].tolist()
        return observations, rewards.astype(np.float64), terminated, truncated, infos

    def render(self) -> None:
        """Nothing to draw: the C++ interface exposes no screens (see `__init__`)."""
        self._open_ale()
        return None

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker threads and free the emulators (`close` calls it once)."""
        self._started = False
        self._ale = None  # the C++ destructor joins the threads

    # -- the Sync/Async interface, on one batched env -------------------------------------

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute `name` of each sub-env: they all share this env's settings."""
        self._open_ale()
        return (getattr(self, name),) * self.num_envs

    def set_attr(self, name: str, values: Any) -> None:
        """Set `name` like `SyncVectorEnv.set_attr`, for attributes of the Python side only.

        The settings given to the constructor live in the C++ emulators, which cannot change
        them, so setting one is an error; other attributes are shared by every sub-env and
        take a value only if all sub-envs get the same one.
        """
        self._open_ale()
        if name in _SETTINGS:
            raise ValueError(
                f"AtariVectorEnv: {name!r} is fixed when ale-py builds the emulators; make a "
                f"new env with {name}=... instead"
            )
        if isinstance(values, list | tuple):
            if len(values) != self.num_envs:
                raise ValueError(
                    f"set_attr({name!r}) got {len(values)} values for {self.num_envs} sub-envs"
                )
            if any(value != values[0] for value in values):
                raise ValueError(
                    f"AtariVectorEnv keeps one {name!r} for all its sub-envs, so they cannot "
                    "take different values; set one value"
                )
            values = values[0]
        setattr(self, name, values)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method `name` once and give its result to each sub-env (they share it); a
        non-callable attribute is read as `get_attr` reads it."""
        self._open_ale()
        member = getattr(self, name)
        if not callable(member):
            return self.get_attr(name)
        return (member(*args, **kwargs),) * self.num_envs

    # -- helpers -----------------------------------------------------------------------

    def _open_ale(self) -> ALEVectorInterface:
        ale = self._ale
        if ale is None:
            raise ClosedEnvironmentError(
                "this AtariVectorEnv is closed; make a new one to keep going"
            )
        return ale

    def _discrete_actions(self, actions: Any) -> NDArray[np.integer[Any]]:
        """`actions` as an int array of the batch's length, each an index of the set."""
        array = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        kind = array.dtype.kind
        if array.shape != (self.batch_size,) or kind not in "iu":
            raise InvalidAction(
                f"AtariVectorEnv.step() needs an int array of shape ({self.batch_size},), got "
                f"{array.dtype} of shape {array.shape}"
            )
        # Viewed as unsigned, negative actions become huge: one max checks both ends.
        unsigned = array.view(_UNSIGNED[array.dtype.itemsize]) if kind == "i" else array
        count = len(self._action_names)
        if np.maximum.reduce(unsigned) >= count:
            raise InvalidAction(
                f"AtariVectorEnv.step() got actions outside the action set 0..{count - 1} "
                f"({', '.join(self._action_names)}): {array.tolist()}"
            )
        if array.dtype != np.int64 and array.dtype != np.int32:
            array = array.astype(np.int64)
        return array

    def _continuous_actions(
        self, actions: Any
    ) -> tuple[NDArray[np.int32], NDArray[np.float32]]:
        """Joystick indices and paddle strengths of ``(radius, angle, fire)`` rows."""
        array = np.asarray(actions, dtype=np.float32)
        space = self.single_action_space
        assert isinstance(space, Box)
        if array.shape != (self.batch_size, 3) or not (
            np.all(array >= space.low) and np.all(array <= space.high)
        ):
            raise InvalidAction(
                f"AtariVectorEnv.step() needs float32 rows (radius in [0, 1], angle in "
                f"[-pi, pi], fire in [0, 1]) of shape ({self.batch_size}, 3), got {actions!r}"
            )
        radius, angle = array[:, 0], array[:, 1]
        threshold = self.continuous_action_threshold
        x = radius * np.cos(angle)
        y = radius * np.sin(angle)
        horizontal = (x > threshold).astype(np.int32) - (x < -threshold) + 1
        vertical = (y > threshold).astype(np.int32) - (y < -threshold) + 1
        fire = (array[:, 2] > threshold).astype(np.int32)
        return self._directions[horizontal, vertical, fire], radius

    def _masked(self, info: dict[str, Any]) -> dict[str, Any]:
        """ale-py's per-row info arrays with the `_key` masks of protogym's vector envs
        (every row reports every key)."""
        masks = self._every_row.copy()  # fresh arrays each batch: they are the caller's
        infos: dict[str, Any] = {}
        for key, mask_key, mask in zip(_INFO_KEYS, _INFO_MASKS, masks, strict=True):
            infos[key] = info[key]
            infos[mask_key] = mask
        return infos

    def _restarted(
        self, done: NDArray[np.bool_], terminated: NDArray[np.bool_], info: dict[str, Any]
    ) -> NDArray[np.bool_]:
        """Which done rows the C++ side restarts: all of them, except, with
        `life_loss_info` alone, a life lost with the game going on (lives fell, some left)."""
        if not self._life_signal_only:
            return done
        lives = info["lives"]
        life_lost = terminated & (lives > 0) & (lives < self._lives[info["env_id"]])
        restarted: NDArray[np.bool_] = done & ~life_lost
        return restarted

    def _add_finals(
        self,
        infos: dict[str, Any],
        observations: NDArray[np.uint8],
        final_obs: NDArray[np.uint8] | None,
        done: NDArray[np.bool_],
        restarted: NDArray[np.bool_],
    ) -> None:
        """Same-step mode: the ended episodes' last observations and infos in Gymnasium's
        layout, as Sync gives them (``final_obs``, an object array, and ``final_info``, a
        batched info, with masks ``_final_obs`` and ``_final_info``).

        A restarted row's is the one ale-py kept before the reset; a row whose game goes on
        (a life lost with `life_loss_info`) ended on the observation it returns. ale-py
        overwrites the ended episode's info with the new one's, so the batched final info
        has no keys.
        """
        finals = np.empty(self.batch_size, dtype=object)
        for row in np.flatnonzero(done).tolist():
            if restarted[row] and final_obs is not None:
                finals[row] = final_obs[row]
            else:
                finals[row] = observations[row].copy()
        infos["final_obs"] = finals
        infos["_final_obs"] = done
        infos["final_info"] = {}
        infos["_final_info"] = done.copy()


def _checked_seed(seed: int | None) -> int:
    """A sub-env's seed for the C++ side: -1 for None, else an int in [0, 2**31 - 1]."""
    if seed is None:
        return -1
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise ValueError(f"AtariVectorEnv.reset() seeds must be ints or None, got {seed!r}")
    if not 0 <= seed <= _MAX_SEED:
        raise ValueError(
            f"AtariVectorEnv.reset() seeds must be in [0, 2**31 - 1] (ale-py's seed is a signed "
            f"32-bit int; an int seed s gives sub-env i the seed s + i), got {seed}"
        )
    return int(seed)
