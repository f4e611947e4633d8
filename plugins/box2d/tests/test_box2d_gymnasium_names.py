"""The package stands in for ``gymnasium.envs.box2d``: Gymnasium's class and module names,
the attributes its users read through `unwrapped`, and rewards of Gymnasium's types."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import protogym_box2d
import pytest
from protogym_box2d import car_dynamics
from protogym_box2d.bipedal_walker import BipedalWalker, BipedalWalkerEnv, BipedalWalkerHardcore
from protogym_box2d.car_racing import CarRacing, CarRacingEnv
from protogym_box2d.lunar_lander import (
    LunarLander,
    LunarLanderContinuous,
    LunarLanderEnv,
    demo_heuristic_lander,
    heuristic,
)
from protogym_box2d.racing_car import RacingCar
from protogym_box2d.racing_track import PLAYFIELD

import protogym
from protogym.error import UnsupportedMode


def test_the_package_exports_gymnasiums_class_names() -> None:
    assert protogym_box2d.BipedalWalker is BipedalWalker is BipedalWalkerEnv
    assert protogym_box2d.BipedalWalkerHardcore is BipedalWalkerHardcore
    assert protogym_box2d.CarRacing is CarRacing is CarRacingEnv
    assert protogym_box2d.LunarLander is LunarLander is LunarLanderEnv
    assert protogym_box2d.LunarLanderContinuous is LunarLanderContinuous
    assert car_dynamics.Car is RacingCar
    with pytest.raises(AttributeError, match="has no attribute 'Lander'"):
        _ = protogym_box2d.Lander


def test_plugin_discovery_loads_neither_env_modules_nor_box2d() -> None:
    code = (
        "import sys, protogym\n"
        "protogym.spec('LunarLander-v3')\n"
        "print(sorted(m for m in sys.modules if m.startswith('protogym_box2d.')),"
        " 'Box2D' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "['protogym_box2d.plugin'] False"


def test_the_hardcore_and_continuous_classes_build_their_envs() -> None:
    walker = BipedalWalkerHardcore()
    assert isinstance(walker, BipedalWalker) and walker.hardcore
    lander = LunarLanderContinuous(enable_wind=True)
    assert isinstance(lander, LunarLander) and lander.continuous and lander.enable_wind
    assert lander.action_space.shape == (2,)


def test_lunar_lander_attributes() -> None:
    env = LunarLanderEnv(enable_wind=True)
    assert env.lander is None and env.drawlist == []
    env.reset(seed=4)
    assert env.lander is not None and len(env.legs) == 2
    assert env.drawlist == [env.lander, *env.legs]
    assert env.moon is not None and env.lander in env.world.bodies
    assert len(env.sky_polys) == 10 and not env.game_over
    assert isinstance(env.prev_shaping, float)
    wind, torque = env.wind_idx, env.torque_idx
    env.step(0)
    assert (env.wind_idx, env.torque_idx) == (wind + 1, torque + 1)


def test_lunar_lander_rewards_have_gymnasiums_types() -> None:
    env = LunarLanderEnv()
    env.reset(seed=0)
    terminated = False
    while not terminated:
        _, reward, terminated, _, _ = env.step(2 if not env.game_over else 0)
        if not terminated:
            assert type(reward) is np.float64
    # the episode ends by crashing or flying off at full throttle: a Python int reward
    assert reward == -100 and type(reward) is int


def test_the_heuristic_flies_a_demo_episode() -> None:
    env = protogym.make("LunarLander-v3")
    observation, _ = env.reset(seed=1)
    assert heuristic(env, observation) in (0, 1, 2, 3)
    assert demo_heuristic_lander(env, seed=1) > 200
    continuous = protogym.make("LunarLanderContinuous-v3")
    observation, _ = continuous.reset(seed=1)
    action = heuristic(continuous, observation)
    assert isinstance(action, np.ndarray) and action.shape == (2,)


def test_bipedal_walker_attributes() -> None:
    env = BipedalWalkerEnv(hardcore=True)
    env.reset(seed=2)
    assert env.hull is not None and len(env.legs) == 4 and len(env.joints) == 4
    assert env.drawlist == [*env.terrain, *env.legs, env.hull]
    assert len(env.terrain_x) == len(env.terrain_y) == 200
    assert len(env.cloud_poly) == 10 and not env.game_over
    colours = {(body.color1, body.color2) for body in env.terrain}
    assert ((255, 255, 255), (153, 153, 153)) in colours  # hardcore's obstacles
    grass = [body for body in env.terrain if body.color1 == body.color2]
    assert len(grass) == 199  # one edge per terrain step


def test_bipedal_walker_legs_report_ground_contact() -> None:
    env = BipedalWalkerEnv()
    env.reset(seed=0)
    for _ in range(60):
        observation, *_ = env.step(np.zeros(4, np.float32))
        assert observation[8] == float(env.legs[1].ground_contact)
        assert observation[13] == float(env.legs[3].ground_contact)
    assert env.legs[1].ground_contact or env.legs[3].ground_contact  # it is standing
    assert not env.legs[0].ground_contact and not env.legs[2].ground_contact


@pytest.mark.parametrize(
    ("dtype", "reward_type"), [(np.float32, np.float32), (np.float64, np.float64)]
)
def test_bipedal_walker_reward_takes_the_actions_precision(
    dtype: type[np.floating[Any]], reward_type: type
) -> None:
    env = BipedalWalkerEnv()
    env.reset(seed=0)
    _, reward, *_ = env.step(np.full(4, 0.5, dtype))
    assert type(reward) is reward_type


def test_bipedal_walker_fall_penalty_is_a_python_int() -> None:
    env = BipedalWalkerEnv()
    env.reset(seed=0)
    env.game_over = True  # as the hull's contact with the ground sets it
    _, reward, terminated, _, _ = env.step(np.zeros(4, np.float32))
    assert terminated and reward == -100 and type(reward) is int


def test_car_racing_attributes() -> None:
    env = CarRacingEnv(domain_randomize=True)
    observation, _ = env.reset(seed=3)
    assert len(env.road) == len(env.track) > 200
    assert len(env.road_poly) >= len(env.road)  # kerbs are drawn too
    corners, colour = env.road_poly[0]
    assert len(corners) == 4 and len(colour) == 3
    for name in ("road_color", "bg_color", "grass_color"):
        assert getattr(env, name).shape == (3,)
    assert env.state is observation and env.t == pytest.approx(1 / 50)
    # the car starts on the road: the tiles under it count before the first step
    assert env.tile_visited_count > 0 and env.prev_reward == 0.0
    assert env.reward == pytest.approx(env.tile_visited_count * 1000 / len(env.track))
    assert not env.new_lap
    assert env.start_alpha == pytest.approx(-np.pi / 12)
    first = np.array([env.road_color, env.bg_color, env.grass_color])
    env.reset(options={"randomize": False})
    np.testing.assert_array_equal([env.road_color, env.bg_color, env.grass_color], first)
    env.reset()
    assert (np.array([env.road_color, env.bg_color, env.grass_color]) != first).all()
    for _ in range(5):
        observation, *_ = env.step(np.array([0.0, 1.0, 0.0], np.float32))
    assert env.state is observation and env.t == pytest.approx(6 / 50)
    assert env.reward != 0.0


def test_car_racing_leaving_the_playfield_costs_a_python_int() -> None:
    env = CarRacingEnv()
    env.reset(seed=0)
    assert env.car is not None
    env.car.hull.position = (PLAYFIELD + 10.0, 0.0)
    _, reward, terminated, _, info = env.step(np.zeros(3, np.float32))
    assert terminated and info == {"lap_finished": False}
    assert reward == -100 and type(reward) is int


@pytest.mark.parametrize("env_class", [LunarLanderEnv, BipedalWalkerEnv, CarRacingEnv])
def test_an_unknown_render_mode_is_unsupported_mode(env_class: type) -> None:
    with pytest.raises(UnsupportedMode, match="does not support render_mode='ansi'"):
        env_class(render_mode="ansi")
