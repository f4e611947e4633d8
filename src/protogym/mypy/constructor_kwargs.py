"""Checks the keyword arguments that `make`/`make_vec`/`wrap` pass on to a constructor.

`make("FrozenLake-v1", is_slipery=False)` hands `is_slipery` to `FrozenLakeEnv(...)` at run
time, where it fails; here it fails at type-check time instead, with the constructor's
parameters in the message. Only arguments that reach the constructor (those caught by
``**kwargs``) are checked, by name and by type.
"""

from __future__ import annotations

import difflib

from mypy.errorcodes import ErrorCode
from mypy.messages import format_type
from mypy.nodes import (
    ARG_NAMED,
    ARG_NAMED_OPT,
    ARG_OPT,
    ARG_POS,
    ARG_STAR2,
    CallExpr,
    SymbolNode,
    TypeInfo,
)
from mypy.plugin import FunctionSigContext
from mypy.subtypes import is_subtype
from mypy.typeops import type_object_type
from mypy.types import CallableType, Overloaded, ProperType, get_proper_type

ENV_KWARGS = ErrorCode(
    "protogym-kwargs", "A keyword argument that the env or wrapper constructor rejects", "protogym"
)
_KEYWORD_KINDS = (ARG_POS, ARG_OPT, ARG_NAMED, ARG_NAMED_OPT)


def constructor_of(node: SymbolNode, ctx: FunctionSigContext) -> CallableType | None:
    """The signature that builds the entry point: a class's constructor or a factory."""
    typ: ProperType | None
    if isinstance(node, TypeInfo):
        typ = type_object_type(node, lambda name: ctx.api.named_generic_type(name, []))
    else:
        typ = get_proper_type(getattr(node, "type", None))
    if isinstance(typ, Overloaded):
        return None  # which item applies is not known before the call is checked
    return typ if isinstance(typ, CallableType) else None


def passed_kwargs(ctx: FunctionSigContext) -> list[tuple[str, int]]:
    """``(name, index into the call's arguments)`` for each argument caught by ``**kwargs``."""
    sig = ctx.default_signature
    if ARG_STAR2 not in sig.arg_kinds or not isinstance(ctx.context, CallExpr):
        return []
    caught = ctx.args[sig.arg_kinds.index(ARG_STAR2)]
    call = ctx.context
    found = []
    for index, (arg, name) in enumerate(zip(call.args, call.arg_names, strict=True)):
        if name is not None and any(arg is expr for expr in caught):
            found.append((name, index))
    return found


def check_kwargs(
    ctx: FunctionSigContext, constructor: CallableType, owner: str, skip: frozenset[str]
) -> None:
    """Report each ``**kwargs`` argument that `constructor` (of `owner`) does not take."""
    if not isinstance(ctx.context, CallExpr):
        return
    accepted = {
        name: typ
        for name, kind, typ in zip(
            constructor.arg_names, constructor.arg_kinds, constructor.arg_types, strict=True
        )
        if name is not None and kind in _KEYWORD_KINDS
    }
    takes_any = ARG_STAR2 in constructor.arg_kinds
    options = ctx.api.options
    for name, index in passed_kwargs(ctx):
        if name in skip:
            continue
        wanted = accepted.get(name)
        if wanted is None:
            if takes_any:
                continue
            params = ", ".join(n for n in accepted if n not in skip) or "no keyword arguments"
            close = difflib.get_close_matches(name, list(accepted), n=1)
            hint = f'; did you mean "{close[0]}"?' if close else ""
            ctx.api.fail(
                f'{owner} has no parameter "{name}"{hint} (it takes: {params})',
                ctx.context,
                code=ENV_KWARGS,
            )
            continue
        got = ctx.api.get_expression_type(ctx.context.args[index], wanted)
        if not is_subtype(got, wanted, options=options):
            ctx.api.fail(
                f'Argument "{name}" of {owner} has type {format_type(got, options)}, '
                f"expected {format_type(wanted, options)}",
                ctx.context,
                code=ENV_KWARGS,
            )

