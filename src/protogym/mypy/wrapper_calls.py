"""Wrapper constructor calls: what the wrapped env is, and ints for structural Discrete envs.

`Wrapper.unwrapped` is declared `Env[Any, Any]`, since a wrapper class does not know what it
wraps. The plugin remembers the innermost env's class on the type of the value (mypy's
per-instance extra attributes, which its cache keeps), from `make` and from each wrapper
call, and answers `env.unwrapped` with it.

A wrapper around a structural env keeps that env's own types: ObsType is what its `reset`
returns, ActType what its `step` takes, as declared. mypy's solver would otherwise derive
them from the spaces as well, and lose what the methods say: a TypedDict observation from an
untyped `Dict` space becomes a plain mapping, and an action parameter `int | np.integer`
narrows to the `Discrete` space's `np.int64`, so `wrapped.step(1)` is refused. (A `step`
that takes exactly `int` beside a space of numpy integers is bound to `int | np.int64`, so
that `step(env.action_space.sample())` type-checks too.)
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.expandtype import expand_type
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import MypyFile, TypeInfo
from mypy.plugin import AttributeContext, FunctionContext, FunctionSigContext
from mypy.subtypes import is_subtype
from mypy.typeops import make_simplified_union
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    Type,
    TypeOfAny,
    TypeVarId,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from protogym.mypy.env_types import env_info_of, env_types
from protogym.mypy.typed_dict_obs import filtered_observation

WRAPPER_FULLNAME = "protogym.core.Wrapper"
UNWRAPPED = "unwrapped"


def innermost(typ: Type) -> Type | None:
    """The class of the env that a value of type `typ` ends in, if the plugin knows it."""
    proper = get_proper_type(typ)
    if not isinstance(proper, Instance):
        return None
    if proper.extra_attrs is not None and UNWRAPPED in proper.extra_attrs.attrs:
        return proper.extra_attrs.attrs[UNWRAPPED]
    if proper.type.is_protocol or proper.type.has_base(WRAPPER_FULLNAME):
        return None
    return proper


def with_unwrapped(typ: Type, inner: Type | None) -> Type:
    proper = get_proper_type(typ)
    if inner is None or not isinstance(proper, Instance):
        return typ
    return proper.copy_with_extra_attr(UNWRAPPED, inner)


def unwrapped_attribute(ctx: AttributeContext) -> Type:
    """`env.unwrapped`: the innermost env's class where the plugin knows it."""
    proper = ctx.type
    if isinstance(proper, Instance) and proper.extra_attrs is not None:
        return proper.extra_attrs.attrs.get(UNWRAPPED, ctx.default_attr_type)
    return ctx.default_attr_type


SPACES = ("observation_space", "action_space")
SPACE_FULLNAME = "protogym.spaces.space.Space"


def with_declared_spaces(typ: Type, inner: Type | None) -> Type:
    """`typ` remembering the space classes the env `inner` declares (`Box`, `Discrete`),
    for a value whose wrappers leave the spaces alone (what `make` builds)."""
    proper, env = get_proper_type(typ), get_proper_type(inner) if inner is not None else None
    if not isinstance(proper, Instance) or not isinstance(env, Instance):
        return typ
    for name in SPACES:
        space = _declared_space(env, name)
        if space is not None:
            proper = proper.copy_with_extra_attr(name, space)
    return proper


def space_attribute(name: str, ctx: AttributeContext) -> Type:
    """Reading `env.<name>` (a space): the declared space class where the plugin knows it
    (an assignment keeps the declared `Space[T]`)."""
    proper = ctx.type
    if ctx.is_lvalue or not isinstance(proper, Instance) or proper.extra_attrs is None:
        return ctx.default_attr_type
    return proper.extra_attrs.attrs.get(name, ctx.default_attr_type)


def _declared_space(env: Instance, name: str) -> Type | None:
    """The space class of `env`'s `name` if it is more than the `Space` protocol."""
    from mypy.subtypes import find_member

    member = get_proper_type(find_member(name, env, env))
    if isinstance(member, CallableType):  # a property seen through its getter
        member = get_proper_type(member.ret_type)
    if member is None:
        return None
    parts = member.items if isinstance(member, UnionType) else [member]
    return member if all(_is_space_class(part) for part in parts) else None


def _is_space_class(typ: Type) -> bool:
    """Whether `typ` is an instance of a space class (not of the `Space` protocol itself)."""
    proper = get_proper_type(typ)
    return (
        isinstance(proper, Instance)
        and proper.type.fullname != SPACE_FULLNAME
        and any(base.fullname == SPACE_FULLNAME for base in proper.type.mro)
    )


def _env_index(sig: CallableType) -> int | None:
    if "env" in sig.arg_names:
        return sig.arg_names.index("env")
    return 0 if sig.arg_types else None


class WrapperCalls:
    """Hooks for calls of `Wrapper` subclasses (their constructors)."""

    def __init__(self, modules: Callable[[], dict[str, MypyFile]]) -> None:
        self._modules = modules

    def constructed(self, ctx: FunctionContext) -> Type:
        index = _env_index_of(ctx.callee_arg_names)
        if index is None or len(ctx.arg_types[index]) != 1:
            return ctx.default_return_type
        env_type = ctx.arg_types[index][0]
        result = filtered_observation(ctx, env_type)
        return with_unwrapped(result, innermost(env_type))

    def structural_env_signature(self, ctx: FunctionSigContext) -> FunctionLike:
        """Bind the wrapper's type variables to a structural env's own ObsType and ActType."""
        sig = ctx.default_signature
        index = _env_index(sig)
        if index is None or len(ctx.args[index]) != 1:
            return sig
        formal = get_proper_type(sig.arg_types[index])
        env_info = env_info_of(self._modules())
        if not isinstance(formal, Instance) or env_info is None or formal.type != env_info:
            return sig
        variables = [get_proper_type(arg) for arg in formal.args]
        if not all(isinstance(variable, TypeVarType) for variable in variables):
            return sig  # the wrapper needs particular types: mypy checks the env against them
        actual = get_proper_type(ctx.api.get_expression_type(ctx.args[index][0]))
        if not isinstance(actual, Instance) or actual.type.has_base(env_info.fullname):
            return sig  # an explicit subclass declares its types in its `Env[O, A]` base
        anything = AnyType(TypeOfAny.special_form)
        if not is_subtype(actual, Instance(env_info, [anything, anything])):
            return sig  # not an env at all: mypy's own error says what is missing
        types = env_types(actual, env_info, "terminated_truncated")
        act = get_proper_type(types.act)
        if isinstance(act, Instance) and act.type.fullname == "builtins.int":
            space = _action_space_element(actual)
            if space is not None:
                act = get_proper_type(make_simplified_union([act, space]))
        bindings: dict[TypeVarId, Type] = {}
        for variable, value in zip(variables, (types.obs, act), strict=True):
            if isinstance(variable, TypeVarType) and not _unannotated(value):
                bindings[variable.id] = value
        if not bindings:
            return sig
        bound = expand_type(sig, bindings)
        assert isinstance(bound, CallableType)
        arg_types = list(bound.arg_types)
        arg_types[index] = actual
        remaining = [v for v in bound.variables if v.id not in bindings]
        return bound.copy_modified(arg_types=arg_types, variables=remaining)


def _unannotated(typ: Type) -> bool:
    proper = get_proper_type(typ)
    return isinstance(proper, AnyType) and proper.type_of_any == TypeOfAny.unannotated


def _env_index_of(names: list[str | None]) -> int | None:
    if "env" in names:
        return names.index("env")
    return 0 if names else None


def _action_space_element(inst: Instance) -> Type | None:
    """`np.int64` if the env's `action_space` is a space of numpy integers, else None."""
    from mypy.subtypes import find_member

    member = get_proper_type(find_member("action_space", inst, inst))
    if isinstance(member, CallableType):  # a property seen through its getter
        member = get_proper_type(member.ret_type)
    if not isinstance(member, Instance):
        return None
    space = _space_info(member)
    if space is None:
        return None
    element = get_proper_type(map_instance_to_supertype(member, space).args[0])
    if isinstance(element, Instance) and element.type.has_base("numpy.integer"):
        return element
    return None


def _space_info(inst: Instance) -> TypeInfo | None:
    for base in inst.type.mro:
        if base.fullname == "protogym.spaces.space.Space":
            return base
    return None
