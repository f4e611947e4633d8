"""`make`'s shortcuts keep its behaviour: read-only specs, structural envs and wrappers, and
spaces and envs that are such by their members alone."""

from __future__ import annotations

import sys
import types
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

import protogym
from protogym.core import Wrapper
from protogym.registration import EnvSpec, load_entry_point
from protogym.spaces import Discrete
from tests.core.core_test_envs import StructuralWalk

FIXED = EnvSpec("fixed/Fixed-v0", entry_point="nowhere:Fixed")


class ReadOnlySpecWalk(StructuralWalk):
    """A structural env whose `spec` is a property without a setter."""

    @property
    def spec(self) -> EnvSpec:
        return FIXED


class ReadOnlySpecWrapper(Wrapper[Any, Any, Any, Any]):
    """A wrapper whose `spec` cannot be assigned."""

    @property  # type: ignore[misc]  # read-only on purpose
    def spec(self) -> EnvSpec:
        return FIXED


def wrapped_walk() -> ReadOnlySpecWrapper:
    return ReadOnlySpecWrapper(StructuralWalk())


class Lookalikes:
    class Discrete:
        """A space by its members alone (it does not subclass `Space`), whose class name
        the checker knows."""

        def __init__(self, n: int) -> None:
            self.inner = Discrete(2)
            self.shape = ()
            self.dtype = self.inner.dtype
            self.np_random = self.inner.np_random
            self.is_np_flattenable = True
            self.n = n

        def sample(self, mask: Any = None, probability: Any = None) -> Any:
            return self.inner.sample()

        def contains(self, x: Any) -> bool:
            return x in self.inner

        def __contains__(self, x: Any) -> bool:
            return x in self.inner

        def seed(self, seed: Any = None) -> Any:
            return self.inner.seed(seed)

        def to_jsonable(self, batch: Any) -> Any:
            return self.inner.to_jsonable(batch)

        def from_jsonable(self, batch: Any) -> Any:
            return self.inner.from_jsonable(batch)


class StructuralSpaceWalk(StructuralWalk):
    def __init__(self, n: int = 2) -> None:
        super().__init__()
        self.action_space = Lookalikes.Discrete(n)  # type: ignore[assignment]


class NoSpaceWalk(StructuralWalk):
    def __init__(self) -> None:
        super().__init__()
        self.action_space = "left or right"  # type: ignore[assignment]


@pytest.fixture(autouse=True)
def _test_ids() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        protogym.register("fast/ReadOnly-v0", entry_point=ReadOnlySpecWalk, max_episode_steps=3)
        protogym.register("fast/ReadOnlyBare-v0", entry_point=ReadOnlySpecWalk,
                          order_enforce=False, disable_env_checker=True)
        protogym.register("fast/ReadOnlyWrapper-v0", entry_point=wrapped_walk,
                          order_enforce=False, disable_env_checker=True)
        protogym.register("fast/StructuralSpace-v0", entry_point=StructuralSpaceWalk)
        protogym.register("fast/NoSpace-v0", entry_point=NoSpaceWalk)
    yield
    for env_id in [i for i in protogym.registry if i.startswith("fast/")]:
        protogym.registry.unregister(env_id)


def test_a_read_only_env_spec_is_reported_by_makes_wrappers() -> None:
    env = protogym.make("fast/ReadOnly-v0")
    assert env.unwrapped.spec is FIXED
    assert env.spec is protogym.registry["fast/ReadOnly-v0"]


def test_a_read_only_env_spec_alone_is_held_by_a_plain_wrapper() -> None:
    env = protogym.make("fast/ReadOnlyBare-v0")
    assert type(env).__name__ == "_Made"
    assert env.unwrapped.spec is FIXED
    assert env.spec is protogym.registry["fast/ReadOnlyBare-v0"]


def test_a_wrapper_with_a_read_only_spec_is_returned_as_built() -> None:
    env = protogym.make("fast/ReadOnlyWrapper-v0")
    assert type(env) is ReadOnlySpecWrapper
    assert env.spec is FIXED


def test_structural_spaces_are_checked_by_their_members() -> None:
    env = protogym.make("fast/StructuralSpace-v0")
    action_space: object = env.action_space
    assert type(action_space) is Lookalikes.Discrete
    with pytest.raises(AssertionError, match="PG102"):  # n=0: the checker still looks inside
        protogym.make("fast/StructuralSpace-v0", n=0)


def test_a_space_that_is_no_space_is_still_refused() -> None:
    with pytest.raises(TypeError, match="PG101"):
        protogym.make("fast/NoSpace-v0")


def test_the_shared_bare_spec_follows_the_registered_kwargs() -> None:
    """The env's own spec is made once per registered spec and shared, but a change to the
    spec's kwargs in place, or to a made env's own spec kwargs, is never served stale."""
    spec = protogym.registry["fast/ReadOnly-v0"]
    protogym.registry["fast/Sized-v0"] = spec.evolve(
        id="fast/Sized-v0", entry_point=StructuralWalk, kwargs={"size": 2}
    )
    sized = protogym.registry["fast/Sized-v0"]
    first: Any = protogym.make("fast/Sized-v0")
    second: Any = protogym.make("fast/Sized-v0")
    assert first.unwrapped.spec is second.unwrapped.spec  # shared while nothing changed
    assert first.unwrapped.spec.kwargs == {"size": 2}

    sized.kwargs["size"] = 4  # the registered spec changed in place
    env: Any = protogym.make("fast/Sized-v0")
    assert env.unwrapped.size == 4
    assert env.unwrapped.spec.kwargs == {"size": 4} and env.spec.kwargs == {"size": 4}
    assert first.unwrapped.spec.kwargs == {"size": 2}

    env.unwrapped.spec.kwargs["size"] = 9  # a made env's own spec changed in place
    again: Any = protogym.make("fast/Sized-v0")
    assert again.unwrapped.size == 4 and again.unwrapped.spec.kwargs == {"size": 4}


def test_a_re_registered_id_makes_its_new_spec() -> None:
    protogym.registry["fast/Sized-v0"] = EnvSpec(
        "fast/Sized-v0", entry_point=StructuralWalk, kwargs={"size": 2}
    )
    env: Any = protogym.make("fast/Sized-v0")
    assert env.unwrapped.spec.kwargs == {"size": 2}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        protogym.register("fast/Sized-v0", entry_point=StructuralWalk, kwargs={"size": 3},
                          max_episode_steps=7)
    env = protogym.make("fast/Sized-v0")
    assert env.unwrapped.size == 3 and env.unwrapped.spec.kwargs == {"size": 3}
    assert env.spec.max_episode_steps == 7 and env.spec.kwargs == {"size": 3}


def test_entry_points_follow_their_module_after_the_first_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The module is imported once, but its attribute is read anew: a patched class, a
    replaced module or a removed attribute is never answered from the first look-up."""

    class Longer(StructuralWalk):
        def __init__(self, size: int = 7, render_mode: str | None = None) -> None:
            super().__init__(size, render_mode)

    module = types.ModuleType("fast_entry_points")
    module.Walk = StructuralWalk  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fast_entry_points", module)
    # The module is made here, so the mypy plugin cannot find it; the id is in a variable so
    # that the plugin does not type the make calls by it.
    entry_id = "fast/Entry-v0"
    protogym.register(entry_id, entry_point="fast_entry_points:Walk")  # type: ignore[protogym-entry-point]
    assert load_entry_point("fast_entry_points:Walk") is StructuralWalk
    first: Any = protogym.make(entry_id)
    assert type(first.unwrapped) is StructuralWalk

    monkeypatch.setattr(module, "Walk", Longer)
    assert load_entry_point("fast_entry_points:Walk") is Longer
    patched: Any = protogym.make(entry_id)
    assert type(patched.unwrapped) is Longer and patched.unwrapped.size == 7

    replacement = types.ModuleType("fast_entry_points")
    replacement.Walk = ReadOnlySpecWalk  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fast_entry_points", replacement)
    assert load_entry_point("fast_entry_points:Walk") is ReadOnlySpecWalk

    del replacement.Walk
    with pytest.raises(AttributeError, match="module 'fast_entry_points' has no attribute"):
        load_entry_point("fast_entry_points:Walk")
