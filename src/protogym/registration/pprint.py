"""`pprint_registry`: the registered ids, grouped by namespace, with the plugin of each."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from protogym.registration.env_spec import EnvSpec


def format_registry(
    specs: Mapping[str, EnvSpec],
    *,
    num_cols: int = 3,
    exclude_namespaces: Iterable[str] = (),
) -> str:
    """The registry as text: one block per namespace, ids in columns."""
    if num_cols < 1:
        raise ValueError(f"num_cols must be at least 1, got {num_cols}")
    excluded = set(exclude_namespaces)
    groups: dict[str, list[EnvSpec]] = defaultdict(list)
    for spec in specs.values():
        namespace = spec.namespace or ""
        if namespace not in excluded:
            groups[namespace].append(spec)
    blocks = []
    for namespace in sorted(groups):
        members = sorted(groups[namespace], key=lambda s: s.id)
        plugins = sorted({s.plugin or "registered in code" for s in members})
        title = namespace or "(no namespace)"
        header = f"===== {title} ({', '.join(plugins)}) ====="
        width = max(len(s.id) for s in members) + 2
        rows = [
            "".join(s.id.ljust(width) for s in members[i : i + num_cols]).rstrip()
            for i in range(0, len(members), num_cols)
        ]
        blocks.append("\n".join([header, *rows]))
    return "\n\n".join(blocks)


def pprint_registry(
    *,
    num_cols: int = 3,
    exclude_namespaces: Iterable[str] = (),
    disable_print: bool = False,
) -> str | None:
    """Print the global registry (or return the text with ``disable_print=True``)."""
    from protogym.registration.global_registry import registry

    text = format_registry(registry, num_cols=num_cols, exclude_namespaces=exclude_namespaces)
    if disable_print:
        return text
    print(text)
    return None


def env_families(specs: Iterable[EnvSpec]) -> list[tuple[str, str | None, list[str]]]:
    """Ids grouped into families, ``(family, plugin, ids)``, sorted by plugin and family.

    A family is one name with its versions and namespaces (``Pong-v0``, ``ALE/Pong-v5``) and
    the variants that extend it with a capitalised suffix (``PongNoFrameskip-v4``,
    ``LunarLanderContinuous-v3``), among the ids of one plugin; ``Pitfall2`` is not a variant
    of ``Pitfall``. Each family's ids are sorted: plain names first, by version.
    """
    by_plugin: dict[str | None, list[EnvSpec]] = defaultdict(list)
    for spec in specs:
        by_plugin[spec.plugin].append(spec)
    families: list[tuple[str, str | None, list[str]]] = []
    for plugin, members in by_plugin.items():
        names = {spec.name for spec in members}
        grouped: dict[str, list[EnvSpec]] = defaultdict(list)
        for spec in members:
            grouped[_family_of(spec.name, names)].append(spec)
        for family, family_specs in grouped.items():
            ordered = sorted(family_specs, key=_id_order)
            families.append((family, plugin, [spec.id for spec in ordered]))
    return sorted(families, key=lambda f: (f[1] or "", f[0].lower()))


def _family_of(name: str, names: set[str]) -> str:
    """The shortest registered name that `name` extends with a capitalised suffix."""
    for end in range(1, len(name)):
        if name[end].isupper() and name[:end] in names:
            return name[:end]
    return name


def _id_order(spec: EnvSpec) -> tuple[bool, int, str, int]:
    return (spec.namespace is not None, len(spec.name), spec.id, spec.version or -1)


def compact_ids(ids: Iterable[str]) -> str:
    """Ids with the versions of one name joined: ``Pong-v0/v4, ALE/Pong-v5``."""
    versions: dict[str, list[str]] = {}
    for env_id in ids:
        stem, dash, version = env_id.rpartition("-v")
        if dash and version.isdigit():
            versions.setdefault(stem, []).append(f"v{version}")
        else:
            versions.setdefault(env_id, [])
    return ", ".join(
        f"{stem}-{'/'.join(found)}" if found else stem for stem, found in versions.items()
    )
