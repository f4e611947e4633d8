"""gymnax interop: any gymnax env as a protogym `FuncEnv`, and a `FuncEnv` as a gymnax env.

`from_gymnax(env, params)` reads a gymnax env through its no-autoreset functions
(`reset_env`, `step_env`), so protogym's functional wrappers decide time limits and autoreset.
gymnax's `step_env` returns observation, reward, termination and info together while a
`FuncEnv` asks for them one function at a time: the transition keeps them in the state
(`GymnaxState`), so gymnax's step runs once per step and the other functions only read it.

The two libraries split an episode's end the same way since gymnax 1.0: `step_env` reports
natural termination and `is_truncated` the time limit, ``state.time >=
params.max_steps_in_episode``. `terminal` is gymnax's termination; the time limit is not in
the `FuncEnv` but in `max_episode_steps`, which ``make("gymnax:...")`` hands to protogym's
time limit, so it comes out as ``truncated``. An env whose params have no integer
`max_steps_in_episode`, or that overrides `is_truncated` (none of gymnax 1.0's do), keeps
only its termination; see docs/interop/gymnax.md.

`to_gymnax(func_env, params)` is a `gymnax.environments.environment.Environment`: gymnax's
`step` (with its autoreset), its wrappers and `jit`/`vmap` of its methods all work on it.
It draws keys exactly as protogym's pure step and reset do (`protogym.functional.pure`).
"""

from __future__ import annotations

import difflib
import math
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from protogym import spaces
from protogym.functional import FuncEnv
from protogym.functional.pure import pure_reset, pure_step
from protogym.registration import EnvSpec
from protogym.spaces.space import Space
from protogym.vector.vector_env import AutoresetMode, parse_autoreset_mode

_INSTALL = (
    'pip install --no-deps "gymnax==1.0.*" "flax==0.12.*" "seaborn==0.13.*" && pip install '
    "six msgpack rich pyyaml absl-py (gymnax 1.0 pins gymnasium<1.4; see docs/interop/gymnax.md)"
)

try:
    import gymnax
    import jax
    import jax.numpy as jnp
    from gymnax.environments import spaces as gymnax_spaces
    from gymnax.environments.environment import Environment
except ImportError as error:  # pragma: no cover - exercised without gymnax
    raise ImportError(
        f"protogym.interop.gymnax needs jax and gymnax, which are not installed ({error}): "
        f"{_INSTALL}"
    ) from error

__all__ = [
    "GymnaxFuncEnv",
    "GymnaxState",
    "ProtogymGymnaxEnv",
    "ProtogymGymnaxParams",
    "ProtogymGymnaxState",
    "from_gymnax",
    "from_gymnax_space",
    "gymnax_env_spec",
    "make_gymnax_env",
    "make_gymnax_vector_env",
    "to_gymnax",
    "to_gymnax_space",
]


# -- spaces ------------------------------------------------------------------------------


def from_gymnax_space(space: gymnax_spaces.Space) -> Space[Any]:
    """The protogym space with the elements of the gymnax `space` (same dtype and bounds)."""
    if isinstance(space, gymnax_spaces.Discrete):
        return spaces.Discrete(int(space.n), dtype=np.dtype(space.dtype))
    if isinstance(space, gymnax_spaces.Box):
        dtype = np.dtype(space.dtype)
        shape = tuple(int(size) for size in space.shape)
        low = np.broadcast_to(np.asarray(space.low, dtype=dtype), shape)
        high = np.broadcast_to(np.asarray(space.high, dtype=dtype), shape)
        return spaces.Box(low, high, shape, dtype)
    if isinstance(space, gymnax_spaces.Dict):
        return spaces.Dict({key: from_gymnax_space(sub) for key, sub in space.spaces.items()})
    if isinstance(space, gymnax_spaces.Tuple):
        return spaces.Tuple(tuple(from_gymnax_space(sub) for sub in space.spaces))
    raise TypeError(
        f"cannot convert the gymnax space {space!r} ({type(space).__name__}); "
        "gymnax's Discrete, Box, Dict and Tuple have protogym counterparts"
    )


def to_gymnax_space(space: Space[Any]) -> gymnax_spaces.Space:
    """The gymnax space with the elements of the protogym `space`.

    gymnax's `Discrete` starts at 0 and holds int32 (int64 only in jax's x64 mode), so a
    `Discrete` with another start has no counterpart.
    """
    if isinstance(space, spaces.Discrete):
        if int(space.start) != 0:
            raise ValueError(
                f"{space} starts at {space.start}, but gymnax's Discrete always starts at 0; "
                "shift the actions (protogym.wrappers.TransformAction) before converting"
            )
        return gymnax_spaces.Discrete(int(space.n))
    if isinstance(space, spaces.Box):
        return gymnax_spaces.Box(
            jnp.asarray(space.low), jnp.asarray(space.high), tuple(space.shape), space.dtype
        )
    if isinstance(space, spaces.Dict):
        return gymnax_spaces.Dict({key: to_gymnax_space(sub) for key, sub in space.items()})
    if isinstance(space, spaces.Tuple):
        return gymnax_spaces.Tuple([to_gymnax_space(sub) for sub in space])
    raise TypeError(
        f"gymnax has no space like {space!r} ({type(space).__name__}); Discrete (from 0), "
        "Box, Dict and Tuple convert"
    )


# -- gymnax -> protogym --------------------------------------------------------------------


class GymnaxState(NamedTuple):
    """The state of a `GymnaxFuncEnv`: gymnax's state and what its last step returned."""

    env_state: Any
    obs: Any
    reward: Any
    terminated: Any
    info: dict[str, Any]


class GymnaxFuncEnv(FuncEnv[GymnaxState, Any, Any, Any, Any, None, Any]):
    """A gymnax env as a protogym `FuncEnv`; build it with `from_gymnax`.

    Every output is cast to the dtype gymnax's `step_env` gives it (Python numbers in
    gymnax's reset state become arrays), so reset and stepped states have one structure and
    dtype: an autoreset can select between them under `jit`.
    """

    observation_space: Space[Any]
    action_space: Space[Any]

    def __init__(self, env: Environment[Any, Any], params: Any = None) -> None:
        self.gymnax_env = env
        self.params = env.default_params if params is None else params
        super().__init__()
        self.observation_space = from_gymnax_space(env.observation_space(self.params))
        self.action_space = from_gymnax_space(env.action_space(self.params))
        limit = getattr(self.params, "max_steps_in_episode", None)
        self.max_episode_steps: int | None = (
            int(limit) if isinstance(limit, int | np.integer) and limit > 0 else None
        )
        """gymnax's time limit, for protogym's (None when the params have none)."""

    def __repr__(self) -> str:
        return f"GymnaxFuncEnv({self.gymnax_env.name})"

    def get_default_params(self, **kwargs: Any) -> Any:
        return self.params

    def _params(self, params: Any) -> Any:
        return self.params if params is None else params

    @cached_property
    def _step_shapes(self) -> tuple[Any, Any, Any, Any, Any]:
        """Shapes and dtypes of `step_env`'s `(obs, state, reward, terminated, info)`."""
        env, params = self.gymnax_env, self.params
        action_space = env.action_space(params)

        def reset_then_step(key: jax.Array) -> Any:
            _, state = env.reset_env(key, params)
            return env.step_env(key, state, action_space.sample(key), params)

        shapes: tuple[Any, Any, Any, Any, Any] = jax.eval_shape(
            reset_then_step, jax.random.PRNGKey(0)
        )
        return shapes

    def initial(self, rng: Any, params: Any = None) -> GymnaxState:
        obs_shape, state_shape, reward_shape, _, info_shape = self._step_shapes
        obs, env_state = self.gymnax_env.reset_env(rng, self._params(params))
        return GymnaxState(
            _cast(env_state, state_shape),
            _cast(obs, obs_shape),
            jnp.zeros(reward_shape.shape, reward_shape.dtype),
            jnp.zeros((), jnp.bool_),
            jax.tree.map(lambda s: jnp.zeros(s.shape, s.dtype), info_shape),
        )

    def transition(
        self, state: GymnaxState, action: Any, rng: Any, params: Any = None
    ) -> GymnaxState:
        obs_shape, state_shape, reward_shape, _, info_shape = self._step_shapes
        obs, env_state, reward, terminated, info = self.gymnax_env.step_env(
            rng, state.env_state, action, self._params(params)
        )
        return GymnaxState(
            _cast(env_state, state_shape),
            _cast(obs, obs_shape),
            _cast(reward, reward_shape),
            jnp.asarray(terminated, jnp.bool_),
            _cast(info, info_shape),
        )

    def observation(self, state: GymnaxState, rng: Any, params: Any = None) -> Any:
        return state.obs

    def reward(
        self,
        state: GymnaxState,
        action: Any,
        next_state: GymnaxState,
        rng: Any,
        params: Any = None,
    ) -> Any:
        return next_state.reward

    def terminal(self, state: GymnaxState, rng: Any, params: Any = None) -> Any:
        return state.terminated

    def transition_info(
        self, state: GymnaxState, action: Any, next_state: GymnaxState, params: Any = None
    ) -> dict[str, Any]:
        return dict(next_state.info)


def _cast(tree: Any, shapes: Any) -> Any:
    """`tree` with every leaf an array of the dtype in `shapes` (values unchanged)."""
    return jax.tree.map(lambda leaf, shape: jnp.asarray(leaf, shape.dtype), tree, shapes)


def from_gymnax(env: Environment[Any, Any], params: Any = None) -> GymnaxFuncEnv:
    """The gymnax `env` as a protogym `FuncEnv`, with `params` (gymnax's defaults if None)
    as its default params. Under the same keys and actions, `initial` and `transition` give
    gymnax's `reset_env` and `step_env` results exactly."""
    if not isinstance(env, Environment):
        wrapped = getattr(env, "_env", None)
        hint = (
            " It looks like a gymnax wrapper: wrappers change step/reset only, and step_env "
            "would bypass them. Convert the bare env and wrap the protogym env instead."
            if wrapped is not None
            else ""
        )
        raise TypeError(
            f"from_gymnax needs a gymnax Environment (e.g. gymnax.make('CartPole-v1')[0]), "
            f"got {type(env).__name__}.{hint}"
        )
    return GymnaxFuncEnv(env, params)


# -- protogym -> gymnax --------------------------------------------------------------------


class ProtogymGymnaxState(NamedTuple):
    """The gymnax-side state: the `FuncEnv`'s state and the step count gymnax reads."""

    state: Any
    time: Any


class ProtogymGymnaxParams(NamedTuple):
    """The gymnax-side params: the `FuncEnv`'s params and gymnax's time limit."""

    params: Any
    max_steps_in_episode: int


_NO_LIMIT = int(np.iinfo(np.int32).max)


class ProtogymGymnaxEnv(Environment[ProtogymGymnaxState, ProtogymGymnaxParams]):
    """A protogym `FuncEnv` with gymnax's `Environment` API; build it with `to_gymnax`.

    `step_env` and `reset_env` are protogym's pure step and reset (the same keys reach the
    same functions); gymnax's own `step` adds its autoreset and time limit on top.
    Spaces do not depend on params: they are the `FuncEnv`'s.
    """

    def __init__(
        self,
        func_env: FuncEnv[Any, Any, Any, Any, Any, Any, Any],
        params: Any = None,
        max_steps_in_episode: int | None = None,
    ) -> None:
        super().__init__()
        self.func_env = func_env
        self._params = func_env.get_default_params() if params is None else params
        self._max_steps = _NO_LIMIT if max_steps_in_episode is None else max_steps_in_episode
        self._reset = pure_reset(func_env)
        self._step = pure_step(func_env)

    @property
    def default_params(self) -> ProtogymGymnaxParams:
        return ProtogymGymnaxParams(self._params, self._max_steps)

    def step_env(
        self, key: jax.Array, state: Any, action: Any, params: Any
    ) -> tuple[Any, ProtogymGymnaxState, Any, Any, dict[Any, Any]]:
        result = self._step(key, state.state, action, params.params)
        next_state = ProtogymGymnaxState(result.state, state.time + 1)
        return result.obs, next_state, result.reward, result.terminated, result.info

    def reset_env(self, key: jax.Array, params: Any) -> tuple[Any, ProtogymGymnaxState]:
        result = self._reset(key, params.params)
        return result.obs, ProtogymGymnaxState(result.state, jnp.zeros((), jnp.int32))

    def get_obs(self, state: Any, params: Any = None, key: Any = None) -> Any:
        params = self.default_params if params is None else params
        key = jax.random.PRNGKey(0) if key is None else key
        return self.func_env.observation(state.state, key, params.params)

    def is_terminated(self, state: Any, params: Any) -> Any:
        # gymnax gives no key here; an env whose terminal draws randomness gets a fixed one.
        return self.func_env.terminal(state.state, jax.random.PRNGKey(0), params.params)

    @property
    def name(self) -> str:
        spec = getattr(self.func_env, "spec", None)
        return str(getattr(spec, "id", None) or type(self.func_env).__name__)

    @property
    def num_actions(self) -> int:
        space = self.func_env.action_space
        if isinstance(space, spaces.Discrete):
            return int(space.n)
        if isinstance(space, spaces.Box):
            return math.prod(space.shape)
        raise TypeError(
            f"num_actions is defined for Discrete and Box action spaces, not {space!r}"
        )

    def action_space(self, params: Any = None) -> gymnax_spaces.Space:
        return to_gymnax_space(self.func_env.action_space)

    def observation_space(self, params: Any = None) -> gymnax_spaces.Space:
        return to_gymnax_space(self.func_env.observation_space)


def to_gymnax(
    func_env: FuncEnv[Any, Any, Any, Any, Any, Any, Any],
    params: Any = None,
    max_steps_in_episode: int | None = None,
) -> ProtogymGymnaxEnv:
    """The protogym `func_env` as a gymnax env, with `params` (the env's defaults if None).

    `max_steps_in_episode` is the time limit gymnax's `step` truncates at; by default the
    env's `max_episode_steps` attribute if it has one (a `from_gymnax` env does), else none.
    """
    if not isinstance(func_env, FuncEnv):
        raise TypeError(
            f"to_gymnax needs a protogym FuncEnv (initial, transition, observation, reward, "
            f"terminal, ...), got {type(func_env).__name__}"
        )
    if max_steps_in_episode is None:
        max_steps_in_episode = getattr(func_env, "max_episode_steps", None)
    if max_steps_in_episode is not None and (
        isinstance(max_steps_in_episode, bool)
        or not isinstance(max_steps_in_episode, int)
        or max_steps_in_episode < 1
    ):
        raise ValueError(
            f"max_steps_in_episode must be a positive int or None, got {max_steps_in_episode!r}"
        )
    return ProtogymGymnaxEnv(func_env, params, max_steps_in_episode)


# -- "gymnax:" ids ---------------------------------------------------------------------------


def _gymnax_env(gymnax_id: str) -> tuple[Environment[Any, Any], Any]:
    known: list[str] = list(gymnax.registered_envs)
    if gymnax_id not in known:
        close = difflib.get_close_matches(gymnax_id, known, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(repr(f'gymnax:{c}') for c in close)}?" if close else ""
        raise _unregistered(
            f"gymnax has no env {gymnax_id!r}.{hint} Its ids are gymnax.registered_envs: "
            f"{', '.join(known)}"
        )
    return gymnax.make(gymnax_id)


def _unregistered(message: str) -> Exception:
    from protogym.error import UnregisteredEnv

    return UnregisteredEnv(message)


def gymnax_env_spec(gymnax_id: str) -> EnvSpec:
    """The protogym spec of ``gymnax:<gymnax_id>``: what `protogym.make` and `make_vec`
    build, with gymnax's time limit as `max_episode_steps`."""
    env, params = _gymnax_env(gymnax_id)
    return EnvSpec(
        id=f"gymnax:{gymnax_id}",
        entry_point=f"{__name__}:make_gymnax_env",
        vector_entry_point=f"{__name__}:make_gymnax_vector_env",
        kwargs={"gymnax_id": gymnax_id},
        max_episode_steps=GymnaxFuncEnv(env, params).max_episode_steps,
        disable_env_checker=True,  # as for phys2d ids: jax arrays would trip its numpy rules
    )


def make_gymnax_env(gymnax_id: str, render_mode: str | None = None) -> Any:
    """A protogym env over the gymnax env `gymnax_id` (a `FunctionalJaxEnv`; gymnax envs
    do not render through a `FuncEnv`, so it declares no render modes)."""
    from protogym.envs.functional_jax_env import FunctionalJaxEnv

    _no_rendering(gymnax_id, render_mode)
    env, params = _gymnax_env(gymnax_id)
    return FunctionalJaxEnv(
        from_gymnax(env, params), metadata={"render_modes": []}, render_mode=render_mode
    )


def _no_rendering(gymnax_id: str, render_mode: str | None) -> None:
    if render_mode is not None:
        from protogym.error import UnsupportedMode

        raise UnsupportedMode(
            f"'gymnax:{gymnax_id}' cannot render (render_mode={render_mode!r}): gymnax envs "
            "have no frame function a FuncEnv could call. Make it with render_mode=None, or "
            "use the protogym or phys2d env of the same name to watch it."
        )


def make_gymnax_vector_env(
    gymnax_id: str,
    num_envs: int,
    max_episode_steps: int = 0,
    autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    render_mode: str | None = None,
) -> Any:
    """A protogym vector env over the gymnax env `gymnax_id` (a `FunctionalJaxVectorEnv`),
    with same-step autoreset by default like protogym's other native vector envs."""
    from protogym.envs.functional_jax_env import FunctionalJaxVectorEnv

    _no_rendering(gymnax_id, render_mode)
    env, params = _gymnax_env(gymnax_id)
    metadata = {"render_modes": [], "autoreset_mode": parse_autoreset_mode(autoreset_mode)}
    return FunctionalJaxVectorEnv(
        from_gymnax(env, params), num_envs, max_episode_steps, metadata, render_mode
    )
