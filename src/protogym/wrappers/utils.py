"""Helpers the wrappers share: running statistics, zero observations, argument checks, rescaling.

`RunningMeanStd` follows Gymnasium's parallel-variance update operation for operation, so
normalising wrappers give the same numbers; its single-sample `update_one` skips the batch
mean and variance (which for one sample are the sample itself and zero) without changing
a single rounding.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

if TYPE_CHECKING:
    from protogym.spaces import Box
    from protogym.spaces.space import Space

__all__ = [
    "RunningMeanStd",
    "ScalarRunningMeanStd",
    "bins_array",
    "check_positive_int",
    "create_zero_array",
    "rescale_box",
    "require_box",
    "unflatten_index",
    "update_mean_var_count_from_moments",
]


class RunningMeanStd:
    """Mean and variance of everything passed to `update`, with a small prior count."""

    def __init__(
        self, epsilon: float = 1e-4, shape: tuple[int, ...] = (), dtype: DTypeLike = np.float64
    ) -> None:
        self.mean: NDArray[Any] = np.zeros(shape, dtype=dtype)
        self.var: NDArray[Any] = np.ones(shape, dtype=dtype)
        self.count: float = epsilon

    def update(self, batch: NDArray[Any]) -> None:
        """Fold in a batch whose first axis indexes samples."""
        self.mean, self.var, self.count = update_mean_var_count_from_moments(
            self.mean, self.var, self.count, np.mean(batch, axis=0), np.var(batch, axis=0),
            batch.shape[0],
        )

    def update_one(self, sample: ArrayLike) -> None:
        """Fold in one sample; the same result as `update` on a batch of one."""
        x = np.asarray(sample)
        if x.dtype.kind in "biu":
            x = x.astype(np.float64)  # np.mean of integers is float64
        count = self.count
        delta = x - self.mean
        total = count + 1
        self.mean = self.mean + delta / total
        self.var = (self.var * count + np.square(delta) * count / total) / total
        self.count = total

    def update_from_moments(
        self, batch_mean: NDArray[Any], batch_var: NDArray[Any], batch_count: int
    ) -> None:
        """Fold in a batch given by its mean, variance and size."""
        self.mean, self.var, self.count = update_mean_var_count_from_moments(
            self.mean, self.var, self.count, batch_mean, batch_var, batch_count
        )


def update_mean_var_count_from_moments(
    mean: Any, var: Any, count: float, batch_mean: Any, batch_var: Any, batch_count: float
) -> tuple[Any, Any, float]:
    """The mean, variance and count of two sample sets merged, each given by its moments
    (Chan et al.'s parallel update, operation for operation as Gymnasium's)."""
    delta = batch_mean - mean
    total = count + batch_count
    new_mean = mean + delta * batch_count / total
    m2 = var * count + batch_var * batch_count + np.square(delta) * count * batch_count / total
    return new_mean, m2 / total, total


class ScalarRunningMeanStd:
    """`RunningMeanStd` of a scalar stream in plain floats: same values, no array overhead."""

    def __init__(self, epsilon: float = 1e-4) -> None:
        self.mean = 0.0
        self.var = 1.0
        self.count = epsilon

    def update_one(self, x: float) -> None:
        count = self.count
        delta = x - self.mean
        total = count + 1
        self.mean = self.mean + delta / total
        self.var = (self.var * count + delta * delta * count / total) / total
        self.count = total


@functools.singledispatch
def create_zero_array(space: Any) -> Any:
    """The element of `space` closest to zero (per coordinate), used for padding.

    Other space classes join with ``create_zero_array.register(MySpace)``; an unregistered
    Space raises `error.CustomSpaceError`, anything else `TypeError`.
    """
    from protogym.error import CustomSpaceError
    from protogym.spaces.space import Space

    if _register_zero_arrays():  # protogym's spaces join on first use: dispatch again
        return create_zero_array(space)
    if isinstance(space, Space):
        raise CustomSpaceError(
            f"create_zero_array has no rule for {type(space).__name__} spaces; register one "
            f"with @create_zero_array.register({type(space).__name__}), or pass an explicit "
            "padding value"
        )
    raise TypeError(f"create_zero_array takes a space, got {type(space).__name__}: {space!r}")


_zero_rules_registered = False


def _register_zero_arrays() -> bool:
    """Register the rules for protogym's own spaces; True if this call did (the first).

    Done on first use rather than at import, so importing the wrappers imports no spaces.
    """
    global _zero_rules_registered
    if _zero_rules_registered:
        return False
    _zero_rules_registered = True
    from protogym import spaces
    from protogym.spaces.vector_utils import batch_space

    @create_zero_array.register(spaces.Box)
    def _box(space: spaces.Box) -> NDArray[Any]:
        zero = np.zeros(space.shape, dtype=space.dtype)
        zero = np.where(space.low > 0, space.low, zero)
        return np.where(space.high < 0, space.high, zero).astype(space.dtype)

    @create_zero_array.register(spaces.Discrete)
    def _discrete(space: spaces.Discrete) -> Any:
        return space.start

    @create_zero_array.register(spaces.MultiDiscrete)
    def _multi_discrete(space: spaces.MultiDiscrete) -> NDArray[Any]:
        return np.array(space.start, copy=True, dtype=space.dtype)

    @create_zero_array.register(spaces.MultiBinary)
    def _multi_binary(space: spaces.MultiBinary) -> NDArray[Any]:
        return np.zeros(space.shape, dtype=space.dtype)

    @create_zero_array.register(spaces.Tuple)
    def _tuple(space: spaces.Tuple) -> tuple[Any, ...]:
        return tuple(create_zero_array(sub) for sub in space.spaces)

    @create_zero_array.register(spaces.Dict)
    def _dict(space: spaces.Dict) -> dict[str, Any]:
        return {key: create_zero_array(sub) for key, sub in space.spaces.items()}

    @create_zero_array.register(spaces.Text)
    def _text(space: spaces.Text) -> str:
        return "".join(space.characters[0] for _ in range(space.min_length))

    @create_zero_array.register(spaces.Sequence)
    def _sequence(space: spaces.Sequence) -> Any:
        # stacked: an empty batch would not be the closest-to-zero element, one element is
        return create_zero_array(space.stacked_feature_space) if space.stack else ()

    @create_zero_array.register(spaces.Graph)
    def _graph(space: spaces.Graph) -> spaces.GraphInstance:
        nodes = create_zero_array(batch_space(space.node_space, 1))
        if space.edge_space is None:
            return spaces.GraphInstance(nodes=nodes, edges=None, edge_links=None)
        edges = create_zero_array(batch_space(space.edge_space, 1))
        return spaces.GraphInstance(nodes, edges, np.zeros((1, 2), dtype=np.int64))

    @create_zero_array.register(spaces.OneOf)
    def _one_of(space: spaces.OneOf) -> tuple[int, Any]:
        return 0, create_zero_array(space.spaces[0])

    return True


def check_positive_int(owner: str, name: str, value: object, minimum: int = 1) -> int:
    """`value` as an int: a `TypeError` naming the wrapper and the argument for anything but a
    Python or numpy integer, a `ValueError` naming the bound for one below `minimum`."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{owner}: {name} must be an int, got {value!r} ({type(value).__name__})")
    if value < minimum:
        raise ValueError(f"{owner}: {name} must be at least {minimum}, got {value}")
    return int(value)


def bins_array(owner: str, bins: int | tuple[int, ...], n_dims: int) -> NDArray[np.int64]:
    """Per-dimension bin counts from an int (same for all) or a tuple of `n_dims` ints."""
    if isinstance(bins, int | np.integer) and not isinstance(bins, bool):
        return np.full(n_dims, check_positive_int(owner, "bins", bins), dtype=np.int64)
    if not isinstance(bins, tuple | list):
        raise TypeError(
            f"{owner}: bins must be an int or a tuple of {n_dims} ints (one per dimension), "
            f"got {bins!r}"
        )
    if len(bins) != n_dims:
        raise ValueError(
            f"{owner}: bins has {len(bins)} entries; give one per dimension ({n_dims}) or one "
            f"int for all, got {bins!r}"
        )
    return np.array([check_positive_int(owner, "each bin count", b) for b in bins], np.int64)


def unflatten_index(index: int, bins: NDArray[np.int64]) -> list[int]:
    """Row-major digits of `index` in the mixed radix `bins` (the inverse of a flat index)."""
    digits: list[int] = []
    for base in reversed(bins.tolist()):
        digits.append(index % base)
        index //= base
    digits.reverse()
    return digits


def require_box(owner: str, what: str, space: Space[Any]) -> Box:
    """`space` if it is a `Box`, else a `TypeError` saying the wrapper needs one."""
    from protogym.spaces import Box

    if not isinstance(space, Box):
        raise TypeError(
            f"{owner} needs a Box {what} space, got {space!r}; it only works on continuous "
            "array spaces"
        )
    return space


def _bound_array(name: str, value: ArrayLike, shape: tuple[int, ...]) -> NDArray[Any]:
    arr = np.asarray(value)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a number or a numeric array, got {value!r}")
    if arr.ndim == 0:
        return np.full(shape, arr)
    if arr.shape != shape:
        raise ValueError(f"{name} must be a scalar or have shape {shape}, got shape {arr.shape}")
    return arr


def rescale_box(
    box: Box, new_min: ArrayLike, new_max: ArrayLike, owner: str = "rescale_box"
) -> tuple[Box, Callable[[NDArray[Any]], NDArray[Any]], Callable[[NDArray[Any]], NDArray[Any]]]:
    """The box with bounds `[new_min, new_max]` and the affine maps into it and back.

    Unbounded coordinates must stay unbounded on the same side. The slope is computed in
    extended precision (as Gymnasium does) so that the bounds map onto each other exactly.
    """
    from protogym.spaces import Box

    low = _bound_array(f"{owner}: the new minimum", new_min, box.shape)
    high = _bound_array(f"{owner}: the new maximum", new_max, box.shape)
    if not np.all((low == box.low)[np.isinf(low) | np.isinf(box.low)]):
        raise ValueError(
            f"{owner}: an infinite lower bound must stay the same infinity, got new minimum "
            f"{low} for low {box.low}"
        )
    if not np.all((high == box.high)[np.isinf(high) | np.isinf(box.high)]):
        raise ValueError(
            f"{owner}: an infinite upper bound must stay the same infinity, got new maximum "
            f"{high} for high {box.high}"
        )
    if not np.all(low <= high):
        raise ValueError(f"{owner}: the new minimum {low} must be <= the new maximum {high}")
    min_finite = np.isfinite(low)
    max_finite = np.isfinite(high)
    both = min_finite & max_finite
    span = np.array(box.high[both], dtype=np.longdouble) - np.array(
        box.low[both], dtype=np.longdouble
    )
    gradient = np.ones_like(low, dtype=box.dtype)
    gradient[both] = (high[both] - low[both]) / span
    intercept = np.zeros_like(low, dtype=box.dtype)
    intercept[max_finite] = high[max_finite] - box.high[max_finite]
    intercept[min_finite] = gradient[min_finite] * -box.low[min_finite] + low[min_finite]
    new_box = Box(low=low, high=high, shape=box.shape, dtype=box.dtype)

    def forward(x: NDArray[Any]) -> NDArray[Any]:
        result: NDArray[Any] = gradient * x + intercept
        return result

    def backward(x: NDArray[Any]) -> NDArray[Any]:
        result: NDArray[Any] = (x - intercept) / gradient
        return result

    return new_box, forward, backward
