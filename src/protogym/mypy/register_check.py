"""Checks `register(id=..., entry_point=...)` calls: the entry point resolves to an env.

A ``"module:attribute"`` string must name a module that exists and an attribute in it; the
class (or the class a factory returns) must satisfy the `Env` protocol for the `api` it is
registered with. A class passed directly is checked the same way. A `vector_entry_point`
must build a `VectorEnv` and accept `num_envs`. Each problem is its own error naming the
member that fails, so the fix is obvious from the message.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from mypy.errorcodes import ErrorCode
from mypy.nodes import ARG_STAR2, MypyFile, SymbolNode, TypeInfo
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import CallableType, Instance, Overloaded, Type, get_proper_type

from protogym.mypy.deps import ENTRY_POINT_RE, ModuleLocator
from protogym.mypy.env_types import (
    env_info_of,
    env_problems,
    instance_of,
    lookup_attribute,
    vector_env_info_of,
    vector_env_problems,
)
from protogym.mypy.make_types import formal_index, literal_str

ENTRY_POINT = ErrorCode(
    "protogym-entry-point", "An env entry point that does not resolve", "protogym"
)
ENV_PROTOCOL = ErrorCode(
    "protogym-env-protocol", "A registered class that is not a protogym env", "protogym"
)
_DEFAULT_API = "terminated_truncated"


class RegisterChecker:
    """The hook for `protogym.register` and a plugin's `registry.register`."""

    def __init__(self, locator: ModuleLocator, modules: Callable[[], dict[str, MypyFile]]) -> None:
        self._locator = locator
        self._modules = modules

    def check(self, ctx: FunctionContext | MethodContext) -> Type:
        id_index = formal_index(ctx, "id")
        env_id = literal_str(ctx, id_index) if id_index is not None else None
        api_index = formal_index(ctx, "api")
        api = (literal_str(ctx, api_index) if api_index is not None else None) or _DEFAULT_API
        of_id = f' of "{env_id}"' if env_id is not None else ""
        modules = self._modules()
        options = ctx.api.options
        label = f"Entry point{of_id}"
        env, _ = self._target(ctx, "entry_point", label)
        if env is not None:
            for problem in env_problems(env, env_info_of(modules), api, options):
                ctx.api.fail(f"{label}: {problem}", ctx.context, code=ENV_PROTOCOL)
        label = f"Vector entry point{of_id}"
        vector, constructor = self._target(ctx, "vector_entry_point", label)
        if vector is not None:
            problems = vector_env_problems(vector, vector_env_info_of(modules), options)
            if constructor is not None and not _accepts_keyword(constructor, "num_envs"):
                problems.append(
                    f'"{vector.type.fullname}" does not accept num_envs; make_vec builds a '
                    "native vector env as entry_point(num_envs=n, **kwargs)"
                )
            for problem in problems:
                ctx.api.fail(f"{label}: {problem}", ctx.context, code=ENV_PROTOCOL)
        return ctx.default_return_type

    def _target(
        self, ctx: FunctionContext | MethodContext, formal: str, label: str
    ) -> tuple[Instance | None, CallableType | None]:
        """What the entry point passed as `formal` builds, and the callable that builds it."""
        index = formal_index(ctx, formal)
        if index is None or len(ctx.args[index]) != 1:
            return None, None
        text = literal_str(ctx, index)
        if text is None:
            callee = _callable(ctx.arg_types[index][0])
            if callee is None:
                return None, None
            ret = get_proper_type(callee.ret_type)
            return (ret if isinstance(ret, Instance) else None), callee
        node = self._resolve(ctx, text, label)
        if node is None:
            return None, None
        if isinstance(node, TypeInfo):
            init = node.get_method("__init__")
            constructor = _callable(init.type) if init is not None and init.type else None
            return instance_of(node), constructor
        return instance_of(node), _callable(getattr(node, "type", None))

    def _resolve(
        self, ctx: FunctionContext | MethodContext, text: str, label: str
    ) -> SymbolNode | None:
        """The node ``"module:attribute"`` names, or None after reporting why there is none."""
        match = ENTRY_POINT_RE.match(text)
        if match is None:
            ctx.api.fail(
                f'{label}: "{text}" is not of the form "module:attribute" (for example '
                '"my_package.envs:Corridor")',
                ctx.context,
                code=ENTRY_POINT,
            )
            return None
        module, attribute = match.group("module"), match.group("attr")
        modules = self._modules()
        tree = modules.get(module)
        if tree is None:
            if self._locator.status(module) == "missing":
                ctx.api.fail(
                    f'{label}: no module named "{module}" (in entry point "{text}") is in the '
                    "checked code or installed",
                    ctx.context,
                    code=ENTRY_POINT,
                )
            # A module installed without types: it exists, but mypy cannot look inside.
            return None
        node = lookup_attribute(modules, module, attribute)
        if node is None and "__getattr__" in tree.names:
            return None  # the module makes attributes at run time: nothing to look up
        if node is None:
            public = [name for name in tree.names if not name.startswith("_")]
            close = difflib.get_close_matches(attribute.split(".")[0], public, n=3)
            hint = "; did you mean " + " or ".join(f'"{c}"' for c in close) + "?" if close else ""
            ctx.api.fail(
                f'{label}: module "{module}" has no attribute "{attribute}"{hint}',
                ctx.context,
                code=ENTRY_POINT,
            )
            return None
        return node


def _callable(typ: Type | None) -> CallableType | None:
    """A class object's constructor or a function's signature (an overload's first item)."""
    proper = get_proper_type(typ)
    if isinstance(proper, Overloaded):
        proper = proper.items[0]
    return proper if isinstance(proper, CallableType) else None


def _accepts_keyword(callee: CallableType, name: str) -> bool:
    return name in callee.arg_names or ARG_STAR2 in callee.arg_kinds
