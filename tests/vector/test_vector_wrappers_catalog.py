"""The vector wrappers Gymnasium's `gymnasium.wrappers.vector` has: each named wrapper gives,
bit for bit, what its single-env namesake gives in every sub-env; the info, rendering and
normalising wrappers do what they promise."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import protogym
from protogym import wrappers as single
from protogym.spaces import Box
from protogym.vector import AutoresetMode, SyncVectorEnv
from protogym.vector import wrappers as vector
from protogym.vector.wrappers.dict_info_to_list import InfoLayoutError
from tests.vector.vector_helpers import Countdown, DictEnv, countdowns


class Pixels(Countdown):
    """A Countdown that shows a random RGB picture, drawn with its own generator."""

    def __init__(self, ident: int = 0) -> None:
        super().__init__(ident=ident, length=3 + ident)
        self.observation_space = Box(0, 255, (12, 10, 3), np.uint8)

    def _obs(self) -> Any:
        return self.np_random.integers(0, 256, (12, 10, 3), dtype=np.uint8)


def pixels(n: int) -> list[Callable[[], Pixels]]:
    return [functools.partial(Pixels, i) for i in range(n)]


def pendulums(n: int) -> list[Callable[[], Any]]:
    return [lambda: protogym.make("Pendulum-v1", disable_env_checker=True)] * n


def assert_same(a: Any, b: Any, where: str) -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for key in a:
            assert_same(a[key], b[key], f"{where}[{key!r}]")
    else:
        assert a.dtype == b.dtype, where
        np.testing.assert_array_equal(a, b, err_msg=where)


# (vector wrapper, its single-env namesake, env functions, kwargs)
CASES: list[tuple[Any, Any, Callable[[int], list[Any]], dict[str, Any]]] = [
    (vector.FilterObservation, single.FilterObservation,
     lambda n: [lambda i=i: DictEnv(i) for i in range(n)], {"filter_keys": ["vec"]}),
    (vector.FlattenObservation, single.FlattenObservation,
     lambda n: [lambda i=i: DictEnv(i) for i in range(n)], {}),
    (vector.FlattenObservation, single.FlattenObservation, pixels, {}),
    (vector.GrayscaleObservation, single.GrayscaleObservation, pixels, {}),
    (vector.GrayscaleObservation, single.GrayscaleObservation, pixels, {"keep_dim": True}),
    (vector.ResizeObservation, single.ResizeObservation, pixels, {"shape": (5, 7)}),
    (vector.ReshapeObservation, single.ReshapeObservation, pixels, {"shape": (10, 36)}),
    (vector.DtypeObservation, single.DtypeObservation, pixels, {"dtype": np.int32}),
    (vector.RescaleObservation, single.RescaleObservation, countdowns,
     {"min_obs": 0.0, "max_obs": np.array([1.0, 2.0, 3.0], dtype=np.float32)}),
    (vector.ClipAction, single.ClipAction, pendulums, {}),
    (vector.RescaleAction, single.RescaleAction, pendulums,
     {"min_action": 0.0, "max_action": 1.0}),
    (vector.ClipReward, single.ClipReward, countdowns, {"min_reward": -1.0, "max_reward": 3.0}),
]


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
@pytest.mark.parametrize(
    ("vector_wrapper", "single_wrapper", "fns", "kwargs"),
    CASES,
    ids=[f"{case[0].__name__}-{i}" for i, case in enumerate(CASES)],
)
def test_each_wrapper_equals_its_single_env_namesake_in_every_sub_env(
    vector_wrapper: Any, single_wrapper: Any, fns: Any, kwargs: dict[str, Any], mode: str
) -> None:
    num_envs = 3
    batched = vector_wrapper(SyncVectorEnv(fns(num_envs), autoreset_mode=mode), **kwargs)
    def wrapped(fn: Callable[[], Any]) -> Callable[[], Any]:
        return lambda: single_wrapper(fn(), **kwargs)

    per_env = SyncVectorEnv([wrapped(fn) for fn in fns(num_envs)], autoreset_mode=mode)
    assert batched.single_observation_space == per_env.single_observation_space
    assert batched.observation_space == per_env.observation_space
    assert batched.single_action_space == per_env.single_action_space
    assert batched.action_space == per_env.action_space
    a, _ = batched.reset(seed=7)
    b, _ = per_env.reset(seed=7)
    assert_same(a, b, "reset")
    batched.action_space.seed(1)
    ended = 0
    for step in range(8):
        actions = batched.action_space.sample()
        got, expected = batched.step(actions), per_env.step(actions)
        for name, x, y in zip(("obs", "reward", "terminated", "truncated"), got, expected,
                              strict=False):
            assert_same(x, y, f"{name} at step {step}")
        infos, reference = got[4], expected[4]
        if "final_obs" in reference:  # same-step: the final observations transform alike
            ended += 1
            assert infos["_final_obs"].tolist() == reference["_final_obs"].tolist()
            for row in np.flatnonzero(reference["_final_obs"]).tolist():
                assert_same(infos["final_obs"][row], reference["final_obs"][row], f"row {row}")
    assert ended or mode == "next_step" or fns is pendulums
    batched.close()
    per_env.close()


def test_vectorize_transform_wrappers_run_any_single_transform_on_each_sub_env() -> None:
    env: Any = vector.VectorizeTransformObservation(
        SyncVectorEnv(countdowns(2)), single.TransformObservation,
        func=lambda obs: obs[:2] * 2, observation_space=Box(-1e7, 1e7, (2,), np.float32),
    )
    assert env.observation_space == Box(-1e7, 1e7, (2, 2), np.float32)
    obs, _ = env.reset(seed=0)
    assert obs.tolist() == [[0.0, 0.0], [0.0, 2.0]]
    env = vector.VectorizeTransformAction(
        SyncVectorEnv(countdowns(2)), single.TransformAction,
        func=lambda action: action + 1, action_space=None,
    )
    env.reset(seed=0)
    _, rewards, *_ = env.step(np.array([0, 1]))
    assert rewards.tolist() == [2.0, 3.0]  # actions 1 and 2, plus the count 1
    env = vector.VectorizeTransformReward(
        SyncVectorEnv(countdowns(2)), single.TransformReward, func=lambda r: -float(r)
    )
    env.reset(seed=0)
    _, rewards, *_ = env.step(np.array([0, 1]))
    assert rewards.tolist() == [-1.0, -2.0] and rewards.dtype == np.float64


def test_transform_observation_warns_when_only_the_batched_space_is_given() -> None:
    inner = SyncVectorEnv(countdowns(2))
    with pytest.warns(UserWarning, match="observation space and the batched single observation"):
        vector.TransformObservation(inner, lambda x: x, observation_space=Box(0, 1, (2, 5)))
    with pytest.warns(UserWarning, match="action space and the batched single action"):
        vector.TransformAction(inner, lambda x: x, action_space=Box(0, 1, (2, 5)))


def test_dict_info_to_list_gives_one_dict_per_sub_env() -> None:
    env = vector.DictInfoToList(SyncVectorEnv(countdowns(2)))
    _, infos = env.reset(seed=4)
    assert infos == [{"reset_seed": 4}, {"reset_seed": 5}]
    env.step(np.ones(2, dtype=np.int64))
    _, _, terminated, _, infos = env.step(np.ones(2, dtype=np.int64))
    assert terminated.tolist() == [True, False]
    # sub-env 0 ended: its reset info, and its episode's end in final_obs / final_info
    assert set(infos[0]) == {"reset_seed", "final_obs", "final_info"}
    assert infos[0]["final_info"] == {"count": 2}
    assert infos[0]["final_obs"][0] == 2.0
    assert infos[1] == {"count": 2}
    with pytest.raises(TypeError, match="wraps a vector env"):
        vector.DictInfoToList(protogym.make("CartPole-v1"))  # type: ignore[arg-type]


def test_dict_info_to_list_reads_unmasked_keys_and_refuses_a_bad_layout() -> None:
    env: Any = vector.DictInfoToList(SyncVectorEnv(countdowns(3)))
    converted = env._to_list({"a": np.array([1, 2, 3]), "nested": {"b": np.zeros(3)}})
    assert [info["a"] for info in converted] == [1, 2, 3]
    assert all(info["nested"] == {"b": 0.0} for info in converted)
    for bad in ({"a": np.array([1, 2])}, {"a": np.array([1, 2, 3]), "_a": np.ones(2, bool)},
                {"n": {"a": np.array([1])}}):
        with pytest.raises(InfoLayoutError, match="one entry per sub-env") as caught:
            env._to_list(bad)
        assert isinstance(caught.value, AssertionError)  # Gymnasium's class for it


def reference_normalized_rewards(mode: str, rewards: list[Any], dones: list[Any]) -> list[Any]:
    """Gymnasium 1.4's vector NormalizeReward, written out step by step for a test."""
    from protogym.wrappers.utils import RunningMeanStd

    stats = RunningMeanStd(shape=())
    returns = np.zeros(len(rewards[0]), dtype=np.float32)
    previous = np.zeros(len(rewards[0]), dtype=np.bool_)
    out = []
    for reward, done in zip(rewards, dones, strict=True):
        counted = np.ones_like(previous) if mode == "same_step" else ~previous
        terminated = done.astype(np.float64)
        returns[counted] = returns[counted] * 0.9 * (1 - terminated[counted]) + reward[counted]
        if counted.any():
            stats.update(returns[counted])
        previous = done
        if mode == "same_step":
            returns[done] = 0.0
        out.append(reward / np.sqrt(stats.var + 1e-8))
    return out


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_normalize_reward_follows_the_autoreset_mode(mode: str) -> None:
    raw = SyncVectorEnv(countdowns(3), autoreset_mode=mode)
    env = vector.NormalizeReward(SyncVectorEnv(countdowns(3), autoreset_mode=mode), gamma=0.9)
    raw.reset(seed=0)
    env.reset(seed=0)
    rewards, dones, scaled = [], [], []
    for _ in range(12):
        action = np.ones(3, dtype=np.int64)
        _, reward, terminated, truncated, _ = raw.step(action)
        rewards.append(reward)
        dones.append(terminated | truncated)
        scaled.append(env.step(action)[1])
    expected = reference_normalized_rewards(mode, rewards, dones)
    np.testing.assert_allclose(np.array(scaled), np.array(expected), rtol=1e-6)
    with pytest.raises(ValueError, match="epsilon > 0"):
        vector.NormalizeReward(raw, epsilon=-1.0)


@pytest.mark.parametrize("mode", ["same_step", "next_step", "disabled"])
def test_record_video_names_files_by_sub_env_0s_episodes_and_by_steps(
    tmp_path: Any, mode: str
) -> None:
    inner = SyncVectorEnv(countdowns(4, render_mode="rgb_array"), autoreset_mode=mode)
    env = vector.RecordVideo(inner, str(tmp_path), episode_trigger=lambda e: e in (1, 3),
                             step_trigger=lambda s: s == 4, name_prefix="clip")
    env.reset(seed=0)
    for _ in range(12):  # sub-env 0's episodes last 2 steps
        _, _, terminated, truncated, _ = env.step(np.ones(4, dtype=np.int64))
        if mode == "disabled" and (terminated | truncated).any():
            env.reset(options={"reset_mask": terminated | truncated})
    env.close()
    assert sorted(os.listdir(tmp_path)) == ["clip-episode-1.mp4", "clip-episode-3.mp4",
                                            "clip-step-4.mp4"]


def test_record_video_tiles_the_sub_envs_and_counts_video_length_frames(tmp_path: Any) -> None:
    import imageio.v2 as imageio

    inner = SyncVectorEnv(countdowns(6, render_mode="rgb_array", length=50))
    env = vector.RecordVideo(inner, str(tmp_path), video_aspect_ratio=(3, 2),
                             step_trigger=lambda s: s == 0, video_length=4)
    env.reset(seed=0)
    for _ in range(6):
        env.step(np.ones(6, dtype=np.int64))
    assert not env.recording
    env.close()
    frames = imageio.mimread(str(tmp_path / "rl-video-step-0.mp4"))
    assert len(frames) == 4
    assert frames[0].shape == (4, 6, 3)  # 2 rows x 3 columns of 2x2 frames, 3:2
    first_only = vector.RecordVideo(SyncVectorEnv(countdowns(6, render_mode="rgb_array")),
                                    str(tmp_path / "one"), record_first_only=True)
    first_only.reset(seed=0)
    first_only.close()
    assert imageio.mimread(str(tmp_path / "one" / "rl-video-episode-0.mp4"))[0].shape == (
        2, 2, 3)


def test_record_video_refuses_envs_that_render_no_images(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        vector.RecordVideo(SyncVectorEnv(countdowns(1)), str(tmp_path))
    with pytest.raises(ValueError, match="video_length must be a non-negative int"):
        vector.RecordVideo(SyncVectorEnv(countdowns(1, render_mode="rgb_array")),
                           str(tmp_path), video_length=-1)


def test_human_rendering_tiles_frames_into_one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    inner = SyncVectorEnv(countdowns(3, render_mode="rgb_array"))
    inner.metadata = {**inner.metadata}
    env = vector.HumanRendering(inner, screen_size=(8, 4))
    assert env.render_mode == "human" and "human" in env.metadata["render_modes"]
    env.reset(seed=0)
    env.step(np.ones(3, dtype=np.int64))
    assert env.window is not None and env.window.get_size() == (8, 4)
    env.render()  # draws nothing: frames are drawn by reset and step
    env.close()
    assert env.window is None and inner.closed
    with pytest.raises(ValueError, match="render_mode is one of"):
        vector.HumanRendering(SyncVectorEnv(countdowns(1)))


def test_every_name_gymnasium_exports_is_here() -> None:
    names = {
        "VectorizeTransformObservation", "VectorizeTransformAction", "VectorizeTransformReward",
        "DictInfoToList", "TransformObservation", "FilterObservation", "FlattenObservation",
        "GrayscaleObservation", "ResizeObservation", "ReshapeObservation", "RescaleObservation",
        "DtypeObservation", "NormalizeObservation", "TransformAction", "ClipAction",
        "RescaleAction", "TransformReward", "ClipReward", "NormalizeReward",
        "RecordEpisodeStatistics", "RecordVideo", "HumanRendering", "ArrayConversion",
        "JaxToNumpy", "JaxToTorch", "NumpyToTorch",
    }
    assert names <= set(vector.__all__)
    assert AutoresetMode.SAME_STEP in list(AutoresetMode)
