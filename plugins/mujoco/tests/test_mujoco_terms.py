"""The observation and reward functions work over a leading batch axis, and each row of a
batch gives the bits the single env computes: what a vector env needs to compute a batch in
numpy and still equal the single envs (and Gymnasium) to the bit."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from protogym_mujoco import (
    ant_v5,
    half_cheetah_v5,
    hopper_v5,
    humanoid_v5,
    humanoidstandup_v5,
    inverted_double_pendulum_v5,
    inverted_pendulum_v5,
    pusher_v5,
    reacher_v5,
    swimmer_v5,
    terms,
    walker2d_v5,
)

import protogym

States = dict[str, np.ndarray]
FIELDS = ("qpos", "qvel", "cfrc_ext", "cinert", "cvel", "qfrc_actuator", "qfrc_constraint",
          "xipos", "xpos", "site_xpos", "ctrl")  # fmt: skip
IDS = ("Ant-v5", "HalfCheetah-v5", "Hopper-v5", "Humanoid-v5", "InvertedDoublePendulum-v5",
       "InvertedPendulum-v5", "Pusher-v5", "Reacher-v5", "Swimmer-v5", "Walker2d-v5")  # fmt: skip


def _states(env_id: str, steps: int = 40) -> States:
    """MjData's arrays after each of `steps` random steps (resetting after an episode ends),
    stacked, with the actions taken."""
    env = protogym.make(env_id)
    env.action_space.seed(0)
    data = env.unwrapped.data  # type: ignore[attr-defined]
    env.reset(seed=0)
    rows: dict[str, list[Any]] = {field: [] for field in (*FIELDS, "action")}
    for _ in range(steps):
        action = env.action_space.sample() * np.float32(1.3)  # some beyond the bounds
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the passive checker notes them
            _, _, terminated, truncated, _ = env.step(action)
        rows["action"].append(action)
        for field in FIELDS:
            rows[field].append(getattr(data, field).copy())
        if terminated or truncated:
            env.reset()
    env.close()
    return {field: np.stack(values) for field, values in rows.items()}


@pytest.fixture(scope="module")
def states() -> dict[str, States]:
    return {env_id: _states(env_id) for env_id in IDS}


def rowwise(function: Callable[..., Any], batched: list[np.ndarray], *constants: Any) -> None:
    """`function(*batched, *constants)` over the whole batch gives, row by row, the same
    dtypes and bits as `function(*(b[i] for b in batched), *constants)`."""
    together = function(*batched, *constants)
    together = together if isinstance(together, tuple) else (together,)
    for row in range(len(batched[0])):
        alone = function(*(values[row] for values in batched), *constants)
        alone = alone if isinstance(alone, tuple) else (alone,)
        for number, (many, one) in enumerate(zip(together, alone, strict=True)):
            many_row, one = np.asarray(many)[row], np.asarray(one)
            where = f"{function.__module__}.{function.__name__}, result {number}, row {row}"
            assert many_row.dtype == one.dtype, where
            assert many_row.tobytes() == one.tobytes(), where


def test_shared_terms(states: dict[str, States]) -> None:
    ant = states["Ant-v5"]
    rowwise(terms.control_cost, [ant["action"]], 0.5)
    rowwise(terms.control_cost, [ant["ctrl"]], 0.1)
    rowwise(terms.squared_sum, [ant["cfrc_ext"].reshape(len(ant["qpos"]), -1)])
    rowwise(terms.clip, [ant["cfrc_ext"]], -1.0, 1.0)
    rowwise(terms.norm, [ant["qpos"][:, :2]])
    for row in range(len(ant["qpos"])):  # np.linalg.norm's own bits, BLAS dot and all
        expected = np.linalg.norm(ant["qpos"][row, :2])
        assert terms.norm(ant["qpos"][row, :2]).tobytes() == expected.tobytes()
        assert (terms.clip(ant["cfrc_ext"][row], -1.0, 1.0).tobytes()
                == np.clip(ant["cfrc_ext"][row], -1.0, 1.0).tobytes())  # fmt: skip


def test_locomotion(states: dict[str, States]) -> None:
    for env_id, module in (("HalfCheetah-v5", half_cheetah_v5), ("Hopper-v5", hopper_v5),
                           ("Walker2d-v5", walker2d_v5), ("Swimmer-v5", swimmer_v5)):  # fmt: skip
        s = states[env_id]
        for exclude in (True, False):
            rowwise(module.observation, [s["qpos"], s["qvel"]], exclude)
    s = states["HalfCheetah-v5"]
    cost = terms.control_cost(s["action"], 0.1)
    rowwise(half_cheetah_v5.rewards, [s["qpos"][:-1, 0], s["qpos"][1:, 0], cost[1:]], 0.05, 1.0)
    s = states["Swimmer-v5"]
    cost = terms.control_cost(s["action"], 1e-4)
    rowwise(swimmer_v5.rewards, [s["qpos"][:-1, :2], s["qpos"][1:, :2], cost[1:]], 0.04, 1.0)
    s = states["Hopper-v5"]
    ranges = ((-100.0, 100.0), (0.7, np.inf), (-0.2, 0.2))
    rowwise(hopper_v5.is_healthy, [s["qpos"], s["qvel"]], *ranges)
    healthy = hopper_v5.is_healthy(s["qpos"], s["qvel"], *ranges) * 1.0
    cost = terms.control_cost(s["action"], 1e-3)
    rowwise(hopper_v5.rewards, [s["qpos"][:-1, 0], s["qpos"][1:, 0], healthy[1:], cost[1:]],
            0.008, 1.0)  # fmt: skip
    s = states["Walker2d-v5"]
    rowwise(walker2d_v5.is_healthy, [s["qpos"]], (0.8, 2.0), (-1.0, 1.0))


def test_ant(states: dict[str, States]) -> None:
    s = states["Ant-v5"]
    forces = terms.clip(s["cfrc_ext"], -1.0, 1.0)
    rowwise(ant_v5.observation, [s["qpos"], s["qvel"], forces])
    rowwise(ant_v5.is_healthy, [s["qpos"], s["qvel"]], (0.2, 1.0))
    healthy = ant_v5.is_healthy(s["qpos"], s["qvel"], (0.2, 1.0))
    torso = s["xpos"][:, 1, :2]
    cost = terms.control_cost(s["action"], 0.5)
    batched = [torso[:-1], torso[1:], healthy[1:], cost[1:], forces[1:]]
    rowwise(ant_v5.rewards, batched, 0.05, 1.0, 1.0, 5e-4)


def test_humanoids(states: dict[str, States]) -> None:
    s = states["Humanoid-v5"]
    parts = [s["cinert"], s["cvel"], s["qfrc_actuator"], s["cfrc_ext"]]
    rowwise(humanoid_v5.observation, [s["qpos"], s["qvel"], *parts])
    mass = protogym.make("Humanoid-v5").unwrapped.model.body_mass
    rowwise(lambda xipos: humanoid_v5.mass_center(mass, xipos), [s["xipos"]])
    centre = humanoid_v5.mass_center(mass, s["xipos"])
    height = s["qpos"][:, 2]
    healthy = (height > 1.0) & (height < 2.0)
    batched = [centre[:-1], centre[1:], healthy[1:], s["ctrl"][1:], s["cfrc_ext"][1:]]
    rowwise(humanoid_v5.rewards, batched, 0.015, 1.25, 5.0, 0.1, 5e-7, (-np.inf, 10.0))
    batched = [s["qpos"][:, 2], s["ctrl"], s["cfrc_ext"]]
    rowwise(humanoidstandup_v5.rewards, batched, 0.003, 0.1, 5e-7, (-np.inf, 10.0))


def test_pendulums_and_arms(states: dict[str, States]) -> None:
    s = states["InvertedPendulum-v5"]
    rowwise(inverted_pendulum_v5.observation, [s["qpos"], s["qvel"]])
    observation = inverted_pendulum_v5.observation(s["qpos"], s["qvel"])
    rowwise(inverted_pendulum_v5.terminated, [observation])
    s = states["InvertedDoublePendulum-v5"]
    for forces in (1, 3):
        batched = [s["qpos"], s["qvel"], s["qfrc_constraint"]]
        rowwise(inverted_double_pendulum_v5.observation, batched, forces)
    rowwise(inverted_double_pendulum_v5.penalties, [s["site_xpos"][:, 0], s["qvel"]])
    s = states["Reacher-v5"]
    fingertip, target = s["xpos"][:, 3], s["xpos"][:, 4]
    for axes in (2, 3):
        rowwise(reacher_v5.observation, [s["qpos"], s["qvel"], fingertip, target], axes)
    rowwise(reacher_v5.rewards, [fingertip, target, s["action"]], 1.0, 1.0)
    s = states["Pusher-v5"]
    arm, thing, goal = s["xpos"][:, 10], s["xpos"][:, 11], s["xpos"][:, 12]
    rowwise(pusher_v5.observation, [s["qpos"], s["qvel"], arm, thing, goal])
    rowwise(pusher_v5.rewards, [arm, thing, goal, s["action"]], 0.5, 1.0, 0.1)


def test_the_single_env_computes_with_these_functions() -> None:
    """The functions are the env's own arithmetic: a step's reward and observation,
    recomputed from MjData with them, are what the env returned."""
    env = protogym.make("Ant-v5").unwrapped
    env.reset(seed=1)
    before = env.data.xpos[1, :2].copy()
    action = np.linspace(-1.2, 1.2, 8, dtype=np.float32)
    obs, reward, _, _, info = env.step(action)
    data = env.data
    forces = terms.clip(data.cfrc_ext, -1.0, 1.0)
    healthy = ant_v5.is_healthy(data.qpos, data.qvel, (0.2, 1.0))
    cost = terms.control_cost(action, 0.5)
    ours = ant_v5.rewards(before, data.xpos[1, :2], healthy, cost, forces, env.dt, 1, 1.0, 5e-4)
    assert ours[0] == reward and ours[3] == info["reward_survive"]
    assert ant_v5.observation(data.qpos, data.qvel, forces).tobytes() == obs.tobytes()


def test_power_of_two_squares_each_element_as_a_numpy_scalar_is_squared() -> None:
    values = np.random.default_rng(0).normal(0.0, 5.0, 20_000)
    scalars = np.array([value**2 for value in values])  # numpy float64 scalars: C's pow
    assert (scalars != values * values).any()  # pow and a product differ in some last bits
    batched = terms.power_of_two(values.reshape(100, 200))
    assert batched.tobytes() == scalars.tobytes()
    assert terms.power_of_two(values[3]) == scalars[3]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_fast_squared_sum_of_a_short_vector_is_numpys_sum(dtype: type) -> None:
    rng = np.random.default_rng(3)
    for size in range(1, 18):
        fast = terms.squared_sum_of(size)
        for vector in rng.uniform(-2.0, 2.0, (2000, size)).astype(dtype):
            expected = np.sum(np.square(vector))  # Gymnasium's control cost, unweighted
            got = fast(vector)
            assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes(), size


def test_data_gather_copies_the_parts_as_concatenate_does() -> None:
    from protogym_mujoco.mujoco_env import DataGather

    env = protogym.make("Humanoid-v5")
    data = env.unwrapped.data
    parts = (data.qvel, data.qpos[2:], data.cfrc_ext[1:], data.cinert[3:5])  # any order
    gather = DataGather(parts)
    env.reset(seed=0)
    for _ in range(3):
        gathered = gather()
        assert gathered.tobytes() == np.concatenate([part.ravel() for part in parts]).tobytes()
        gathered[:] = 0.0  # a fresh array each time: MjData is untouched
        assert data.qvel.any()
        env.step(env.action_space.sample())
    with pytest.raises(ValueError, match="C-contiguous float64"):
        DataGather((data.xpos[:, :2],))
