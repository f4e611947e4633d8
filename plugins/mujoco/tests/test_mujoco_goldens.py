"""protogym's MuJoCo envs against Gymnasium 1.4.0's on mujoco 4.0.0, to the bit, live.

Each recorded case (goldens/record_mujoco.py) is played twice in this process, by protogym's
env and by Gymnasium's, with the recorded seeds and actions: observations, rewards, flags,
reset and step infos, the type of every value, and frames must be the same bits. The claim is
measured live because some values pass through BLAS (`np.linalg.norm` is a dot product) or
numpy's processor-dispatched kernels, whose last bit depends on the kernel the processor (or
OPENBLAS_CORETYPE / NPY_DISABLE_CPU_FEATURES) selects: both libraries get the same kernel
here, a recording only had the recorder's. The recording stays as a regression record,
compared within RECORDING_ULPS; what no kernel touches (flags, keys, types, frames) exactly.
"""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import protogym

# Read every array once: an npz file decompresses an array on each look-up.
with np.load(Path(__file__).parent / "goldens" / "mujoco.npz") as _archive:
    GOLDENS: dict[str, np.ndarray] = {key: _archive[key] for key in _archive.files}
CASES: list[dict[str, Any]] = json.loads(str(GOLDENS["cases"]))

RECORDING_ULPS = 2
"""How far a value may sit from the recording, in units in the last place. A norm (a BLAS dot
product, then a square root) rounds differently per BLAS kernel: one ulp at most between the
recorder's AVX-512 kernel and the Haswell, Sandybridge and Nehalem ones (OPENBLAS_CORETYPE),
and a reward that adds such a norm to other terms of its sign may round that ulp into one
more of its own. The live comparison with Gymnasium is the exact one."""


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


def _same_bits(ours: Any, theirs: Any, where: str) -> None:
    mine, reference = np.asarray(ours), np.asarray(theirs)
    assert mine.dtype == reference.dtype, f"{where}: dtype {mine.dtype} != {reference.dtype}"
    assert mine.shape == reference.shape, f"{where}: shape {mine.shape} != {reference.shape}"
    assert mine.tobytes() == reference.tobytes(), f"{where}: {mine!r} != {reference!r}"


def _near_recording(ours: Any, golden: np.ndarray, where: str) -> None:
    mine = np.asarray(ours, dtype=np.float64)
    assert mine.shape == golden.shape, f"{where}: shape {mine.shape} != {golden.shape}"
    try:
        np.testing.assert_array_max_ulp(mine, golden, maxulp=RECORDING_ULPS)
    except AssertionError as error:
        raise AssertionError(f"{where}: further than the recording allows: {error}") from None


def _actions(golden: np.ndarray, kind: str) -> list[Any]:
    if kind == "float32":
        return list(golden.astype(np.float32))
    if kind == "float64":
        return list(golden)
    return [row.tolist() for row in golden]


def _make(library: Any, case: dict[str, Any]) -> Any:
    kwargs = _restored(case["kwargs"])
    render = case["render"]
    if render is not None:
        kwargs.update(render_mode=render[0], **_restored(render[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the v4 ids are out of date
        return library.make(case["id"], **kwargs)


@contextlib.contextmanager
def _pair(case: dict[str, Any]) -> Iterator[tuple[Any, Any]]:
    """protogym's env and Gymnasium's for one case, closed afterwards."""
    ours, theirs = _make(protogym, case), _make(gymnasium, case)
    try:
        yield ours, theirs
    finally:
        ours.close()
        theirs.close()


def _compare_values(ours: dict[str, Any], theirs: dict[str, Any], where: str) -> None:
    assert list(ours) == list(theirs), f"{where}: keys {list(ours)} != {list(theirs)}"
    for key, value in ours.items():
        reference = theirs[key]
        assert type(value) is type(reference), f"{where}: {key} is a {type(value).__name__}"
        _same_bits(value, reference, f"{where}: {key}")


def _compare_frames(ours: Any, theirs: Any, goldens: Iterator[np.ndarray] | None,
                    depths: Iterator[np.ndarray] | None, where: str) -> None:
    """A frame is an RGB array, a depth array or an (RGB, depth) pair: the same bits as
    Gymnasium's now and as the recorded ones (Mesa's software rasterizer draws the same pixels
    at 128-, 256- and 512-bit vector widths: test_kernels.py runs these tests under others)."""
    pairs = zip(ours, theirs, strict=True) if isinstance(ours, tuple) else [(ours, theirs)]
    for index, (mine, reference) in enumerate(pairs):
        _same_bits(mine, reference, f"{where}: frame part {index}")
    if goldens is None:
        return
    if depths is not None:
        rgb, depth = ours
        _same_bits(rgb, next(goldens), f"{where}: recorded frame")
        _same_bits(depth, next(depths), f"{where}: recorded depth")
    else:
        _same_bits(ours, next(goldens), f"{where}: recorded frame")


def _replay(case: dict[str, Any], ours: Any, theirs: Any) -> None:
    """Play the case's episodes in both envs, comparing each step live and to the recording."""
    frame_steps = list(case["render"][2]) if case["render"] else []
    for episode, meta in enumerate(case["episodes"]):
        golden = f"{case['name']}/{episode}/"
        obs, info = ours.reset(seed=meta["seed"])
        their_obs, their_info = theirs.reset(seed=meta["seed"])
        _same_bits(obs, their_obs, f"episode {episode} reset")
        assert obs.dtype == np.float64
        _near_recording(obs, GOLDENS[golden + "observations"][0], f"episode {episode} reset")
        _compare_values(info, their_info, f"episode {episode} reset info")
        assert list(info) == meta["reset_info_keys"]
        for key, value in info.items():
            assert type(value).__name__ == meta["reset_info_types"][key], key
            _near_recording(value, GOLDENS[f"{golden}reset_info.{key}"], f"reset info {key}")
        rendering = episode == 0 and bool(frame_steps)
        frames = iter(GOLDENS[golden + "frames"]) if rendering else None
        depths = iter(GOLDENS[golden + "depths"]) if f"{golden}depths" in GOLDENS else None
        if rendering and -1 in frame_steps:
            _compare_frames(ours.render(), theirs.render(), frames, depths, "after reset")
        reward_types = _types(meta["reward_types"])
        info_types = {key: _types(runs) for key, runs in meta["info_types"].items()}
        actions = _actions(GOLDENS[golden + "actions"], case["action_kind"])
        assert len(actions) == meta["steps"]
        for step, action in enumerate(actions):
            where = f"episode {episode}, step {step}"
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the passive checkers note wild actions
                obs, reward, terminated, truncated, info = ours.step(action)
                their_step = theirs.step(action)
            their_obs, their_reward, their_terminated, their_truncated, their_info = their_step
            _same_bits(obs, their_obs, f"{where}: obs")
            assert type(reward) is type(their_reward), f"{where}: reward type"
            _same_bits(reward, their_reward, f"{where}: reward")
            assert (terminated, truncated) == (their_terminated, their_truncated), where
            _compare_values(info, their_info, f"{where}: info")
            _near_recording(obs, GOLDENS[golden + "observations"][step + 1], f"{where}: obs")
            assert type(reward).__name__ == reward_types[step], where
            _near_recording(reward, GOLDENS[golden + "rewards"][step], f"{where}: reward")
            assert terminated is bool(GOLDENS[golden + "terminated"][step]), where
            assert truncated is bool(GOLDENS[golden + "truncated"][step]), where
            assert list(info) == meta["info_keys"], where
            for key, value in info.items():
                assert type(value).__name__ == info_types[key][step], f"{where}: {key}"
                _near_recording(value, GOLDENS[f"{golden}info.{key}"][step], f"{where}: {key}")
            if rendering and step in frame_steps:
                _compare_frames(ours.render(), theirs.render(), frames, depths, where)
        if frames is not None:
            assert next(frames, None) is None, "a golden frame was not compared"


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_trajectories_infos_and_frames_match_gymnasiums_to_the_bit(case: dict[str, Any]) -> None:
    with _pair(case) as (ours, theirs):
        _replay(case, ours, theirs)


def _flip_last_bit(value: Any) -> Any:
    """The same value with the lowest bit of its first element flipped, in the same type."""
    array = np.array(value)
    flat = array.reshape(-1).view(np.dtype(f"u{array.dtype.itemsize}"))
    flat[0] ^= 1
    if isinstance(value, np.ndarray):
        return array
    return type(value)(array[()])


class _OneBitOff(protogym.Wrapper[Any, Any, Any, Any]):
    """Flips one bit of one value that the env gives at its second step (or reset/render)."""

    def __init__(self, env: Any, target: str) -> None:
        super().__init__(env)
        self._target = target
        self._steps = 0

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        return (_flip_last_bit(obs) if self._target == "reset obs" else obs), info

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._steps += 1
        if self._steps == 2:
            if self._target == "obs":
                obs = _flip_last_bit(obs)
            elif self._target == "reward":
                reward = _flip_last_bit(reward)
            elif self._target.startswith("info "):
                key = self._target.removeprefix("info ")
                info = {**info, key: _flip_last_bit(info[key])}
        return obs, reward, terminated, truncated, info

    def render(self) -> Any:
        frame = self.env.render()
        if self._target.startswith("frame "):
            flipped = int(self._target.removeprefix("frame "))
            return tuple(
                _flip_last_bit(part) if index == flipped else part
                for index, part in enumerate(frame)
            )
        return frame


_MUTATED_CASE = next(case for case in CASES if case["name"] == "Pusher-v5")
_RENDERED_CASE = next(case for case in CASES if (case["render"] or [None])[0] == "rgbd_tuple")
_MUTATED_TARGETS = ["reset obs", "obs", "reward"] + [
    f"info {key}" for key in _MUTATED_CASE["episodes"][0]["info_keys"]
]


@pytest.mark.parametrize("target", _MUTATED_TARGETS)
def test_a_one_bit_change_of_any_value_fails(target: str) -> None:
    """Pusher-v5's values include norms, the ones the recording tolerates a few ulps of:
    live, one bit is one too many."""
    with (
        _pair(_MUTATED_CASE) as (ours, theirs),
        pytest.raises(AssertionError, match=r"episode 0 reset|episode 0, step 1"),
    ):
        _replay(_MUTATED_CASE, _OneBitOff(ours, target), theirs)


@pytest.mark.parametrize("part", [0, 1], ids=["rgb", "depth"])
def test_a_one_bit_change_of_a_frame_fails(part: int) -> None:
    with (
        _pair(_RENDERED_CASE) as (ours, theirs),
        pytest.raises(AssertionError, match=f"frame part {part}"),
    ):
        _replay(_RENDERED_CASE, _OneBitOff(ours, f"frame {part}"), theirs)


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
