"""Gymnasium's passive-checker functions, each a thin entry onto protogym's checker rules.

They check what an env declares or returns, as `PassiveEnvChecker` does, and surface the
findings at the rules' passive severities: a contract error the env cannot go on from
raises `ContractError` (an `AssertionError`, or the `TypeError`/`AttributeError` Gymnasium
raises for the same problem), anything else warns `CheckerWarning` (a `UserWarning`; a
deprecated API warns `CheckerDeprecationWarning`, a `DeprecationWarning`). Messages start
with the rule id (``PG113 obs-not-in-space: ...``); `docs/checker.md` explains each rule.
"""

from __future__ import annotations

from typing import Any

from protogym.checker import passive
from protogym.checker.report import Findings

__all__ = [
    "check_action_space",
    "check_obs",
    "check_observation_space",
    "check_space",
    "data_shares_objects",
    "env_data_reuse_passive_checker",
    "env_render_passive_checker",
    "env_reset_passive_checker",
    "env_step_passive_checker",
]

def data_shares_objects(data_1: Any, data_2: Any) -> bool:
    """Whether two returned values share a mutable object (an array's memory, a dict)."""
    return passive.shares_data(data_1, data_2)


def _surface(findings: Findings) -> None:
    findings.emit(stacklevel=4)  # the warning points at the caller of the public function


def check_space(space: Any, space_type: str) -> None:
    """Check a space's structure: PG101 (not a Space: `TypeError`), PG102, PG200, PG205.

    `space_type` is ``"observation"`` or ``"action"``.
    """
    findings = Findings(f"{space_type}_space", passive=True)
    passive.check_space(space, space_type, findings)
    _surface(findings)


def check_observation_space(space: Any) -> None:
    """`check_space` for an observation space."""
    findings = Findings("observation_space", passive=True)
    passive.check_space(space, "observation", findings)
    _surface(findings)


def check_action_space(space: Any) -> None:
    """`check_space` for an action space."""
    findings = Findings("action_space", passive=True)
    passive.check_space(space, "action", findings)
    _surface(findings)


def check_obs(obs: Any, observation_space: Any, method_name: str) -> None:
    """Check an observation returned by the env's `method_name` (``"reset"``, ``"step"``):
    PG114 (a Dict/Tuple observation of the wrong shape) raises; PG201 (type) and PG113
    (not in the space) warn."""
    findings = Findings(f"{method_name}()", passive=True)
    passive.check_obs(obs, observation_space, f"{method_name}()", findings)
    _surface(findings)


def env_data_reuse_passive_checker(
    previous_data: tuple[Any, dict[str, Any]],
    data: tuple[Any, dict[str, Any]],
    previous_source: str,
    source: str,
) -> None:
    """Warn PG133 if two calls' `(obs, info)` share a mutable object; the sources name the
    calls in the message (e.g. ``"reset"`` and ``"step"``)."""
    findings = Findings(source, passive=True)
    for what, first, second in (("observations", previous_data[0], data[0]),
                                ("infos", previous_data[1], data[1])):
        if passive.shares_data(first, second):
            findings.add("PG133", f"The {what} returned by {previous_source} and the "
                                  f"following {source} share an object.")
    _surface(findings)


def env_reset_passive_checker(env: Any, **kwargs: Any) -> Any:
    """Call ``env.reset(**kwargs)`` and check it: reset's signature first (PG103 warns as a
    deprecation, PG202), then the result (PG110/PG111 and PG113 warn, PG112 raises).
    Returns what reset returned."""
    findings = Findings(type(env).__name__, passive=True)
    passive.check_reset_signature(env, findings, deprecations=False)
    _surface(findings)
    result = env.reset(**kwargs)
    findings = Findings(type(env).__name__, passive=True)
    passive.check_reset_result(result, env.observation_space, findings)
    _surface(findings)
    return result


def env_step_passive_checker(env: Any, action: Any) -> Any:
    """Call ``env.step(action)`` and check the result: not a tuple or of the wrong length
    raises (PG121); a legacy 4-tuple warns as a deprecation (PG120) and is checked on;
    flags, reward, observation and info as in `check_step_result`. The action is not
    checked (some envs take actions outside their space on purpose). Returns the result."""
    result = env.step(action)
    findings = Findings(type(env).__name__, passive=True)
    passive.check_step_result(result, env.observation_space, findings)
    _surface(findings)
    return result


def env_render_passive_checker(env: Any) -> Any:
    """Check the render metadata (PG240/PG241 warn; PG140/PG141 raise before rendering),
    then call ``env.render()`` and check the frame against the render mode (PG142/PG242
    warn). Returns the frame."""
    findings = Findings(type(env).__name__, passive=True)
    passive.check_render_metadata(env, findings)
    if findings.has_errors:
        _surface(findings)  # raises: a mode the env does not declare is not rendered
    frame = env.render()
    passive.check_render_result(env.render_mode, frame, findings)
    _surface(findings)
    return frame
