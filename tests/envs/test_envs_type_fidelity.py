"""Every registered first-party env returns what Gymnasium 1.4's env of the same id returns,
type for type: the observation, the reward, `terminated`, `truncated` and every info value, at
reset and at each step of a seeded episode, numpy dtypes and shapes included.

Code ported from Gymnasium may rely on these types (``reward.dtype``, an info value's
``shape``), and a sum of rewards only comes out to Gymnasium's bits if each reward has
Gymnasium's precision. The ids come from the registry, so every plugin's ids (MuJoCo's, Atari's)
are covered as soon as they are registered.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.error import DependencyNotInstalled

gymnasium = pytest.importorskip("gymnasium")

FIRST_PARTY = (
    "protogym_classic_control",
    "protogym_toy_text",
    "protogym_box2d",
    "protogym_atari",
    "protogym_mujoco",
)
# Versions Gymnasium 1.4 no longer makes; their step code (and so their types) is the newer
# version's, which they are compared with.
COUNTERPART = {
    "LunarLander-v2": "LunarLander-v3",
    "LunarLanderContinuous-v2": "LunarLanderContinuous-v3",
    "Taxi-v3": "Taxi-v4",
    "CliffWalking-v0": "CliffWalking-v1",
}
# Ids with nothing in Gymnasium to compare with, and why.
NO_COUNTERPART = {
    "GridWorld-v0": "the grid world of Gymnasium's env-creation tutorial, which Gymnasium "
    "does not ship",
}
# Atari: the same AtariEnv class serves all 352 ids, which differ only in the game and in
# the keyword arguments of their kind; one id of each kind (v5, v4, v0, NoFrameskip v4 and
# v0) is stepped at length by default, and every other id a few steps in a slow test (loading
# each ROM twice takes minutes).
ATARI_SAMPLE = (
    "ALE/Pong-v5",
    "Breakout-v4",
    "SpaceInvadersNoFrameskip-v4",
    "Seaquest-v0",
    "MsPacmanNoFrameskip-v0",
)
MAX_STEPS = 120
ATARI_STEPS = 40
ATARI_REST_STEPS = 8
SEED = 3


def first_party_ids() -> list[str]:
    ids = []
    for env_id in protogym.registry:
        entry_point = protogym.registry[env_id].entry_point
        if isinstance(entry_point, str) and entry_point.startswith(FIRST_PARTY):
            ids.append(env_id)
    return sorted(ids)


def is_atari(env_id: str) -> bool:
    entry_point = protogym.registry[env_id].entry_point
    return isinstance(entry_point, str) and entry_point.startswith("protogym_atari")


def gymnasium_registry() -> Any:
    try:
        import ale_py
    except ImportError:
        pass
    else:
        gymnasium.register_envs(ale_py)
    return gymnasium.registry


def reference_id(env_id: str) -> str | None:
    """The Gymnasium id to compare `env_id` with, or None when Gymnasium has none."""
    if env_id in COUNTERPART:
        return COUNTERPART[env_id]
    return env_id if env_id in gymnasium_registry() else None


def describe(value: Any) -> Any:
    """`value`'s type, recursively: arrays by dtype and shape, containers by their items."""
    if isinstance(value, np.ndarray):
        return (type(value).__name__, value.dtype.str, value.shape)
    if isinstance(value, dict):
        return (type(value).__name__, {key: describe(item) for key, item in value.items()})
    if isinstance(value, tuple | list):
        return (type(value).__name__, [describe(item) for item in value])
    return type(value).__name__


def trace(make: Callable[[], Any], actions: list[Any]) -> Iterator[tuple[str, Any]]:
    """The types of what a made env returns at reset and at each step, until it ends."""
    env = make()
    try:
        observation, info = env.reset(seed=SEED)
        yield "reset", {"observation": describe(observation), "info": describe(info)}
        for step, action in enumerate(actions):
            observation, reward, terminated, truncated, info = env.step(action)
            yield f"step {step}", {
                "observation": describe(observation),
                "reward": describe(reward),
                "terminated": describe(terminated),
                "truncated": describe(truncated),
                "info": describe(info),
            }
            if terminated or truncated:
                return
    finally:
        env.close()


def compare(env_id: str, reference: str, actions: list[Any]) -> list[str]:
    """Where the types of `env_id` (protogym) and `reference` (Gymnasium) differ."""
    ours = trace(lambda: protogym.make(env_id), actions)
    theirs = trace(lambda: gymnasium.make(reference), actions)
    differences = []
    for (moment, our_types), (_, their_types) in zip(ours, theirs, strict=False):
        for key, our_type in our_types.items():
            if our_type != their_types[key]:
                differences.append(f"{moment} {key}: {our_type} (Gymnasium {their_types[key]})")
    return differences


def actions_for(env_id: str, count: int, cast: str | None = None) -> list[Any]:
    """`count` actions sampled from the env's action space, as a user's policy would pass them
    (optionally as arrays of another float dtype)."""
    env = protogym.make(env_id)
    space = env.action_space
    env.close()
    space.seed(SEED)
    actions = [space.sample() for _ in range(count)]
    if cast is not None:
        actions = [np.asarray(action, dtype=cast) for action in actions]
    return actions


def check_types(env_id: str, steps: int, cast: str | None = None) -> None:
    reference = reference_id(env_id)
    assert reference is not None, (
        f"{env_id} has no Gymnasium id to compare with; name one in COUNTERPART or say why "
        "there is none in NO_COUNTERPART"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        differences = compare(env_id, reference, actions_for(env_id, steps, cast))
    assert not differences, f"{env_id} vs Gymnasium's {reference}:\n" + "\n".join(differences)


@functools.cache
def action_space_of(env_id: str) -> Any:
    """The id's action space, or None when make refuses the id (DependencyNotInstalled)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            env = protogym.make(env_id)
        except DependencyNotInstalled:
            return None
    space = env.action_space
    env.close()
    return space


ALL_IDS = first_party_ids()
DEFAULT_IDS = [i for i in ALL_IDS if not is_atari(i) or i in ATARI_SAMPLE]
# Ids registered only to refuse with a pointer to their replacement (MuJoCo's mujoco-py
# versions, Pusher-v4 on mujoco >= 3): Gymnasium cannot make them here either.
REFUSED_IDS = [i for i in DEFAULT_IDS if not is_atari(i) and action_space_of(i) is None]
COMPARED_IDS = [i for i in DEFAULT_IDS if i not in REFUSED_IDS and i not in NO_COUNTERPART]
CONTINUOUS_IDS = [
    i
    for i in COMPARED_IDS
    if not is_atari(i) and isinstance(action_space_of(i), protogym.spaces.Box)
]


def test_every_gymnasium_id_of_our_families_is_registered() -> None:
    """The registry these tests iterate holds every id Gymnasium has for the families
    protogym ships (so none escapes the comparison by being absent)."""
    families = ["gymnasium.envs.classic_control", "gymnasium.envs.toy_text", "gymnasium.envs.box2d"]
    optional = (("protogym_atari", "ale_py"), ("protogym_mujoco", "gymnasium.envs.mujoco"))
    for plugin, family in optional:
        if any(i.startswith(plugin) for i in map(_entry_point, ALL_IDS)):
            families.append(family)
    theirs = {
        env_id
        for env_id, spec in gymnasium_registry().items()
        if isinstance(spec.entry_point, str) and spec.entry_point.startswith(tuple(families))
    }
    assert theirs - set(ALL_IDS) == set()
    assert set(ATARI_SAMPLE) <= set(ALL_IDS) or not any(map(is_atari, ALL_IDS))


def _entry_point(env_id: str) -> str:
    entry_point = protogym.registry[env_id].entry_point
    return entry_point if isinstance(entry_point, str) else ""


@pytest.mark.parametrize("env_id", COMPARED_IDS)
def test_types_match_gymnasium(env_id: str) -> None:
    check_types(env_id, ATARI_STEPS if is_atari(env_id) else MAX_STEPS)


ATARI_REST_IDS = [i for i in ALL_IDS if is_atari(i) and i not in ATARI_SAMPLE]


@pytest.mark.slow
@pytest.mark.parametrize("env_id", ATARI_REST_IDS)
def test_types_of_every_other_atari_id_match_gymnasium(env_id: str) -> None:
    check_types(env_id, ATARI_REST_STEPS)


@pytest.mark.parametrize("env_id", CONTINUOUS_IDS)
def test_types_match_gymnasium_with_float64_actions(env_id: str) -> None:
    """Some rewards take their precision from the action (BipedalWalker's), so continuous
    envs are also stepped with float64 arrays, as a policy in float64 passes them."""
    check_types(env_id, 20, cast="float64")


@pytest.mark.parametrize("env_id", REFUSED_IDS)
def test_ids_we_refuse_gymnasium_cannot_make_either(env_id: str) -> None:
    reference = reference_id(env_id)
    assert reference is not None
    with pytest.raises(ImportError):
        gymnasium.make(reference)


def test_only_the_listed_ids_lack_a_gymnasium_counterpart() -> None:
    lacking = {i for i in DEFAULT_IDS if reference_id(i) is None}
    assert lacking == set(NO_COUNTERPART)
