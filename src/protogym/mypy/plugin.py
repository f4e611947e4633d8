"""Entry point of the mypy plugin: routes mypy's hooks to the modules that implement them."""

from __future__ import annotations

from collections.abc import Callable

from mypy.plugin import ClassDefContext, Plugin

from protogym.mypy.env_defaults import ENV_FULLNAME, add_env_defaults


class ProtogymPlugin(Plugin):
    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        if fullname == ENV_FULLNAME:
            return add_env_defaults
        return None


def plugin(version: str) -> type[Plugin]:
    return ProtogymPlugin
