"""A Gymnasium space protogym has no counterpart for comes through as a `ForeignSpace` that
delegates to it, and batches as Gymnasium batches custom spaces."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector.utils import batch_space as gymnasium_batch_space
from hypothesis import given, settings
from hypothesis import strategies as st

import protogym
from protogym import spaces
from protogym.interop.gymnasium import ForeignSpace, from_gymnasium_space, to_gymnasium_space
from protogym.spaces import batch_space, concatenate, create_empty_array, iterate


class Word(gymnasium.spaces.Space[str]):
    """A custom Gymnasium space: words over a small alphabet, of length 1 to `longest`.

    Like most packages' own spaces it leaves `is_np_flattenable` to Gymnasium's default,
    which raises, and takes a mask of allowed letters.
    """

    ALPHABET = "abcdef"

    def __init__(self, longest: int = 4, seed: int | None = None) -> None:
        self.longest = longest
        super().__init__(shape=None, dtype=None, seed=seed)

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        letters = self.ALPHABET if mask is None else "".join(
            letter for letter, allowed in zip(self.ALPHABET, mask, strict=True) if allowed
        )
        length = int(self.np_random.integers(1, self.longest + 1))
        return "".join(self.np_random.choice(list(letters), size=length))

    def contains(self, x: Any) -> bool:
        return (
            isinstance(x, str)
            and 1 <= len(x) <= self.longest
            and all(letter in self.ALPHABET for letter in x)
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Word) and other.longest == self.longest

    __hash__ = None  # type: ignore[assignment]


def test_an_unknown_gymnasium_space_comes_through_as_a_foreign_space() -> None:
    word = Word()
    ours = from_gymnasium_space(word)
    assert isinstance(ours, ForeignSpace)
    assert isinstance(ours, protogym.Space)
    assert ours.gymnasium_space is word
    assert to_gymnasium_space(ours) is word
    assert (ours.shape, ours.dtype) == (None, None)
    assert ours.is_np_flattenable is False
    assert ours.longest == 4  # other attributes are the Gymnasium space's
    assert repr(ours) == f"ForeignSpace({word!r})"


def test_inside_composite_spaces_only_the_unknown_part_is_foreign() -> None:
    theirs = gymnasium.spaces.Dict(
        {"word": Word(), "count": gymnasium.spaces.Discrete(3)}
    )
    ours = from_gymnasium_space(theirs)
    assert isinstance(ours, spaces.Dict)
    assert isinstance(ours["count"], spaces.Discrete)
    assert isinstance(ours["word"], ForeignSpace)
    back = to_gymnasium_space(ours)
    assert isinstance(back, gymnasium.spaces.Dict)
    assert back["word"] is theirs["word"]
    paired = from_gymnasium_space(gymnasium.spaces.Tuple((Word(2), Word(3))))
    assert isinstance(paired, spaces.Tuple)
    assert [type(part) for part in paired.spaces] == [ForeignSpace, ForeignSpace]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), longest=st.integers(1, 6))
def test_sample_contains_and_seed_are_the_gymnasium_spaces(seed: int, longest: int) -> None:
    ours = ForeignSpace(Word(longest))
    reference = Word(longest)
    assert ours.seed(seed) == reference.seed(seed)
    for _ in range(5):
        element = ours.sample()
        assert element == reference.sample()
        assert ours.contains(element) and element in ours
    assert ours.np_random.bit_generator.state == reference.np_random.bit_generator.state
    assert not ours.contains("z" * (longest + 1))
    assert "" not in ours and 3 not in ours


def test_masks_go_to_the_gymnasium_space() -> None:
    ours = ForeignSpace(Word(seed=0))
    assert set("".join(ours.sample(mask=[1, 0, 0, 0, 0, 1]) for _ in range(30))) == {"a", "f"}


def test_equality_follows_the_gymnasium_space() -> None:
    assert ForeignSpace(Word(3)) == ForeignSpace(Word(3))
    assert ForeignSpace(Word(3)) != ForeignSpace(Word(4))
    assert ForeignSpace(Word(3)) != Word(3)
    assert ForeignSpace(Word(3)) != spaces.Discrete(3)
    with pytest.raises(TypeError, match="unhashable"):
        hash(ForeignSpace(Word(3)))
    assert hash(ForeignSpace(gymnasium.spaces.Space())) is not None


@pytest.mark.parametrize("clone", [pickle.loads, copy.deepcopy], ids=["pickle", "deepcopy"])
def test_pickled_and_copied_spaces_are_equal_and_continue_the_same_stream(clone: Any) -> None:
    ours = ForeignSpace(Word(5, seed=7))
    ours.sample()
    copied = clone(pickle.dumps(ours)) if clone is pickle.loads else clone(ours)
    assert isinstance(copied, ForeignSpace)
    assert copied == ours
    assert copied.gymnasium_space is not ours.gymnasium_space
    assert [copied.sample() for _ in range(5)] == [ours.sample() for _ in range(5)]


def test_the_json_conversions_are_the_gymnasium_spaces() -> None:
    ours = ForeignSpace(Word())
    assert ours.to_jsonable(["ab", "c"]) == ["ab", "c"]
    assert ours.from_jsonable(["ab", "c"]) == ["ab", "c"]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5))
def test_it_batches_as_gymnasium_batches_custom_spaces(seed: int, n: int) -> None:
    ours = ForeignSpace(Word(seed=seed))
    batched = batch_space(ours, n)
    reference = gymnasium_batch_space(Word(seed=seed), n)
    assert isinstance(batched, spaces.Tuple)
    assert isinstance(reference, gymnasium.spaces.Tuple)
    assert all(isinstance(part, ForeignSpace) for part in batched.spaces)
    assert all(part == ours and part is not ours for part in batched.spaces)
    for _ in range(3):
        assert batched.sample() == reference.sample()
    # The original samples on, untouched by its copies.
    assert ours.sample() == Word(seed=seed).sample()


def test_batches_are_tuples_of_elements() -> None:
    ours = ForeignSpace(Word(seed=1))
    batched = batch_space(ours, 3)
    assert create_empty_array(ours, 3) is None
    rows = ["ab", "c", "def"]
    joined = concatenate(ours, rows, create_empty_array(ours, 3))
    assert joined == ("ab", "c", "def")
    assert list(iterate(batched, joined)) == rows


def test_it_wraps_gymnasium_spaces_only() -> None:
    with pytest.raises(TypeError, match=r"ForeignSpace wraps a gymnasium.spaces.Space, got 3"):
        ForeignSpace(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"cannot convert 'Box' \(str\): it takes a gymnasium"):
        from_gymnasium_space("Box")  # type: ignore[arg-type]


def test_a_flattenable_custom_space_says_so() -> None:
    class Flat(Word):
        @property
        def is_np_flattenable(self) -> bool:
            return True

    assert ForeignSpace(Flat()).is_np_flattenable is True
    ours = ForeignSpace(Word())
    generator = np.random.default_rng(3)
    ours.np_random = generator
    assert ours.gymnasium_space.np_random is generator
