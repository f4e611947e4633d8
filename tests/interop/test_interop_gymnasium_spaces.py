"""Spaces to Gymnasium and back: same kind, shape, dtype, bounds and start, nested."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym import spaces
from protogym.interop.gymnasium import (
    _graph_retyper,
    from_gymnasium_space,
    to_gymnasium_space,
)
from protogym.spaces import SpaceBase
from protogym.testing.strategies import any_spaces


@settings(max_examples=60, deadline=None)
@given(space=any_spaces, seed=st.integers(0, 2**16))
def test_every_space_round_trips_and_keeps_its_elements(space: SpaceBase[Any], seed: int) -> None:
    converted = to_gymnasium_space(space)
    assert type(converted).__name__ == type(space).__name__
    assert converted.shape == space.shape
    assert from_gymnasium_space(converted) == space
    to_theirs = _graph_retyper(space, gymnasium.spaces.GraphInstance) or (lambda x: x)
    to_ours = _graph_retyper(converted, spaces.GraphInstance) or (lambda x: x)
    space.seed(seed)
    for _ in range(3):
        element = space.sample()
        assert converted.contains(to_theirs(element)), (space, element)
    converted.seed(seed)
    try:
        theirs = converted.sample()
    except ValueError:  # Gymnasium's integer Box.sample overflows when high - low > int64
        return
    assert space.contains(to_ours(theirs))


def test_bounds_dtype_and_start_are_kept() -> None:
    box = to_gymnasium_space(spaces.Box(-2, np.array([1, 3], dtype=np.float64), dtype=np.float64))
    assert isinstance(box, gymnasium.spaces.Box)
    assert box.dtype == np.float64
    np.testing.assert_array_equal(box.low, [-2, -2])
    np.testing.assert_array_equal(box.high, [1, 3])
    discrete = to_gymnasium_space(spaces.Discrete(5, start=-2))
    assert isinstance(discrete, gymnasium.spaces.Discrete)
    assert (discrete.n, discrete.start) == (5, -2)
    multi = to_gymnasium_space(spaces.MultiDiscrete([3, 4], dtype=np.int32, start=[1, -1]))
    assert isinstance(multi, gymnasium.spaces.MultiDiscrete)
    assert multi.dtype == np.int32
    np.testing.assert_array_equal(multi.start, [1, -1])


def test_dict_key_order_is_kept_both_ways() -> None:
    ours = spaces.Dict([("b", spaces.Discrete(2)), ("a", spaces.Discrete(3))], sort_keys=False)
    theirs = to_gymnasium_space(ours)
    assert isinstance(theirs, gymnasium.spaces.Dict)
    assert list(theirs.spaces) == ["b", "a"]
    assert list(from_gymnasium_space(theirs).spaces) == ["b", "a"]  # type: ignore[attr-defined]


def test_a_space_without_counterpart_is_a_type_error_that_names_it() -> None:
    class Odd(SpaceBase[int]):
        def sample(self, mask: Any = None, probability: Any = None) -> int:
            return 0

        def contains(self, x: Any) -> bool:
            return bool(x == 0)

    with pytest.raises(TypeError, match=r"cannot convert .*\(Odd\).*Box, Discrete"):
        to_gymnasium_space(Odd(None, None))
    with pytest.raises(TypeError, match=r"cannot convert .*\(str\)"):
        from_gymnasium_space("Box")  # type: ignore[arg-type]
