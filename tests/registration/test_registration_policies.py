"""Named policies: plugins register them per id, by callable or lazily by path."""

from __future__ import annotations

import sys

import pytest

import protogym
from protogym.error import RegistrationError, UnregisteredEnv
from protogym.registration import Registry


def _always_left(observation: object) -> int:
    return 0


def test_a_policy_is_found_by_id_and_name_and_loaded_lazily() -> None:
    registry = Registry()
    registry.register_policy("t/Walk-v0", "left", _always_left)
    registry.register_policy("t/Walk-v0", "lazy", "tests.fixtures.lazy_policy:push_right")
    assert registry.policies("t/Walk-v0") == ["lazy", "left"]
    assert registry.policy("t/Walk-v0", "left")(None) == 0
    assert "tests.fixtures.lazy_policy" not in sys.modules
    assert registry.policy("t/Walk-v0", "lazy")(None) == 1
    assert registry.policies("t/Other-v0") == []


def test_unknown_policies_and_bad_names_say_what_exists() -> None:
    registry = Registry()
    registry.register_policy("t/Walk-v0", "left", _always_left)
    with pytest.raises(UnregisteredEnv, match=r"no policy 'right' .*\(its policies: 'left'\)"):
        registry.policy("t/Walk-v0", "right")
    with pytest.raises(UnregisteredEnv, match="its policies: none"):
        registry.policy("t/Other-v0", "left")
    with pytest.raises(RegistrationError, match="must be an identifier"):
        registry.register_policy("t/Walk-v0", "go left", _always_left)


def test_first_party_plugins_register_their_heuristics() -> None:
    assert protogym.registry.policies("MountainCar-v0") == ["heuristic"]
