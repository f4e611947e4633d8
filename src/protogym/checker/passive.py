"""Checks that look at what an env declares or returns without calling it in new ways.

Both `PassiveEnvChecker` (on the first reset, step and render of a made env) and `check_env`
use these, so one rule means the same thing everywhere. Spaces are recognised by class name
(`Box`, `Discrete`, ...) anywhere in their MRO, so protogym's spaces, Gymnasium's and
look-alikes are checked by the same code without importing any of them.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping
from itertools import repeat
from typing import Any

import numpy as np

from protogym.checker.report import Findings
from protogym.core import ENV_MEMBERS, missing_env_members
from protogym.spaces.box import Box
from protogym.spaces.discrete import Discrete
from protogym.spaces.space import Space

__all__ = [
    "check_action",
    "check_env_members",
    "check_obs",
    "check_render",
    "check_reset_result",
    "check_reset_signature",
    "check_return_info",
    "check_seed_method",
    "check_space",
    "check_step_result",
    "is_bool",
    "returned_obs_only",
    "shares_data",
    "space_kind",
]

_KINDS = frozenset(
    {"Box", "Discrete", "MultiDiscrete", "MultiBinary", "Tuple", "Dict", "Text", "Sequence",
     "Graph", "OneOf"}
)

_LEGACY_FIX_RESET = (
    "Return `(observation, info)` from reset(); or, for an old-API env you cannot change, "
    "register it with protogym.register(..., api=\"done\") so make() converts it, or wrap "
    "it in StepCompatibility."
)
_LEGACY_FIX_STEP = (
    "Return `(obs, reward, terminated, truncated, info)` from step(); or, for an old-API env "
    "you cannot change, register it with protogym.register(..., api=\"done\") so make() "
    "converts it, or wrap it in StepCompatibility."
)


def space_kind(space: object) -> str | None:
    """The standard space class `space` is (or derives from), by name; None for others."""
    for cls in type(space).__mro__:
        if cls.__name__ in _KINDS:
            return cls.__name__
    return None


def is_bool(value: object) -> bool:
    """A Python bool or a numpy bool scalar: both are valid terminated/truncated flags."""
    return isinstance(value, bool | np.bool_)


def _short(value: object, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_env_members(env: object, f: Findings) -> bool:
    """PG100: the eight Env members exist and metadata is a mapping; False stops the check."""
    if hasattr(env, "num_envs") and hasattr(env, "single_observation_space"):
        f.add("PG100", f"{type(env).__name__} is a vector env; check it with "
                       "protogym.checker.check_vector_env.")
        return False
    # All present (the usual case) in one pass of C; the list of what lacks only when not.
    missing = [] if all(map(hasattr, repeat(env), ENV_MEMBERS)) else missing_env_members(env)
    if missing:
        # Only its spaces missing: an env that forgot them (Gymnasium's AttributeError);
        # anything else is not an env at all (TypeError).
        only_spaces = set(missing) <= {"action_space", "observation_space"}
        f.add("PG100", f"{type(env).__name__} lacks {', '.join(missing)}, so it is not an "
                       "environment.", raises=AttributeError if only_spaces else None)
        return False
    metadata = env.metadata  # type: ignore[attr-defined]
    if type(metadata) is not dict and not isinstance(metadata, Mapping):  # dict: quicker
        f.add("PG100", f"metadata must be a mapping such as a dict, got "
                       f"{type(metadata).__name__}.")
        return False
    return True


def check_space(space: object, role: str, f: Findings, *, hints: bool = False) -> bool:
    """PG101/PG102/PG200/PG205 (and PG300-PG302 with `hints`); False if it is no space."""
    # An explicit subclass answers from its MRO, without the metaclass's Python call.
    if Space not in type(space).__mro__ and not isinstance(space, Space):
        f.add("PG101", f"{role}_space is {_short(space)} ({type(space).__name__}), which is "
                       "not a Space.")
        return False
    _check_structure(space, role, f, hints=hints, path=f"{role}_space")
    return True


def _check_structure(space: Any, role: str, f: Findings, *, hints: bool, path: str) -> None:
    cls = type(space)
    if cls is Box:  # first, without the look-up by name: what `make`'s checker meets most
        _check_protogym_box(space, role, f, hints=hints, path=path)
        return
    kind = "Discrete" if cls is Discrete else space_kind(space)
    if kind == "Box":
        _check_box(space, role, f, hints=hints, path=path)
    elif kind == "Discrete":
        n = getattr(space, "n", None)
        if n is None or not n > 0:
            f.add("PG102", f"{path} is a Discrete space with n={n!r}; n must be positive.")
        if space.shape != ():
            f.add("PG102", f"{path} is a Discrete space with shape {space.shape}; it must be ().")
    elif kind == "MultiDiscrete":
        nvec = np.asarray(getattr(space, "nvec", ()))
        if space.shape != nvec.shape:
            f.add("PG102", f"{path} is a MultiDiscrete space of shape {space.shape} but its "
                           f"nvec has shape {nvec.shape}.")
        if not np.all(nvec > 0):
            f.add("PG102", f"{path} is a MultiDiscrete space with nvec={nvec.tolist()}; every "
                           "entry must be positive.")
    elif kind == "MultiBinary":
        if not np.all(np.asarray(space.shape) > 0):
            f.add("PG102", f"{path} is a MultiBinary space of shape {space.shape}; every axis "
                           "must be positive.")
    elif kind == "Tuple":
        subspaces = tuple(getattr(space, "spaces", ()))
        if not subspaces:
            f.add("PG102", f"{path} is an empty Tuple space.")
        for index, sub in enumerate(subspaces):
            _check_sub(sub, role, f, hints=hints, path=f"{path}[{index}]")
    elif kind == "Dict":
        subspaces_map: Mapping[str, Any] = getattr(space, "spaces", {})
        if not subspaces_map:
            f.add("PG102", f"{path} is an empty Dict space.")
        for key, sub in subspaces_map.items():
            _check_sub(sub, role, f, hints=hints, path=f"{path}[{key!r}]")


def _check_sub(space: object, role: str, f: Findings, *, hints: bool, path: str) -> None:
    if not isinstance(space, Space):
        f.add("PG101", f"{path} is {_short(space)}, which is not a Space.")
    else:
        _check_structure(space, role, f, hints=hints, path=path)


# Findings for protogym Boxes, keyed by the identity of their read-only bounds: boxes built
# from the same arguments share those arrays (see Box), so `make` checks each kind of space
# once. The entries hold the arrays, so their ids cannot be reused while cached.
_BOX_FINDINGS: dict[tuple[int, int, str, bool, str], tuple[Any, Any, list[tuple[str, str]]]] = {}
_BOX_FINDINGS_KEPT = 256


def _check_protogym_box(space: Box, role: str, f: Findings, *, hints: bool, path: str) -> None:
    low, high = space.low, space.high
    key = (id(low), id(high), role, hints, path)
    cached = _BOX_FINDINGS.get(key)
    if cached is None or cached[0] is not low or cached[1] is not high:
        scratch = Findings(f.report.target)
        _check_box(space, role, scratch, hints=hints, path=path)
        cached = (low, high, [(r.id, r.message) for r in scratch.report.results])
        if len(_BOX_FINDINGS) >= _BOX_FINDINGS_KEPT:
            del _BOX_FINDINGS[next(iter(_BOX_FINDINGS))]
        _BOX_FINDINGS[key] = cached
    for rule_id, message in cached[2]:
        f.add(rule_id, message)


def _check_box(space: Any, role: str, f: Findings, *, hints: bool, path: str) -> None:
    low, high, shape = np.asarray(space.low), np.asarray(space.high), space.shape
    if low.shape != shape or high.shape != shape:
        f.add("PG102", f"{path} is a Box of shape {shape} with low of shape {low.shape} and "
                       f"high of shape {high.shape}; both must have the Box's shape.")
        return
    if (high < low).any():
        f.add("PG102", f"{path} has low > high in some coordinate, so it is empty.")
    elif (low == high).any():
        f.add("PG200", f"{path} has low == high in some coordinate.")
    if role == "observation" and _looks_like_image(space, low, high):
        f.add("PG205", f"{path} looks like an image (shape {shape}, bounds 0..255) but has "
                       f"dtype {space.dtype}.")
    if not hints:
        return
    unbounded = bool(np.any(np.isinf(low.astype(np.float64)))
                     or np.any(np.isinf(high.astype(np.float64))))
    if role == "action":
        if unbounded:
            f.add("PG300", f"{path} has an infinite bound.")
        elif len(shape) == 1 and (
            np.any((low != 0) & (np.abs(low) != np.abs(high)))
            or np.any(low < -1) or np.any(high > 1)
        ):
            f.add("PG301", f"{path} has bounds low={low.tolist()} high={high.tolist()}.")
    elif unbounded:
        f.add("PG302", f"{path} has an infinite bound.")


def _looks_like_image(space: Any, low: np.ndarray[Any, Any], high: np.ndarray[Any, Any]) -> bool:
    shape = space.shape
    if len(shape) != 3 or np.dtype(space.dtype) == np.uint8:
        return False
    if shape[-1] not in (1, 3, 4) and shape[0] not in (1, 3, 4):
        return False
    return bool(np.all(low == 0) and np.all(high == 255))


def check_reset_signature(
    env: Any, f: Findings, *, needs: tuple[str, ...] = ("seed", "options"),
    deprecations: bool = True,
) -> bool:
    """PG103 for each of `needs` reset() cannot take, PG202 for a seed default other than
    None, and with `deprecations` PG203/PG204; False if a needed keyword is missing."""
    if deprecations:
        check_seed_method(env, f)
    try:
        params = inspect.signature(env.reset).parameters
    except (TypeError, ValueError):  # builtins and some C extensions have no signature
        return True
    var_kw = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    missing = [name for name in needs if name not in params and not var_kw]
    if missing:
        f.add("PG103", f"reset() does not accept {' or '.join(repr(m) for m in missing)}.")
    seed = params.get("seed")
    if seed is not None and seed.default is not None and seed.default is not seed.empty:
        f.add("PG202", f"reset()'s seed defaults to {seed.default!r}.")
    if deprecations:
        check_return_info(env, f)
    return not missing


def check_return_info(env: Any, f: Findings) -> None:
    """PG204 if reset() still takes the deprecated `return_info` argument."""
    try:
        params = inspect.signature(env.reset).parameters
    except (TypeError, ValueError):
        return
    if "return_info" in params:
        f.add("PG204", "reset() has a `return_info` parameter.")


def check_seed_method(env: Any, f: Findings) -> None:
    """PG203 if the env still has the deprecated seed() method."""
    if callable(getattr(env, "seed", None)):
        f.add("PG203", f"{type(env).__name__} defines seed().")


def check_obs(obs: object, space: Any, where: str, f: Findings) -> None:
    """PG114 for a Dict/Tuple observation of the wrong shape (and then nothing else), PG201
    for the wrong container or dtype, PG113 if `obs` is not in `space`."""
    if not _check_obs_type(obs, space, where, f):
        return
    try:
        inside = bool(space.contains(obs))
    except Exception as exc:  # a space that raises on foreign input still says "not in it"
        f.add("PG113", f"The observation from {where} is not in observation_space: "
                       f"contains() raised {type(exc).__name__}: {exc}.")
        return
    if not inside:
        detail = ""
        if isinstance(obs, np.ndarray):
            detail = f" (shape {obs.shape}, dtype {obs.dtype})"
        f.add("PG113", f"The observation from {where}, {_short(obs)}{detail}, is not in "
                       f"observation_space {_short(space)}.")


def _check_obs_type(obs: object, space: Any, where: str, f: Findings) -> bool:
    """PG201 and PG114 for `obs` and its items; False if PG114 fired (its shape is wrong)."""
    kind = space_kind(space)
    got = type(obs).__name__
    if kind == "Discrete":
        if isinstance(obs, bool | np.bool_) or not (
            type(obs) is int or (isinstance(obs, np.integer) and obs.dtype == space.dtype)
        ):
            f.add("PG201", f"The observation from {where} should be an int or a numpy "
                           f"{space.dtype} for a Discrete space, got {got}.")
    elif kind == "Box":
        if not isinstance(obs, np.ndarray):
            if space.shape != ():  # a scalar Box accepts Python and numpy scalars alike
                f.add("PG201", f"The observation from {where} should be a numpy array for a "
                               f"Box space, got {got}.")
        elif obs.dtype != space.dtype:
            f.add("PG201", f"The observation from {where} has dtype {obs.dtype}; the Box "
                           f"space's dtype is {space.dtype}.")
    elif kind in ("MultiBinary", "MultiDiscrete"):
        if not isinstance(obs, np.ndarray):
            f.add("PG201", f"The observation from {where} should be a numpy array for a "
                           f"{kind} space, got {got}.")
    elif kind == "Tuple":
        subspaces = tuple(space.spaces)
        if not isinstance(obs, tuple):
            f.add("PG201", f"The observation from {where} should be a tuple for a Tuple "
                           f"space, got {got}.")
        if isinstance(obs, tuple | list):
            if len(obs) != len(subspaces):
                f.add("PG114", f"The observation from {where} has {len(obs)} items; the "
                               f"Tuple space has {len(subspaces)} sub-spaces.")
                return False
            return all([_check_obs_type(item, sub, where, f)
                        for item, sub in zip(obs, subspaces, strict=True)])
    elif kind == "Dict":
        subspaces_map: Mapping[str, Any] = space.spaces
        if not isinstance(obs, dict):
            f.add("PG114", f"The observation from {where} should be a dict for a Dict space, "
                           f"got {got}.")
            return False
        if obs.keys() != subspaces_map.keys():
            f.add("PG114", f"The observation from {where} has the keys {sorted(obs, key=str)}; "
                           f"the Dict space has {sorted(subspaces_map)}.")
            return False
        return all([_check_obs_type(obs[key], sub, where, f)
                    for key, sub in subspaces_map.items()])
    return True


def check_reset_result(
    result: object, space: Any, f: Findings, *, where: str = "reset()"
) -> tuple[Any, dict[str, Any]] | None:
    """PG110/PG111/PG112 and the observation checks; the `(obs, info)` pair, or None."""
    if isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], dict):
        obs, info = result
        check_obs(obs, space, where, f)
        return obs, info
    if returned_obs_only(result, space):
        f.add("PG110", f"{where} returned only an observation, {_short(result)}: this is the "
                       "legacy Gym API.", _LEGACY_FIX_RESET)
    elif isinstance(result, tuple) and len(result) == 2:
        f.add("PG112", f"{where} returned an info of type {type(result[1]).__name__}, not a "
                       "dict.")
    else:
        shape = (f"a {len(result)}-tuple" if isinstance(result, tuple)
                 else type(result).__name__)
        f.add("PG111", f"{where} returned {shape}, not `(observation, info)`.")
    return None


def returned_obs_only(result: object, space: Any) -> bool:
    """Whether a reset result that is not `(obs, info)` is itself an observation (old API)."""
    return not (isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], dict)
                ) and _in_space(result, space)


def _in_space(value: object, space: Any) -> bool:
    try:
        return bool(space.contains(value))
    except Exception:
        return False


def check_step_result(
    result: object, space: Any, f: Findings, *, where: str = "step()"
) -> tuple[Any, Any, Any, Any, Any] | None:
    """PG120-PG123, PG112, PG201/PG113, PG210, PG211; the 5-tuple, or None if unusable."""
    if not isinstance(result, tuple):
        f.add("PG121", f"{where} returned {type(result).__name__}, not a tuple.")
        return None
    if len(result) == 4:
        f.add("PG120", f"{where} returned 4 values `(obs, reward, done, info)`: this is the "
                       "legacy Gym API.", _LEGACY_FIX_STEP)
        if not f.passive:
            return None
        # The passive checker only warns, as Gymnasium's does, and checks the rest.
        obs, reward, done, info = result
        flags: tuple[tuple[str, object], ...] = (("done", done),)
    elif len(result) == 5:
        obs, reward, terminated, truncated, info = result
        flags = (("terminated", terminated), ("truncated", truncated))
    else:
        f.add("PG121", f"{where} returned a {len(result)}-tuple, not "
                       "`(obs, reward, terminated, truncated, info)`.")
        return None
    for name, flag in flags:
        if not is_bool(flag):
            f.add("PG122", f"{where} returned {name}={_short(flag)} of type "
                           f"{type(flag).__name__}, not a bool.")
    check_obs(obs, space, where, f)
    if isinstance(reward, bool | np.bool_) or not isinstance(
        reward, int | float | np.integer | np.floating
    ):
        f.add("PG123", f"{where} returned reward={_short(reward)} of type "
                       f"{type(reward).__name__}, not a real number.")
    elif not math.isfinite(float(reward)):
        f.add("PG210", f"{where} returned reward={reward!r}.")
    if not isinstance(info, dict):
        f.add("PG112", f"{where} returned an info of type {type(info).__name__}, not a dict.")
    elif "TimeLimit.truncated" in info and len(result) == 5:  # the old API's own key
        f.add("PG211", f"{where} returned info['TimeLimit.truncated']="
                       f"{_short(info['TimeLimit.truncated'])}.")
    if len(result) == 4:
        return None
    return obs, reward, terminated, truncated, info


def check_action(action: object, space: Any, f: Findings) -> None:
    """PG212: an action outside the action space, named with the space and the value."""
    if not _in_space(action, space):
        f.add("PG212", f"step() got the action {_short(action)} ({type(action).__name__}), "
                       f"which is not in the action space {_short(space)}.")


def check_render_metadata(env: Any, f: Findings) -> None:
    """PG240/PG241/PG141/PG140: declared render modes, fps, and the env's own mode."""
    metadata: Mapping[str, Any] = env.metadata
    modes = metadata.get("render_modes")
    render_mode = env.render_mode
    if modes is None:
        f.add("PG240", "metadata has no 'render_modes'.")
        return
    if not isinstance(modes, list | tuple):
        f.add("PG240", f"metadata['render_modes'] is a {type(modes).__name__}, not a list "
                       "or tuple.")
        return
    if not all(isinstance(mode, str) for mode in modes):
        f.add("PG240", f"metadata['render_modes'] holds non-strings: {_short(modes)}.")
    if modes:
        fps = metadata.get("render_fps")
        if fps is None or isinstance(fps, bool) or not isinstance(
            fps, int | float | np.integer | np.floating
        ):
            f.add("PG241", f"metadata['render_fps'] is {_short(fps)}, not a number.")
        elif not fps > 0:
            f.add("PG141", f"metadata['render_fps'] is {fps!r}.")
    if render_mode is not None and render_mode not in modes:
        f.add("PG140", f"render_mode is {render_mode!r}, but metadata['render_modes'] is "
                       f"{list(modes)!r}.")


def check_render_result(mode: str | None, frame: object, f: Findings) -> None:
    """PG142/PG242: what render() returned matches what `mode` promises."""
    if mode is None:
        return
    got = type(frame).__name__
    if mode == "human":
        if frame is not None:
            f.add("PG142", f"render() in 'human' mode returned a {got}, not None.")
    elif mode == "rgb_array":
        if not isinstance(frame, np.ndarray):
            f.add("PG142", f"render() in 'rgb_array' mode returned a {got}, not an array.")
        elif frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
            f.add("PG242", f"render() in 'rgb_array' mode returned an array of shape "
                           f"{frame.shape} and dtype {frame.dtype}.")
    elif mode == "depth_array":
        if not isinstance(frame, np.ndarray):
            f.add("PG142", f"render() in 'depth_array' mode returned a {got}, not an array.")
        elif frame.ndim != 2:
            f.add("PG242", f"render() in 'depth_array' mode returned {frame.ndim} axes, not 2.")
    elif mode in ("ansi", "ascii"):
        if not isinstance(frame, str):
            f.add("PG142", f"render() in {mode!r} mode returned a {got}, not a str.")
    elif mode.endswith("_list"):
        if not isinstance(frame, list):
            f.add("PG142", f"render() in {mode!r} mode returned a {got}, not a list.")
        else:
            for item in frame:
                check_render_result(mode[: -len("_list")], item, f)


def check_render(env: Any, f: Findings) -> Any:
    """Metadata checks, then one render() call checked against the env's render_mode."""
    check_render_metadata(env, f)
    frame = env.render()
    check_render_result(env.render_mode, frame, f)
    return frame


def shares_data(first: object, second: object) -> bool:
    """Whether two returned values share a mutable object (an array's memory, a dict)."""
    if type(first) is not type(second):
        return False
    if isinstance(first, np.ndarray):
        assert isinstance(second, np.ndarray)
        if first.dtype == object:
            return first is second or any(
                shares_data(a, b) for a, b in zip(first.flat, second.flat, strict=False)
            )
        return bool(np.shares_memory(first, second))
    if isinstance(first, dict):
        assert isinstance(second, dict)
        return first is second or any(
            shares_data(first[key], second[key]) for key in first.keys() & second.keys()
        )
    if isinstance(first, tuple | list):
        assert isinstance(second, tuple | list)
        if isinstance(first, list) and first is second:
            return True
        return any(shares_data(a, b) for a, b in zip(first, second, strict=False))
    return False
