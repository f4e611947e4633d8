"""The `VectorEnv` protocol and base class, and the autoreset modes.

A vector env steps `num_envs` sub-environments at once: actions, observations, rewards and
done flags are batched along a first axis of length `num_envs`, and infos are dicts of
arrays with a boolean `_key` mask saying which sub-envs reported `key`.

`VectorEnv` is both things a Gymnasium user knows it as. As an annotation it is a
structural protocol: any class with its members is a vector env, to mypy and to
`isinstance`. As a base class (``class MyVectorEnv(VectorEnv): ...``) it is Gymnasium's
`VectorEnv`: subclasses inherit `np_random`, `np_random_seed`, `close`/`close_extras`,
`closed`, `spec`, `unwrapped` and the rest at run time. `VectorEnvBase` is the same base
with those inherited members visible to mypy; protogym's own vector envs derive from it.

The autoreset mode is part of the env's type (the third type parameter, a `Literal` of an
`AutoresetMode` member when it is known statically), because code that reads
`info["final_obs"]` is only right for same-step envs.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, runtime_checkable

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeVar

from protogym import _lazy_generator
from protogym._structural import StructuralProtocolMeta

if TYPE_CHECKING:
    from protogym.registration.env_spec import EnvSpec
    from protogym.spaces.space import Space
    from protogym.vector.wrappers.base import (
        VectorActionWrapper,
        VectorObservationWrapper,
        VectorRewardWrapper,
        VectorWrapper,
    )

__all__ = [
    "AutoresetMode",
    "Disabled",
    "NextStep",
    "SameStep",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorEnvBase",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorStepResult",
    "VectorWrapper",
    "parse_autoreset_mode",
    "seeds_for",
]


class AutoresetMode(enum.Enum):
    """When a vector env resets a sub-env whose episode ended.

    - `SAME_STEP` (protogym's default, the seeds' choice): in the step that ends the
      episode; the batch holds the new episode's first observation, and
      `info["final_obs"]` (an object array) and `info["final_info"]` (a batched info) hold
      the ended episode's last ones, with masks `_final_obs`/`_final_info`.
    - `NEXT_STEP` (Gymnasium's default): the step after; that step ignores the sub-env's
      action, returns the reset observation, reward 0 and both done flags False.
    - `DISABLED`: never; reset ended sub-envs with ``reset(options={"reset_mask": mask})``.

    The values are Gymnasium's (``"SameStep"``, ...); the snake-case spellings
    ``"same_step"``, ``"next_step"`` and ``"disabled"`` are accepted too.
    """

    NEXT_STEP = "NextStep"
    SAME_STEP = "SameStep"
    DISABLED = "Disabled"

    @classmethod
    def _missing_(cls, value: object) -> AutoresetMode | None:
        if isinstance(value, str):
            letters = value.replace("_", "").replace("-", "").lower()
            for member in cls:
                if member.value.lower() == letters:
                    return member
        return None


SameStep = Literal[AutoresetMode.SAME_STEP]
NextStep = Literal[AutoresetMode.NEXT_STEP]
Disabled = Literal[AutoresetMode.DISABLED]

ObsT_co = TypeVar("ObsT_co", covariant=True, default=Any)
ActT = TypeVar("ActT", default=Any)
ModeT_co = TypeVar("ModeT_co", bound=AutoresetMode, covariant=True, default=AutoresetMode)

VectorStepResult = tuple[
    ObsT_co, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]
]
"""`(observations, rewards, terminations, truncations, infos)`, the value of `step`."""

_VECTOR_MEMBERS = (
    "num_envs",
    "single_observation_space",
    "single_action_space",
    "observation_space",
    "action_space",
    "metadata",
    "render_mode",
    "autoreset_mode",
    "reset",
    "step",
    "render",
    "close",
)


def parse_autoreset_mode(value: object) -> AutoresetMode:
    """Accept an `AutoresetMode` or its string value; anything else is a clear error."""
    if isinstance(value, AutoresetMode):
        return value
    if isinstance(value, str):
        try:
            return AutoresetMode(value)
        except ValueError:
            pass
    valid = ", ".join(repr(mode.value) for mode in AutoresetMode)
    raise ValueError(
        f"autoreset_mode must be an AutoresetMode or one of {valid} (or the snake-case "
        f"'same_step', 'next_step', 'disabled'), got {value!r}"
    )


def seeds_for(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    """One seed per sub-env: an int `s` gives `s, s+1, ...` (as Gymnasium), a list is checked."""
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
        return [int(seed) + i for i in range(num_envs)]
    if isinstance(seed, Sequence) and not isinstance(seed, str):
        if len(seed) != num_envs:
            raise ValueError(
                f"reset(seed=...) got {len(seed)} seeds for {num_envs} sub-envs; pass one "
                "seed per sub-env, a single int (sub-env i gets seed + i) or None"
            )
        return list(seed)
    raise TypeError(
        f"reset(seed=...) takes an int, a list of {num_envs} ints/None, or None, got {seed!r}"
    )


@runtime_checkable
class VectorEnv(Protocol[ObsT_co, ActT, ModeT_co], metaclass=StructuralProtocolMeta):
    """`num_envs` environments stepped together, with batched spaces and autoreset.

    Structural like `protogym.Env`: any class with these members is a vector env. The type
    parameters are the batched observation and action types and the autoreset mode.
    Subclassing it explicitly gives Gymnasium's `VectorEnv` members (see the module doc).
    """

    if not TYPE_CHECKING:
        _required_members_ = _VECTOR_MEMBERS

    if TYPE_CHECKING:
        # Read-only for mypy, so a class that assigns them as attributes conforms; absent at
        # run time, so explicit subclasses can assign them.

        @property
        def num_envs(self) -> int: ...

        @property
        def single_observation_space(self) -> Space[Any]: ...

        @property
        def single_action_space(self) -> Space[Any]: ...

        @property
        def observation_space(self) -> Space[ObsT_co]: ...

        @property
        def action_space(self) -> Space[ActT]: ...

        # These three have bodies, so an explicit subclass that leaves them out (taking the
        # run-time defaults below) is not abstract to mypy.
        @property
        def metadata(self) -> Mapping[str, Any]:
            return {}

        @property
        def render_mode(self) -> str | None:
            return None

        @property
        def autoreset_mode(self) -> ModeT_co:
            return AutoresetMode.NEXT_STEP  # type: ignore[return-value]

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT_co, dict[str, Any]]:
        """Reset every sub-env (or those in ``options["reset_mask"]``); int seeds count up.

        The default only reseeds `np_random` from an int seed, for subclasses to call
        through `super()`; they return their own `(observations, infos)`.
        """
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            _lazy_generator.seed_generator(self, int(seed))
        return NotImplemented  # type: ignore[no-any-return]

    def step(self, actions: ActT) -> VectorStepResult[ObsT_co]:
        """Step every sub-env with its row of `actions`, autoresetting as the mode says."""
        ...

    def render(self) -> Any:
        """The sub-envs' frames (a tuple), or `None` without a render mode."""
        return None

    if TYPE_CHECKING:

        def close(self) -> None:
            """Release sub-envs and processes; calling it twice is harmless."""
            return None

    else:
        # Defaults for explicit subclasses only, as in Gymnasium's `VectorEnv`. They stay out
        # of mypy's view of the protocol so that a structural vector env need not define
        # them; `VectorEnvBase` declares their types. Each subclass gets its own `metadata`.
        metadata = {}
        render_mode = None
        spec = None
        closed = False
        _np_random = None
        _np_random_seed = None

        def __init__(self, *args, **kwargs):
            # Gymnasium's `VectorEnv` can be built bare (tests set `num_envs` afterwards).
            pass

        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            if cls.metadata is VectorEnv.__dict__["metadata"]:
                cls.metadata = {}

        def close(self, **kwargs):
            """Release sub-envs and processes (`close_extras`) once; a second call does
            nothing."""
            if self.closed:
                return
            self.close_extras(**kwargs)
            self.closed = True

        def close_extras(self, **kwargs):
            """What `close` releases; subclasses override it."""

        @property
        def autoreset_mode(self):
            """The mode in `metadata["autoreset_mode"]`; next-step (Gymnasium's assumption)
            when the metadata does not say."""
            own = self.__dict__.get("_autoreset_mode")
            if own is not None:
                return own
            return parse_autoreset_mode(
                self.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
            )

        @autoreset_mode.setter
        def autoreset_mode(self, value):
            self.__dict__["_autoreset_mode"] = parse_autoreset_mode(value)

        np_random = _lazy_generator.np_random
        """The vector env's own generator, seeded from OS entropy on first use if never seeded."""
        np_random_seed = _lazy_generator.np_random_seed
        """The seed of `np_random`, or -1 if a generator was assigned directly."""

        @property
        def unwrapped(self):
            return self

        def has_wrapper_attr(self, name):
            """Whether the vector env has attribute `name` (wrappers ask inner envs too)."""
            return hasattr(self, name)

        def get_wrapper_attr(self, name):
            """The vector env's attribute `name` (wrappers look it up through inner envs)."""
            return getattr(self, name)

        def _add_info(self, vector_infos, env_info, env_num):
            """Gymnasium's helper: merge sub-env `env_num`'s info into `vector_infos`."""
            from protogym.vector.utils.infos import add_info

            add_info(vector_infos, env_info, env_num, self.num_envs)
            return vector_infos

        def __enter__(self):
            return self

        def __exit__(self, *exc_info):
            self.close()

        def __repr__(self):
            env_id = getattr(self.spec, "id", None)
            num_envs = getattr(self, "num_envs", "?")
            if env_id:
                return f"{type(self).__name__}({env_id}, num_envs={num_envs})"
            return f"{type(self).__name__}(num_envs={num_envs})"


class VectorEnvBase(VectorEnv[ObsT_co, ActT, ModeT_co]):
    """`VectorEnv`'s inherited members, typed: the base of protogym's own vector envs.

    Subclasses declare the protocol's read-only members as class-level annotations and
    assign them in `__init__`; they release resources in `close_extras`.
    """

    num_envs: int
    metadata: Mapping[str, Any]
    render_mode: str | None
    spec: EnvSpec | None
    closed: bool

    if TYPE_CHECKING:

        def __init__(self, *args: Any, **kwargs: Any) -> None: ...

        @property
        def np_random(self) -> np.random.Generator: ...

        @np_random.setter
        def np_random(self, value: np.random.Generator) -> None: ...

        @property
        def np_random_seed(self) -> int | None: ...

        @property
        def unwrapped(self) -> Self: ...

        def close(self) -> None: ...

        def close_extras(self) -> None: ...

        def has_wrapper_attr(self, name: str) -> bool: ...

        def get_wrapper_attr(self, name: str) -> Any: ...

        def _add_info(
            self, vector_infos: dict[str, Any], env_info: Mapping[str, Any], env_num: int
        ) -> dict[str, Any]: ...

        def __enter__(self) -> Self: ...

        def __exit__(self, *exc_info: object) -> None: ...


def __getattr__(name: str) -> Any:
    """Gymnasium keeps the vector wrapper base classes in this module; they live in
    `protogym.vector.wrappers.base` and load from here on first use."""
    if name in ("VectorWrapper", "VectorObservationWrapper", "VectorActionWrapper",
                "VectorRewardWrapper"):
        from protogym.vector.wrappers import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
