"""A fast `isinstance` for protogym's runtime-checkable protocols that only ever returns a bool.

`typing` checks every name in a protocol's body with `hasattr` on every `isinstance`. That is
slow (about 20 µs for `Space`), and it runs the object's code: a property or `__getattr__`
that raises (Gymnasium's `Space.is_np_flattenable` on a custom space) escapes `isinstance`.

This metaclass answers explicit subclasses from the MRO at once. Other objects are checked
against the members the protocol declares as required (`_required_members_`, which leaves
out the defaults only explicit subclasses get), each looked up statically, as Python 3.12's
`typing` does: in the class dictionaries along the MRO, then in the instance's own
attributes. No property, descriptor, `__getattr__` or `__getattribute__` of the object runs,
so members that only `__getattr__` would produce do not count.
"""

from __future__ import annotations

from typing import Any, Protocol


class StructuralProtocolMeta(type(Protocol)):  # type: ignore[misc]
    def __instancecheck__(cls, instance: object) -> bool:
        required = cls.__dict__.get("_required_members_")
        if required is None:
            return bool(super().__instancecheck__(instance))
        mro = type(instance).__mro__
        if cls in mro:
            return True
        return has_members_statically(instance, mro, required)


_get_own_attribute = object.__getattribute__

# The class dictionaries along each MRO seen, keyed by the MRO tuple. They are live views, so
# members added to or removed from a class later are seen, and a class whose bases change
# gets a new MRO tuple. Bounded, for programs that make classes on the fly.
_NAMESPACES: dict[tuple[type, ...], tuple[Any, ...]] = {}
_MAX_CACHED_MROS = 1024


def has_members_statically(
    instance: object, mro: tuple[type, ...], names: tuple[str, ...]
) -> bool:
    """Whether each of `names` is in a class dictionary along `mro` (the instance's type's)
    or among `instance`'s own attributes, without running any code of the object."""
    namespaces = _NAMESPACES.get(mro)
    if namespaces is None:
        if len(_NAMESPACES) >= _MAX_CACHED_MROS:
            _NAMESPACES.clear()
        namespaces = _NAMESPACES[mro] = tuple(klass.__dict__ for klass in mro)
    plain: bool | None = None
    for name in names:
        for namespace in namespaces:
            if name in namespace:
                break
        else:
            # No class has it, so no descriptor is involved: only the instance's own
            # attributes can hold it. Where no class customises `__getattr__` or
            # `__getattribute__`, `hasattr` reads exactly those (quickly, raising nothing on
            # a miss); otherwise `object`'s generic look-up does, skipping them. Neither
            # reads `__dict__`, which would slow the object's attribute reads on CPython 3.11.
            if plain is None:
                # `object`, last in every MRO, holds the plain `__getattribute__`.
                plain = _plain_lookup(namespaces[:-1])
            if plain:
                if not hasattr(instance, name):
                    return False
            else:
                try:
                    _get_own_attribute(instance, name)
                except Exception:  # absent, or unreadable: not a member either way
                    return False
    return True


def _plain_lookup(namespaces: tuple[Any, ...]) -> bool:
    """Whether looking an attribute up on instances of these classes runs none of their code."""
    for namespace in namespaces:
        if "__getattr__" in namespace or "__getattribute__" in namespace:
            return False
    return True
