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
from mypy.nodes import (
    Expression,
    ListExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    StrExpr,
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
    UnionType,
    get_proper_type,
)

from protogym.mypy.batched import Batcher, Lookup
from protogym.mypy.env_types import (
    EnvTypes,
    env_info_of,
    env_types,
    instance_of,
    lookup_attribute,
    vector_env_info_of,
    wrapped_types,
    wrapper_info_of,
)
from protogym.mypy.known_ids import (
    InstalledRegistry,
    KnownEnv,
    SourceRegistration,
    scan_registrations,
    split_entry_point,
)

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
    """The `make`/`make_vec` hooks, with the ids the checked program registers itself."""

    def __init__(
        self,
        installed: InstalledRegistry,
        modules: Callable[[], dict[str, MypyFile]],
        lookup: Lookup,
    ) -> None:
        self._installed = installed
        self._modules = modules
        self._lookup = lookup
        self._in_build: dict[str, SourceRegistration] | None = None

    # -- what ids exist ----------------------------------------------------------------

    def in_build(self) -> dict[str, SourceRegistration]:
        """Ids registered by literal `register` calls in the files being checked.

        Scanned once, and only when an id is not installed: most programs only make
        installed envs, and those never pay for the scan.
        """
        if self._in_build is None:
            found: dict[str, SourceRegistration] = {}
            for module_id, tree in self._modules().items():
                if module_id == "protogym" or module_id.startswith("protogym."):
                    continue
                if not tree.path or tree.path.endswith(".pyi"):
                    continue
                for registration in scan_registrations(tree.path, module_id):
                    found.setdefault(registration.id, registration)
            self._in_build = found
        return self._in_build

    def forget_build(self) -> None:
        self._in_build = None

    def known(self, env_id: str) -> KnownEnv | None:
        return self._installed.envs.get(env_id) or self.in_build().get(env_id)

    def unknown_id_message(self, env_id: str) -> str:
        from protogym.registration.env_spec import ENV_ID_RE

        ids = sorted(set(self._installed.envs) | set(self.in_build()))
        message = f'Unknown environment id "{env_id}"'
        match = ENV_ID_RE.fullmatch(env_id)
        same_name = []
        if match is not None:
            for known in ids:
                other = ENV_ID_RE.fullmatch(known)
                if other is not None and (other["namespace"], other["name"]) == (
                    match["namespace"],
                    match["name"],
                ):
                    same_name.append(known)
        if same_name:
            message += "; registered versions: " + ", ".join(f'"{i}"' for i in same_name)
        else:
            close = difflib.get_close_matches(env_id, ids, n=3, cutoff=0.6)
            if close:
                message += "; did you mean " + " or ".join(f'"{i}"' for i in close) + "?"
        message += (
            " (ids come from the installed registry, listed by `protogym list`, and from "
            "literal register() calls in the checked code)"
        )
        if self._installed.error is not None:
            message += f"; the installed registry could not be loaded: {self._installed.error}"
        return message

    # -- types -------------------------------------------------------------------------

    def types_of(self, env: KnownEnv) -> EnvTypes | None:
        """The env's ObsType and ActType, if its class is in mypy's build."""
        modules = self._modules()
        module, attribute = split_entry_point(env.entry_point)
        node = None
        if module is not None and attribute is not None:
            node = lookup_attribute(modules, module, attribute)
        elif isinstance(env, SourceRegistration) and env.class_ref is not None:
            node = lookup_attribute(modules, env.module_id, env.class_ref)
        inst = instance_of(node) if node is not None else None
        if inst is None:
            return None
        return env_types(inst, env_info_of(modules), env.api)

    def vector_types(self, env: KnownEnv) -> EnvTypes | None:
        """The batched types of the id's native vector env, if its class is in the build."""
        modules = self._modules()
        module, attribute = split_entry_point(env.vector_entry_point)
        if module is None or attribute is None:
            return None
        node = lookup_attribute(modules, module, attribute)
        inst = instance_of(node) if node is not None else None
        if inst is None:
            return None
        return env_types(inst, vector_env_info_of(modules), "terminated_truncated")

    # -- hooks -------------------------------------------------------------------------

    def check_id(self, ctx: FunctionSigContext) -> FunctionLike:
        """Report an unknown literal id.

        This runs as a signature hook because mypy resolves `make`'s overloads by checking
        each one with errors muted, and an error from the return-type hook would only make
        the overload look like a mismatch. mypy calls it once per overload item and drops
        the duplicate messages.
        """
        if ctx.args and len(ctx.args[0]) == 1:
            env_id = _literal_expr(ctx.args[0][0])
            if env_id is not None and self.known(env_id) is None and not _prefixed(env_id):
                ctx.api.fail(self.unknown_id_message(env_id), ctx.context, code=ENV_ID)
        return ctx.default_signature

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

    def make(self, ctx: FunctionContext) -> Type:
        env_id = literal_str(ctx, 0)
        env = self.known(env_id) if env_id is not None else None
        names = wrapper_names(ctx)
        types = self.types_of(env) if env is not None else None
        wrapped = self.through_wrappers(names, types) if types and names is not None else None
        if wrapped is None:
            return ctx.default_return_type
        outer, inner = wrapped
        return refine(ctx.default_return_type, outer, inner)

    def make_vec(self, ctx: FunctionContext) -> Type:
        """Sync/async: the single env's types, batched; native: the vector class's types."""
        env_id = literal_str(ctx, 0)
        env = self.known(env_id) if env_id is not None else None
        names = wrapper_names(ctx)
        if env is None or names is None:
            return ctx.default_return_type
        mode: str | None
        if passes_value(ctx, "vectorization_mode"):
            mode_index = formal_index(ctx, "vectorization_mode")
            mode = literal_str(ctx, mode_index) if mode_index is not None else None
        else:
            mode = "vector_entry_point" if env.vector_entry_point else "sync"
        types: EnvTypes | None = None
        if mode == "vector_entry_point" and not names:
            types = self.vector_types(env)
        elif mode in ("sync", "async"):
            single = self.types_of(env)
            wrapped = self.through_wrappers(names, single) if single is not None else None
            if wrapped is not None:
                batcher = Batcher(ctx.api, self._lookup)
                types = EnvTypes(batcher.batched(wrapped[0].obs), batcher.batched(wrapped[0].act))
        if types is None:
            return ctx.default_return_type
        return refine(ctx.default_return_type, types)



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


def _prefixed(env_id: str) -> bool:
    """Whether `env_id` reaches another library's registry (``gymnasium:...``): its types
    are unknown until run time, so it is typed like any env, never an unknown id."""
    from protogym.registration.registry import BUILTIN_ID_PREFIXES

    prefix, colon, _ = env_id.partition(":")
    return bool(colon) and prefix in BUILTIN_ID_PREFIXES
