"""mkdocs hook that writes the environment gallery from the registry at build time.

Every installed plugin's ids appear, third-party ones included, so an author who builds the
site locally sees their env next to ours. Ids that run the same env class on the same content
(the same string arguments, such as a map or a game; `obs_type` aside) share one page and one
animation, rendered by the env itself under a fixed seed: hundreds of Atari ids stay a hundred
pages, not a thousand. Pages go under `envs/gallery/`; nothing is written into `docs/`.
"""

from __future__ import annotations

import inspect
import io
import re
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from importlib import metadata
from typing import Any

import numpy as np
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

import protogym
from protogym.registration import EnvSpec

GALLERY = "envs/gallery"
SEED = 7
MAX_STEPS = 300
MAX_SIDE = 320
# String arguments that change what an agent sees but not which env it is.
_NOT_CONTENT = frozenset({"obs_type", "render_mode"})


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Adds the gallery pages and animations to the site's files."""
    with warnings.catch_warnings():
        # old versions warn that a newer one exists; their pages say so themselves
        warnings.simplefilter("ignore", DeprecationWarning)
        pages = gallery_files(protogym.registry.values())
    for path, content in pages.items():
        files.append(File.generated(config, path, content=content))
    return files


def gallery_files(specs: Iterable[EnvSpec]) -> dict[str, str | bytes]:
    """Every gallery page and image, by path under the docs folder."""
    families: dict[str, dict[_GroupKey, list[EnvSpec]]] = defaultdict(lambda: defaultdict(list))
    for spec in specs:
        families[spec.plugin or "registered in code"][_group_key(spec)].append(spec)
    out: dict[str, str | bytes] = {}
    index = ["# Environment gallery", "", _INTRO, ""]
    for family in sorted(families):
        family_slug = _slug(family)
        index.append(f"- [{family}]({family_slug}/index.md)")
        cards = [f"# {family}", "", _family_line(family), "", *_TABLE_HEAD]
        for specs_of_group in sorted(families[family].values(), key=lambda g: _title(g)):
            shown = _shown_spec(specs_of_group)
            title = _title(specs_of_group)
            page = f"{family_slug}/{_slug(title)}"
            image = _animation(shown)
            picture = ""
            if image is not None:
                out[f"{GALLERY}/{page}.gif"] = image
                picture = f"![{shown.id}]({_slug(title)}.gif)"
            out[f"{GALLERY}/{page}.md"] = _group_page(title, family, shown, specs_of_group, picture)
            thumb = f"![{shown.id}]({_slug(title)}.gif){{ width=160 }}" if image else ""
            ids = ", ".join(f"`{spec.id}`" for spec in _by_id(specs_of_group))
            cards.append(f"| {thumb} | [**{title}**]({_slug(title)}.md) | {ids} |")
        out[f"{GALLERY}/{family_slug}/index.md"] = "\n".join(cards) + "\n"
    out[f"{GALLERY}/index.md"] = "\n".join(index) + "\n"
    return out


_TABLE_HEAD = ("| | env | ids |", "| --- | --- | --- |")
_INTRO = (
    "Every environment registered in this installation, grouped by the plugin that provides "
    "it. Each animation is an episode rendered by the env itself with `reset(seed=7)`, under "
    "the plugin's named policy where it has one (see `protogym run --policy`), else random "
    "actions from a seeded action space. The pages are written by the site build from the "
    "registry, so a third-party plugin installed beside protogym shows up here too."
)


_GroupKey = tuple[str, str | None, tuple[tuple[str, str], ...]]


def _group_key(spec: EnvSpec) -> _GroupKey:
    content = tuple(
        sorted(
            (key, value)
            for key, value in spec.kwargs.items()
            if isinstance(value, str) and key not in _NOT_CONTENT
        )
    )
    return (spec.plugin or "", _entry_point_text(spec), content)


def _entry_point_text(spec: EnvSpec) -> str | None:
    entry = spec.entry_point
    if entry is None or isinstance(entry, str):
        return entry
    return f"{getattr(entry, '__module__', '?')}:{getattr(entry, '__qualname__', '?')}"


def _by_id(specs: list[EnvSpec]) -> list[EnvSpec]:
    return sorted(specs, key=lambda spec: spec.id)


def _shown_spec(specs: list[EnvSpec]) -> EnvSpec:
    """The id the animation shows: the newest version, then the fewest arguments."""
    return min(specs, key=lambda spec: (-(spec.version or 0), len(spec.kwargs), spec.id))


def _title(specs: list[EnvSpec]) -> str:
    names = sorted({spec.name for spec in specs}, key=lambda name: (len(name), name))
    return names[0]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "env"


def _family_line(family: str) -> str:
    try:
        version = metadata.version(family)
    except metadata.PackageNotFoundError:
        return "Environments registered in code, outside any plugin distribution."
    return f"Provided by the distribution `{family}` {version}."


def _group_page(
    title: str, family: str, shown: EnvSpec, specs: list[EnvSpec], picture: str
) -> str:
    entry = _entry_point_text(shown)
    lines = [f"# {title}", "", f"Plugin: `{family}`. Entry point: `{entry}`.", ""]
    if picture:
        lines += [picture, "", f"*`{shown.id}`, `reset(seed={SEED})`, {_policy_text(shown)}.*", ""]
    else:
        lines += ["*This env has no `rgb_array` render mode, so it has no animation.*", ""]
    lines += _spaces_lines(shown)
    lines += [
        "## Ids",
        "",
        "| id | max episode steps | reward threshold | arguments | vector entry point |",
        "| --- | --- | --- | --- | --- |",
    ]
    for spec in _by_id(specs):
        arguments = ", ".join(f"`{key}={value!r}`" for key, value in sorted(spec.kwargs.items()))
        lines.append(
            f"| `{spec.id}` | {_or_dash(spec.max_episode_steps)} | "
            f"{_or_dash(spec.reward_threshold)} | {arguments or '-'} | "
            f"{'yes' if spec.vector_entry_point else '-'} |"
        )
    lines += ["", *_parameters_lines(shown), ""]
    lines += ["```python", "import protogym", "", f'env = protogym.make("{shown.id}")', "```", ""]
    return "\n".join(lines)


def _or_dash(value: object) -> str:
    return "-" if value is None else str(value)


def _spaces_lines(spec: EnvSpec) -> list[str]:
    env = protogym.make(spec.id)
    try:
        return [
            "## Spaces",
            "",
            f"- observation space: `{env.observation_space}`",
            f"- action space: `{env.action_space}`",
            f"- render modes: {', '.join(f'`{m}`' for m in env.metadata.get('render_modes', ()))}",
            "",
        ]
    finally:
        env.close()


def _parameters_lines(spec: EnvSpec) -> list[str]:
    """The entry point's keyword arguments with their defaults, which `make` passes through."""
    factory = _resolved_entry_point(spec)
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return []
    rows = [
        f"| `{p.name}` | `{p.default!r}` |"
        for p in parameters
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is not p.empty
    ]
    if not rows:
        return []
    return ["## Arguments and defaults", "", "| argument | default |", "| --- | --- |", *rows]


def _resolved_entry_point(spec: EnvSpec) -> Callable[..., Any]:
    entry = spec.entry_point
    if not isinstance(entry, str):
        assert entry is not None
        return entry
    module_name, _, attribute = entry.partition(":")
    module = __import__(module_name, fromlist=[attribute])
    result: Callable[..., Any] = getattr(module, attribute)
    return result


def _policy_text(spec: EnvSpec) -> str:
    return "the plugin's `heuristic` policy" if _named_policy(spec) else "random actions"


def _named_policy(spec: EnvSpec) -> Callable[[Any], Any] | None:
    """The plugin's "heuristic" policy for this id, when it names one (see `--policy`)."""
    if "heuristic" not in protogym.registry.policies(spec.id):
        return None
    return protogym.registry.policy(spec.id, "heuristic")


def _animation(spec: EnvSpec) -> bytes | None:
    """One seeded episode (at most MAX_STEPS steps) as an animated GIF, or None."""
    import imageio.v3 as iio

    render_modes = _render_modes(spec)
    if "rgb_array" not in render_modes:
        return None
    env = protogym.make(spec.id, render_mode="rgb_array")
    try:
        frames = list(_episode_frames(env, _named_policy(spec)))
        fps = min(int(env.metadata.get("render_fps") or 30), 30)
    finally:
        env.close()
    buffer = io.BytesIO()
    iio.imwrite(buffer, np.stack(frames), extension=".gif", duration=1000 / fps, loop=0)
    return buffer.getvalue()


def _render_modes(spec: EnvSpec) -> tuple[str, ...]:
    metadata_ = getattr(_resolved_entry_point(spec), "metadata", None)
    if isinstance(metadata_, Mapping):
        return tuple(metadata_.get("render_modes", ()))
    return ()


def _episode_frames(env: Any, policy: Callable[[Any], Any] | None) -> Iterable[np.ndarray]:
    obs, _ = env.reset(seed=SEED)
    env.action_space.seed(SEED)
    yield _small(env.render())
    for _ in range(MAX_STEPS):
        action = policy(obs) if policy is not None else env.action_space.sample()
        obs, _, terminated, truncated, _ = env.step(action)
        yield _small(env.render())
        if terminated or truncated:
            return


def _small(frame: Any) -> np.ndarray:
    array = np.asarray(frame, dtype=np.uint8)
    stride = max(1, -(-max(array.shape[:2]) // MAX_SIDE))
    return array[::stride, ::stride]


def main(argv: list[str]) -> None:
    """``python scripts/docs_gallery.py ID OUT.gif``: one gallery animation, e.g. for the
    README (the site build writes all of them itself)."""
    if len(argv) != 2:
        raise SystemExit("usage: python scripts/docs_gallery.py ENV_ID OUT.gif")
    env_id, out = argv
    image = _animation(protogym.spec(env_id))
    if image is None:
        raise SystemExit(f"{env_id} has no rgb_array render mode to animate")
    with open(out, "wb") as file:
        file.write(image)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
