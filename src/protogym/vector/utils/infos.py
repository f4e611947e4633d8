"""Batching sub-env infos into one dict of arrays with `_key` masks, as Gymnasium does, and
the same-step autoreset's record of the episodes that ended (``final_obs``/``final_info``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from protogym.spaces import Dict, Tuple, concatenate, create_empty_array, iterate
from protogym.spaces.space import Space

__all__ = ["add_finals", "add_info", "info_of", "observation_of", "with_rows"]

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
        objects[row] = info_of(batched, row) if isinstance(batched, dict) else batched[row]
    infos[key] = objects
    return objects


def info_of(batched: dict[str, Any], index: int) -> dict[str, Any]:
    """Sub-env `index`'s own info, read back from a batched info dict (nested ones too)."""
    return {
        key: info_of(value, index) if isinstance(value, dict) else value[index]
        for key, value in batched.items()
        if not key.startswith("_") and batched[f"_{key}"][index]
    }


def add_finals(
    infos: dict[str, Any], finals: Sequence[tuple[int, Any, Any]], num_envs: int
) -> None:
    """Record the episodes that ended in a same-step autoreset, in place, in Gymnasium 1.x's
    layout.

    `finals` holds `(index, last_observation, last_info)` of each sub-env that ended.
    ``infos["final_obs"]`` is an object array of `num_envs` entries holding each ended
    sub-env's last observation (None elsewhere); ``infos["final_info"]`` batches their last
    infos as `infos` batches the step's (arrays with `_key` masks). The masks
    ``_final_obs`` and ``_final_info`` mark the sub-envs that ended.
    """
    final_obs = np.empty(num_envs, dtype=object)
    ended = np.zeros(num_envs, dtype=np.bool_)
    final_info: dict[str, Any] = {}
    for index, observation, info in finals:
        final_obs[index] = observation
        ended[index] = True
        if info:
            add_info(final_info, info, index, num_envs)
    infos["final_obs"] = final_obs
    infos["_final_obs"] = ended
    infos["final_info"] = final_info
    infos["_final_info"] = ended.copy()


def with_rows(
    observations: Any,
    rows: Sequence[tuple[int, Any]],
    observation_space: Space[Any],
    single_observation_space: Space[Any],
    num_envs: int,
) -> Any:
    """A copy of the observation batch with sub-env `index`'s row set to `observation`, for
    each `(index, observation)` in `rows`."""
    if isinstance(observations, np.ndarray) and observations.dtype != object:
        batch = observations.copy()
        for index, observation in rows:
            batch[index] = observation
        return batch
    items = list(iterate(observation_space, observations))
    for index, observation in rows:
        items[index] = observation
    empty = create_empty_array(single_observation_space, num_envs)
    return concatenate(single_observation_space, items, empty)


def observation_of(single_observation_space: Space[Any], batch: Any, index: int) -> Any:
    """Sub-env `index`'s observation in a `batch` of `single_observation_space` elements."""
    if isinstance(single_observation_space, Dict):
        return {
            key: observation_of(space, batch[key], index)
            for key, space in single_observation_space.spaces.items()
        }
    if isinstance(single_observation_space, Tuple):
        return tuple(
            observation_of(space, part, index)
            for space, part in zip(single_observation_space.spaces, batch, strict=True)
        )
    return batch[index]
