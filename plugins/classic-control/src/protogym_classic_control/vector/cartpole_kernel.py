"""CartPole's step as one compiled loop over every sub-env, used when numba is installed.

The numpy path makes about twenty passes over the batch, and numpy calls libm's `cos` and
`sin` through a generic per-element loop; at thousands of sub-envs that is most of a step.
Compiled by numba, the single env's arithmetic runs once per sub-env in one pass. Numba
keeps IEEE semantics unless `fastmath` is asked for (no reordering, no fused multiply-add)
and `math.cos`/`math.sin` call the same libm as Python, so every sub-env's state is bitwise
the single env's; the tests compare both kernels with `CartPoleEnv` step by step.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

__all__ = ["KERNELS", "Kernel", "StepKernel", "compiled_step", "resolve_kernel"]

Kernel = Literal["auto", "numba", "numpy"]
KERNELS: tuple[Kernel, ...] = ("auto", "numba", "numpy")

StepKernel = Callable[
    [NDArray[np.float64], NDArray[Any], NDArray[np.float64], bool, NDArray[np.bool_]], int
]
"""`(state, action, constants, euler, terminated) -> index of the first bad action or -1`."""


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
