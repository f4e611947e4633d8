"""Gymnasium's single-check functions (`utils.env_checker`, `utils.passive_env_checker`): each
runs only its rules and raises or warns with Gymnasium's classes, in protogym's words."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import numpy as np
import pytest

import protogym
from protogym import logger
from protogym.checker import (
    CheckerDeprecationWarning,
    CheckerWarning,
    ContractAttributeError,
    ContractError,
    ContractTypeError,
)
from protogym.error import Error, UntrustedEntryPoint
from protogym.registration.env_spec import EnvSpec
from protogym.spaces import Box, Dict, Discrete, Tuple
from protogym.utils import env_checker, passive_env_checker
from protogym.utils.seeding import np_random


class Tweakable(protogym.Env[Any, Any]):
    """A small correct env whose reset, step and render a test can replace one at a time."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 10}
    built: ClassVar[int] = 0
    action_space: Discrete
    observation_space: Box
    render_mode: str | None

    def __init__(self, render_mode: str | None = None, **overrides: Any) -> None:
        Tweakable.built += 1
        self.render_mode = render_mode
        self.action_space = Discrete(2)
        self.observation_space = Box(0.0, 1.0, (2,), np.float32)
        self.renders = 0
        for name, function in overrides.items():
            setattr(self, name, function.__get__(self))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        return self.np_random.random(2).astype(np.float32), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return self.np_random.random(2).astype(np.float32), 1.0, False, False, {}

    def render(self) -> Any:
        self.renders += 1
        return np.zeros((4, 4, 3), np.uint8)


@pytest.fixture(autouse=True)
def _every_warning() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an unexpected warning fails the test
        yield


def ids_of(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message).split()[0] for w in caught]


def recorded(run: Callable[[], object]) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    return caught


# passive_env_checker -------------------------------------------------------------------------


def test_a_space_that_is_not_one_is_a_type_error() -> None:
    with pytest.raises(ContractTypeError, match="PG101 space-not-a-space") as info:
        passive_env_checker.check_observation_space("nope")
    assert isinstance(info.value, TypeError) and isinstance(info.value, AssertionError)
    with pytest.raises(TypeError, match="action_space is 'nope'"):
        passive_env_checker.check_space("nope", "action")


def test_space_checks_warn_or_raise_by_rule() -> None:
    caught = recorded(lambda: passive_env_checker.check_action_space(
        Box(np.zeros(2, np.float32), np.array([0.0, 1.0], np.float32))))
    assert ids_of(caught) == ["PG200"] and caught[0].category is CheckerWarning
    for empty in (Tuple([]), Dict()):
        with pytest.raises(ContractError, match="PG102 space-inconsistent"):
            passive_env_checker.check_observation_space(empty)


def test_check_obs_warns_about_values_and_types() -> None:
    caught = recorded(lambda: passive_env_checker.check_obs(3, Discrete(2), "reset"))
    assert ids_of(caught) == ["PG113"]
    assert "The observation from reset(), 3, is not in observation_space" in str(caught[0].message)
    caught = recorded(lambda: passive_env_checker.check_obs(np.uint8(0), Discrete(1), "step"))
    assert ids_of(caught) == ["PG201"]
    caught = recorded(lambda: passive_env_checker.check_obs(
        [0, 1], Tuple([Discrete(1), Discrete(2)]), "step"))
    assert "PG201" in ids_of(caught)
    assert recorded(lambda: passive_env_checker.check_obs(
        np.int64(1), Discrete(2), "step")) == []


@pytest.mark.parametrize(("obs", "space", "message"), [
    ((1, 0, 0), Tuple([Discrete(2), Discrete(2)]), "has 3 items; the Tuple space has 2"),
    ({1, 2}, Dict(a=Discrete(2)), "should be a dict for a Dict space, got set"),
    ({"a": 0, "c": 1}, Dict(a=Discrete(2), b=Discrete(2)),
     r"has the keys \['a', 'c'\]; the Dict space has \['a', 'b'\]"),
])
def test_check_obs_raises_for_the_wrong_structure_without_warning(
    obs: Any, space: Any, message: str
) -> None:
    with pytest.raises(ContractError, match=f"PG114 obs-structure: .*{message}"):
        passive_env_checker.check_obs(obs, space, "step")


def test_reset_checker_warns_about_an_old_signature_then_resets() -> None:
    def no_seed(self: Tweakable) -> tuple[Any, dict[str, Any]]:
        return np.zeros(2, np.float32), {}

    env = Tweakable(reset=no_seed)
    with pytest.warns(CheckerDeprecationWarning, match="^PG103 reset-signature: reset\\(\\) "
                      "does not accept 'seed' or 'options'"):
        obs, info = passive_env_checker.env_reset_passive_checker(env)
    assert obs.tolist() == [0.0, 0.0] and info == {}


def test_reset_checker_seed_default_and_result_shape_warn() -> None:
    def seed_five(self: Tweakable, *, seed: int = 5, options: Any = None) -> Any:
        return np.zeros(2, np.float32), {}

    with pytest.warns(CheckerWarning, match="^PG202 reset-seed-default: reset\\(\\)'s seed "
                      "defaults to 5"):
        passive_env_checker.env_reset_passive_checker(Tweakable(reset=seed_five))

    def as_list(self: Tweakable, *, seed: Any = None, options: Any = None) -> Any:
        return [np.zeros(2, np.float32), {}]

    with pytest.warns(CheckerWarning, match="^PG111 reset-result: reset\\(\\) returned list"):
        result = passive_env_checker.env_reset_passive_checker(Tweakable(reset=as_list))
    assert isinstance(result, list), "the result is passed on unchanged"


def test_reset_checker_raises_for_an_info_that_is_no_dict() -> None:
    def set_info(self: Tweakable, *, seed: Any = None, options: Any = None) -> Any:
        return np.zeros(2, np.float32), {1, 2}

    with pytest.raises(ContractError, match="PG112 info-not-dict"):
        passive_env_checker.env_reset_passive_checker(Tweakable(reset=set_info))


def step_returning(result: Any) -> Callable[..., Any]:
    return lambda self, action: result


def test_step_checker_raises_for_a_result_that_is_not_a_step() -> None:
    with pytest.raises(ContractError, match="PG121 step-result: step\\(\\) returned str"):
        passive_env_checker.env_step_passive_checker(Tweakable(step=step_returning("no")), 0)
    with pytest.raises(Error, match="returned a 3-tuple"):
        passive_env_checker.env_step_passive_checker(Tweakable(step=step_returning((1, 2, 3))), 0)
    obs = np.zeros(2, np.float32)
    with pytest.raises(ContractError, match="PG112 info-not-dict"):
        passive_env_checker.env_step_passive_checker(
            Tweakable(step=step_returning((obs, 0.0, False, False, "info"))), 0)


def test_step_checker_checks_a_legacy_four_tuple_on() -> None:
    obs = np.zeros(2, np.float32)
    env = Tweakable(step=step_returning((obs, 0.0, "yes", {})))
    caught = recorded(lambda: passive_env_checker.env_step_passive_checker(env, 0))
    assert [(w.category, i) for w, i in zip(caught, ids_of(caught), strict=True)] == [
        (CheckerDeprecationWarning, "PG120"), (CheckerWarning, "PG122"),
    ]
    assert "returned done='yes' of type str" in str(caught[1].message)


@pytest.mark.parametrize(("reward", "rule"), [
    ("1", "PG123"), (math.nan, "PG210"), (math.inf, "PG210"), (True, "PG123"),
])
def test_step_checker_warns_about_rewards(reward: Any, rule: str) -> None:
    env = Tweakable(step=step_returning((np.zeros(2, np.float32), reward, False, False, {})))
    with pytest.warns(CheckerWarning, match=f"^{rule} "):
        result = passive_env_checker.env_step_passive_checker(env, 5)  # not checked: 5
    assert result[1] is reward


def test_render_checker_metadata_and_frame() -> None:
    env = Tweakable(render_mode="rgb_array")
    frame = passive_env_checker.env_render_passive_checker(env)
    assert frame.shape == (4, 4, 3) and env.renders == 1
    class Undeclared(Tweakable):
        metadata: ClassVar[dict[str, Any]] = {"render_fps": 10}

    with pytest.warns(CheckerWarning, match="^PG240 render-modes-metadata: metadata has no "):
        passive_env_checker.env_render_passive_checker(Undeclared(render_mode="rgb_array"))


def test_render_checker_does_not_render_an_undeclared_mode() -> None:
    env = Tweakable(render_mode="human")
    with pytest.raises(ContractError, match="PG140 render-mode-undeclared"):
        passive_env_checker.env_render_passive_checker(env)
    assert env.renders == 0


def test_data_reuse_checker_and_data_shares_objects() -> None:
    shared = np.zeros(3)
    assert passive_env_checker.data_shares_objects(shared, shared[1:])
    assert not passive_env_checker.data_shares_objects(shared, shared.copy())
    with pytest.warns(CheckerWarning, match="^PG133 data-reused: The observations returned by "
                      "reset and the following step share an object"):
        passive_env_checker.env_data_reuse_passive_checker(
            (shared, {}), (shared, {}), "reset", "step")


def test_logger_level_silences_checker_warnings_not_errors() -> None:
    level = logger.min_level
    logger.set_level(logger.ERROR)
    try:
        assert recorded(lambda: passive_env_checker.check_obs(3, Discrete(2), "step")) == []
        with pytest.raises(ContractError):
            passive_env_checker.check_obs((1, 2, 3), Tuple([Discrete(2)]), "step")
    finally:
        logger.set_level(level)


# env_checker ---------------------------------------------------------------------------------


def test_data_equivalence() -> None:
    equal = env_checker.data_equivalence
    assert equal({"a": (np.ones(2), 1)}, {"a": (np.ones(2), 1)})
    one, nearly = np.array([1.0], np.float32), np.array([1.0 + 1e-7], np.float32)
    assert equal(one, nearly)
    assert not equal(one, nearly, exact=True)
    assert not equal(np.ones(2, np.float32), np.ones(2, np.float64))
    assert not equal([1], (1,))


def test_reset_seed_determinism_needs_a_seed_parameter() -> None:
    def no_seed(self: Tweakable) -> Any:
        return np.zeros(2, np.float32), {}

    with pytest.raises(ContractError, match="PG103 reset-signature: reset\\(\\) does not "
                       "accept 'seed'") as info:
        env_checker.check_reset_seed_determinism(Tweakable(reset=no_seed))
    assert isinstance(info.value, Error)


def test_reset_seed_determinism_finds_an_unseeded_generator() -> None:
    def unseeded(self: Tweakable, *, seed: Any = None, options: Any = None) -> Any:
        return self.np_random.random(2).astype(np.float32), {}

    with pytest.raises(ContractError, match="PG131 rng-not-seeded"):
        env_checker.check_reset_seed_determinism(Tweakable(reset=unseeded))
    env_checker.check_reset_seed_determinism(Tweakable())


def test_reset_seed_determinism_warns_about_a_seed_default() -> None:
    def seed_five(self: Tweakable, *, seed: int = 5, options: Any = None) -> Any:
        self.np_random, _ = np_random(seed)
        return np.zeros(2, np.float32), {}

    with pytest.warns(CheckerWarning, match="^PG202 "):
        env_checker.check_reset_seed_determinism(Tweakable(reset=seed_five))


def test_reset_options() -> None:
    def no_options(self: Tweakable, *, seed: Any = None) -> Any:
        return np.zeros(2, np.float32), {}

    with pytest.raises(Error, match="does not accept 'options'"):
        env_checker.check_reset_options(Tweakable(reset=no_options))

    def picky(self: Tweakable, *, seed: Any = None, options: Any = None) -> Any:
        if options is not None:
            raise TypeError("no options here")
        return np.zeros(2, np.float32), {}

    with pytest.raises(ContractError, match="PG104 call-raised: reset\\(options=\\{\\}\\) raised "
                       "TypeError: no options here"):
        env_checker.check_reset_options(Tweakable(reset=picky))
    env_checker.check_reset_options(Tweakable())


def test_step_determinism_judges_determinism_only() -> None:
    outside = np.full(2, 5.0, np.float32)  # not in the space: not this check's business
    env_checker.check_step_determinism(
        Tweakable(step=step_returning((outside, 0.0, False, False, {}))))

    def noisy(self: Tweakable, action: Any) -> Any:
        return outside, float(np.random.default_rng().random()), False, False, {}

    with pytest.raises(ContractError, match="PG132 step-not-reproducible: The reward of step"):
        env_checker.check_step_determinism(Tweakable(step=noisy))
    env = Tweakable(step=noisy)
    env.spec = EnvSpec(id="Noisy-v0", entry_point=Tweakable, nondeterministic=True)
    env_checker.check_step_determinism(env)  # declared nondeterministic: nothing to judge


def test_returned_data_not_reused() -> None:
    buffer = np.zeros(2, np.float32)

    def reused(self: Tweakable, *, seed: Any = None, options: Any = None) -> Any:
        return buffer, {}

    with pytest.raises(ContractError, match="PG133 data-reused"):
        env_checker.check_returned_data_not_reused(Tweakable(reset=reused))


def test_deprecation_checks() -> None:
    env = Tweakable()
    assert recorded(lambda: env_checker.check_seed_deprecation(env)) == []
    env.seed = lambda seed=None: None  # type: ignore[attr-defined]
    with pytest.warns(CheckerWarning, match="^PG203 seed-method"):
        env_checker.check_seed_deprecation(env)
    env.seed = 123  # type: ignore[attr-defined]  # not callable: not the old method
    assert recorded(lambda: env_checker.check_seed_deprecation(env)) == []

    def return_info(self: Tweakable, return_info: bool = False) -> Any:
        return np.zeros(2, np.float32)

    with pytest.warns(CheckerWarning, match="^PG204 return-info-param"):
        env_checker.check_reset_return_info_deprecation(Tweakable(reset=return_info))


def test_reset_return_type() -> None:
    def triple(self: Tweakable, *, seed: Any = None, options: Any = None) -> Any:
        return 1, 2, 3

    with pytest.raises(ContractError, match="PG111 reset-result: reset\\(\\) returned a 3-tuple"):
        env_checker.check_reset_return_type(Tweakable(reset=triple))

    def outside(self: Tweakable, *, seed: Any = None, options: Any = None) -> Any:
        return np.full(2, 3.0, np.float32), {}

    with pytest.raises(ContractError, match="PG113 obs-not-in-space"):
        env_checker.check_reset_return_type(Tweakable(reset=outside))
    env_checker.check_reset_return_type(Tweakable())


def test_space_limit_returns_the_hints_without_warning() -> None:
    unbounded = Box(-np.inf, np.inf, (2,), np.float32)
    report = env_checker.check_space_limit(Tuple([unbounded, Discrete(2)]), "observation")
    assert report.ids == ["PG302"]
    assert env_checker.check_space_limit(Box(-3.0, 3.0, (2,), np.float32), "action").ids == [
        "PG301"]


def test_check_env_raises_gymnasiums_classes() -> None:
    with pytest.raises(ContractTypeError, match="PG100 not-an-env: str lacks action_space"):
        env_checker.check_env("an env")

    class NoSpaces(Tweakable):
        def __init__(self) -> None:
            self.render_mode = None

    with pytest.raises(ContractAttributeError, match="NoSpaces lacks action_space, "
                       "observation_space") as info:
        env_checker.check_env(NoSpaces())
    assert isinstance(info.value, AttributeError)


def test_check_env_rebuilds_a_live_env_from_its_own_unregistered_spec() -> None:
    env = Tweakable()
    env.spec = EnvSpec(id="Unlisted/Tweakable-v0",
                       entry_point=f"{__name__}:{Tweakable.__qualname__}")
    assert "Unlisted/Tweakable-v0" not in protogym.registry
    before = Tweakable.built
    report = env_checker.check_env(env, skip_render_check=False)
    assert report.errors == []
    assert Tweakable.built > before, "closed twice on a second env built from the spec"
    # The trust rule for specs read from files is unchanged.
    with pytest.raises(UntrustedEntryPoint):
        protogym.make(EnvSpec.from_json(env.spec.to_json(), trust_entry_points=False))


def test_check_env_does_not_trust_a_spec_naming_another_class() -> None:
    env = Tweakable()
    env.spec = EnvSpec(id="Unlisted/Other-v0", entry_point="os:getcwd")
    with pytest.raises(ContractError, match="PG104 call-raised: building a second env to close "
                       "raised UntrustedEntryPoint"):
        env_checker.check_env(env)
