"""Vector environments: many sub-envs stepped as one, with batched spaces and autoreset.

`SyncVectorEnv` steps sub-envs in this process, `AsyncVectorEnv` in worker processes over
shared memory; native vector envs (a spec's `vector_entry_point`) step all sub-envs in numpy
at once. All three satisfy the `VectorEnv` protocol and give identical trajectories under
the same seeds. `protogym.make_vec` builds any of them from a registered id.
"""

from __future__ import annotations

from protogym.vector.async_vector_env import (
    AsyncState,
    AsyncVectorEnv,
    SubEnvError,
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

__all__ = [
    "AsyncState",
    "AsyncVectorEnv",
    "AutoresetMode",
    "Disabled",
    "NextStep",
    "SameStep",
    "SubEnvError",
    "SyncVectorEnv",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorEnvBase",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorStepResult",
    "VectorWrapper",
    "WorkerDiedError",
]
