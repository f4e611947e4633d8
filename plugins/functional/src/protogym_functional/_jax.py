"""The one place that says what to install when jax is missing."""

from __future__ import annotations

import importlib.util

__all__ = ["require_jax"]


def require_jax() -> None:
    """Raise a clear ImportError if jax is not installed (the env modules are jax code)."""
    if importlib.util.find_spec("jax") is None:
        raise ImportError(
            "the functional envs are written in jax, which is not installed: run "
            '`pip install "protogym-functional[jax]"` (or `pip install "protogym[jax]"`)'
        )
