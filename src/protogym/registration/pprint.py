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
