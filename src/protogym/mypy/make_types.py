"""Types `make("<id>")` from the registry, and reports an unknown literal id.

Without the plugin, `make` returns `Wrapper[Any, Any, Any, Any]` (or `LegacyEnv[Any, Any]`
for ``return_two_dones=False``). With it, the `Any`s become the registered class's ObsType
and ActType: the wrappers that `make` applies (checker, order enforcing, time limit,
rendering, step compatibility) keep both types, so the outermost one has the class's.
Named `wrappers=[...]` change them as their classes' `Wrapper[...]` bases say; a call whose
wrappers are not all literal names of registered wrapper classes keeps the `Any`s.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from mypy.errorcodes import ErrorCode
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import (
    ARG_STAR2,
    CallExpr,
    Expression,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    StrExpr,
    SymbolNode,
    TupleExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import FunctionContext, FunctionSigContext, MethodContext
from mypy.types import (
    AnyType,
    FunctionLike,
    Instance,
    LiteralType,
    NoneType,
    Type,
    TypeOfAny,
    UnionType,
    get_proper_type,
)

from protogym.mypy.batched import Batcher, Lookup
from protogym.mypy.constructor_kwargs import check_kwargs, constructor_of
from protogym.mypy.env_ids import EnvIds
from protogym.mypy.env_types import (
    EnvTypes,
    env_info_of,
    env_types,
    instance_of,
    lookup_attribute,
    wrapped_types,
    wrapper_info_of,
)
from protogym.mypy.known_ids import KnownEnv, SourceRegistration, foreign, split_entry_point
from protogym.mypy.wrapper_calls import innermost as innermost_of
from protogym.mypy.wrapper_calls import with_declared_spaces, with_unwrapped

ENV_ID = ErrorCode("protogym-env-id", "An env id that the registry does not know", "protogym")


def literal_str(ctx: FunctionContext | MethodContext, index: int) -> str | None:
    """The string literal (or `Final` str constant) passed for formal argument `index`."""
    if index >= len(ctx.args) or len(ctx.args[index]) != 1:
        return None
    expr = ctx.args[index][0]
    if isinstance(expr, StrExpr):
        return expr.value
    typ = get_proper_type(ctx.arg_types[index][0])
    if isinstance(typ, Instance) and typ.last_known_value is not None:
        typ = typ.last_known_value
    if isinstance(typ, LiteralType) and isinstance(typ.value, str):
        return typ.value
    return None


def _literal_expr(expr: Expression) -> str | None:
    """A string literal, or a name bound to a `Final` string constant."""
    if isinstance(expr, StrExpr):
        return expr.value
    if isinstance(expr, RefExpr) and isinstance(expr.node, Var):
        value = expr.node.final_value
        return value if isinstance(value, str) else None
    return None


SPEC_ID = "id"
"""The extra attribute of an `EnvSpec` type from `spec("<id>")` that holds the id (an
attribute `EnvSpec` has, so mypy never offers the extra one in its place)."""
SPEC_FULLNAME = "protogym.registration.spec"


def spec_id(typ: Type) -> str | None:
    """The id an `EnvSpec` type remembers from `spec("<id>")`, else None."""
    proper = get_proper_type(typ)
    if not isinstance(proper, Instance) or proper.extra_attrs is None:
        return None
    literal = get_proper_type(proper.extra_attrs.attrs.get(SPEC_ID))
    if isinstance(literal, LiteralType) and isinstance(literal.value, str):
        return literal.value
    return None


def _spec_id_of_expression(expr: Expression) -> str | None:
    """The id of a spec argument before its type is inferred: a variable that holds
    `spec("<id>")`, or that call itself."""
    if isinstance(expr, RefExpr) and isinstance(expr.node, Var) and expr.node.type is not None:
        return spec_id(expr.node.type)
    if (
        isinstance(expr, CallExpr)
        and isinstance(expr.callee, RefExpr)
        and expr.callee.fullname == SPEC_FULLNAME
        and len(expr.args) == 1
    ):
        return _literal_expr(expr.args[0])
    return None


def formal_index(ctx: FunctionContext | MethodContext, name: str) -> int | None:
    try:
        return ctx.callee_arg_names.index(name)
    except ValueError:
        return None


def wrapper_names(ctx: FunctionContext) -> list[str] | None:
    """The names in a literal ``wrappers=[...]``: `[]` if none, None if not all literal."""
    index = formal_index(ctx, "wrappers")
    if index is None or not ctx.args[index]:
        return []
    if len(ctx.args[index]) != 1:
        return None
    expr = ctx.args[index][0]
    if isinstance(expr, NameExpr) and expr.fullname == "builtins.None":
        return []
    if not isinstance(expr, ListExpr | TupleExpr):
        return None
    names = []
    for item in expr.items:
        # "Name" or ("Name", {kwargs})
        name = _literal_expr(item.items[0] if isinstance(item, TupleExpr) and item.items else item)
        if name is None:
            return None
        names.append(name)
    return names


def passes_value(ctx: FunctionContext | MethodContext, name: str) -> bool:
    """True if the call passes formal argument `name`, or `**kwargs` that may hold it."""
    index = formal_index(ctx, name)
    if index is None or not ctx.args[index]:
        return False
    return not all(isinstance(get_proper_type(t), NoneType) for t in ctx.arg_types[index])


class MakeTyper:
    """The `make`/`make_vec`/`spec` hooks, over the ids that `ids` knows."""

    def __init__(
        self, ids: EnvIds, modules: Callable[[], dict[str, MypyFile]], lookup: Lookup
    ) -> None:
        self._ids = ids
        self._installed = ids.installed
        self._modules = modules
        self._lookup = lookup

    # -- types -------------------------------------------------------------------------

    def entry_node(self, env: KnownEnv) -> SymbolNode | None:
        """The class or factory that the id's entry point names, if it is in the build."""
        modules = self._modules()
        module, attribute = split_entry_point(env.entry_point)
        if module is not None and attribute is not None:
            return lookup_attribute(modules, module, attribute)
        if isinstance(env, SourceRegistration) and env.class_ref is not None:
            return lookup_attribute(modules, env.module_id, env.class_ref)
        return None

    def vector_node(self, env: KnownEnv) -> SymbolNode | None:
        module, attribute = split_entry_point(env.vector_entry_point)
        if module is None or attribute is None:
            return None
        return lookup_attribute(self._modules(), module, attribute)

    def types_of(self, env: KnownEnv) -> EnvTypes | None:
        """The env's ObsType and ActType, if its class is in mypy's build."""
        node = self.entry_node(env)
        inst = instance_of(node) if node is not None else None
        if inst is None:
            return None
        return env_types(inst, env_info_of(self._modules()), env.api)

    def vector_instance(self, env: KnownEnv) -> Instance | None:
        """The id's native vector env class, if it is in the build."""
        node = self.vector_node(env)
        return instance_of(node) if node is not None else None

    # -- hooks -------------------------------------------------------------------------

    def check_id(self, ctx: FunctionSigContext) -> FunctionLike:
        """Report an unknown literal id, and keyword arguments its constructor rejects.

        This runs as a signature hook because mypy resolves `make`'s overloads by checking
        each one with errors muted, and an error from the return-type hook would only make
        the overload look like a mismatch. mypy calls it once per overload item and drops
        the duplicate messages.
        """
        if not ctx.args or len(ctx.args[0]) != 1:
            return ctx.default_signature
        expr = ctx.args[0][0]
        env_id = _literal_expr(expr)
        if env_id is None:
            env_id = _spec_id_of_expression(expr)  # make(spec): checked where it was made
        elif (problem := self._ids.problem(env_id)) is not None:
            ctx.api.fail(problem, ctx.context, code=ENV_ID)
            return ctx.default_signature
        env = self._ids.known(env_id) if env_id is not None else None
        if env is not None and ARG_STAR2 in ctx.default_signature.arg_kinds:
            self._check_kwargs(ctx, env.id, env)
        return ctx.default_signature

    def _check_kwargs(self, ctx: FunctionSigContext, env_id: str, env: KnownEnv) -> None:
        node = self.entry_node(env)
        skip: frozenset[str] = frozenset()
        if "num_envs" in ctx.default_signature.arg_names:  # make_vec
            mode = _signature_literal(ctx, "vectorization_mode")
            if mode is None and not _signature_passes(ctx, "vectorization_mode"):
                mode = "vector_entry_point" if env.vector_entry_point else "sync"
            if mode == "ray" and env.vector_entry_point and not _signature_passes(ctx, "wrappers"):
                mode = "vector_entry_point"  # Ray's actors then hold slices of the native env
            if mode == "vector_entry_point":
                node = self.vector_node(env)
                skip = frozenset({"num_envs", "autoreset_mode"})
            elif mode not in _COPYING_MODES:
                return
            else:
                skip = _MAKE_KEYWORDS  # sync/async build each sub-env with make(spec, **kwargs)
        constructor = constructor_of(node, ctx) if node is not None else None
        if constructor is not None:
            owner = f'"{constructor_name(node)}" (the entry point of "{env_id}")'
            check_kwargs(ctx, constructor, owner, skip)

    def through_wrappers(
        self, names: list[str], types: EnvTypes
    ) -> tuple[EnvTypes, EnvTypes] | None:
        """The types after the named wrappers, and those the outermost one wraps.

        None if a name is not a registered wrapper class in the build.
        """
        modules = self._modules()
        wrapper_info = wrapper_info_of(modules)
        inner = types
        for name in names:
            module, attribute = split_entry_point(self._installed.wrappers.get(name))
            node = lookup_attribute(modules, module, attribute) if module and attribute else None
            if not isinstance(node, TypeInfo) or wrapper_info is None:
                return None
            inner, types = types, wrapped_types(node, wrapper_info, types)
        return types, inner

    def spec(self, ctx: FunctionContext) -> Type:
        """`spec("<id>")`: the `EnvSpec` remembers which id it is, so that `make(spec)` and
        `make_vec(spec)` are typed as `make("<id>")`."""
        env_id = literal_str(ctx, 0)
        env = self._ids.known(env_id) if env_id is not None else None
        spec = get_proper_type(ctx.default_return_type)
        if env is None or not isinstance(spec, Instance):
            return ctx.default_return_type
        literal = LiteralType(env.id, ctx.api.named_generic_type("builtins.str", []))
        return spec.copy_with_extra_attr(SPEC_ID, literal)

    def _env_argument(self, ctx: FunctionContext) -> tuple[str | None, KnownEnv | None]:
        """The id that `make`'s or `make_vec`'s first argument names (a literal, or a spec
        from `spec("<id>")`), and its env if the id is known."""
        env_id = literal_str(ctx, 0)
        if env_id is None and ctx.arg_types and len(ctx.arg_types[0]) == 1:
            env_id = spec_id(ctx.arg_types[0][0])
        return env_id, self._ids.known(env_id) if env_id is not None else None

    def make(self, ctx: FunctionContext) -> Type:
        _, env = self._env_argument(ctx)
        names = wrapper_names(ctx)
        types = self.types_of(env) if env is not None else None
        wrapped = self.through_wrappers(names, types) if types and names is not None else None
        if env is None or wrapped is None:
            return ctx.default_return_type
        outer, inner = wrapped
        node = self.entry_node(env)
        innermost = instance_of(node) if node is not None else None
        made = with_unwrapped(refine(ctx.default_return_type, outer, inner), innermost)
        # make's own wrappers leave the spaces alone; named ones may replace them.
        return made if names else with_declared_spaces(made, innermost)

    def make_vec(self, ctx: FunctionContext) -> Type:
        """The mode's class: sync/async with the single env's types batched, or the id's
        native class."""
        env_id, env = self._env_argument(ctx)
        names = wrapper_names(ctx)
        if env is None and env_id is not None and foreign(env_id):
            # Another library's env has no native vector env: by default its copies go in a
            # SyncVectorEnv, with types known only at run time.
            return self._copies_of_any(ctx, _mode_of(ctx, "sync"))
        if env is None or names is None:
            return ctx.default_return_type
        mode = _mode_of(ctx, "vector_entry_point" if env.vector_entry_point else "sync")
        if mode == "vector_entry_point" and not names:
            native = self.vector_instance(env)
            return native if native is not None else ctx.default_return_type
        if mode not in _COPYING_MODES:
            return ctx.default_return_type
        single = self.types_of(env)
        wrapped = self.through_wrappers(names, single) if single is not None else None
        vector_class = self._class(_COPYING_MODES[mode])
        if wrapped is None:
            return ctx.default_return_type
        batcher = Batcher(ctx.api, self._lookup)
        types = EnvTypes(batcher.batched(wrapped[0].obs), batcher.batched(wrapped[0].act))
        if vector_class is None or len(vector_class.defn.type_vars) != 3:
            return refine(ctx.default_return_type, types)
        anything = AnyType(TypeOfAny.special_form)
        return Instance(vector_class, [types.obs, types.act, anything])

    def _copies_of_any(self, ctx: FunctionContext, mode: str | None) -> Type:
        """The class of a copying `mode`, generic in Any; the default type for other modes."""
        vector_class = self._class(_COPYING_MODES[mode]) if mode in _COPYING_MODES else None
        if vector_class is None:
            return ctx.default_return_type
        anything = AnyType(TypeOfAny.special_form)
        return Instance(vector_class, [anything] * len(vector_class.defn.type_vars))

    def _class(self, fullname: str) -> TypeInfo | None:
        symbol = self._lookup(fullname)
        node = symbol.node if symbol is not None else None
        return node if isinstance(node, TypeInfo) else None

    def wrap(self, ctx: FunctionContext) -> Type:
        """`wrap(env, "Name", **kwargs)`: the registered wrapper class's types."""
        name = literal_str(ctx, 1)
        if name is None or not ctx.arg_types or len(ctx.arg_types[0]) != 1:
            return ctx.default_return_type
        env_type = get_proper_type(ctx.arg_types[0][0])
        node = self.wrapper_node(name)
        wrapper_info = wrapper_info_of(self._modules())
        if not isinstance(node, TypeInfo) or wrapper_info is None:
            return ctx.default_return_type
        inner = observed_types(env_type, wrapper_info, env_info_of(self._modules()))
        if inner is None:
            return ctx.default_return_type
        outer = wrapped_types(node, wrapper_info, inner)
        return with_unwrapped(refine(ctx.default_return_type, outer, inner), innermost_of(env_type))

    def wrapper_node(self, name: str) -> SymbolNode | None:
        module, attribute = split_entry_point(self._installed.wrappers.get(name))
        if module is None or attribute is None:
            return None
        return lookup_attribute(self._modules(), module, attribute)

    def check_wrap(self, ctx: FunctionSigContext) -> FunctionLike:
        """`wrap(env, "Name", **kwargs)`: an unknown literal name, and kwargs the wrapper's
        constructor rejects."""
        if len(ctx.args) < 2 or len(ctx.args[1]) != 1:
            return ctx.default_signature
        name = _literal_expr(ctx.args[1][0])
        if name is None:
            return ctx.default_signature
        if name not in self._installed.wrappers:
            close = difflib.get_close_matches(name, list(self._installed.wrappers), n=3)
            hint = "; did you mean " + " or ".join(f'"{c}"' for c in close) + "?" if close else ""
            ctx.api.fail(f'Unknown wrapper name "{name}"{hint}', ctx.context, code=ENV_ID)
            return ctx.default_signature
        node = self.wrapper_node(name)
        constructor = constructor_of(node, ctx) if node is not None else None
        if constructor is not None:
            owner = f'"{constructor_name(node)}" (the wrapper registered as "{name}")'
            check_kwargs(ctx, constructor, owner, frozenset({"env"}))
        return ctx.default_signature


# Modes that build copies of the single env, and their class ([Obs, Act, Mode] generic).
# RayVectorEnv is used once its module is in the build (make_vec imports it for typing).
_COPYING_MODES = {
    "sync": "protogym.vector.sync_vector_env.SyncVectorEnv",
    "async": "protogym.vector.async_vector_env.AsyncVectorEnv",
    "ray": "protogym.vector.ray_vector_env.RayVectorEnv",
}


VECTORIZE_MODE = "protogym.registration.make_vec.VectorizeMode"
"""Each member's value is its name in lower case (a unit test holds the enum to that)."""


def _mode_of(ctx: FunctionContext, default: str) -> str | None:
    """The literal `vectorization_mode` of a `make_vec` call (a string or a `VectorizeMode`
    member), `default` if not passed, or None if passed but not a literal."""
    if not passes_value(ctx, "vectorization_mode"):
        return default
    index = formal_index(ctx, "vectorization_mode")
    if index is None:
        return None
    typ = get_proper_type(ctx.arg_types[index][0])
    if isinstance(typ, Instance) and typ.last_known_value is not None:
        typ = typ.last_known_value
    if isinstance(typ, LiteralType) and typ.fallback.type.fullname == VECTORIZE_MODE:
        return str(typ.value).lower()
    return literal_str(ctx, index)


def constructor_name(node: SymbolNode | None) -> str:
    return node.name if node is not None else "?"


def observed_types(env: Type, wrapper_info: TypeInfo, env_info: TypeInfo | None) -> EnvTypes | None:
    """ObsType and ActType of an env value: a wrapper's outer types or an env class's."""
    proper = get_proper_type(env)
    if not isinstance(proper, Instance):
        return None
    if wrapper_info in proper.type.mro:
        mapped = map_instance_to_supertype(proper, wrapper_info)
        return EnvTypes(mapped.args[0], mapped.args[1])
    return env_types(proper, env_info, "terminated_truncated")


def _signature_literal(ctx: FunctionSigContext, name: str) -> str | None:
    names = ctx.default_signature.arg_names
    if name not in names:
        return None
    exprs = ctx.args[names.index(name)]
    if len(exprs) != 1:
        return None
    expr = exprs[0]
    if (
        isinstance(expr, MemberExpr)
        and isinstance(expr.expr, RefExpr)
        and isinstance(expr.expr.node, TypeInfo)
        and expr.expr.node.fullname == VECTORIZE_MODE
    ):
        return expr.name.lower()  # VectorizeMode.SYNC
    return _literal_expr(expr)


def _signature_passes(ctx: FunctionSigContext, name: str) -> bool:
    names = ctx.default_signature.arg_names
    if name not in names:
        return False
    exprs = ctx.args[names.index(name)]
    return bool(exprs) and not (
        len(exprs) == 1 and isinstance(exprs[0], NameExpr) and exprs[0].fullname == "builtins.None"
    )


def refine(typ: Type, types: EnvTypes, inner: EnvTypes | None = None) -> Type:
    """Fill the `Any` type arguments of `make`'s return type with the env's types.

    `Wrapper[WObs, WAct, Obs, Act]` becomes `Wrapper[O, A, I, J]` (`I`, `J`: the types that
    the outermost wrapper wraps, `O`, `A` unless named wrappers changed them); a
    two-parameter env type (`Env`, `LegacyEnv`) becomes `[O, A]`, and
    `VectorEnv[Obs, Act, Mode]` becomes `[O, A, Mode]`. Arguments that are not `Any` are left
    alone.
    """
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        return UnionType([refine(item, types, inner) for item in proper.items], proper.line)
    if not isinstance(proper, Instance):
        return typ
    inner = inner or types
    wanted: list[Type | None]
    if len(proper.args) == 4:
        wanted = [types.obs, types.act, inner.obs, inner.act]
    elif len(proper.args) == 2:
        wanted = [types.obs, types.act]
    elif len(proper.args) == 3:
        wanted = [types.obs, types.act, None]  # VectorEnv[Obs, Act, AutoresetMode]
    else:
        return typ
    args = [
        new if new is not None and isinstance(get_proper_type(old), AnyType) else old
        for old, new in zip(proper.args, wanted, strict=True)
    ]
    return proper.copy_modified(args=args)


# make()'s own keywords: make_vec passes them on to make(), not to the env's constructor.
_MAKE_KEYWORDS = frozenset(
    {"max_episode_steps", "render_mode", "disable_env_checker", "return_two_dones"}
)
