"""The step-API converters on vector results: `is_vector_env`, dict and list infos."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from protogym.compat import (
    convert_to_done_step_api,
    convert_to_terminated_truncated_step_api,
    step_api_compatibility,
)
from protogym.utils import step_api_compatibility as gymnasium_path

TERMINATED = np.array([False, True, False, True])
TRUNCATED = np.array([False, False, True, True])


def test_list_infos_get_the_flag_only_where_a_sub_env_ended() -> None:
    infos: list[dict[str, Any]] = [{"a": 0}, {}, {}, {"b": 1}]
    _, _, done, new_infos = convert_to_done_step_api(
        (0, 0, TERMINATED, TRUNCATED, infos), is_vector_env=True
    )
    assert done.tolist() == [False, True, True, True]
    assert new_infos == [
        {"a": 0},
        {"TimeLimit.truncated": False},
        {"TimeLimit.truncated": True},
        {"b": 1, "TimeLimit.truncated": False},  # both at once reads as terminated
    ]
    assert infos == [{"a": 0}, {}, {}, {"b": 1}], "the sub-envs' dicts are not changed"


def test_list_infos_convert_back_per_sub_env() -> None:
    infos = [{}, {"TimeLimit.truncated": False}, {"TimeLimit.truncated": True}, {"x": 2}]
    done = np.array([False, True, True, True])
    _, _, terminated, truncated, new_infos = convert_to_terminated_truncated_step_api(
        (0, 0, done, infos), is_vector_env=True
    )
    assert terminated.tolist() == [False, True, False, True]
    assert truncated.tolist() == [False, False, True, False]
    assert new_infos == [{}, {}, {}, {"x": 2}]
    assert infos[2] == {"TimeLimit.truncated": True}


def test_dict_infos_without_an_ended_sub_env_stay_as_they_are() -> None:
    none_ended = np.zeros(3, dtype=bool)
    _, _, done, info = convert_to_done_step_api(
        (0, 0, none_ended, none_ended, {"k": np.ones(3)}), is_vector_env=True
    )
    assert not done.any()
    assert list(info) == ["k"]
    _, _, terminated, truncated, info = convert_to_terminated_truncated_step_api(
        (0, 0, done, {}), is_vector_env=True
    )
    assert terminated.tolist() == truncated.tolist() == [False, False, False]


def test_is_vector_env_with_one_sub_env_keeps_arrays() -> None:
    _, _, done, info = convert_to_done_step_api(
        (0, 0, np.array([True]), np.array([True]), {}), is_vector_env=True
    )
    assert isinstance(done, np.ndarray)
    assert done.tolist() == [True]
    assert info["TimeLimit.truncated"].tolist() == [False]


def test_numpy_bool_flags_of_a_single_env_give_python_bools() -> None:
    _, _, done, info = convert_to_done_step_api((0, 0, np.bool_(False), np.bool_(True), {}))
    assert done is True
    assert info == {"TimeLimit.truncated": True}


@pytest.mark.parametrize("info", ["text", 3, None])
def test_vector_info_of_another_kind_is_a_type_error(info: object) -> None:
    with pytest.raises(TypeError, match="dict of arrays or a list of per-env dicts"):
        convert_to_done_step_api((0, 0, TERMINATED, TRUNCATED, info), is_vector_env=True)
    with pytest.raises(TypeError, match="dict of arrays or a list of per-env dicts"):
        convert_to_terminated_truncated_step_api((0, 0, TERMINATED, info), is_vector_env=True)


def test_step_api_compatibility_passes_is_vector_env_on() -> None:
    old = step_api_compatibility(
        (0, 0, TERMINATED, TRUNCATED, [{}, {}, {}, {}]), False, is_vector_env=True
    )
    assert len(old) == 4
    assert [("TimeLimit.truncated" in info) for info in old[3]] == [False, True, True, True]
    new = step_api_compatibility(old, True, True)
    assert new[2].tolist() == TERMINATED.tolist()
    assert new[3].tolist() == [False, False, True, False]


def test_gymnasium_module_path_has_the_same_functions() -> None:
    assert gymnasium_path.convert_to_done_step_api is convert_to_done_step_api
    assert gymnasium_path.step_api_compatibility is step_api_compatibility
    assert (
        gymnasium_path.convert_to_terminated_truncated_step_api
        is convert_to_terminated_truncated_step_api
    )
