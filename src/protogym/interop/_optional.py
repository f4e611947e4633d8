"""The error an interop module raises when the library it adapts is not installed."""

from __future__ import annotations


def missing_extra(package: str, extra: str, purpose: str) -> ImportError:
    """An ImportError that says which protogym extra installs `package`."""
    return ImportError(
        f"{purpose} needs the {package!r} package, which is not installed: "
        f'pip install "protogym[{extra}]"'
    )
