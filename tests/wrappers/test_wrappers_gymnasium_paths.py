"""Gymnasium's module paths, helper names and exception classes for the single-env wrappers."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from gymnasium.wrappers import utils as gym_utils

import protogym
import protogym.wrappers as wrappers
from protogym import spaces
from protogym.error import InvalidProbability
from protogym.interop.gymnasium import to_gymnasium_space
from protogym.wrappers import (
    AddRenderObservation,
    AddWhiteNoise,
    DelayObservation,
    FilterObservation,
    FrameStackObservation,
)
from protogym.wrappers.utils import (
    RunningMeanStd,
    create_zero_array,
    update_mean_var_count_from_moments,
)
from tests.wrappers.wrapper_test_envs import (
    CountingEnv,
    DictObsEnv,
    TupleObsEnv,
    assert_same_data,
)


class TextFrames(CountingEnv):
    """Renders text, not an image."""

    def render(self) -> Any:
        return "frame"



def test_the_vector_wrappers_under_gymnasiums_path_are_the_same_module() -> None:
    import protogym.vector.wrappers
    import protogym.wrappers.vector

    assert protogym.wrappers.vector is protogym.vector.wrappers
    assert wrappers.vector is protogym.vector.wrappers
    assert "vector" in wrappers.__all__


@pytest.mark.parametrize(("old", "new"), [
    ("AutoResetWrapper", "Autoreset"),
    ("FrameStack", "FrameStackObservation"),
    ("PixelObservationWrapper", "AddRenderObservation"),
    ("VectorListInfo", "vector.DictInfoToList"),
])
def test_renamed_wrappers_name_their_replacement(old: str, new: str) -> None:
    with pytest.raises(AttributeError, match=f"has no '{old}': it was renamed, use "
                       f"protogym.wrappers.{new}$"):
        getattr(wrappers, old)


def test_an_unknown_wrapper_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"'protogym\.wrappers' has no attribute 'Nope'"):
        wrappers.Nope  # noqa: B018


def test_passive_env_checker_is_in_common_without_importing_the_checker() -> None:
    from protogym.wrappers import common, env_checker

    assert common.PassiveEnvChecker is env_checker.PassiveEnvChecker
    code = ("import sys\nfrom protogym.wrappers.common import TimeLimit\n"
            "print('protogym.checker' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
    with pytest.raises(AttributeError, match="has no attribute 'Missing'"):
        common.Missing  # noqa: B018


def test_numpy_to_torch_module_names() -> None:
    torch = pytest.importorskip("torch")
    from protogym.wrappers import numpy_to_torch

    assert numpy_to_torch.NumpyToTorch is wrappers.NumpyToTorch
    assert isinstance(numpy_to_torch.numpy_to_torch(np.ones(2)), torch.Tensor)
    assert isinstance(numpy_to_torch.torch_to_numpy(torch.ones(2)), np.ndarray)
    assert torch.device in numpy_to_torch.Device.__args__


def test_array_conversion_function_takes_a_module() -> None:
    from protogym.wrappers.array_conversion import array_conversion

    value = {"a": np.ones(2), "b": (np.int64(3), "text")}
    converted = array_conversion(value, np)
    assert_same_data(converted, value)
    with pytest.raises(ValueError, match="converts between numpy, torch and jax arrays"):
        array_conversion(value, "tensorflow")  # type: ignore[arg-type]


def test_update_mean_var_count_from_moments_is_gymnasiums_formula() -> None:
    rng = np.random.default_rng(0)
    first, second = rng.normal(size=(5, 3)), rng.normal(size=(7, 3))
    args = (first.mean(0), first.var(0), 5.0, second.mean(0), second.var(0), 7)
    ours = update_mean_var_count_from_moments(*args)
    theirs = gym_utils.update_mean_var_count_from_moments(*args)  # type: ignore[no-untyped-call]
    for mine, gymnasiums in zip(ours, theirs, strict=True):
        assert_same_data(np.asarray(mine), np.asarray(gymnasiums))
    stats = RunningMeanStd(shape=(3,))
    stats.update(np.concatenate([first, second]))
    np.testing.assert_allclose(stats.mean, np.concatenate([first, second]).mean(0), rtol=1e-3)


@pytest.mark.parametrize("space", [
    spaces.Graph(spaces.Box(-1.0, 1.0, (2,)), spaces.Discrete(3)),
    spaces.Graph(spaces.Discrete(4, start=2), None),
    spaces.OneOf([spaces.Discrete(3, start=5), spaces.Box(0.0, 1.0, (1,))]),
    spaces.Sequence(spaces.Box(1.0, 2.0, (2,)), stack=True),
    spaces.Sequence(spaces.Discrete(2)),
])
def test_create_zero_array_of_the_structured_spaces_is_gymnasiums(space: Any) -> None:
    ours = create_zero_array(space)
    theirs = gym_utils.create_zero_array(to_gymnasium_space(space))
    if isinstance(space, spaces.Graph):  # GraphInstance is each library's own named tuple
        ours, theirs = tuple(ours), tuple(theirs)
    assert_same_data(ours, theirs)
    assert space.contains(create_zero_array(space))


def test_delay_and_frame_stack_pad_a_one_of_space_with_its_zero() -> None:
    space = spaces.OneOf([spaces.Discrete(3, start=5), spaces.Box(0.0, 1.0, (1,))])
    env: Any = CountingEnv()
    env.observation_space = space
    delayed = DelayObservation(env, delay=2)
    assert delayed.observation((1, np.ones(1, np.float32))) == (0, 5)
    stacked = FrameStackObservation(env, 2, padding_type="zero")
    assert stacked.padding_value == (0, 5)


@pytest.mark.parametrize(("build", "error", "message"), [
    (lambda: FilterObservation(DictObsEnv(), 1),  # type: ignore[arg-type]
     TypeError, "filter_keys must be a list"),
    (lambda: FilterObservation(DictObsEnv(), [1]), TypeError,
     r"the keys of a Dict observation space are strings, got \[1\]"),
    (lambda: FilterObservation(TupleObsEnv(), ["a"]), TypeError,
     r"the keys of a Tuple observation space are int indices, got \['a'\]"),
    (lambda: FilterObservation(TupleObsEnv(), [-4]), ValueError, "are not indices"),
    (lambda: AddWhiteNoise(CountingEnv(), 1.0), InvalidProbability,
     r"probability_of_noise_per_pixel must be in \[0, 1\), got 1.0"),
    (lambda: AddRenderObservation(TextFrames(render_mode="ansi")), TypeError,
     "render\\(\\) must return a numpy array, got str"),
])
def test_argument_errors_have_gymnasiums_classes(
    build: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        build()


def test_a_negative_tuple_index_filters_from_the_end() -> None:
    env = FilterObservation(TupleObsEnv(), [-1])
    assert env.observation_space == spaces.Tuple([TupleObsEnv().observation_space.spaces[-1]])
    assert isinstance(protogym.wrappers.FilterObservation, type)
