"""CartPole's same-step autoreset at large batches: every output and the info layout, bit for bit.

With numba, a compiled pass after the physics does the same-step bookkeeping (time limits,
restarts from each sub-env's stream, final observations) that `ClassicVectorEnv.step` does
in numpy calls otherwise. These tests step both paths, and the single envs, through
thousands of autoresets and compare every bit, including the layout of the infos.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from protogym_classic_control.vector._base import ClassicVectorEnv
from protogym_classic_control.vector.cartpole import CartPoleVectorEnv

import protogym
from protogym.vector import AutoresetMode, SyncVectorEnv

INFO_KEYS = {"final_obs", "_final_obs", "final_info", "_final_info"}


def assert_same_outputs(ours: Any, theirs: Any, step: int) -> int:
    """Compare two same-step results bit for bit, infos included; return how many ended."""
    names = ("obs", "reward", "terminated", "truncated")
    for name, a, b in zip(names, ours[:4], theirs[:4], strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape, f"{name} at step {step}"
        assert a.tobytes() == b.tobytes(), f"{name} differs at step {step}"
    info, reference = ours[4], theirs[4]
    assert info.keys() == reference.keys(), step
    ended = ours[2] | ours[3]
    if not ended.any():
        assert info == {}, step
        return 0
    assert info.keys() == INFO_KEYS
    final_obs = info["final_obs"]
    assert final_obs.dtype == object and final_obs.shape == ended.shape
    for key in ("_final_obs", "_final_info"):
        assert info[key].dtype == np.bool_
        np.testing.assert_array_equal(info[key], ended, err_msg=f"{key} at step {step}")
    assert info["_final_obs"] is not info["_final_info"]
    assert info["final_info"] == reference["final_info"] == {}
    for row, (mine, theirs_row) in enumerate(zip(final_obs, reference["final_obs"], strict=True)):
        if ended[row]:
            assert mine.dtype == np.float32 and mine.shape == (4,), (row, step)
            assert mine.tobytes() == theirs_row.tobytes(), f"final_obs[{row}] at step {step}"
        else:
            assert mine is None and theirs_row is None, (row, step)
    return int(ended.sum())


class BaseClassSameStep(CartPoleVectorEnv[Any]):
    """The numba physics with `ClassicVectorEnv.step`'s numpy bookkeeping."""

    def step(self, actions: Any) -> Any:
        return ClassicVectorEnv.step(self, actions)


@pytest.mark.parametrize(("limit", "sutton_barto"), [(500, False), (9, True), (None, False)])
def test_compiled_same_step_matches_the_base_class_path_at_thousands_of_sub_envs(
    limit: int | None, sutton_barto: bool
) -> None:
    num_envs = 4096
    kwargs: dict[str, Any] = {
        "max_episode_steps": limit, "sutton_barto_reward": sutton_barto,
        "autoreset_mode": AutoresetMode.SAME_STEP,
    }
    compiled = CartPoleVectorEnv(num_envs, kernel="numba", **kwargs)
    envs = [compiled, BaseClassSameStep(num_envs, kernel="numba", **kwargs),
            CartPoleVectorEnv(num_envs, kernel="numpy", **kwargs)]
    assert compiled._compiled_same_step is not None
    assert all(env._compiled_same_step is None for env in envs[2:])
    first = [env.reset(seed=11)[0] for env in envs]
    assert all(obs.tobytes() == first[0].tobytes() for obs in first)
    rng = np.random.default_rng(3)
    ends = 0
    for step in range(160):
        if step == 80:  # a masked reset in between draws from the same streams
            mask = rng.random(num_envs) < 0.3
            again = [env.reset(options={"reset_mask": mask})[0] for env in envs]
            assert all(obs.tobytes() == again[0].tobytes() for obs in again)
        batch = rng.integers(0, 2, size=num_envs)
        ours, *theirs = (env.step(batch) for env in envs)
        for other in theirs:
            ends += assert_same_outputs(ours, other, step)
    # random pushes end an episode about every 20 steps: ~8 restarts per sub-env
    assert ends >= 2 * 6 * num_envs


@pytest.mark.parametrize("kernel", ["numba", "numpy"])
def test_same_step_follows_the_single_envs_through_many_autoresets(kernel: Any) -> None:
    """256 sub-envs, 200 steps, a 20-step time limit: ~12 restarts each, both end kinds."""
    num_envs, limit = 256, 20
    native = CartPoleVectorEnv(num_envs, max_episode_steps=limit, kernel=kernel)
    assert native.autoreset_mode is AutoresetMode.SAME_STEP  # the default
    reference = SyncVectorEnv(
        [lambda: protogym.make("CartPole-v1", max_episode_steps=limit, disable_env_checker=True)]
        * num_envs,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    obs, _ = native.reset(seed=40)
    assert obs.tobytes() == reference.reset(seed=40)[0].tobytes()
    rng = np.random.default_rng(6)
    terminations = truncations = 0
    for step in range(200):
        batch = rng.integers(0, 2, size=num_envs)
        ours, theirs = native.step(batch), reference.step(batch)
        assert_same_outputs(ours, theirs, step)
        terminations += int(ours[2].sum())
        truncations += int(ours[3].sum())
    assert terminations >= 5 * num_envs and truncations >= 5 * num_envs


@pytest.mark.parametrize("kernel", ["numba", "numpy"])
def test_final_observations_stay_as_returned_after_later_steps(kernel: Any) -> None:
    # the compiled pass writes final observations into a buffer it reuses every step; the
    # arrays handed out must not change with it
    env = CartPoleVectorEnv(64, max_episode_steps=5, kernel=kernel)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    kept: list[tuple[np.ndarray[Any, Any], bytes]] = []
    for _ in range(30):
        info = env.step(rng.integers(0, 2, size=64))[4]
        if info:
            kept += [(obs, obs.tobytes()) for obs in info["final_obs"] if obs is not None]
    assert len(kept) >= 64 * 5
    assert all(obs.tobytes() == saved for obs, saved in kept)
