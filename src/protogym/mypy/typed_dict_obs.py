"""TypedDict-carrying `Dict` spaces: checked at construction, kept through `FilterObservation`.

``spaces.Dict[PointObs]({"position": Box(...), "steps": Discrete(9)})`` is checked key by
key against the TypedDict: every key present, no other key, and each sub-space's element type
assignable to the key's value type. ``FilterObservation(env, ["position"])`` over an env whose
observations are a TypedDict gives a TypedDict of the kept keys.
"""

from __future__ import annotations

from mypy.errorcodes import ErrorCode
from mypy.maptype import map_instance_to_supertype
from mypy.messages import format_type
from mypy.nodes import DictExpr, ListExpr, StrExpr, TupleExpr
from mypy.plugin import FunctionContext
from mypy.subtypes import is_subtype
from mypy.types import Instance, Type, TypedDictType, get_proper_type

DICT_SPACE_FULLNAME = "protogym.spaces.dict.Dict"
FILTER_FULLNAME = "protogym.wrappers.transform_observation.FilterObservation"
SPACE_FULLNAME = "protogym.spaces.space.Space"
WRAPPER_FULLNAME = "protogym.core.Wrapper"
DICT_SPACE = ErrorCode(
    "protogym-dict-space", "A Dict space that does not match its TypedDict", "protogym"
)


def _space_element(typ: Type) -> Type | None:
    proper = get_proper_type(typ)
    if not isinstance(proper, Instance):
        return None
    for base in proper.type.mro:
        if base.fullname == SPACE_FULLNAME:
            return map_instance_to_supertype(proper, base).args[0]
    return None


def check_dict_space(ctx: FunctionContext) -> Type:
    """`Dict[TD]({...})`: the literal sub-spaces against TD's keys and value types."""
    ret = get_proper_type(ctx.default_return_type)
    if not isinstance(ret, Instance) or not ret.args:
        return ctx.default_return_type
    typed = get_proper_type(ret.args[0])
    if not isinstance(typed, TypedDictType) or not ctx.args or len(ctx.args[0]) != 1:
        return ctx.default_return_type
    given = ctx.args[0][0]
    if not isinstance(given, DictExpr):
        return ctx.default_return_type
    options = ctx.api.options
    name = format_type(typed, options)
    found: set[str] = set()
    for key_expr, value_expr in given.items:
        if not isinstance(key_expr, StrExpr):
            return ctx.default_return_type
        key = key_expr.value
        found.add(key)
        wanted = typed.items.get(key)
        if wanted is None:
            ctx.api.fail(
                f'Dict space has key "{key}", which {name} does not declare (its keys: '
                f"{', '.join(typed.items)})",
                key_expr,
                code=DICT_SPACE,
            )
            continue
        element = _space_element(ctx.api.get_expression_type(value_expr))
        if element is not None and not is_subtype(element, wanted, options=options):
            ctx.api.fail(
                f'Dict space key "{key}" holds a space of {format_type(element, options)}, '
                f"but {name} declares {format_type(wanted, options)}",
                value_expr,
                code=DICT_SPACE,
            )
    missing = [key for key in typed.required_keys if key not in found]
    if missing:
        ctx.api.fail(
            f"Dict space lacks {', '.join(repr(k) for k in missing)}, which {name} requires",
            ctx.context,
            code=DICT_SPACE,
        )
    return ctx.default_return_type


def _literal_keys(ctx: FunctionContext) -> list[str] | None:
    if "filter_keys" not in ctx.callee_arg_names:
        return None
    index = ctx.callee_arg_names.index("filter_keys")
    if len(ctx.args[index]) != 1:
        return None
    expr = ctx.args[index][0]
    if not isinstance(expr, ListExpr | TupleExpr):
        return None
    keys = [item.value for item in expr.items if isinstance(item, StrExpr)]
    return keys if len(keys) == len(expr.items) else None


def _observation_type(env: Type) -> Type | None:
    """The observation type of an env value: a wrapper's first type argument, or an
    env class's `reset` return."""
    proper = get_proper_type(env)
    if not isinstance(proper, Instance):
        return None
    for base in proper.type.mro:
        if base.fullname == WRAPPER_FULLNAME:
            return map_instance_to_supertype(proper, base).args[0]
    from protogym.mypy.env_types import env_types

    return env_types(proper, None, "terminated_truncated").obs


def filtered_observation(ctx: FunctionContext, env: Type) -> Type:
    """`FilterObservation(env, ["a", "b"])` over TypedDict observations keeps those keys."""
    ret = get_proper_type(ctx.default_return_type)
    if not isinstance(ret, Instance) or ret.type.fullname != FILTER_FULLNAME:
        return ctx.default_return_type
    keys = _literal_keys(ctx)
    obs = get_proper_type(_observation_type(env))
    if keys is None or not isinstance(obs, TypedDictType):
        return ctx.default_return_type
    unknown = [key for key in keys if key not in obs.items]
    if unknown:
        ctx.api.fail(
            f"FilterObservation: {', '.join(repr(k) for k in unknown)} not in the "
            f"observation's keys ({', '.join(obs.items)})",
            ctx.context,
            code=DICT_SPACE,
        )
        return ctx.default_return_type
    # An anonymous TypedDict: it is not the declared one any more.
    kept = obs.copy_modified(
        item_names=keys, fallback=ctx.api.named_generic_type("typing._TypedDict", [])
    )
    # FilterObservation[ActType, ObsType]: the second argument is what it returns.
    args = list(ret.args)
    args[-1] = kept
    return ret.copy_modified(args=args)
