"""`observation_mode` ("same", "different", or both spaces given) and which observation spaces
`AsyncVectorEnv` can share, in Sync and Async alike."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from protogym.error import CustomSpaceError
from protogym.spaces import Box, Discrete, Graph, OneOf, Sequence, Text, batch_differing_spaces
from protogym.spaces.space import Space
from protogym.vector import AsyncVectorEnv, SyncVectorEnv, UnshareableSpaceError
from tests.vector.vector_helpers import Countdown

Factory = Callable[..., Any]


class Shaped(Countdown):
    """A Countdown whose observation space is `space` and whose observations are samples
    from it, drawn with the env's own generator (so they repeat under a seed)."""

    def __init__(self, space: Space[Any], ident: int = 0) -> None:
        super().__init__(ident=ident, length=2)
        self.observation_space = space  # type: ignore[assignment]

    def _obs(self) -> Any:
        self.observation_space.seed(int(self.np_random.integers(2**31)))
        return self.observation_space.sample()


def shaped(*spaces: Space[Any]) -> list[Callable[[], Shaped]]:
    return [functools.partial(Shaped, space, index) for index, space in enumerate(spaces)]


@pytest.fixture(params=["sync", "async-shared", "async-pipes"])
def make(request: pytest.FixtureRequest) -> Iterator[Factory]:
    made: list[Any] = []

    def factory(fns: list[Any], **kwargs: Any) -> Any:
        if request.param == "sync":
            env: Any = SyncVectorEnv(fns, **kwargs)
        else:
            shared = request.param == "async-shared"
            env = AsyncVectorEnv(fns, shared_memory=shared, num_workers=2, **kwargs)
        made.append(env)
        return env

    yield factory
    for env in made:
        env.close()


def test_different_bounds_of_one_shape_are_batched_with_their_own_bounds(make: Factory) -> None:
    spaces = [Box(0.0, float(high), (3,)) for high in (1, 2, 3)]
    env = make(shaped(*spaces), observation_mode="different")
    assert env.single_observation_space == spaces[0]
    assert env.observation_space == batch_differing_spaces(spaces)
    assert env.observation_space.high[:, 0].tolist() == [1.0, 2.0, 3.0]
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
    obs, *_ = env.step(np.ones(3, dtype=np.int64))
    assert obs in env.observation_space


def test_same_mode_refuses_different_spaces_with_a_runtime_error(make: Factory) -> None:
    fns = shaped(Box(0.0, 1.0, (3,)), Box(0.0, 2.0, (3,)))
    with pytest.raises(RuntimeError, match=r"sub-env 1 has observation space.*'different'"):
        make(fns)


def test_different_mode_still_needs_one_shape_and_dtype(make: Factory) -> None:
    fns = shaped(Box(0.0, 1.0, (3,)), Box(0.0, 1.0, (3,)), Box(0.0, 1.0, (2,)))
    given = (Box(0.0, 1.0, (3, 3)), Box(0.0, 1.0, (3,)))
    with pytest.raises((RuntimeError, ValueError)):
        make(fns, observation_mode="different")
    with pytest.raises(RuntimeError, match=r"sub-env 2 .* differs in shape or dtype"):
        make(fns, observation_mode=given)


def test_both_spaces_can_be_given_outright(make: Factory) -> None:
    spaces = [Box(0.0, float(high), (3,)) for high in (1, 2)]
    batched, single = Box(0.0, 5.0, (2, 3)), Box(0.0, 5.0, (3,))
    env = make(shaped(*spaces), observation_mode=(batched, single))
    assert env.observation_space is batched and env.single_observation_space is single
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, 3)


def test_a_bad_observation_mode_is_a_clear_error(make: Factory) -> None:
    fns = shaped(Box(0.0, 1.0, (3,)))
    with pytest.raises(ValueError, match="observation_mode must be 'same', 'different'"):
        make(fns, observation_mode="invalid")
    with pytest.raises(TypeError, match="takes two spaces"):
        make(fns, observation_mode=(Box(0.0, 1.0, (1, 3)), "single"))


@pytest.mark.parametrize(
    "space",
    [
        Graph(node_space=Box(0.0, 1.0, (2,)), edge_space=None),
        Sequence(Discrete(3)),
    ],
    ids=["Graph", "Sequence"],
)
def test_shared_memory_refuses_spaces_of_varying_size_in_the_constructor(space: Any) -> None:
    with pytest.raises(UnshareableSpaceError, match="shared_memory=False") as caught:
        AsyncVectorEnv(shaped(space), shared_memory=True)
    # Gymnasium raises TypeError for these and ValueError for unknown spaces: both hold
    assert isinstance(caught.value, CustomSpaceError)
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, ValueError)
    with AsyncVectorEnv(shaped(space), shared_memory=False) as env:
        obs, _ = env.reset(seed=0)
        assert obs[0] in space


def test_shared_memory_refuses_an_unknown_custom_space() -> None:
    class Colour(Space[str]):
        def sample(self, mask: Any = None, probability: Any = None) -> str:
            return "red"

        def contains(self, x: Any) -> bool:
            return x in ("red", "green")

    with pytest.raises(ValueError, match="cannot share observations of"):
        AsyncVectorEnv(shaped(Colour()), shared_memory=True)


@pytest.mark.parametrize(
    "space",
    [Text(5), OneOf([Discrete(3), Box(0.0, 1.0, (2,))])],
    ids=["Text", "OneOf"],
)
def test_spaces_gymnasium_shares_work_with_shared_memory_and_match_sync(space: Any) -> None:
    fns = [lambda: Shaped(space, 0), lambda: Shaped(space, 1)]
    sync = SyncVectorEnv(fns)
    parallel = AsyncVectorEnv(fns, shared_memory=True, num_workers=2)
    try:
        a, _ = sync.reset(seed=3)
        b, _ = parallel.reset(seed=3)
        for _ in range(3):
            assert repr(a) == repr(b)
            a, *_ = sync.step(np.ones(2, dtype=np.int64))
            b, *_ = parallel.step(np.ones(2, dtype=np.int64))
        assert repr(a) == repr(b)
    finally:
        sync.close()
        parallel.close()
