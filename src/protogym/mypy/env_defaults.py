"""Gives explicit subclasses of `Env` and `VectorEnv` the typed defaults they inherit at run time.

The `Env` protocol keeps `np_random`, `unwrapped`, `spec`, `reward_range`, the
wrapper-attribute methods and the context-manager methods out of mypy's view so that a
structural env need not define them; this hook adds them back to classes that subclass `Env`
and so really have them. `VectorEnv` does the same for Gymnasium's `VectorEnv` members; a
subclass of `VectorEnvBase` declares them already, a Gymnasium-style ``class X(VectorEnv)``
gets them here.
"""

from __future__ import annotations

from mypy.nodes import ARG_NAMED_OPT, ARG_POS, ARG_STAR, ArgKind, Argument, TypeInfo, Var
from mypy.plugin import ClassDefContext
from mypy.plugins.common import add_attribute_to_class, add_method_to_class
from mypy.types import AnyType, Instance, NoneType, Type, TypeOfAny, UnionType
from mypy.typevars import fill_typevars

ENV_FULLNAME = "protogym.core.Env"
VECTOR_ENV_FULLNAME = "protogym.vector.vector_env.VectorEnv"


def _instance_or_any(ctx: ClassDefContext, fullname: str, args: list[Type] | None = None) -> Type:
    symbol = ctx.api.lookup_fully_qualified_or_none(fullname)
    if symbol is None or not isinstance(symbol.node, TypeInfo):
        return AnyType(TypeOfAny.special_form)
    return Instance(symbol.node, args or [])


def _argument(name: str, typ: Type, kind: ArgKind = ARG_POS) -> Argument:
    return Argument(Var(name, typ), typ, None, kind)


def add_env_defaults(ctx: ClassDefContext) -> None:
    info = ctx.cls.info
    if info.is_protocol:
        return
    float_type = ctx.api.named_type("builtins.float")
    attributes: dict[str, Type] = {
        "np_random": _instance_or_any(ctx, "numpy.random._generator.Generator"),
        "np_random_seed": ctx.api.named_type("builtins.int"),
        # The env is its own innermost env: its attributes stay visible through `unwrapped`.
        "unwrapped": fill_typevars(info),
        "spec": _optional_spec(ctx),
        "reward_range": ctx.api.named_type("builtins.tuple", [float_type]),
    }
    _add_attributes(ctx, ENV_FULLNAME, attributes)
    _add_wrapper_attr_methods(ctx, with_setter=True)
    _add_context_manager(ctx)


def add_vector_env_defaults(ctx: ClassDefContext) -> None:
    """Gymnasium's `VectorEnv` members, typed as `VectorEnvBase` declares them."""
    info = ctx.cls.info
    if info.is_protocol:
        return
    str_type = ctx.api.named_type("builtins.str")
    anything = AnyType(TypeOfAny.explicit)
    # The protocol's read-only num_envs, metadata and render_mode become the attributes they
    # are in Gymnasium's base, so that `self.num_envs = n` in __init__ type-checks.
    _add_attributes(
        ctx,
        VECTOR_ENV_FULLNAME,
        {
            "num_envs": ctx.api.named_type("builtins.int"),
            "metadata": _instance_or_any(ctx, "typing.Mapping", [str_type, anything]),
            "render_mode": UnionType([str_type, NoneType()]),
            "spec": _optional_spec(ctx),
            "closed": ctx.api.named_type("builtins.bool"),
            "np_random": _instance_or_any(ctx, "numpy.random._generator.Generator"),
        },
    )
    _add_attributes(
        ctx,
        VECTOR_ENV_FULLNAME,
        {
            "np_random_seed": UnionType([ctx.api.named_type("builtins.int"), NoneType()]),
            "unwrapped": fill_typevars(info),
        },
        read_only=True,
    )
    if not _defined(info, "close_extras", VECTOR_ENV_FULLNAME):
        add_method_to_class(ctx.api, ctx.cls, "close_extras", [], NoneType())
    if not _defined(info, "_add_info", VECTOR_ENV_FULLNAME):
        infos = ctx.api.named_type("builtins.dict", [str_type, anything])
        add_method_to_class(
            ctx.api,
            ctx.cls,
            "_add_info",
            [
                _argument("vector_infos", infos),
                _argument(
                    "env_info", _instance_or_any(ctx, "typing.Mapping", [str_type, anything])
                ),
                _argument("env_num", ctx.api.named_type("builtins.int")),
            ],
            infos,
        )
    _add_wrapper_attr_methods(ctx, with_setter=False)
    _add_context_manager(ctx)


def _optional_spec(ctx: ClassDefContext) -> Type:
    return UnionType([_instance_or_any(ctx, "protogym.registration.env_spec.EnvSpec"), NoneType()])


def _defined(info: TypeInfo, name: str, protocol: str) -> bool:
    """Whether `info` or a base below `protocol` in its MRO defines `name` (the protocol's
    own declaration does not count)."""
    for base in info.mro:
        if base.fullname == protocol:
            return False
        if name in base.names:
            return True
    return False


def _add_attributes(
    ctx: ClassDefContext, protocol: str, attributes: dict[str, Type], *, read_only: bool = False
) -> None:
    """Add each attribute that the class does not define; `read_only` ones as properties
    without a setter, as they are at run time."""
    for name, typ in attributes.items():
        if _defined(ctx.cls.info, name, protocol):
            continue
        node = add_attribute_to_class(ctx.api, ctx.cls, name, typ)
        if read_only:
            node.is_property = True


def _add_wrapper_attr_methods(ctx: ClassDefContext, *, with_setter: bool) -> None:
    """Gymnasium's `has_wrapper_attr`, `get_wrapper_attr` and (envs only) `set_wrapper_attr`:
    on an unwrapped env they read and write its own attributes."""
    info = ctx.cls.info
    str_type = ctx.api.named_type("builtins.str")
    bool_type = ctx.api.named_type("builtins.bool")
    anything = AnyType(TypeOfAny.explicit)
    name = _argument("name", str_type)
    if info.get("has_wrapper_attr") is None:
        add_method_to_class(ctx.api, ctx.cls, "has_wrapper_attr", [name], bool_type)
    if info.get("get_wrapper_attr") is None:
        add_method_to_class(ctx.api, ctx.cls, "get_wrapper_attr", [name], anything)
    if with_setter and info.get("set_wrapper_attr") is None:
        value = _argument("value", anything)
        force = _argument("force", bool_type, ARG_NAMED_OPT)
        add_method_to_class(ctx.api, ctx.cls, "set_wrapper_attr", [name, value, force], bool_type)


def _add_context_manager(ctx: ClassDefContext) -> None:
    info = ctx.cls.info
    if info.get("__enter__") is None:
        add_method_to_class(ctx.api, ctx.cls, "__enter__", [], fill_typevars(info))
    if info.get("__exit__") is None:
        exc_info = Argument(Var("exc_info"), ctx.api.named_type("builtins.object"), None, ARG_STAR)
        add_method_to_class(ctx.api, ctx.cls, "__exit__", [exc_info], NoneType())
