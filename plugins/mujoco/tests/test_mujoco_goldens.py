"""Gymnasium 1.4.0's MuJoCo trajectories and frames on mujoco 4.0.0, replayed to the bit from
recorded goldens (goldens/record_mujoco.py; no Gymnasium here): observations, rewards, flags,
reset and step infos, and the type of every reward and info value."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import protogym

# Read every array once: an npz file decompresses an array on each look-up.
with np.load(Path(__file__).parent / "goldens" / "mujoco.npz") as _archive:
    GOLDENS: dict[str, np.ndarray] = {key: _archive[key] for key in _archive.files}
CASES: list[dict[str, Any]] = json.loads(str(GOLDENS["cases"]))


def _restored(value: Any) -> Any:
    """Undo the recorder's JSON spelling: lists back to tuples, 'inf' back to floats."""
    if isinstance(value, dict):
        return {(int(k) if k.isdigit() else k): _restored(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_restored(v) for v in value)
    if value in ("inf", "-inf"):
        return float(value)
    return value


def _types(runs: list[list[Any]]) -> list[str]:
    return [name for name, count in runs for _ in range(count)]


def _same_bits(ours: Any, golden: np.ndarray, where: str) -> None:
    mine = np.asarray(ours, dtype=np.float64)
    assert mine.shape == golden.shape, f"{where}: shape {mine.shape} != {golden.shape}"
    assert mine.tobytes() == golden.tobytes(), f"{where}: {mine!r} != {golden!r}"


def _actions(golden: np.ndarray, kind: str) -> list[Any]:
    if kind == "float32":
        return list(golden.astype(np.float32))
    if kind == "float64":
        return list(golden)
    return [row.tolist() for row in golden]


def _make(case: dict[str, Any]) -> Any:
    kwargs = _restored(case["kwargs"])
    render = case["render"]
    if render is not None:
        kwargs.update(render_mode=render[0], **_restored(render[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the v4 ids are out of date
        return protogym.make(case["id"], **kwargs)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_trajectories_infos_and_frames_match_gymnasiums_to_the_bit(case: dict[str, Any]) -> None:
    env = _make(case)
    frame_steps = list(case["render"][2]) if case["render"] else []
    try:
        for episode, meta in enumerate(case["episodes"]):
            golden = f"{case['name']}/{episode}/"
            obs, info = env.reset(seed=meta["seed"])
            assert obs.dtype == np.float64
            _same_bits(obs, GOLDENS[golden + "observations"][0], f"episode {episode} reset")
            assert list(info) == meta["reset_info_keys"]
            for key, value in info.items():
                assert type(value).__name__ == meta["reset_info_types"][key], key
                _same_bits(value, GOLDENS[f"{golden}reset_info.{key}"], f"reset info {key}")
            frames = iter(GOLDENS[golden + "frames"]) if episode == 0 and frame_steps else None
            depths = iter(GOLDENS[golden + "depths"]) if f"{golden}depths" in GOLDENS else None
            if frames is not None and -1 in frame_steps:
                _check_frame(env.render(), frames, depths, "after reset")
            reward_types = _types(meta["reward_types"])
            info_types = {key: _types(runs) for key, runs in meta["info_types"].items()}
            actions = _actions(GOLDENS[golden + "actions"], case["action_kind"])
            assert len(actions) == meta["steps"]
            for step, action in enumerate(actions):
                where = f"episode {episode}, step {step}"
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # the passive checker notes wild actions
                    obs, reward, terminated, truncated, info = env.step(action)
                _same_bits(obs, GOLDENS[golden + "observations"][step + 1], f"{where}: obs")
                assert type(reward).__name__ == reward_types[step], where
                _same_bits(reward, GOLDENS[golden + "rewards"][step], f"{where}: reward")
                assert terminated is bool(GOLDENS[golden + "terminated"][step]), where
                assert truncated is bool(GOLDENS[golden + "truncated"][step]), where
                assert list(info) == meta["info_keys"], where
                for key, value in info.items():
                    assert type(value).__name__ == info_types[key][step], f"{where}: {key}"
                    _same_bits(value, GOLDENS[f"{golden}info.{key}"][step], f"{where}: {key}")
                if frames is not None and step in frame_steps:
                    _check_frame(env.render(), frames, depths, where)
            if frames is not None:
                assert next(frames, None) is None, "a golden frame was not compared"
    finally:
        env.close()


def _check_frame(frame: Any, frames: Any, depths: Any, where: str) -> None:
    if depths is not None:
        rgb, depth = frame
        np.testing.assert_array_equal(rgb, next(frames), err_msg=where)
        assert depth.dtype == np.float32
        assert depth.tobytes() == next(depths).tobytes(), where
        return
    expected = next(frames)
    assert frame.dtype == expected.dtype and frame.shape == expected.shape, where
    assert frame.tobytes() == expected.tobytes(), f"{where}: the frame differs"


def test_the_goldens_cover_what_they_claim() -> None:
    """Every makeable id, non-default arguments, actions outside the bounds in three
    spellings, truncation at the time limits (50, 100 and 1000 steps), terminations followed
    by unseeded resets, repeated seeds, and every render mode but human."""
    makeable = {
        spec.id
        for spec in protogym.registry.values()
        if spec.plugin == "protogym-mujoco"
        and not str(spec.entry_point).startswith(
            ("protogym_mujoco.mujoco_py_env", "protogym_mujoco.pusher_v4")
        )
    }
    assert {case["id"] for case in CASES} == makeable
    assert len({case["id"] for case in CASES if case["kwargs"]}) >= 14
    assert {case["action_kind"] for case in CASES} == {"float32", "float64", "list"}
    outside = 0
    for case in CASES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            space = protogym.make(case["id"]).unwrapped.action_space
        assert isinstance(space, protogym.spaces.Box)
        actions = GOLDENS[f"{case['name']}/0/actions"]
        outside += int(((actions < space.low) | (actions > space.high)).any())
    assert outside >= 30  # a few short pendulum episodes happened to stay inside
    truncations = {
        (case["id"], meta["steps"])
        for case in CASES
        for episode, meta in enumerate(case["episodes"])
        if GOLDENS[f"{case['name']}/{episode}/truncated"][-1]
    }
    assert {("Reacher-v5", 50), ("Pusher-v5", 100), ("Swimmer-v5", 1000)} <= truncations
    unseeded_after_termination = [
        case["name"]
        for case in CASES
        for episode, meta in enumerate(case["episodes"][1:], start=1)
        if meta["seed"] is None and GOLDENS[f"{case['name']}/{episode - 1}/terminated"][-1]
    ]
    assert len(unseeded_after_termination) >= 10
    assert sum(bool(case["repeat"]) for case in CASES) >= 21
    modes = {case["render"][0] for case in CASES if case["render"]}
    assert modes == {"rgb_array", "depth_array", "rgbd_tuple"}


def test_a_repeated_seed_replays_the_first_episode() -> None:
    """The recorded 'repeat' episodes restart episode 0 with its seed and actions: Gymnasium
    gave the same steps, so the replay above pins seeded determinism too."""
    for case in CASES:
        for episode in case["repeat"]:
            first = GOLDENS[f"{case['name']}/0/observations"]
            again = GOLDENS[f"{case['name']}/{episode}/observations"]
            assert again.tobytes() == first[: len(again)].tobytes(), case["name"]
