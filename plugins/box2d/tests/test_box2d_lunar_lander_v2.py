"""LunarLander-v2 replays gym 0.26.2's recorded trajectories to the bit, over two episodes,
wind included (its phase comes from NumPy's global generator, seeded as the recording did)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import protogym

GOLDENS = np.load(Path(__file__).parent / "goldens" / "lunar_lander_v2.npz")
CASES = json.loads(str(GOLDENS["cases"]))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_two_episodes_match_gym_026_to_the_bit(case: dict[str, Any]) -> None:
    name = case["name"]
    observations = GOLDENS[f"{name}/observations"]
    actions = GOLDENS[f"{name}/actions"]
    np.random.seed(case["seed"])  # v2 draws its wind phase from the global generator
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # v3 is newer
        env = protogym.make("LunarLander-v2", **case["kwargs"]).unwrapped
    seen = taken = 0
    for episode in range(2):
        obs, _ = env.reset(seed=case["seed"] if episode == 0 else None)
        np.testing.assert_array_equal(obs, observations[seen])
        seen += 1
        terminated = False
        while not terminated:
            obs, reward, terminated, _, _ = env.step(actions[taken])
            np.testing.assert_array_equal(obs, observations[seen], err_msg=f"step {taken}")
            assert float(reward) == GOLDENS[f"{name}/rewards"][taken]
            assert terminated == GOLDENS[f"{name}/terminations"][taken]
            seen += 1
            taken += 1
    assert taken == len(actions)

