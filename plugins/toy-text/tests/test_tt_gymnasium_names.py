"""The package stands in for ``gymnasium.envs.toy_text``: Gymnasium's class and module names,
its helper functions, and the env attributes its users read."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import protogym_toy_text
import pytest
from protogym_toy_text import blackjack, cliffwalking, utils
from protogym_toy_text.cliff_walking import CliffWalkingEnv
from protogym_toy_text.frozen_lake import FrozenLakeEnv, is_valid
from protogym_toy_text.taxi import TaxiEnv

import protogym
from protogym.error import UnsupportedMode


def test_the_package_exports_gymnasiums_class_names() -> None:
    assert protogym_toy_text.CliffWalkingEnv is CliffWalkingEnv
    assert protogym_toy_text.FrozenLakeEnv is FrozenLakeEnv
    assert protogym_toy_text.TaxiEnv is TaxiEnv
    assert protogym_toy_text.BlackjackEnv is blackjack.BlackjackEnv
    assert set(protogym_toy_text.__all__) <= set(dir(protogym_toy_text))
    with pytest.raises(AttributeError, match="has no attribute 'Taxi'"):
        _ = protogym_toy_text.Taxi


def test_cliffwalking_is_gymnasiums_module_name_for_cliff_walking() -> None:
    assert cliffwalking.CliffWalkingEnv is CliffWalkingEnv
    assert (cliffwalking.UP, cliffwalking.RIGHT, cliffwalking.DOWN, cliffwalking.LEFT) == (
        0,
        1,
        2,
        3,
    )


def test_plugin_discovery_loads_no_env_module() -> None:
    code = (
        "import sys, protogym\n"
        "protogym.spec('Taxi-v4')\n"
        "print(sorted(m for m in sys.modules if m.startswith('protogym_toy_text.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "['protogym_toy_text.plugin']"


def test_categorical_sample_draws_by_probability_with_one_uniform_number() -> None:
    probabilities = [0.1, 0.0, 0.6, 0.3]
    rng = np.random.default_rng(5)
    draws = [utils.categorical_sample(probabilities, rng) for _ in range(20_000)]
    assert all(type(draw) is int for draw in draws[:10])
    counts = np.bincount(draws, minlength=4) / len(draws)
    np.testing.assert_allclose(counts, probabilities, atol=0.015)
    # one random() per draw: the generator ends where 20,000 uniform draws leave it
    reference = np.random.default_rng(5)
    reference.random(20_000)
    assert rng.random() == reference.random()


def test_blackjack_scores_hands_with_gymnasiums_functions() -> None:
    assert blackjack.deck == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert blackjack.cmp(20, 19) == 1.0 and blackjack.cmp(19, 20) == -1.0
    assert blackjack.cmp(18, 18) == 0.0
    soft = [1, 6]
    assert blackjack.usable_ace(soft) and blackjack.sum_hand(soft) == 17
    hard = [1, 6, 9]
    assert not blackjack.usable_ace(hard) and blackjack.sum_hand(hard) == 16
    bust = [10, 9, 5]
    assert blackjack.is_bust(bust) and blackjack.score(bust) == 0
    assert blackjack.score(hard) == 16
    assert blackjack.is_natural([10, 1]) and not blackjack.is_natural([10, 1, 10])
    assert not blackjack.is_natural([5, 6])


def test_blackjack_draws_cards_as_the_env_does() -> None:
    env = blackjack.BlackjackEnv()
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    assert blackjack.draw_hand(rng) == env.dealer
    assert blackjack.draw_hand(rng) == env.player
    assert all(blackjack.draw_card(rng) in blackjack.deck for _ in range(50))


def test_tabular_envs_expose_their_initial_state_distribution() -> None:
    lake = FrozenLakeEnv(map_name="4x4")
    expected = np.zeros(16)
    expected[0] = 1.0
    np.testing.assert_array_equal(lake.initial_state_distrib, expected)
    taxi = TaxiEnv()
    assert taxi.initial_state_distrib.shape == (500,)
    assert taxi.initial_state_distrib.sum() == pytest.approx(1.0)
    assert np.count_nonzero(taxi.initial_state_distrib) == 300  # 25 cells, 4 x 3 pairs
    cliff = CliffWalkingEnv()
    assert cliff.initial_state_distrib[cliff.start_state_index] == 1.0


def test_gymnasiums_size_attributes() -> None:
    cliff = CliffWalkingEnv()
    assert (cliff.nS, cliff.nA) == (48, 4)
    assert (int(cliff.observation_space.n), int(cliff.action_space.n)) == (48, 4)
    assert cliff.cell_size == (64, 64) and cliff.window_size == (768, 256)
    lake = FrozenLakeEnv(map_name="8x8")
    assert lake.window_size == (512, 512) and lake.cell_size == (64, 64)
    taxi = TaxiEnv()
    assert (taxi.max_row, taxi.max_col) == (4, 4)
    assert len(taxi.locs_colors) == len(taxi.locs) == 4


@pytest.mark.parametrize("env_id", ["FrozenLake-v1", "FrozenLake8x8-v1", "CliffWalking-v1"])
def test_frames_have_the_window_size(env_id: str) -> None:
    env = protogym.make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    width, height = env.unwrapped.window_size  # type: ignore[attr-defined]
    assert isinstance(frame, np.ndarray) and frame.shape == (height, width, 3)
    env.close()


def test_is_valid_checks_for_a_path_to_the_goal() -> None:
    assert is_valid([list("SF"), list("FG")], 2)
    assert not is_valid([list("SH"), list("HG")], 2)
    assert is_valid(["SFH", "HFH", "HGH"], 3)


def test_an_unknown_map_name_is_a_key_error_and_a_value_error() -> None:
    with pytest.raises(KeyError, match="no map named '5x5'"):
        FrozenLakeEnv(map_name="5x5")
    with pytest.raises(ValueError, match="use one of"):
        FrozenLakeEnv(map_name="5x5")


@pytest.mark.parametrize("env_class", [FrozenLakeEnv, TaxiEnv, CliffWalkingEnv])
def test_an_unknown_render_mode_is_unsupported_mode(env_class: type) -> None:
    with pytest.raises(UnsupportedMode, match="does not support render_mode='video'"):
        env_class(render_mode="video")
