"""Real third-party Gymnasium packages through protogym: MiniGrid (BabyAI too) and highway-env.

Neither package was written with protogym in mind: MiniGrid brings its own space
(`MissionSpace`), highway-env Dict and continuous spaces, long episodes and pygame rendering.
Each id replays Gymnasium's own trajectory under the same seeds and actions, passes
protogym's checker without findings, and vectorises (Sync and Async) exactly as Gymnasium's
`SyncVectorEnv` does. scripts/install.sh installs both packages with ``--no-deps`` (they
require pygame-ce, which must not replace pygame).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any, cast

import gymnasium
import highway_env  # type: ignore[import-untyped]
import minigrid
import numpy as np
import pytest
from minigrid.wrappers import ImgObsWrapper

import protogym
from protogym.interop.gymnasium import ForeignSpace, from_gymnasium
from protogym.vector import AsyncVectorEnv, SyncVectorEnv
from protogym.wrappers import FilterObservation, FlattenObservation, RecordEpisodeStatistics

MINIGRID_IDS = [
    "MiniGrid-Empty-5x5-v0",
    "MiniGrid-DoorKey-5x5-v0",
    "MiniGrid-LavaGapS5-v0",
    "BabyAI-GoToRedBallGrey-v0",
]
HIGHWAY_IDS = ["parking-v0", "two-way-v0", "racetrack-v1", "merge-v1"]
PACKAGE_OF = dict.fromkeys(MINIGRID_IDS, "minigrid") | dict.fromkeys(HIGHWAY_IDS, "highway_env")
STEPS = 25


def protogym_id(gymnasium_id: str) -> str:
    return f"gymnasium:{PACKAGE_OF[gymnasium_id]}:{gymnasium_id}"


def test_the_packages_are_the_versions_this_suite_was_written_for() -> None:
    assert minigrid.__version__.startswith("3.")
    assert highway_env.__version__.startswith("1.")


def assert_same(ours: Any, theirs: Any, where: str = "") -> None:
    """Exactly equal data, nested through dicts, tuples, lists and arrays."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), where
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, tuple | list):
        assert type(ours) is type(theirs) and len(ours) == len(theirs), where
        for index, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(mine, other, f"{where}[{index}]")
    elif isinstance(theirs, np.ndarray) and theirs.dtype == object:
        assert isinstance(ours, np.ndarray) and ours.shape == theirs.shape, where
        for index, (mine, other) in enumerate(zip(ours.flat, theirs.flat, strict=True)):
            assert_same(mine, other, f"{where}[{index}]")
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray) and ours.dtype == theirs.dtype, where
        np.testing.assert_array_equal(ours, theirs, err_msg=where)
    else:
        assert type(ours) is type(theirs) and ours == theirs, (where, ours, theirs)


# highway-env's reset reports an action it samples from an action space it has just rebuilt,
# unseeded, and the reward terms of that action: two Gymnasium envs disagree there too.
UNSEEDED_RESET_INFO = ("action", "_action", "rewards", "_rewards")


def without_reset_action(result: tuple[Any, ...]) -> tuple[Any, ...]:
    """`result` with an info (last item) free of highway-env's unseeded reset entries."""
    *rest, info = result
    return (*rest, {k: v for k, v in info.items() if k not in UNSEEDED_RESET_INFO})


def actions(space: gymnasium.Space[Any], seed: int) -> Iterator[Any]:
    space.seed(seed)
    while True:
        yield space.sample()


def _made(gymnasium_id: str, **kwargs: Any) -> tuple[Any, Any]:
    """protogym's and Gymnasium's env of one id, without the out-of-date warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return (
            protogym.make(protogym_id(gymnasium_id), **kwargs),
            gymnasium.make(gymnasium_id, **kwargs),
        )


def _slow_highway(ids: list[str], fast: tuple[str, ...] = ("two-way-v0",)) -> list[Any]:
    """highway-env ids take seconds each (its simulation steps at 15 Hz or more)."""
    return [
        pytest.param(env_id, marks=pytest.mark.slow)
        if PACKAGE_OF[env_id] == "highway_env" and env_id not in fast
        else env_id
        for env_id in ids
    ]


@pytest.mark.parametrize("gymnasium_id", _slow_highway(MINIGRID_IDS + HIGHWAY_IDS))
def test_make_replays_gymnasiums_trajectory(gymnasium_id: str) -> None:
    ours, theirs = _made(gymnasium_id)
    for seed in (0, 1):
        assert_same(
            without_reset_action(ours.reset(seed=seed)),
            without_reset_action(theirs.reset(seed=seed)),
            "reset",
        )
        for step, action in zip(range(STEPS), actions(theirs.action_space, seed), strict=False):
            mine, other = ours.step(action), theirs.step(action)
            assert_same(mine, other, f"step {step}")
            if other[2] or other[3]:
                break
    ours.close()
    theirs.close()


def test_minigrids_mission_space_comes_through_as_a_foreign_space() -> None:
    ours, theirs = _made("BabyAI-GoToRedBallGrey-v0")
    mission = ours.observation_space["mission"]
    assert isinstance(mission, ForeignSpace)
    assert mission.gymnasium_space == theirs.observation_space["mission"]
    obs, _ = ours.reset(seed=3)
    assert obs["mission"] in mission and obs["mission"] == "go to the red ball"
    assert obs in ours.observation_space
    mission.seed(5)
    theirs.observation_space["mission"].seed(5)
    assert mission.sample() == theirs.observation_space["mission"].sample()


@pytest.mark.slow
@pytest.mark.parametrize("gymnasium_id", [*MINIGRID_IDS, "parking-v0", "two-way-v0", "merge-v1"])
def test_the_checker_finds_nothing_made_or_raw(gymnasium_id: str) -> None:
    ours, theirs = _made(gymnasium_id)
    for env in (ours, theirs, theirs.unwrapped):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            report = protogym.check_env(env)
        assert report.ok, report
        assert report.warnings == [], report
    ours.close()
    theirs.close()


def test_protogym_wrappers_work_over_a_foreign_space() -> None:
    ours, _ = _made("MiniGrid-Empty-5x5-v0")
    stats = RecordEpisodeStatistics(ours)
    obs, _ = stats.reset(seed=0)
    assert isinstance(obs["mission"], str)
    flat = FlattenObservation(FilterObservation(stats, ["direction", "image"]))
    obs, _ = flat.reset(seed=0)
    assert obs.shape == (4 + 7 * 7 * 3,)
    assert obs in flat.observation_space
    for _ in range(200):
        *_, terminated, truncated, info = flat.step(2)
        if terminated or truncated:
            break
    assert "episode" in info


# -- vector envs -------------------------------------------------------------------------

VECTOR_STEPS = 30


def _compare_vector(ours: Any, theirs: Any, seed: int) -> None:
    """Equal batches step by step; highway-env's unseeded reset entries are left out of the
    infos, since a sub-env that autoresets reports them (see `UNSEEDED_RESET_INFO`)."""
    try:
        assert_same(
            without_reset_action(ours.reset(seed=seed)),
            without_reset_action(theirs.reset(seed=seed)),
            "reset",
        )
        for step, action in zip(
            range(VECTOR_STEPS), actions(theirs.action_space, seed), strict=False
        ):
            mine, other = ours.step(action), theirs.step(action)
            assert_same(without_reset_action(mine), without_reset_action(other), f"step {step}")
    finally:
        ours.close()
        theirs.close()


def _gymnasium_sync(make_one: Callable[[], Any], n: int = 2) -> Any:
    return gymnasium.vector.SyncVectorEnv(
        [make_one] * n, autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP
    )


VECTOR_CASES = [
    pytest.param("MiniGrid-Empty-5x5-v0", {"max_steps": 6}, id="MiniGrid-Empty-5x5-v0"),
    pytest.param("BabyAI-GoToRedBallGrey-v0", {}, id="BabyAI-GoToRedBallGrey-v0"),
    # Episodes of 15 and 8 steps, so sub-envs autoreset within the 30 steps.
    pytest.param("two-way-v0", {}, id="two-way-v0", marks=pytest.mark.slow),
    pytest.param("parking-v0", {"config": {"duration": 8}}, id="parking-v0",
                 marks=pytest.mark.slow),
]


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize(("gymnasium_id", "kwargs"), VECTOR_CASES)
def test_make_vec_equals_gymnasiums_sync_vector_env(
    gymnasium_id: str, kwargs: dict[str, Any], mode: str
) -> None:
    vector_kwargs: dict[str, Any] = {"autoreset_mode": "next_step"}
    if mode == "async" and gymnasium_id.startswith(("MiniGrid", "BabyAI")):
        # As in Gymnasium, a custom space (the mission) has no shared-memory layout.
        vector_kwargs["shared_memory"] = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        ours = protogym.make_vec(
            protogym_id(gymnasium_id),
            2,
            vectorization_mode=mode,  # type: ignore[call-overload]
            vector_kwargs=vector_kwargs,
            **kwargs,
        )
    assert isinstance(ours, SyncVectorEnv if mode == "sync" else AsyncVectorEnv)
    _compare_vector(ours, _gymnasium_sync(lambda: gymnasium.make(gymnasium_id, **kwargs)), 7)


def _image_only() -> Any:
    return ImgObsWrapper(  # type: ignore[no-untyped-call]
        gymnasium.make("MiniGrid-Empty-5x5-v0", max_steps=6)
    )


@pytest.mark.parametrize("vector", [SyncVectorEnv, AsyncVectorEnv], ids=["sync", "async"])
def test_vector_envs_over_a_space_changing_gymnasium_wrapper_equal_gymnasiums(
    vector: Any,
) -> None:
    ours = vector(
        [lambda: from_gymnasium(_image_only())] * 2, autoreset_mode="next_step"
    )
    [space, _] = ours.get_attr("observation_space")
    assert isinstance(space, protogym.spaces.Box) and space.shape == (7, 7, 3)
    _compare_vector(ours, _gymnasium_sync(_image_only), 11)


def test_highway_renders_with_plain_pygame() -> None:
    import pygame

    assert "pygame-ce" not in pygame.version.ver and not getattr(pygame, "IS_CE", False)
    ours, theirs = _made("two-way-v0", render_mode="rgb_array")
    ours.reset(seed=2)
    theirs.reset(seed=2)
    frame = ours.render()
    assert isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.dtype == np.uint8
    np.testing.assert_array_equal(frame, theirs.render())
    ours.close()
    theirs.close()


def test_get_attr_reaches_the_highway_config_and_set_attr_changes_it() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        envs = protogym.make_vec("gymnasium:highway_env:merge-v1", 2)
    try:
        configs = envs.get_attr("config")
        assert configs[0]["observation"]["type"] == "Kinematics"
        envs.set_attr("config", [{**configs[0], "policy_frequency": 2}, configs[1]])
        assert [config["policy_frequency"] for config in envs.get_attr("config")] == [
            2,
            configs[1]["policy_frequency"],
        ]
        raw = cast(Any, envs.envs[0]).unwrapped.gymnasium_env.unwrapped
        assert raw.config["policy_frequency"] == 2
    finally:
        envs.close()


@pytest.mark.parametrize(
    "env_id",
    [
        "gymnasium:minigrid:MiniGrid-Empty-5x5-v0",
        "gymnasium:minigrid:BabyAI-GoToRedBallGrey-v0",
        pytest.param("gymnasium:highway_env:two-way-v0", marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("vector", [[], ["--vector", "2"]], ids=["env", "vector"])
def test_protogym_check_passes_them(
    env_id: str, vector: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from protogym.cli import main

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        code = main(["check", env_id, *vector, "--plain"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "PASS" in out and "0 error(s), 0 warning(s)" in out
