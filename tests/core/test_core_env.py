"""The Env and Wrapper protocols: structural conformance, defaults, seeding, forwarding."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pytest

import protogym
from protogym.core import ObservationWrapper, RewardWrapper, Wrapper
from protogym.spaces import Box, Discrete
from tests.core.core_test_envs import SeededCoin, StructuralWalk


class Negate(RewardWrapper[Any, Any]):
    def reward(self, reward: Any) -> float:
        return -float(reward)


class Doubled(ObservationWrapper[Any, Any, Any]):
    def __init__(self, env: protogym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.observation_space = Box(0, 10, (1,), np.int64)

    def observation(self, observation: Any) -> Any:
        return observation * 2


def test_structural_env_is_an_env_without_inheriting() -> None:
    env = StructuralWalk()
    assert isinstance(env, protogym.Env)
    assert not isinstance(env, protogym.Wrapper)
    assert not isinstance(object(), protogym.Env)


def test_object_missing_a_member_is_not_an_env() -> None:
    env = StructuralWalk()
    del env.render_mode
    assert not isinstance(env, protogym.Env)


def test_subclass_gets_default_members() -> None:
    env = SeededCoin()
    assert isinstance(env, protogym.Env)
    assert env.unwrapped is env
    assert env.spec is None
    assert isinstance(env.np_random, np.random.Generator)
    assert str(env) == "<SeededCoin instance>"
    with SeededCoin() as inside:
        pass
    assert inside.closed == 1


class Bare(protogym.Env[Any, Any]):
    """Declares neither metadata nor render_mode, as many Gymnasium envs do."""

    action_space: Discrete
    observation_space: Discrete

    def __init__(self) -> None:
        self.action_space = Discrete(2)
        self.observation_space = Discrete(3)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)
        return 0, {}

    def step(self, action: int) -> Any:
        return 1, 1.0, action == 1, False, {}


def test_a_subclass_without_metadata_or_render_mode_gets_gymnasiums_defaults() -> None:
    env = Bare()
    assert env.metadata == {"render_modes": []} and type(env.metadata) is dict
    assert env.render_mode is None

    class Declared(Bare):
        metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}
        render_mode = "ansi"

    assert Declared().metadata["render_modes"] == ["ansi"] and Declared().render_mode == "ansi"
    assert Bare().metadata["render_modes"] == [] and Bare().render_mode is None
    protogym.check_env(Bare())  # the defaults satisfy the checker's render rules
    protogym.register("test/Bare-v0", entry_point=Bare, max_episode_steps=2)
    try:
        made = protogym.make("test/Bare-v0")
        assert made.metadata["render_modes"] == []
        assert made.reset(seed=0)[0] == 0
        vector = protogym.make_vec("test/Bare-v0", 2, vectorization_mode="sync")
        vector.reset(seed=0)
        assert vector.step(np.array([0, 1]))[2].tolist() == [False, True]
    finally:
        protogym.registry.unregister("test/Bare-v0")


def test_each_env_class_owns_its_default_metadata() -> None:
    class Sibling(Bare):
        pass

    class Stranger(protogym.Env[Any, Any]):
        pass

    Bare.metadata["render_fps"] = 30  # type: ignore[index]  # a plain dict, as in Gymnasium
    try:
        assert Sibling.metadata is Bare.metadata  # inherited from Bare, as Python does
        assert vars(Stranger)["metadata"] == {"render_modes": []}  # its own, not Bare's
        assert protogym.Env.__dict__["metadata"] == {"render_modes": []}
        assert Bare().metadata is vars(Bare)["metadata"]  # per class, not per instance
    finally:
        del Bare.metadata["render_fps"]  # type: ignore[attr-defined]


def test_reset_with_seed_reseeds_and_without_seed_keeps_the_stream() -> None:
    env = SeededCoin()
    first, _ = env.reset(seed=7)
    second, _ = env.reset()
    again, _ = env.reset(seed=7)
    assert first == again
    assert second != first
    assert env.np_random_seed == 7
    continued, _ = env.reset()
    assert continued == second


def test_np_random_is_created_lazily_from_os_entropy() -> None:
    a, b = SeededCoin(), SeededCoin()
    assert a.np_random.random() != b.np_random.random()
    assert a.np_random_seed >= 0


def test_assigning_a_generator_marks_the_seed_unknown() -> None:
    env = SeededCoin()
    env.np_random = np.random.default_rng(3)
    assert env.np_random_seed == -1
    assert env.np_random.random() == np.random.default_rng(3).random()


def test_wrapper_forwards_and_overrides_spaces() -> None:
    inner = StructuralWalk()
    wrapped = Doubled(inner)
    assert wrapped.action_space is inner.action_space
    assert wrapped.observation_space == Box(0, 10, (1,), np.int64)
    assert wrapped.metadata is inner.metadata
    assert wrapped.unwrapped is inner
    obs, info = wrapped.reset(options={"start": 2})
    assert (obs.tolist(), info) == ([4], {"start": 2})
    assert wrapped.step(1)[0].tolist() == [6]


def test_reward_wrapper_and_nesting_repr() -> None:
    env = Negate(Doubled(StructuralWalk(size=1)))
    env.reset()
    _, reward, terminated, _, _ = env.step(1)
    assert (reward, terminated) == (-1.0, True)
    assert repr(env) == "<Negate<Doubled<StructuralWalk instance>>>"
    assert isinstance(env, Wrapper) and isinstance(env, protogym.Env)


def test_wrapper_gives_a_structural_env_a_generator() -> None:
    env = Negate(StructuralWalk())
    generator = env.np_random
    assert isinstance(generator, np.random.Generator)
    assert env.np_random is generator


def test_get_wrapper_attr_searches_inwards() -> None:
    env = Negate(Doubled(StructuralWalk(size=9)))
    assert env.get_wrapper_attr("size") == 9
    with pytest.raises(AttributeError, match="nor any env inside it has an attribute 'nothing'"):
        env.get_wrapper_attr("nothing")


def test_wrapping_something_that_is_not_an_env_says_what_is_missing() -> None:
    with pytest.raises(TypeError, match="needs an environment, got 'int', which lacks"):
        Negate(3)  # type: ignore[arg-type]


def test_space_protocol_accepts_protogym_spaces() -> None:
    assert isinstance(Discrete(3), protogym.Space)
    assert isinstance(Box(0, 1, (2,)), protogym.Space)
    assert not isinstance("not a space", protogym.Space)


def test_import_protogym_does_not_import_numpy_or_the_registry() -> None:
    import subprocess
    import sys

    code = (
        "import sys, protogym; "
        "print(sorted(m for m in ('numpy', 'pluggy', 'protogym.registration', "
        "'protogym.spaces.box') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr


def test_gymnasium_spaces_satisfy_the_space_protocol() -> None:
    from gymnasium import spaces as gym_spaces

    assert isinstance(gym_spaces.Discrete(3), protogym.Space)
    assert isinstance(gym_spaces.Box(0, 1, (2,)), protogym.Space)
