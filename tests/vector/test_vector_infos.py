"""Info batching: every sub-env's info can be read back from the batch through the masks."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protogym.spaces import Box, Dict, Discrete, batch_space
from protogym.vector.utils import add_finals, add_info, info_of, observation_of

KEYS = st.sampled_from(["a", "b", "episode", "count"])
SCALARS = st.one_of(
    st.booleans(),
    st.integers(-1000, 1000),
    st.floats(allow_nan=False, width=64),
    st.text(max_size=3),
    st.none(),
)
INFOS = st.dictionaries(KEYS, SCALARS | st.dictionaries(KEYS, SCALARS, max_size=2), max_size=3)


def read_back(infos: dict[str, Any], index: int) -> dict[str, Any]:
    """Sub-env `index`'s info, rebuilt from the batch."""
    out: dict[str, Any] = {}
    for key, value in infos.items():
        if key.startswith("_") or not infos[f"_{key}"][index]:
            continue
        out[key] = read_back(value, index) if isinstance(value, dict) else value[index]
    return out


# The first draws of text and nested dicts can take seconds on a busy machine: that is
# generation time, not what the test is about.
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(INFOS, min_size=1, max_size=5))
def test_every_info_reads_back_through_the_masks(per_env: list[dict[str, Any]]) -> None:
    infos: dict[str, Any] = {}
    for index, info in enumerate(per_env):
        if info:
            add_info(infos, info, index, len(per_env))
    for index, info in enumerate(per_env):
        rebuilt = read_back(infos, index)
        assert rebuilt.keys() == info.keys()
        for key in info:
            expected, got = info[key], rebuilt[key]
            if isinstance(expected, dict):
                assert isinstance(got, dict) and got.keys() == expected.keys()
            elif isinstance(expected, int | float) and not isinstance(expected, bool):
                assert float(got) == float(expected)
            else:
                assert got == expected


def test_scalars_get_typed_arrays_and_arrays_are_stacked() -> None:
    infos: dict[str, Any] = {}
    add_info(infos, {"n": 3, "x": 0.5, "ok": True, "v": np.arange(2)}, 1, 3)
    assert infos["n"].dtype == np.int64 and infos["n"].tolist() == [0, 3, 0]
    assert infos["x"].dtype == np.float64
    assert infos["ok"].dtype == np.bool_
    assert infos["v"].shape == (3, 2) and infos["v"][1].tolist() == [0, 1]
    assert infos["_n"].tolist() == [False, True, False]
    add_info(infos, {"n": "three"}, 2, 3)  # a value that does not fit widens to object
    assert infos["n"].dtype == object
    assert infos["n"].tolist() == [None, 3, "three"]


def test_final_entries_follow_gymnasiums_layout() -> None:
    infos: dict[str, Any] = {}
    last = np.array([5.0, 6.0], dtype=np.float32)
    add_finals(infos, [(1, last, {"count": 4})], 3)
    assert infos["_final_obs"].tolist() == [False, True, False]
    assert infos["final_obs"].dtype == object and infos["final_obs"].shape == (3,)
    assert infos["final_obs"][0] is None and infos["final_obs"][2] is None
    assert infos["final_obs"][1] is last
    assert infos["_final_info"].tolist() == [False, True, False]
    assert infos["_final_info"] is not infos["_final_obs"]  # two masks, free to change apart
    assert infos["final_info"]["count"].tolist() == [0, 4, 0]
    assert infos["final_info"]["_count"].tolist() == [False, True, False]
    assert info_of(infos["final_info"], 1) == {"count": 4}


def test_final_entries_keep_any_observation_whole() -> None:
    infos: dict[str, Any] = {}
    final = {"pos": np.array([0.5, -0.5], dtype=np.float32), "n": np.int64(4)}
    add_finals(infos, [(0, final, {}), (2, (1, "text"), {})], 3)
    assert infos["final_obs"][0] is final
    assert infos["final_obs"][2] == (1, "text")
    assert infos["final_info"] == {}
    assert infos["_final_info"].tolist() == [True, False, True]


def test_observation_of_reads_one_row_of_a_dict_batch() -> None:
    space = Dict({"pos": Box(-1.0, 1.0, (2,)), "n": Discrete(5)})
    batch = {"pos": np.array([[0.5, -0.5], [0.0, 0.0]], dtype=np.float32), "n": np.array([4, 2])}
    assert observation_of(space, batch, 0)["n"] == 4
    assert observation_of(space, batch, 1)["pos"].tolist() == [0.0, 0.0]
    assert batch_space(space, 2).contains(batch)


def test_a_key_that_is_a_dict_in_one_sub_env_and_not_in_another_keeps_both() -> None:
    infos: dict[str, Any] = {}
    add_info(infos, {"stats": {"r": 1.5}}, 0, 2)
    add_info(infos, {"stats": 7}, 1, 2)
    assert infos["stats"].dtype == object
    assert infos["stats"].tolist() == [{"r": 1.5}, 7]
    assert infos["_stats"].tolist() == [True, True]
