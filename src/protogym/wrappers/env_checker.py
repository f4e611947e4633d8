"""`PassiveEnvChecker`: the conformance rules applied to the first calls of a made env.

`make` puts it directly around the env. It checks the spaces when built, then the first
`reset`, the first `step` and the first `render` with the same rules as `check_env`
(contract errors raise `ContractError`, best-practice problems warn `CheckerWarning`), and
then gets out of the way: once a method has been checked, the instance attribute of the same
name is rebound to the inner env's bound method, so outer wrappers call the env directly.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

from protogym.checker import passive
from protogym.checker.report import Findings, passive_checks_muted
from protogym.core import ActType, Env, ObsType, Wrapper

__all__ = ["PassiveEnvChecker"]


class PassiveEnvChecker(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Checks the spaces now and the first reset, step and render; free afterwards."""

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        findings = Findings(f"{type(self).__name__}({type(env).__name__})")
        if not passive.check_env_members(env, findings):
            findings.emit()  # nothing below can work, even inside check_env
        super().__init__(env)
        passive.check_space(env.action_space, "action", findings)
        passive.check_space(env.observation_space, "observation", findings)
        _emit(findings)
        self._target = findings.report.target
        self._checked_reset = False
        self._checked_step = False
        self._checked_render = False
        self._closed = False
        self._reset_data: tuple[Any, dict[str, Any]] | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        if self._checked_reset:  # reached only through a bound method cached before rebinding
            return self.env.reset(seed=seed, options=options)
        self._checked_reset = True
        object.__setattr__(self, "reset", self.env.reset)
        findings = Findings(self._target)
        if passive.check_reset_signature(self.env, findings):
            result = self.env.reset(seed=seed, options=options)
        elif seed is None and options is None:
            result = self.env.reset()  # what an old-API reset accepts; says if it is one
        else:
            _emit(findings)  # reset(seed=..., options=...) would only raise TypeError
            result = self.env.reset(seed=seed, options=options)
        checked = passive.check_reset_result(result, self.env.observation_space, findings)
        if not self._checked_step:
            self._reset_data = checked
        _emit(findings)
        return result

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._checked_step:  # reached only through a bound method cached before rebinding
            return self.env.step(action)
        self._checked_step = True
        object.__setattr__(self, "step", self.env.step)
        findings = Findings(self._target)
        passive.check_action(action, self.env.action_space, findings)
        result = self.env.step(action)
        checked = passive.check_step_result(result, self.env.observation_space, findings)
        previous, self._reset_data = self._reset_data, None
        if checked is not None and previous is not None:
            for what, first, second in (("observations", previous[0], checked[0]),
                                        ("infos", previous[1], checked[4])):
                if passive.shares_data(first, second):
                    findings.add("PG133", f"The {what} returned by reset() and the following "
                                          "step() share an object.")
        _emit(findings)
        return result

    def render(self) -> Any:
        if self._checked_render:
            return self.env.render()
        self._checked_render = True
        object.__setattr__(self, "render", self.env.render)
        findings = Findings(self._target)
        frame = passive.check_render(self.env, findings)
        _emit(findings)
        return frame

    def close(self) -> None:
        """Close the env; a second close that raises is reported (PG250), then re-raised."""
        if not self._closed:
            self._closed = True
            self.env.close()
            return
        try:
            self.env.close()
        except Exception as exc:
            findings = Findings(self._target)
            findings.add("PG250", f"The second close() raised {type(exc).__name__}: {exc}.")
            _emit(findings)
            raise


def _emit(findings: Findings) -> None:
    # check_env mutes a checker inside the env it checks: its own findings supersede ours.
    if not passive_checks_muted():
        findings.emit(stacklevel=4)

