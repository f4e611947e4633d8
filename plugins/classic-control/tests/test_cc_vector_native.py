"""Native vector classic control: every sub-env follows its single-env twin exactly.

Each case steps a native vector env beside a `SyncVectorEnv` of single envs made by
`protogym.make` (and an `AsyncVectorEnv` for CartPole) under the same seeds and random
actions, through episode ends, in every autoreset mode, and compares bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from protogym_classic_control.vector.acrobot import AcrobotVectorEnv
from protogym_classic_control.vector.cartpole import CartPoleVectorEnv
from protogym_classic_control.vector.continuous_mountain_car import (
    ContinuousMountainCarVectorEnv,
)
from protogym_classic_control.vector.mountain_car import MountainCarVectorEnv
from protogym_classic_control.vector.pendulum import PendulumVectorEnv

import protogym
from protogym.error import ClosedEnvironmentError, ResetNeeded
from protogym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv

NUM_ENVS = 3

Case = tuple[str, Callable[..., Any], int, Callable[[np.random.Generator], Any]]


def discrete(n: int) -> Callable[[np.random.Generator], Any]:
    return lambda rng: rng.integers(0, n, size=NUM_ENVS)


def torque(dtype: Any, scale: float) -> Callable[[np.random.Generator], Any]:
    return lambda rng: (rng.uniform(-scale, scale, size=(NUM_ENVS, 1))).astype(dtype)


CASES: list[Case] = [
    ("CartPole-v1", CartPoleVectorEnv, 500, discrete(2)),
    ("MountainCar-v0", MountainCarVectorEnv, 25, discrete(3)),
    ("MountainCarContinuous-v0", ContinuousMountainCarVectorEnv, 25, torque(np.float32, 1.5)),
    ("Pendulum-v1", PendulumVectorEnv, 20, torque(np.float32, 3.0)),
    ("Acrobot-v1", AcrobotVectorEnv, 15, discrete(3)),
]


def assert_same_step(a: Any, b: Any, step: int) -> None:
    for name, x, y in zip(("obs", "reward", "terminated", "truncated"), a[:4], b[:4], strict=True):
        np.testing.assert_array_equal(x, y, err_msg=f"{name} differs at step {step}")
    infos_a, infos_b = a[4], b[4]
    assert infos_a.keys() == infos_b.keys(), step
    if "final_obs" in infos_a:
        for key in ("_final_obs", "final_info", "_final_info"):
            np.testing.assert_equal(infos_a[key], infos_b[key], err_msg=f"{key} at step {step}")
        # Gymnasium's layout: an object array, each ended sub-env's last observation
        ended = infos_a["_final_obs"]
        for row, (x, y) in enumerate(zip(infos_a["final_obs"], infos_b["final_obs"], strict=True)):
            if ended[row]:
                np.testing.assert_array_equal(x, y, err_msg=f"final_obs[{row}] at step {step}")
                assert x.dtype == y.dtype == np.float32
            else:
                assert x is None and y is None, step


def run_pair(
    native: Any,
    reference: Any,
    actions: Callable[[np.random.Generator], Any],
    steps: int,
    seed: int | None,
) -> int:
    """Step both in lockstep; return how many episode ends were crossed."""
    rng = np.random.default_rng(seed)
    obs_a, _ = native.reset(seed=seed)
    obs_b, _ = reference.reset(seed=seed)
    np.testing.assert_array_equal(obs_a, obs_b)
    ends = 0
    for step in range(steps):
        batch = actions(rng)
        a = native.step(batch)
        b = reference.step(batch)
        assert_same_step(a, b, step)
        ends += int(np.sum(a[2] | a[3]))
    return ends


@pytest.mark.filterwarnings("ignore:CartPoleEnv.step.. was called after:UserWarning")
@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize(
    ("env_id", "vector_cls", "limit", "actions"), CASES, ids=[case[0] for case in CASES]
)
def test_native_matches_sync_of_single_envs(
    env_id: str,
    vector_cls: Callable[..., Any],
    limit: int,
    actions: Callable[[np.random.Generator], Any],
    mode: AutoresetMode,
) -> None:
    native = vector_cls(NUM_ENVS, max_episode_steps=limit, autoreset_mode=mode)
    reference = SyncVectorEnv(
        [lambda: protogym.make(env_id, max_episode_steps=limit, disable_env_checker=True)]
        * NUM_ENVS,
        autoreset_mode=mode,
    )
    assert isinstance(native, VectorEnv)
    assert native.autoreset_mode is mode
    assert native.single_observation_space == reference.single_observation_space
    assert native.single_action_space == reference.single_action_space
    steps = 60 if mode is not AutoresetMode.DISABLED else 30
    ends = run_pair(native, reference, actions, steps, seed=7)
    assert ends > 0  # the comparison crossed episode boundaries
    native.close()
    reference.close()


def test_native_sync_and_async_cartpole_are_one_trajectory() -> None:
    fns = [lambda: protogym.make("CartPole-v1")] * 4
    native = CartPoleVectorEnv(4)
    sync = SyncVectorEnv(fns)
    parallel = AsyncVectorEnv(fns, num_workers=2)
    try:
        rng = np.random.default_rng(11)
        results = [env.reset(seed=123)[0] for env in (native, sync, parallel)]
        for step in range(80):
            batch = rng.integers(0, 2, size=4)
            a, b, c = (env.step(batch) for env in (native, sync, parallel))
            assert_same_step(a, b, step)
            assert_same_step(a, c, step)
        np.testing.assert_array_equal(results[0], results[2])
    finally:
        parallel.close()


def test_cartpole_options_and_rewards_variants_match_the_single_env() -> None:
    native = CartPoleVectorEnv(2, sutton_barto_reward=True)
    reference = SyncVectorEnv([lambda: protogym.make("CartPole-v1", sutton_barto_reward=True)] * 2)
    obs_a, _ = native.reset(seed=3, options={"low": -0.2, "high": 0.2})
    obs_b, _ = reference.reset(seed=3, options={"low": -0.2, "high": 0.2})
    np.testing.assert_array_equal(obs_a, obs_b)
    rng = np.random.default_rng(0)
    for step in range(40):
        batch = rng.integers(0, 2, size=2)
        assert_same_step(native.step(batch), reference.step(batch), step)
    semi = CartPoleVectorEnv(2)
    semi.kinematics_integrator = "semi-implicit euler"
    single = protogym.make("CartPole-v1")
    inner: Any = single.unwrapped
    inner.kinematics_integrator = "semi-implicit euler"
    obs, _ = semi.reset(seed=9)
    np.testing.assert_array_equal(obs[0], single.reset(seed=9)[0])
    for step in range(10):
        if step == 5:  # physical constants changed mid-run take effect at once
            semi.gravity = inner.gravity = 3.5
            semi.force_mag = inner.force_mag = 4.0
        obs, _, terminated, _, _ = semi.step(np.array([step % 2, 0]))
        assert not terminated[0]
        np.testing.assert_array_equal(obs[0], single.step(step % 2)[0])


def test_pendulum_float64_torques_and_acrobot_noise_match() -> None:
    native = PendulumVectorEnv(NUM_ENVS, max_episode_steps=10)
    reference = SyncVectorEnv(
        [lambda: protogym.make("Pendulum-v1", max_episode_steps=10, disable_env_checker=True)] * 3
    )
    run_pair(native, reference, torque(np.float64, 2.5), 25, seed=2)

    noisy = AcrobotVectorEnv(NUM_ENVS, max_episode_steps=6, torque_noise_max=0.3)

    def noisy_single() -> Any:
        env = protogym.make("Acrobot-v1", max_episode_steps=6)
        env.unwrapped.torque_noise_max = 0.3
        return env

    reference = SyncVectorEnv([noisy_single] * NUM_ENVS)
    assert run_pair(noisy, reference, discrete(3), 20, seed=5) > 0


# Batches large enough that `squares` finds the squares to redo instead of taking them one
# by one, with float32 and float64 actions beyond the bounds.
LARGE = [
    ("Pendulum-v1", PendulumVectorEnv, 70, np.float32),
    ("Pendulum-v1", PendulumVectorEnv, 70, np.float64),
    ("Acrobot-v1", AcrobotVectorEnv, 50, None),
    ("MountainCarContinuous-v0", ContinuousMountainCarVectorEnv, 140, np.float32),
    ("MountainCarContinuous-v0", ContinuousMountainCarVectorEnv, 140, np.float64),
]


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize(
    ("env_id", "vector_cls", "num_envs", "dtype"), LARGE, ids=[f"{c[0]}-{c[3]}" for c in LARGE]
)
def test_large_batches_match_the_single_envs(
    env_id: str, vector_cls: Callable[..., Any], num_envs: int, dtype: Any, mode: AutoresetMode
) -> None:
    limit = 15
    native = vector_cls(num_envs, max_episode_steps=limit, autoreset_mode=mode)
    reference = SyncVectorEnv(
        [lambda: protogym.make(env_id, max_episode_steps=limit, disable_env_checker=True)]
        * num_envs,
        autoreset_mode=mode,
    )
    rng = np.random.default_rng(8)
    obs_a, _ = native.reset(seed=8)
    obs_b, _ = reference.reset(seed=8)
    np.testing.assert_array_equal(obs_a, obs_b)
    for step in range(40):
        if dtype is None:
            batch = rng.integers(0, 3, size=num_envs)
        else:
            high = float(native.single_action_space.high[0])
            batch = rng.uniform(-1.2 * high, 1.2 * high, size=(num_envs, 1)).astype(dtype)
        a, b = native.step(batch), reference.step(batch)
        assert_same_step(a, b, step)
        assert a[1].tobytes() == b[1].tobytes()  # rewards bit for bit, -0.0 included
        if mode is AutoresetMode.DISABLED and (a[2] | a[3]).any():
            ended = a[2] | a[3]
            np.testing.assert_array_equal(
                native.reset(options={"reset_mask": ended})[0],
                reference.reset(options={"reset_mask": ended})[0],
            )


@pytest.mark.parametrize("num_envs", [1, 40])
def test_pendulum_squares_a_torque_powf_misrounds_as_the_single_env(num_envs: int) -> None:
    """-1.7246858: glibc's powf rounds its square up, which Gymnasium's reward (and the single
    env's) keeps; one sub-env takes the one-by-one path, forty the batch path."""
    torque = np.array([0xBFDCC281], dtype=np.uint32).view(np.float32)[0]
    native = PendulumVectorEnv(num_envs)
    reference = SyncVectorEnv([lambda: protogym.make("Pendulum-v1")] * num_envs)
    native.reset(seed=3)
    reference.reset(seed=3)
    batch = np.full((num_envs, 1), torque, dtype=np.float32)
    for step in range(3):
        rewards, expected = native.step(batch)[1], reference.step(batch)[1]
        assert rewards.tobytes() == expected.tobytes(), step


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.parametrize("num_envs", [2, 100])
def test_pendulum_overflowing_squares_are_inf_as_in_the_single_env(num_envs: int) -> None:
    native = PendulumVectorEnv(num_envs)
    reference = SyncVectorEnv([lambda: protogym.make("Pendulum-v1")] * num_envs)
    options = {"y_init": 1e200}
    native.reset(seed=1, options=options)
    reference.reset(seed=1, options=options)
    rewards = []
    for dtype in (np.float64, np.float32):
        batch = np.full((num_envs, 1), 0.5, dtype=dtype)
        a, b = native.step(batch), reference.step(batch)
        assert a[1].tobytes() == b[1].tobytes()
        rewards.append(a[1])
    assert np.isneginf(rewards[0]).all() and np.isfinite(rewards[1]).all()


def test_reset_mask_resets_only_the_chosen_sub_envs() -> None:
    env = CartPoleVectorEnv(3, autoreset_mode="disabled")
    env.reset(seed=0)
    moved, *_ = env.step(np.array([1, 1, 1]))
    obs, _ = env.reset(options={"reset_mask": np.array([False, True, False])})
    np.testing.assert_array_equal(obs[[0, 2]], moved[[0, 2]])
    assert not np.array_equal(obs[1], moved[1])


def test_bad_actions_and_misuse_are_clear_errors() -> None:
    env = CartPoleVectorEnv(2)
    with pytest.raises(ResetNeeded, match=r"call env\.reset"):
        env.step(np.array([0, 1]))
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"int array of shape \(2,\) with values 0 or 1"):
        env.step(np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match=r"actions outside \{0, 1\}"):
        env.step(np.array([0, -1]))
    with pytest.raises(ValueError, match=r"actions outside \{0, 1\}"):
        env.step(np.array([2, 1]))
    pendulum = PendulumVectorEnv(1)
    pendulum.reset(seed=0)
    with pytest.raises(ValueError, match="NaN"):
        pendulum.step(np.array([[np.nan]], dtype=np.float32))
    with pytest.raises(ValueError, match=r"float array of shape \(1, 1\)"):
        pendulum.step(np.array([0.5]))
    with pytest.raises(ValueError, match="num_envs to be a positive int, got 0"):
        CartPoleVectorEnv(0)
    with pytest.raises(ValueError, match="render_mode 'rgb_array' or None, got 'human'"):
        CartPoleVectorEnv(1, render_mode="human")
    with pytest.raises(ValueError, match="first reset of CartPoleVectorEnv must reset every"):
        CartPoleVectorEnv(2).reset(options={"reset_mask": np.array([True, False])})
    env.close()
    env.close()
    with pytest.raises(ClosedEnvironmentError, match="is closed"):
        env.step(np.array([0, 1]))


def test_render_draws_one_frame_per_sub_env_like_the_single_env() -> None:
    env = CartPoleVectorEnv(2, render_mode="rgb_array")
    env.reset(seed=4)
    frames = env.render()
    assert frames is not None and len(frames) == 2
    single = protogym.make("CartPole-v1", render_mode="rgb_array")
    single.reset(seed=5)
    np.testing.assert_array_equal(frames[1], single.render())
    assert CartPoleVectorEnv(1).render() is None
    env.close()


def test_seeding_matches_sync_for_lists_none_and_repeated_resets() -> None:
    native = CartPoleVectorEnv(2)
    reference = SyncVectorEnv([lambda: protogym.make("CartPole-v1")] * 2)
    obs_a, _ = native.reset(seed=[5, 9])
    obs_b, _ = reference.reset(seed=[5, 9])
    np.testing.assert_array_equal(obs_a, obs_b)
    assert native.np_random_seeds == (5, 9)
    for _ in range(3):  # no seed: each sub-env's stream continues
        np.testing.assert_array_equal(native.reset()[0], reference.reset()[0])
    unseeded = CartPoleVectorEnv(3)
    first, _ = unseeded.reset()
    assert len(set(unseeded.np_random_seeds)) == 3  # fresh entropy per sub-env
    assert first.shape == (3, 4)


@pytest.mark.parametrize("kernel", ["numba", "numpy"])
@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
@pytest.mark.parametrize("blocks", [1, 2, 5])
def test_drawing_ahead_in_any_block_size_keeps_each_stream(
    blocks: int, mode: AutoresetMode, kernel: Any
) -> None:
    # next-step with numba restarts sub-envs inside the compiled kernel, which asks for
    # new blocks when a restarting sub-env reaches its sentinel
    class Buffered(CartPoleVectorEnv[Any]):
        buffered_resets = blocks

    # many resets: every block is used up often
    native = Buffered(3, max_episode_steps=4, autoreset_mode=mode, kernel=kernel)
    reference = SyncVectorEnv(
        [lambda: protogym.make("CartPole-v1", max_episode_steps=4)] * 3, autoreset_mode=mode
    )
    assert run_pair(native, reference, discrete(2), 40, seed=17) >= 24
    obs_a, _ = native.reset(seed=[1, None, 3])  # reseeding drops the old stream's draws
    obs_b, _ = reference.reset(seed=[1, None, 3])
    np.testing.assert_array_equal(obs_a, obs_b)
    assert run_pair(native, reference, discrete(2), 12, seed=None) >= 6
