"""What `protogym describe` and the docs gallery say about an env, computed one way for both:
its one-paragraph summary, its constructor arguments with their defaults, its spaces on one
line, and the name of the plugin family it belongs to.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from protogym.registration import EnvSpec

__all__ = [
    "Argument",
    "arguments",
    "entry_callable",
    "family_name",
    "family_slug",
    "short_space",
    "summary",
]

# How people spell the first-party families; other plugins' names are derived from the
# distribution name by `family_name`.
_SPELLINGS = {
    "protogym-classic-control": "Classic control",
    "protogym-toy-text": "Toy text",
    "protogym-box2d": "Box2D",
    "protogym-atari": "Atari",
    "protogym-mujoco": "MuJoCo",
}
IN_CODE = "Registered in code"


def family_name(distribution: str | None) -> str:
    """The family a plugin's envs are shown under: ``protogym-box2d`` is "Box2D", a third
    party's ``acme-robot-envs`` "Acme robot envs"; ids registered in code, outside any
    plugin, are `IN_CODE`."""
    if distribution is None:
        return IN_CODE
    if distribution in _SPELLINGS:
        return _SPELLINGS[distribution]
    words = distribution.removeprefix("protogym-").replace("_", "-").split("-")
    text = " ".join(word for word in words if word)
    return text[:1].upper() + text[1:] if text else distribution


def family_slug(distribution: str | None) -> str:
    """The family's path in the docs: ``protogym-classic-control`` is ``classic-control``."""
    if distribution is None:
        return "registered-in-code"
    slug = distribution.removeprefix("protogym-").lower()
    return "".join(c if c.isalnum() else "-" for c in slug).strip("-") or "plugin"


def entry_callable(spec: EnvSpec) -> Callable[..., Any] | None:
    """What builds the env of `spec`: its entry point, imported; for a ``gymnasium:`` id,
    Gymnasium's own entry point of the id (protogym's is a generic adapter). None when the
    spec has only a vector entry point or the import fails."""
    entry = spec.entry_point
    gymnasium_id = spec.kwargs.get("gymnasium_id") if spec.id.startswith("gymnasium:") else None
    if isinstance(gymnasium_id, str):
        entry = _gymnasium_entry_point(gymnasium_id)
    if entry is None or callable(entry):
        return entry
    module_name, _, attribute = entry.partition(":")
    try:
        found: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return None
    return found if callable(found) else None


def _gymnasium_entry_point(gymnasium_id: str) -> str | Callable[..., Any] | None:
    import gymnasium

    module, _, env_id = gymnasium_id.rpartition(":")
    if module:
        importlib.import_module(module)
    entry: str | Callable[..., Any] | None = gymnasium.spec(env_id).entry_point
    return entry


def summary(obj: object) -> str:
    """The first paragraph of `obj`'s docstring, on one line; when it sends the reader to the
    module docstring, that one's first paragraph. Markdown headings are skipped and links
    kept as their text."""
    text = _first_paragraph(inspect.getdoc(obj))
    if "module docstring" in text:
        module = inspect.getmodule(obj)
        text = _first_paragraph(inspect.getdoc(module)) or text
    return text


_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")


def _first_paragraph(doc: str | None) -> str:
    lines: list[str] = []
    for line in (doc or "").splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        if not stripped:
            if lines:
                break
            continue
        lines.append(stripped)
    return _LINK.sub(r"\1", " ".join(lines))


@dataclass(frozen=True)
class Argument:
    """One constructor argument: its name, its default as source text (None: required) and
    the value an id's registration sets for it (None: not set)."""

    name: str
    default: str | None
    set_by_id: str | None


def arguments(factory: Callable[..., Any], spec: EnvSpec | None = None) -> list[Argument]:
    """The arguments `factory` takes by keyword, in order, with their defaults and what
    `spec`'s registration passes for them (``gymnasium_id`` and ``render_mode`` aside, which
    `make` handles itself)."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return []
    registered = dict(spec.kwargs) if spec is not None else {}
    found = []
    for parameter in parameters:
        if parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
            continue
        default = None if parameter.default is parameter.empty else repr(parameter.default)
        set_by_id = (
            repr(registered[parameter.name])
            if parameter.name in registered and parameter.name != "render_mode"
            else None
        )
        found.append(Argument(parameter.name, default, set_by_id))
    return found


def short_space(space: object, limit: int = 60) -> str:
    """A space on one short line: a Box by its shape and dtype (``Box(4,) float32``), others
    as they print, cut at `limit` characters."""
    from protogym.spaces import Box

    if isinstance(space, Box):
        text = f"Box{space.shape} {space.dtype}"
    else:
        text = " ".join(str(space).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
