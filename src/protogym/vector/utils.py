"""Batching sub-env infos into one dict of arrays with `_key` masks, as Gymnasium does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["add_final", "add_info"]

_SCALARS = (bool, int, float, np.bool_, np.number)


def _new_array(value: object, num_envs: int) -> np.ndarray[Any, Any]:
    """A zeroed array fit to hold `value` for every sub-env."""
    if isinstance(value, _SCALARS):
        return np.zeros(num_envs, dtype=np.asarray(value).dtype)
    if isinstance(value, np.ndarray):
        return np.zeros((num_envs, *value.shape), dtype=value.dtype)
    array = np.empty(num_envs, dtype=object)
    array[:] = None
    return array


def _store(infos: dict[str, Any], key: str, array: np.ndarray[Any, Any], index: int,
           value: object) -> None:
    """Put `value` at `index`, widening the array to `object` if it does not fit."""
    if array.dtype != object:
        fits = (
            isinstance(value, _SCALARS)
            if array.ndim == 1
            else isinstance(value, np.ndarray) and value.shape == array.shape[1:]
        )
        if fits and np.can_cast(np.asarray(value).dtype, array.dtype, "same_kind"):
            array[index] = value
            return
        mask = infos[f"_{key}"]
        widened = np.empty(array.shape[0], dtype=object)
        for row in range(array.shape[0]):
            widened[row] = array[row] if mask[row] else None
        infos[key] = array = widened
    array[index] = value


def add_info(infos: dict[str, Any], info: Mapping[str, Any], index: int, num_envs: int) -> None:
    """Merge sub-env `index`'s `info` into the batched `infos`, in place.

    Scalars become typed arrays, arrays are stacked, anything else goes in an object array;
    `infos["_key"][index]` marks that sub-env `index` reported `key`. Nested dicts batch
    recursively.
    """
    for key, value in info.items():
        batched = infos.get(key)
        if batched is None:
            batched = infos[key] = {} if isinstance(value, Mapping) else _new_array(
                value, num_envs
            )
            infos[f"_{key}"] = np.zeros(num_envs, dtype=np.bool_)
        if isinstance(batched, dict) and isinstance(value, Mapping):
            add_info(batched, value, index, num_envs)
        elif isinstance(batched, dict) or isinstance(value, Mapping):
            # Sub-envs disagree on whether `key` is a dict: keep each one's value whole.
            objects = _as_objects(infos, key, num_envs)
            objects[index] = dict(value) if isinstance(value, Mapping) else value
        else:
            _store(infos, key, batched, index, value)
        infos[f"_{key}"][index] = True


def _as_objects(infos: dict[str, Any], key: str, num_envs: int) -> np.ndarray[Any, Any]:
    """`infos[key]` as an object array of each sub-env's own value (None where absent)."""
    batched = infos[key]
    if isinstance(batched, np.ndarray) and batched.dtype == object:
        return batched
    mask = infos[f"_{key}"]
    objects = np.full(num_envs, None, dtype=object)
    for row in np.flatnonzero(mask).tolist():
        objects[row] = _row(batched, row) if isinstance(batched, dict) else batched[row]
    infos[key] = objects
    return objects


def _row(batched: dict[str, Any], index: int) -> dict[str, Any]:
    """Sub-env `index`'s own nested info, read back from a batched dict."""
    return {
        key: _row(value, index) if isinstance(value, dict) else value[index]
        for key, value in batched.items()
        if not key.startswith("_") and batched[f"_{key}"][index]
    }


def add_final(
    infos: dict[str, Any], index: int, observation: object, info: object, num_envs: int
) -> None:
    """Record sub-env `index`'s ended episode: its last observation and info, masked.

    Both go in object arrays, so ``infos["final_info"][i]`` is sub-env i's own info dict,
    as the Gym 0.26 API documents.
    """
    final_obs = infos.get("final_observation")
    if final_obs is None:
        final_obs = infos["final_observation"] = np.full(num_envs, None, dtype=object)
        infos["_final_observation"] = np.zeros(num_envs, dtype=np.bool_)
        infos["final_info"] = np.full(num_envs, None, dtype=object)
        infos["_final_info"] = np.zeros(num_envs, dtype=np.bool_)
    final_obs[index] = observation
    infos["_final_observation"][index] = True
    infos["final_info"][index] = info
    infos["_final_info"][index] = True
