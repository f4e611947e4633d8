"""`AreaResize` against OpenCV's `INTER_AREA`, which Gymnasium's resizing wrappers call."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from protogym.wrappers.area_resize import AreaResize


def opencv_area(image: NDArray[np.uint8], out_hw: tuple[int, int]) -> NDArray[Any]:
    cv2 = pytest.importorskip("cv2")
    resized: NDArray[Any] = cv2.resize(image, out_hw[::-1], interpolation=cv2.INTER_AREA)
    return resized


def blocky_image(
    rng: np.random.Generator, in_hw: tuple[int, int], channels: int | None
) -> NDArray[np.uint8]:
    """Flat patches with hard edges, like a game screen: many output pixels then sit
    exactly on a rounding tie, where only OpenCV's float roundings decide."""
    patch = rng.integers(1, 8, size=2)
    shape = (in_hw[0] // patch[0] + 1, in_hw[1] // patch[1] + 1)
    colours = rng.choice(np.array([0, 17, 92, 143, 200, 255], np.uint8),
                         size=shape if channels is None else (*shape, channels))
    image = np.repeat(np.repeat(colours, patch[0], axis=0), patch[1], axis=1)
    return np.ascontiguousarray(image[: in_hw[0], : in_hw[1]])


def test_area_resize_of_integer_factor_is_block_mean() -> None:
    image = np.arange(36, dtype=np.uint8).reshape(6, 6)
    expected = np.rint(image.reshape(3, 2, 3, 2).mean(axis=(1, 3))).astype(np.uint8)
    np.testing.assert_array_equal(AreaResize((6, 6), (3, 3))(image), expected)


@pytest.mark.parametrize(
    ("in_hw", "out_hw"),
    [((210, 160), (84, 84)), ((210, 160), (64, 48)), ((96, 96), (84, 84)), ((21, 16), (7, 8)),
     ((20, 20), (10, 10)), ((84, 84), (84, 84)), ((250, 160), (84, 84)),
     ((210, 160), (110, 84)), ((1000, 30), (7, 11)), ((210, 160), (209, 159))],
)
@pytest.mark.parametrize("channels", [None, 3])
def test_area_resize_is_opencvs_inter_area_when_shrinking(
    in_hw: tuple[int, int], out_hw: tuple[int, int], channels: int | None
) -> None:
    """The general path (fractional factors, summed exactly with ties redone in float32),
    the block path (whole factors, 2x2 rounding halves up) and a copy, on noise and on
    blocky screens."""
    rng = np.random.default_rng(0)
    resize = AreaResize(in_hw, out_hw)
    for _ in range(5):
        noise = rng.integers(0, 256, in_hw if channels is None else (*in_hw, channels), np.uint8)
        for image in (noise, blocky_image(rng, in_hw, channels)):
            np.testing.assert_array_equal(resize(image), opencv_area(image, out_hw))


@settings(max_examples=60, deadline=None)
@given(
    in_h=st.integers(1, 240), in_w=st.integers(1, 240),
    shrink_h=st.floats(1.0, 12.0), shrink_w=st.floats(1.0, 12.0),
    channels=st.sampled_from([None, 1, 3]), seed=st.integers(0, 2**32 - 1),
)
def test_area_resize_matches_opencv_for_any_shrinking_size(
    in_h: int, in_w: int, shrink_h: float, shrink_w: float, channels: int | None, seed: int
) -> None:
    out_hw = (max(1, int(in_h / shrink_h)), max(1, int(in_w / shrink_w)))
    rng = np.random.default_rng(seed)
    image = blocky_image(rng, (in_h, in_w), channels)
    expected = opencv_area(image, out_hw)
    np.testing.assert_array_equal(AreaResize((in_h, in_w), out_hw)(image).reshape(expected.shape),
                                  expected)


def test_area_resize_rounds_ties_as_opencv_does() -> None:
    """210 rows to 84 weigh rows 2:2:1 over 5 and 160 columns to 84 weigh 10:21:9 over 40 at
    output column 5, so output pixel (76, 5)'s exact mean is 105.5; OpenCV's float32 sums
    land just below it and give 105, where rounding the exact value would give 106."""
    image = np.zeros((210, 160), np.uint8)
    image[190:193, 9:12] = [[13, 66, 166], [145, 113, 146], [150, 121, 85]]
    out = AreaResize((210, 160), (84, 84))(image)
    assert out[76, 5] == 105
    np.testing.assert_array_equal(out, opencv_area(image, (84, 84)))


def test_area_resize_enlarging_averages_areas() -> None:
    image = np.array([[0, 100], [200, 50]], dtype=np.uint8)
    np.testing.assert_array_equal(
        AreaResize((2, 2), (4, 2))(image), [[0, 100], [0, 100], [200, 50], [200, 50]]
    )


def test_area_resize_of_wider_integers_gives_the_uint8_result() -> None:
    """An env that hands out int64 pixels (outside its uint8 space) still gets them resized."""
    image = np.random.default_rng(3).integers(0, 256, (210, 160), np.uint8)
    resize = AreaResize((210, 160), (84, 84))
    np.testing.assert_array_equal(resize(image.astype(np.int64)), resize(image))
