"""Exceptions and warnings that protogym raises, so callers can catch them precisely.

The classes carry Gymnasium 1.x's names and sit in the same tree (everything under `Error`,
the not-found errors under `UnregisteredEnv`), so ``except gymnasium.error.X`` code ports
by changing the import. Each one also subclasses the builtin exception that fits it
(`ValueError`, `KeyError`, `ImportError`, ...), so generic handlers catch them too.
"""

from __future__ import annotations


class Error(Exception):
    """Base of every protogym error."""


# -- registration ------------------------------------------------------------------------


class RegistrationError(Error, ValueError):
    """An environment or wrapper id is malformed, missing or already taken."""


class UnregisteredEnv(RegistrationError, KeyError):  # noqa: N818 - Gymnasium's spelling
    """No environment is registered under the requested id."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class NamespaceNotFound(UnregisteredEnv):
    """The id's namespace has no environment at all."""


class NameNotFound(UnregisteredEnv):
    """No environment of the id's name exists (in its namespace), at any version."""


class VersionNotFound(UnregisteredEnv):
    """The environment exists, but not at the requested version."""


class DeprecatedEnv(RegistrationError):  # noqa: N818 - Gymnasium's spelling
    """The requested version of an environment is no longer registered."""


class UnregisteredWrapper(RegistrationError, KeyError):  # noqa: N818 - Gymnasium's spelling
    """No wrapper is registered under the requested name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UntrustedEntryPoint(RegistrationError):  # noqa: N818 - like UnregisteredEnv
    """A spec names an entry point that no registration knows, and the caller did not opt in
    with ``trust_entry_points=True``; nothing was imported."""


class DependencyNotInstalled(Error, ImportError):  # noqa: N818 - Gymnasium's spelling
    """An optional package an env or wrapper needs is missing; the message names the extra
    or the package to install."""


class DeprecatedWrapper(Error, ImportError):  # noqa: N818 - Gymnasium's spelling
    """A wrapper name that was removed was imported; the message names its replacement."""


# -- environments ------------------------------------------------------------------------


class UnsupportedMode(Error, ValueError):  # noqa: N818 - Gymnasium's spelling
    """A render mode the env does not list in ``metadata["render_modes"]`` was asked for."""


class InvalidMetadata(Error, ValueError):  # noqa: N818 - Gymnasium's spelling
    """An env's `metadata` lacks a key or holds a value protogym cannot use."""


class MissingArgument(Error, TypeError):  # noqa: N818 - Gymnasium's spelling
    """A call lacks an argument it needs (for instance a video folder or a render mode)."""


class ResetNeeded(Error, RuntimeError):  # noqa: N818 - Gymnasium's spelling
    """`step` or `render` was called before the first `reset`."""


class InvalidAction(Error, ValueError):  # noqa: N818 - Gymnasium's spelling
    """An action outside the action space was passed to `step`."""


class ClosedEnvironmentError(Error, RuntimeError):
    """An environment was used after `close()`."""


# -- spaces and wrappers -----------------------------------------------------------------


class InvalidSeed(Error, ValueError, TypeError):  # noqa: N818 - named like Gymnasium's errors
    """A seed that cannot seed a generator (negative, a float, a string, ...). Gymnasium raises
    `Error`, `TypeError` or `ValueError` for these depending on where the seed went; this is
    all three, from envs and spaces alike."""


class InvalidSampleArgument(Error, ValueError, AssertionError):  # noqa: N818
    """A `sample()` mask, probability or size that does not fit the space. Gymnasium checks
    these with ``assert``, so this is an `AssertionError` as well as a `ValueError`."""


class InvalidProbability(Error, ValueError):  # noqa: N818 - Gymnasium's spelling
    """A probability (a mask, a sticky-action probability) is outside [0, 1]."""


class InvalidBound(Error, ValueError):  # noqa: N818 - Gymnasium's spelling
    """A lower bound exceeds its upper bound, or a bound cannot be broadcast to the shape."""


class CustomSpaceError(Error, TypeError):
    """A space protogym cannot lay out in shared memory (`AsyncVectorEnv(shared_memory=True)`)
    or batch; the message says what to use instead."""


# -- vector environments -----------------------------------------------------------------


class AlreadyPendingCallError(Error, RuntimeError):
    """An async call (`reset_async`, `step_async`, `call_async`) was started while another
    one still waits for its `*_wait`; `name` is the pending call's name."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


class NoAsyncCallError(Error, RuntimeError):
    """A `*_wait` was called with no matching async call pending; `name` is the wait's call."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


# -- warnings ----------------------------------------------------------------------------


class PluginWarning(UserWarning):
    """A plugin failed to load or tried to claim an id that is already taken."""
