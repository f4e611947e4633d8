"""Exceptions and warnings that protogym raises, so callers can catch them precisely."""

from __future__ import annotations


class Error(Exception):
    """Base of every protogym error."""


class RegistrationError(Error, ValueError):
    """An environment or wrapper id is malformed, missing or already taken."""


class UnregisteredEnv(RegistrationError, KeyError):  # noqa: N818 - Gymnasium's spelling
    """No environment is registered under the requested id."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class DeprecatedEnv(RegistrationError):  # noqa: N818 - Gymnasium's spelling
    """The requested version of an environment is no longer registered."""


class UnregisteredWrapper(RegistrationError, KeyError):  # noqa: N818 - Gymnasium's spelling
    """No wrapper is registered under the requested name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UntrustedEntryPoint(RegistrationError):  # noqa: N818 - like UnregisteredEnv
    """A spec names an entry point that no registration knows, and the caller did not opt in
    with ``trust_entry_points=True``; nothing was imported."""


class ResetNeeded(Error, RuntimeError):  # noqa: N818 - Gymnasium's spelling
    """`step` or `render` was called before the first `reset`."""


class InvalidAction(Error, ValueError):  # noqa: N818 - Gymnasium's spelling
    """An action outside the action space was passed to `step`."""


class ClosedEnvironmentError(Error, RuntimeError):
    """An environment was used after `close()`."""


class PluginWarning(UserWarning):
    """A plugin failed to load or tried to claim an id that is already taken."""
