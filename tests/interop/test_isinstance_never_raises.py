"""`isinstance` against protogym's protocols looks members up statically and only ever
returns a bool: no property, `__getattr__` or `__getattribute__` of the object runs."""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
import pytest

import protogym
from protogym.vector import VectorEnv

PROTOCOLS: list[Any] = [protogym.Space, protogym.Env, protogym.Wrapper, VectorEnv]


def _required(protocol: Any) -> tuple[str, ...]:
    return tuple(protocol.__dict__["_required_members_"])


ALL_MEMBERS = sorted({name for protocol in PROTOCOLS for name in _required(protocol)})


class BoomError(RuntimeError):
    """What every member of the hostile objects raises when it is run."""


def _raising_property(name: str) -> property:
    def read(self: object) -> Any:
        raise BoomError(f"{name} was evaluated")

    return property(read)


def _hostile_class(members: list[str], *, getattr_raises: bool) -> type:
    """A class whose members are properties that raise, optionally with a raising
    `__getattr__` and `__getattribute__` too."""
    namespace: dict[str, Any] = {name: _raising_property(name) for name in members}
    if getattr_raises:

        def __getattr__(self: object, name: str) -> Any:  # noqa: N807
            raise BoomError(f"__getattr__({name!r}) ran")

        def __getattribute__(self: object, name: str) -> Any:  # noqa: N807
            raise BoomError(f"__getattribute__({name!r}) ran")

        namespace["__getattr__"] = __getattr__
        namespace["__getattribute__"] = __getattribute__
    return type("Hostile", (), namespace)


@pytest.mark.parametrize("getattr_raises", [False, True], ids=["properties", "everything"])
@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
def test_objects_whose_members_raise_are_judged_by_their_members(
    protocol: Any, getattr_raises: bool
) -> None:
    complete = _hostile_class(ALL_MEMBERS, getattr_raises=getattr_raises)()
    assert isinstance(complete, protocol) is True
    for missing in _required(protocol):
        lacking = _hostile_class(
            [name for name in ALL_MEMBERS if name != missing], getattr_raises=getattr_raises
        )()
        assert isinstance(lacking, protocol) is False, missing


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
def test_members_only_getattr_would_make_do_not_count(protocol: Any) -> None:
    class Proxy:
        calls: ClassVar[list[str]] = []

        def __getattr__(self, name: str) -> Any:
            Proxy.calls.append(name)
            return lambda *args, **kwargs: None

    assert isinstance(Proxy(), protocol) is False
    assert Proxy.calls == []


def test_instance_attributes_count_and_are_not_read_through_getattr() -> None:
    class Holder:
        def __getattr__(self, name: str) -> Any:
            raise BoomError(name)

    holder = Holder()
    for name in _required(protogym.Space):
        assert isinstance(holder, protogym.Space) is False
        setattr(holder, name, None)
    assert isinstance(holder, protogym.Space) is True


def test_a_gymnasium_custom_space_whose_flattenable_check_raises_is_a_space() -> None:
    class Mission(gymnasium.spaces.Space[str]):
        def sample(self, mask: Any = None, probability: Any = None) -> str:
            return "go"

        def contains(self, x: Any) -> bool:
            return isinstance(x, str)

    space = Mission()
    with pytest.raises(NotImplementedError):
        _ = space.is_np_flattenable
    assert isinstance(space, protogym.Space) is True
    assert isinstance(space, protogym.Env) is False


def test_members_added_to_or_removed_from_a_class_later_are_seen() -> None:
    class Growing:
        pass

    thing = Growing()
    assert not isinstance(thing, protogym.Space)
    for name in _required(protogym.Space):
        setattr(Growing, name, None)
    assert isinstance(thing, protogym.Space)
    delattr(Growing, "seed")
    assert not isinstance(thing, protogym.Space)


def test_slots_builtins_and_classes_are_answered() -> None:
    class Slotted:
        __slots__ = _required(protogym.Space)

    assert isinstance(Slotted(), protogym.Space) is True
    for value in (3, "text", None, np.zeros(2), int, protogym.Env):
        for protocol in PROTOCOLS:
            assert isinstance(value, protocol) is False


def test_explicit_subclasses_and_real_envs_still_pass() -> None:
    env = protogym.make("CartPole-v1")
    assert isinstance(env, protogym.Env) and isinstance(env, protogym.Wrapper)
    assert isinstance(env.unwrapped, protogym.Env)
    assert not isinstance(env.unwrapped, protogym.Wrapper)
    assert isinstance(env.observation_space, protogym.Space)
    gym_env = gymnasium.make("CartPole-v1")
    assert isinstance(gym_env, protogym.Env) and isinstance(gym_env, protogym.Wrapper)
    assert isinstance(gym_env.unwrapped, protogym.Env)
    assert isinstance(gym_env.observation_space, protogym.Space)
    vector = protogym.make_vec("CartPole-v1", 2, vectorization_mode="sync")
    assert isinstance(vector, VectorEnv) and not isinstance(env, VectorEnv)
