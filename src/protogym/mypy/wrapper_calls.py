"""Wrapper constructor calls: what the wrapped env is, and ints for structural Discrete envs.

`Wrapper.unwrapped` is declared `Env[Any, Any]`, since a wrapper class does not know what it
wraps. The plugin remembers the innermost env's class on the type of the value (mypy's
per-instance extra attributes, which its cache keeps), from `make` and from each wrapper
call, and answers `env.unwrapped` with it.

A structural env whose `step` takes `int` and whose `action_space` is a `Discrete` (a
`Space[np.int64]`) is not an `Env[O, A]` for any `A` to mypy's solver, so a wrapper call
would fail to infer its action type; the plugin binds it to `int | np.int64`.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.expandtype import expand_type
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import MypyFile, TypeInfo
from mypy.plugin import AttributeContext, FunctionContext, FunctionSigContext
from mypy.typeops import make_simplified_union
from mypy.types import (
    CallableType,
    FunctionLike,
    Instance,
    Type,
    TypeVarId,
    TypeVarType,
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

    def discrete_int_signature(self, ctx: FunctionSigContext) -> FunctionLike:
        """Bind the wrapper's types to a structural int-taking Discrete env's."""
        sig = ctx.default_signature
        index = _env_index(sig)
        if index is None or len(ctx.args[index]) != 1:
            return sig
        formal = get_proper_type(sig.arg_types[index])
        env_info = env_info_of(self._modules())
        if not isinstance(formal, Instance) or env_info is None or formal.type != env_info:
            return sig
        actual = get_proper_type(ctx.api.get_expression_type(ctx.args[index][0]))
        if not isinstance(actual, Instance) or actual.type.has_base(env_info.fullname):
            return sig
        types = env_types(actual, env_info, "terminated_truncated")
        act = get_proper_type(types.act)
        if not (isinstance(act, Instance) and act.type.fullname == "builtins.int"):
            return sig
        space = _action_space_element(actual)
        if space is None:
            return sig
        bindings: dict[TypeVarId, Type] = {}
        values = (types.obs, make_simplified_union([act, space]))
        for formal_arg, value in zip(formal.args, values, strict=True):
            variable = get_proper_type(formal_arg)
            if isinstance(variable, TypeVarType):
                bindings[variable.id] = value
        if not bindings:
            return sig
        bound = expand_type(sig, bindings)
        assert isinstance(bound, CallableType)
        arg_types = list(bound.arg_types)
        arg_types[index] = actual
        variables = [v for v in bound.variables if v.id not in bindings]
        return bound.copy_modified(arg_types=arg_types, variables=variables)


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
