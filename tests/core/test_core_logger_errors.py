"""`protogym.logger` and the `error` tree under Gymnasium's names."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy as np
import pytest

import protogym
from protogym import error, logger


@pytest.fixture(autouse=True)
def _restore_level() -> Iterator[None]:
    level = logger.min_level
    yield
    logger.set_level(level)


def _messages(action: object) -> list[tuple[type[Warning], str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert callable(action)
        action()
    return [(w.category, str(w.message)) for w in caught]


def test_warn_formats_its_arguments_and_honours_the_level() -> None:
    assert _messages(lambda: logger.warn("speed %d is %s", 3, "high")) == [
        (UserWarning, "WARN: speed 3 is high")
    ]
    logger.set_level(logger.ERROR)
    assert _messages(lambda: logger.warn("dropped")) == []
    assert _messages(lambda: logger.error("kept %s", "x")) == [(UserWarning, "ERROR: kept x")]
    logger.set_level(logger.DISABLED)
    assert _messages(lambda: logger.error("dropped")) == []


def test_min_level_assigned_directly_is_read_at_each_call() -> None:
    logger.min_level = 40
    assert _messages(lambda: logger.deprecation("old")) == []
    logger.min_level = logger.WARN
    assert _messages(lambda: logger.deprecation("old")) == [(DeprecationWarning, "WARN: old")]


def test_a_percent_sign_without_arguments_is_kept() -> None:
    assert _messages(lambda: logger.warn("50% done")) == [(UserWarning, "WARN: 50% done")]


def test_set_level_rejects_what_is_not_a_level() -> None:
    with pytest.raises(TypeError, match=r"logger\.ERROR \(40\)"):
        logger.set_level("error")  # type: ignore[arg-type]


def test_logger_is_reachable_from_the_package() -> None:
    assert protogym.logger is logger


@pytest.mark.parametrize(
    ("cls", "bases"),
    [
        (error.NamespaceNotFound, (error.UnregisteredEnv, KeyError)),
        (error.NameNotFound, (error.UnregisteredEnv,)),
        (error.VersionNotFound, (error.UnregisteredEnv, ValueError)),
        (error.DependencyNotInstalled, (ImportError,)),
        (error.DeprecatedWrapper, (ImportError,)),
        (error.UnsupportedMode, (ValueError,)),
        (error.InvalidMetadata, (ValueError,)),
        (error.MissingArgument, (TypeError,)),
        (error.InvalidProbability, (ValueError,)),
        (error.InvalidBound, (ValueError,)),
        (error.InvalidSeed, (ValueError, TypeError)),
        (error.InvalidSampleArgument, (ValueError, AssertionError)),
        (error.CustomSpaceError, (TypeError,)),
        (error.AlreadyPendingCallError, (RuntimeError,)),
        (error.NoAsyncCallError, (RuntimeError,)),
        (error.ClosedEnvironmentError, (RuntimeError,)),
    ],
)
def test_every_error_is_an_error_and_its_builtin(
    cls: type[Exception], bases: tuple[type[Exception], ...]
) -> None:
    assert issubclass(cls, error.Error)
    for base in bases:
        assert issubclass(cls, base)


def test_pending_call_errors_carry_the_call_name() -> None:
    pending = error.AlreadyPendingCallError("step_async is still waiting", "step")
    missing = error.NoAsyncCallError("no reset_async to wait for", "reset")
    assert (pending.name, str(pending)) == ("step", "step_async is still waiting")
    assert (missing.name, str(missing)) == ("reset", "no reset_async to wait for")


def test_seed_and_sample_errors_are_the_ones_spaces_and_seeding_raise() -> None:
    from protogym.spaces import Discrete
    from protogym.utils import seeding

    with pytest.raises(error.InvalidSeed):
        seeding.np_random(-1)
    with pytest.raises(error.InvalidSeed):
        Discrete(3).seed("7")
    with pytest.raises(error.InvalidSampleArgument):
        Discrete(3).sample(mask=np.array([1, 0], dtype=np.int8))
