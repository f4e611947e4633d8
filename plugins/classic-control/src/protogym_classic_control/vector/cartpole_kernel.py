"""CartPole's step as one compiled loop over every sub-env, used when numba is installed.

The numpy path makes about twenty passes over the batch, and numpy calls libm's `cos` and
`sin` through a generic per-element loop; at thousands of sub-envs that is most of a step.
Compiled by numba, the single env's arithmetic runs once per sub-env in one pass. Numba
keeps IEEE semantics unless `fastmath` is asked for (no reordering, no fused multiply-add)
and `math.cos`/`math.sin` call the same libm as Python, so every sub-env's state is bitwise
the single env's; the tests compare both kernels with `CartPoleEnv` step by step.

In the next-step and same-step autoreset modes a second compiled pass does the vector
env's bookkeeping (restarts, rewards, time limits, and in same-step mode the ended sub-envs'
final observations), which in numpy calls cost about half as much as the physics at
thousands of sub-envs. It is a separate function, not part of the physics loop: merged,
the loop compiled to code nearly twice as slow.

Each sub-env restarts from its own generator (sub-env i replays the single env seeded
`seed + i`). With numba, the generators' PCG64 streams live in one (4, n) uint64 array of
128-bit states and increments (high and low words) that the compiled code advances itself,
the way numpy does: `state * multiplier + increment`, output XSL-RR, a double from the top
53 bits. Calling thousands of `Generator` objects from Python, or buffering their draws made
ahead (megabytes read at random), cost a third of a step at 8192 sub-envs. They live in this
module, beside the kernels that call them, because numba's on-disk cache only notices
changes to the file of the function it compiled.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "KERNELS",
    "DrawKernel",
    "Kernel",
    "NextStepKernel",
    "SameStepKernel",
    "StepKernel",
    "compiled_draw",
    "compiled_next_step",
    "compiled_same_step",
    "compiled_step",
    "load_streams",
    "resolve_kernel",
]

Kernel = Literal["auto", "numba", "numpy"]
KERNELS: tuple[Kernel, ...] = ("auto", "numba", "numpy")

StepKernel = Callable[
    [NDArray[np.float64], NDArray[Any], NDArray[np.float64], bool, NDArray[np.bool_]], int
]
"""`(state, action, constants, euler, terminated) -> index of the first bad action or -1`."""

NextStepKernel = Callable[..., None]
"""`next_step_autoreset`, compiled: see its docstring for the arguments."""

SameStepKernel = Callable[..., int]
"""`same_step_autoreset`, compiled: see its docstring for the arguments."""

DrawKernel = Callable[[NDArray[np.uint64], NDArray[np.intp], NDArray[np.float64]], None]
"""`draw_uniforms`, compiled: `(streams, rows, out)`."""

# PCG64's multiplier, in words, and the constants of its output; uint64 throughout, since
# numba turns a uint64 mixed with a Python int into a float.
_MULTIPLIER_HIGH = np.uint64(0x2360ED051FC65DA4)
_MULTIPLIER_LOW = np.uint64(0x4385DF649FCCF645)
_LOW_32 = np.uint64(0xFFFFFFFF)
_U1, _U11, _U32, _U58, _U63, _U64 = (np.uint64(n) for n in (1, 11, 32, 58, 63, 64))
_U0 = np.uint64(0)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
# Rows of the (4, n) stream array.
STATE_HIGH, STATE_LOW, INCREMENT_HIGH, INCREMENT_LOW = 0, 1, 2, 3


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
    streams: NDArray[np.uint64],
    started_at: NDArray[np.int64],
    tick: int,
    last_start: int,
    sutton_barto: bool,
    rewards: NDArray[np.float64],
    truncated: NDArray[np.bool_],
) -> None:
    """The vector env's next-step bookkeeping after `cartpole_step`: two passes, no numpy.

    First, each `pending` sub-env (one that ended last step; `restarts[:counts[0]]` lists
    candidates, a superset since `reset` may clear some) restarts instead of stepping: its
    state becomes numpy's `uniform(-0.05, 0.05, 4)` from its stream (column i of `streams`)
    and its episode starts at vector step `tick`. Then one branch-light pass over all
    sub-envs fills `rewards` (0 for a restart), `truncated` (episodes started at or before
    `last_start`), `pending` and the next list of `restarts`.
    """
    low, span = -0.05, 0.05 - -0.05
    for k in range(counts[0]):
        i = restarts[k]
        if pending[i]:
            for j in range(4):
                state[j, i] = low + span * next_double(streams, i)
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


def same_step_autoreset(
    state: NDArray[np.float64],
    terminated: NDArray[np.bool_],
    streams: NDArray[np.uint64],
    started_at: NDArray[np.int64],
    tick: int,
    last_start: int,
    sutton_barto: bool,
    rewards: NDArray[np.float64],
    truncated: NDArray[np.bool_],
    ended: NDArray[np.bool_],
    ended_rows: NDArray[np.intp],
    final_obs: NDArray[np.float32],
) -> int:
    """The vector env's same-step bookkeeping after `cartpole_step`; returns how many ended.

    One pass over all sub-envs fills `rewards`, `truncated` (episodes started at or before
    `last_start`), `ended` (terminated or truncated) and lists the ended sub-envs in
    `ended_rows`. Then each ended sub-env's state, cast to float32, becomes its row of
    `final_obs` (in `ended_rows` order), and it restarts at once: its state becomes numpy's
    `uniform(-0.05, 0.05, 4)` from its stream (column i of `streams`) and its episode starts
    at vector step `tick`.
    """
    low, span = -0.05, 0.05 - -0.05
    count = 0
    for i in range(terminated.shape[0]):
        fell = terminated[i]
        if sutton_barto:
            rewards[i] = -1.0 if fell else 0.0
        else:
            rewards[i] = 1.0
        cut = started_at[i] <= last_start
        truncated[i] = cut
        done = fell or cut
        ended[i] = done
        ended_rows[count] = i
        count += done
    for k in range(count):
        i = ended_rows[k]
        for j in range(4):
            final_obs[k, j] = np.float32(state[j, i])
            state[j, i] = low + span * next_double(streams, i)
        started_at[i] = tick
    return count


def load_streams(
    generators: Sequence[np.random.Generator], rows: Sequence[int], streams: NDArray[np.uint64]
) -> None:
    """Copy the PCG64 state of `generators[row]` into column `row` of `streams`."""
    for row in rows:
        bit_generator = generators[row].bit_generator
        if not isinstance(bit_generator, np.random.PCG64):
            raise TypeError(f"sub-env {row}'s generator is not PCG64: {bit_generator!r}")
        words = bit_generator.state["state"]
        for value, high, low in (
            (words["state"], STATE_HIGH, STATE_LOW),
            (words["inc"], INCREMENT_HIGH, INCREMENT_LOW),
        ):
            streams[high, row] = value >> 64
            streams[low, row] = value & 0xFFFF_FFFF_FFFF_FFFF


def _high_product(a: np.uint64, b: np.uint64) -> np.uint64:
    """The high 64 bits of the 128-bit product `a * b`, from 32-bit halves."""
    a_low, a_high = a & _LOW_32, a >> _U32
    b_low, b_high = b & _LOW_32, b >> _U32
    low_low, low_high, high_low = a_low * b_low, a_low * b_high, a_high * b_low
    middle = (low_low >> _U32) + (low_high & _LOW_32) + (high_low & _LOW_32)
    high: np.uint64 = a_high * b_high + (low_high >> _U32) + (high_low >> _U32) + (middle >> _U32)
    return high


def next_double(streams: NDArray[np.uint64], row: int) -> float:
    """Advance stream `row` once and return the double numpy's `random()` makes of it."""
    state_high, state_low = streams[STATE_HIGH, row], streams[STATE_LOW, row]
    high = (
        _high_product(state_low, _MULTIPLIER_LOW)
        + state_low * _MULTIPLIER_HIGH
        + state_high * _MULTIPLIER_LOW
    )
    low = state_low * _MULTIPLIER_LOW
    new_low = low + streams[INCREMENT_LOW, row]
    new_high = high + streams[INCREMENT_HIGH, row] + (_U1 if new_low < low else _U0)
    streams[STATE_HIGH, row], streams[STATE_LOW, row] = new_high, new_low
    mixed = new_high ^ new_low
    rotation = new_high >> _U58
    output = (mixed >> rotation) | (mixed << ((_U64 - rotation) & _U63))
    return float(output >> _U11) * _TO_UNIT


def draw_uniforms(
    streams: NDArray[np.uint64], rows: NDArray[np.intp], out: NDArray[np.float64]
) -> None:
    """Fill `out[k]` with the next `out.shape[1]` doubles of stream `rows[k]`."""
    for k in range(rows.shape[0]):
        for j in range(out.shape[1]):
            out[k, j] = next_double(streams, rows[k])


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
def _stream_helpers_jitable() -> None:
    """Let compiled code call `next_double` (and what it calls) as compiled functions."""
    from numba.extending import register_jitable

    register_jitable(_high_product)
    register_jitable(next_double)


@functools.cache
def compiled_next_step() -> NextStepKernel:
    """`next_step_autoreset` compiled by numba (cached on disk); only asked for with numba."""
    import numba

    _stream_helpers_jitable()
    kernel: NextStepKernel = numba.njit(cache=True, nogil=True)(next_step_autoreset)
    return kernel


@functools.cache
def compiled_draw() -> DrawKernel:
    """`draw_uniforms` compiled by numba (cached on disk); only asked for with numba."""
    import numba

    _stream_helpers_jitable()
    kernel: DrawKernel = numba.njit(cache=True, nogil=True)(draw_uniforms)
    return kernel


@functools.cache
def compiled_same_step() -> SameStepKernel:
    """`same_step_autoreset` compiled by numba (cached on disk); only asked for with numba."""
    import numba

    _stream_helpers_jitable()
    kernel: SameStepKernel = numba.njit(cache=True, nogil=True)(same_step_autoreset)
    return kernel
