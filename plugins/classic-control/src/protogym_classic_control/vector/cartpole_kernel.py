"""CartPole's step as one compiled loop over every sub-env, used when numba is installed.

The numpy path makes about twenty passes over the batch, and numpy calls libm's `cos` and
`sin` through a generic per-element loop; at thousands of sub-envs that is most of a step.
Compiled by numba, the single env's arithmetic runs once per sub-env in one pass. Numba
keeps IEEE semantics unless `fastmath` is asked for (no reordering, no fused multiply-add)
and `math.cos`/`math.sin` call the same libm as Python, so every sub-env's state is bitwise
the single env's; the tests compare both kernels with `CartPoleEnv` step by step.

In next-step autoreset mode a second compiled pass does the vector env's bookkeeping
(restarts from the drawn-ahead uniforms, rewards, time limits), which in numpy calls cost
about half as much as the physics at thousands of sub-envs. It is a separate function, not
part of the physics loop: merged, the loop compiled to code nearly twice as slow.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "DRAWS_NEEDED",
    "KERNELS",
    "Kernel",
    "NextStepKernel",
    "StepKernel",
    "compiled_next_step",
    "compiled_step",
    "resolve_kernel",
]

Kernel = Literal["auto", "numba", "numpy"]
KERNELS: tuple[Kernel, ...] = ("auto", "numba", "numpy")

StepKernel = Callable[
    [NDArray[np.float64], NDArray[Any], NDArray[np.float64], bool, NDArray[np.bool_]], int
]
"""`(state, action, constants, euler, terminated) -> index of the first bad action or -1`."""

NextStepKernel = Callable[..., int]
"""`next_step_autoreset`, compiled: see its docstring for the arguments and the result."""

DRAWS_NEEDED = -2
"""`next_step_autoreset`'s result when a sub-env to restart has no drawn uniforms left."""


def cartpole_step(
    state: NDArray[np.float64],
    action: NDArray[Any],
    constants: NDArray[np.float64],
    euler: bool,
    terminated: NDArray[np.bool_],
) -> int:
    """Advance the (4, n) `state` in place and fill `terminated`; check actions first.

    `constants` holds force_mag, total_mass, polemass_length, masspole, length, gravity,
    tau, x_threshold and theta_threshold_radians. Returns the index of the first action
    that is not 0 or 1 (and then changes nothing), or -1.
    """
    num_envs = action.shape[0]
    for i in range(num_envs):
        if action[i] != 0 and action[i] != 1:
            return i
    force_mag, total_mass, polemass_length = constants[0], constants[1], constants[2]
    masspole, length, gravity, tau = constants[3], constants[4], constants[5], constants[6]
    x_threshold, theta_threshold = constants[7], constants[8]
    for i in range(num_envs):
        x, x_dot, theta, theta_dot = state[0, i], state[1, i], state[2, i], state[3, i]
        force = force_mag if action[i] == 1 else -force_mag
        costheta = math.cos(theta)
        sintheta = math.sin(theta)
        temp = (force + polemass_length * (theta_dot * theta_dot) * sintheta) / total_mass
        thetaacc = (gravity * sintheta - costheta * temp) / (
            length * (4.0 / 3.0 - masspole * (costheta * costheta) / total_mass)
        )
        xacc = temp - polemass_length * thetaacc * costheta / total_mass
        if euler:
            x = x + tau * x_dot
            x_dot = x_dot + tau * xacc
            theta = theta + tau * theta_dot
            theta_dot = theta_dot + tau * thetaacc
        else:  # semi-implicit Euler: velocities first
            x_dot = x_dot + tau * xacc
            x = x + tau * x_dot
            theta_dot = theta_dot + tau * thetaacc
            theta = theta + tau * theta_dot
        state[0, i], state[1, i], state[2, i], state[3, i] = x, x_dot, theta, theta_dot
        terminated[i] = (
            x < -x_threshold or x > x_threshold or theta < -theta_threshold
            or theta > theta_threshold
        )
    return -1


def next_step_autoreset(
    state: NDArray[np.float64],
    terminated: NDArray[np.bool_],
    pending: NDArray[np.bool_],
    restarts: NDArray[np.intp],
    counts: NDArray[np.intp],
    uniforms: NDArray[np.float64],
    following: NDArray[np.intp],
    started_at: NDArray[np.int64],
    tick: int,
    last_start: int,
    sutton_barto: bool,
    rewards: NDArray[np.float64],
    truncated: NDArray[np.bool_],
    exhausted: NDArray[np.intp],
) -> int:
    """The vector env's next-step bookkeeping after `cartpole_step`: two passes, no numpy.

    First, each `pending` sub-env (one that ended last step; `restarts[:counts[0]]` lists
    candidates, a superset since `reset` may clear some) restarts instead of stepping: its
    state becomes -0.05 + 0.1 * u over its next row of standard uniforms (`following[i]` in
    `uniforms`; numpy's `uniform(-0.05, 0.05)`) and its episode starts at vector step
    `tick`. Then one branch-light pass over all sub-envs fills `rewards` (0 for a restart),
    `truncated` (episodes started at or before `last_start`), `pending` and the next list of
    `restarts`. Returns how many sub-envs used their last drawn row, listed at the start of
    `exhausted` (the caller draws their next block before the next step); if a sub-env to
    restart is already at its sentinel (-1), nothing changes and it returns `DRAWS_NEEDED`.
    """
    candidates = counts[0]
    for k in range(candidates):
        i = restarts[k]
        if pending[i] and uniforms[following[i], 0] < 0.0:
            return DRAWS_NEEDED
    low, span = -0.05, 0.05 - -0.05
    used_up = 0
    for k in range(candidates):
        i = restarts[k]
        if pending[i]:
            row = following[i]
            following[i] = row + 1
            if uniforms[row + 1, 0] < 0.0:
                exhausted[used_up] = i
                used_up += 1
            for j in range(4):
                state[j, i] = low + span * uniforms[row, j]
            started_at[i] = tick
            terminated[i] = False
    count = 0
    for i in range(terminated.shape[0]):
        started = started_at[i]
        ended = terminated[i]
        if sutton_barto:
            rewards[i] = -1.0 if ended else 0.0
        else:
            rewards[i] = 0.0 if started == tick else 1.0
        cut = started <= last_start
        truncated[i] = cut
        ended = ended or cut
        pending[i] = ended
        restarts[count] = i
        count += ended
    counts[0] = count
    return used_up


@functools.cache
def compiled_step() -> StepKernel | None:
    """`cartpole_step` compiled by numba (cached on disk), or None when numba is missing.

    `error_model="numpy"` lets a division by zero give inf or NaN as the numpy kernel does,
    instead of raising inside the loop.
    """
    try:
        import numba
    except ImportError:
        return None
    kernel: StepKernel = numba.njit(cache=True, nogil=True, error_model="numpy")(cartpole_step)
    return kernel


def resolve_kernel(kernel: str, owner: str) -> StepKernel | None:
    """The compiled step for `kernel` ("auto", "numba" or "numpy"); None means numpy."""
    if kernel not in KERNELS:
        raise ValueError(f"{owner} needs kernel to be one of {KERNELS}, got {kernel!r}")
    if kernel == "numpy":
        return None
    compiled = compiled_step()
    if compiled is None and kernel == "numba":
        raise ValueError(
            f'{owner}(kernel="numba") needs numba: '
            "pip install 'protogym-classic-control[jit]', or pass kernel=\"auto\" or \"numpy\""
        )
    return compiled


@functools.cache
def compiled_next_step() -> NextStepKernel:
    """`next_step_autoreset` compiled by numba (cached on disk); only asked for with numba."""
    import numba

    kernel: NextStepKernel = numba.njit(cache=True, nogil=True)(next_step_autoreset)
    return kernel
