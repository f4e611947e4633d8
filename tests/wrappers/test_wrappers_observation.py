"""Stateless observation wrappers: exact outputs and spaces, Gymnasium parity, bad arguments."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym import spaces
from protogym.spaces import Box, Dict, Discrete, Tuple
from protogym.wrappers import (
    AddRenderObservation,
    DiscretizeObservation,
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    RescaleObservation,
    ReshapeObservation,
    ResizeObservation,
    TransformObservation,
)
from tests.wrappers.wrapper_test_envs import (
    ArrayObsEnv,
    CountingEnv,
    DictObsEnv,
    TupleObsEnv,
    assert_same_data,
    gym_twin,
    image_frames,
    run_actions,
    uint8_box,
)


def observations(env: Any, steps: int = 2) -> list[Any]:
    obs = [env.reset(seed=0)[0]]
    obs.extend(env.step(0)[0] for _ in range(steps))
    return obs


def image_env(shape: tuple[int, ...] = (6, 8, 3), count: int = 3) -> ArrayObsEnv:
    return ArrayObsEnv(uint8_box(shape), image_frames(count, shape))


# TransformObservation ----------------------------------------------------------------------


def test_wrappers_transform_observation_applies_func_and_space() -> None:
    space = Box(-2000.0, 2000.0, shape=(3,), dtype=np.float32)
    env = TransformObservation(CountingEnv(), lambda obs: obs * 2, space)
    assert env.observation_space is space
    assert [o.tolist() for o in observations(env)] == [[0, 0, 0], [2, 2, 2], [4, 4, 4]]
    same = TransformObservation(CountingEnv(), lambda obs: obs + 1, None)
    assert same.observation_space is same.env.observation_space


def test_wrappers_transform_observation_rejects_non_callable() -> None:
    with pytest.raises(TypeError, match="TransformObservation: func must be callable"):
        TransformObservation(CountingEnv(), None, None)  # type: ignore[arg-type]


# FilterObservation -------------------------------------------------------------------------


def test_wrappers_filter_observation_dict() -> None:
    env = FilterObservation(DictObsEnv(), ["pos"])
    assert env.observation_space == Dict({"pos": Box(-100.0, 100.0, (2,), np.float32)})
    obs = observations(env)[2]
    assert list(obs) == ["pos"] and obs["pos"].tolist() == [2.0, -2.0]


def test_wrappers_filter_observation_tuple() -> None:
    env = FilterObservation(TupleObsEnv(), [2, 0])
    assert env.observation_space == Tuple((Discrete(2), Discrete(100)))
    assert observations(env)[1] == (1, 1)


def test_wrappers_filter_observation_matches_gymnasium() -> None:
    ours = run_actions(FilterObservation(DictObsEnv(), ["mode"]), [0, 1, 0])
    theirs = run_actions(gymnasium.wrappers.FilterObservation(gym_twin(DictObsEnv()), ["mode"]),
                         [0, 1, 0])
    assert_same_data(ours, theirs)


@pytest.mark.parametrize(("env", "keys", "message"), [
    (DictObsEnv(), ["speed"], r"filter keys \['speed'\] are not keys of the Dict observation "
                              r"space, whose keys are \['mode', 'pos'\]"),
    (TupleObsEnv(), [3], r"filter keys \[3\] are not indices of the Tuple observation space, "
                         "which has 3 elements"),
    (DictObsEnv(), [], "filter_keys is empty"),
    (DictObsEnv(), ["pos", "pos"], "filter_keys has duplicates"),
    (DictObsEnv(), "pos", "filter_keys must be a list of keys"),
    (CountingEnv(), ["a"], "needs a Dict or Tuple observation space, got Box"),
])
def test_wrappers_filter_observation_rejects_bad_keys(env: Any, keys: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FilterObservation(env, keys)


# FlattenObservation ------------------------------------------------------------------------


def test_wrappers_flatten_observation_box() -> None:
    frames = [np.arange(6, dtype=np.float32).reshape(2, 3) + i for i in range(2)]
    env = FlattenObservation(ArrayObsEnv(Box(-10.0, 10.0, (2, 3), np.float32), frames))
    assert env.observation_space == Box(-10.0, 10.0, (6,), np.float32)
    assert observations(env, 1)[1].tolist() == [1, 2, 3, 4, 5, 6]


def test_wrappers_flatten_observation_dict_matches_gymnasium() -> None:
    env = FlattenObservation(DictObsEnv())
    assert env.observation_space == spaces.flatten_space(DictObsEnv().observation_space)
    ours = run_actions(env, [0, 0, 0])
    theirs = run_actions(gymnasium.wrappers.FlattenObservation(gym_twin(DictObsEnv())), [0] * 3)
    assert_same_data(ours, theirs)
    # mode one-hot (3) then pos (2), in sorted key order
    assert ours[2][0].tolist() == [0.0, 0.0, 1.0, 2.0, -2.0]


# GrayscaleObservation ----------------------------------------------------------------------


@pytest.mark.parametrize("keep_dim", [False, True])
def test_wrappers_grayscale_observation_matches_gymnasium(keep_dim: bool) -> None:
    env = GrayscaleObservation(image_env(), keep_dim=keep_dim)
    shape = (6, 8, 1) if keep_dim else (6, 8)
    assert env.observation_space == uint8_box(shape)
    ours = run_actions(env, [0, 0])
    theirs = run_actions(
        gymnasium.wrappers.GrayscaleObservation(gym_twin(image_env()), keep_dim=keep_dim), [0, 0]
    )
    assert_same_data(ours, theirs)


def test_wrappers_grayscale_observation_exact_pixel() -> None:
    frame = np.zeros((1, 1, 3), np.uint8)
    frame[0, 0] = (100, 200, 50)
    env = GrayscaleObservation(ArrayObsEnv(uint8_box((1, 1, 3)), [frame, frame]))
    # 0.2125 * 100 + 0.7154 * 200 + 0.0721 * 50 = 167.935, truncated
    assert env.reset()[0].tolist() == [[167]]


def test_wrappers_grayscale_observation_rejects_non_rgb() -> None:
    with pytest.raises(ValueError, match=r"RGB images with 3 channels, got shape \(6, 8, 4\)"):
        GrayscaleObservation(image_env((6, 8, 4)))
    with pytest.raises(ValueError, match="uint8 image observations bounded by 0 and 255"):
        GrayscaleObservation(ArrayObsEnv(Box(0.0, 1.0, (4, 4, 3), np.float32), []))
    with pytest.raises(TypeError, match="GrayscaleObservation needs a Box observation space"):
        GrayscaleObservation(DictObsEnv())  # type: ignore[arg-type]


# ResizeObservation -------------------------------------------------------------------------


def test_wrappers_resize_observation_halving_averages_blocks() -> None:
    frame = np.arange(16, dtype=np.uint8).reshape(4, 4) * 10
    env = ResizeObservation(ArrayObsEnv(uint8_box((4, 4)), [frame, frame]), (2, 2))
    assert env.observation_space == uint8_box((2, 2))
    # block means: (0+10+40+50)/4 = 25, (20+30+60+70)/4 = 45, ...
    assert env.reset()[0].tolist() == [[25, 45], [105, 125]]


def test_wrappers_resize_observation_fractional_areas_and_channels() -> None:
    frame = np.zeros((3, 1, 2), np.uint8)
    frame[:, 0, 0] = (0, 90, 180)
    frame[:, 0, 1] = 7
    env = ResizeObservation(ArrayObsEnv(uint8_box((3, 1, 2)), [frame, frame]), (2, 1))
    # each output row covers 1.5 input rows: (0 + 0.5*90)/1.5 = 30, (0.5*90 + 180)/1.5 = 150
    out = env.reset()[0]
    assert out.shape == (2, 1, 2)
    assert out[:, 0, 0].tolist() == [30, 150] and out[:, 0, 1].tolist() == [7, 7]


def test_wrappers_resize_observation_upscale_repeats_pixels() -> None:
    frame = np.array([[1, 2], [3, 4]], np.uint8)
    env = ResizeObservation(ArrayObsEnv(uint8_box((2, 2)), [frame, frame]), (4, 4))
    np.testing.assert_array_equal(env.reset()[0], np.kron(frame, np.ones((2, 2), np.uint8)))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 255))
def test_wrappers_resize_observation_keeps_constant_images(h: int, w: int, value: int) -> None:
    frame = np.full((5, 7, 3), value, np.uint8)
    env = ResizeObservation(ArrayObsEnv(uint8_box((5, 7, 3)), [frame, frame]), (h, w))
    out = env.reset()[0]
    assert out.shape == (h, w, 3) and (out == value).all()


@pytest.mark.parametrize(("shape", "error", "message"), [
    ((0, 4), ValueError, r"cannot resize to \(0, 4\); both sizes must be > 0"),
    ((4, -1), ValueError, r"cannot resize to \(4, -1\)"),
    ((4,), ValueError, r"shape must be a \(height, width\) pair, got \(4,\)"),
    ((4.0, 4), TypeError, r"shape must hold two ints, got \(4.0, 4\)"),
    (4, TypeError, r"shape must be a \(height, width\) tuple, got 4"),
])
def test_wrappers_resize_observation_rejects_bad_shapes(
    shape: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        ResizeObservation(image_env(), shape)


# ReshapeObservation ------------------------------------------------------------------------


def test_wrappers_reshape_observation() -> None:
    low = np.arange(6, dtype=np.float32)
    frames = [np.arange(6, dtype=np.float32) + 1]
    env = ReshapeObservation(ArrayObsEnv(Box(low, low + 10), frames * 2), (3, -1))
    assert env.shape == (3, 2)
    assert env.observation_space == Box(low.reshape(3, 2), low.reshape(3, 2) + 10)
    assert env.reset()[0].tolist() == [[1, 2], [3, 4], [5, 6]]


def test_wrappers_reshape_observation_rejects_bad_shapes() -> None:
    env = ArrayObsEnv(Box(0.0, 1.0, (6,), np.float32), [])
    with pytest.raises(ValueError, match=r"cannot reshape observations of shape \(6,\) "
                                         r"\(6 values\) to \(4, 2\)"):
        ReshapeObservation(env, (4, 2))
    with pytest.raises(ValueError, match="must be positive"):
        ReshapeObservation(env, (0, 6))


# RescaleObservation ------------------------------------------------------------------------


def test_wrappers_rescale_observation_matches_gymnasium() -> None:
    space = Box(np.array([-1.0, 0.0], np.float32), np.array([1.0, 10.0], np.float32))
    frames = [np.array([-1.0, 0.0], np.float32), np.array([0.3, 7.5], np.float32),
              np.array([1.0, 10.0], np.float32)]
    env = RescaleObservation(ArrayObsEnv(space, frames), np.float32(0.0), np.float32(1.0))
    assert env.observation_space == Box(0.0, 1.0, (2,), np.float32)
    ours = run_actions(env, [0, 0])
    theirs = run_actions(gymnasium.wrappers.RescaleObservation(
        gym_twin(ArrayObsEnv(space, frames)), np.float32(0.0), np.float32(1.0)), [0, 0])
    assert_same_data(ours, theirs)
    assert ours[0][0].tolist() == [0.0, 0.0] and ours[2][0].tolist() == [1.0, 1.0]


def test_wrappers_rescale_observation_rejects_bad_bounds() -> None:
    with pytest.raises(TypeError, match="RescaleObservation needs a Box observation space"):
        RescaleObservation(DictObsEnv(), 0, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="an infinite lower bound must stay the same infinity"):
        RescaleObservation(CountingEnv(), -np.inf, 1.0)  # finite box, infinite target
    with pytest.raises(ValueError, match="new minimum"):
        RescaleObservation(CountingEnv(), 1.0, 0.0)


# DtypeObservation --------------------------------------------------------------------------


def test_wrappers_dtype_observation_box_and_discrete() -> None:
    env = DtypeObservation(CountingEnv(), np.int32)
    assert env.observation_space == Box(-1000, 1000, (3,), np.int32)
    obs = observations(env)[2]
    assert obs.dtype == np.int32 and obs.tolist() == [2, 2, 2]
    with pytest.raises(TypeError, match="needs a Box, Discrete, MultiDiscrete or MultiBinary"):
        DtypeObservation(DictObsEnv(), np.float32)
    with pytest.raises(TypeError, match="is not a numpy dtype"):
        DtypeObservation(CountingEnv(), "not-a-dtype")


def test_wrappers_dtype_observation_discrete_space_becomes_scalar_box() -> None:
    env = DtypeObservation(TransformObservation(CountingEnv(), lambda o: np.int64(o[0] % 5),
                                                Discrete(5, start=1)), np.float64)
    assert env.observation_space == Box(1, 5, (), np.float64)
    obs = observations(env)[2]
    assert obs == 2.0 and isinstance(obs, np.float64)


# DiscretizeObservation ---------------------------------------------------------------------


def test_wrappers_discretize_observation_matches_gymnasium() -> None:
    space = Box(np.array([-1.0, 0.0], np.float32), np.array([1.0, 3.0], np.float32))
    frames = [np.array(v, np.float32) for v in ([-1, 0], [0.2, 2.9], [1, 3], [-0.6, 1.4])]
    for multi in (False, True):
        ours = run_actions(DiscretizeObservation(ArrayObsEnv(space, frames), (4, 3), multi),
                           [0] * 3)
        theirs = run_actions(gymnasium.wrappers.DiscretizeObservation(
            gym_twin(ArrayObsEnv(space, frames)), (4, 3), multi), [0] * 3)
        assert_same_data([o[0] for o in ours], [o[0] for o in theirs])
    env = DiscretizeObservation(ArrayObsEnv(space, frames), (4, 3))
    assert env.observation_space == Discrete(12)
    assert [o[0] for o in run_actions(env, [0] * 3)] == [0, 8, 11, 1]
    low, high = env.revert_observation(8)
    assert low.tolist() == [0.0, 2.0] and high.tolist() == [0.5, 3.0]


def test_wrappers_discretize_observation_rejects_unbounded() -> None:
    env = ArrayObsEnv(Box(-np.inf, np.inf, (2,), np.float32), [])
    with pytest.raises(ValueError, match="needs a bounded observation space"):
        DiscretizeObservation(env, 3)


# AddRenderObservation ----------------------------------------------------------------------


def test_wrappers_add_render_observation_render_only() -> None:
    env = AddRenderObservation(CountingEnv())
    assert env.observation_space == uint8_box((4, 6, 3))
    frames = observations(env)
    assert [int(f[0, 0, 0]) for f in frames] == [0, 1, 2]


def test_wrappers_add_render_observation_beside_state() -> None:
    env = AddRenderObservation(CountingEnv(), render_only=False)
    assert env.observation_space == Dict(
        {"state": CountingEnv().observation_space, "pixels": uint8_box((4, 6, 3))}
    )
    obs = observations(env)[1]
    assert obs["state"].tolist() == [1, 1, 1] and int(obs["pixels"][0, 0, 0]) == 1


def test_wrappers_add_render_observation_rejects_bad_envs() -> None:
    with pytest.raises(ValueError, match="needs an env that renders frames"):
        AddRenderObservation(CountingEnv(render_mode=None))
    with pytest.raises(ValueError, match="render_key and obs_key are both 'x'"):
        AddRenderObservation(CountingEnv(), render_only=False, render_key="x", obs_key="x")


class RenderingDictEnv(DictObsEnv):
    render_mode = "rgb_array"

    def render(self) -> Any:
        return np.full((2, 3, 3), 10 * self.t, dtype=np.uint8)


def test_wrappers_add_render_observation_adds_a_key_to_dict_observations() -> None:
    env = AddRenderObservation(RenderingDictEnv(), render_only=False, render_key="frame")
    space = env.observation_space
    assert isinstance(space, Dict) and list(space.spaces) == ["frame", "mode", "pos"]
    obs = observations(env)[2]
    assert int(obs["frame"][0, 0, 0]) == 20 and obs["pos"].tolist() == [2.0, -2.0]
    with pytest.raises(ValueError, match="render_key 'pos' is already a key"):
        AddRenderObservation(RenderingDictEnv(), render_only=False, render_key="pos")
