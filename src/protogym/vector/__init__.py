"""Vector environments: many sub-envs stepped as one, with batched spaces and autoreset.

`SyncVectorEnv` steps sub-envs in this process, `AsyncVectorEnv` in worker processes over
shared memory, `RayVectorEnv` in the actors of a Ray cluster; native vector envs (a spec's
`vector_entry_point`) step all sub-envs in numpy at once. All satisfy the `VectorEnv`
protocol and give identical trajectories under the same seeds. `protogym.make_vec` builds
any of them from a registered id. `VectorEnv` is also the base class of hand-written vector
envs (Gymnasium's members come with it). The Ray names load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from protogym.vector import utils
from protogym.vector.async_vector_env import (
    AsyncState,
    AsyncTimeoutError,
    AsyncVectorEnv,
    SubEnvError,
    UnshareableSpaceError,
    WorkerDiedError,
)
from protogym.vector.sync_vector_env import SyncVectorEnv
from protogym.vector.vector_env import (
    AutoresetMode,
    Disabled,
    NextStep,
    SameStep,
    VectorEnv,
    VectorEnvBase,
    VectorStepResult,
)
from protogym.vector.wrappers import (
    VectorActionWrapper,
    VectorObservationWrapper,
    VectorRewardWrapper,
    VectorWrapper,
)

if TYPE_CHECKING:
    from protogym.vector.ray_vector_env import ActorLostError, NativeSlices, RayVectorEnv

_LAZY = {
    "ActorLostError": "protogym.vector.ray_vector_env",
    "NativeSlices": "protogym.vector.ray_vector_env",
    "RayVectorEnv": "protogym.vector.ray_vector_env",
}

__all__ = [
    "ActorLostError",
    "AsyncState",
    "AsyncTimeoutError",
    "AsyncVectorEnv",
    "AutoresetMode",
    "Disabled",
    "NativeSlices",
    "NextStep",
    "RayVectorEnv",
    "SameStep",
    "SubEnvError",
    "SyncVectorEnv",
    "UnshareableSpaceError",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorEnvBase",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorStepResult",
    "VectorWrapper",
    "WorkerDiedError",
    "utils",
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'protogym.vector' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
