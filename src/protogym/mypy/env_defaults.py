"""Gives explicit subclasses of `protogym.Env` the typed defaults they inherit at run time.

The `Env` protocol keeps `np_random`, `unwrapped`, `spec`, `reward_range` and the
context-manager methods out of mypy's view so that a structural env need not define them;
this hook adds them back to classes that subclass `Env` and so really have them.
"""

from __future__ import annotations

from mypy.nodes import ARG_STAR, Argument, TypeInfo, Var
from mypy.plugin import ClassDefContext
from mypy.plugins.common import add_attribute_to_class, add_method_to_class
from mypy.types import AnyType, Instance, NoneType, Type, TypeOfAny, UnionType
from mypy.typevars import fill_typevars

ENV_FULLNAME = "protogym.core.Env"


def _instance_or_any(ctx: ClassDefContext, fullname: str, args: list[Type] | None = None) -> Type:
    symbol = ctx.api.lookup_fully_qualified_or_none(fullname)
    if symbol is None or not isinstance(symbol.node, TypeInfo):
        return AnyType(TypeOfAny.special_form)
    return Instance(symbol.node, args or [])


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
        "spec": UnionType(
            [_instance_or_any(ctx, "protogym.registration.env_spec.EnvSpec"), NoneType()]
        ),
        "reward_range": ctx.api.named_type("builtins.tuple", [float_type]),
    }
    for name, typ in attributes.items():
        if info.get(name) is None:
            add_attribute_to_class(ctx.api, ctx.cls, name, typ)
    if info.get("__enter__") is None:
        add_method_to_class(ctx.api, ctx.cls, "__enter__", [], fill_typevars(info))
    if info.get("__exit__") is None:
        exc_info = Argument(Var("exc_info"), ctx.api.named_type("builtins.object"), None, ARG_STAR)
        add_method_to_class(
            ctx.api, ctx.cls, "__exit__", [exc_info], NoneType()
        )
