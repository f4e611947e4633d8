"""The protogym mypy plugin: enable it with ``plugins = protogym.mypy`` in mypy's config."""

from __future__ import annotations

from protogym.mypy.plugin import plugin

__all__ = ["plugin"]
