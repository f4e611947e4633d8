"""Argument checks shared by the functional envs: each says what was wrong and how to fix it."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["make_params", "no_render_options"]

P = TypeVar("P")


def make_params(cls: Callable[..., P], overrides: Mapping[str, Any]) -> P:
    """`cls` (an env's params NamedTuple) with `overrides` replacing its defaults; an
    unknown name is a TypeError that lists the known ones."""
    fields = list(inspect.signature(cls).parameters)
    unknown = sorted(set(overrides) - set(fields))
    if unknown:
        name = getattr(cls, "__name__", "params")
        raise TypeError(
            f"{name} has no parameter(s) {unknown}; its parameters are {', '.join(fields)}"
        )
    return cls(**overrides)


def no_render_options(owner: str, options: Mapping[str, Any]) -> None:
    """Reject `render_init` keywords that the env does not take."""
    if options:
        raise TypeError(
            f"{owner}.render_init got unknown option(s) {sorted(options)}; it takes only "
            "the keywords in its signature"
        )
