"""First-party envs step to Gymnasium 1.4's bits over long random runs.

For every classic-control, toy-text and Box2D id that Gymnasium 1.4 has, `protogym.make(id)`
and `gymnasium.make(id)` are reset with the same seeds and stepped with the same actions, and
every observation, reward, `terminated`, `truncated` and info must be equal byte for byte, with
the same types (a float32 observation, a numpy float64 reward, a Python bool). Actions come
from Gymnasium's own seeded action space; for a continuous space the same ids are also stepped
with float64 actions reaching a tenth beyond the bounds, because numpy's type rules make a
float64 action a different computation from a float32 one in several envs. Episodes end by
termination or by the time limit, and both are then reset without a seed, so the reset
distributions are compared too.

The default runs are short enough for every test run; the `slow` variant steps each id tens of
thousands of times over more seeds, with constructor options too.
"""

from __future__ import annotations

import struct
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.error import DependencyNotInstalled

gymnasium = pytest.importorskip("gymnasium")

FAMILIES = {
    "protogym_classic_control": "gymnasium.envs.classic_control",
    "protogym_toy_text": "gymnasium.envs.toy_text",
    "protogym_box2d": "gymnasium.envs.box2d",
}
# Steps per id and action kind: (default run, slow run). Box2D steps cost more, CarRacing's
# most (it draws the 96x96 observation every step).
STEPS = {"classic": (6_000, 25_000), "box2d": (800, 3_000), "CarRacing-v3": (40, 300)}
SEEDS = ((0, 1), (0, 1, 2, 3, 4))


def entry_point(env_id: str) -> str:
    entry = protogym.registry[env_id].entry_point  # spec() would warn about old versions
    return entry if isinstance(entry, str) else ""


def compared_ids() -> list[str]:
    """Our ids of the three families that Gymnasium 1.4 also registers."""
    ours = [i for i in protogym.registry if entry_point(i).startswith(tuple(FAMILIES))]
    return sorted(i for i in ours if i in gymnasium.registry)


IDS = compared_ids()


def difference(ours: Any, theirs: Any, where: str) -> str | None:
    """Where `ours` and `theirs` differ in type or in any bit, or None when they do not."""
    if type(ours) is not type(theirs):
        return f"{where}: {type(ours).__name__} {ours!r}, Gymnasium {type(theirs).__name__}"
    if isinstance(ours, np.ndarray | np.generic):
        if ours.dtype != theirs.dtype or np.shape(ours) != np.shape(theirs):
            return f"{where}: {ours.dtype}{np.shape(ours)}, Gymnasium {theirs.dtype}"
        if ours.dtype != object:
            same = ours.tobytes() == theirs.tobytes()
            return None if same else f"{where}: {ours!r}, Gymnasium {theirs!r}"
        pairs = zip(np.ravel(ours), np.ravel(theirs), strict=True)
        return next((d for a, b in pairs if (d := difference(a, b, where))), None)
    if isinstance(ours, float):
        same = struct.pack("<d", ours) == struct.pack("<d", theirs)
        return None if same else f"{where}: {ours!r}, Gymnasium {theirs!r}"
    if isinstance(ours, dict):
        if ours.keys() != theirs.keys():
            return f"{where}: keys {sorted(ours)}, Gymnasium {sorted(theirs)}"
        items = (difference(ours[k], theirs[k], f"{where}[{k!r}]") for k in ours)
        return next((d for d in items if d), None)
    if isinstance(ours, tuple | list):
        if len(ours) != len(theirs):
            return f"{where}: {len(ours)} items, Gymnasium {len(theirs)}"
        indexed = enumerate(zip(ours, theirs, strict=True))
        return next((d for i, (a, b) in indexed if (d := difference(a, b, f"{where}[{i}]"))), None)
    return None if ours == theirs else f"{where}: {ours!r}, Gymnasium {theirs!r}"


Policy = Callable[[Any, Any, np.random.Generator], Any]


def sampled(space: Any, observation: Any, rng: np.random.Generator) -> Any:
    """Gymnasium's own sample: numpy integers, float32 arrays."""
    return space.sample()


def float64_beyond_bounds(space: Any, observation: Any, rng: np.random.Generator) -> Any:
    """A float64 action up to a tenth of the range beyond each bound (both envs clip)."""
    width = space.high - space.low
    return rng.uniform(space.low - width / 10, space.high + width / 10).astype(np.float64)


def pump(dtype: Any) -> Policy:
    """Push along the car's velocity, with noise: a mountain car reaches the flag (and hits
    the left wall on the way), so termination is compared, not only truncation."""

    def policy(space: Any, observation: Any, rng: np.random.Generator) -> Any:
        direction = 1.0 if observation[1] >= 0 else -1.0
        if isinstance(space, gymnasium.spaces.Discrete):
            return np.int64(1 + direction) if rng.random() > 0.1 else space.sample()
        force = direction * rng.uniform(0.3, 1.3) + rng.normal(0.0, 0.1)
        return np.array([force], dtype=dtype)

    return policy


@dataclass
class Run:
    env_id: str
    steps: int
    seeds: tuple[int, ...]
    policy: Policy = sampled
    kwargs: dict[str, Any] = field(default_factory=dict)
    ends: int = 0
    terminations: int = 0

    def differences(self) -> Iterator[str]:
        """Steps both envs and yields each difference (the caller stops at the first)."""
        try:
            ours = protogym.make(self.env_id, **self.kwargs)
        except DependencyNotInstalled as error:
            pytest.skip(f"{self.env_id} cannot be made here: {error}")
        theirs = gymnasium.make(self.env_id, **self.kwargs)
        space = theirs.action_space
        for seed in self.seeds:
            rng = np.random.default_rng(seed)
            space.seed(seed)
            result, reference = ours.reset(seed=seed), theirs.reset(seed=seed)
            yield from self._check(result, reference, f"seed {seed}, reset")
            observation = reference[0]
            for step in range(self.steps // len(self.seeds)):
                action = self.policy(space, observation, rng)
                result = ours.step(action.copy() if isinstance(action, np.ndarray) else action)
                reference = theirs.step(action)
                yield from self._check(result, reference, f"seed {seed}, step {step}, {action!r}")
                observation = reference[0]
                if reference[2] or reference[3]:
                    self.ends += 1
                    self.terminations += bool(reference[2])
                    result, reference = ours.reset(), theirs.reset()
                    yield from self._check(result, reference, f"seed {seed}, reset after {step}")
                    observation = reference[0]
        ours.close()
        theirs.close()

    def _check(self, result: Any, reference: Any, where: str) -> Iterator[str]:
        found = difference(result, reference, f"{self.env_id} {self.kwargs or ''} {where}")
        if found:
            yield found

    def assert_same(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = next(self.differences(), None)
        assert found is None, found
        limit = gymnasium.spec(self.env_id).max_episode_steps
        if limit is not None and limit <= self.steps // len(self.seeds):
            assert self.ends > 0, f"{self.env_id}: no episode ended, so no reset was compared"


def steps_for(env_id: str, slow: bool) -> int:
    if env_id in STEPS:
        return STEPS[env_id][slow]
    box2d = entry_point(env_id).startswith("protogym_box2d")
    return STEPS["box2d" if box2d else "classic"][slow]


def continuous(env_id: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.make(env_id)
    env.close()
    return isinstance(env.action_space, gymnasium.spaces.Box)


CASES = [(i, "sampled") for i in IDS] + [(i, "float64") for i in IDS if continuous(i)]
POLICIES: dict[str, Policy] = {"sampled": sampled, "float64": float64_beyond_bounds}


def test_the_sweep_covers_every_gymnasium_id_of_the_three_families() -> None:
    theirs = {
        env_id
        for env_id, spec in gymnasium.registry.items()
        if isinstance(spec.entry_point, str)
        and spec.entry_point.startswith(tuple(FAMILIES.values()))
    }
    assert theirs == set(IDS)


@pytest.mark.parametrize(("env_id", "actions"), CASES, ids=[f"{i}-{a}" for i, a in CASES])
def test_random_runs_match_gymnasium_bit_for_bit(env_id: str, actions: str) -> None:
    Run(env_id, steps_for(env_id, slow=False), SEEDS[0], POLICIES[actions]).assert_same()


@pytest.mark.parametrize(
    ("env_id", "dtype"),
    [
        ("MountainCar-v0", np.int64),
        ("MountainCarContinuous-v0", np.float32),
        ("MountainCarContinuous-v0", np.float64),
    ],
)
def test_mountain_cars_reach_the_flag_as_gymnasiums_do(env_id: str, dtype: Any) -> None:
    run = Run(env_id, 3_000, SEEDS[0], pump(dtype))
    run.assert_same()
    assert run.terminations > 10


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "actions"), CASES, ids=[f"{i}-{a}" for i, a in CASES])
def test_long_random_runs_match_gymnasium_bit_for_bit(env_id: str, actions: str) -> None:
    Run(env_id, steps_for(env_id, slow=True), SEEDS[1], POLICIES[actions]).assert_same()


# Constructor options that change the dynamics or the rewards, one run each.
OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("CartPole-v1", {"sutton_barto_reward": True}),
    ("MountainCar-v0", {"goal_velocity": 0.01}),
    ("MountainCarContinuous-v0", {"goal_velocity": 0.01}),
    ("Pendulum-v1", {"g": 9.81}),
    ("Blackjack-v1", {"natural": True, "sab": False}),
    ("Blackjack-v1", {"natural": False, "sab": False}),
    ("FrozenLake-v1", {"is_slippery": False}),
    ("FrozenLake-v1", {"success_rate": 0.5, "reward_schedule": (2, -1, 0)}),
    ("CliffWalking-v1", {"is_slippery": True}),
    ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True}),
    ("LunarLander-v3", {"enable_wind": True, "gravity": -9.0, "turbulence_power": 2.0}),
    ("LunarLanderContinuous-v3", {"enable_wind": True, "wind_power": 20.0}),
    ("CarRacing-v3", {"continuous": False}),
    ("CarRacing-v3", {"domain_randomize": True, "lap_complete_percent": 0.5}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "kwargs"), OPTIONS, ids=[f"{i}-{k}" for i, k in OPTIONS])
def test_runs_with_constructor_options_match_gymnasium(env_id: str, kwargs: dict[str, Any]) -> None:
    policy = pump(np.float32) if env_id.startswith("MountainCar") else sampled
    Run(env_id, steps_for(env_id, slow=False), SEEDS[0], policy, kwargs).assert_same()
