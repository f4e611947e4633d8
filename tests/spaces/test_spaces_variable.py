"""Text, Sequence and Graph: Gymnasium parity, masks, membership, errors."""

from __future__ import annotations

import json
import re
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from protogym.spaces import Box, Discrete, Graph, GraphInstance, Sequence, Text
from protogym.spaces.utils import flatten, flatten_space, unflatten
from protogym.testing.strategies import same


def test_text_matches_gymnasium() -> None:
    ours = Text(8, min_length=2, charset="abcde", seed=4)
    theirs = gym.spaces.Text(8, min_length=2, charset="abcde", seed=4)
    assert [ours.sample() for _ in range(10)] == [theirs.sample() for _ in range(10)]
    mask = (5, np.array([1, 0, 1, 0, 0], np.int8))
    probability = (None, np.array([0.5, 0.5, 0.0, 0.0, 0.0]))
    assert [ours.sample(mask=mask) for _ in range(5)] == [
        theirs.sample(mask=mask) for _ in range(5)
    ]
    assert [ours.sample(probability=probability) for _ in range(5)] == [
        theirs.sample(probability=probability) for _ in range(5)
    ]


def test_text_masks_and_membership() -> None:
    space = Text(5, min_length=0, charset={"x", "y"}, seed=0)
    assert space.character_list == ("x", "y")
    assert set(space.sample(mask=(4, np.array([0, 1], np.int8)))) <= {"y"}
    assert len(space.sample(mask=(4, None))) == 4
    assert space.sample(mask=(None, np.array([0, 0], np.int8))) == ""
    with pytest.raises(
        ValueError, match=re.escape("Text.sample mask allows no character but min_length=1")
    ):
        Text(3, charset="ab").sample(mask=(None, np.zeros(2, np.int8)))
    with pytest.raises(ValueError, match=re.escape("Text.sample mask length must be in [0, 5]")):
        space.sample(mask=(9, None))
    with pytest.raises(ValueError, match=re.escape("Text.sample probability must sum to 1")):
        space.sample(probability=(None, np.array([0.2, 0.2])))
    assert "xyx" in space and "" in space
    assert "xyz" not in space and "xxxxxx" not in space and 5 not in space
    assert repr(space) == "Text(0, 5, charset=xy)"
    assert space.character_index("y") == 1
    assert space == Text(5, min_length=0, charset="yx")


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (
            (3,),
            {"min_length": 4},
            "Text min_length must be <= max_length, got min_length=4 and max_length=3",
        ),
        ((3,), {"min_length": -1}, "Text min_length must be >= 0, got min_length=-1"),
        ((3.0,), {}, "Text max_length must be an int, got max_length=3.0"),
        ((3,), {"charset": ["ab"]}, "Text charset elements must be single characters, got ['ab']"),
        ((3,), {"charset": ""}, "Text charset must not be empty"),
    ],
)
def test_text_bad_arguments(args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as info:
        Text(*args, **kwargs)
    assert str(info.value) == message


@pytest.mark.parametrize("stack", [False, True])
def test_sequence_matches_gymnasium(stack: bool) -> None:
    ours = Sequence(Box(0, 1, (2,)), seed=6, stack=stack)
    theirs = gym.spaces.Sequence(gym.spaces.Box(0, 1, (2,)), seed=6, stack=stack)
    for _ in range(5):
        mine, ref = ours.sample(), theirs.sample()
        assert same(mine, ref)
        assert mine in ours


def test_sequence_lengths_masks_and_membership() -> None:
    space = Sequence(Discrete(4), seed=0)
    assert len(space.sample(mask=(3, None))) == 3
    assert len(space.sample(mask=(np.array([2, 5]), None))) in (2, 5)
    assert set(space.sample(mask=(6, np.array([0, 0, 1, 0], np.int8)))) == {2}
    # A bad length is also an AssertionError (Gymnasium asserts), a wrong type a TypeError.
    with pytest.raises(
        AssertionError, match=re.escape("Sequence.sample mask length must be >= 0, got -1")
    ):
        space.sample(mask=(-1, None))
    with pytest.raises(
        TypeError, match=re.escape("Sequence.sample mask length must be None, an int")
    ):
        space.sample(mask=("3", None))
    assert (0, 3, 1) in space and () in space
    assert (0, 4) not in space and [0, 1] not in space
    stacked = Sequence(Discrete(4), stack=True)
    assert np.array([0, 3]) in stacked
    assert np.array([0, 7]) not in stacked and "abc" not in stacked
    assert repr(stacked) == "Sequence(Discrete(4), stack=True)"
    assert space.seed((1, 2)) == (1, 2)
    with pytest.raises(ValueError, match=re.escape("Sequence.seed takes an int or a")):
        space.seed((1, 2, 3))
    with pytest.raises(TypeError, match=re.escape("Sequence sub-space 0 is not a space")):
        Sequence(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("with_edges", [True, False])
@pytest.mark.filterwarnings("ignore:.*the graph has no edge space")
def test_graph_matches_gymnasium(with_edges: bool) -> None:
    ours = Graph(Box(-1, 1, (3,)), Discrete(4) if with_edges else None, seed=12)
    theirs = gym.spaces.Graph(
        gym.spaces.Box(-1, 1, (3,)), gym.spaces.Discrete(4) if with_edges else None, seed=12
    )
    for _ in range(3):
        mine, ref = ours.sample(), theirs.sample()
        assert same(tuple(mine), tuple(ref))
        assert mine in ours
    assert same(
        tuple(ours.sample(num_nodes=3, num_edges=2)), tuple(theirs.sample(num_nodes=3, num_edges=2))
    )


def test_graph_membership_and_errors() -> None:
    space = Graph(Box(0, 1, (2,)), Discrete(3), seed=0)
    nodes = np.zeros((3, 2), np.float32)
    good = GraphInstance(nodes, np.array([0, 2]), np.array([[0, 1], [2, 2]]))
    assert good in space
    assert GraphInstance(nodes, np.array([0, 3]), np.array([[0, 1], [2, 2]])) not in space
    assert GraphInstance(nodes, np.array([0, 2]), np.array([[0, 3], [2, 2]])) not in space
    assert GraphInstance(nodes, np.array([0, 2]), np.array([[0, 1]])) not in space
    assert GraphInstance(nodes + 2, None, None) not in space
    assert GraphInstance(nodes, None, None) in space
    assert (nodes, None, None) not in space
    assert repr(space) == "Graph(Box(0.0, 1.0, (2,), float32), Discrete(3))"
    with pytest.raises(TypeError, match=re.escape("Graph node_space must be a space")):
        Graph("nodes", None)  # type: ignore[arg-type]
    with pytest.raises(
        AssertionError, match=re.escape("Graph.sample num_nodes must be positive, got 0")
    ):
        space.sample(num_nodes=0)
    with pytest.raises(
        AssertionError, match=re.escape("Graph.sample num_edges must be >= 0, got -1")
    ):
        space.sample(num_nodes=2, num_edges=-1)
    with pytest.warns(UserWarning, match=re.escape("but the graph has no edge space")):
        Graph(Box(0, 1, (2,)), None).sample(num_nodes=2, num_edges=1)
    sample = space.sample(num_nodes=4, num_edges=0)
    assert sample.edges is None and sample.edge_links is None
    assert space.seed((1, 2, 3)) == (1, 2, 3)
    with pytest.raises(ValueError, match=re.escape("Graph.seed takes an int or 3 seeds")):
        space.seed((1, 2))


GRAPH_FEATURES = [
    ("MultiBinary", lambda lib: lib.MultiBinary(3)),
    ("MultiDiscrete", lambda lib: lib.MultiDiscrete([3, 2])),
    ("Dict", lambda lib: lib.Dict({"pos": lib.Box(-1, 1, (2,)), "kind": lib.Discrete(4)})),
    ("Tuple", lambda lib: lib.Tuple((lib.Discrete(3), lib.MultiBinary(2)))),
]


@pytest.mark.parametrize(("name", "make"), GRAPH_FEATURES, ids=[n for n, _ in GRAPH_FEATURES])
def test_graph_takes_any_feature_space_like_gymnasium(name: str, make: Any) -> None:
    """Node and edge features may be any space: samples match Gymnasium's under one seed,
    are members, flatten and unflatten back, and survive JSON."""
    import protogym.spaces as ours_lib

    ours = Graph(make(ours_lib), make(ours_lib), seed=3)
    theirs = gym.spaces.Graph(make(gym.spaces), make(gym.spaces), seed=3)
    for _ in range(3):
        mine, ref = ours.sample(num_nodes=4), theirs.sample(num_nodes=4)
        assert same(tuple(mine), tuple(ref))
        assert mine in ours
        flat = flatten(ours, mine)
        assert flat in flatten_space(ours)
        assert same(tuple(unflatten(ours, flat)), tuple(mine))
        (back,) = ours.from_jsonable(json.loads(json.dumps(ours.to_jsonable([mine]))))
        assert same(tuple(back), tuple(mine))
    assert ours.to_jsonable([mine]) == theirs.to_jsonable([ref])
