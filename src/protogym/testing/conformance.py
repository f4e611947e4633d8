"""The checks of the conformance suite, one function each, run on one `Subject`.

Every check raises `ConformanceError` naming the checker's rule id and the env, so a failing
test says which rule broke for which id. The checks reuse `protogym.check_env` for what it
already covers (spaces, reset and step contracts, seeding, rendering, closing) and add what
needs a registered id: long rollouts across episodes, two envs compared step by step, the
legacy path, pickling, the native vector env against Sync, and the spec's JSON. A functional
env (an id whose env adapts a `FuncEnv`, or a `FuncEnv` factory) also goes through
`check_func_env`.
"""

from __future__ import annotations

import contextlib
import math
import pickle
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

import protogym
from protogym.checker import check_env, check_func_env
from protogym.checker.report import ContractError
from protogym.checker.rules import RULES, Severity
from protogym.registration import EnvSpec
from protogym.testing.compare import same

__all__ = ["CHECKS", "ConformanceError", "Subject", "run_check"]

SEED = 7


class ConformanceError(AssertionError):
    """A conformance check failed: `rule` (a checker rule id) broke for `env_id`."""

    def __init__(self, rule: str, env_id: str, message: str) -> None:
        self.rule = rule
        self.env_id = env_id
        name = RULES[rule].name if rule in RULES else rule
        super().__init__(f"[{rule} {name}] {env_id}: {message}")


@dataclass(frozen=True)
class Subject:
    """What a check runs on: a way to build the env, and its id when it has one."""

    label: str
    make: Callable[..., Any] | None
    env_id: str | None = None
    max_steps: int = 200
    make_func_env: Callable[[], Any] | None = None
    """Builds the `FuncEnv` to check, for a subject that is a functional env only."""

    @classmethod
    def of_id(cls, env_id: str, max_steps: int = 200) -> Subject:
        def make(**kwargs: Any) -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # an old version's id
                return protogym.make(env_id, **kwargs)

        return cls(env_id, make, env_id, max_steps)

    @classmethod
    def of_func_env(
        cls, label: str, make_func_env: Callable[[], Any], max_steps: int = 200
    ) -> Subject:
        """A subject that is only a `FuncEnv` factory: the Env checks do not apply to it."""
        return cls(label, None, None, max_steps, make_func_env)

    def env(self, **kwargs: Any) -> Any:
        """A new env of the subject (the Env checks skip a bare `FuncEnv` subject)."""
        if self.make is None:
            raise _NotAnEnv
        return self.make(**kwargs)

    def fail(self, rule: str, message: str) -> ConformanceError:
        return ConformanceError(rule, self.label, message)


class _NotAnEnv(Exception):  # noqa: N818 - a signal, not an error
    """The subject is a bare `FuncEnv`: an Env check has nothing to run on."""


def _rollout(env: Any, seed: int, steps: int) -> Iterator[tuple[str, Any]]:
    """Reset, then `steps` seeded random actions, resetting after each episode's end.

    Yields ``("reset", (obs, info))`` and ``("step", (obs, reward, terminated, truncated,
    info))`` events.
    """
    env.action_space.seed(seed)
    yield "reset", env.reset(seed=seed)
    for _ in range(steps):
        result = env.step(env.action_space.sample())
        yield "step", result
        if result[2] or result[3]:
            yield "reset", env.reset()


def check_contract(subject: Subject) -> None:
    """`check_env` finds no error or warning (hints are fine), rendering included."""
    env = subject.env()
    try:
        try:
            report = check_env(env, warn=False, skip_render_check=False)
        except ContractError as error:
            report = error.report
    finally:
        env.close()
    bad = [r for r in report.results if r.severity is not Severity.HINT]
    if bad:
        first = bad[0]
        raise subject.fail(first.id, "; ".join(str(r) for r in bad))


def check_rollout(subject: Subject) -> None:
    """Over a long random rollout, after every reset and step (terminal ones included), the
    observation is in the space, the reward a finite real number and the flags bools."""
    env = subject.env()
    space = env.observation_space
    try:
        for number, (kind, result) in enumerate(_rollout(env, SEED, subject.max_steps)):
            obs = result[0]
            if not space.contains(obs):
                raise subject.fail("PG113", f"event {number} ({kind}) gave {obs!r}, not in {space}")
            if kind == "reset":
                continue
            _, reward, terminated, truncated, _ = result
            if not isinstance(reward, int | float | np.integer | np.floating) or isinstance(
                reward, bool
            ):
                raise subject.fail("PG123", f"step {number} gave the reward {reward!r}")
            if not math.isfinite(float(reward)):
                raise subject.fail("PG210", f"step {number} gave the reward {reward!r}")
            for flag, value in (("terminated", terminated), ("truncated", truncated)):
                if not isinstance(value, bool | np.bool_):
                    raise subject.fail("PG122", f"step {number}: {flag} is {value!r}")
    finally:
        env.close()


def check_reproducible(subject: Subject) -> None:
    """Two envs with the same seed and actions give the same trajectory, across episodes."""
    first, second = subject.env(), subject.env()
    try:
        pairs = zip(
            _rollout(first, SEED, subject.max_steps),
            _rollout(second, SEED, subject.max_steps),
            strict=True,
        )
        for number, ((kind, a), (_, b)) in enumerate(pairs):
            if not same(a[:-1], b[:-1]):
                rule = "PG130" if kind == "reset" else "PG132"
                raise subject.fail(
                    rule, f"event {number} ({kind}) differs: {a[:-1]!r} != {b[:-1]!r}"
                )
    finally:
        first.close()
        second.close()


def check_render_modes(subject: Subject) -> None:
    """Each declared mode renders what it declares: rgb_array an (H, W, 3) uint8 array, ansi a
    str, the list modes lists of those. `human` needs a window and is left to check_env."""
    probe = subject.env()
    modes = list(probe.metadata.get("render_modes", ()))
    probe.close()
    for mode in modes:
        if mode == "human":
            continue
        env = subject.env(render_mode=mode)
        try:
            env.reset(seed=SEED)
            frame = env.render()
        finally:
            env.close()
        frames = frame if mode.endswith("_list") else [frame]
        base = mode.removesuffix("_list")
        for item in frames:
            if base == "rgb_array" and not (
                isinstance(item, np.ndarray)
                and item.dtype == np.uint8
                and item.ndim == 3
                and item.shape[2] == 3
            ):
                raise subject.fail("PG142", f"render_mode={mode!r} rendered {_describe(item)}")
            if base == "ansi" and not isinstance(item, str):
                raise subject.fail("PG142", f"render_mode={mode!r} rendered {_describe(item)}")


def check_close_twice(subject: Subject) -> None:
    env = subject.env()
    env.reset(seed=SEED)
    env.close()
    try:
        env.close()
    except Exception as error:
        raise subject.fail("PG250", f"the second close() raised {error!r}") from error


def check_legacy_path(subject: Subject) -> None:
    """`return_two_dones=False` gives the old API's reset (obs, or (obs, info) with
    `return_info=True`) and the 4-tuple of the same steps."""
    if subject.env_id is None:
        return
    modern = subject.env()
    legacy = subject.env(return_two_dones=False)
    try:
        modern.action_space.seed(SEED)
        obs, _ = modern.reset(seed=SEED)
        old_obs, _ = legacy.reset(seed=SEED, return_info=True)
        if not same(obs, old_obs):
            raise subject.fail("PG170", "reset gives another observation on the legacy path")
        for number in range(subject.max_steps):
            action = modern.action_space.sample()
            obs, reward, terminated, truncated, _ = modern.step(action)
            old_obs, old_reward, done, info = legacy.step(action)
            cut = bool(truncated and not terminated)
            if not same((obs, reward), (old_obs, old_reward)) or done != (terminated or truncated):
                raise subject.fail("PG170", f"step {number} differs on the legacy path")
            if bool(info.get("TimeLimit.truncated", False)) != cut:
                raise subject.fail(
                    "PG170", f"step {number}: info['TimeLimit.truncated'] should be {cut}"
                )
            if done:
                modern.reset()
                legacy.reset()
    finally:
        modern.close()
        legacy.close()


def check_pickle(subject: Subject) -> None:
    """The made env pickles, and the copy behaves as a fresh env does."""
    env = subject.env()
    try:
        copy = pickle.loads(pickle.dumps(env))
    except Exception as error:
        raise subject.fail("PG171", f"pickling failed: {error!r}") from error
    fresh = subject.env()
    try:
        if not same(copy.reset(seed=SEED)[0], fresh.reset(seed=SEED)[0]):
            raise subject.fail("PG171", "the unpickled env resets to another observation")
    finally:
        for item in (env, copy, fresh):
            item.close()


def check_vector_entry_point(subject: Subject) -> None:
    """A `vector_entry_point` steps like SyncVectorEnv over the single env."""
    spec = protogym.registry.get(subject.env_id) if subject.env_id is not None else None
    if spec is None or spec.vector_entry_point is None:
        return
    native = protogym.make_vec(spec, 3, vectorization_mode="vector_entry_point")
    sync = protogym.make_vec(spec, 3, vectorization_mode="sync")
    try:
        sync.action_space.seed(SEED)
        if not same(native.reset(seed=SEED)[0], sync.reset(seed=SEED)[0]):
            raise subject.fail("PG172", "reset(seed) gives other observations")
        for number in range(subject.max_steps):
            actions = sync.action_space.sample()
            a, b = native.step(actions), sync.step(actions)
            if not same(a[:4], b[:4]):
                raise subject.fail("PG172", f"step {number} gives other results")
    finally:
        native.close()
        sync.close()


def check_spec_json(subject: Subject) -> None:
    """The made env's spec survives JSON and rebuilds the same stack."""
    if subject.env_id is None:
        return
    env = subject.env()
    try:
        text = env.spec.to_json()
        rebuilt = protogym.make(EnvSpec.from_json(text))
    except (ValueError, TypeError) as error:
        raise subject.fail("PG173", f"{error}") from error
    try:
        if rebuilt.spec != env.spec or repr(rebuilt) != repr(env):
            raise subject.fail("PG173", f"{env!r} came back as {rebuilt!r}")
    finally:
        env.close()
        rebuilt.close()


def check_func_env_rules(subject: Subject) -> None:
    """`check_func_env` finds no error or warning in the subject's `FuncEnv`: the one its
    factory builds, or the one the made env adapts (``env.unwrapped.func_env``); envs that
    adapt none are not functional and pass."""
    if subject.make_func_env is not None:
        func_env = subject.make_func_env()
    else:
        env = subject.env()
        func_env = getattr(getattr(env, "unwrapped", env), "func_env", None)
        env.close()
        if func_env is None:
            return
    try:
        report = check_func_env(func_env, num_steps=min(subject.max_steps, 100), warn=False)
    except ContractError as error:
        report = error.report
    bad = [r for r in report.results if r.severity is not Severity.HINT]
    if bad:
        raise subject.fail(bad[0].id, "; ".join(str(r) for r in bad))


def _describe(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return f"{type(value).__name__} {value!r}"[:120]


CHECKS: dict[str, Callable[[Subject], None]] = {
    "contract": check_contract,
    "rollout": check_rollout,
    "reproducible": check_reproducible,
    "render-modes": check_render_modes,
    "close-twice": check_close_twice,
    "legacy-path": check_legacy_path,
    "pickle": check_pickle,
    "vector-entry-point": check_vector_entry_point,
    "spec-json": check_spec_json,
    "func-env": check_func_env_rules,
}
"""Every check by name, in the order the suite runs them."""


def run_check(name: str, subject: Subject) -> None:
    """Run the check `name` on `subject`; raises `ConformanceError` if it fails."""
    try:
        check = CHECKS[name]
    except KeyError:
        raise ValueError(
            f"unknown conformance check {name!r}; the checks are {list(CHECKS)}"
        ) from None
    with contextlib.suppress(_NotAnEnv):  # an Env check on a bare FuncEnv subject
        check(subject)
