"""The errors an interop module raises when the library it adapts is missing or too old."""

from __future__ import annotations

import re
from types import ModuleType

GYMNASIUM_NEEDED = (1, 1)
"""The oldest Gymnasium the interop runs on: 1.1 added `gymnasium.vector.AutoresetMode` and
the 1.x vector API; protogym's `gymnasium` extra installs the release it is tested with."""


def missing_extra(package: str, extra: str, purpose: str) -> ImportError:
    """An ImportError that says which protogym extra installs `package`."""
    return ImportError(
        f"{purpose} needs the {package!r} package, which is not installed: "
        f'pip install "protogym[{extra}]"'
    )


def check_gymnasium_version(gymnasium: ModuleType, purpose: str) -> None:
    """Raise an ImportError naming the found and the needed version if the installed
    Gymnasium predates `GYMNASIUM_NEEDED` (CleanRL's pin, 0.29, is the usual case)."""
    found = str(getattr(gymnasium, "__version__", "unknown"))
    match = re.match(r"(\d+)\.(\d+)", found)
    if match is not None and (int(match[1]), int(match[2])) >= GYMNASIUM_NEEDED:
        return
    needed = ".".join(map(str, GYMNASIUM_NEEDED))
    raise ImportError(
        f"{purpose} needs gymnasium {needed} or newer, but gymnasium {found} is installed "
        f"(at {getattr(gymnasium, '__file__', '?')}). Upgrade it: "
        f'pip install "protogym[gymnasium]" (or "gymnasium>={needed}"). Scripts written '
        "for Gymnasium 0.29, such as CleanRL's, need small changes for 1.x: see "
        "docs/interop/cleanrl.md"
    )
