"""Stateless observation wrappers: each maps every observation and declares the new space.

`TransformObservation` is the general form (any function, any new space); the rest are
common cases with checked arguments: select keys, flatten, reshape, rescale, change dtype,
convert images to greyscale or resize them, discretise, or add the rendered frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, cast

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray
from typing_extensions import TypeVar

from protogym.core import ActType, Env, ObservationWrapper, ObsType, WrapperObsType
from protogym.wrappers.area_resize import AreaResize
from protogym.wrappers.utils import (
    bins_array,
    require_box,
    rescale_box,
    unflatten_index,
)

if TYPE_CHECKING:
    from protogym.spaces import Box
    from protogym.spaces.space import Space

__all__ = [
    "AddRenderObservation",
    "DiscretizeObservation",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TransformObservation",
]


class TransformObservation(ObservationWrapper[WrapperObsType, ActType, ObsType]):
    """Returns `func(obs)` for every observation; `observation_space` describes the result.

    With `observation_space=None` the inner space is kept (for maps that stay inside it).
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        func: Callable[[ObsType], WrapperObsType],
        observation_space: Space[WrapperObsType] | None,
    ) -> None:
        if not callable(func):
            raise TypeError(f"{type(self).__name__}: func must be callable, got {func!r}")
        super().__init__(env)
        if observation_space is not None:
            self.observation_space = observation_space
        self.func = func

    def observation(self, observation: ObsType) -> WrapperObsType:
        return self.func(observation)


FilteredObsT = TypeVar("FilteredObsT", default=Any)


class FilterObservation(
    TransformObservation[FilteredObsT, ActType, Any], Generic[ActType, FilteredObsT]
):
    """Keeps only `filter_keys` of a `Dict` observation (or those indices of a `Tuple` one).

    `FilteredObsT` is `Any`; the mypy plugin makes it a TypedDict of the kept keys when the
    inner env's observations are a TypedDict and the keys are literal.
    """

    def __init__(self, env: Env[Any, ActType], filter_keys: Sequence[str | int]) -> None:
        from protogym import spaces

        if isinstance(filter_keys, str):
            raise ValueError(
                f"FilterObservation: filter_keys must be a list of keys, got the str "
                f"{filter_keys!r}; write [{filter_keys!r}]"
            )
        if not isinstance(filter_keys, Sequence):
            raise TypeError(
                f"FilterObservation: filter_keys must be a list of keys, got {filter_keys!r}"
            )
        keys = list(filter_keys)
        if not keys:
            raise ValueError("FilterObservation: filter_keys is empty; keep at least one key")
        if len(set(keys)) != len(keys):
            raise ValueError(f"FilterObservation: filter_keys has duplicates: {keys}")
        space = env.observation_space
        func: Callable[[Any], Any]
        new_space: Space[Any]
        if isinstance(space, spaces.Dict):
            if not all(isinstance(key, str) for key in keys):
                raise TypeError(
                    f"FilterObservation: the keys of a Dict observation space are strings, got "
                    f"{keys}"
                )
            missing = [key for key in keys if key not in space.spaces]
            if missing:
                raise ValueError(
                    f"FilterObservation: filter keys {missing or keys} are not keys of the "
                    f"Dict observation space, whose keys are {list(space.spaces)}"
                )
            str_keys = [str(key) for key in keys]
            new_space = spaces.Dict(
                {key: space.spaces[key] for key in str_keys}, sort_keys=space.sort_keys
            )
            order = list(new_space.spaces)

            def func(obs: Any) -> Any:
                return {key: obs[key] for key in order}

        elif isinstance(space, spaces.Tuple):
            size = len(space.spaces)
            if not all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
                raise TypeError(
                    f"FilterObservation: the keys of a Tuple observation space are int indices, "
                    f"got {keys}"
                )
            bad = [k for k in keys if not -size <= int(k) < size]
            if bad:
                raise ValueError(
                    f"FilterObservation: filter keys {bad} are not indices of the Tuple "
                    f"observation space, which has {size} elements"
                )
            indices = [int(key) for key in keys]
            new_space = spaces.Tuple([space.spaces[i] for i in indices])

            def func(obs: Any) -> Any:
                return tuple(obs[i] for i in indices)

        else:
            raise ValueError(
                f"FilterObservation needs a Dict or Tuple observation space, got {space!r}"
            )
        self.filter_keys = keys
        super().__init__(env, func, cast("Space[FilteredObsT]", new_space))


class FlattenObservation(TransformObservation[NDArray[Any], ActType, ObsType]):
    """Flattens every observation into a 1-D array (`spaces.flatten`), space included."""

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        from protogym import spaces

        space = env.observation_space
        func: Callable[[Any], NDArray[Any]]
        if isinstance(space, spaces.Box):
            flat_space: Space[NDArray[Any]] = spaces.Box(
                space.low.flatten(), space.high.flatten(), dtype=space.dtype
            )
            dtype = space.dtype

            def func(obs: Any) -> NDArray[Any]:
                return np.asarray(obs, dtype=dtype).flatten()

        else:
            if not space.is_np_flattenable:
                raise ValueError(
                    f"FlattenObservation: {space!r} cannot be flattened into one array"
                )
            flat_space = spaces.flatten_space(space)
            flatten = spaces.flatten

            def func(obs: Any) -> NDArray[Any]:
                flat: NDArray[Any] = flatten(space, obs)
                return flat

        super().__init__(env, func, flat_space)


_GREY_WEIGHTS = np.array([0.2125, 0.7154, 0.0721])


def _require_image(owner: str, space: Space[Any], ndims: tuple[int, ...]) -> Box:
    box = require_box(owner, "observation", space)
    if len(box.shape) not in ndims:
        raise ValueError(f"{owner} needs an image observation, got shape {box.shape}")
    if not (box.dtype == np.uint8 and np.all(box.low == 0) and np.all(box.high == 255)):
        raise ValueError(
            f"{owner} needs uint8 image observations bounded by 0 and 255, got {box!r}"
        )
    return box


class GrayscaleObservation(TransformObservation[NDArray[np.uint8], ActType, NDArray[np.uint8]]):
    """Converts RGB uint8 images `(H, W, 3)` to luminance `(H, W)` (or `(H, W, 1)`).

    Uses the ITU-R BT.709 weights 0.2125, 0.7154, 0.0721, truncated to uint8 like Gymnasium.
    """

    def __init__(self, env: Env[NDArray[np.uint8], ActType], keep_dim: bool = False) -> None:
        from protogym.spaces import Box

        box = _require_image("GrayscaleObservation", env.observation_space, (3,))
        if box.shape[-1] != 3:
            raise ValueError(
                f"GrayscaleObservation needs RGB images with 3 channels, got shape {box.shape}"
            )
        self.keep_dim = keep_dim
        shape = box.shape[:2] + ((1,) if keep_dim else ())

        def func(obs: NDArray[np.uint8]) -> NDArray[np.uint8]:
            grey: NDArray[np.uint8] = np.sum(np.multiply(obs, _GREY_WEIGHTS), axis=-1).astype(
                np.uint8
            )
            return grey[..., None] if keep_dim else grey

        super().__init__(env, func, Box(0, 255, shape=shape, dtype=np.uint8))


class ResizeObservation(TransformObservation[NDArray[np.uint8], ActType, NDArray[np.uint8]]):
    """Resizes uint8 images to `shape = (height, width)` by area averaging.

    Each output pixel is the mean of the input area it covers (fractional pixels weighted),
    rounded to the nearest integer: OpenCV's `INTER_AREA` when shrinking, done in numpy so no
    OpenCV install is needed.
    """

    def __init__(self, env: Env[NDArray[np.uint8], ActType], shape: tuple[int, int]) -> None:
        from protogym.spaces import Box

        box = _require_image("ResizeObservation", env.observation_space, (2, 3))
        if not isinstance(shape, tuple | list):
            raise TypeError(
                f"ResizeObservation: shape must be a (height, width) tuple, got {shape!r}"
            )
        if len(shape) != 2:
            raise ValueError(
                f"ResizeObservation: shape must be a (height, width) pair, got {shape!r}"
            )
        if not all(isinstance(x, int | np.integer) and not isinstance(x, bool) for x in shape):
            raise TypeError(f"ResizeObservation: shape must hold two ints, got {shape!r}")
        if not all(x > 0 for x in shape):
            raise ValueError(
                f"ResizeObservation: cannot resize to {tuple(shape)}; both sizes must be > 0"
            )
        self.shape = (int(shape[0]), int(shape[1]))
        resize = AreaResize((box.shape[0], box.shape[1]), self.shape)
        new_shape = self.shape + box.shape[2:]
        super().__init__(env, resize, Box(0, 255, shape=new_shape, dtype=np.uint8))


class ReshapeObservation(TransformObservation[NDArray[Any], ActType, NDArray[Any]]):
    """Reshapes `Box` observations to `shape` (one entry may be -1), bounds included."""

    def __init__(self, env: Env[NDArray[Any], ActType], shape: int | tuple[int, ...]) -> None:
        from protogym.spaces import Box

        box = require_box("ReshapeObservation", "observation", env.observation_space)
        dims = (shape,) if isinstance(shape, int | np.integer) else shape
        if not isinstance(dims, tuple | list) or not all(
            isinstance(x, int | np.integer) and not isinstance(x, bool) for x in dims
        ):
            raise TypeError(f"ReshapeObservation: shape must be a tuple of ints, got {shape!r}")
        if not all(x > 0 or x == -1 for x in dims) or list(dims).count(-1) > 1:
            raise ValueError(
                f"ReshapeObservation: shape entries must be positive (or one -1), got {shape!r}"
            )
        try:
            low = np.reshape(box.low, tuple(int(x) for x in dims))
        except ValueError:
            raise ValueError(
                f"ReshapeObservation: cannot reshape observations of shape {box.shape} "
                f"({int(np.prod(box.shape))} values) to {shape!r}"
            ) from None
        high = np.reshape(box.high, low.shape)
        self.shape = tuple(low.shape)
        new_shape = self.shape

        def func(obs: NDArray[Any]) -> NDArray[Any]:
            return np.reshape(obs, new_shape)

        super().__init__(env, func, Box(low, high, shape=new_shape, dtype=box.dtype))


class RescaleObservation(TransformObservation[NDArray[Any], ActType, NDArray[Any]]):
    """Maps `Box` observations affinely onto `[min_obs, max_obs]`.

    Bounds are scalars or arrays of the box's shape; infinite bounds must stay the same
    infinity.
    """

    def __init__(
        self, env: Env[NDArray[Any], ActType], min_obs: ArrayLike, max_obs: ArrayLike
    ) -> None:
        box = require_box("RescaleObservation", "observation", env.observation_space)
        space, forward, _ = rescale_box(box, min_obs, max_obs, owner="RescaleObservation")
        self.min_obs = min_obs
        self.max_obs = max_obs
        super().__init__(env, forward, space)


class DtypeObservation(TransformObservation[Any, ActType, Any]):
    """Casts observations of a `Box`, `Discrete`, `MultiDiscrete` or `MultiBinary` to `dtype`."""

    def __init__(self, env: Env[Any, ActType], dtype: DTypeLike) -> None:
        from protogym import spaces

        space = env.observation_space
        try:
            target = np.dtype(dtype)
        except TypeError:
            raise TypeError(f"DtypeObservation: {dtype!r} is not a numpy dtype") from None
        new_space: Space[Any]
        if isinstance(space, spaces.Box):
            new_space = spaces.Box(space.low, space.high, shape=space.shape, dtype=target)
        elif isinstance(space, spaces.Discrete):
            first = int(space.start)
            new_space = spaces.Box(first, first + int(space.n) - 1, shape=(), dtype=target)
        elif isinstance(space, spaces.MultiDiscrete):
            new_space = spaces.MultiDiscrete(space.nvec, dtype=target, start=space.start)
        elif isinstance(space, spaces.MultiBinary):
            new_space = spaces.Box(0, 1, shape=space.shape, dtype=target)
        else:
            raise TypeError(
                "DtypeObservation needs a Box, Discrete, MultiDiscrete or MultiBinary "
                f"observation space, got {space!r}"
            )
        self.dtype = target
        convert = target.type
        super().__init__(env, convert, new_space)


class DiscretizeObservation(TransformObservation[Any, ActType, NDArray[Any]]):
    """Maps a bounded `Box` observation to bin indices: `bins` equal bins per dimension.

    Returns one flat index into `Discrete(prod(bins))`, or with `multidiscrete=True` one
    index per dimension into `MultiDiscrete(bins)`.
    """

    def __init__(
        self,
        env: Env[NDArray[Any], ActType],
        bins: int | tuple[int, ...],
        multidiscrete: bool = False,
    ) -> None:
        from protogym import spaces

        box = require_box("DiscretizeObservation", "observation", env.observation_space)
        self.low = np.ravel(box.low)
        self.high = np.ravel(box.high)
        self.n_dims = int(self.low.size)
        if not (np.all(np.isfinite(self.low)) and np.all(np.isfinite(self.high))):
            raise ValueError(
                f"DiscretizeObservation needs a bounded observation space, got low={self.low}, "
                f"high={self.high}"
            )
        self.bins = bins_array("DiscretizeObservation", bins, self.n_dims)
        self.multidiscrete = multidiscrete
        self._inner_dtype = box.dtype
        self.bin_edges = [
            np.linspace(self.low[i], self.high[i], self.bins[i] + 1)[1:-1]
            for i in range(self.n_dims)
        ]
        space: Space[Any] = (
            spaces.MultiDiscrete(self.bins)
            if multidiscrete
            else spaces.Discrete(int(np.prod(self.bins)))
        )
        super().__init__(env, self._discretize, space)

    def _discretize(self, observation: NDArray[Any]) -> Any:
        clipped = np.clip(np.ravel(observation), self.low, self.high - 1e-8)
        indices = [
            int(np.digitize(clipped[i], self.bin_edges[i])) for i in range(self.n_dims)
        ]
        if self.multidiscrete:
            return np.array(indices, dtype=np.int64)
        flat = 0
        for i, index in enumerate(indices):
            flat = flat * int(self.bins[i]) + index
        return flat

    def revert_observation(self, observation: Any) -> tuple[NDArray[Any], NDArray[Any]]:
        """The lower and upper corners of the bin that `observation` indexes."""
        if self.multidiscrete:
            indices = [int(i) for i in np.asarray(observation, dtype=np.int64)]
        else:
            indices = unflatten_index(int(observation), self.bins)
        lows, highs = [], []
        for i, index in enumerate(indices):
            edges = np.linspace(self.low[i], self.high[i], self.bins[i] + 1)
            lows.append(edges[index])
            highs.append(edges[index + 1])
        return np.array(lows, dtype=self._inner_dtype), np.array(highs, dtype=self._inner_dtype)


class AddRenderObservation(TransformObservation[Any, ActType, ObsType]):
    """Puts the rendered frame in the observation: alone, or beside the original one.

    With `render_only=True` the observation is the frame. Otherwise it is a dict: a `Dict`
    observation gains `render_key`, any other becomes `{obs_key: obs, render_key: frame}`.
    The env is reset once here to learn the frame's shape.
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        render_only: bool = True,
        render_key: str = "pixels",
        obs_key: str = "state",
    ) -> None:
        from protogym import spaces

        if env.render_mode is None or env.render_mode == "human":
            raise ValueError(
                "AddRenderObservation needs an env that renders frames (render_mode such as "
                f"'rgb_array'), got render_mode={env.render_mode!r}"
            )
        env.reset()
        pixels = env.render()
        if not isinstance(pixels, np.ndarray):
            raise TypeError(
                "AddRenderObservation: the env's render() must return a numpy array, got "
                f"{type(pixels).__name__}"
            )
        pixel_space = spaces.Box(0, 255, shape=pixels.shape, dtype=np.uint8)
        self.render_only = render_only
        self.render_key = render_key
        self.obs_key = obs_key
        space = env.observation_space
        func: Callable[[Any], Any]
        new_space: Space[Any]
        if render_only:
            new_space = pixel_space

            def func(obs: Any) -> Any:
                return self.env.render()

        elif isinstance(space, spaces.Dict):
            if render_key in space.spaces:
                raise ValueError(
                    f"AddRenderObservation: render_key {render_key!r} is already a key of the "
                    "observation space; choose another render_key"
                )
            new_space = spaces.Dict(
                {render_key: pixel_space, **space.spaces}, sort_keys=space.sort_keys
            )

            def func(obs: Any) -> Any:
                return {render_key: self.env.render(), **obs}

        else:
            if render_key == obs_key:
                raise ValueError(
                    f"AddRenderObservation: render_key and obs_key are both {render_key!r}"
                )
            new_space = spaces.Dict({obs_key: space, render_key: pixel_space})

            def func(obs: Any) -> Any:
                return {obs_key: obs, render_key: self.env.render()}

        super().__init__(env, func, new_space)
