"""The `VectorEnv` protocol, the autoreset modes, and the base class of concrete vector envs.

A vector env steps `num_envs` sub-environments at once: actions, observations, rewards and
done flags are batched along a first axis of length `num_envs`, and infos are dicts of
arrays with a boolean `_key` mask saying which sub-envs reported `key`.

The autoreset mode is part of the env's type (the third type parameter, a `Literal` of an
`AutoresetMode` member when it is known statically), because code that reads
`info["final_observation"]` is only right for same-step envs.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, runtime_checkable

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeVar

from protogym._structural import StructuralProtocolMeta

if TYPE_CHECKING:
    from protogym.registration.env_spec import EnvSpec
    from protogym.spaces.space import Space

__all__ = [
    "AutoresetMode",
    "Disabled",
    "NextStep",
    "SameStep",
    "VectorEnv",
    "VectorEnvBase",
    "VectorStepResult",
    "parse_autoreset_mode",
    "seeds_for",
]


class AutoresetMode(enum.StrEnum):
    """When a vector env resets a sub-env whose episode ended.

    - `SAME_STEP` (the default): in the step that ends the episode; the batch holds the new
      episode's first observation and `info["final_observation"]`/`info["final_info"]` (with
      masks `_final_observation`/`_final_info`) hold the ended episode's last ones.
    - `NEXT_STEP`: the step after; that step ignores the sub-env's action, returns the reset
      observation, reward 0 and both done flags False (Gymnasium 1.x's default).
    - `DISABLED`: never; reset ended sub-envs with ``reset(options={"reset_mask": mask})``.
    """

    SAME_STEP = "same_step"
    NEXT_STEP = "next_step"
    DISABLED = "disabled"


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
    if isinstance(value, str) and value in AutoresetMode._value2member_map_:
        return AutoresetMode(value)
    valid = ", ".join(repr(mode.value) for mode in AutoresetMode)
    raise ValueError(f"autoreset_mode must be an AutoresetMode or one of {valid}, got {value!r}")


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

        @property
        def metadata(self) -> Mapping[str, Any]: ...

        @property
        def render_mode(self) -> str | None: ...

        @property
        def autoreset_mode(self) -> ModeT_co: ...

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT_co, dict[str, Any]]:
        """Reset every sub-env (or those in ``options["reset_mask"]``); int seeds count up."""
        ...

    def step(self, actions: ActT) -> VectorStepResult[ObsT_co]:
        """Step every sub-env with its row of `actions`, autoresetting as the mode says."""
        ...

    def render(self) -> Any:
        """The sub-envs' frames (a tuple), or `None` without a render mode."""
        return None

    def close(self) -> None:
        """Release sub-envs and processes; calling it twice is harmless."""
        return None


class VectorEnvBase(VectorEnv[ObsT_co, ActT, ModeT_co]):
    """Defaults for explicit vector envs: `unwrapped`, `spec`, context manager, repr.

    Subclasses declare the protocol's read-only members as class-level annotations and
    assign them in `__init__`.
    """

    num_envs: int
    metadata: Mapping[str, Any] = {}
    render_mode: str | None = None
    spec: EnvSpec | None = None
    closed: bool = False

    @property
    def unwrapped(self) -> Self:
        return self

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        env_id = getattr(self.spec, "id", None)
        where = f", {env_id}" if env_id else ""
        return f"{type(self).__name__}(num_envs={self.num_envs}{where})"
