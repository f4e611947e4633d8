"""RenderCollection and HumanRendering: collected frames, modes, metadata, bad envs."""

from __future__ import annotations

import numpy as np
import pytest

from protogym.wrappers import HumanRendering, RenderCollection, TimeLimit
from tests.wrappers.wrapper_test_envs import CountingEnv


def frame_values(frames: list[np.ndarray]) -> list[int]:
    return [int(frame[0, 0, 0]) for frame in frames]


def test_wrappers_render_collection_pops_frames_by_default() -> None:
    env = RenderCollection(CountingEnv())
    assert env.render_mode == "rgb_array_list"
    assert env.metadata["render_modes"] == ["rgb_array", "rgb_array_list"]
    env.reset()
    env.step(0)
    env.step(0)
    assert frame_values(env.render()) == [0, 1, 2]
    assert env.render() == []
    env.step(0)
    assert frame_values(env.render()) == [3]


def test_wrappers_render_collection_keeps_frames_without_pop() -> None:
    env = RenderCollection(CountingEnv(), pop_frames=False)
    env.reset()
    env.step(0)
    assert frame_values(env.render()) == [0, 1]
    env.step(0)
    assert frame_values(env.render()) == [0, 1, 2]
    env.reset()
    assert frame_values(env.render()) == [0]


def test_wrappers_render_collection_keeps_frames_across_reset_without_clean() -> None:
    env = RenderCollection(CountingEnv(), pop_frames=False, reset_clean=False)
    env.reset()
    env.step(0)
    env.reset()
    env.step(0)
    assert frame_values(env.render()) == [0, 1, 0, 1]


def test_wrappers_render_collection_does_not_touch_inner_metadata() -> None:
    inner = CountingEnv()
    RenderCollection(inner)
    assert inner.metadata["render_modes"] == ["rgb_array"]


def test_wrappers_render_collection_rejects_bad_modes() -> None:
    with pytest.raises(ValueError, match="needs an env with a render_mode"):
        RenderCollection(CountingEnv(render_mode=None))
    with pytest.raises(ValueError, match="'rgb_array_list' already collects frames"):
        RenderCollection(RenderCollection(CountingEnv()))


def test_wrappers_human_rendering_draws_and_closes() -> None:
    pygame = pytest.importorskip("pygame")
    env = HumanRendering(TimeLimit(CountingEnv(), 5))
    assert env.render_mode == "human"
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    env.reset()
    env.step(0)
    env.render()
    assert env.window is not None
    assert env.screen_size == (6, 4)  # pygame's (width, height) of a 4x6 frame
    # The window shows the last frame: every pixel has the value of step 1.
    assert pygame.surfarray.array3d(env.window)[0, 0].tolist() == [1, 1, 1]
    env.close()
    assert env.window is None


def test_wrappers_human_rendering_accepts_list_modes() -> None:
    pytest.importorskip("pygame")
    env = HumanRendering(RenderCollection(CountingEnv()))
    env.reset()
    env.step(0)
    env.close()


def test_wrappers_human_rendering_rejects_bad_envs() -> None:
    with pytest.raises(ValueError, match=r"render_mode is one of \['rgb_array'.*got None"):
        HumanRendering(CountingEnv(render_mode=None))
    env = CountingEnv()
    env.metadata = {"render_modes": ["rgb_array"]}
    with pytest.raises(ValueError, match="'render_fps'"):
        HumanRendering(env)
