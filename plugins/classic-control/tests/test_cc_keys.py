"""Keyboard maps for `protogym play`: every mapped action is a valid action of the env."""

from __future__ import annotations

import pytest

import protogym
from protogym.utils.play import normalise_keys_to_action


@pytest.mark.parametrize(
    ("env_id", "expected_keys"),
    [
        ("CartPole-v1", 2),
        ("MountainCar-v0", 4),
        ("MountainCarContinuous-v0", 3),
        ("Pendulum-v1", 3),
        ("Acrobot-v1", 3),
    ],
)
def test_keys_to_action_maps_into_the_action_space(env_id: str, expected_keys: int) -> None:
    env = protogym.make(env_id)
    mapping = env.get_wrapper_attr("get_keys_to_action")()
    assert len(mapping) == expected_keys
    assert all(env.action_space.contains(action) for action in mapping.values())
    normalised = normalise_keys_to_action(mapping, env.action_space)
    assert all(key == tuple(sorted(key)) for key in normalised)
