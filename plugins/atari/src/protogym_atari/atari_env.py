"""Atari 2600 games on the Arcade Learning Environment, stepped through `ale_py.ALEInterface`.

The behaviour is ale-py 0.12.1's own env's, operation for operation, so that a seed and a
sequence of actions give byte-identical observations, rewards and flags:

* construction sets the logger, the sticky-action probability and the frame limit, then seeds
  and loads the ROM (and sets its mode and difficulty);
* `reset(seed=s)` draws two 32-bit words from ``SeedSequence(s)``: the first seeds the
  generator of stochastic frame skips (`np_random`), the second, as a signed 32-bit int, the
  emulator; the ROM is then loaded again so the emulator starts from that seed. A reset
  without a seed only restarts the game;
* a step repeats the action for the frame skip (fixed, or drawn with
  ``np_random.integers(low, high)`` for a ``(low, high)`` pair) and sums the rewards.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np
from numpy.typing import NDArray

import protogym
from protogym.error import UnsupportedMode
from protogym.spaces import Box, Discrete
from protogym.utils.seeding import np_random as make_np_random
from protogym_atari.games import suggest_games

try:
    import ale_py
    from ale_py import roms as ale_roms
except ImportError as error:  # pragma: no cover - exercised by a test that hides ale-py
    raise ImportError(
        "the Atari envs need ale-py, which is not installed; install the plugin with its "
        "engine: pip install protogym-atari (it depends on ale-py==0.12.1, which ships the ROMs)"
    ) from error

if TYPE_CHECKING:
    from protogym.utils.play import KeyCombination

__all__ = ["OBS_TYPES", "AtariEnv", "ContinuousAtariEnv", "Observation"]

Observation = NDArray[np.uint8]
ObsType = Literal["rgb", "grayscale", "ram"]
OBS_TYPES: tuple[ObsType, ...] = ("rgb", "grayscale", "ram")
RENDER_MODES = ("human", "rgb_array")
FRAMES_PER_SECOND = 60  # the console's NTSC frame rate

# pygame 2 (SDL2) key codes, so that asking for the key mapping does not import pygame.
_KEY_UP, _KEY_DOWN, _KEY_LEFT, _KEY_RIGHT = 0x40000052, 0x40000051, 0x40000050, 0x4000004F
_KEYS_OF_DIRECTION: dict[str, tuple[tuple[int | str, ...], ...]] = {
    "UP": ((_KEY_UP,), ("w",)),
    "DOWN": ((_KEY_DOWN,), ("s",)),
    "LEFT": ((_KEY_LEFT,), ("a",)),
    "RIGHT": ((_KEY_RIGHT,), ("d",)),
}

_A = TypeVar("_A")


def _validated_frameskip(frameskip: object) -> int | tuple[int, int]:
    """`frameskip` as a positive int or a ``(low, high)`` pair, low < high; a list (as a
    spec read from JSON holds it) counts as a pair."""
    if isinstance(frameskip, int | np.integer) and not isinstance(frameskip, bool):
        if frameskip > 0:
            return int(frameskip)
    elif isinstance(frameskip, tuple | list) and len(frameskip) == 2:
        low, high = frameskip
        whole = all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high))
        if whole and 0 < low < high:
            return (low, high)
    raise ValueError(
        f"frameskip must be a positive int or a (low, high) pair with 0 < low < high (a "
        f"frame skip drawn from low to high - 1 each step), got {frameskip!r}"
    )


def _mean_skip(frameskip: int | tuple[int, int]) -> float:
    if isinstance(frameskip, int):
        return float(frameskip)
    return (frameskip[0] + frameskip[1] - 1) / 2


class _AtariBase(protogym.Env[Observation, _A]):
    """The emulator, its seeding, observations and infos; subclasses decode actions."""

    observation_space: Box
    render_mode: str | None
    # Read by `make` before construction; each env sets its own render_fps from its skips.
    metadata: Mapping[str, Any] = MappingProxyType(
        {"render_modes": RENDER_MODES, "render_fps": FRAMES_PER_SECOND}
    )

    def __init__(
        self,
        game: str,
        mode: int | None,
        difficulty: int | None,
        obs_type: ObsType,
        frameskip: int | tuple[int, int] | Sequence[int],
        repeat_action_probability: float,
        full_action_space: bool,
        max_num_frames_per_episode: int | None,
        render_mode: str | None,
    ) -> None:
        known = ale_roms.get_all_rom_ids()
        if game not in known:
            close = suggest_games(game) if isinstance(game, str) else []
            hint = f"; did you mean {' or '.join(repr(g) for g in close)}?" if close else ""
            raise ValueError(
                f"unknown Atari game {game!r}{hint} Games are ale-py's ROM names in snake_case, "
                "e.g. 'pong', 'space_invaders' (protogym_atari.games.ROMS lists them)"
            )
        if obs_type not in OBS_TYPES:
            raise ValueError(
                f"obs_type must be one of {', '.join(repr(t) for t in OBS_TYPES)}, got {obs_type!r}"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UnsupportedMode(
                f"render_mode must be one of {', '.join(repr(m) for m in RENDER_MODES)} or None, "
                f"got {render_mode!r}"
            )
        if not 0.0 <= repeat_action_probability <= 1.0:
            raise ValueError(
                "repeat_action_probability (the chance of repeating the previous action, "
                f"'sticky actions') must be in [0, 1], got {repeat_action_probability!r}"
            )
        self._frameskip = _validated_frameskip(frameskip)
        self._game = game
        self._mode = mode
        self._difficulty = difficulty
        self._obs_type: ObsType = obs_type
        self._init_kwargs: dict[str, Any] = {
            "game": game,
            "mode": mode,
            "difficulty": difficulty,
            "obs_type": obs_type,
            "frameskip": frameskip,
            "repeat_action_probability": repeat_action_probability,
            "full_action_space": full_action_space,
            "max_num_frames_per_episode": max_num_frames_per_episode,
            "render_mode": render_mode,
        }
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": RENDER_MODES,
            "render_fps": FRAMES_PER_SECOND / _mean_skip(self._frameskip),
        }

        self.ale = ale_py.ALEInterface()
        self.ale.setLoggerMode(ale_py.LoggerMode.Error)
        self.ale.setFloat("repeat_action_probability", repeat_action_probability)
        if max_num_frames_per_episode is not None:
            self.ale.setInt("max_num_frames_per_episode", max_num_frames_per_episode)
        if render_mode == "human":
            self.ale.setBool("display_screen", True)
            self.ale.setBool("sound", True)
        self._rom_path = ale_roms.get_rom_path(game)
        self._seed_emulator(None)
        self.ale.loadROM(str(self._rom_path))
        self._check_choice("mode", "modes", mode, self.ale.getAvailableModes())
        self._check_choice(
            "difficulty", "difficulties", difficulty, self.ale.getAvailableDifficulties()
        )
        self._set_mode_and_difficulty()

        self._action_set = (
            self.ale.getLegalActionSet() if full_action_space else self.ale.getMinimalActionSet()
        )
        height, width = self.ale.getScreenDims()
        self._grab: Callable[[], Observation]
        if obs_type == "ram":
            self._grab = self.ale.getRAM
            shape: tuple[int, ...] = (self.ale.getRAMSize(),)
        elif obs_type == "rgb":
            self._grab = self.ale.getScreenRGB
            shape = (height, width, 3)
        else:
            self._grab = self.ale.getScreenGrayscale
            shape = (height, width)
        self.observation_space = Box(0, 255, shape=shape, dtype=np.uint8)

    def _check_choice(
        self, name: str, plural: str, value: int | None, available: list[int]
    ) -> None:
        if value is not None and value not in available:
            raise ValueError(
                f"{self._game!r} has no {name} {value!r}; its {plural} are "
                f"{', '.join(str(v) for v in available)}"
            )

    def _seed_emulator(self, seed: int | None) -> tuple[np.uint32, np.uint32]:
        """Seed `np_random` and the emulator from two words of ``SeedSequence(seed)``."""
        np_seed, ale_seed = np.random.SeedSequence(seed).generate_state(n_words=2)
        self.np_random, _ = make_np_random(int(np_seed))
        self.ale.setInt("random_seed", int(ale_seed.astype(np.int32)))
        return np_seed, ale_seed

    def _set_mode_and_difficulty(self) -> None:
        if self._mode is not None:
            self.ale.setMode(self._mode)
        if self._difficulty is not None:
            self.ale.setDifficulty(self._difficulty)

    # -- the contract ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        seeds = None
        if seed is not None:
            seeds = self._seed_emulator(seed)
            self.ale.loadROM(str(self._rom_path))
            self._set_mode_and_difficulty()
        self.ale.reset_game()
        info = self._info()
        if seeds is not None:
            info["seeds"] = seeds
        return self._grab(), info

    def _decode(self, action: _A) -> tuple[ale_py.Action, float]:
        """The emulator's action and paddle strength for `action`."""
        raise NotImplementedError

    def step(self, action: _A) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        frameskip = self._frameskip
        if not isinstance(frameskip, int):
            frameskip = int(self.np_random.integers(*frameskip))
        ale_action, strength = self._decode(action)
        act = self.ale.act
        reward = 0.0
        for _ in range(frameskip):
            reward += act(ale_action, strength)
        terminated = self.ale.game_over(with_truncation=False)
        truncated = self.ale.game_truncated()
        return self._grab(), reward, terminated, truncated, self._info()

    def _info(self) -> dict[str, Any]:
        ale = self.ale
        return {
            "lives": ale.lives(),
            "episode_frame_number": ale.getEpisodeFrameNumber(),
            "frame_number": ale.getFrameNumber(),
        }

    def render(self) -> Observation | None:
        """The screen as an (210, 160, 3) array in ``rgb_array`` mode; in ``human`` mode the
        emulator shows its own window (with sound) as it runs, so this returns None."""
        if self.render_mode == "rgb_array":
            return self.ale.getScreenRGB()
        if self.render_mode is None:
            env_id = getattr(self.spec, "id", None) or "ALE/Pong-v5"
            warnings.warn(
                f"{type(self).__name__}.render() was called but the env has no render_mode; "
                f'make it with one, e.g. protogym.make("{env_id}", render_mode="rgb_array")',
                UserWarning,
                stacklevel=2,
            )
        return None

    # -- ale-py's extras -------------------------------------------------------------------

    def get_action_meanings(self) -> list[str]:
        """The name of each action (``"NOOP"``, ``"FIRE"``, ``"UPLEFT"``...), by index."""
        return [action.name for action in self._action_set]

    def clone_state(self, include_rng: bool = False) -> ale_py.ALEState:
        """The emulator's state; with `include_rng` also its random generator, so that
        restoring it replays the same future."""
        return self.ale.cloneState(include_rng=include_rng)

    def restore_state(self, state: ale_py.ALEState) -> None:
        """Put the emulator back in a state from `clone_state`."""
        self.ale.restoreState(state)

    # -- pickling: a fresh env with the same arguments, as ale-py's env pickles -------------

    def __getstate__(self) -> dict[str, Any]:
        return dict(self._init_kwargs)

    def __setstate__(self, state: dict[str, Any]) -> None:
        type(self).__init__(self, **state)


class AtariEnv(_AtariBase[int | np.integer[Any]]):
    """An Atari game with discrete actions: indexes into the game's action set.

    `game` is an ale-py ROM name (``"pong"``); `obs_type` ``"rgb"`` gives (210, 160, 3)
    frames, ``"grayscale"`` (210, 160) and ``"ram"`` the 128 bytes of RAM. `frameskip` is a
    fixed count or a ``(low, high)`` range drawn each step; `repeat_action_probability` is
    the chance that the emulator repeats the previous action (sticky actions);
    `full_action_space` uses all 18 actions instead of the game's minimal set; `mode` and
    `difficulty` pick one of the ROM's variants; `max_num_frames_per_episode` truncates.
    Continuous actions are `ContinuousAtariEnv`.
    """

    continuous = False  # ale-py's flag for the kind of actions

    action_space: Discrete

    def __init__(
        self,
        game: str,
        mode: int | None = None,
        difficulty: int | None = None,
        obs_type: ObsType = "rgb",
        frameskip: int | tuple[int, int] | Sequence[int] = 4,
        repeat_action_probability: float = 0.25,
        full_action_space: bool = False,
        continuous: Literal[False] = False,
        max_num_frames_per_episode: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if continuous:
            raise ValueError(
                "continuous=True gives another action type (a float array), so it is its own "
                "class: protogym_atari.ContinuousAtariEnv(game=...), or register an id with "
                "entry_point='protogym_atari.atari_env:ContinuousAtariEnv'"
            )
        super().__init__(
            game,
            mode,
            difficulty,
            obs_type,
            frameskip,
            repeat_action_probability,
            full_action_space,
            max_num_frames_per_episode,
            render_mode,
        )
        self._by_index: dict[int | np.integer[Any], ale_py.Action] = dict(
            enumerate(self._action_set)
        )
        self.action_space = Discrete(len(self._action_set))

    def _decode(self, action: int | np.integer[Any]) -> tuple[ale_py.Action, float]:
        try:
            return self._by_index[action], 1.0
        except (KeyError, TypeError):
            pass
        try:
            return self._by_index[operator.index(action)], 1.0
        except (KeyError, TypeError):
            raise self._invalid_action(action) from None

    def _invalid_action(self, action: object) -> ValueError:
        names = ", ".join(f"{i} {name}" for i, name in enumerate(self.get_action_meanings()))
        return ValueError(
            f"{self._game!r} got the action {action!r}, which is not in its action set: the "
            f"valid actions are the ints 0 to {len(self._action_set) - 1} ({names})"
        )

    def get_keys_to_action(self) -> dict[KeyCombination, int]:
        """Keys for `protogym play`: arrows or W/A/S/D to move, space to fire, held together
        for the combined actions (``UPLEFTFIRE`` is up + left + space); no key is NOOP."""
        mapping: dict[KeyCombination, int] = {}
        for index, name in enumerate(self.get_action_meanings()):
            directions = [d for d in ("UP", "DOWN", "LEFT", "RIGHT") if d in name]
            fire: tuple[int | str, ...] = (" ",) if "FIRE" in name else ()
            if not directions:
                mapping[fire] = index
                continue
            for family in range(2):  # arrows, then W/A/S/D
                keys = tuple(k for d in directions for k in _KEYS_OF_DIRECTION[d][family])
                mapping[keys + fire] = index
        return mapping


class ContinuousAtariEnv(_AtariBase[NDArray[np.float32]]):
    """An Atari game driven by a joystick in polar form: ``(radius, angle, fire)``.

    As in ale-py, the stick's x and y (``radius * cos(angle)``, ``radius * sin(angle)``)
    and fire each count as pressed beyond `continuous_action_threshold`, which picks one of
    the 18 actions; the radius is the paddle strength. Other arguments as `AtariEnv`.
    """

    continuous = True
    action_space: Box

    def __init__(
        self,
        game: str,
        mode: int | None = None,
        difficulty: int | None = None,
        obs_type: ObsType = "rgb",
        frameskip: int | tuple[int, int] | Sequence[int] = 4,
        repeat_action_probability: float = 0.25,
        continuous_action_threshold: float = 0.5,
        max_num_frames_per_episode: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            game,
            mode,
            difficulty,
            obs_type,
            frameskip,
            repeat_action_probability,
            True,
            max_num_frames_per_episode,
            render_mode,
        )
        del self._init_kwargs["full_action_space"]
        self._init_kwargs["continuous_action_threshold"] = continuous_action_threshold
        self.continuous_action_threshold = continuous_action_threshold
        self.action_space = Box(
            low=np.array([0.0, -np.pi, 0.0], dtype=np.float32),
            high=np.array([1.0, np.pi, 1.0], dtype=np.float32),
            dtype=np.float32,
        )

    def _decode(self, action: NDArray[np.float32]) -> tuple[ale_py.Action, float]:
        if not (
            isinstance(action, np.ndarray) and action.dtype == np.float32 and action.shape == (3,)
        ):
            raise ValueError(
                f"{self._game!r} with continuous actions takes a float32 array of shape (3,) "
                f"(radius in [0, 1], angle in [-pi, pi], fire in [0, 1]), got {action!r}"
            )
        radius, angle, fire = action
        x, y = radius * np.cos(angle), radius * np.sin(angle)
        threshold = self.continuous_action_threshold
        vertical = "UP" if y > threshold else "DOWN" if y < -threshold else ""
        horizontal = "RIGHT" if x > threshold else "LEFT" if x < -threshold else ""
        name = vertical + horizontal + ("FIRE" if fire > threshold else "")
        return ale_py.Action.__members__[name or "NOOP"], float(radius)
