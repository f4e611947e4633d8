"""AtariEnv: its ids against ale-py's, cheap discovery, arguments and errors, keys, play,
rendering, video, pickling and the Atari wrappers over it."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from protogym_atari.atari_env import AtariEnv, ContinuousAtariEnv, ObsType
from protogym_atari.games import LEGACY_GAMES, ROMS, V5_GAMES, suggest_games

import protogym
from protogym.error import DeprecatedEnv, UnregisteredEnv
from protogym.spaces import Discrete
from protogym.utils.play import normalise_keys_to_action

GOLDENS = np.load(Path(__file__).parent / "goldens" / "atari.npz")
PLUGIN = "protogym-atari"


def atari_specs() -> dict[str, Any]:
    return {i: s for i, s in protogym.registry.items() if s.plugin == PLUGIN}


def test_the_static_rom_list_is_ale_pys() -> None:
    from ale_py import roms

    assert list(ROMS) == roms.get_all_rom_ids()
    assert set(LEGACY_GAMES) <= set(ROMS) and set(V5_GAMES) <= set(ROMS)


def test_every_id_ale_py_registers_is_registered_with_its_arguments() -> None:
    recorded = json.loads(str(GOLDENS["registry"]))
    specs = atari_specs()
    assert sorted(specs) == sorted(entry["id"] for entry in recorded)
    assert len(specs) == 352
    for entry in recorded:
        spec = specs[entry["id"]]
        assert spec.kwargs == entry["kwargs"], entry["id"]
        assert spec.max_episode_steps == entry["max_episode_steps"]
        assert spec.reward_threshold == entry["reward_threshold"]
        assert spec.nondeterministic == entry["nondeterministic"]
        assert (spec.vector_entry_point is not None) == entry["vector"]
        assert spec.entry_point == "protogym_atari.atari_env:AtariEnv"
    assert specs["ALE/Pong-v5"].vector_entry_point == "protogym_atari.vector:AtariVectorEnv"


def test_discovery_imports_neither_ale_py_nor_an_env_module() -> None:
    code = (
        "import sys, protogym; protogym.spec('ALE/Pong-v5'); "
        "print(sorted(m for m in sys.modules if m.startswith(('ale_py', 'protogym_atari'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = "['protogym_atari', 'protogym_atari.games', 'protogym_atari.plugin']"
    assert out.stdout.strip() == loaded


def test_a_missing_ale_py_names_the_package_to_install() -> None:
    code = (
        "import sys; sys.modules['ale_py'] = None\n"
        "import protogym\n"
        "try:\n    protogym.make('ALE/Pong-v5')\nexcept Exception as e:\n"
        "    print(type(e).__name__, e, e.__cause__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install protogym-atari" in out.stdout and "ale-py" in out.stdout


def test_spaces_info_and_action_meanings_per_obs_type() -> None:
    shapes: dict[ObsType, tuple[int, ...]] = {
        "rgb": (210, 160, 3), "grayscale": (210, 160), "ram": (128,)
    }
    for obs_type, shape in shapes.items():
        env = protogym.make("ALE/Breakout-v5", obs_type=obs_type)
        obs, info = env.reset(seed=0)
        assert obs.shape == shape and obs.dtype == np.uint8 and obs in env.observation_space
        assert info["lives"] == 5 and info["episode_frame_number"] == 0
        assert set(info) == {"lives", "episode_frame_number", "frame_number", "seeds"}
        _, _, _, _, info = env.step(1)
        assert info["episode_frame_number"] == 4 and set(info) == {
            "lives", "episode_frame_number", "frame_number"
        }
    meanings = env.unwrapped.get_action_meanings()
    assert meanings == ["NOOP", "FIRE", "RIGHT", "LEFT"] and env.action_space == Discrete(4)
    full = protogym.make("ALE/Breakout-v5", full_action_space=True).unwrapped
    assert full.action_space.n == 18 and full.get_action_meanings()[-1] == "DOWNLEFTFIRE"


def test_render_fps_follows_the_frame_skip() -> None:
    assert protogym.make("ALE/Pong-v5").metadata["render_fps"] == 15
    assert protogym.make("PongNoFrameskip-v4").metadata["render_fps"] == 60
    assert protogym.make("Pong-v4").metadata["render_fps"] == 20  # skips of 2, 3 or 4


def test_the_same_seed_replays_and_an_unseeded_reset_continues() -> None:
    env = AtariEnv("pong", obs_type="ram", frameskip=(2, 5))  # as Pong-v0: random skips, sticky

    def run() -> list[bytes]:
        return [env.step(a % 6)[0].tobytes() for a in range(60)]

    env.reset(seed=4)
    first = run()
    env.reset(seed=4)
    assert run() == first
    env.reset()
    assert run() != first


def test_clone_and_restore_state() -> None:
    env = AtariEnv("breakout", obs_type="ram", repeat_action_probability=0.0)
    env.reset(seed=0)
    state = env.clone_state()
    after = [env.step(1)[0].tobytes() for _ in range(10)]
    env.restore_state(state)
    assert [env.step(1)[0].tobytes() for _ in range(10)] == after


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "pongg"}, "unknown Atari game 'pongg'; did you mean 'pong'?"),
        ({"game": "SpaceInvaders"}, "did you mean 'space_invaders'?"),
        ({"game": "pong", "obs_type": "rbg"}, "obs_type must be one of 'rgb', 'grayscale', 'ram'"),
        ({"game": "pong", "mode": 5}, "'pong' has no mode 5; its modes are 0, 1"),
        ({"game": "breakout", "difficulty": 3}, "no difficulty 3; its difficulties are 0, 1"),
        ({"game": "pong", "frameskip": 0}, "frameskip must be a positive int or a (low, high)"),
        ({"game": "pong", "frameskip": (4, 2)}, "frameskip must be a positive int"),
        ({"game": "pong", "repeat_action_probability": 1.5}, "must be in [0, 1], got 1.5"),
        ({"game": "pong", "render_mode": "ansi"}, "must be one of 'human', 'rgb_array' or None"),
        ({"game": "pong", "continuous": True}, "protogym_atari.ContinuousAtariEnv"),
    ],
)
def test_bad_arguments_say_what_is_valid(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        AtariEnv(**kwargs)
    assert message in str(raised.value)


def test_suggestions_for_games_and_ids() -> None:
    assert suggest_games("Breakot") == ["breakout"]
    assert suggest_games("montezuma") == ["montezuma_revenge"]
    with pytest.raises(UnregisteredEnv, match=r"Did you mean 'ALE/Pong-v5'"):
        protogym.make("ALE/Pongg-v5")  # type: ignore[protogym-env-id]
    with pytest.raises(DeprecatedEnv, match=r"'ALE/Pong-v4' is no longer registered; use 'ALE"):
        protogym.make("ALE/Pong-v4")  # type: ignore[protogym-env-id]
    with pytest.raises(ValueError, match="did you mean 'pong'"):
        protogym.make("ALE/Breakout-v5", game="png")


@pytest.mark.parametrize("action", [6, -1, 2.5, "1", None])
def test_an_action_outside_the_action_set_names_the_valid_ones(action: Any) -> None:
    env = AtariEnv("pong")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"valid actions are the ints 0 to 5 \(0 NOOP, 1 FIRE"):
        env.step(action)


def test_numpy_and_zero_dimensional_actions_are_accepted() -> None:
    env = AtariEnv("pong", obs_type="ram", repeat_action_probability=0.0)
    env.reset(seed=0)
    for action in (np.int64(2), np.uint8(3)):
        env.step(action)
    env.step(np.array(4))  # type: ignore[arg-type]  # a 0-d array works too, as in ale-py


def test_continuous_actions_pick_the_joystick_direction() -> None:
    env = ContinuousAtariEnv("breakout", obs_type="ram")
    env.reset(seed=0)
    assert env.action_space.shape == (3,) and env.get_action_meanings()[0] == "NOOP"
    assert env._decode(np.array([1.0, 0.0, 0.0], np.float32))[0].name == "RIGHT"
    assert env._decode(np.array([1.0, np.pi / 2, 1.0], np.float32))[0].name == "UPFIRE"
    assert env._decode(np.array([1.0, -3 * np.pi / 4, 0.0], np.float32))[0].name == "DOWNLEFT"
    weak, strength = env._decode(np.array([0.2, 1.0, 0.0], np.float32))
    assert weak.name == "NOOP" and strength == pytest.approx(0.2)  # the radius is the strength
    with pytest.raises(ValueError, match="float32 array of shape"):
        env.step(np.array([1.0, 0.0], np.float32))


@pytest.mark.parametrize("game", ["pong", "breakout", "ms_pacman", "seaquest"])
def test_keys_map_every_action_once_per_key_family(game: str) -> None:
    for full in (False, True):
        env = AtariEnv(game, full_action_space=full)
        mapping = env.get_keys_to_action()
        normalised = normalise_keys_to_action(mapping, env.action_space)
        assert sorted(set(normalised.values())) == list(range(env.action_space.n))
        meanings = env.get_action_meanings()
        assert mapping[()] == meanings.index("NOOP")
        if "UPLEFTFIRE" in meanings:
            assert mapping[(0x40000052, 0x40000050, " ")] == meanings.index("UPLEFTFIRE")
            assert mapping[("w", "a", " ")] == meanings.index("UPLEFTFIRE")


def test_play_command_drives_pong_with_the_keyboard(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    pygame = pytest.importorskip("pygame")
    from protogym.cli import play as play_command
    from protogym.utils import play as play_module

    seen: list[Any] = []
    original = play_module.play

    def recording_play(env: Any, **kwargs: Any) -> None:
        original(env, callback=lambda *t: seen.append(t[2]), **kwargs)

    monkeypatch.setattr("protogym.utils.play.play", recording_play)
    parser = argparse.ArgumentParser(prog="protogym")
    play_command.add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(
        ["play", "Pong-v0", "--seed", "0", "--fps", "1000", "--wait-on-player"]
    )
    pygame.display.init()
    pygame.event.clear()
    events = []
    for held in ((pygame.K_SPACE,), (ord("d"),), (pygame.K_LEFT, pygame.K_SPACE)):
        events += [pygame.event.Event(pygame.KEYDOWN, key=k) for k in held]
        events += [pygame.event.Event(pygame.KEYUP, key=k) for k in held]
    for event in [*events, pygame.event.Event(pygame.QUIT)]:
        pygame.event.post(event)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert args.func(args) == 0
    # One step per key press, with the keys held at that moment: space FIRE, D RIGHT, the
    # left arrow LEFT, then space with the arrow still held LEFTFIRE.
    assert seen == [1, 2, 3, 5]


def test_human_render_mode_runs_with_the_emulators_window() -> None:
    env = protogym.make("ALE/Pong-v5", render_mode="human", obs_type="ram")
    env.reset(seed=0)
    env.step(0)
    assert env.render() is None
    env.close()


def test_rgb_array_render_is_the_screen() -> None:
    env = protogym.make("ALE/Breakout-v5", render_mode="rgb_array", obs_type="grayscale")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (210, 160, 3) and frame.dtype == np.uint8
    assert np.array_equal(frame, env.unwrapped.ale.getScreenRGB())
    with pytest.warns(UserWarning, match="no render_mode"):
        assert AtariEnv("pong").render() is None


def test_record_video_writes_a_readable_mp4_of_an_episode(tmp_path: Path) -> None:
    imageio = pytest.importorskip("imageio")
    from protogym.wrappers import RecordVideo

    env = RecordVideo(
        protogym.make("ALE/Pong-v5", render_mode="rgb_array", max_num_frames_per_episode=200),
        str(tmp_path),
        name_prefix="pong",
    )
    env.reset(seed=0)
    steps = 0
    while True:
        steps += 1
        _, _, terminated, truncated, _ = env.step(steps % 6)
        if terminated or truncated:
            break
    env.close()
    videos = sorted(tmp_path.glob("*.mp4"))
    assert [v.name for v in videos] == ["pong-episode-0.mp4"]
    reader = imageio.get_reader(str(videos[0]), format="FFMPEG")
    frames = [frame.shape for frame in reader]
    reader.close()
    assert steps == 50 and len(frames) == steps + 1  # the reset frame and one per step
    assert frames[0][:2] == (210, 160)


def test_pickling_gives_a_fresh_env_with_the_same_arguments() -> None:
    env = AtariEnv("breakout", obs_type="ram", frameskip=[2, 5], mode=4)
    copy = pickle.loads(pickle.dumps(env))
    assert isinstance(copy, AtariEnv) and copy._frameskip == (2, 5) and copy._mode == 4
    assert np.array_equal(copy.reset(seed=1)[0], env.reset(seed=1)[0])
    cont = pickle.loads(pickle.dumps(ContinuousAtariEnv("pong", continuous_action_threshold=0.3)))
    assert cont.continuous_action_threshold == 0.3


def test_atari_preprocessing_and_frame_stack_over_the_single_env() -> None:
    from protogym.wrappers import AtariPreprocessing, FrameStackObservation

    def make() -> Any:
        env = protogym.make("BreakoutNoFrameskip-v4")
        return FrameStackObservation(AtariPreprocessing(env, terminal_on_life_loss=True), 4)

    env, twin = make(), make()
    assert env.observation_space.shape == (4, 84, 84)
    obs, _ = env.reset(seed=3)
    assert np.array_equal(obs, twin.reset(seed=3)[0]) and obs.dtype == np.uint8
    assert obs[3].any() and all(np.array_equal(frame, obs[3]) for frame in obs[:3])  # padding
    ends = 0
    for step in range(300):
        obs, reward, terminated, truncated, info = env.step(step % 4)
        assert np.array_equal(obs, twin.step(step % 4)[0])
        assert obs in env.observation_space
        if terminated:
            ends += 1
            assert info["lives"] < 5  # a life lost ends the episode
            env.reset()
            twin.reset()
    assert ends >= 1


def test_the_package_exports_the_env_classes_lazily() -> None:
    import protogym_atari

    assert protogym_atari.AtariEnv is AtariEnv
    assert protogym_atari.ContinuousAtariEnv is ContinuousAtariEnv
    with pytest.raises(AttributeError, match="no attribute 'Atari'"):
        protogym_atari.Atari  # noqa: B018


def test_continuous_flags_the_kind_of_actions_as_ale_py_does() -> None:
    assert AtariEnv("pong").continuous is False
    assert ContinuousAtariEnv("pong").continuous is True
    env = protogym.make("ALE/Pong-v5")
    assert env.unwrapped.continuous is False
    env.close()
