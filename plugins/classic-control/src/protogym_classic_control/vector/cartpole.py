"""CartPole for many carts at once: the single env's arithmetic, in the same order, on arrays.

The state is a (4, num_envs) float64 array so each variable is one contiguous row. With
numba installed (the `jit` extra) a compiled loop steps it (see `cartpole_kernel`);
otherwise numpy does, in preallocated buffers (`out=`), with the Euler update of all four
variables as one multiply and one add over the whole state. Both give the same bits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.spaces import Box, Discrete, batch_space
from protogym.vector.vector_env import AutoresetMode, ModeT_co, VectorStepResult
from protogym_classic_control.cartpole import CartPoleEnv
from protogym_classic_control.utils import parse_reset_bounds
from protogym_classic_control.vector._base import UNSIGNED, ClassicVectorEnv, IntArray
from protogym_classic_control.vector.cartpole_kernel import (
    Kernel,
    SameStepKernel,
    compiled_draw,
    compiled_next_step,
    compiled_same_step,
    load_streams,
    resolve_kernel,
)

__all__ = ["CartPoleVectorEnv"]

_CONSTANT_NAMES = (
    "force_mag", "total_mass", "polemass_length", "masspole", "length", "gravity", "tau",
    "x_threshold", "theta_threshold_radians",
)
_DEFAULT_LOW = np.array(-0.05)
_DEFAULT_SPAN = np.array(0.05 - -0.05)  # what numpy's uniform(-0.05, 0.05) scales by


@dataclass(frozen=True, slots=True)
class _Constants:
    """0-d views of the physical constants, in `_constants`'s order."""

    two_force_mag: NDArray[np.float64]
    force_mag: NDArray[np.float64]
    total_mass: NDArray[np.float64]
    polemass_length: NDArray[np.float64]
    four_thirds: NDArray[np.float64]
    length: NDArray[np.float64]
    gravity: NDArray[np.float64]
    tau: NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class _Views:
    """Views into the state and scratch buffers of one block of sub-envs."""

    state: NDArray[np.float64]
    theta: NDArray[np.float64]
    velocities: NDArray[np.float64]
    positions: NDArray[np.float64]
    deriv: NDArray[np.float64]
    deriv_positions: NDArray[np.float64]
    deriv_velocities: NDArray[np.float64]
    force: NDArray[np.float64]
    xacc: NDArray[np.float64]
    thetaacc: NDArray[np.float64]
    cos: NDArray[np.float64]
    theta_dot_cos: NDArray[np.float64]
    sin: NDArray[np.float64]
    t1: NDArray[np.float64]
    t2: NDArray[np.float64]
    pair: NDArray[np.float64]
    temp: NDArray[np.float64]
    denominator: NDArray[np.float64]
    magnitudes: NDArray[np.float64]
    flags: NDArray[np.bool_]
    flag_x: NDArray[np.bool_]
    flag_theta: NDArray[np.bool_]


class CartPoleVectorEnv(ClassicVectorEnv[NDArray[np.integer[Any]], ModeT_co]):
    """`num_envs` CartPoles; sub-env i matches `CartPoleEnv` seeded `seed + i`.

    Actions are an int array of shape (num_envs,) with values 0 (push left) or 1 (right).
    `max_episode_steps` (500, as CartPole-v1) truncates episodes like `make`'s time limit.
    `kernel` picks what steps the physics: "numba" (compiled; needs the `jit` extra),
    "numpy", or "auto" (numba when installed); `self.kernel` tells which one runs.
    """

    draws_per_reset = 4

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 500,
        render_mode: str | None = None,
        sutton_barto_reward: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        kernel: Kernel = "auto",
    ) -> None:
        compiled_step = resolve_kernel(kernel, "CartPoleVectorEnv")
        if compiled_step is not None:
            self.buffered_resets = 0  # restarts draw from `_streams`, not a buffer
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self._compiled_step = compiled_step
        self.kernel: Kernel = "numpy" if compiled_step is None else "numba"
        # With numba, each sub-env's generator state, advanced by compiled code.
        streams = num_envs if compiled_step is not None else 0
        self._streams = np.zeros((4, streams), dtype=np.uint64)
        self._compiled_draw = None if compiled_step is None else compiled_draw()
        mode = self._autoreset_mode
        compiled = compiled_step is not None
        self._compiled_next_step = (
            compiled_next_step() if compiled and mode is AutoresetMode.NEXT_STEP else None
        )
        self._compiled_same_step = (
            compiled_same_step() if compiled and mode is AutoresetMode.SAME_STEP else None
        )
        self.sutton_barto_reward = bool(sutton_barto_reward)
        self.gravity = 9.8
        self.masscart = 1.0
        self.masspole = 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5
        self.polemass_length = self.masspole * self.length
        self.force_mag = 10.0
        self.tau = 0.02
        self.kinematics_integrator = "euler"
        self.theta_threshold_radians = 12 * 2 * math.pi / 360
        self.x_threshold = 2.4
        high = np.array(
            [self.x_threshold * 2, np.inf, self.theta_threshold_radians * 2, np.inf],
            dtype=np.float32,
        )
        self.single_action_space = Discrete(2)
        self.single_observation_space = Box(-high, high, dtype=np.float32)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)

        # Rows 0-3: the state; row 4: cos(theta), next to theta_dot so that one multiply
        # squares both (the two chains below run side by side as rows of `_pair`).
        self._rows = np.zeros((5, num_envs), dtype=np.float64)
        self.state = self._rows[:4]
        self._beyond = np.zeros(num_envs, dtype=np.bool_)  # terminated earlier, not reset
        self._deriv = np.empty((4, num_envs), dtype=np.float64)
        # Scratch, reused as lifetimes allow (a smaller working set stays in cache):
        # row 0 holds sin, row 1 the thetaacc numerator and then the xacc chain, and both
        # rows end as |x| and |theta|.
        self._temps = np.empty((2, num_envs), dtype=np.float64)
        self._pair = np.empty((2, num_envs), dtype=np.float64)
        self._pair_scales = np.empty((2, 1), dtype=np.float64)
        self._flags = np.empty((2, num_envs), dtype=np.bool_)
        self._thresholds = np.empty((2, 1), dtype=np.float64)
        self._views = self._make_views()
        # The next-step kernel's list of sub-envs that may restart next step; the same-step
        # kernel's list of the sub-envs that ended this step.
        self._restarts = np.empty(num_envs, dtype=np.intp)
        # The same-step kernel's final observations, copied out for each step's info.
        finals = num_envs if self._compiled_same_step is not None else 0
        self._finals = np.empty((finals, 4), dtype=np.float32)
        self._restart_count = np.zeros(1, dtype=np.intp)
        self._ones = np.ones(num_envs, dtype=np.float64)
        self._constants_stale = True
        self._constant_buffer = np.empty(8, dtype=np.float64)
        self._kernel_constants = np.empty(len(_CONSTANT_NAMES), dtype=np.float64)
        self._constant_views = _Constants(
            *(self._constant_buffer[index, ...] for index in range(8))
        )

    def _reseeded(self, rows: list[int]) -> None:
        if self._compiled_draw is not None:
            load_streams(self._generators, rows, self._streams)

    def _draw(self, rows: IntArray) -> NDArray[np.float64]:
        draw = self._compiled_draw
        if draw is None:
            return super()._draw(rows)
        uniforms = np.empty((len(rows), self.draws_per_reset), dtype=np.float64)
        draw(self._streams, np.asarray(rows, dtype=np.intp), uniforms)
        return uniforms

    def _reset_rows(self, rows: IntArray, uniforms: NDArray[np.float64],
                    options: dict[str, Any] | None) -> None:
        if options is None:  # the autoreset path: bounds as ready-made 0-d arrays
            values = _DEFAULT_LOW + _DEFAULT_SPAN * uniforms
        else:
            low, high = parse_reset_bounds("CartPoleVectorEnv", options, -0.05, 0.05)
            values = low + (high - low) * uniforms
        self.state[:, rows] = values.T
        if self._autoreset_mode is AutoresetMode.DISABLED:
            self._beyond[rows] = False

    def step(self, actions: NDArray[np.integer[Any]]) -> VectorStepResult[NDArray[np.float32]]:
        """In next-step and same-step mode with numba, a second compiled pass after the
        physics restarts the sub-envs that ended, counts episode lengths and fills every
        output (the base class's numpy bookkeeping costs more than the physics at thousands
        of sub-envs)."""
        if not self._started:
            return super().step(actions)
        same_step = self._compiled_same_step
        if same_step is not None:
            return self._same_step(same_step, actions)
        next_step = self._compiled_next_step
        if next_step is None:
            return super().step(actions)
        terminated = self._advance_all(actions)
        num_envs = self.num_envs
        rewards = np.empty(num_envs, dtype=np.float64)
        truncated = np.empty(num_envs, dtype=np.bool_)
        tick = self._tick + 1
        limit = self.max_episode_steps
        next_step(
            self.state, terminated, self._pending, self._restarts, self._restart_count,
            self._streams, self._started_at, tick, -1 if limit is None else tick - limit,
            self.sutton_barto_reward, rewards, truncated,
        )
        self._tick = tick
        return self._observe(None), rewards, terminated, truncated, {}

    def _same_step(
        self, same_step: SameStepKernel, actions: NDArray[np.integer[Any]]
    ) -> VectorStepResult[NDArray[np.float32]]:
        """The compiled same-step bookkeeping, with the base class's outputs and info layout:
        `final_obs` holds one float32 array per ended sub-env (rows of one fresh buffer)."""
        terminated = self._advance_all(actions)
        num_envs = self.num_envs
        rewards = np.empty(num_envs, dtype=np.float64)
        truncated = np.empty(num_envs, dtype=np.bool_)
        ended = np.empty(num_envs, dtype=np.bool_)
        tick = self._tick + 1
        limit = self.max_episode_steps
        rows = self._restarts
        count = same_step(
            self.state, terminated, self._streams, self._started_at, tick,
            -1 if limit is None else tick - limit, self.sutton_barto_reward,
            rewards, truncated, ended, rows, self._finals,
        )
        self._tick = tick
        infos: dict[str, Any] = {}
        if count:
            final_obs = np.empty(num_envs, dtype=object)
            finals = self._finals[:count].copy()  # the arrays below are views of it
            final_obs[rows[:count]] = np.fromiter(finals, dtype=object, count=count)
            infos = {
                "final_obs": final_obs,
                "_final_obs": ended,
                "final_info": {},
                "_final_info": ended.copy(),
            }
        return self._observe(None), rewards, terminated, truncated, infos

    def _advance_all(self, actions: Any) -> NDArray[np.bool_]:
        """Check `actions` and step every sub-env's physics; return a fresh `terminated`."""
        action = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        num_envs = self.num_envs
        if action.shape != (num_envs,) or action.dtype.kind not in "iu":
            raise ValueError(
                f"CartPoleVectorEnv.step() needs an int array of shape ({num_envs},) with "
                f"values 0 or 1, got {action.dtype} of shape {action.shape}"
            )
        compiled_step = self._compiled_step
        if compiled_step is not None:
            self._constants()
            terminated = np.empty(num_envs, dtype=np.bool_)
            euler = self.kinematics_integrator == "euler"
            if compiled_step(self.state, action, self._kernel_constants, euler, terminated) >= 0:
                raise _outside_error(actions)
        else:
            if action.dtype.kind == "i":  # negatives become huge: one max() checks both ends
                action = action.view(UNSIGNED[action.dtype.itemsize])
            if np.maximum.reduce(action) > 1:
                raise _outside_error(actions)
            terminated = self._advance(action, self._views)
        return terminated

    def _physics(self, actions: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        terminated = self._advance_all(actions)
        rewards = (
            np.where(terminated, -1.0, 0.0) if self.sutton_barto_reward else self._ones.copy()
        )
        if self._autoreset_mode is AutoresetMode.DISABLED:
            # Only without autoreset can a sub-env step on after termination; the single
            # env then pays 0 (not 1) for every further terminated step.
            beyond = self._beyond
            if not self.sutton_barto_reward:
                rewards[terminated & beyond] = 0.0
            np.logical_or(beyond, terminated, beyond)
        return rewards, terminated

    def __setattr__(self, name: str, value: Any) -> None:
        # Setting a physical constant (env.gravity = 5.0) marks the 0-d copies stale, so
        # each step checks one flag instead of comparing nine attributes.
        object.__setattr__(self, name, value)
        if name in _CONSTANT_NAMES:
            object.__setattr__(self, "_constants_stale", True)

    def _constants(self) -> _Constants:
        """The physical constants as 0-d arrays, refreshed when an attribute changed.

        A ufunc converts a Python float operand anew on every call (about 0.2 us); 0-d
        float64 arrays hold the same values, so results are unchanged.
        """
        if self._constants_stale:
            self._constants_stale = False
            values = tuple(getattr(self, name) for name in _CONSTANT_NAMES)
            force_mag, total_mass, polemass_length, masspole, length, gravity, tau = values[:7]
            self._constant_buffer[:] = (
                2.0 * force_mag, force_mag, total_mass, polemass_length, 4.0 / 3.0, length,
                gravity, tau,
            )
            self._pair_scales[:, 0] = (polemass_length, masspole)
            self._kernel_constants[:] = values
            self._thresholds[:, 0] = values[7:]
        return self._constant_views

    def _make_views(self) -> _Views:
        """The views `_advance` works in, made once (a view costs as much as a small op)."""
        rows = self._rows
        state = rows[:4]
        deriv = self._deriv
        temps = self._temps
        pair = self._pair
        flags = self._flags
        return _Views(
            state=state,
            theta=state[2],
            velocities=state[1::2],
            positions=state[0::2],
            deriv=deriv,
            deriv_positions=deriv[0::2],
            deriv_velocities=deriv[1::2],
            force=deriv[0],  # scratch until the Euler update
            xacc=deriv[1],
            thetaacc=deriv[3],
            cos=rows[4],
            theta_dot_cos=rows[3:5],
            sin=temps[0],
            t1=temps[1],
            t2=temps[1],
            pair=pair,
            temp=pair[0],
            denominator=pair[1],
            magnitudes=temps,
            flags=flags,
            flag_x=flags[0],
            flag_theta=flags[1],
        )

    def _advance(self, action: NDArray[Any], v: _Views) -> NDArray[np.bool_]:
        """Step every sub-env through the views `v`; return a fresh `terminated` array.

        Every operation is the single env's, in its order, so results are bitwise equal;
        positional `out` arguments, locals and views made once keep the overhead low.
        """
        multiply, divide, subtract = np.multiply, np.divide, np.subtract
        k = self._constants()
        force = v.force
        multiply(action, k.two_force_mag, force)  # 0 -> -force_mag, 1 -> +force_mag exactly
        subtract(force, k.force_mag, force)
        if not k.force_mag:  # but 0 - 0 is +0.0, where the single env pushes with -0.0
            np.copysign(force, np.subtract(action, 0.5), force)

        total_mass = k.total_mass
        cos, sin, t1, t2 = v.cos, v.sin, v.t1, v.t2
        np.cos(v.theta, cos)
        np.sin(v.theta, sin)
        # Two chains side by side, one per row of `pair`, each in the single env's order:
        #   temp        = (force + polemass_length * theta_dot**2 * sin) / total_mass
        #   denominator = length * (4/3 - masspole * cos**2 / total_mass)
        pair, temp, denominator = v.pair, v.temp, v.denominator
        multiply(v.theta_dot_cos, v.theta_dot_cos, pair)
        multiply(self._pair_scales, pair, pair)
        multiply(temp, sin, temp)
        np.add(force, temp, temp)
        divide(pair, total_mass, pair)
        subtract(k.four_thirds, denominator, denominator)
        multiply(k.length, denominator, denominator)
        # thetaacc = (gravity * sin - cos * temp) / denominator
        multiply(k.gravity, sin, t2)
        multiply(cos, temp, sin)
        subtract(t2, sin, t2)
        thetaacc = v.thetaacc
        divide(t2, denominator, thetaacc)
        # xacc = temp - polemass_length * thetaacc * cos / total_mass
        multiply(k.polemass_length, thetaacc, t1)
        multiply(t1, cos, t1)
        divide(t1, total_mass, t1)
        subtract(temp, t1, v.xacc)

        tau = k.tau
        state, deriv = v.state, v.deriv
        if self.kinematics_integrator == "euler":
            v.deriv_positions[...] = v.velocities
            multiply(tau, deriv, deriv)
            np.add(state, deriv, state)
        else:  # semi-implicit Euler: velocities first, then positions from the new ones
            velocities = v.deriv_velocities
            multiply(tau, velocities, velocities)
            np.add(v.velocities, velocities, v.velocities)
            positions = v.deriv_positions
            multiply(tau, v.velocities, positions)
            np.add(v.positions, positions, v.positions)

        # |x| > x_threshold is x < -x_threshold or x > x_threshold, NaN included.
        np.abs(v.positions, v.magnitudes)
        np.greater(v.magnitudes, self._thresholds, v.flags)
        terminated: NDArray[np.bool_] = np.logical_or(v.flag_x, v.flag_theta)
        return terminated

    def _observe(self, rows: IntArray | None) -> NDArray[np.float32]:
        if rows is None:
            return self.state.astype(np.float32).T  # a contiguous cast, then a free view
        return self.state[:, rows].T.astype(np.float32)

    def _single_env(self, render_mode: str) -> Env[Any, Any]:
        return CartPoleEnv(render_mode=render_mode)

    def _load_state(self, env: Any, row: int) -> None:
        x, x_dot, theta, theta_dot = self.state[:, row].tolist()
        env.state = (x, x_dot, theta, theta_dot)


def _outside_error(actions: Any) -> ValueError:
    return ValueError(f"CartPoleVectorEnv.step() got actions outside {{0, 1}}: {actions!r}")
