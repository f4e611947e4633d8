"""`Box`: the product of closed intervals ``[low[i], high[i]]`` in one numpy dtype.

Sampling follows Gymnasium's algorithm draw for draw (uniform on bounded coordinates,
shifted exponentials on half-bounded ones, normal on unbounded ones, ``floor`` for integer
dtypes), so the same seed gives the same samples. Everything that does not depend on the
draw (the partition into interval kinds, float64 scales and offsets, whether a final clip can
ever matter) is computed once in ``__init__``; the common all-bounded box samples with one
generator call, one fused multiply-add and one cast.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from protogym.spaces.base import InvalidSampleArgument, SeedLike, SpaceBase, legacy_state

__all__ = ["Box", "array_short_repr", "is_float_integer"]

# The largest double `Generator.random` returns: (2**53 - 1) / 2**53.
_U_MAX = 1.0 - 2.0**-53


def _check_dtype(dtype: object) -> np.dtype[Any]:
    """The dtype, or an error: TypeError if numpy cannot read it as a dtype, ValueError if it
    is one but not a number or bool dtype (the classes Gymnasium raises)."""
    advice = "give a numpy integer, floating or bool dtype, e.g. np.float32, np.int64 or np.uint8"
    if dtype is None:
        raise ValueError(f"Box dtype must not be None; {advice}")
    try:
        dt: np.dtype[Any] = np.dtype(dtype)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"Box dtype {dtype!r} is not a numpy dtype; {advice}") from None
    if dt.kind not in "iufb":
        raise ValueError(f"Box dtype {dt} cannot hold a box's values; {advice}")
    return dt


def _check_shape(shape: object) -> tuple[int, ...]:
    if not isinstance(shape, Iterable) or isinstance(shape, str):
        raise TypeError(f"Box shape must be a tuple of ints, got {shape!r}")
    dims = tuple(shape)
    if not all(isinstance(dim, int | np.integer) and not isinstance(dim, bool) for dim in dims):
        raise TypeError(f"Box shape must be a tuple of ints, got {shape!r}")
    if any(dim < 0 for dim in dims):
        raise ValueError(f"Box shape must not have negative sizes, got {shape!r}")
    return tuple(int(dim) for dim in dims)


def _as_bound(name: str, value: object) -> NDArray[Any]:
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError):
        arr = np.asarray(None)
    if arr.dtype.kind not in "iufb":
        raise ValueError(f"Box {name} must be a real number or an array of them, got {value!r}")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"Box {name} must not contain NaN, got {name}={value!r}")
    return arr


def _dtype_range(dt: np.dtype[Any]) -> tuple[int | float, int | float]:
    if dt.kind == "b":
        return 0, 1
    if dt.kind == "f":
        finfo = np.finfo(dt)
        return float(finfo.min), float(finfo.max)
    iinfo = np.iinfo(dt)
    return int(iinfo.min), int(iinfo.max)


def _cast_bound(
    name: str, src: NDArray[Any], shape: tuple[int, ...], dt: np.dtype[Any]
) -> NDArray[Any]:
    """Broadcast a bound to `shape` and cast it to `dt`, checking range and infinities."""
    lo, hi = _dtype_range(dt)
    bad_inf = np.isposinf(src) if name == "low" else np.isneginf(src)
    if bad_inf.any():
        sign = "+" if name == "low" else "-"
        raise ValueError(f"Box {name} cannot be {sign}inf, got {name}={src!r}")
    inf = np.isinf(src)
    if inf.any() and dt.kind in "ub":
        raise ValueError(
            f"Box {name} cannot be infinite for the {dt} dtype (it has no infinity), got "
            f"{name}={src!r}; give finite bounds"
        )
    finite = src[~inf]
    # As Python scalars: numpy would cast `lo`/`hi` to the bound's own dtype (with an overflow
    # warning for float64's range against a float32 bound).
    if finite.size and (finite.min().item() < lo or finite.max().item() > hi):
        raise ValueError(
            f"Box {name} is outside the range of {dt} [{lo}, {hi}], got {name}={src!r}"
        )
    full = np.broadcast_to(src, shape)
    if dt.kind in "iu" and inf.any():
        # Infinite integer bounds mean "the dtype's limit"; cast finite values first so that
        # float64(int64 max) never overflows the cast.
        inf_full = np.broadcast_to(inf, shape)
        out = np.where(inf_full, 0, full).astype(dt)
        out[inf_full] = lo if name == "low" else hi
        return out
    return full.astype(dt)


# Validated, precomputed state of recently built boxes, by constructor arguments. Everything
# in it is immutable (read-only arrays, scalars), so boxes built from the same arguments, as
# `make` and vector envs do over and over, share it and differ only in their generator.
_PLANS: dict[tuple[Any, ...], dict[str, Any]] = {}
_PLANS_KEPT = 512
_KEYED_ARRAY_SIZE = 1024


def _arg_key(value: object) -> object:
    """A hashable stand-in for a bound, or None when the value is not worth keying."""
    kind = type(value)
    if kind is float or kind is int:
        return (kind, value)
    if isinstance(value, np.ndarray):
        dt = value.dtype
        if value.size > _KEYED_ARRAY_SIZE or dt.kind not in "biuf":
            return None
        # The dtype itself, not its `str`: equal dtypes read the same bytes as the same
        # values, and it hashes several times quicker.
        return (dt, value.shape, value.tobytes())
    if isinstance(value, bool | int | float | np.bool_ | np.integer | np.floating):
        return (type(value), value)
    return None


def _plan_key(
    cls: type, low: object, high: object, shape: object, dtype: object
) -> tuple[Any, ...] | None:
    """The `_PLANS` key of these constructor arguments, or None if they have none. The key
    may still be unhashable (an odd `dtype` argument): looking it up says so."""
    low_key = _arg_key(low)
    if low_key is None:
        return None
    high_key = _arg_key(high)
    if high_key is None:
        return None
    if shape is not None:
        if not isinstance(shape, tuple | list):
            return None
        shape = tuple(shape)
    return (cls, low_key, high_key, shape, dtype)


def _remember(key: tuple[Any, ...], plan: dict[str, Any]) -> None:
    if len(_PLANS) >= _PLANS_KEPT:
        del _PLANS[next(iter(_PLANS))]
    _PLANS[key] = plan


def array_short_repr(arr: NDArray[Any]) -> str:
    """The array as `Box`'s repr shows a bound: its one value if all entries are equal."""
    if arr.size and arr.min() == arr.max():
        return str(arr.flat[0])
    return str(arr)


def is_float_integer(value: object) -> bool:
    """Whether `value` is a single real number (a Python or numpy int or float, not a bool)."""
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


class Box(SpaceBase[NDArray[Any]]):
    """Arrays of one shape and dtype with every coordinate in ``[low[i], high[i]]``.

    ``low``/``high`` may be scalars or arrays that broadcast to ``shape`` (scalars alone give
    shape ``(1,)``); ``-inf``/``inf`` leave a side unbounded (for integer dtypes they mean the
    dtype's limit). ``low`` and ``high`` are stored read-only, because sampling and membership
    rely on values precomputed from them.
    """

    low: NDArray[Any]
    high: NDArray[Any]
    bounded_below: NDArray[np.bool_]
    bounded_above: NDArray[np.bool_]

    def __init__(
        self,
        low: ArrayLike,
        high: ArrayLike,
        shape: Sequence[int] | None = None,
        dtype: DTypeLike = np.float32,
        seed: SeedLike = None,
    ) -> None:
        key = _plan_key(type(self), low, high, shape, dtype)
        plan = None
        if key is not None:
            try:
                plan = _PLANS.get(key)
            except TypeError:  # an unhashable argument (an odd dtype): never cached
                key = None
        if plan is not None:
            self.__dict__.update(plan)
            SpaceBase.__init__(self, plan["_shape"], plan["_dtype"], seed)
            return
        dt = _check_dtype(dtype)
        low_in = _as_bound("low", low)
        high_in = _as_bound("high", high)
        if shape is not None:
            shp = _check_shape(shape)
        elif low_in.ndim == 0 and high_in.ndim == 0:
            shp = (1,)
        else:
            try:
                shp = np.broadcast_shapes(low_in.shape, high_in.shape)
            except ValueError:
                raise ValueError(
                    f"Box low and high shapes do not broadcast together, got "
                    f"low.shape={low_in.shape} and high.shape={high_in.shape}"
                ) from None
        for name, arr in (("low", low_in), ("high", high_in)):
            try:
                np.broadcast_to(arr, shp)
            except ValueError:
                raise ValueError(
                    f"Box {name} of shape {arr.shape} does not broadcast to shape={shp}"
                ) from None
        low_arr = _cast_bound("low", low_in, shp, dt)
        high_arr = _cast_bound("high", high_in, shp, dt)
        if (low_arr > high_arr).any():
            raise ValueError(
                f"Box low must be <= high everywhere, got low={low_arr!r} and high={high_arr!r}"
            )
        below = np.broadcast_to(low_in > -np.inf, shp).copy()
        above = np.broadcast_to(high_in < np.inf, shp).copy()
        super().__init__(shp, dt, seed)
        self._setup(low_arr, high_arr, below, above)
        if key is not None:
            _remember(key, {k: v for k, v in self.__dict__.items() if k != "_np_random"})

    @classmethod
    def _assemble(
        cls,
        low: NDArray[Any],
        high: NDArray[Any],
        below: NDArray[np.bool_],
        above: NDArray[np.bool_],
        seed: SeedLike = None,
    ) -> Box:
        """Build a box from already-checked parts, keeping which sides are unbounded.

        Batching and flattening use it: rebuilding from `low`/`high` alone would turn an
        integer box's unbounded sides (stored as the dtype limits) into bounded ones.
        """
        box = cls.__new__(cls)
        SpaceBase.__init__(box, low.shape, low.dtype, seed)
        box._setup(low.copy(), high.copy(), below.copy(), above.copy())
        return box

    def _setup(
        self,
        low: NDArray[Any],
        high: NDArray[Any],
        below: NDArray[np.bool_],
        above: NDArray[np.bool_],
    ) -> None:
        """Freeze the bounds and precompute everything `sample` and `contains` need."""
        for arr in (low, high, below, above):
            arr.flags.writeable = False
        self.low, self.high = low, high
        # Gymnasium's cached reprs, filled in by the first `repr`.
        self.low_repr: str | None = None
        self.high_repr: str | None = None
        self.bounded_below, self.bounded_above = below, above
        dt = self.dtype
        self._is_float = dt.kind == "f"

        # Membership: uniform bounds compare against scalars via min/max reductions.
        uniform = low.size > 0 and low.min() == low.max() and high.min() == high.max()
        self._low_scalar: Any = low.flat[0] if uniform else None
        self._high_scalar: Any = high.flat[0] if uniform else None

        # Sampling, in float64 as Gymnasium does: integer boxes draw from [low, high + 1).
        low64 = low.astype(np.float64)
        high64 = high.astype(np.float64) if self._is_float else high.astype(np.float64) + 1.0
        bounded = below & above
        with np.errstate(over="ignore"):
            scale = high64 - low64
        # Float64 boxes near the dtype limits overflow `high - low`: sample halves instead.
        self._halved = not bool(np.isfinite(scale[bounded]).all())
        if self._halved:
            scale = high64 / 2 - low64 / 2
            offset = low64 / 2
        else:
            offset = low64
        self._needs_clip = self._halved or not self._within_bounds_at_max(scale, offset)

        self._all_bounded = bool(bounded.all())
        if self._all_bounded:
            uniform_scale = scale.size > 0 and scale.min() == scale.max()
            uniform_offset = offset.size > 0 and offset.min() == offset.max()
            self._scale: Any = float(scale.flat[0]) if uniform_scale else scale
            self._offset: Any = float(offset.flat[0]) if uniform_offset else offset
        else:
            flat = [np.flatnonzero(m) for m in (~below & ~above, below & ~above, ~below & above)]
            self._idx_normal, self._idx_expo_low, self._idx_expo_high = flat
            self._idx_uniform = np.flatnonzero(bounded)
            self._expo_low_offset = low64.ravel()[self._idx_expo_low]
            self._expo_high_offset = high64.ravel()[self._idx_expo_high]
            self._uniform_scale = scale.ravel()[self._idx_uniform]
            self._uniform_offset = offset.ravel()[self._idx_uniform]
            self._needs_clip = True

    def _within_bounds_at_max(
        self, scale: NDArray[np.float64], offset: NDArray[np.float64]
    ) -> bool:
        """Whether the largest possible draw, after rounding and the cast, stays <= high.

        Every step from the uniform double to the stored value is monotone, so checking the
        largest double `Generator.random` can return proves the bound for all draws.
        """
        if self.low.size == 0:
            return True
        with np.errstate(over="ignore", invalid="ignore"):
            top = _U_MAX * scale + offset
            if self._halved:
                top = top * 2
            if not self._is_float:
                top = np.floor(top)
                lo, hi = _dtype_range(self.dtype)
                margin = 2 if self.dtype == np.int64 else 0
                if self.low.min() < lo + margin or self.high.max() > hi - margin:
                    return False
                return bool((top <= self.high.astype(np.float64)).all())
            return bool((top.astype(self.dtype) <= self.high).all())

    def __getstate__(self) -> dict[str, Any]:
        return {
            "low": self.low,
            "high": self.high,
            "bounded_below": self.bounded_below,
            "bounded_above": self.bounded_above,
            "_shape": self._shape,
            "_dtype": self._dtype,
            "_np_random": self._np_random,
        }

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        """Load our pickles, and Gym's and Gymnasium's (their `__dict__`, under either
        library's attribute names)."""
        found = legacy_state(state)
        low = np.array(found["low"])
        SpaceBase.__init__(self, tuple(found.get("_shape", low.shape)), np.dtype(found["_dtype"]))
        self._np_random = found.get("_np_random")
        self._setup(
            low,
            np.array(found["high"]),
            np.array(found["bounded_below"]),
            np.array(found["bounded_above"]),
        )
        self.low_repr = array_short_repr(self.low)
        self.high_repr = array_short_repr(self.high)

    @property
    def shape(self) -> tuple[int, ...]:
        assert self._shape is not None
        return self._shape

    @property
    def dtype(self) -> np.dtype[Any]:
        assert self._dtype is not None
        return self._dtype

    @property
    def is_np_flattenable(self) -> bool:
        return True

    def is_bounded(self, manner: Literal["both", "below", "above"] = "both") -> bool:
        """Whether every coordinate is bounded below, above, or on both sides."""
        if manner == "both":
            return bool(self.bounded_below.all() and self.bounded_above.all())
        if manner == "below":
            return bool(self.bounded_below.all())
        if manner == "above":
            return bool(self.bounded_above.all())
        raise ValueError(f"manner must be 'both', 'below' or 'above', got {manner!r}")

    def sample(self, mask: None = None, probability: None = None) -> NDArray[Any]:
        """A random element: uniform where bounded, exponential/normal where not."""
        if mask is not None or probability is not None:
            raise InvalidSampleArgument(
                "Box.sample takes no mask or probability (a Box has no finite set of "
                f"values to weight), got mask={mask!r}, probability={probability!r}"
            )
        rng = self._np_random
        if rng is None:
            rng = self.np_random
        if self._all_bounded:
            return self._sample_bounded(rng)
        return self._sample_mixed(rng)

    def _sample_bounded(self, rng: np.random.Generator) -> NDArray[Any]:
        draw = rng.random(self._shape)
        draw *= self._scale
        draw += self._offset
        if self._halved:
            draw *= 2
        return self._finish(draw)

    def _sample_mixed(self, rng: np.random.Generator) -> NDArray[Any]:
        draw = np.empty(self.low.size)
        # Same draw order as Gymnasium: normal, exponential (below), exponential (above), uniform.
        draw[self._idx_normal] = rng.normal(size=self._idx_normal.size)
        draw[self._idx_expo_low] = rng.exponential(size=self._idx_expo_low.size)
        draw[self._idx_expo_low] += self._expo_low_offset
        draw[self._idx_expo_high] = self._expo_high_offset - rng.exponential(
            size=self._idx_expo_high.size
        )
        if self._idx_uniform.size:
            part = rng.random(self._idx_uniform.size)
            part *= self._uniform_scale
            part += self._uniform_offset
            if self._halved:
                part *= 2
            draw[self._idx_uniform] = part
        return self._finish(draw.reshape(self._shape))

    def _finish(self, draw: NDArray[np.float64]) -> NDArray[Any]:
        """Floor integer draws, cast to the dtype, and clip only when rounding could escape."""
        if self._is_float:
            out = draw.astype(self._dtype, copy=False)
            if self._needs_clip:
                np.clip(out, self.low, self.high, out=out)
            return out
        np.floor(draw, out=draw)
        if self._needs_clip:
            lo, hi = _dtype_range(self.dtype)
            margin = 2 if self.dtype == np.int64 else 0
            np.clip(draw, lo + margin, hi - margin, out=draw)
            clipped: NDArray[Any] = np.clip(draw.astype(self._dtype), self.low, self.high)
            return clipped
        return draw.astype(self._dtype)

    def contains(self, x: Any) -> bool:
        """Whether `x` has this shape, a dtype that casts safely, and lies within the bounds.

        Non-array input (lists, scalars) is converted and must survive the cast unchanged.
        Never raises: anything that is not an element gives False.
        """
        if isinstance(x, np.ndarray):
            if x.shape != self._shape or not np.can_cast(x.dtype, self._dtype):  # type: ignore[arg-type]
                return False
        else:
            try:
                raw = np.asarray(x)
                if raw.dtype.kind not in "biuf" or raw.shape != self._shape:
                    return False
                with np.errstate(invalid="ignore", over="ignore"):
                    x = raw.astype(self._dtype)
                if not self._is_float and not np.array_equal(x, raw):
                    return False
            except (ValueError, TypeError, OverflowError):
                return False
        if x.size == 0:
            return True
        low = self._low_scalar
        if low is not None:
            return bool(x.min() >= low and x.max() <= self._high_scalar)
        return bool((x >= self.low).all() and (x <= self.high).all())

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any]:
        return [np.asarray(sample).tolist() for sample in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[NDArray[Any]]:
        return [np.asarray(sample, dtype=self._dtype) for sample in sample_n]

    def __repr__(self) -> str:
        # Formatted on demand: numpy's array printing costs more than building the box.
        if self.low_repr is None:
            self.low_repr = array_short_repr(self.low)
        if self.high_repr is None:
            self.high_repr = array_short_repr(self.high)
        return f"Box({self.low_repr}, {self.high_repr}, {self._shape}, {self._dtype})"

    def __eq__(self, other: object) -> bool:
        """Same shape and dtype, and bounds equal up to float rounding (Gymnasium's test)."""
        return (
            isinstance(other, Box)
            and self._shape == other._shape
            and self._dtype == other._dtype
            and bool(np.allclose(self.low, other.low))
            and bool(np.allclose(self.high, other.high))
        )

    __hash__ = None  # type: ignore[assignment]
