"""The `np_random` and `np_random_seed` members that `Env` and `VectorEnv` give explicit
subclasses, as Gymnasium's `Env` and `VectorEnv` both have them.

The generator is made from OS entropy the first time either member is read, unless
`reset(seed=...)` made one first (numpy is imported then, not on ``import protogym``).
Assigning a generator makes the seed unknown (-1).
"""

from __future__ import annotations

from typing import Any

__all__ = ["np_random", "np_random_seed", "seed_generator"]


def seed_generator(owner: Any, seed: int | None) -> None:
    """Give `owner` a new generator seeded with `seed` (None: OS entropy), and its seed."""
    from protogym.utils.seeding import np_random as new_generator

    owner._np_random, owner._np_random_seed = new_generator(seed)


def _get_np_random(self: Any) -> Any:
    if self._np_random is None:
        seed_generator(self, None)
    return self._np_random


def _set_np_random(self: Any, value: Any) -> None:
    self._np_random = value
    self._np_random_seed = -1


def _get_np_random_seed(self: Any) -> Any:
    if self._np_random_seed is None:
        seed_generator(self, None)
    return self._np_random_seed


np_random = property(
    _get_np_random,
    _set_np_random,
    doc="The generator, seeded from OS entropy on first use if never seeded.",
)
np_random_seed = property(
    _get_np_random_seed,
    doc="The seed of `np_random`, or -1 if a generator was assigned directly.",
)
