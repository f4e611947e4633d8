"""mkdocs hook: the environment gallery, written from the registry at build time.

Every installed plugin's envs appear, third-party ones included, so an author who builds the
site locally sees their envs beside ours. Ids are gathered into envs: ids that share a name
(``Ant-v4``, ``Ant-v5``), or that run the same entry point on the same content (the same
string arguments, such as a map or a game: ``Pong-v0``, ``PongNoFrameskip-v4``,
``ALE/Pong-v5``), are one env with one page, one animation and one card.

What the hook adds, with nothing written into ``docs/``:

- ``envs/<family>/<env>.md`` with ``<env>.gif`` and ``<env>-thumb.gif`` for every env
  (pictures by ``docs_render``, in worker processes);
- ``envs/<family>.md`` for a plugin family with no page of its own in ``docs/envs/``;
- the family sections of the "Environments" navigation, after ``envs/index.md``;
- card grids where a page asks for them: ``<!-- gallery: all -->`` (every family, with a
  search box), ``<!-- gallery: SLUG -->`` (one family), and on a family page that does not
  ask, right after its first paragraph; ``<!-- gallery-tour: ID ID ... -->`` (the cards of
  the envs of those ids that are installed) and ``<!-- gallery-hero: ID ID ... -->`` (their
  animations alone, each a link to its page); ``<!-- gallery-count: ids|envs|families -->``
  is replaced by the number.
"""

from __future__ import annotations

import html
import os
import re
import sys
import warnings
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import metadata
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import docs_render  # beside this file: mkdocs imports hooks with their folder on sys.path
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

import protogym
from protogym.cli import env_info
from protogym.registration import EnvSpec

ENVS = "envs"
# First-party families in the order of the navigation; others follow alphabetically.
ORDER = ("protogym-classic-control", "protogym-toy-text", "protogym-box2d", "protogym-mujoco",
         "protogym-atari")
# A family with more envs than this gets a search box above its grid.
SEARCH_ABOVE = 12
_NOT_CONTENT = frozenset({"obs_type", "render_mode", "gymnasium_id"})
_MARKER = re.compile(r"<!-- gallery: ([\w-]+) -->")
_COUNT = re.compile(r"<!-- gallery-count: (ids|envs|families) -->")
_TOUR = re.compile(r"<!-- gallery-tour: ([^>]+?) -->")
_HERO = re.compile(r"<!-- gallery-hero: ([^>]+?) -->")


@dataclass
class Env:
    """One env of the gallery: the ids it gathers, the one its pictures show, its pictures."""

    title: str
    slug: str
    specs: list[EnvSpec]
    shown: EnvSpec
    rendered: docs_render.Rendered | None = None


@dataclass
class Family:
    """The envs of one plugin distribution (None: registered in code)."""

    plugin: str | None
    name: str
    slug: str
    envs: list[Env]

    @property
    def page(self) -> str:
        return f"{ENVS}/{self.slug}.md"

    @property
    def ids(self) -> int:
        return sum(len(env.specs) for env in self.envs)


_families: list[Family] = []


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Finds the families and adds them to the "Environments" section of the navigation."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _families[:] = families(protogym.registry.values())
    section = _environments_section(config.nav or [])
    listed = set(_nav_paths(section))
    section.extend({family.name: family.page} for family in _families
                   if family.page not in listed)
    return config


def _environments_section(nav: list[Any]) -> list[Any]:
    for item in nav:
        if isinstance(item, dict) and isinstance(item.get("Environments"), list):
            section: list[Any] = item["Environments"]
            return section
    raise ValueError("mkdocs.yml's nav needs an 'Environments' section for the gallery")


def _nav_paths(items: Iterable[Any]) -> Iterable[str]:
    for item in items:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from _nav_paths(value)


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Renders every env and adds its page and pictures, and the missing family pages."""
    shown = [env.shown.id for family in _families for env in family.envs]
    rendered = dict(zip(shown, render_all(shown), strict=True))
    for family in _families:
        if files.get_file_from_path(family.page) is None:
            files.append(File.generated(config, family.page, content=_family_page(family)))
        for env in family.envs:
            env.rendered = rendered[env.shown.id]
            base = f"{ENVS}/{family.slug}/{env.slug}"
            files.append(File.generated(config, f"{base}.md", content=_env_page(family, env)))
            if env.rendered.animation is not None and env.rendered.thumbnail is not None:
                files.append(File.generated(config, f"{base}.gif", content=env.rendered.animation))
                files.append(
                    File.generated(config, f"{base}-thumb.gif", content=env.rendered.thumbnail)
                )
    return files


def render_all(env_ids: Sequence[str]) -> list[docs_render.Rendered]:
    """`docs_render.render` of each id, in ``$PROTOGYM_DOCS_JOBS`` worker processes (default:
    up to 2); a fresh interpreter per worker, so no GL or pygame state is shared. Ids
    registered in code, which a fresh interpreter does not know, are rendered here."""
    jobs = int(os.environ.get("PROTOGYM_DOCS_JOBS") or min(2, os.cpu_count() or 1))
    in_code = {env_id for env_id in env_ids if protogym.spec(env_id).plugin is None}
    if jobs <= 1 or len(env_ids) == len(in_code):
        return [docs_render.render(env_id) for env_id in env_ids]
    # workers import docs_render by name: mkdocs put this folder on sys.path only while it
    # loaded the hook, and workers start with this process's sys.path
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.append(here)
    with ProcessPoolExecutor(jobs, mp_context=get_context("forkserver")) as pool:
        pending = {env_id: pool.submit(docs_render.render, env_id)
                   for env_id in env_ids if env_id not in in_code}
        local = {env_id: docs_render.render(env_id) for env_id in in_code}
        return [local[env_id] if env_id in local else pending[env_id].result()
                for env_id in env_ids]


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Puts the card grids and counts where the page asks for them."""
    markdown = _COUNT.sub(lambda match: _count(match[1]), markdown)
    markdown = _TOUR.sub(lambda match: _tour(match[1].split(), page), markdown)
    markdown = _HERO.sub(lambda match: _hero(match[1].split(), page), markdown)
    by_slug = {family.slug: family for family in _families}

    def grid(match: re.Match[str]) -> str:
        wanted = match[1]
        if wanted == "all":
            return _all_families(page)
        if wanted not in by_slug:
            raise ValueError(f"{page.file.src_uri}: no plugin family {wanted!r} is installed")
        return _family_grid(by_slug[wanted], page, search=True)

    if _MARKER.search(markdown):
        return _MARKER.sub(grid, markdown)
    family = next((f for f in _families if f.page == page.file.src_uri), None)
    if family is None:
        return markdown
    lead = re.search(r"^# [^\n]*\n\n(?:(?!\n\n).)+\n\n", markdown, re.S | re.M)
    at = lead.end() if lead else 0
    return markdown[:at] + _family_grid(family, page, search=True) + "\n\n" + markdown[at:]


def _count(what: str) -> str:
    if what == "ids":
        return f"{sum(family.ids for family in _families):,}"
    if what == "envs":
        return f"{sum(len(family.envs) for family in _families):,}"
    return str(len(_families))


# -- grouping -------------------------------------------------------------------------------


def families(specs: Iterable[EnvSpec]) -> list[Family]:
    """The registered envs by plugin family, families and envs in the order they are shown."""
    by_plugin: dict[str | None, list[EnvSpec]] = defaultdict(list)
    for spec in specs:
        by_plugin[spec.plugin].append(spec)
    found = [
        Family(plugin, env_info.family_name(plugin), env_info.family_slug(plugin),
               _envs(members))
        for plugin, members in by_plugin.items()
    ]
    return sorted(found, key=_family_order)


def _family_order(family: Family) -> tuple[int, str]:
    if family.plugin in ORDER:
        return ORDER.index(family.plugin), ""
    return len(ORDER) + (family.plugin is None), family.name.lower()


def _envs(specs: list[EnvSpec]) -> list[Env]:
    """Ids gathered into envs: the same name, or the same entry point and content."""
    parent = list(range(len(specs)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    first: dict[object, int] = {}
    for index, spec in enumerate(specs):
        for key in (("name", spec.name), ("content", *_content_key(spec))):
            if key in first:
                parent[root(index)] = root(first[key])
            else:
                first[key] = index
    groups: dict[int, list[EnvSpec]] = defaultdict(list)
    for index, spec in enumerate(specs):
        groups[root(index)].append(spec)
    envs = []
    for members in groups.values():
        members.sort(key=lambda spec: (spec.namespace is not None, spec.name, spec.version or 0))
        title = min({spec.name for spec in members}, key=lambda name: (len(name), name))
        envs.append(Env(title, _slug(title), members, _shown_spec(members)))
    return sorted(envs, key=lambda env: env.title.lower())


def _content_key(spec: EnvSpec) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    content = tuple(sorted(
        (key, value) for key, value in spec.kwargs.items()
        if isinstance(value, str) and key not in _NOT_CONTENT
    ))
    entry = spec.entry_point
    if entry is not None and not isinstance(entry, str):
        entry = f"{getattr(entry, '__module__', '?')}:{getattr(entry, '__qualname__', '?')}"
    return entry, content


def _shown_spec(specs: list[EnvSpec]) -> EnvSpec:
    """The id the pictures show: the newest version, then the fewest arguments."""
    return min(specs, key=lambda spec: (-(spec.version or 0), len(spec.kwargs), spec.id))


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "env"


# -- card grids -----------------------------------------------------------------------------


def _all_families(page: Page) -> str:
    envs = sum(len(family.envs) for family in _families)
    parts = ['<div class="pg-gallery" data-gallery="all" markdown>', "", _search_box(envs), ""]
    for family in _families:
        parts += [f"## {family.name} {{ #{family.slug} }}", "",
                  _family_line(family, page), "", _grid(family, page), ""]
    parts += ['<p class="pg-none" hidden>No environment matches.</p>', "", "</div>"]
    return "\n".join(parts)


def _family_grid(family: Family, page: Page, *, search: bool) -> str:
    box = _search_box(len(family.envs)) if search and len(family.envs) > SEARCH_ABOVE else ""
    return "\n".join([
        f'<div class="pg-gallery" data-gallery="{family.slug}" markdown>', "", box, "",
        _grid(family, page), "",
        '<p class="pg-none" hidden>No environment matches.</p>', "", "</div>",
    ])


def _tour(env_ids: list[str], page: Page) -> str:
    cards = [_card(family, env, page) for family, env in _envs_of(env_ids)]
    return '<div class="pg-grid pg-tour">\n' + "\n".join(cards) + "\n</div>"


def _hero(env_ids: list[str], page: Page) -> str:
    pictures = []
    for family, env in _envs_of(env_ids):
        made = env.rendered
        if made is None or made.animation is None:
            continue
        base = f"{ENVS}/{family.slug}/{env.slug}"
        pictures.append(
            f'<a href="{get_relative_url(_url(f"{base}.md"), page.url)}" title="{env.title}">'
            f'<img src="{get_relative_url(f"{base}.gif", page.url)}" '
            f'style="background:{made.edge_colour}" alt="{html.escape(_alt(env, made))}"></a>'
        )
    return '<div class="pg-hero-grid">' + "".join(pictures) + "</div>"


def _envs_of(env_ids: list[str]) -> list[tuple[Family, Env]]:
    """The installed envs that hold these ids, in the order of the ids."""
    return [
        (family, env)
        for env_id in env_ids
        for family in _families
        for env in family.envs
        if any(spec.id == env_id for spec in env.specs)
    ]


def _family_line(family: Family, page: Page) -> str:
    count = f"{len(family.envs)} {'env' if len(family.envs) == 1 else 'envs'}, {family.ids} ids"
    origin = f"the `{family.plugin}` plugin" if family.plugin else "registrations in code"
    return f"{count} from {origin}: [the {family.name} page]({_md_link(page, family.page)})."


def _md_link(page: Page, target: str) -> str:
    """A link from `page` to the docs file `target`, as markdown writes it (mkdocs checks it)."""
    here = Path(page.file.src_uri).parent
    return os.path.relpath(target, here).replace(os.sep, "/")


def _search_box(count: int) -> str:
    return (
        '<div class="pg-search"><input type="search" placeholder="Filter '
        f'{count} envs by name or id" aria-label="Filter the environments by name or id">'
        '<span class="pg-count" aria-live="polite"></span></div>'
    )


def _grid(family: Family, page: Page) -> str:
    cards = [_card(family, env, page) for env in family.envs]
    return '<div class="pg-grid">\n' + "\n".join(cards) + "\n</div>"


def _card(family: Family, env: Env, page: Page) -> str:
    made = env.rendered
    assert made is not None
    base = f"{ENVS}/{family.slug}/{env.slug}"
    href = get_relative_url(_url(f"{base}.md"), page.url)
    ids = " ".join(spec.id for spec in env.specs)
    search = " ".join([env.title, family.name, ids]).lower()
    if made.thumbnail is not None:
        width, height = _gif_size(made.thumbnail)
        picture = (
            f'<img src="{get_relative_url(f"{base}-thumb.gif", page.url)}" width="{width}" '
            f'height="{height}" loading="lazy" style="background:{made.edge_colour}" '
            f'alt="{html.escape(_alt(env, made))}">'
        )
    else:
        picture = f'<span class="pg-noimage" aria-hidden="true">{html.escape(env.title[:1])}</span>'
    more = len(env.specs) - 1
    extra = f' <span class="pg-more">+{more} {"id" if more == 1 else "ids"}</span>' if more else ""
    spaces = f"act {made.action_short} · obs {made.observation_short}"
    return (
        f'<a class="pg-card" href="{href}" data-search="{html.escape(search)}" '
        f'data-ids="{html.escape(ids)}">{picture}'
        f'<span class="pg-name">{html.escape(env.title)}</span>'
        f'<span class="pg-id"><code>{html.escape(env.shown.id)}</code>{extra}</span>'
        f'<span class="pg-spaces" title="{html.escape(spaces)}">{html.escape(spaces)}</span></a>'
    )


def _alt(env: Env, made: docs_render.Rendered) -> str:
    return f"{env.shown.id} animated: {_episodes_text(made)} under {made.policy}"


def _episodes_text(made: docs_render.Rendered) -> str:
    episodes = "one episode" if made.episodes == 1 else f"{made.episodes} episodes"
    return f"{episodes}, {made.steps} steps"


def _gif_size(data: bytes) -> tuple[int, int]:
    return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")


def _url(path: str) -> str:
    """The URL of a docs file as mkdocs writes it (directory URLs)."""
    if path.endswith("index.md"):
        return path.removesuffix("index.md")
    return path.removesuffix(".md") + "/" if path.endswith(".md") else path


# -- pages ----------------------------------------------------------------------------------


def _family_page(family: Family) -> str:
    origin = (f"the `{family.plugin}` distribution ({_version(family.plugin)})"
              if family.plugin else "registrations in code, outside any plugin")
    return "\n".join([
        f"# {family.name}", "",
        f"{len(family.envs)} environments, {family.ids} ids, from {origin}. Each card opens "
        "the env's page: what it is, its spaces, ids and arguments.", "",
        f"<!-- gallery: {family.slug} -->", "",
    ])


def _version(distribution: str) -> str:
    try:
        return f"version {metadata.version(distribution)}"
    except metadata.PackageNotFoundError:
        return "not installed as a distribution"


def _env_page(family: Family, env: Env) -> str:
    made = env.rendered
    assert made is not None
    entry = env_info.entry_callable(env.shown)
    summary = env_info.summary(entry) if entry is not None else ""
    lines = [
        f"[Environments](../index.md) &rsaquo; [{family.name}](../{family.slug}.md)",
        "{ .pg-crumbs }", "",
        f"# {env.title}", "",
    ]
    if summary:
        lines += [summary, "{ .pg-lead }", ""]
    plugin = f"`{family.plugin}` ({_version(family.plugin)})" if family.plugin else "none"
    facts = [
        "| | |", "| --- | --- |",
        f"| action space | `{_cell(made.action_space)}` |",
        f"| observation space | `{_cell(made.observation_space)}` |",
        f"| render modes | {', '.join(f'`{mode}`' for mode in made.render_modes) or 'none'} |",
        f"| ids | {', '.join(f'`{spec.id}`' for spec in env.specs)} |",
        f"| family | [{family.name}](../{family.slug}.md), plugin {plugin} |",
        f"| entry point | `{_entry_text(env.shown)}` |",
    ]
    if made.animation is not None:
        caption = (
            f"<code>{html.escape(env.shown.id)}</code> from <code>reset(seed="
            f"{docs_render.SEED})</code>: {_episodes_text(made)} under {made.policy}, drawn by "
            "the env itself" + (f", every {made.stride} steps" if made.stride > 1 else "") + "."
        )
        lines += [
            '<div class="pg-env" markdown>', "",
            '<figure class="pg-env-art" markdown>', "",
            f"![{_alt(env, made)}]({env.slug}.gif){{ .pg-animation }}", "",
            f"<figcaption>{caption}</figcaption>", "", "</figure>", "",
            '<div class="pg-facts" markdown>', "", *facts, "", "</div>", "", "</div>", "",
        ]
    else:
        lines += ["*This env has no `rgb_array` render mode, so it has no animation.*", "",
                  '<div class="pg-facts" markdown>', "", *facts, "", "</div>", ""]
    lines += [
        "## Ids", "",
        "| id | max episode steps | reward threshold | registered arguments |",
        "| --- | --- | --- | --- |",
    ]
    for spec in env.specs:
        registered = ", ".join(f"`{key}={value!r}`" for key, value in spec.kwargs.items())
        lines.append(f"| `{spec.id}` | {_or_dash(spec.max_episode_steps)} | "
                     f"{_or_dash(spec.reward_threshold)} | {_cell(registered) or '-'} |")
    arguments = env_info.arguments(entry) if entry is not None else []
    if arguments:
        lines += ["", "## Arguments", "",
                  f'`protogym.make("{env.shown.id}", **kwargs)` passes `kwargs` on to the '
                  "constructor; an id's registered arguments are its defaults. "
                  f"`protogym describe {env.shown.id}` prints the same.", "",
                  "| argument | default |", "| --- | --- |"]
        lines += [f"| `{a.name}` | {'required' if a.default is None else f'`{_cell(a.default)}`'} |"
                  for a in arguments]
    lines += [
        "", "## Try it", "",
        "```python", "import protogym", "",
        f'env = protogym.make("{env.shown.id}"'
        + (', render_mode="rgb_array")' if made.animation is not None else ")"),
        "obs, info = env.reset(seed=0)",
        "obs, reward, terminated, truncated, info = env.step(env.action_space.sample())",
        "env.close()", "```", "",
        "```console", f"$ protogym describe {env.shown.id}",
        f"$ protogym run {env.shown.id} --episodes 3 --seed 0", "```", "",
    ]
    return "\n".join(lines)


def _entry_text(spec: EnvSpec) -> str:
    entry, _ = _content_key(spec)
    return entry or "-"


def _cell(text: str) -> str:
    """Text for a markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _or_dash(value: object) -> str:
    return "-" if value is None else str(value)
