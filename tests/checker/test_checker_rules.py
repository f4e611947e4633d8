"""check_env: every rule fires on the env with that one fault and stays silent otherwise.

Each fault is checked on both flavours (structural and subclassed), bare and made.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from typing import Any, SupportsFloat

import numpy as np
import pytest

import protogym
from protogym.checker import (
    RULES,
    CheckerDeprecationWarning,
    CheckerWarning,
    CheckReport,
    ContractError,
    Severity,
    check_env,
)
from protogym.utils.env_checker import check_env as seeds_check_env
from tests.checker.checker_testenvs import (
    FAULTS,
    FLAVOURS,
    LegacyCorridor,
    LyingBox,
    NoStep,
    StructuralCorridor,
    register_corridors,
    register_legacy_corridors,
)

RENDER_FAULTS = {"PG140", "PG141", "PG142", "PG240", "PG241", "PG242", "PG250"}
# Rules the made env's PassiveEnvChecker reports while make() builds it (space rules).
AT_MAKE = {"PG101", "PG102", "PG200", "PG205"}


@pytest.fixture(autouse=True)
def _strict_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def run_check(env: Any, **kwargs: Any) -> tuple[CheckReport, list[str]]:
    """check_env's report (taken from the ContractError if one is raised) and warned ids."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            report = check_env(env, **kwargs)
        except ContractError as exc:
            report = exc.report
    warned = [str(w.message).split()[0] for w in caught if w.category is CheckerWarning]
    return report, warned


def bare_env(flavour: str, fault: str) -> Any:
    return FLAVOURS[flavour](render_mode="rgb_array", fault=fault)


def made_env(flavour: str, fault: str) -> Any:
    env_id = register_corridors()[flavour]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CheckerWarning)
        return protogym.make(env_id, render_mode="rgb_array", fault=fault)


@pytest.mark.parametrize("flavour", sorted(FLAVOURS))
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_checker_each_rule_fires_alone_on_bare_env(flavour: str, fault: str) -> None:
    render = fault in RENDER_FAULTS
    report, warned = run_check(bare_env(flavour, fault), skip_render_check=not render)
    # Without a spec, the other declared modes go untested (PG303), and closing twice is
    # not tried, as it needs a second env.
    expected = [fault, "PG303"] if render and fault != "PG240" else [fault]
    if fault == "PG250":
        expected = ["PG303"]
    assert report.ids == expected
    severity = RULES[fault].severity
    assert all(r.severity is RULES[r.id].severity for r in report)
    assert warned == ([fault] if severity is Severity.WARNING and fault != "PG250" else [])


@pytest.mark.parametrize("flavour", sorted(FLAVOURS))
@pytest.mark.parametrize("fault", sorted(FAULTS.keys() - AT_MAKE))
def test_checker_each_rule_fires_alone_on_made_env(flavour: str, fault: str) -> None:
    report, warned = run_check(made_env(flavour, fault),
                               skip_render_check=fault not in RENDER_FAULTS)
    assert report.ids == [fault]
    severity = RULES[fault].severity
    assert warned == ([fault] if severity is Severity.WARNING else [])


@pytest.mark.parametrize("flavour", sorted(FLAVOURS))
@pytest.mark.parametrize("fault", sorted(AT_MAKE))
def test_checker_space_rules_fire_when_make_builds_the_env(flavour: str, fault: str) -> None:
    env_id = register_corridors()[flavour]
    if RULES[fault].severity is Severity.ERROR:
        with pytest.raises(ContractError) as info:
            protogym.make(env_id, fault=fault)
        assert info.value.report.ids == [fault]
    else:
        with pytest.warns(CheckerWarning, match=f"^{fault} "):
            env = protogym.make(env_id, fault=fault)
        assert run_check(env)[0].ids == [fault]


@pytest.mark.parametrize("flavour", sorted(FLAVOURS))
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_checker_skip_silences_the_rule(flavour: str, fault: str) -> None:
    render = fault in RENDER_FAULTS
    env = made_env(flavour, fault) if fault == "PG250" else bare_env(flavour, fault)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = check_env(env, skip_render_check=not render, skip=(fault, "PG303"))
    assert fault in {r.id for r in report.silenced}
    assert fault not in report.ids


@pytest.mark.parametrize("flavour", sorted(FLAVOURS))
@pytest.mark.parametrize("render_mode", [None, "rgb_array", "ansi"])
def test_checker_correct_bare_env_has_no_findings(flavour: str, render_mode: str | None) -> None:
    env = FLAVOURS[flavour](render_mode=render_mode)
    assert check_env(env).results == []
    # With rendering checked, only the hint that other modes need a spec remains.
    assert check_env(env, skip_render_check=False).ids == ["PG303"]


@pytest.mark.parametrize("flavour", sorted(FLAVOURS))
@pytest.mark.parametrize(
    "render_mode", [None, "rgb_array", "ansi", "rgb_array_list", "ansi_list", "human"]
)
def test_checker_correct_made_env_has_no_findings(flavour: str, render_mode: str | None) -> None:
    with warnings.catch_warnings():
        # make says, as Gymnasium does, that "human" is shown through HumanRendering
        warnings.filterwarnings("ignore", message=".*through the HumanRendering wrapper")
        env = protogym.make(register_corridors()[flavour], render_mode=render_mode)
    report = check_env(env, skip_render_check=False)
    assert report.results == []
    assert report.silenced == []
    assert check_env(env.unwrapped, skip_render_check=False).results == []


@pytest.mark.parametrize("flavour", sorted(FLAVOURS))
def test_checker_numpy_bool_flags_and_float32_reward_are_accepted(flavour: str) -> None:
    assert check_env(FLAVOURS[flavour](numpy_types=True)).results == []
    env = protogym.make(register_corridors()[flavour], numpy_types=True)
    assert check_env(env).results == []


@pytest.mark.parametrize("flavour", sorted(FLAVOURS))
def test_checker_looks_through_the_legacy_step_layer(flavour: str) -> None:
    env = protogym.make(register_corridors()[flavour], return_two_dones=False)
    assert check_env(env).results == []
    env.reset(seed=0)
    assert len(env.step(1)) == 4  # the layer itself is untouched


def test_checker_does_not_replace_made_wrappers() -> None:
    env = protogym.make(register_corridors()["structural"])
    layers = []
    layer: Any = env
    while hasattr(layer, "env"):
        layers.append(layer)
        layer = layer.env
    check_env(env)
    after = []
    layer = env
    while hasattr(layer, "env"):
        after.append(layer)
        layer = layer.env
    assert after == layers
    obs, _ = env.reset(seed=3)
    assert obs in env.observation_space


def test_checker_legacy_messages_name_both_ways_out() -> None:
    with pytest.raises(ContractError) as info:
        check_env(FLAVOURS["structural"](fault="PG110"))
    (result,) = info.value.report.errors
    assert "register(..., api=\"done\")" in result.fix
    assert "StepCompatibility" in result.fix
    with pytest.raises(ContractError) as info:
        check_env(FLAVOURS["structural"](fault="PG120"))
    (result,) = info.value.report.errors
    assert result.message == (
        "step() returned 4 values `(obs, reward, done, info)`: this is the legacy Gym API."
    )
    assert "register(..., api=\"done\")" in result.fix
    assert "StepCompatibility" in result.fix


def test_checker_contract_error_is_an_assertion_error_listing_the_errors() -> None:
    with pytest.raises(AssertionError) as info:
        check_env(FLAVOURS["subclassed"](fault="PG122"))
    lines = str(info.value).splitlines()
    assert lines[0] == "SubclassedCorridor breaks the environment contract (2 errors):"
    assert lines[1:] == [
        f"  PG122 flag-not-bool: step() returned terminated={value} of type int, not a bool. "
        "Fix: Return `bool(...)` for both flags."
        for value in (0, 1)
    ]


def test_checker_not_an_env_stops_at_once() -> None:
    with pytest.raises(ContractError) as info:
        check_env(NoStep())
    assert [(r.id, r.message) for r in info.value.report] == [
        ("PG100", "NoStep lacks step, so it is not an environment.")
    ]


def test_checker_space_whose_samples_leave_it_is_inconsistent() -> None:
    env = FLAVOURS["structural"]()
    env.action_space = LyingBox(-1.0, 1.0, (2,), np.float32)
    with pytest.raises(ContractError) as info:
        check_env(env)
    assert info.value.report.ids == ["PG102"]
    assert info.value.report.errors[0].message.startswith(
        "action_space.sample() returned array([10., 10.], dtype=float32), which action_space "
        "does not contain."
    )


def test_checker_warn_false_reports_without_warning() -> None:
    report = check_env(FLAVOURS["structural"](fault="PG210"), warn=False)
    assert report.ids == ["PG210"]
    assert report.warnings[0].message == "step() returned reward=nan."


def test_checker_hints_are_reported_but_never_warned() -> None:
    report = check_env(FLAVOURS["structural"](fault="PG301"))
    assert [(r.id, r.severity) for r in report] == [("PG301", Severity.HINT)]
    assert report.ok


def test_checker_skip_rejects_unknown_ids_and_bare_strings() -> None:
    env = FLAVOURS["structural"]()
    with pytest.raises(ValueError, match="unknown rule id\\(s\\) in skip: PG999"):
        check_env(env, skip=("PG999",))
    with pytest.raises(TypeError, match="write skip=\\('PG210',\\)"):
        check_env(env, skip="PG210")


def test_checker_seeds_spelling_is_the_same_function() -> None:
    assert seeds_check_env is check_env
    assert protogym.check_env is check_env


def test_checker_every_rule_is_documented() -> None:
    from pathlib import Path

    docs = (Path(__file__).parents[2] / "docs" / "checker.md").read_text()
    for rule in RULES.values():
        assert f"`{rule.id}`" in docs, rule.id
        assert rule.name in docs, rule.name


class _StartFromLastPosition(StructuralCorridor):
    """Seeds its generator, but starts where the last episode stopped: state leaks."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        last = self._position
        obs, info = super().reset(seed=seed, options=options)
        self._position += last
        return self._obs(), info


class _SharedInfo(StructuralCorridor):
    """Returns one info dict object from every call."""

    _info: dict[str, Any] = {}  # noqa: RUF012 - shared on purpose

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        return super().reset(seed=seed, options=options)[0], self._info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, _ = super().step(action)
        return obs, reward, terminated, truncated, self._info


def test_checker_seeded_reset_must_not_depend_on_the_previous_episode() -> None:
    with pytest.raises(ContractError) as info:
        check_env(_StartFromLastPosition())
    first = info.value.report.errors[0]
    assert first.id == "PG130"
    assert first.message.startswith(
        "The observation of reset(seed=123) differed after steps and other resets:"
    )


def test_checker_shared_info_dict_is_reported() -> None:
    with pytest.raises(ContractError) as info:
        check_env(_SharedInfo())
    assert info.value.report.ids == ["PG133"]
    assert info.value.report.errors[0].message == (
        "The infos returned by reset() (call 1) and step() (call 2) share an object."
    )


@pytest.mark.parametrize("env_id", ["CartPole-v1", "FrozenLake-v1", "Acrobot-v1"])
def test_checker_gymnasium_envs_are_checked_structurally(env_id: str) -> None:
    gym = pytest.importorskip("gymnasium")
    env = gym.make(env_id, render_mode="rgb_array")
    report = check_env(env, skip_render_check=False)
    assert report.ok
    assert report.warnings == []


def test_checker_legacy_env_bare_reports_both_legacy_shapes() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ContractError) as info:
            check_env(LegacyCorridor())
    assert caught == [], "a raised report is not also warned"
    assert info.value.report.ids == ["PG203", "PG103", "PG110", "PG120"]
    assert "  and warns:\n  PG203 seed-method: LegacyCorridor defines seed()." in str(info.value)
    signature, reset, step = (r.message for r in info.value.report.errors)
    assert signature == "reset() does not accept 'seed' or 'options'."
    assert reset.startswith("reset() returned only an observation, array([")
    assert reset.endswith("dtype=float32): this is the legacy Gym API.")
    assert step == (
        "step() returned 4 values `(obs, reward, done, info)`: this is the legacy Gym API."
    )


def test_checker_legacy_env_made_without_api_done_warns_on_first_reset() -> None:
    env = protogym.make(register_legacy_corridors()[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        obs = env.reset()
    # The passive checker warns, as Gymnasium's does; the fix names the way out.
    assert isinstance(obs, np.ndarray)
    assert [(w.category, str(w.message).split()[0]) for w in caught] == [
        (CheckerWarning, "PG203"),
        (CheckerDeprecationWarning, "PG103"),
        (CheckerWarning, "PG110"),
    ]
    assert 'register(..., api="done")' in str(caught[2].message)


def test_checker_legacy_env_made_with_api_done_is_clean() -> None:
    env = protogym.make(register_legacy_corridors()[1])
    report = check_env(env, skip_render_check=False)
    assert report.results == []
    legacy = protogym.make(register_legacy_corridors()[1], return_two_dones=False)
    assert check_env(legacy).results == []


def test_checker_leaves_wrappers_above_a_made_env_alone() -> None:
    from protogym.wrappers import NormalizeObservation

    env = NormalizeObservation(protogym.make(register_corridors()["structural"]))
    count = float(env.obs_rms.count)
    report = check_env(env)
    assert [(r.id, r.message) for r in report] == [
        ("PG304", "Checked StructuralCorridor<checker/StructuralCorridor-v0> through make's "
                  "own wrappers only; NormalizeObservation above it was left alone.")
    ]
    assert float(env.obs_rms.count) == count


class _DoubleReward(protogym.RewardWrapper[Any, Any]):
    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        return float(reward) * 2


class _NanReward(protogym.RewardWrapper[Any, Any]):
    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        return float("nan")


def test_checker_drives_a_stack_the_caller_built_whole() -> None:
    assert check_env(_DoubleReward(StructuralCorridor())).results == []
    with pytest.warns(CheckerWarning, match="^PG210 reward-not-finite: step\\(\\) returned "
                      "reward=nan."):
        report = check_env(_NanReward(StructuralCorridor()))
    assert report.ids == ["PG210"]


def _first_party_ids(per_plugin: int = 12) -> list[str]:
    """Every plugin id, but evenly spaced representatives of a plugin with very many (the
    352 Atari ids share one class; checking each would take minutes). The functional ids
    answer in jax arrays, as Gymnasium's FunctionalJaxEnv does, which check_env rightly
    reports (PG201): check_func_env checks them (plugins/functional/tests)."""
    by_plugin: dict[str, list[str]] = {}
    for env_id, spec in protogym.registry.items():
        if spec.plugin == "protogym-functional":
            continue
        if spec.plugin is not None and not env_id.startswith("checker/"):
            by_plugin.setdefault(spec.plugin, []).append(env_id)
    chosen: list[str] = []
    for ids in by_plugin.values():
        if len(ids) <= 2 * per_plugin:
            chosen += ids
        else:
            chosen += sorted(ids)[:: len(ids) // per_plugin][:per_plugin]
    return sorted(chosen)


@pytest.mark.parametrize("env_id", _first_party_ids())
def test_checker_registered_plugin_envs_have_no_errors_or_warnings(env_id: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            env = protogym.make(env_id)
        except protogym.error.DependencyNotInstalled as missing:
            # Ids registered only to say what to make instead (MuJoCo's mujoco-py versions,
            # Pusher-v4): nothing to check but that the refusal names the replacement.
            assert re.search(r"Make '[\w/-]+-v\d+' instead", str(missing)), str(missing)
            return
        report = check_env(env)
    assert [str(w.message) for w in caught if w.category is CheckerWarning] == []
    assert report.errors == [] and report.warnings == []
    assert {r.id for r in report.hints} <= {"PG300", "PG301", "PG302"}


def test_checker_close_twice_runs_unless_skipped() -> None:
    env = made_env("subclassed", "PG250")
    with pytest.warns(CheckerWarning, match="^PG250 close-twice: The second close\\(\\) raised "
                      "RuntimeError: already closed"):
        assert check_env(env).ids == ["PG250"]
    assert check_env(env, skip_close_check=True).results == []
