"""`protogym.utils`' small helpers: colorize, EzPickle, RecordConstructorArgs, seeding."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.error import Error
from protogym.utils import EzPickle, RecordConstructorArgs, colorize, seeding
from protogym.utils.colorize import color2num


def test_colorize_wraps_the_text_in_ansi_codes() -> None:
    assert colorize("hi", "red") == "\x1b[31mhi\x1b[0m"
    assert colorize("hi", "green", bold=True) == "\x1b[32;1mhi\x1b[0m"
    assert colorize("hi", "blue", highlight=True) == "\x1b[44mhi\x1b[0m"
    assert colorize("hi", "crimson", bold=True, highlight=True) == "\x1b[48;1mhi\x1b[0m"
    assert set(color2num) == {"gray", "red", "green", "yellow", "blue", "magenta", "cyan",
                              "white", "crimson"}


def test_colorize_names_the_colours_for_an_unknown_one() -> None:
    with pytest.raises(KeyError, match="unknown colour 'orange'; the colours are gray, red"):
        colorize("hi", "orange")


class _Handle(EzPickle):
    """Holds something pickle cannot copy; rebuilt from its arguments instead."""

    built = 0

    def __init__(self, size: int, *, name: str = "h") -> None:
        EzPickle.__init__(self, size, name=name)
        _Handle.built += 1
        self.size = size
        self.name = name
        self.lock: Any = lambda: None  # a lambda does not pickle
        self.steps = 0


def test_ezpickle_rebuilds_from_the_constructor_arguments() -> None:
    handle = _Handle(3, name="x")
    handle.steps = 5  # state, not an argument: not carried over
    before = _Handle.built
    copy = pickle.loads(pickle.dumps(handle))
    assert _Handle.built == before + 1
    assert (copy.size, copy.name, copy.steps) == (3, "x", 0)
    assert callable(copy.lock)


class _Base(RecordConstructorArgs):
    def __init__(self, a: int, b: list[int]) -> None:
        RecordConstructorArgs.__init__(self, a=a, b=b)


class _Child(_Base):
    def __init__(self, c: int) -> None:
        RecordConstructorArgs.__init__(self, c=c)
        super().__init__(1, [2])


def test_record_constructor_args_keeps_a_deep_copy_of_the_first_record() -> None:
    items = [1, 2]
    base = _Base(7, items)
    items.append(3)
    assert base._saved_kwargs == {"a": 7, "b": [1, 2]}
    assert _Child(4)._saved_kwargs == {"c": 4}, "the parent's record does not overwrite"


def test_record_constructor_args_without_a_copy() -> None:
    class Shallow(RecordConstructorArgs):
        def __init__(self, items: list[int]) -> None:
            RecordConstructorArgs.__init__(self, _disable_deepcopy=True, items=items)

    items = [1]
    assert Shallow(items)._saved_kwargs["items"] is items


@pytest.mark.parametrize("seed", [-1, "test", 1.5, np.int64(3)])
def test_seeding_rejects_bad_seeds_with_an_error_error(seed: Any) -> None:
    with pytest.raises(seeding.InvalidSeed, match="a seed must be None or an int >= 0, got "):
        seeding.np_random(seed)
    assert issubclass(seeding.InvalidSeed, Error) and issubclass(seeding.InvalidSeed, ValueError)
    assert issubclass(seeding.InvalidSeed, TypeError)
    from protogym.spaces.base import InvalidSeed

    assert InvalidSeed is seeding.InvalidSeed, "one class, for spaces and envs alike"


def test_seeding_generator_names_pickle_and_streams() -> None:
    assert seeding.RandomNumberGenerator is seeding.RNG is np.random.Generator
    rng, seed = seeding.np_random(0)
    assert seed == 0
    twin = pickle.loads(pickle.dumps(rng))
    assert isinstance(twin, seeding.RandomNumberGenerator)
    assert rng.random() == twin.random()
    assert seeding.np_random(5)[0].random() == seeding.np_random(5)[0].random()
    _, entropy = seeding.np_random(None)
    assert isinstance(entropy, int) and entropy > 0
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        seeding.Nope  # noqa: B018


def test_an_env_seeded_with_a_bad_seed_raises_the_seeding_error() -> None:
    env = protogym.make("CartPole-v1")
    with pytest.raises(Error):
        env.reset(seed=-3)
