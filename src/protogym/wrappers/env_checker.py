"""`PassiveEnvChecker`: the conformance rules applied to the first calls of a made env.

`make` puts it directly around the env. It checks the spaces when built, then the first
`reset`, the first `step` and the first `render` with the same rules as `check_env`, at
their passive severities (see `protogym.checker.rules`): like Gymnasium's passive checker it
raises `ContractError` only where the env cannot go on (a missing space, a step that is no
tuple, an info that is no dict) and warns about the rest. Then it gets out of the way: once
a method has been checked, the instance attribute of the same name is rebound to the inner
env's bound method, so outer wrappers call the env directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsFloat

from protogym.checker import passive
from protogym.checker.report import Findings, passive_checks_muted
from protogym.core import ActType, Env, ObsType, Wrapper
from protogym.wrappers.common import _evolved_spec

if TYPE_CHECKING:
    from protogym.registration.env_spec import EnvSpec

__all__ = ["PassiveEnvChecker"]


class PassiveEnvChecker(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Checks the spaces now and the first reset, step and render; free afterwards.

    `checked_reset`, `checked_step` and `checked_render` say which calls were checked
    already, and `close_called` whether the env was closed once.
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        findings = Findings(f"{type(self).__name__}({type(env).__name__})", passive=True)
        if not passive.check_env_members(env, findings):
            findings.emit()  # nothing below can work, even inside check_env
        super().__init__(env)
        passive.check_space(env.action_space, "action", findings)
        passive.check_space(env.observation_space, "observation", findings)
        _emit(findings)
        self._target = findings.report.target
        self.checked_reset = False
        self.checked_step = False
        self.checked_render = False
        self.close_called = False
        # The first reset's (obs, info), to find data the first step shares with it.
        self._previous: tuple[str, Any, Any] | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        if self.checked_reset:  # reached only through a bound method cached before rebinding
            return self.env.reset(seed=seed, options=options)
        self.checked_reset = True
        object.__setattr__(self, "reset", self.env.reset)
        findings = Findings(self._target, passive=True)
        if passive.check_reset_signature(self.env, findings):
            result = self.env.reset(seed=seed, options=options)
        elif seed is None and options is None:
            _emit(findings)
            result = self.env.reset()  # what an old-API reset accepts
            findings = Findings(self._target, passive=True)
        else:
            _emit(findings)  # the call below will say what it does not take
            result = self.env.reset(seed=seed, options=options)
        checked = passive.check_reset_result(result, self.env.observation_space, findings)
        if not self.checked_step and checked is not None:
            self._previous = ("reset()", *checked)
        _emit(findings)
        return result

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.checked_step:  # reached only through a bound method cached before rebinding
            return self.env.step(action)
        self.checked_step = True
        object.__setattr__(self, "step", self.env.step)
        findings = Findings(self._target, passive=True)
        passive.check_action(action, self.env.action_space, findings)
        result = self.env.step(action)
        checked = passive.check_step_result(result, self.env.observation_space, findings)
        previous, self._previous = self._previous, None
        if checked is not None and previous is not None:
            source, previous_obs, previous_info = previous
            for what, first, second in (("observations", previous_obs, checked[0]),
                                        ("infos", previous_info, checked[4])):
                if passive.shares_data(first, second):
                    findings.add("PG133", f"The {what} returned by {source} and the following "
                                          "step() share an object.")
        _emit(findings)
        return result

    def render(self) -> Any:
        if self.checked_render:
            return self.env.render()
        self.checked_render = True
        object.__setattr__(self, "render", self.env.render)
        findings = Findings(self._target, passive=True)
        frame = passive.check_render(self.env, findings)
        _emit(findings)
        return frame

    @property
    def spec(self) -> EnvSpec | None:
        """The inner spec with `disable_env_checker=False` (or the spec `make` set); the
        checker is a field of the spec, not one of its `additional_wrappers`."""
        own: EnvSpec | None = self._spec  # type: ignore[attr-defined]  # Wrapper's default
        return own if own is not None else _evolved_spec(self.env, disable_env_checker=False)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        object.__setattr__(self, "_spec", value)

    def close(self) -> None:
        """Close the env; a second close that raises is reported (PG250), then re-raised."""
        if not self.close_called:
            self.close_called = True
            self.env.close()
            return
        try:
            self.env.close()
        except Exception as exc:
            findings = Findings(self._target, passive=True)
            findings.add("PG250", f"The second close() raised {type(exc).__name__}: {exc}.")
            _emit(findings)
            raise


def _emit(findings: Findings) -> None:
    # Nothing found (the usual case) has nothing to raise or warn. check_env mutes a checker
    # inside the env it checks: its own findings supersede ours.
    if findings.report.results and not passive_checks_muted():
        findings.emit(stacklevel=4)
