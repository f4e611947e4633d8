"""The wrapper catalog and the lazy package: every name resolves, `make` applies wrappers by
name and rebuilds them from the spec's JSON, and importing one wrapper imports no other."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

import protogym
import protogym.wrappers as wrappers
from protogym.core import Wrapper
from protogym.registration.env_spec import EnvSpec
from protogym.wrappers import (
    FrameStackObservation,
    NormalizeReward,
    OrderEnforcing,
    TimeLimit,
)
from protogym.wrappers.catalog import BUILTIN_WRAPPERS, WRAPPER_MODULES

ENV_ID = "wrappers-test/Counting-v0"

GYMNASIUM_WRAPPERS = {
    "AtariPreprocessing", "DelayObservation", "DtypeObservation", "DiscretizeObservation",
    "FilterObservation", "FlattenObservation", "FrameStackObservation", "GrayscaleObservation",
    "TransformObservation", "MaxAndSkipObservation", "NormalizeObservation",
    "AddRenderObservation", "ResizeObservation", "ReshapeObservation", "RescaleObservation",
    "TimeAwareObservation", "ClipAction", "DiscretizeAction", "TransformAction", "RescaleAction",
    "StickyAction", "RepeatAction", "ClipReward", "TransformReward", "NormalizeReward",
    "TimeLimit", "Autoreset", "PassiveEnvChecker", "OrderEnforcing", "RecordEpisodeStatistics",
    "AddWhiteNoise", "ObstructView", "RenderCollection", "RecordVideo", "HumanRendering",
    "ArrayConversion", "NumpyToTorch", "JaxToNumpy", "JaxToTorch",
}
# protogym's own additions: the legacy adapter, and the reverse tensor conversions
PROTOGYM_WRAPPERS = {"StepCompatibility", "TorchToNumpy", "NumpyToJax", "TorchToJax"}


@pytest.fixture(scope="module")
def counting_id() -> Iterator[str]:
    protogym.register(ENV_ID, "tests.wrappers.wrapper_test_envs:CountingEnv",
                      max_episode_steps=6, kwargs={"render_mode": "rgb_array"})
    yield ENV_ID
    protogym.registry.unregister(ENV_ID)


def test_wrappers_catalog_names_every_gymnasium_wrapper() -> None:
    assert set(BUILTIN_WRAPPERS) == GYMNASIUM_WRAPPERS | PROTOGYM_WRAPPERS
    assert set(BUILTIN_WRAPPERS) == set(WRAPPER_MODULES)
    # plus `vector`, Gymnasium's path of the vector wrappers
    assert set(wrappers.__all__) == set(BUILTIN_WRAPPERS) | {"BUILTIN_WRAPPERS", "vector"}


@pytest.mark.parametrize("name", sorted(BUILTIN_WRAPPERS))
def test_wrappers_catalog_entry_points_resolve_to_wrapper_classes(name: str) -> None:
    module_name, _, attr = BUILTIN_WRAPPERS[name].partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    assert inspect.isclass(cls) and cls.__name__ == name
    if name != "StepCompatibility":  # the lead's legacy adapter is a structural wrapper
        assert Wrapper in cls.__mro__
    assert getattr(wrappers, name) is cls


def test_wrappers_package_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'TimeLimits'"):
        wrappers.TimeLimits  # noqa: B018


def test_wrappers_importing_one_wrapper_imports_no_other_module() -> None:
    code = (
        "import sys\n"
        "from protogym.wrappers import TimeLimit\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('protogym.wrappers.'))\n"
        "print(loaded, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "['protogym.wrappers.catalog', 'protogym.wrappers.common'] False"


def test_wrappers_make_applies_wrappers_by_name_and_round_trips_json(counting_id: str) -> None:
    env = protogym.make(counting_id, wrappers=[
        ("FrameStackObservation", {"stack_size": 4}),
        ("NormalizeReward", {"gamma": 0.5}),
    ])
    assert isinstance(env, NormalizeReward)
    assert isinstance(env.env, FrameStackObservation)
    assert isinstance(env.env.env, TimeLimit)
    obs = env.reset(seed=0)[0]
    assert obs.shape == (4, 3)
    assert env.spec is not None
    rebuilt = protogym.make(EnvSpec.from_json(env.spec.to_json()))
    assert str(rebuilt) == str(env)
    rebuilt.reset(seed=0)
    for _ in range(3):
        mine, theirs = env.step(0), rebuilt.step(0)
        np.testing.assert_array_equal(mine[0], theirs[0])
        assert mine[1:4] == theirs[1:4]


def test_wrappers_make_default_stack_truncates_and_enforces_order(counting_id: str) -> None:
    env = protogym.make(counting_id)
    assert isinstance(env, TimeLimit) and isinstance(env.env, OrderEnforcing)
    with pytest.raises(protogym.error.ResetNeeded):
        env.step(0)
    env.reset(seed=0)
    flags = [env.step(0)[3] for _ in range(6)]
    assert flags == [False] * 5 + [True]


def test_wrappers_wrap_by_name_records_the_spec(counting_id: str) -> None:
    env = protogym.wrap(protogym.make(counting_id), "ClipReward", max_reward=2.0)
    env.reset(seed=0)
    assert [env.step(0)[1] for _ in range(3)] == [1.0, 2.0, 2.0]
    assert env.spec is not None
    assert [w.name for w in env.spec.additional_wrappers] == ["ClipReward"]
