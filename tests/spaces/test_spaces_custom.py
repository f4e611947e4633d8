"""A space class that subclasses `Space` explicitly (as Gymnasium code subclasses
``gymnasium.Space``): the defaults it gets, and how the helpers treat a type they do not know."""

from __future__ import annotations

import copy
import re
from typing import Any

import numpy as np
import pytest

from protogym.error import CustomSpaceError
from protogym.spaces import Box, Space, Tuple
from protogym.spaces.utils import flatdim, flatten, flatten_space, unflatten
from protogym.vector.utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)


class Dice(Space[np.int64]):
    """A die: the defaults give it shape, dtype, seeding and its generator."""

    def __init__(self, faces: int = 6, seed: int | None = None) -> None:
        self.faces = faces
        super().__init__((), np.int64, seed)

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> np.int64:
        return np.int64(self.np_random.integers(1, self.faces + 1))

    def contains(self, x: Any) -> bool:
        return isinstance(x, int | np.integer) and 1 <= int(x) <= self.faces

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dice) and other.faces == self.faces


class Bare(Space[Any]):
    """Only equality: everything else is the defaults."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bare)


def test_defaults_of_an_explicit_subclass() -> None:
    die = Dice(seed=3)
    assert isinstance(die, Space)
    assert die.shape == () and die.dtype == np.int64
    rolls = [die.sample() for _ in range(10)]
    assert all(roll in die for roll in rolls)
    assert die.seed(3) == 3
    assert [die.sample() for _ in range(10)] == rolls
    assert die.to_jsonable(rolls) == rolls and die.from_jsonable(rolls) == rolls


def test_a_subclass_that_never_calls_init_gets_a_generator_on_first_use() -> None:
    space = Bare()  # type: ignore[abstract]
    first = space.np_random
    assert isinstance(first, np.random.Generator)
    assert space.np_random is first  # made once, then kept
    assert space.shape is None and space.dtype is None
    assert isinstance(Space(), Space)  # type: ignore[misc]


def test_unimplemented_members_raise_not_implemented() -> None:
    space = Bare()  # type: ignore[abstract]
    with pytest.raises(NotImplementedError, match=re.escape("Bare does not define sample()")):
        space.sample()
    with pytest.raises(NotImplementedError, match=re.escape("Bare does not define contains()")):
        space.contains(None)
    with pytest.raises(NotImplementedError):
        flatdim(space)
    for function in (flatten, unflatten):
        with pytest.raises(NotImplementedError, match="has no rule for Bare"):
            function(space, None)
    with pytest.raises(NotImplementedError, match="has no rule for Bare"):
        flatten_space(space)


def test_bad_seeds_and_generators_are_refused() -> None:
    die = Dice()
    with pytest.raises(ValueError, match=re.escape("Dice.seed() takes a non-negative int")):
        die.seed(-1)
    with pytest.raises(TypeError, match=re.escape("Dice.np_random must be a")):
        die.np_random = 5  # type: ignore[misc, assignment]  # settable at run time only
    generator = np.random.default_rng(0)
    die.np_random = generator  # type: ignore[misc]
    assert die.np_random is generator


def test_a_custom_space_batches_as_a_tuple_of_reseeded_copies() -> None:
    """As in Gymnasium: `batch_space` gives a `Tuple` of copies, each seeded from a copy of
    the original's generator, so the original's stream is left alone."""
    die = Dice(seed=1)
    before = copy.deepcopy(die.np_random).bit_generator.state
    batched = batch_space(die, 3)
    assert isinstance(batched, Tuple) and list(batched) == [Dice(), Dice(), Dice()]
    assert die.np_random.bit_generator.state == before
    rolls = batched.sample()
    assert rolls in batched and len(rolls) == 3
    assert list(iterate(batched, rolls)) == list(rolls)
    assert concatenate(die, list(rolls), create_empty_array(die, 3)) == rolls
    assert create_empty_array(die, 3) is None
    mixed = batch_space(Tuple([Dice(seed=2), Box(0, 1, ())]), 2)
    sample = mixed.sample()
    assert [pair[1].shape for pair in iterate(mixed, sample)] == [(), ()]


def test_helpers_without_a_rule_say_so() -> None:
    with pytest.raises(CustomSpaceError, match="iterate has no rule for Dice"):
        iterate(Dice(), [1, 2])
    with pytest.raises(TypeError, match=re.escape("iterate needs a space, got str")):
        iterate("dice", [1])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="batch_differing_spaces has no rule for Dice"):
        batch_differing_spaces([Dice(), Dice(8)])
    with pytest.raises(CustomSpaceError, match="it is not iterable"):
        list(iterate(batch_space(Dice(), 2), 5))


def test_batch_differing_spaces_takes_a_registered_rule() -> None:
    class Coin(Dice):
        pass

    @batch_differing_spaces.register(Coin)
    def _coins(spaces: list[Coin]) -> Space[Any]:
        return Box(1, max(space.faces for space in spaces), (len(spaces),), np.int64)

    assert batch_differing_spaces([Coin(2), Coin(3)]) == Box(1, 3, (2,), np.int64)
