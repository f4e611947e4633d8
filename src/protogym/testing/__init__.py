"""The conformance suite for environment packages, usable from their own tests.

Check every id a distribution registers, one test per id and check::

    from protogym.testing import conformance_tests

    test_conformance = conformance_tests("acme-envs")

or one env class, the way dm_env's test mixin works::

    from protogym.testing import EnvConformance

    class TestCorridor(EnvConformance):
        env_id = "acme/Corridor-v0"          # or override make_env()

or call `check_conformance(env_id)` anywhere. Functional envs are checked with
`check_func_env` too (the ``func-env`` check): an id whose env adapts a `FuncEnv` through
the suite above, and a bare `FuncEnv` through `FuncEnvConformance` (override
`make_func_env`). A failure names the checker's rule id and the env
(``[PG113 obs-not-in-space] acme/Corridor-v0: ...``). The pytest plugin that protogym
installs (entry point group ``pytest11``) adds ``--protogym-max-steps`` to size the rollouts.
`protogym.testing.strategies` has hypothesis strategies for spaces.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import protogym
from protogym.testing.conformance import CHECKS, ConformanceError, Subject, run_check

__all__ = [
    "CHECKS",
    "ConformanceError",
    "EnvConformance",
    "FuncEnvConformance",
    "check_conformance",
    "conformance_tests",
    "ids_of",
]

DEFAULT_MAX_STEPS = 200


def ids_of(distribution: str) -> list[str]:
    """The ids that the plugins of `distribution` registered, sorted."""
    ids = sorted(spec.id for spec in protogym.registry.values() if spec.plugin == distribution)
    if not ids:
        providers = sorted({spec.plugin for spec in protogym.registry.values() if spec.plugin})
        raise ValueError(
            f"no installed plugin of the distribution {distribution!r} registers an env; "
            f"distributions with env plugins: {providers}"
        )
    return ids


def check_conformance(
    env_id: str, checks: Iterable[str] = CHECKS, max_steps: int = DEFAULT_MAX_STEPS
) -> None:
    """Run `checks` on the registered `env_id`; raises `ConformanceError` on the first failure."""
    subject = Subject.of_id(env_id, max_steps)
    for name in checks:
        run_check(name, subject)


def conformance_tests(
    distribution: str | None = None,
    *,
    ids: Iterable[str] | None = None,
    checks: Iterable[str] = CHECKS,
) -> Callable[..., None]:
    """A pytest test parametrized over every (id, check): the ids of `distribution`, or `ids`.

    Assign it to a ``test_*`` name in a test module.
    """
    import pytest

    if (distribution is None) == (ids is None):
        raise ValueError("conformance_tests needs a distribution name or a list of ids (one)")
    chosen = ids_of(distribution) if distribution is not None else list(ids or ())
    names = list(checks)
    for name in names:
        if name not in CHECKS:
            raise ValueError(f"unknown conformance check {name!r}; the checks are {list(CHECKS)}")

    @pytest.mark.parametrize("check", names)
    @pytest.mark.parametrize("env_id", chosen)
    def test_conformance(env_id: str, check: str, request: pytest.FixtureRequest) -> None:
        steps = request.config.getoption("protogym_max_steps", DEFAULT_MAX_STEPS)
        run_check(check, Subject.of_id(env_id, steps))

    return test_conformance


class EnvConformance:
    """Base class of a test class for one env: each check is a test method.

    Set `env_id` (a registered id) or override `make_env`; the checks that need the registry
    (legacy path, vector entry point, spec JSON) run only with an `env_id`.
    """

    env_id: ClassVar[str | None] = None
    max_steps: ClassVar[int] = DEFAULT_MAX_STEPS

    def make_env(self, **kwargs: Any) -> Any:
        if self.env_id is None:
            raise NotImplementedError(f"{type(self).__name__} needs env_id or make_env()")
        return Subject.of_id(self.env_id).env(**kwargs)

    def _subject(self) -> Subject:
        label = self.env_id or type(self).__name__
        return Subject(label, self.make_env, self.env_id, self.max_steps)

    def test_contract(self) -> None:
        run_check("contract", self._subject())

    def test_rollout(self) -> None:
        run_check("rollout", self._subject())

    def test_reproducible(self) -> None:
        run_check("reproducible", self._subject())

    def test_render_modes(self) -> None:
        run_check("render-modes", self._subject())

    def test_close_twice(self) -> None:
        run_check("close-twice", self._subject())

    def test_legacy_path(self) -> None:
        run_check("legacy-path", self._subject())

    def test_pickle(self) -> None:
        run_check("pickle", self._subject())

    def test_vector_entry_point(self) -> None:
        run_check("vector-entry-point", self._subject())

    def test_spec_json(self) -> None:
        run_check("spec-json", self._subject())

    def test_func_env(self) -> None:
        run_check("func-env", self._subject())


class FuncEnvConformance:
    """Base class of a test class for one `FuncEnv`: override `make_func_env`, and
    `check_func_env` runs on what it returns (errors and warnings fail, hints do not)."""

    max_steps: ClassVar[int] = DEFAULT_MAX_STEPS

    def make_func_env(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__} needs make_func_env()")

    def test_func_env(self) -> None:
        subject = Subject.of_func_env(type(self).__name__, self.make_func_env, self.max_steps)
        run_check("func-env", subject)
