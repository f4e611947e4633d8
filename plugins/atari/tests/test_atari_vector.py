"""The native Atari vector env: ale-py's vector env's batches under the same seeds (goldens
recorded from it, replayed without Gymnasium), protogym's autoreset modes and info layout,
seeding, life losses, FIRE starts, bad input, and how it compares to the single envs under
AtariPreprocessing + FrameStackObservation."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray
from protogym_atari.vector import AtariVectorEnv

import protogym
from protogym.error import (
    AlreadyPendingCallError,
    ClosedEnvironmentError,
    InvalidAction,
    NoAsyncCallError,
    ResetNeeded,
)
from protogym.vector import AutoresetMode
from protogym.wrappers import AtariPreprocessing, FrameStackObservation

GOLDENS = np.load(Path(__file__).parent / "goldens" / "atari_vector.npz")
CASES = sorted({key.split("/")[0] for key in GOLDENS.files})
SYNC_CASES = [name for name in CASES if f"{name}/streams" not in GOLDENS.files]
_MODES = {"SameStep": "same_step", "NextStep": "next_step"}


def digest(array: NDArray[Any]) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def golden(name: str) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
    config = json.loads(str(GOLDENS[f"{name}/config"]))
    arrays = {
        key.split("/", 1)[1]: GOLDENS[key] for key in GOLDENS.files if key.startswith(f"{name}/")
    }
    kwargs = dict(config["kwargs"])
    # ale-py's default mode is next-step (protogym's is same-step); its names are CamelCase.
    kwargs["autoreset_mode"] = _MODES[kwargs.get("autoreset_mode", "NextStep")]
    config["kwargs"] = kwargs
    return config, arrays


def replay(env: Any, config: dict[str, Any], arrays: dict[str, NDArray[Any]]) -> None:
    """Step `env` with the golden's actions and compare every recorded quantity."""
    obs, info = env.reset(seed=config["seed"])
    assert digest(obs) == arrays["obs_hashes"][0]
    np.testing.assert_array_equal(info["lives"], arrays["lives"][0])
    finals = []
    for t, action in enumerate(arrays["actions"]):
        obs, reward, terminated, truncated, info = env.step(action)
        assert digest(obs) == arrays["obs_hashes"][t + 1], f"observations differ at step {t}"
        np.testing.assert_array_equal(reward, arrays["rewards"][t])
        np.testing.assert_array_equal(terminated, arrays["terminated"][t])
        np.testing.assert_array_equal(truncated, arrays["truncated"][t])
        np.testing.assert_array_equal(info["lives"], arrays["lives"][t + 1])
        np.testing.assert_array_equal(info["env_id"], arrays["env_ids"][t + 1])
        if "final_obs" in info:
            for row in np.flatnonzero(info["_final_obs"]).tolist():
                finals.append(f"{t}:{row}:{digest(info['final_obs'][row])}")
    assert finals == arrays["final_hashes"].tolist()


@pytest.mark.parametrize("name", SYNC_CASES)
def test_batches_match_ale_py_vector_env_goldens(name: str) -> None:
    config, arrays = golden(name)
    env = AtariVectorEnv(config["num_envs"], **config["kwargs"])
    replay(env, config, arrays)
    env.close()


def test_asynchronous_batches_follow_each_sub_env_as_ale_py_does() -> None:
    """batch_size < num_envs: which sub-envs a batch holds is up to the threads, so each
    sub-env's own results are compared, its actions given by its id and step count."""
    config, arrays = golden("pong-async")
    env = AtariVectorEnv(config["num_envs"], **config["kwargs"])
    assert env.observation_space.shape == (2, 4, 84, 84)
    obs, info = env.reset(seed=config["seed"])
    streams: dict[int, list[str]] = defaultdict(list)
    acted: dict[int, int] = defaultdict(int)
    for row, env_id in enumerate(info["env_id"].tolist()):
        streams[env_id].append(f"{digest(obs[row])}:{info['lives'][row]}:0:0:0")
    for _ in range(config["steps"]):
        ids = info["env_id"].tolist()
        actions = np.array([(i * 7 + acted[i] * 3 + acted[i] // 5) % 6 for i in ids])
        for env_id in ids:
            acted[env_id] += 1
        obs, reward, terminated, truncated, info = env.step(actions)
        assert obs.shape[0] == len(info["env_id"]) == 2
        for row, env_id in enumerate(info["env_id"].tolist()):
            streams[env_id].append(
                f"{digest(obs[row])}:{info['lives'][row]}:{int(reward[row])}:"
                f"{int(terminated[row])}:{int(truncated[row])}"
            )
    env.close()
    expected = arrays["streams"]
    # The threads may starve a sub-env for the whole run; each one that ran must follow its
    # own recorded stream, and enough of them must have run for the check to mean something.
    for env_id, stream in streams.items():
        length = min(len(stream), expected.shape[1])
        assert stream[:length] == expected[env_id][:length].tolist()
    assert sum(len(stream) >= 5 for stream in streams.values()) >= 2


def test_make_vec_builds_it_with_the_ids_arguments() -> None:
    config, arrays = golden("pong-defaults")
    env = protogym.make_vec(
        "ALE/Pong-v5", config["num_envs"], vectorization_mode="vector_entry_point",
        autoreset_mode="next_step",
    )
    assert isinstance(env, AtariVectorEnv)
    assert env.spec is not None and env.spec.id == "ALE/Pong-v5"
    assert (env.game, env.repeat_action_probability, env.frameskip) == ("pong", 0.25, 4)
    replay(env, config, arrays)
    default = protogym.make_vec("ALE/Breakout-v5", 2)
    assert isinstance(default, AtariVectorEnv)
    assert default.autoreset_mode is AutoresetMode.SAME_STEP
    assert default.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP


# -- autoreset -------------------------------------------------------------------------------

SHORT: dict[str, Any] = {"max_num_frames_per_episode": 40, "noop_max": 0, "use_fire_reset": False}


def run(mode: str, steps: int, **kwargs: Any) -> tuple[AtariVectorEnv, list[Any]]:
    env = AtariVectorEnv(2, "pong", autoreset_mode=mode, **{**SHORT, **kwargs})
    results: list[Any] = [env.reset(seed=[1, 2])]
    for t in range(steps):
        results.append(env.step(np.array([t % 6, (t + 3) % 6])))
    return env, results


def test_next_step_restarts_in_the_step_after_the_end_ignoring_the_action() -> None:
    _, results = run("next_step", 11)
    _, _, _, truncated, _ = results[10]
    assert truncated.all()
    obs, reward, terminated, truncated, info = results[11]
    np.testing.assert_array_equal(reward, [0.0, 0.0])
    assert not terminated.any() and not truncated.any()
    np.testing.assert_array_equal(info["episode_frame_number"], [0, 0])
    np.testing.assert_array_equal(obs[:, :3], 0)  # a fresh, zero-padded stack
    other = AtariVectorEnv(2, "pong", autoreset_mode="next_step", **SHORT)
    other.reset(seed=[1, 2])
    for t in range(10):
        other.step(np.array([t % 6, (t + 3) % 6]))
    restarted = other.step(np.array([5, 5]))[0]  # other actions in the restarting step
    np.testing.assert_array_equal(restarted, obs)


def test_same_step_restarts_at_once_and_keeps_the_final_observation() -> None:
    _, next_step = run("next_step", 11)
    _, same_step = run("same_step", 10)
    for t in range(1, 10):
        np.testing.assert_array_equal(same_step[t][0], next_step[t][0])
        assert "final_obs" not in same_step[t][4]
    obs, reward, terminated, truncated, info = same_step[10]
    assert truncated.all() and not terminated.any()
    np.testing.assert_array_equal(obs, next_step[11][0])  # already the new episode
    assert info["_final_obs"].tolist() == info["_final_info"].tolist() == [True, True]
    assert info["final_obs"].dtype == object
    for row in range(2):
        np.testing.assert_array_equal(info["final_obs"][row], next_step[10][0][row])
    assert info["final_info"] == {}  # batched, Gymnasium's layout: ale-py keeps no final info


def test_disabled_refuses_to_step_an_ended_sub_env_until_it_is_reset() -> None:
    env, results = run("disabled", 10)
    assert results[10][3].all()
    with pytest.raises(ValueError, match=r"sub-envs \[0, 1\] ended .*reset_mask"):
        env.step(np.array([0, 0]))
    obs, info = env.reset(options={"reset_mask": np.array([True, False])})
    np.testing.assert_array_equal(obs[1], results[10][0][1])  # untouched, still ended
    np.testing.assert_array_equal(info["episode_frame_number"], [0, 40])
    with pytest.raises(ValueError, match=r"sub-envs \[1\] ended"):
        env.step(np.array([0, 0]))
    env.reset(options={"reset_mask": np.array([False, True])})
    _, reward, terminated, truncated, _ = env.step(np.array([0, 0]))
    assert not (terminated | truncated).any()


def test_info_has_a_mask_for_every_key_as_the_other_vector_envs() -> None:
    env = AtariVectorEnv(3, "breakout")
    _, info = env.reset(seed=0)
    _, _, _, _, step_info = env.step(np.zeros(3, dtype=np.int64))
    for infos in (info, step_info):
        assert set(infos) == {
            "env_id", "lives", "frame_number", "episode_frame_number",
            "_env_id", "_lives", "_frame_number", "_episode_frame_number",
        }  # fmt: skip
        np.testing.assert_array_equal(infos["env_id"], [0, 1, 2])
        np.testing.assert_array_equal(infos["lives"], [5, 5, 5])
        assert infos["_lives"].dtype == np.bool_ and infos["_lives"].all()


# -- seeds -----------------------------------------------------------------------------------


def trajectory(env: AtariVectorEnv, seed: Any, steps: int = 12) -> list[str]:
    obs, info = env.reset(seed=seed)
    hashes = [digest(obs), digest(info["episode_frame_number"])]
    for t in range(steps):
        obs, reward, *_ = env.step(np.array([t % 4, (t * 3) % 4, 1]))
        hashes.append(digest(obs) + digest(reward))
    return hashes


def test_an_int_seed_counts_up_and_equals_the_list_of_seeds() -> None:
    env = AtariVectorEnv(3, "breakout", repeat_action_probability=0.25)
    by_int = trajectory(env, 7)
    assert trajectory(env, [7, 8, 9]) == by_int
    assert trajectory(env, np.array([7, 8, 9])) == by_int  # ale-py's spelling
    assert trajectory(env, 7) == by_int  # the same env, reseeded
    assert trajectory(AtariVectorEnv(3, "breakout", repeat_action_probability=0.25), 7) == by_int
    assert trajectory(env, 8) != by_int
    trajectory(env, 7)
    assert trajectory(env, None) != by_int  # None keeps the streams going


def test_a_partial_reset_gives_sub_env_i_the_seed_plus_i() -> None:
    env = AtariVectorEnv(3, "breakout", noop_max=30)
    full, _ = env.reset(seed=[4, 20, 6])
    for _ in range(3):
        env.step(np.ones(3, dtype=np.int64))
    partial, info = env.reset(seed=19, options={"reset_mask": np.array([False, True, False])})
    np.testing.assert_array_equal(partial[1], full[1])
    assert not np.array_equal(partial[0], full[0])


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        (-1, r"seeds must be in \[0, 2\*\*31 - 1\]"),
        (2**31 - 2, r"seeds must be in \[0, 2\*\*31 - 1\].*got 2147483648"),
        ([1, 2], "got 2 seeds for 3 sub-envs"),
        ([1, "2", 3], "seeds must be ints or None"),
    ],
)
def test_bad_seeds_are_refused(seed: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        AtariVectorEnv(3, "pong").reset(seed=seed)


# -- lives and FIRE ----------------------------------------------------------------------------


def until_life_lost(env: AtariVectorEnv) -> tuple[int, list[Any]]:
    env.reset(seed=3)
    results = []
    for t in range(300):
        results.append(env.step(np.array([t % 4])))
        if results[-1][2][0]:
            return t, results
    raise AssertionError("no life was lost in 300 steps")


def test_episodic_life_ends_the_episode_at_a_life_lost_and_restarts_as_ale_py_does() -> None:
    env = AtariVectorEnv(1, "breakout", episodic_life=True, autoreset_mode="next_step")
    t, results = until_life_lost(env)
    _, _, terminated, truncated, info = results[-1]
    assert terminated[0] and not truncated[0] and info["lives"][0] == 4
    _, reward, terminated, _, info = env.step(np.array([0]))
    # ale-py restarts the whole game after the lost life, like an env under
    # AtariPreprocessing(terminal_on_life_loss=True) that is reset.
    assert info["lives"][0] == 5 and reward[0] == 0.0 and not terminated[0]
    plain = AtariVectorEnv(1, "breakout", autoreset_mode="next_step")
    plain.reset(seed=3)
    for step in range(t + 1):
        _, _, terminated, _, info = plain.step(np.array([step % 4]))
    assert info["lives"][0] == 4 and not terminated[0]  # without it, a life is no end


def test_life_loss_info_ends_the_agents_episode_but_not_the_game() -> None:
    env = AtariVectorEnv(1, "breakout", life_loss_info=True, autoreset_mode="same_step")
    t, results = until_life_lost(env)
    obs, _, terminated, _, info = results[-1]
    assert terminated[0] and info["lives"][0] == 4
    np.testing.assert_array_equal(info["final_obs"][0], obs[0])
    frame = info["episode_frame_number"][0]
    _, _, terminated, _, info = env.step(np.array([1]))
    assert info["lives"][0] == 4 and info["episode_frame_number"][0] == frame + 4
    assert not terminated[0]
    disabled = AtariVectorEnv(1, "breakout", life_loss_info=True, autoreset_mode="disabled")
    until_life_lost(disabled)
    _, _, _, _, info = disabled.step(np.array([1]))  # no reset needed: the game goes on
    assert info["lives"][0] == 4


@pytest.mark.parametrize(("game", "presses"), [("breakout", 1), ("pong", 1), ("freeway", 0)])
def test_fire_reset_presses_fire_once_where_the_game_has_it(game: str, presses: int) -> None:
    with_fire = AtariVectorEnv(1, game, noop_max=0, use_fire_reset=True)
    without = AtariVectorEnv(1, game, noop_max=0, use_fire_reset=False)
    _, fired = with_fire.reset(seed=0)
    _, plain = without.reset(seed=0)
    assert fired["episode_frame_number"][0] == presses
    assert plain["episode_frame_number"][0] == 0
    if game == "breakout":  # FIRE serves the ball: the screens part
        for _ in range(20):
            a = with_fire.step(np.array([0]))[0]
            b = without.step(np.array([0]))[0]
        assert not np.array_equal(a, b)


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "Pong"}, "snake_case.*got 'Pong'; did you mean 'pong'"),
        ({"game": "space_invader"}, "did you mean 'space_invaders'"),
        ({"autoreset_mode": "later"}, "'same_step', 'next_step', 'disabled'"),
        ({"frameskip": 0}, "frameskip must be at least 1, got 0"),
        ({"frameskip": (2, 5)}, "frameskip must be an int"),
        ({"batch_size": 5}, r"batch_size must be in \[0, 4\], got 5"),
        ({"repeat_action_probability": 1.5}, r"repeat_action_probability must be in \[0, 1\]"),
        ({"noop_max": -1}, "noop_max must be at least 0"),
        ({"render_mode": "human"}, "supports only render_mode=None"),
        ({"autoreset_mode": "disabled", "batch_size": 2}, "needs batch_size == num_envs"),
    ],
)
def test_bad_arguments_name_the_valid_values(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        AtariVectorEnv(4, **{"game": "pong", **kwargs})


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (np.array([0, 6]), r"outside the action set 0\.\.5 \(NOOP, FIRE, RIGHT, LEFT, RIGHTFI"),
        (np.array([-1, 0]), r"outside the action set 0\.\.5"),
        (np.array([0.0, 1.0]), r"needs an int array of shape \(2,\), got float64"),
        (np.array([0, 1, 2]), r"needs an int array of shape \(2,\), got int64 of shape \(3,\)"),
    ],
)
def test_actions_outside_the_action_set_are_refused(actions: Any, message: str) -> None:
    env = AtariVectorEnv(2, "pong")
    with pytest.raises(ResetNeeded):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match=message):
        env.step(actions)
    env.step(np.array([1, 2], dtype=np.int32))  # still usable; any int dtype is fine
    env.step(np.array([3, 4], dtype=np.uint8))


def test_continuous_actions_outside_the_box_are_refused() -> None:
    env = AtariVectorEnv(2, "pong", continuous=True)
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match=r"radius in \[0, 1\]"):
        env.step(np.array([[1.5, 0.0, 0.0], [0.0, 0.0, 0.0]], dtype=np.float32))
    env.step(np.array([[1.0, 3.0, 1.0], [0.2, -1.0, 0.0]], dtype=np.float32))


def test_reset_options_other_than_the_mask_are_refused() -> None:
    env = AtariVectorEnv(2, "pong")
    with pytest.raises(ValueError, match=r"first reset .* must reset every sub-env"):
        env.reset(options={"reset_mask": np.array([True, False])})
    with pytest.raises(ValueError, match="only the option 'reset_mask', got \\['low'\\]"):
        env.reset(options={"low": 1})
    batched = AtariVectorEnv(4, "pong", batch_size=2)
    batched.reset(seed=0)
    with pytest.raises(ValueError, match="only when batch_size == num_envs"):
        batched.reset(options={"reset_mask": np.array([True, False, False, False])})


def test_close_twice_is_harmless_and_use_after_close_is_an_error() -> None:
    env = AtariVectorEnv(2, "pong")
    env.reset(seed=0)
    env.render()  # nothing to draw, but no error while open
    env.close()
    env.close()
    for use in (lambda: env.reset(), lambda: env.step(np.zeros(2, dtype=np.int64)), env.render):
        with pytest.raises(ClosedEnvironmentError, match="closed"):
            use()


def test_call_get_attr_and_set_attr_answer_as_sync_does() -> None:
    env = AtariVectorEnv(3, "pong")
    assert env.get_attr("render_mode") == (None, None, None)
    assert env.get_attr("frameskip") == (4, 4, 4)
    meanings = ["NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE"]
    assert env.call("get_action_meanings") == (meanings,) * 3
    assert env.call("game") == ("pong",) * 3
    env.set_attr("note", ["a", "a", "a"])
    assert env.get_attr("note") == ("a", "a", "a")
    with pytest.raises(ValueError, match="cannot take different values"):
        env.set_attr("note", ["a", "b", "c"])
    with pytest.raises(ValueError, match="'frameskip' is fixed when ale-py builds"):
        env.set_attr("frameskip", 2)


# -- against the single envs with AtariPreprocessing + FrameStackObservation -----------------


def preprocessed_pair(
    size: tuple[int, int], sticky: float = 0.0, **vector_kwargs: Any
) -> tuple[Any, AtariVectorEnv]:
    """Breakout both ways, with every setting the two can share aligned: no no-op or FIRE
    starts, no sticky actions, no reward clipping, zero padding, life loss as episode end."""
    height, width = size
    single = protogym.make("ALE/Breakout-v5", frameskip=1, repeat_action_probability=sticky)
    stacked = FrameStackObservation(
        AtariPreprocessing(
            single, noop_max=0, frame_skip=4, screen_size=(width, height),
            terminal_on_life_loss=True,
        ),
        4,
        padding_type="zero",
    )
    settings = {
        "noop_max": 0, "use_fire_reset": False, "repeat_action_probability": sticky,
        "reward_clipping": False, "episodic_life": True, "img_height": height,
        "img_width": width, "autoreset_mode": "next_step", **vector_kwargs,
    }  # fmt: skip
    return stacked, AtariVectorEnv(1, "breakout", **settings)


def compare_preprocessed(size: tuple[int, int], steps: int) -> NDArray[np.int16]:
    """Step both the same way, resetting the single env when the vector env restarts;
    return the per-pixel differences of each reset or step (rewards and flags must agree)."""
    single, vector = preprocessed_pair(size)
    obs, _ = single.reset(seed=3)
    batch, _ = vector.reset(seed=3)
    differences = [obs.astype(np.int16) - batch[0]]
    rng = np.random.default_rng(0)
    ended = False
    for _ in range(steps):
        action = int(rng.integers(0, 4))
        batch, reward, terminated, truncated, _ = vector.step(np.array([action]))
        if ended:  # the vector env's next-step restart
            obs, _ = single.reset()
        else:
            obs, single_reward, single_terminated, single_truncated, _ = single.step(action)
            assert (single_reward, single_terminated, single_truncated) == (
                reward[0], terminated[0], truncated[0]
            )
        ended = bool(terminated[0] or truncated[0])
        differences.append(obs.astype(np.int16) - batch[0])
    return np.stack(differences)


@pytest.mark.parametrize("size", [(84, 84), (210, 160)])
def test_preprocessed_single_envs_give_the_same_frames_when_settings_align(
    size: tuple[int, int],
) -> None:
    """The two agree to the bit, across three life losses: AtariPreprocessing's resize is
    OpenCV's INTER_AREA, as in ale-py's C++ (full size: no resize at all)."""
    assert not compare_preprocessed(size, 130).any()


@pytest.mark.parametrize(
    "difference", [{"noop_max": 30}, {"use_fire_reset": True}, {"sticky": 0.25}]
)
def test_the_defaults_that_part_them(difference: dict[str, Any]) -> None:
    """No-op starts (each side's own random stream), the FIRE press, and sticky actions
    (the emulator is seeded differently) make the trajectories differ."""
    single, vector = preprocessed_pair((210, 160), **difference)
    single.reset(seed=3)
    vector.reset(seed=3)
    same = True
    for t in range(40):
        obs = single.step(t % 4)[0]
        batch = vector.step(np.array([t % 4]))[0]
        same = same and bool(np.array_equal(obs, batch[0]))
    assert not same


def streams_of(env: AtariVectorEnv, rounds: int, split: bool) -> dict[int, list[str]]:
    """Each sub-env's own results (reset first) over `rounds` batches, its actions given by
    its id and how many it took; `split` steps through send/recv with the env ids."""
    streams: dict[int, list[str]] = defaultdict(list)
    acted: dict[int, int] = defaultdict(int)
    obs, info = env.reset(seed=5)
    for row, env_id in enumerate(info["env_id"].tolist()):
        streams[env_id].append(f"{digest(obs[row])}:{info['lives'][row]}:0:0:0:-")
    for _ in range(rounds):
        ids = info["env_id"].tolist()
        actions = np.array([(i * 5 + acted[i] * 3 + acted[i] // 4) % 6 for i in ids])
        for env_id in ids:
            acted[env_id] += 1
        if split:
            env.send(actions, info["env_id"])
            obs, reward, terminated, truncated, info = env.recv()
        else:
            obs, reward, terminated, truncated, info = env.step(actions)
        for row, env_id in enumerate(info["env_id"].tolist()):
            final = "-"
            if "final_obs" in info and info["_final_obs"][row]:
                final = digest(info["final_obs"][row])
            streams[env_id].append(
                f"{digest(obs[row])}:{info['lives'][row]}:{int(reward[row])}:"
                f"{int(terminated[row])}:{int(truncated[row])}:{final}"
            )
    return streams


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_send_recv_partial_batches_follow_each_sub_env_as_the_full_batch_does(
    mode: str,
) -> None:
    settings: dict[str, Any] = {"autoreset_mode": mode, "max_num_frames_per_episode": 60}
    full = AtariVectorEnv(4, "pong", **settings)
    expected = streams_of(full, 30, split=False)
    full.close()
    batched = AtariVectorEnv(4, "pong", batch_size=2, **settings)
    got = streams_of(batched, 40, split=True)
    batched.close()
    compared = []
    for env_id, stream in got.items():
        length = min(len(stream), len(expected[env_id]))
        assert stream[:length] == expected[env_id][:length], f"sub-env {env_id} differs"
        compared.extend(stream[:length])
    # sub-envs ran past an episode's end (60 frames = 15 steps), truncated, in both runs
    assert any(entry.split(":")[4] == "1" for entry in compared)
    assert sum(len(stream) >= 10 for stream in got.values()) >= 2


def test_send_and_recv_refuse_to_be_called_out_of_turn() -> None:
    env = AtariVectorEnv(4, "pong", batch_size=2)
    with pytest.raises(ResetNeeded):
        env.send(np.zeros(2, dtype=np.int64))
    _, info = env.reset(seed=0)
    with pytest.raises(NoAsyncCallError, match=r"recv\(\) was called with no send\(\)"):
        env.recv()
    with pytest.raises(InvalidAction, match=r"shape \(2,\), got int64 of shape \(3,\)"):
        env.send(np.zeros(3, dtype=np.int64))
    others = [i for i in range(4) if i not in info["env_id"].tolist()]
    with pytest.raises(ValueError, match=r"steps the sub-envs of the last batch"):
        env.send(np.zeros(2, dtype=np.int64), others)
    with pytest.raises(ValueError, match=r"steps the sub-envs of the last batch"):
        env.send(np.zeros(2, dtype=np.int64), info["env_id"][:1])
    sent = info["env_id"].copy()
    info["env_id"][:] = others  # the caller's array: changing it changes nothing here
    env.send(np.zeros(2, dtype=np.int64), sent)
    with pytest.raises(AlreadyPendingCallError, match=r"call recv\(\) first"):
        env.send(np.zeros(2, dtype=np.int64))
    with pytest.raises(AlreadyPendingCallError, match=r"call recv\(\) first"):
        env.reset(seed=0)
    obs, *_ = env.recv()
    assert obs.shape == (2, 4, 84, 84)
    env.close()


def test_a_partial_reset_keeps_the_other_sub_envs_frame_stacks_and_time_limits() -> None:
    """Disabled mode: resetting sub-env 0 leaves sub-env 1's frame stack and elapsed frames
    as they were, so its stream is the one of a run without the partial reset."""
    settings: dict[str, Any] = {"autoreset_mode": "disabled", "max_num_frames_per_episode": 40}
    actions = np.array([2, 3])
    plain = AtariVectorEnv(2, "pong", **settings)
    plain.reset(seed=3)
    expected = [plain.step(actions) for _ in range(10)]
    plain.close()
    env = AtariVectorEnv(2, "pong", **settings)
    env.reset(seed=3)
    for _ in range(3):
        env.step(actions)
    obs, _ = env.reset(seed=[8, None], options={"reset_mask": np.array([True, False])})
    assert digest(obs[1]) == digest(expected[2][0][1])  # sub-env 1's stack, untouched
    for step in range(3, 10):
        obs, _, _, truncated, _ = env.step(actions)
        assert digest(obs[1]) == digest(expected[step][0][1]), f"step {step}"
        # 40 frames = 10 steps: sub-env 1 truncates on its 10th step, sub-env 0 not yet
        assert truncated.tolist() == [False, step == 9]
    env.close()
