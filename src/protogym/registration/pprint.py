"""`pprint_registry`: the registered ids by group (namespace, plugin or package), and the
families `protogym list` shows."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from protogym.registration.env_spec import EnvSpec


def format_registry(
    specs: Mapping[str, EnvSpec],
    *,
    num_cols: int = 3,
    exclude_namespaces: Iterable[str] | None = None,
) -> str:
    """The registry as text: a ``===== group =====`` line per group, then its ids in rows of
    `num_cols`, in Gymnasium's layout. See `registry_group` for what the groups are."""
    if isinstance(num_cols, bool) or not isinstance(num_cols, int) or num_cols < 1:
        raise ValueError(f"num_cols must be a positive int, got {num_cols!r}")
    excluded = set(exclude_namespaces or ())
    groups: dict[str, list[str]] = defaultdict(list)
    for spec in specs.values():
        group = registry_group(spec)
        if group not in excluded:
            groups[group].append(spec.id)
    blocks = []
    for group, ids in groups.items():
        ids.sort()
        width = max(len(env_id) for env_id in ids)
        rows = [
            " ".join(env_id.ljust(width) for env_id in ids[i : i + num_cols]).rstrip()
            for i in range(0, len(ids), num_cols)
        ]
        blocks.append("\n".join([f"===== {group} =====", *rows]))
    return "\n".join(blocks)


def registry_group(spec: EnvSpec) -> str:
    """The group `pprint_registry` lists an id under: its namespace; else the plugin that
    registered it; else, as Gymnasium does, a part of its entry point's module path (the
    third of ``gymnasium.envs.classic_control.cartpole``, the second of a two-part path) or
    its name, and ``None`` for a callable entry point."""
    if spec.namespace is not None:
        return spec.namespace
    if spec.plugin is not None:
        return spec.plugin
    if not isinstance(spec.entry_point, str):
        return "None"
    parts = spec.entry_point.partition(":")[0].split(".")
    if len(parts) >= 3:
        return parts[2]
    return parts[1] if len(parts) == 2 else spec.name


def pprint_registry(
    print_registry: Mapping[str, EnvSpec] | None = None,
    *,
    num_cols: int = 3,
    exclude_namespaces: Iterable[str] | None = None,
    disable_print: bool = False,
) -> str | None:
    """Print a registry's ids by group (the global registry by default), or return the
    text with ``disable_print=True``; `exclude_namespaces` leaves groups out."""
    if print_registry is None:
        from protogym.registration.global_registry import registry

        print_registry = registry
    text = format_registry(
        print_registry, num_cols=num_cols, exclude_namespaces=exclude_namespaces
    )
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
