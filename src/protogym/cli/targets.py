"""What the commands accept as an environment, in one place so that every command takes the
same forms.

A target is tried as an id first, in every form `protogym.make` takes: ``CartPole-v1``,
``ALE/Pong-v5``, ``gymnasium:CartPole-v1`` and ``gymnasium:ale_py:ALE/Pong-v5``. Only when no
id matches is a ``module:attribute`` target imported: a class or factory (called with the
command's `render_mode`, when it sets one) or an env object. So
``gymnasium:highway_env:highway-fast-v0`` is an id of Gymnasium's registry, never attribute
``highway_env:highway-fast-v0`` of module ``gymnasium``.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from protogym.registration import EnvSpec

__all__ = ["TargetError", "find_spec", "load_env", "load_object"]

_ENTRY_POINT = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


class TargetError(Exception):
    """A target that is neither a makeable id nor an importable ``module:attribute``; the
    message says what was tried and how to fix it."""


def find_spec(target: str) -> tuple[EnvSpec | None, Exception | None]:
    """The spec of `target` read as an id, or None and the error that says why it is not one
    (Gymnasium ids whose package is missing fail here, with the package named)."""
    import protogym
    from protogym.error import Error

    try:
        return protogym.spec(target), None
    except (Error, ImportError) as error:
        return None, error


def load_env(
    target: str,
    *,
    entry_points: bool = True,
    render_mode: str | None = None,
    max_episode_steps: int | None = None,
) -> Any:
    """The env that `target` names: `protogym.make` of an id, else (when `entry_points`) the
    object a ``module:attribute`` target names, built as `load_object` does and cut at
    `max_episode_steps` by a `TimeLimit` when that is given."""
    import protogym

    spec, id_error = find_spec(target)
    if spec is not None:
        try:
            return protogym.make(target, render_mode=render_mode,
                                 max_episode_steps=max_episode_steps)
        except Exception as error:  # the message of whatever `make` raised is the report
            raise TargetError(f"cannot make {target!r}: {_message(error)}") from error
    if not (entry_points and _ENTRY_POINT.match(target)):
        raise TargetError(_message(id_error))
    env = load_object(target, render_mode=render_mode, id_error=id_error)
    if max_episode_steps is not None:
        from protogym.wrappers import TimeLimit

        env = TimeLimit(env, max_episode_steps)
    return env


def load_object(
    target: str, *, render_mode: str | None = None, id_error: Exception | None = None
) -> Any:
    """The object ``module:attribute`` names; a class or a factory is called (with
    `render_mode` when it is not None), an env object is returned as it is."""
    module_name, _, attribute = target.partition(":")
    not_an_id = "" if id_error is None else f" ({target!r} is no registered id either)"
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise TargetError(f"cannot import {module_name!r}: {error}{not_an_id}") from None
    found: Any = module
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise TargetError(
                f"module {module_name!r} has no attribute {attribute!r}{not_an_id}"
            ) from None
    if isinstance(found, type) or (callable(found) and not hasattr(found, "step")):
        try:
            return found() if render_mode is None else found(render_mode=render_mode)
        except Exception as error:
            raise TargetError(f"calling {target} failed: {_message(error)}") from error
    return found


def _message(error: BaseException | None) -> str:
    """An exception as one sentence; KeyError's repr quotes are dropped."""
    if error is None:
        return "unknown error"
    if isinstance(error, KeyError) and error.args:
        return str(error.args[0])
    return str(error) or type(error).__name__
