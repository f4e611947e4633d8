"""`check_env`: drive an env through the contract and report every rule it breaks.

A made env is checked through the wrappers `make` itself applies (the passive checker,
order enforcing, the time limit, render collection), so the checks see what an agent of the
registered env sees. Other wrappers above them are looked through and left untouched (hint
PG304): a normaliser or a frame stack would change state under the check and make seeded
resets look irreproducible, and `StepCompatibility(return_two_dones=False)` breaks the
5-tuple contract on purpose. How the env is written (reset's signature, its generator) is
read from the innermost env. A `PassiveEnvChecker` inside the stack is muted while the
check runs, as its findings would only repeat these. Nothing is replaced or re-wrapped.
"""

from __future__ import annotations

import copy
import functools
import inspect
import warnings
from collections.abc import Callable, Collection, Mapping
from itertools import combinations
from typing import Any, TypeVar, cast

import numpy as np

from protogym.checker import passive
from protogym.checker.report import _PASSIVE_MUTED, CheckReport, Findings, validate_skip
from protogym.core import Env

__all__ = [
    "StopChecks",
    "check_data_reuse",
    "check_env",
    "check_reset_seeding",
    "check_step_determinism",
    "data_equal",
    "env_factory",
    "run_checks",
]

_T = TypeVar("_T")
_SEED = 123
_OTHER_SEED = 456
_ACTION_SAMPLES = 10


class StopChecks(Exception):  # noqa: N818 - a signal, not an error
    """A finding that leaves nothing further to check; `run_checks` catches it."""


def check_env(
    env: Any,
    warn: bool = True,
    skip_render_check: bool = True,
    *,
    skip: Collection[str] = (),
    skip_close_check: bool = False,
) -> CheckReport:
    """Check `env` against the environment contract and return what was found.

    Contract errors (``PG1xx``) raise `ContractError` (an `AssertionError`) after every other
    check has run, with the full report attached as ``.report``; warnings (``PG2xx``) are
    issued as `CheckerWarning` unless `warn` is False; hints (``PG3xx``) are only reported.
    `skip` silences rules by id for this call. Rendering is checked (the env's own mode, and
    every declared mode when the env has a spec or takes ``render_mode=``) unless
    `skip_render_check`. Unless `skip_close_check` (Gymnasium's keyword), a second env built
    from the spec is closed twice. The env is reset and stepped with seeds 123 and 456.
    """
    findings = Findings(describe(env), validate_skip(skip))
    run_checks(findings, lambda f: _run(env, f, skip_render_check=skip_render_check,
                                        skip_close_check=skip_close_check))
    return findings.emit(warn=warn)


def run_checks(findings: Findings, checks: Callable[[Findings], object]) -> Findings:
    """Run `checks` into `findings` with any `PassiveEnvChecker` muted, stopping quietly at
    `StopChecks`; the caller emits. Gymnasium's single-check entry points use this too."""
    token = _PASSIVE_MUTED.set(True)
    try:
        checks(findings)
    except StopChecks:
        pass
    finally:
        _PASSIVE_MUTED.reset(token)
    return findings


def describe(env: object) -> str:
    """A short name for reports: the env's class, and its id when it has a spec."""
    inner = bare(env)
    spec_id = getattr(getattr(env, "spec", None), "id", None)
    name = type(inner).__name__
    return f"{name}<{spec_id}>" if spec_id else name


def layers(env: Any) -> list[Any]:
    """The stack from `env` inward, following `.env` down to the innermost new-API env.

    Stops at a `LegacyEnvAdapter`: the old-API env below it is not held to the new contract.
    """
    from protogym.compat import LegacyEnvAdapter

    stack = [env]
    while not isinstance(env, LegacyEnvAdapter):
        inner = getattr(env, "env", None)
        if inner is None or not isinstance(inner, Env):
            break
        stack.append(inner)
        env = inner
    return stack


def bare(env: Any) -> Any:
    """The innermost new-API env, for checks of how it is written rather than how it behaves."""
    return layers(env)[-1]


def _standard_layers() -> tuple[type, ...]:
    """The wrappers `make` puts around every env: checking through them disturbs nothing."""
    from protogym.registration.make import _Made
    from protogym.wrappers.common import OrderEnforcing, TimeLimit
    from protogym.wrappers.env_checker import PassiveEnvChecker
    from protogym.wrappers.rendering import HumanRendering, RenderCollection

    return (PassiveEnvChecker, OrderEnforcing, TimeLimit, RenderCollection, HumanRendering,
            _Made)


def contract_layer(env: Any) -> tuple[Any, list[str]]:
    """The layer to drive, and the names of the wrappers above it that are looked through.

    For a made env, that is the outermost layer reached from the bare env through `make`'s
    own wrappers; a stack without any of them was built by the caller and is driven whole
    (below a legacy-API layer). Any other wrapper on a made env (a normaliser, a frame
    stack, a video recorder, the legacy-API `StepCompatibility`) is left alone: driving it
    would change its state, and its statistics would make seeded resets look irreproducible.
    """
    stack = layers(env)
    standard = _standard_layers()
    if any(isinstance(layer, standard) for layer in stack):
        index = len(stack) - 1
        while index > 0 and isinstance(stack[index - 1], standard):
            index -= 1
    else:  # not made: the caller built this stack and asks about all of it
        index = 0
        while index < len(stack) - 1 and getattr(stack[index], "return_two_dones", 1) is False:
            index += 1
    skipped = [
        type(layer).__name__ for layer in stack[:index]
        if getattr(layer, "return_two_dones", True) is not False
    ]
    return stack[index], skipped


def _run(env: Any, f: Findings, *, skip_render_check: bool, skip_close_check: bool) -> None:
    if not passive.check_env_members(env, f):
        raise StopChecks
    env, looked_through = contract_layer(env)
    if looked_through:
        f.add("PG304", f"Checked {describe(env)} through make's own wrappers only; "
                       f"{', '.join(looked_through)} above it was left alone.")
    action_space, observation_space = env.action_space, env.observation_space
    spaces_ok = passive.check_space(action_space, "action", f, hints=True)
    spaces_ok &= passive.check_space(observation_space, "observation", f, hints=True)
    if not spaces_ok:
        raise StopChecks
    _check_samples(action_space, "action_space", f)
    _check_samples(observation_space, "observation_space", f)
    if f.has_errors:
        raise StopChecks  # the calls below sample these spaces

    signature_ok = passive.check_reset_signature(bare(env), f)
    result = _call(f, "reset()", env.reset)
    if passive.check_reset_result(result, observation_space, f) is None:
        if passive.returned_obs_only(result, observation_space):
            _probe_legacy_step(env, action_space, f)
        raise StopChecks
    if not signature_ok:
        raise StopChecks  # every check below passes seed= or options=
    _call(f, "reset(options={})", lambda: env.reset(options={}))

    nondeterministic = bool(getattr(getattr(env, "spec", None), "nondeterministic", False))
    check_reset_seeding(env, f, check_values=not nondeterministic)
    _check_valid_actions(env, f)
    if not nondeterministic and not _fired(f, "PG130"):
        check_step_determinism(env, f)  # meaningless when the start already differs
    check_data_reuse(env, f)
    if not skip_render_check:
        _check_rendering(env, f)
    if not skip_close_check:
        _check_close_twice(env, f)


def _fired(f: Findings, rule: str) -> bool:
    """Whether `rule` fired, silenced or not."""
    return any(r.id == rule for r in (*f.report.results, *f.report.silenced))


def _call(f: Findings, what: str, fn: Callable[[], _T]) -> _T:
    try:
        return fn()
    except Exception as exc:
        f.add("PG104", f"{what} raised {type(exc).__name__}: {exc}")
        raise StopChecks from exc


def _seeded_copy(space: _T, seed: int) -> _T:
    """A copy of `space` with its own generator, so checking never moves the env's stream."""
    clone = copy.deepcopy(space)
    clone.seed(seed)  # type: ignore[attr-defined]
    return clone


def _check_samples(space: Any, path: str, f: Findings) -> None:
    """PG102: samples of a space must lie in it and have its declared shape and dtype."""
    try:
        clone = _seeded_copy(space, 0)
        samples = [clone.sample() for _ in range(5)]
    except Exception as exc:
        f.add("PG102", f"{path}.sample() raised {type(exc).__name__}: {exc}")
        return
    for sample in samples:
        if not passive._in_space(sample, space):
            f.add("PG102", f"{path}.sample() returned {passive._short(sample)}, which "
                           f"{path} does not contain.")
            return
        if isinstance(sample, np.ndarray) and (
            (space.shape is not None and sample.shape != tuple(space.shape))
            or (space.dtype is not None and sample.dtype != space.dtype)
        ):
            f.add("PG102", f"{path}.sample() returned an array of shape {sample.shape} and "
                           f"dtype {sample.dtype}; the space declares shape {space.shape} "
                           f"and dtype {space.dtype}.")
            return


def _probe_legacy_step(env: Any, action_space: Any, f: Findings) -> None:
    """After an obs-only reset, say whether step() is the legacy 4-tuple as well."""
    try:
        result = env.step(_seeded_copy(action_space, _SEED).sample())
    except Exception:
        return
    if isinstance(result, tuple) and len(result) == 4:
        passive.check_step_result(result, env.observation_space, f)


def _snapshot(value: _T) -> _T:
    try:
        return copy.deepcopy(value)
    except Exception:  # unpicklable data is compared as it is
        return value


def _rng_state(env: Any) -> dict[str, Any] | None:
    """The bit-generator state of the innermost env's `np_random`, if it keeps one."""
    inner = bare(env)
    # Never read the env's __dict__ (CPython 3.11 would slow its attribute reads for good),
    # and never trigger a lazy `np_random` property, which would create a generator.
    generator = getattr(inner, "_np_random", None)
    if not isinstance(generator, np.random.Generator) and not isinstance(
        inspect.getattr_static(type(inner), "np_random", None), property
    ):
        generator = getattr(inner, "np_random", None)
    if isinstance(generator, np.random.Generator):
        return dict(generator.bit_generator.state)
    return None


def _explicit_subclass(env: Any) -> bool:
    return Env in type(bare(env)).__mro__


def _reset(env: Any, f: Findings, what: str, **kwargs: Any) -> Any:
    result = _call(f, what, lambda: env.reset(**kwargs))
    checked = passive.check_reset_result(result, env.observation_space, f, where=what)
    if checked is None:
        raise StopChecks
    return _snapshot(checked[0])


def _step(
    env: Any, f: Findings, action: Any, *, validate: bool = True
) -> tuple[Any, Any, Any, Any, Any]:
    """One step; the result's rules too unless `validate` is False (then only its length)."""
    try:
        result = env.step(action)
    except Exception as exc:
        f.add("PG124", f"step({passive._short(action)}) raised {type(exc).__name__}: {exc}")
        raise StopChecks from exc
    if not validate and isinstance(result, tuple) and len(result) == 5:
        return result
    checked = passive.check_step_result(result, env.observation_space, f)
    if checked is None:
        raise StopChecks
    return checked


def check_reset_seeding(env: Any, f: Findings, *, check_values: bool) -> None:
    """PG130/PG131: reset(seed=s) gives the same start (and stream) from any state."""
    first = _reset(env, f, f"reset(seed={_SEED})", seed=_SEED)
    rng_first = _rng_state(env)
    if rng_first is None and _explicit_subclass(env):
        f.add("PG131", "After reset(seed=123) the env has no np_random generator.")
    following = _reset(env, f, "reset()")
    actions = _seeded_copy(env.action_space, _SEED)
    for _ in range(3):
        _, _, terminated, truncated, _ = _step(env, f, actions.sample())
        if terminated or truncated:
            break
    again = _reset(env, f, f"reset(seed={_SEED}) after steps", seed=_SEED)
    rng_again = _rng_state(env)
    following_again = _reset(env, f, "reset()")
    _reset(env, f, f"reset(seed={_OTHER_SEED})", seed=_OTHER_SEED)
    rng_other = _rng_state(env)
    _step(env, f, actions.sample())
    third = _reset(env, f, f"reset(seed={_SEED}) after reset(seed={_OTHER_SEED})", seed=_SEED)
    rng_third = _rng_state(env)

    if check_values:
        _compare(f, "PG130", "observation of reset(seed=123)", first, again,
                 "after steps and other resets")
        _compare(f, "PG130", "observation of reset(seed=123)", first, third,
                 "after reset(seed=456) and a step")
        _compare(f, "PG130", "observation of the reset() that follows reset(seed=123)",
                 following, following_again, "on the second try")
    if rng_first is None or rng_again is None or rng_other is None or rng_third is None:
        return  # no generator to compare (PG131 above for an explicit subclass)
    if rng_first != rng_again or rng_first != rng_third:
        f.add("PG131", "reset(seed=123) twice left np_random in different states.")
    if rng_first == rng_other:
        f.add("PG131", "reset(seed=123) and reset(seed=456) left np_random in the same state.")


def _compare(f: Findings, rule: str, what: str, first: Any, second: Any, when: str) -> None:
    if not data_equal(first, second):
        f.add(rule, f"The {what} differed {when}: {passive._short(first)} vs "
                    f"{passive._short(second)}.")
    elif not data_equal(first, second, exact=True):
        f.add("PG214", f"The {what} was close but not equal {when}.")


def _check_valid_actions(env: Any, f: Findings) -> None:
    """PG124 and the step-result rules over a few sampled actions."""
    actions = _seeded_copy(env.action_space, _SEED + 1)
    _reset(env, f, f"reset(seed={_SEED})", seed=_SEED)
    for _ in range(_ACTION_SAMPLES):
        _, _, terminated, truncated, _ = _step(env, f, actions.sample())
        if terminated or truncated:
            _reset(env, f, "reset()")


def check_step_determinism(
    env: Any, f: Findings, seed: int = _SEED, *, validate: bool = True
) -> None:
    """PG132/PG214/PG213: the same seed and action give the same transition.

    Without `validate` only determinism is judged, not whether the results are valid.
    """
    action = _seeded_copy(env.action_space, seed).sample()
    _reset(env, f, f"reset(seed={seed})", seed=seed)
    first = _snapshot(_step(env, f, action, validate=validate))
    rng_first = _rng_state(env)
    _reset(env, f, f"reset(seed={seed})", seed=seed)
    second = _step(env, f, action, validate=validate)
    rng_second = _rng_state(env)
    for index, name in enumerate(("observation", "reward", "terminated", "truncated", "info")):
        _compare(f, "PG132", f"{name} of step() after reset(seed={seed})", first[index],
                 second[index], "for the same action")
    if rng_first != rng_second:
        f.add("PG132", "The same seed and action left np_random in different states.")
    if first[3] and not first[2]:
        f.add("PG213", "step() returned truncated=True on the first step after reset.")


def check_data_reuse(env: Any, f: Findings, seed: int = _SEED) -> None:
    """PG133: no two calls return the same mutable observation or info."""
    actions = _seeded_copy(env.action_space, seed)
    calls: list[tuple[str, Any, Any]] = []
    result = env.reset(seed=seed)
    calls.append(("reset() (call 1)", result[0], result[1]))
    for _ in range(2):
        obs, _, terminated, truncated, info = _step(env, f, actions.sample())
        calls.append((f"step() (call {len(calls) + 1})", obs, info))
        if terminated or truncated:
            break
    result = env.reset(seed=seed)
    calls.append((f"reset() (call {len(calls) + 1})", result[0], result[1]))
    for (first, obs_1, info_1), (second, obs_2, info_2) in combinations(calls, 2):
        for what, a, b in (("observations", obs_1, obs_2), ("infos", info_1, info_2)):
            if passive.shares_data(a, b):
                f.add("PG133", f"The {what} returned by {first} and {second} share an object.")


def _check_rendering(env: Any, f: Findings) -> None:
    """PG140-PG142, PG240-PG242 for the env's mode, then PG303 or a fresh env per mode."""
    if env.render_mode is not None:
        _call(f, "render()", lambda: passive.check_render(env, f))
    else:
        passive.check_render_metadata(env, f)
    modes = env.metadata.get("render_modes")
    if not isinstance(modes, list | tuple) or not modes:
        return
    build = env_factory(env)
    if build is None:
        tested = "none" if env.render_mode is None else f"only {env.render_mode!r}"
        f.add("PG303", f"{describe(env)} has no spec to rebuild it with another render_mode, "
                       f"so {tested} of {list(modes)!r} was tested.")
        return
    for mode in modes:
        if mode != env.render_mode and isinstance(mode, str):
            _check_other_mode(build, mode, f)


def _check_other_mode(build: Callable[..., Any], mode: str, f: Findings) -> None:
    other = _call(f, f"building the env with render_mode={mode!r}",
                  lambda: _quietly(build, render_mode=mode))
    try:
        _call(f, f"reset() with render_mode={mode!r}", lambda: other.reset(seed=_SEED))
        if other.render_mode != mode:
            f.add("PG140", f"The env built with render_mode={mode!r} reports render_mode="
                           f"{other.render_mode!r}.")
        _call(f, f"render() with render_mode={mode!r}", lambda: passive.check_render(other, f))
    finally:
        other.close()


def env_factory(env: Any) -> Callable[..., Any] | None:
    """A function building the same env again from its spec (keywords such as
    ``render_mode=`` change it), or None without a spec.

    Without a spec the constructor's arguments are unknown, and rebuilding from the class
    with defaults would check a different env. A spec whose entry point names the class of
    the very env being checked is trusted: that class is imported already, so rebuilding
    imports nothing new (a spec read from a file is still refused by `make`).
    """
    spec = getattr(env, "spec", None)
    build = getattr(spec, "make", None)
    if not callable(build):
        return None
    from protogym.registration.env_spec import EnvSpec

    # Another library's spec (Gymnasium's) is rebuilt by its own `make`.
    if isinstance(spec, EnvSpec) and _names_class(getattr(spec, "entry_point", None),
                                                  type(bare(env))):
        from protogym.registration.make import make

        return functools.partial(make, spec, trust_entry_points=True)
    return cast("Callable[..., Any]", build)


def _quietly(build: Callable[..., _T], **kwargs: Any) -> _T:
    """`build(**kwargs)` without its warnings: making the env again repeats what making the
    checked env already said."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build(**kwargs)


def _names_class(entry_point: object, cls: type) -> bool:
    """Whether `entry_point` is `cls` itself or its ``"module:QualName"`` path."""
    if entry_point is cls:
        return True
    return entry_point == f"{cls.__module__}:{cls.__qualname__}"


def _check_close_twice(env: Any, f: Findings) -> None:
    """PG250 on a fresh copy of the env (the caller's env stays open)."""
    build = env_factory(env)
    if build is None:
        return
    other = _call(f, "building a second env to close", lambda: _quietly(build))
    other.close()
    try:
        other.close()
    except Exception as exc:
        f.add("PG250", f"The second close() raised {type(exc).__name__}: {exc}")


def data_equal(first: Any, second: Any, *, exact: bool = False) -> bool:
    """Structural equality of returned data; arrays within 1e-5 unless `exact`."""
    if type(first) is not type(second):
        return False
    if isinstance(first, Mapping):
        return first.keys() == second.keys() and all(
            data_equal(first[k], second[k], exact=exact) for k in first
        )
    if isinstance(first, tuple | list):
        return len(first) == len(second) and all(
            data_equal(a, b, exact=exact) for a, b in zip(first, second, strict=True)
        )
    if not isinstance(first, np.ndarray) and hasattr(first, "__array__") and hasattr(
        first, "dtype"
    ):  # a jax (or torch) array, as functional envs return: compared as numpy
        first, second = np.asarray(first), np.asarray(second)
    if isinstance(first, np.ndarray):
        if first.shape != second.shape or first.dtype != second.dtype:
            return False
        if first.dtype == object:
            return all(data_equal(a, b, exact=exact)
                       for a, b in zip(first.flat, second.flat, strict=True))
        if exact or first.dtype.kind not in "fc":
            return bool(np.array_equal(first, second, equal_nan=first.dtype.kind in "fc"))
        return bool(np.allclose(first, second, rtol=1e-5, atol=1e-5, equal_nan=True))
    if isinstance(first, float | np.floating):
        if exact:
            return bool(first == second or (np.isnan(first) and np.isnan(second)))
        return bool(np.isclose(first, second, rtol=1e-5, atol=1e-5, equal_nan=True))
    try:
        return bool(first == second)
    except Exception:
        return first is second
