"""PassiveEnvChecker: the rules on the first reset, step and render, then out of the way."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.checker import CheckerDeprecationWarning, CheckerWarning, ContractError, check_env
from protogym.spaces import Discrete
from protogym.wrappers.env_checker import PassiveEnvChecker
from tests.checker.checker_testenvs import FLAVOURS, NoStep, register_corridors


@pytest.fixture(autouse=True)
def _strict_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.fixture(params=sorted(FLAVOURS))
def flavour(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def checked(flavour: str, **kwargs: Any) -> PassiveEnvChecker[Any, Any]:
    return PassiveEnvChecker(FLAVOURS[flavour](**kwargs))


def test_checker_passive_correct_env_is_silent_and_returns_the_env_data(flavour: str) -> None:
    env = checked(flavour, render_mode="rgb_array")
    twin = FLAVOURS[flavour](render_mode="rgb_array")
    obs, info = env.reset(seed=5)
    twin_obs, twin_info = twin.reset(seed=5)
    assert np.array_equal(obs, twin_obs) and info == twin_info
    for action in (1, 0, 1):
        result, twin_result = env.step(action), twin.step(action)
        assert np.array_equal(result[0], twin_result[0]) and result[1:] == twin_result[1:]
    assert np.array_equal(env.render(), twin.render())


def test_checker_passive_rebinds_to_the_inner_methods_after_first_use(flavour: str) -> None:
    env = checked(flavour, render_mode="ansi")
    inner = env.env
    assert "reset" not in vars(env) and "step" not in vars(env)
    assert (env.checked_reset, env.checked_step, env.checked_render) == (False, False, False)
    env.reset(seed=0)
    assert vars(env)["reset"] == inner.reset
    assert env.checked_reset and "step" not in vars(env)
    env.step(1)
    assert env.checked_step and vars(env)["step"] == inner.step
    env.render()
    assert vars(env)["render"] == inner.render
    assert env.checked_render
    # Outer wrappers that look up `env.step` now get the inner env's bound method.
    assert env.step.__self__ is inner  # type: ignore[attr-defined]


def test_checker_passive_stale_bound_method_still_forwards(flavour: str) -> None:
    env = checked(flavour)
    cached_step = env.step  # a wrapper that cached the checking method before the first step
    env.reset(seed=0)
    first = cached_step(1)
    second = cached_step(1)  # checked already: forwards without checking again
    assert first[1] == second[1] == -0.1


def test_checker_passive_space_errors_raise_at_construction(flavour: str) -> None:
    with pytest.raises(ContractError) as info:
        checked(flavour, fault="PG101")
    assert info.value.report.ids == ["PG101"]
    assert str(info.value).startswith(
        f"PassiveEnvChecker({FLAVOURS[flavour].__name__}) breaks the environment contract"
    )


def test_checker_passive_space_warnings_at_construction(flavour: str) -> None:
    with pytest.warns(CheckerWarning, match="^PG205 image-dtype: observation_space looks like "
                      "an image \\(shape \\(8, 8, 3\\), bounds 0..255\\) but has dtype float32."):
        checked(flavour, fault="PG205")


def test_checker_passive_not_an_env() -> None:
    with pytest.raises(ContractError, match="PG100 not-an-env: NoStep lacks step"):
        PassiveEnvChecker(NoStep())  # type: ignore[arg-type]


def test_checker_passive_reset_signature_is_a_deprecation_warning(flavour: str) -> None:
    env = checked(flavour, fault="PG103")
    with pytest.warns(CheckerDeprecationWarning, match="^PG103 reset-signature: reset\\(\\) "
                      "does not accept 'seed' or 'options'"):
        env.reset()
    assert issubclass(CheckerDeprecationWarning, DeprecationWarning)


@pytest.mark.parametrize("fault", ["PG110", "PG111"])
def test_checker_passive_reset_result_warns_as_in_gymnasium(flavour: str, fault: str) -> None:
    env = checked(flavour, fault=fault)
    with pytest.warns(CheckerWarning, match=f"^{fault} "):
        env.reset()


def test_checker_passive_reset_info_not_a_dict_raises(flavour: str) -> None:
    env = checked(flavour, fault="PG112reset")
    with pytest.raises(ContractError) as info:
        env.reset()
    assert info.value.report.ids == ["PG112"]


@pytest.mark.parametrize("fault", ["PG112", "PG121"])
def test_checker_passive_first_step_errors(flavour: str, fault: str) -> None:
    env = checked(flavour, fault=fault)
    env.reset(seed=1)
    with pytest.raises(ContractError) as info:
        env.step(1)
    assert info.value.report.ids == [fault]
    env.step(1)  # only the first step is checked


@pytest.mark.parametrize("fault", ["PG113", "PG120", "PG122", "PG123", "PG133", "PG201",
                                   "PG210", "PG211"])
def test_checker_passive_first_step_warnings(flavour: str, fault: str) -> None:
    env = checked(flavour, fault=fault)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.reset(seed=1)
        env.step(1)
        env.step(1)
        env.step(1)
    warned = [str(w.message).split()[0] for w in caught]
    assert set(warned) == {fault}, "this rule and nothing else"
    assert len(warned) <= 2, "the first reset and the first step only"
    expected = CheckerDeprecationWarning if fault == "PG120" else CheckerWarning
    assert {w.category for w in caught} == {expected}


def test_checker_passive_numpy_bools_are_fine(flavour: str) -> None:
    env = checked(flavour, numpy_types=True)
    env.reset(seed=1)
    env.step(1)


def test_checker_passive_action_outside_space_names_space_and_value(flavour: str) -> None:
    env = checked(flavour)
    env.reset(seed=1)
    env.step(np.int64(1))  # in the space: silent (warnings are errors here)
    env.step(7)  # not checked any more
    env = checked(flavour)
    env.reset(seed=1)
    with pytest.warns(CheckerWarning) as caught:
        env.step(7)
    assert str(caught[0].message).startswith(
        "PG212 action-not-in-space: step() got the action 7 (int), which is not in the "
        f"action space {env.action_space!r}."
    )


@pytest.mark.parametrize("fault", ["PG140", "PG141"])
def test_checker_passive_first_render_errors(flavour: str, fault: str) -> None:
    env = checked(flavour, render_mode="rgb_array", fault=fault)
    env.reset(seed=0)
    with pytest.raises(ContractError) as info:
        env.render()
    assert info.value.report.ids == [fault]


@pytest.mark.parametrize("fault", ["PG142", "PG240", "PG241", "PG242"])
def test_checker_passive_first_render_warnings(flavour: str, fault: str) -> None:
    env = checked(flavour, render_mode="rgb_array", fault=fault)
    env.reset(seed=0)
    with pytest.warns(CheckerWarning, match=f"^{fault} "):
        env.render()
    env.render()


def test_checker_passive_close_twice(flavour: str) -> None:
    env = checked(flavour)
    env.close()
    env.close()
    env = checked(flavour, fault="PG250")
    env.close()
    with pytest.warns(CheckerWarning, match="^PG250 close-twice: The second close\\(\\) raised "
                      "RuntimeError: already closed"), pytest.raises(RuntimeError):
        env.close()


def test_checker_passive_is_what_make_installs(flavour: str) -> None:
    env = protogym.make(register_corridors()[flavour])
    layer: Any = env
    while not isinstance(layer, PassiveEnvChecker):
        layer = layer.env
    assert layer.env is env.unwrapped
    unchecked = protogym.make(register_corridors()[flavour], disable_env_checker=True)
    layer = unchecked
    while hasattr(layer, "env"):
        assert not isinstance(layer, PassiveEnvChecker)
        layer = layer.env


def test_checker_passive_inside_check_env_stays_quiet(flavour: str) -> None:
    env = protogym.make(register_corridors()[flavour], fault="PG210")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = check_env(env, skip=("PG210",))
    assert caught == []
    assert report.results == []
    assert [r.id for r in report.silenced] == ["PG210"]


def test_checker_passive_with_plain_discrete_observations() -> None:
    class Counter:
        metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012
        render_mode = None
        action_space = Discrete(2)
        observation_space = Discrete(4)

        def reset(self, *, seed: int | None = None,
                  options: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
            return 0, {}

        def step(self, action: int) -> tuple[int, float, bool, bool, dict[str, Any]]:
            return 1, 0.0, False, False, {}

        def render(self) -> None:
            return None

        def close(self) -> None:
            return None

    env = PassiveEnvChecker[Any, Any](Counter())
    assert env.reset() == (0, {})
    assert env.step(0) == (1, 0.0, False, False, {})
    assert env.render() is None
    assert check_env(Counter()).results == []
