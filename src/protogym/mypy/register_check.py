"""Checks `register(id=..., entry_point=...)` calls: the entry point resolves to an env.

A ``"module:attribute"`` string must name a module that exists and an attribute in it; the
class (or the class a factory returns) must satisfy the `Env` protocol for the `api` it is
registered with. A class passed directly is checked the same way. Each problem is its own
error naming the member that fails, so the fix is obvious from the message.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from mypy.errorcodes import ErrorCode
from mypy.nodes import MypyFile
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import CallableType, Instance, Overloaded, Type, get_proper_type

from protogym.mypy.deps import ENTRY_POINT_RE, ModuleLocator
from protogym.mypy.env_types import env_info_of, env_problems, instance_of, lookup_attribute
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
        index = formal_index(ctx, "entry_point")
        if index is None or len(ctx.args[index]) != 1:
            return ctx.default_return_type
        id_index = formal_index(ctx, "id")
        env_id = literal_str(ctx, id_index) if id_index is not None else None
        api_index = formal_index(ctx, "api")
        api = (literal_str(ctx, api_index) if api_index is not None else None) or _DEFAULT_API
        label = f'Entry point of "{env_id}"' if env_id is not None else "Entry point"
        text = literal_str(ctx, index)
        if text is not None:
            inst = self._resolve(ctx, text, label)
        else:
            inst = _instance_from_type(ctx.arg_types[index][0])
        if inst is None:
            return ctx.default_return_type
        options = ctx.api.options
        for problem in env_problems(inst, env_info_of(self._modules()), api, options):
            ctx.api.fail(f"{label}: {problem}", ctx.context, code=ENV_PROTOCOL)
        return ctx.default_return_type

    def _resolve(
        self, ctx: FunctionContext | MethodContext, text: str, label: str
    ) -> Instance | None:
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
        inst = instance_of(node)
        return inst


def _instance_from_type(typ: Type) -> Instance | None:
    """The env a class object or a factory passed directly would build."""
    proper = get_proper_type(typ)
    if isinstance(proper, Overloaded):
        proper = proper.items[0]
    if not isinstance(proper, CallableType):
        return None
    ret = get_proper_type(proper.ret_type)
    return ret if isinstance(ret, Instance) else None
