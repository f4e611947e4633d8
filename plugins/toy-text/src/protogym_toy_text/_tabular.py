"""`TabularEnv`: the shared engine of the envs defined by a transition table.

FrozenLake, Taxi and CliffWalking are finite MDPs: for each state and action a short list of
``(probability, next_state, reward, terminated)`` outcomes. The table is built once, in the
constructor, into per-state tuples of cumulative probabilities and outcomes, so `step` is a
list index, one uniform draw and a comparison or two: no per-step dicts, lists or arrays.

Sampling consumes the generator exactly as Gymnasium's ``categorical_sample`` does (one
``random()`` per step, even for a deterministic outcome; the first outcome whose cumulative
probability exceeds the draw wins, the first one if none does), so a seed gives the same
trajectory in both libraries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.error import InvalidAction, ResetNeeded
from protogym.spaces import Discrete
from protogym_toy_text._common import Action, warn_without_render_mode

if TYPE_CHECKING:
    from protogym_toy_text._render import Canvas

__all__ = ["Outcome", "TabularEnv"]

R = TypeVar("R", int, float)

Outcome = tuple[float, int, R, bool]
"""One possible result of an action: ``(probability, next_state, reward, terminated)``."""

# Per state, per action: (cumulative probabilities, (next_state, reward, terminated, prob)...)
_Entry = tuple[tuple[float, ...], tuple[tuple[int, R, bool, float], ...]]


class TabularEnv(Env[int | np.int64, Action], Generic[R]):
    """A finite MDP given by its outcome table, with Gymnasium's sampling order.

    Observations are Python ints, as Gymnasium returns them; the observation type also
    admits ``np.int64`` because that is what a `Discrete` space holds and samples.

    Subclasses build the table and the initial-state distribution and pass them to
    `_set_table`, and draw in `_render_text` (``ansi``) and `_render_frame` (pixels, on
    ``self._canvas``); `render` and `close` dispatch to them.
    """

    action_space: Discrete
    observation_space: Discrete
    render_mode: str | None

    _rows: tuple[tuple[_Entry[R], ...], ...]
    _row: tuple[_Entry[R], ...] | None
    _initial_cumulative: NDArray[np.float64]
    _table: list[list[list[Outcome[R]]]]

    def _set_table(self, table: list[list[list[Outcome[R]]]], initial: NDArray[np.float64]) -> None:
        """Install the outcome table and the initial-state distribution (sums to 1)."""
        rows = []
        for actions in table:
            entries = []
            for outcomes in actions:
                cumulative = []
                total = 0.0
                for probability, *_ in outcomes:
                    total += probability
                    cumulative.append(total)
                packed = tuple((s, r, t, p) for p, s, r, t in outcomes)
                entries.append((tuple(cumulative), packed))
            rows.append(tuple(entries))
        self._table = table
        self._rows = tuple(rows)
        self._n_actions = len(table[0])
        self.initial_state_distrib = initial  # Gymnasium's name for it
        self._initial_cumulative = np.cumsum(initial)
        self.action_space = Discrete(self._n_actions)
        self.observation_space = Discrete(len(table))
        self._s = -1
        self._row = None
        self._human = self.render_mode == "human"
        self._canvas: Canvas | None = None
        self.lastaction: Action | None = None

    @property
    def P(self) -> dict[int, dict[int, list[Outcome[R]]]]:  # noqa: N802 - Gymnasium's name
        """The table in Gymnasium's layout, ``P[state][action] -> [(p, s', r, done), ...]``.

        A fresh copy each time, for dynamic-programming code written against Gymnasium.
        """
        return {
            state: {action: list(outcomes) for action, outcomes in enumerate(actions)}
            for state, actions in enumerate(self._table)
        }

    @property
    def s(self) -> int:
        """The current state (-1 before the first reset); assigning it teleports the agent."""
        return self._s

    @s.setter
    def s(self, state: int) -> None:
        if not 0 <= state < len(self._rows):
            raise ValueError(
                f"{type(self).__name__}.s must be a state in {self.observation_space}, "
                f"got {state!r}"
            )
        self._s = int(state)
        self._row = self._rows[self._s]

    def _reset_state(self) -> int:
        """Draw the initial state, consuming one uniform number like Gymnasium."""
        u = self.np_random.random()
        state = int(np.argmax(self._initial_cumulative > u))
        self._s = state
        self._row = self._rows[state]
        self.lastaction = None
        return state

    def _invalid(self, action: object) -> InvalidAction:
        return InvalidAction(
            f"{type(self).__name__}.step got the invalid action {action!r}: the action "
            f"space is {self.action_space}, so pass an int in [0, {self._n_actions - 1}]"
        )

    def _not_reset(self, what: str) -> ResetNeeded:
        return ResetNeeded(
            f"{type(self).__name__}.{what} was called before reset(); "
            "call env.reset() to start an episode first"
        )

    def _transition(self, action: Action) -> tuple[int, R, bool, float]:
        """Validate `action`, sample its outcome and move there."""
        row = self._row
        if row is None:
            raise self._not_reset("step()")
        try:
            if not 0 <= action < self._n_actions:
                raise IndexError
            cumulative, outcomes = row[action]
        except (TypeError, IndexError, ValueError):
            raise self._invalid(action) from None
        u = self.np_random.random()
        index = 0
        for value in cumulative:
            if value > u:
                break
            index += 1
        else:
            index = 0
        outcome = outcomes[index]
        state = outcome[0]
        self._s = state
        self._row = self._rows[state]
        self.lastaction = action
        return outcome

    def step(self, action: Action) -> tuple[int, R, bool, bool, dict[str, Any]]:
        state, reward, terminated, prob = self._transition(action)
        if self._human:
            self.render()
        return state, reward, terminated, False, {"prob": prob}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        super().reset(seed=seed)
        state = self._reset_state()
        if self._human:
            self.render()
        return state, self._reset_info(state)

    def _reset_info(self, state: int) -> dict[str, Any]:
        return {"prob": 1}

    def render(self) -> str | NDArray[np.uint8] | None:
        if self.render_mode is None:
            warn_without_render_mode(self.spec.id if self.spec is not None else type(self).__name__)
            return None
        if self._row is None:
            raise self._not_reset("render()")
        if self.render_mode == "ansi":
            return self._render_text()
        return self._render_frame()

    def _render_text(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must define _render_text()")

    def _render_frame(self) -> NDArray[np.uint8] | None:
        raise NotImplementedError(f"{type(self).__name__} must define _render_frame()")

    def close(self) -> None:
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None
