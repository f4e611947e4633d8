"""The MuJoCo envs' registrations, spaces, arguments, errors and the behaviour around the
physics (clamping, pickling, state access), without Gymnasium."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from protogym_mujoco.half_cheetah_v5 import HalfCheetahEnv
from protogym_mujoco.inverted_pendulum_v5 import InvertedPendulumEnv
from protogym_mujoco.utils import check_mujoco_reset_state, get_state, set_state

import protogym
from protogym.error import DependencyNotInstalled, InvalidAction, ResetNeeded

# id: (max episode steps, reward threshold, observation size, action bound, render fps),
# Gymnasium 1.4's values.
EXPECTED: dict[str, tuple[int, float | None, int, float, int]] = {
    "Ant-v5": (1000, 6000.0, 105, 1.0, 20),
    "Ant-v4": (1000, 6000.0, 27, 1.0, 20),
    "HalfCheetah-v5": (1000, 4800.0, 17, 1.0, 20),
    "HalfCheetah-v4": (1000, 4800.0, 17, 1.0, 20),
    "Hopper-v5": (1000, 3800.0, 11, 1.0, 125),
    "Hopper-v4": (1000, 3800.0, 11, 1.0, 125),
    "Humanoid-v5": (1000, None, 348, 0.4, 67),
    "Humanoid-v4": (1000, None, 376, 0.4, 67),
    "HumanoidStandup-v5": (1000, None, 348, 0.4, 67),
    "HumanoidStandup-v4": (1000, None, 376, 0.4, 67),
    "InvertedDoublePendulum-v5": (1000, 9100.0, 9, 1.0, 20),
    "InvertedDoublePendulum-v4": (1000, 9100.0, 11, 1.0, 20),
    "InvertedPendulum-v5": (1000, 950.0, 4, 3.0, 25),
    "InvertedPendulum-v4": (1000, 950.0, 4, 3.0, 25),
    "Pusher-v5": (100, 0.0, 23, 2.0, 20),
    "Reacher-v5": (50, -3.75, 10, 1.0, 50),
    "Reacher-v4": (50, -3.75, 11, 1.0, 50),
    "Swimmer-v5": (1000, 360.0, 8, 1.0, 25),
    "Swimmer-v4": (1000, 360.0, 8, 1.0, 25),
    "Walker2d-v5": (1000, None, 17, 1.0, 125),
    "Walker2d-v4": (1000, None, 17, 1.0, 125),
}
MUJOCO_PY_IDS = [
    "Ant-v2", "Ant-v3", "HalfCheetah-v2", "HalfCheetah-v3", "Hopper-v2", "Hopper-v3",
    "Humanoid-v2", "Humanoid-v3", "HumanoidStandup-v2", "InvertedDoublePendulum-v2",
    "InvertedPendulum-v2", "Pusher-v2", "Reacher-v2", "Swimmer-v2", "Swimmer-v3",
    "Walker2d-v2", "Walker2d-v3",
]  # fmt: skip


def make(env_id: str, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # v4 is out of date
        return protogym.make(env_id, **kwargs)


def test_the_plugin_registers_gymnasiums_mujoco_ids_and_no_other() -> None:
    ours = {spec.id for spec in protogym.registry.values() if spec.plugin == "protogym-mujoco"}
    assert ours == {*EXPECTED, "Pusher-v4", *MUJOCO_PY_IDS}
    for env_id, (steps, threshold, *_) in EXPECTED.items():
        spec = protogym.registry[env_id]
        assert (spec.max_episode_steps, spec.reward_threshold) == (steps, threshold), env_id
    assert protogym.registry["Pusher-v4"].max_episode_steps == 100


@pytest.mark.parametrize("env_id", list(EXPECTED))
def test_spaces_and_metadata_are_gymnasiums(env_id: str) -> None:
    _, _, size, bound, fps = EXPECTED[env_id]
    env = make(env_id)
    observations, actions = env.observation_space, env.action_space
    assert observations.shape == (size,) and observations.dtype == np.float64
    assert np.all(observations.low == -np.inf) and np.all(observations.high == np.inf)
    assert actions.dtype == np.float32 and actions.shape == (env.unwrapped.model.nu,)
    np.testing.assert_array_equal(actions.low, np.float32(-bound))
    np.testing.assert_array_equal(actions.high, np.float32(bound))
    assert env.metadata["render_modes"] == ["human", "rgb_array", "depth_array", "rgbd_tuple"]
    assert env.metadata["render_fps"] == fps == round(1 / env.unwrapped.dt)
    structure = getattr(env.unwrapped, "observation_structure", None)
    if structure is not None:
        assert sum(v for k, v in structure.items() if k != "skipped_qpos") == size
    obs, _ = env.reset(seed=0)
    assert obs in observations
    env.close()


def test_the_v5_arguments_reshape_spaces_and_timing() -> None:
    cheetah = make("HalfCheetah-v5", frame_skip=2, exclude_current_positions_from_observation=False)
    assert cheetah.observation_space.shape == (18,)
    assert cheetah.unwrapped.dt == pytest.approx(0.02) and cheetah.metadata["render_fps"] == 50
    ant = make("Ant-v5", include_cfrc_ext_in_observation=False)
    assert ant.observation_space.shape == (27,)
    humanoid = make(
        "Humanoid-v5", include_cinert_in_observation=False, include_cvel_in_observation=False
    )
    assert humanoid.observation_space.shape == (348 - 130 - 78,)
    assert make("Ant-v4", use_contact_forces=True).observation_space.shape == (111,)
    assert make("Walker2d-v5", xml_file="walker2d.xml").unwrapped.fullpath.endswith("walker2d.xml")


@pytest.mark.parametrize("env_id", MUJOCO_PY_IDS)
def test_mujoco_py_ids_name_the_id_to_make_instead(env_id: str) -> None:
    newest = env_id.rsplit("-", 1)[0] + "-v5"
    with pytest.raises(DependencyNotInstalled, match=f"'{env_id}' needs mujoco-py.*'{newest}'"):
        make(env_id)


def test_pusher_v4_refuses_mujoco_3_and_names_pusher_v5() -> None:
    with pytest.raises(ImportError, match=r"mujoco < 3 .* mujoco 4\.0\.0.*'Pusher-v5'"):
        make("Pusher-v4")


def test_bad_constructor_arguments_say_what_was_wrong() -> None:
    with pytest.raises(ValueError, match="does not support render_mode='ansi'"):
        HalfCheetahEnv(render_mode="ansi")
    with pytest.raises(ValueError, match="frame_skip must be >= 1"):
        HalfCheetahEnv(frame_skip=0)
    with pytest.raises(TypeError, match="frame_skip must be an int"):
        HalfCheetahEnv(frame_skip=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="width must be a positive int"):
        HalfCheetahEnv(width=0)
    with pytest.raises(FileNotFoundError, match=r"'nope\.xml' does not exist.*half_cheetah\.xml"):
        HalfCheetahEnv(xml_file="nope.xml")
    with pytest.raises(ValueError, match="camera_id and camera_name both pick a camera"):
        HalfCheetahEnv(camera_id=0, camera_name="track")
    with pytest.raises(ValueError, match=r"no camera named 'side'; its cameras are \['track'\]"):
        HalfCheetahEnv(camera_name="side")
    with pytest.raises(ValueError, match=r"camera_id must be -1 .* 1 cameras"):
        HalfCheetahEnv(camera_id=3)
    with pytest.raises(ValueError, match=r"main_body='tail' is not a body .*'torso'"):
        make("Ant-v5", main_body="tail")
    with pytest.raises(TypeError, match=r"'ctrl_cost_weigth'.*'ctrl_cost_weight'"):
        protogym.make("HalfCheetah-v5", ctrl_cost_weigth=0.2)  # type: ignore[protogym-kwargs]
    with pytest.raises(TypeError):  # v4 takes its camera from the env, as in Gymnasium
        make("Hopper-v4", default_camera_config={})


def test_bad_actions_and_early_calls_say_what_was_wrong() -> None:
    env = HalfCheetahEnv(render_mode="rgb_array")
    with pytest.raises(ResetNeeded, match="before step"):
        env.step(np.zeros(6, dtype=np.float32))
    with pytest.raises(ResetNeeded, match="before render"):
        env.render()
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match=r"shape \(5,\).*6 real numbers"):
        env.step(np.zeros(5, dtype=np.float32))
    with pytest.raises(InvalidAction, match="6 real numbers"):
        env.step("left")  # type: ignore[arg-type]
    qpos = env.data.qpos.copy()
    for bad in (np.nan, np.inf):
        action = np.zeros(6, dtype=np.float32)
        action[2] = bad
        with pytest.raises(InvalidAction, match="NaN or an infinity"):
            env.step(action)
    np.testing.assert_array_equal(env.data.qpos, qpos)  # refused before any physics
    pendulum = InvertedPendulumEnv()
    pendulum.reset(seed=0)
    with pytest.raises(InvalidAction, match="NaN or an infinity"):
        pendulum.step(np.array([np.nan], dtype=np.float32))
    with pytest.raises(ValueError, match=r"qpos of shape \(9,\) and qvel of shape \(9,\)"):
        env.set_state(np.zeros(8), np.zeros(9))
    env.close()


def test_a_finite_action_whose_square_overflows_goes_on_as_in_gymnasium() -> None:
    env = HalfCheetahEnv()
    env.reset(seed=0)
    with pytest.warns(RuntimeWarning, match="overflow"):
        _, reward, *_ = env.step(np.full(6, 1e20, dtype=np.float32))
    assert reward == -np.inf  # the float32 control cost overflows, as Gymnasium's does


@settings(max_examples=20, deadline=None)
@given(arrays(np.float32, 6, elements=st.floats(-4.0, 4.0, width=32)))
def test_mujoco_clamps_the_controls_but_the_cost_counts_the_action(action: Any) -> None:
    wild, tame = HalfCheetahEnv(), HalfCheetahEnv()
    wild.reset(seed=5)
    tame.reset(seed=5)
    clamped = np.clip(action, -1.0, 1.0)
    obs_wild, reward_wild, *_, info_wild = wild.step(action)
    obs_tame, reward_tame, *_, info_tame = tame.step(clamped)
    assert obs_wild.tobytes() == obs_tame.tobytes()
    assert info_wild["reward_ctrl"] == np.float32(-0.1) * np.sum(np.square(action))
    assert info_wild["reward_forward"] == info_tame["reward_forward"]
    assert reward_wild == info_wild["reward_forward"] + info_wild["reward_ctrl"]


def test_seeded_resets_repeat_and_unseeded_ones_go_on() -> None:
    env = make("Ant-v5")
    first, _ = env.reset(seed=11)
    env.step(env.action_space.sample())
    again, _ = env.reset(seed=11)
    assert first.tobytes() == again.tobytes()
    assert env.reset()[0].tobytes() != first.tobytes()
    check_mujoco_reset_state(env)


def test_the_whole_state_can_be_saved_and_restored() -> None:
    env = make("Hopper-v5")
    env.reset(seed=2)
    saved = get_state(env)
    action = np.array([0.5, -0.3, 0.2], dtype=np.float32)
    after = env.step(action)[0]
    set_state(env, saved)
    assert env.step(action)[0].tobytes() == after.tobytes()
    with pytest.raises(ValueError, match=r"state of shape \(13,\)"):
        set_state(env, saved[:-1])


def test_pusher_reset_writes_the_object_into_init_qpos_as_gymnasium_does() -> None:
    env = make("Pusher-v5").unwrapped
    env.reset(seed=3)
    np.testing.assert_array_equal(env.init_qpos[-4:-2], env.cylinder_pos)
    np.testing.assert_array_equal(env.init_qpos[-2:], [0.0, 0.0])
    assert np.linalg.norm(env.cylinder_pos) > 0.17


def test_a_pickled_env_is_a_fresh_env_with_the_same_arguments() -> None:
    env = make("HalfCheetah-v5", frame_skip=3, ctrl_cost_weight=0.3)
    env.reset(seed=1)
    env.step(env.action_space.sample())
    copy = pickle.loads(pickle.dumps(env))
    assert copy.unwrapped.frame_skip == 3 and copy.unwrapped._ctrl_cost_weight == 0.3
    fresh = make("HalfCheetah-v5", frame_skip=3, ctrl_cost_weight=0.3)
    assert copy.reset(seed=4)[0].tobytes() == fresh.reset(seed=4)[0].tobytes()
    action = np.linspace(-1, 1, 6, dtype=np.float32)
    assert copy.step(action)[0].tobytes() == fresh.step(action)[0].tobytes()


def test_gymnasiums_module_layout_is_ours() -> None:
    from protogym_mujoco import MujocoEnv, MujocoRenderer
    from protogym_mujoco.mujoco_env import MujocoEnv as BaseEnv
    from protogym_mujoco.mujoco_rendering import MujocoRenderer as Renderer

    assert MujocoEnv is BaseEnv and MujocoRenderer is Renderer
    for env_id in EXPECTED:
        module, _, name = str(protogym.registry[env_id].entry_point).partition(":")
        assert module == f"protogym_mujoco.{module.split('.')[-1]}" and name.endswith("Env")
    assert isinstance(HalfCheetahEnv(), protogym.Env)


def test_plugin_discovery_does_not_import_mujoco() -> None:
    code = (
        "import sys, protogym; protogym.spec('Ant-v5'); "
        "assert 'mujoco' not in sys.modules and 'protogym_mujoco.mujoco_env' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_humanoid_control_cost_is_float64_like_mujocos_controls() -> None:
    """Humanoid's cost reads MuJoCo's float64 controls, not the float32 action."""
    env = make("Humanoid-v5").unwrapped
    env.reset(seed=0)
    action = np.linspace(-0.4, 0.4, 17, dtype=np.float32)
    _, _, _, _, info = env.step(action)
    controls = action.astype(np.float64)
    assert type(info["reward_ctrl"]) is np.float64
    assert info["reward_ctrl"] == -(0.1 * np.sum(np.square(controls)))


@pytest.mark.parametrize(
    ("env_id", "expected_keys"),
    [("InvertedPendulum-v5", 5), ("InvertedDoublePendulum-v4", 5), ("Reacher-v5", 17),
     ("Swimmer-v4", 17)],
)  # fmt: skip
def test_play_keys_map_into_the_action_space(env_id: str, expected_keys: int) -> None:
    from protogym.utils.play import normalise_keys_to_action

    env = make(env_id)
    mapping = env.get_wrapper_attr("get_keys_to_action")()
    assert len(mapping) == expected_keys
    assert all(env.action_space.contains(action) for action in mapping.values())
    assert {tuple(a) for a in mapping.values()} >= {
        tuple(env.action_space.low),
        tuple(env.action_space.high),
    }
    normalise_keys_to_action(mapping, env.action_space)
