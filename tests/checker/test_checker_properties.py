"""Properties of the checker's building blocks and of PassiveEnvChecker's transparency."""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from protogym.checker.env import data_equal
from protogym.checker.passive import is_bool, shares_data
from protogym.wrappers.env_checker import PassiveEnvChecker
from tests.checker.checker_testenvs import FLAVOURS

arrays = hnp.arrays(
    dtype=st.sampled_from([np.float32, np.float64, np.int64, np.uint8, np.bool_]),
    shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=4),
    elements={"allow_nan": False},
)
leaves = st.one_of(arrays, st.integers(-5, 5), st.floats(allow_nan=False), st.booleans(),
                   st.text(max_size=3))
data = st.recursive(
    leaves,
    lambda inner: st.one_of(st.lists(inner, max_size=3).map(tuple),
                            st.dictionaries(st.text(max_size=2), inner, max_size=3)),
    max_leaves=8,
)


@given(data)
def test_checker_data_equal_is_reflexive_and_sees_copies_as_equal(value: Any) -> None:
    assert data_equal(value, value, exact=True)
    assert data_equal(value, copy.deepcopy(value), exact=True)


@given(data)
def test_checker_a_deep_copy_shares_nothing(value: Any) -> None:
    assert not shares_data(value, copy.deepcopy(value))


@given(arrays)
def test_checker_views_and_containers_of_one_array_share_it(array: np.ndarray[Any, Any]) -> None:
    if array.size == 0:
        return  # an empty array has no memory to share
    assert shares_data(array, array[...])
    assert shares_data((array,), (array,))
    assert shares_data({"obs": array}, {"obs": array})


@given(hnp.arrays(np.float64, st.integers(1, 5), elements=st.floats(-10, 10)),
       st.floats(1e-3, 1.0))
def test_checker_data_equal_tolerates_1e_5(array: np.ndarray[Any, Any], step: float) -> None:
    # Within atol + rtol * |value| = 1e-5 + 1e-5 * 10: close; a step of 1e-3 is not.
    assert data_equal(array, array + 1e-7)
    assert not data_equal(array, array + 1e-7, exact=True)
    assert not data_equal(array, array + step)


@given(st.one_of(st.booleans(), st.booleans().map(np.bool_)))
def test_checker_python_and_numpy_bools_are_both_flags(flag: Any) -> None:
    assert is_bool(flag)


@given(st.one_of(st.integers(0, 1), st.floats(0, 1), st.just(np.int8(1)), st.none()))
def test_checker_numbers_are_not_flags(value: Any) -> None:
    assert not is_bool(value)


@settings(max_examples=30)
@given(flavour=st.sampled_from(sorted(FLAVOURS)), seed=st.integers(0, 2**16),
       actions=st.lists(st.integers(0, 1), min_size=1, max_size=30))
def test_checker_passive_checker_changes_nothing(flavour: str, seed: int,
                                                  actions: list[int]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        checked = PassiveEnvChecker(FLAVOURS[flavour]())
        twin = FLAVOURS[flavour]()
        assert data_equal(checked.reset(seed=seed), twin.reset(seed=seed), exact=True)
        for action in actions:
            result, expected = checked.step(action), twin.step(action)
            assert data_equal(result, expected, exact=True)
            if result[2] or result[3]:
                assert data_equal(checked.reset(), twin.reset(), exact=True)
