"""`VectorEnv` as a base class (Gymnasium's members for subclasses), `AutoresetMode`'s values,
and what `VectorWrapper` forwards."""

from __future__ import annotations

from typing import Any, ClassVar, cast

import numpy as np
import pytest

from protogym.spaces import Box, Discrete, batch_space
from protogym.vector import AutoresetMode, SyncVectorEnv, VectorEnv, VectorWrapper
from protogym.vector.vector_env import parse_autoreset_mode
from tests.vector.vector_helpers import countdowns


class Walk(VectorEnv[Any, Any, Any]):
    """A hand-written vector env in Gymnasium's style: subclasses VectorEnv, seeds through
    `super().reset`, draws from `self.np_random`, releases in `close_extras`.

    (The members VectorEnv gives subclasses at run time are not in mypy's view of the
    protocol, so typed code reaches them through `Any` here.)"""

    num_envs: int
    single_observation_space: Box
    single_action_space: Discrete
    observation_space: Any
    action_space: Any
    metadata: dict[str, Any]

    def __init__(self, num_envs: int = 3) -> None:
        super().__init__()
        self.num_envs = num_envs
        self.single_observation_space = Box(-10.0, 10.0, (1,))
        self.single_action_space = Discrete(2)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}
        self.released = 0

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        self.position = cast(Any, self).np_random.uniform(-1, 1, size=(self.num_envs, 1))
        return self.position.astype(np.float32), {}

    def step(self, actions: Any) -> Any:
        self.position = self.position + np.where(np.asarray(actions)[:, None] == 1, 1.0, -1.0)
        zeros = np.zeros(self.num_envs, dtype=np.bool_)
        return self.position.astype(np.float32), np.zeros(self.num_envs), zeros, zeros, {}

    def close_extras(self, **kwargs: Any) -> None:
        self.released += 1


def test_a_subclass_gets_gymnasiums_members() -> None:
    walk = Walk()
    assert isinstance(walk, VectorEnv)
    env: Any = walk
    assert env.spec is None and env.render_mode is None and env.closed is False
    assert env.unwrapped is env
    assert env.autoreset_mode is AutoresetMode.NEXT_STEP  # read from the metadata
    first, _ = env.reset(seed=5)
    assert env.np_random_seed == 5
    again, _ = env.reset(seed=5)
    np.testing.assert_array_equal(first, again)
    assert repr(env) == "Walk(num_envs=3)"
    assert env.get_wrapper_attr("num_envs") == 3 and env.has_wrapper_attr("position")
    env.np_random = np.random.default_rng(1)
    assert env.np_random_seed == -1  # a generator set directly has no known seed
    with env:
        pass
    assert env.closed and env.released == 1
    env.close()
    assert env.released == 1  # close_extras runs once


def test_an_unseeded_subclass_seeds_itself_on_first_use() -> None:
    env: Any = Walk()
    assert isinstance(env.np_random_seed, int) and env.np_random_seed >= 0
    assert isinstance(env.np_random, np.random.Generator)


def test_metadata_defaults_are_per_subclass_and_the_mode_defaults_to_next_step() -> None:
    class Bare(VectorEnv[Any, Any, Any]):
        pass

    class Other(VectorEnv[Any, Any, Any]):
        pass

    cast(Any, Bare).metadata["tag"] = 1
    assert "tag" not in cast(Any, Other).metadata
    bare: Any = cast(Any, Bare)()
    assert bare.autoreset_mode is AutoresetMode.NEXT_STEP  # Gymnasium's assumption
    bare.autoreset_mode = "same_step"
    assert bare.autoreset_mode is AutoresetMode.SAME_STEP


def test_the_bare_base_can_batch_infos_as_gymnasiums_private_helper_does() -> None:
    env: Any = cast(Any, VectorEnv)()
    env.num_envs = 2
    infos = env._add_info({}, {"a": 1, "b": np.zeros(2)}, 1)
    assert infos["a"].tolist() == [0, 1] and infos["_a"].tolist() == [False, True]
    assert infos["b"].shape == (2, 2)


def test_autoreset_mode_values_are_gymnasiums_and_snake_case_still_works() -> None:
    assert [mode.value for mode in AutoresetMode] == ["NextStep", "SameStep", "Disabled"]
    for spelling in ("SameStep", "same_step", "SAME_STEP", AutoresetMode.SAME_STEP):
        assert parse_autoreset_mode(spelling) is AutoresetMode.SAME_STEP
    assert AutoresetMode("next_step") is AutoresetMode.NEXT_STEP
    with pytest.raises(ValueError, match=r"'NextStep', 'SameStep', 'Disabled'"):
        parse_autoreset_mode("sometimes")
    with pytest.raises(ValueError, match="got 3"):
        parse_autoreset_mode(3)


def test_a_structural_vector_env_needs_no_base() -> None:
    class Plain:
        num_envs = 1
        single_observation_space = observation_space = Box(0, 1, (1,))
        single_action_space = action_space = Discrete(2)
        metadata: ClassVar[dict[str, Any]] = {}
        render_mode = None
        autoreset_mode = AutoresetMode.SAME_STEP

        def reset(self, **kwargs: Any) -> Any: ...
        def step(self, actions: Any) -> Any: ...
        def render(self) -> Any: ...
        def close(self) -> None: ...

    assert isinstance(Plain(), VectorEnv)
    assert not isinstance(object(), VectorEnv)


def test_vector_wrapper_forwards_gymnasiums_members() -> None:
    inner = SyncVectorEnv(countdowns(2))
    env = VectorWrapper(inner)
    inner.reset(seed=3)
    assert cast(Any, env).np_random_seed == (3, 4)
    assert env.spec is None and env.closed is False
    assert repr(env) == "<VectorWrapper, SyncVectorEnv(num_envs=2)>"
    assert env.get_wrapper_attr("copy") is True and env.has_wrapper_attr("envs")
    env.closed = True  # forwarded to the inner env, as Gymnasium's wrapper does
    assert inner.closed
    inner.closed = False
    env.close()
    assert inner.closed


def test_a_wrapper_reads_num_envs_from_the_env_it_wraps_when_asked() -> None:
    class Late(VectorEnv[Any, Any, Any]):
        pass

    late: Any = cast(Any, Late)()
    env = VectorWrapper(late)  # Gymnasium's tests wrap first, then set num_envs
    late.num_envs = 4
    assert env.num_envs == 4


def test_the_wrapper_bases_load_from_gymnasiums_module_path() -> None:
    from protogym.vector import vector_env

    assert vector_env.VectorWrapper is VectorWrapper
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        vector_env.Nope  # noqa: B018
