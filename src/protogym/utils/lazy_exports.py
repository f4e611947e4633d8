"""Package attributes loaded on first access.

A package can then name its classes (in `__all__`, and under ``TYPE_CHECKING`` for type
checkers) without importing the modules that define them. protogym's plugin packages rely on
it: plugin discovery imports each plugin's package, and no env module, nor the engine behind
it (Box2D, MuJoCo), loads until one of its classes is asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    namespace: dict[str, Any], homes: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module `__getattr__` and `__dir__` of the package whose globals are `namespace`.

    `homes` maps each name to the submodule (relative to the package) that defines it. The
    first look-up of a name imports that submodule and keeps the value in `namespace`, so
    later look-ups do not come back here. Use it as
    ``__getattr__, __dir__ = lazy_exports(globals(), {"CartPoleEnv": "cartpole"})``.
    """
    package = namespace["__name__"]

    def module_getattr(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    def module_dir() -> list[str]:
        return sorted({*namespace, *homes})

    return module_getattr, module_dir
