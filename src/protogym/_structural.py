"""A fast `isinstance` for protogym's runtime-checkable protocols.

`typing` checks every name in a protocol's body, one `hasattr` each, on every `isinstance`
(about 20 µs for `Space`). This metaclass answers explicit subclasses from the MRO at once,
and checks other objects against the tuple of members the protocol declares as required
(`_required_members_`), which leaves out the defaults only explicit subclasses get.
"""

from __future__ import annotations

from typing import Protocol


class StructuralProtocolMeta(type(Protocol)):  # type: ignore[misc]
    def __instancecheck__(cls, instance: object) -> bool:
        required = cls.__dict__.get("_required_members_")
        if required is None:
            return bool(super().__instancecheck__(instance))
        if cls in type(instance).__mro__:
            return True
        return all(hasattr(instance, name) for name in required)
