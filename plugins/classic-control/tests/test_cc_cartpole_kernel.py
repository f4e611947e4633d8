"""The two kernels of the native vector CartPole: numba's compiled loop and numpy's passes.

Both must give the single env's bits; the property test feeds them states no episode
reaches (huge angles, infinities, NaN) and other physical constants, where a reordered or
fused operation would show.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protogym_classic_control.vector import cartpole_kernel
from protogym_classic_control.vector.cartpole import CartPoleVectorEnv
from protogym_classic_control.vector.cartpole_kernel import Kernel

import protogym
from protogym.vector import AutoresetMode, SyncVectorEnv

KERNELS: list[Kernel] = ["numba", "numpy"]

any_float = st.floats(allow_nan=True, allow_infinity=True, width=64)
state_values = st.one_of(st.floats(-3.0, 3.0), st.floats(-1e6, 1e6), any_float)


@pytest.mark.filterwarnings("ignore:CartPoleEnv.step.. was called after:UserWarning")
@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("kernel", KERNELS)
def test_each_kernel_follows_the_single_env(kernel: Any, mode: AutoresetMode) -> None:
    native = CartPoleVectorEnv(4, max_episode_steps=40, autoreset_mode=mode, kernel=kernel)
    assert native.kernel == kernel
    reference = SyncVectorEnv(
        [lambda: protogym.make("CartPole-v1", max_episode_steps=40, disable_env_checker=True)]
        * 4,
        autoreset_mode=mode,
    )
    rng = np.random.default_rng(1)
    np.testing.assert_array_equal(native.reset(seed=21)[0], reference.reset(seed=21)[0])
    ends = 0
    for step in range(90):
        batch: Any = rng.integers(0, 2, size=4).astype(np.int8 if step % 2 else np.uint64)
        ours, theirs = native.step(batch), reference.step(batch)
        names = ("obs", "reward", "terminated", "truncated")
        for name, a, b in zip(names, ours[:4], theirs[:4], strict=True):
            np.testing.assert_array_equal(a, b, err_msg=f"{name} at step {step}")
        ours_info, theirs_info = ours[4], theirs[4]
        assert ours_info.keys() == theirs_info.keys()
        if "final_obs" in ours_info:
            for key in ("_final_obs", "_final_info"):
                np.testing.assert_array_equal(
                    ours_info[key], theirs_info[key], err_msg=f"{key} at step {step}"
                )
            for row in np.flatnonzero(ours_info["_final_obs"]).tolist():
                mine, reference_final = ours_info["final_obs"][row], theirs_info["final_obs"][row]
                np.testing.assert_array_equal(mine, reference_final, err_msg=f"step {step}")
                assert mine.dtype == np.float32
            assert ours_info["final_info"] == theirs_info["final_info"] == {}
        ends += int(np.sum(ours[2] | ours[3]))
    assert ends >= 4


@settings(max_examples=60, deadline=None)
@given(
    states=st.lists(st.tuples(*[state_values] * 4), min_size=1, max_size=6),
    actions=st.data(),
    gravity=st.floats(-20.0, 20.0),
    force_mag=st.floats(0.0, 50.0),
    length=st.floats(0.01, 5.0),
    euler=st.booleans(),
)
def test_numba_and_numpy_kernels_agree_bit_for_bit_on_any_state(
    states: list[tuple[float, float, float, float]],
    actions: st.DataObject,
    gravity: float,
    force_mag: float,
    length: float,
    euler: bool,
) -> None:
    count = len(states)
    batch = np.array(actions.draw(st.lists(st.sampled_from([0, 1]), min_size=count,
                                           max_size=count)))
    results = []
    for kernel in KERNELS:
        env = CartPoleVectorEnv(count, autoreset_mode="disabled", kernel=kernel)
        env.reset(seed=0)
        env.gravity, env.force_mag, env.length = gravity, force_mag, length
        env.polemass_length = env.masspole * length
        if not euler:
            env.kinematics_integrator = "semi-implicit euler"
        env.state[:] = np.array(states, dtype=np.float64).T
        with np.errstate(all="ignore"):
            observation, _, terminated, _, _ = env.step(batch)
        results.append((env.state.copy(), observation, terminated))
    (state_a, obs_a, ended_a), (state_b, obs_b, ended_b) = results
    assert state_a.tobytes() == state_b.tobytes()  # bitwise, NaN payloads included
    np.testing.assert_array_equal(obs_a, obs_b)
    np.testing.assert_array_equal(ended_a, ended_b)


@pytest.mark.parametrize("kernel", KERNELS)
def test_a_zero_force_pushes_with_the_single_envs_signed_zero(kernel: Any) -> None:
    # With force_mag 0 the single env pushes with -0.0 on action 0; from a state of signed
    # zeros that sign reaches theta and theta_dot, and each kernel must keep it.
    single = protogym.make("CartPole-v1").unwrapped
    single.reset(seed=0)
    single.force_mag, single.gravity = 0.0, 0.0
    single.kinematics_integrator = "semi-implicit euler"
    single.state = np.array([0.0, 0.0, -0.0, -0.0])
    single.step(0)
    env = CartPoleVectorEnv(1, autoreset_mode="disabled", kernel=kernel)
    env.reset(seed=0)
    env.force_mag, env.gravity = 0.0, 0.0
    env.kinematics_integrator = "semi-implicit euler"
    env.state[:] = np.array([[0.0], [0.0], [-0.0], [-0.0]])
    env.step(np.array([0]))
    assert env.state[:, 0].tobytes() == np.asarray(single.state, dtype=np.float64).tobytes()


@pytest.mark.parametrize("kernel", KERNELS)
def test_a_bad_action_is_refused_before_any_sub_env_moves(kernel: Any) -> None:
    env = CartPoleVectorEnv(3, kernel=kernel)
    env.reset(seed=0)
    before = env.state.copy()
    for bad in ([0, 1, 2], [0, -1, 1], [255, 0, 0]):
        with pytest.raises(ValueError, match=r"actions outside \{0, 1\}"):
            env.step(np.array(bad, dtype=np.int64))
        np.testing.assert_array_equal(env.state, before)
    with pytest.raises(ValueError, match=r"int array of shape \(3,\)"):
        env.step(np.array([0.0, 1.0, 0.0]))


def test_kernel_choice_errors_say_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match=r"kernel to be one of \('auto', 'numba', 'numpy'\)"):
        CartPoleVectorEnv(1, kernel="cuda")  # type: ignore[arg-type]
    monkeypatch.setattr(cartpole_kernel, "compiled_step", lambda: None)  # numba not installed
    with pytest.raises(ValueError, match=r"pip install 'protogym-classic-control\[jit\]'"):
        CartPoleVectorEnv(1, kernel="numba")
    assert CartPoleVectorEnv(1).kernel == "numpy"  # auto falls back


def test_make_vec_passes_the_kernel_and_auto_prefers_numba() -> None:
    auto = protogym.make_vec("CartPole-v1", 2, vectorization_mode="vector_entry_point")
    forced = protogym.make_vec(
        "CartPole-v1", 2, vectorization_mode="vector_entry_point", kernel="numpy"
    )
    assert auto.unwrapped.kernel == "numba"
    assert forced.unwrapped.kernel == "numpy"


@pytest.mark.parametrize("limit", [None, 7])
@pytest.mark.parametrize("sutton_barto", [False, True])
@pytest.mark.parametrize("kernel", KERNELS)
def test_next_step_bookkeeping_matches_sync_through_masked_resets(
    kernel: Any, sutton_barto: bool, limit: int | None
) -> None:
    # With numba, next-step restarts, rewards and time limits run in a compiled pass that
    # keeps its own list of sub-envs to restart; a masked reset between steps must clear them.
    native = CartPoleVectorEnv(
        5, max_episode_steps=limit, sutton_barto_reward=sutton_barto,
        autoreset_mode="next_step", kernel=kernel,
    )
    reference = SyncVectorEnv(
        [
            lambda: protogym.make(
                "CartPole-v1", max_episode_steps=limit, sutton_barto_reward=sutton_barto,
                disable_env_checker=True,
            )
        ]
        * 5,
        autoreset_mode="next_step",
    )
    rng = np.random.default_rng(4)
    np.testing.assert_array_equal(native.reset(seed=2)[0], reference.reset(seed=2)[0])
    names = ("obs", "reward", "terminated", "truncated")
    restarts = 0
    for step in range(120):
        if step % 25 == 24:
            options = {"reset_mask": rng.random(5) < 0.5}
            np.testing.assert_array_equal(
                native.reset(options=options)[0], reference.reset(options=options)[0]
            )
        batch = rng.integers(0, 2, size=5)
        ours, theirs = native.step(batch), reference.step(batch)
        for name, a, b in zip(names, ours[:4], theirs[:4], strict=True):
            np.testing.assert_array_equal(a, b, err_msg=f"{name} at step {step}")
        restarts += int(np.sum(ours[1] == 0.0)) if not sutton_barto else 0
    assert sutton_barto or restarts >= 5


@settings(max_examples=40, deadline=None)
@given(
    seeds=st.lists(st.integers(0, 2**128 - 1), min_size=1, max_size=5),
    draws=st.integers(1, 9),
)
def test_compiled_streams_give_numpys_doubles(seeds: list[int], draws: int) -> None:
    """The PCG64 arithmetic the compiled restarts use gives `Generator.random`'s doubles,
    word carries included, compiled and as plain Python."""
    rows = np.arange(len(seeds), dtype=np.intp)
    expected = np.array([np.random.default_rng(seed).random(3 * draws) for seed in seeds])
    for draw in (cartpole_kernel.compiled_draw(), cartpole_kernel.draw_uniforms):
        streams = np.zeros((4, len(seeds)), dtype=np.uint64)
        generators = [np.random.default_rng(seed) for seed in seeds]
        cartpole_kernel.load_streams(generators, rows.tolist(), streams)
        got = np.empty((len(seeds), 3 * draws))
        with np.errstate(over="ignore"):  # uint64 words wrap by design
            for part in range(3):  # the state carries over between calls
                block = np.empty((len(seeds), draws))
                draw(streams, rows, block)
                got[:, part * draws : (part + 1) * draws] = block
        np.testing.assert_array_equal(got, expected)


def test_streams_refuse_a_generator_that_is_not_pcg64() -> None:
    generator = np.random.Generator(np.random.MT19937(0))
    with pytest.raises(TypeError, match="sub-env 0's generator is not PCG64"):
        cartpole_kernel.load_streams([generator], [0], np.zeros((4, 1), dtype=np.uint64))


def test_many_restarts_per_sub_env_follow_sync_in_both_autoreset_modes() -> None:
    """64 sub-envs for 400 steps restart about 18 times each, far past any draw-ahead."""
    for mode in ("next_step", "same_step"):
        native = CartPoleVectorEnv(64, autoreset_mode=mode)
        reference = SyncVectorEnv(
            [lambda: protogym.make("CartPole-v1", disable_env_checker=True)] * 64,
            autoreset_mode=mode,
        )
        np.testing.assert_array_equal(native.reset(seed=7)[0], reference.reset(seed=7)[0])
        rng = np.random.default_rng(5)
        ended = 0
        for step in range(400):
            batch = rng.integers(0, 2, size=64)
            ours, theirs = native.step(batch), reference.step(batch)
            for name, a, b in zip(("obs", "reward", "terminated"), ours[:3], theirs[:3],
                                  strict=True):
                np.testing.assert_array_equal(a, b, err_msg=f"{mode}: {name} at step {step}")
            ended += int(ours[2].sum())
        assert ended >= 64 * 15
