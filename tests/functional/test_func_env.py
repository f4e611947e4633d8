"""The FuncEnv contract: structural conformance, the defaults of explicit subclasses,
`transform` (in place, all functions of state) and `transformed` (a copy)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from protogym.experimental import functional as experimental
from protogym.functional import FuncEnv, transformed
from protogym.functional.func_env import TRANSFORMED_MEMBERS
from tests.functional.envs import NumpyWalk, WalkState


def counting(calls: list[str]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A transformation that records the name of each function it wraps and each call."""

    def transform(func: Callable[..., Any]) -> Callable[..., Any]:
        calls.append(f"wrap {func.__name__}")

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            calls.append(f"call {func.__name__}")
            return func(*args, **kwargs)

        return wrapped

    return transform


class Structural:
    """Every FuncEnv member, no base class."""

    observation_space = NumpyWalk.observation_space
    action_space = NumpyWalk.action_space
    initial = transition = observation = reward = terminal = NumpyWalk.initial
    state_info = transition_info = transform = NumpyWalk.state_info
    render_image = render_init = render_close = get_default_params = NumpyWalk.initial


def test_explicit_and_structural_envs_are_func_envs_and_others_are_not() -> None:
    assert isinstance(NumpyWalk(), FuncEnv)
    assert isinstance(Structural(), FuncEnv)
    without_render_close = type("Partial", (), {
        name: value for name, value in vars(Structural).items() if name != "render_close"
    })
    assert not isinstance(without_render_close(), FuncEnv)
    assert not isinstance(object(), FuncEnv)
    assert experimental.FuncEnv is FuncEnv


def test_explicit_subclass_defaults() -> None:
    env = NumpyWalk({"bound": 3.0, "label": "walk"})
    assert env.bound == 3.0  # type: ignore[attr-defined]
    assert env.label == "walk"  # type: ignore[attr-defined]
    assert env.default_params is None  # type: ignore[attr-defined]
    assert env.get_default_params() is None
    state = env.initial(np.random.default_rng(0))
    assert FuncEnv.state_info(env, state) == {}
    assert env.transition_info(state, np.int64(1), state) == {"moves": state.moves}
    with pytest.raises(NotImplementedError, match=r"NumpyWalk cannot render: .* `render_init`"):
        env.render_init()
    with pytest.raises(NotImplementedError, match="does not define `render_image`"):
        env.render_image(state, None)
    with pytest.raises(NotImplementedError, match="does not define `render_close`"):
        env.render_close(None)


def test_transform_wraps_every_function_of_state_in_place_and_returns_the_env() -> None:
    env = NumpyWalk()
    calls: list[str] = []
    assert env.transform(counting(calls)) is env
    assert calls == [f"wrap {name}" for name in TRANSFORMED_MEMBERS]
    calls.clear()
    rng = np.random.default_rng(0)
    state = env.initial(rng)
    env.transition_info(state, np.int64(1), state)
    assert calls == ["call initial", "call transition_info"]
    assert "render_image" not in vars(env)


def test_transformed_copies_and_leaves_the_callers_env_alone() -> None:
    env = NumpyWalk({"bound": 2.0})
    calls: list[str] = []
    copy = transformed(env, counting(calls))
    assert copy is not env and type(copy) is NumpyWalk
    assert copy.bound == 2.0  # type: ignore[attr-defined]
    assert not set(TRANSFORMED_MEMBERS) & set(vars(env))
    rng = np.random.default_rng(0)
    state = copy.initial(rng)
    assert isinstance(state, WalkState)
    assert calls[-1] == "call initial"
    calls.clear()
    env.initial(rng)
    assert calls == []


def test_transformed_explains_an_env_that_cannot_take_attributes() -> None:
    class Slotted(Structural):
        __slots__ = ()

        def __setattr__(self, name: str, value: object) -> None:
            raise AttributeError(f"{name} is read-only")

    with pytest.raises(TypeError, match=r"cannot transform Slotted.initial: initial is read-only"):
        transformed(Slotted(), lambda func: func)  # type: ignore[type-var]


def test_the_functional_layer_never_imports_jax() -> None:
    code = (
        "import sys\n"
        "import protogym.experimental.functional, protogym.functional.numpy_env\n"
        "import protogym.functional.pure, protogym.functional.wrappers\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'jax'))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
