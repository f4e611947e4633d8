"""Info batching: every sub-env's info can be read back from the batch through the masks."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from protogym.vector.utils import add_final, add_info

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


def test_final_entries_are_per_sub_env_objects() -> None:
    infos: dict[str, Any] = {}
    add_final(infos, 1, np.zeros(2), {"count": 4}, 3)
    assert infos["_final_observation"].tolist() == [False, True, False]
    assert infos["final_info"][1] == {"count": 4}
    assert infos["final_observation"][0] is None


def test_a_key_that_is_a_dict_in_one_sub_env_and_not_in_another_keeps_both() -> None:
    infos: dict[str, Any] = {}
    add_info(infos, {"stats": {"r": 1.5}}, 0, 2)
    add_info(infos, {"stats": 7}, 1, 2)
    assert infos["stats"].dtype == object
    assert infos["stats"].tolist() == [{"r": 1.5}, 7]
    assert infos["_stats"].tolist() == [True, True]
