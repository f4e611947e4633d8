"""What an env class is to mypy: its ObsType and ActType, and where it breaks the contract.

An explicit subclass of `Env` carries its types in its base (`Env[O, A]`), and mypy has
already checked its members against the protocol. A structural class carries them in its
annotations: ActType is `step`'s action parameter, ObsType the first item of what `reset`
returns (or of what `step` returns). Its members are checked here, one by one, so that a
mismatch names the member instead of just saying "incompatible type".
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy.expandtype import expand_type
from mypy.maptype import map_instance_to_supertype
from mypy.messages import (
    format_type,
    get_conflict_protocol_types,
    get_missing_protocol_members,
)
from mypy.nodes import ARG_OPT, ARG_POS, ARG_STAR, MypyFile, SymbolNode, TypeInfo
from mypy.options import Options
from mypy.subtypes import find_member, is_subtype
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    Overloaded,
    ProperType,
    TupleType,
    Type,
    TypeOfAny,
    TypeVarId,
    TypeVarType,
    get_proper_type,
)
from mypy.typevars import fill_typevars, fill_typevars_with_any

from protogym.core import ENV_MEMBERS

# What `make` needs of a class registered with api="done": its adapter supplies the rest
# (metadata, render_mode, render, close), as old-API envs often lack them.
LEGACY_MEMBERS = ("action_space", "observation_space", "reset", "step")
LEGACY_API = "done"
STEP_5 = "(obs, reward, terminated, truncated, info)"
STEP_4 = "(obs, reward, done, info)"


@dataclass(frozen=True)
class EnvTypes:
    """The ObsType and ActType an env class declares."""

    obs: Type
    act: Type


def lookup_attribute(
    modules: dict[str, MypyFile], module: str, attribute: str
) -> SymbolNode | None:
    """The node that ``module:attribute`` names in mypy's build (dotted attributes allowed)."""
    tree = modules.get(module)
    if tree is None:
        return None
    first, *rest = attribute.split(".")
    symbol = tree.names.get(first)
    node = symbol.node if symbol is not None else None
    for part in rest:
        if not isinstance(node, TypeInfo | MypyFile):
            return None
        symbol = node.names.get(part)
        node = symbol.node if symbol is not None else None
    return node


def _class_in(modules: dict[str, MypyFile], module: str, name: str) -> TypeInfo | None:
    tree = modules.get(module)
    symbol = tree.names.get(name) if tree is not None else None
    return symbol.node if symbol is not None and isinstance(symbol.node, TypeInfo) else None


def env_info_of(modules: dict[str, MypyFile]) -> TypeInfo | None:
    """`protogym.Env`, if protogym is in the build."""
    return _class_in(modules, "protogym.core", "Env")


def vector_env_info_of(modules: dict[str, MypyFile]) -> TypeInfo | None:
    """`protogym.vector.VectorEnv`, if the vector module is in the build."""
    return _class_in(modules, "protogym.vector.vector_env", "VectorEnv")


def instance_of(node: SymbolNode) -> Instance | None:
    """The env that an entry point builds: an instance of the class, or a factory's return."""
    if isinstance(node, TypeInfo):
        inst = fill_typevars_with_any(node)
        return inst if isinstance(inst, Instance) else None
    typ = get_proper_type(getattr(node, "type", None))
    if isinstance(typ, Overloaded):
        typ = typ.items[0]
    if isinstance(typ, CallableType):
        ret = get_proper_type(typ.ret_type)
        if isinstance(ret, Instance):
            return ret
    return None


def wrapped_types(wrapper: TypeInfo, wrapper_info: TypeInfo, inner: EnvTypes) -> EnvTypes:
    """The types of `wrapper` applied to an env of types `inner`.

    The wrapper class's `Wrapper[WObs, WAct, Obs, Act]` base says how: its `Obs` and `Act`
    type variables are bound to the inner env's types, and `WObs`/`WAct` follow
    (`FlattenObservation` gives `NDArray[Any]` and keeps the action type). A type variable
    that the inner types do not bind is `Any`.
    """
    inst = fill_typevars(wrapper)
    if not isinstance(inst, Instance) or wrapper_info not in wrapper.mro:
        unknown = AnyType(TypeOfAny.special_form)
        return EnvTypes(unknown, unknown)
    mapped = map_instance_to_supertype(inst, wrapper_info)
    bindings: dict[TypeVarId, Type] = {}
    for formal, actual in zip(mapped.args[2:], (inner.obs, inner.act), strict=True):
        variable = get_proper_type(formal)
        if isinstance(variable, TypeVarType):
            bindings[variable.id] = actual
    for variable in wrapper.defn.type_vars:
        bindings.setdefault(variable.id, AnyType(TypeOfAny.special_form))
    return EnvTypes(expand_type(mapped.args[0], bindings), expand_type(mapped.args[1], bindings))


def wrapper_info_of(modules: dict[str, MypyFile]) -> TypeInfo | None:
    """`protogym.Wrapper`, if protogym is in the build."""
    return _class_in(modules, "protogym.core", "Wrapper")


def _signature(inst: Instance, name: str) -> CallableType | None:
    typ = get_proper_type(find_member(name, inst, inst))
    if isinstance(typ, Overloaded):
        return typ.items[0]
    return typ if isinstance(typ, CallableType) else None


def _first_positional(sig: CallableType) -> Type | None:
    for kind, typ in zip(sig.arg_kinds, sig.arg_types, strict=True):
        if kind in (ARG_POS, ARG_OPT, ARG_STAR):
            return typ
    return None


def _tuple_items(typ: Type) -> list[Type] | None:
    proper = get_proper_type(typ)
    return proper.items if isinstance(proper, TupleType) else None


def env_types(inst: Instance, env_info: TypeInfo | None, api: str) -> EnvTypes:
    """ObsType and ActType of `inst`; `Any` for whatever its class leaves unannotated."""
    unknown = AnyType(TypeOfAny.unannotated)
    if env_info is not None and env_info in inst.type.mro:
        mapped = map_instance_to_supertype(inst, env_info)
        return EnvTypes(mapped.args[0], mapped.args[1])
    obs: Type | None = None
    act: Type | None = None
    step = _signature(inst, "step")
    if step is not None:
        act = _first_positional(step)
        items = _tuple_items(step.ret_type)
        if items:
            obs = items[0]
    reset = _signature(inst, "reset")
    if reset is not None:
        items = _tuple_items(reset.ret_type)
        if items is not None and len(items) == 2:
            obs = items[0]
        elif api == LEGACY_API and items is None:
            obs = reset.ret_type
    return EnvTypes(obs if obs is not None else unknown, act if act is not None else unknown)


def env_problems(
    inst: Instance, env_info: TypeInfo | None, api: str, options: Options
) -> list[str]:
    """Why `inst` is not an env for `register(..., api=api)`, one message per failing member.

    A factory declared to return a protocol (`Env[O, A]`) is taken at its word.
    """
    info = inst.type
    name = f'"{info.fullname}"'
    if info.is_protocol:
        return []
    if env_info is not None and env_info in info.mro:
        # mypy has checked the members' types against the protocol in the class's module.
        missing = sorted(m for m in info.abstract_attributes if m[0] in ENV_MEMBERS)
        return [f"{name} does not implement {member!r} of protogym.Env" for member, _ in missing]
    required = LEGACY_MEMBERS if api == LEGACY_API else ENV_MEMBERS
    missing_members = [m for m in required if info.get(m) is None]
    needs = 'register(..., api="done")' if api == LEGACY_API else "protogym.Env"
    problems = [f"{name} has no {member!r}, which {needs} requires" for member in missing_members]
    checked: set[str] = set(missing_members)
    step = _signature(inst, "step") if "step" not in checked else None
    if step is not None and (found := _step_problems(name, step, api, options)):
        checked.add("step")
        problems.extend(found)
    reset = _signature(inst, "reset") if "reset" not in checked else None
    if reset is not None and (found := _reset_problems(name, reset, api, options)):
        checked.add("reset")
        problems.extend(found)
    if problems or api == LEGACY_API or env_info is None:
        return problems
    types = env_types(inst, env_info, api)
    protocol = Instance(env_info, [types.obs, types.act])
    if is_subtype(inst, protocol, options=options):
        return problems
    conflicts = get_conflict_protocol_types(inst, inst, protocol, options=options)
    for member, got, expected, _ in conflicts:
        if member in checked:
            continue
        checked.add(member)
        details = _returned_item_problems(member, got, expected, options)
        if details:
            problems.extend(f"{name}.{detail}" for detail in details)
            continue
        problems.append(
            f"{name}.{member} has type {format_type(got, options)}, but protogym.Env"
            f"[{format_type(types.obs, options)}, {format_type(types.act, options)}] "
            f"needs {format_type(expected, options)}"
        )
    return problems


def vector_env_problems(
    inst: Instance, vector_info: TypeInfo | None, options: Options
) -> list[str]:
    """Why `inst` is not a `protogym.vector.VectorEnv`, one message per failing member."""
    info = inst.type
    if info.is_protocol or vector_info is None:
        return []
    name = f'"{info.fullname}"'
    if vector_info in info.mro:
        missing = sorted(m for m, _ in info.abstract_attributes)
        return [f"{name} does not implement {m!r} of protogym.vector.VectorEnv" for m in missing]
    anything = AnyType(TypeOfAny.special_form)
    protocol = Instance(vector_info, [anything] * len(vector_info.defn.type_vars))
    if is_subtype(inst, protocol, options=options):
        return []
    missing = get_missing_protocol_members(inst, protocol, skip=[])
    if missing:
        # Usually a single env registered as a vector one: one message, not one per member.
        listed = ", ".join(repr(member) for member in missing)
        return [f"{name} is not a protogym.vector.VectorEnv: it has no {listed}"]
    conflicts = get_conflict_protocol_types(inst, inst, protocol, options=options)
    return [
        f"{name}.{member} has type {format_type(got, options)}, but protogym.vector.VectorEnv "
        f"needs {format_type(expected, options)}"
        for member, got, expected, _ in conflicts
    ]


_RETURNED_ITEMS = {
    "step": ("observation", "reward", "terminated", "truncated", "info"),
    "reset": ("observation", "info"),
}


def _returned_item_problems(
    member: str, got: Type, expected: Type, options: Options
) -> list[str]:
    """For `step`/`reset`, which items of the returned tuple have the wrong type."""
    labels = _RETURNED_ITEMS.get(member)
    got_sig, expected_sig = get_proper_type(got), get_proper_type(expected)
    if labels is None or not isinstance(got_sig, CallableType):
        return []
    if not isinstance(expected_sig, CallableType):
        return []
    got_items = _tuple_items(got_sig.ret_type)
    expected_items = _tuple_items(expected_sig.ret_type)
    if got_items is None or expected_items is None or len(got_items) != len(labels):
        return []
    if len(expected_items) != len(labels):
        return []
    found = []
    for label, item, wanted in zip(labels, got_items, expected_items, strict=True):
        if is_subtype(item, wanted, options=options):
            continue
        hint = ""
        if _is_numpy_bool(item):
            hint = f"; convert it with bool({label})"
        found.append(
            f"{member} returns {label} as {format_type(item, options)}, which is not "
            f"{format_type(wanted, options)}{hint}"
        )
    return found


def _is_numpy_bool(typ: Type) -> bool:
    proper = get_proper_type(typ)
    return isinstance(proper, Instance) and proper.type.fullname == "numpy.bool"


def _step_problems(name: str, step: CallableType, api: str, options: Options) -> list[str]:
    if _first_positional(step) is None:
        return [f"{name}.step takes no action argument; define step(self, action)"]
    items = _tuple_items(step.ret_type)
    ret = get_proper_type(step.ret_type)
    if _uncountable(ret):
        return []
    if api == LEGACY_API:
        if items is not None and len(items) == 5:
            return [
                f"{name}.step returns 5 values {STEP_5}, but the id is registered with "
                f'api="done", which expects {STEP_4}; drop api="done"'
            ]
        if items is None or len(items) != 4:
            return [f"{name}.step returns {format_type(ret, options)}; with api=\"done\" it must "
                    f"return 4 values {STEP_4}"]
        return []
    if items is not None and len(items) == 4:
        return [
            f"{name}.step returns 4 values {STEP_4}; return terminated and truncated "
            f'{STEP_5}, or register with api="done"'
        ]
    if items is None or len(items) != 5:
        shown = format_type(ret, options)
        return [f"{name}.step returns {shown}; it must return 5 values {STEP_5}"]
    return []


def _uncountable(ret: ProperType) -> bool:
    """`Any` or `tuple[X, ...]`: an annotation that does not say how many values come back."""
    return isinstance(ret, AnyType) or (
        isinstance(ret, Instance) and ret.type.fullname == "builtins.tuple"
    )


def _reset_problems(name: str, reset: CallableType, api: str, options: Options) -> list[str]:
    problems = []
    accepted = set(reset.arg_names) if reset.is_kw_arg is False else None
    if accepted is not None:
        lacking = [kw for kw in ("seed", "options") if kw not in accepted]
        if lacking and api != LEGACY_API:
            problems.append(
                f"{name}.reset does not accept {' and '.join(lacking)}; define "
                "reset(self, *, seed=None, options=None)"
            )
    ret = get_proper_type(reset.ret_type)
    items = _tuple_items(ret)
    if _uncountable(ret) or (items is not None and len(items) == 2):
        return problems
    if api == LEGACY_API:
        return problems
    problems.append(
        f"{name}.reset returns {format_type(ret, options)}; return (obs, info), or register "
        'with api="done" for an old env whose reset returns the observation only'
    )
    return problems
