"""`check_func_env`: the rules a functional env must keep to live inside compiled programs.

A `FuncEnv` is rolled out eagerly from seeded keys and sampled actions (resetting with
`initial` whenever `terminal` says so), and that rollout is the reference: the same keys
must give it again, `jax.jit` of each function must give it again, `jax.vmap` of each
function over a few copies must give what a Python loop gives, and the state must keep one
pytree structure, shape and dtype through transitions and through protogym's own time
limit and autoreset wrappers. Tracing each function under `jit` also catches Python control
flow on traced values. A numpy `FuncEnv` (its random source a `numpy.random.Generator`) is
held to the same rules except those about jax, which the report names as skipped (PG380).
Findings are reported like `check_env`'s: ``PG18x`` errors raise `ContractError`, ``PG38x``
hints are listed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection
from typing import Any, Literal

import numpy as np

from protogym.checker import passive
from protogym.checker.env import StopChecks, run_checks
from protogym.checker.report import CheckReport, Findings, validate_skip
from protogym.functional import _backend
from protogym.functional.func_env import FUNC_ENV_MEMBERS

__all__ = ["check_func_env"]

Backend = Literal["jax", "numpy"]

_SEED = 123
_OTHER_SEED = 456
_VMAP_COPIES = 3
_VMAP_STEPS = 3
_TIME_LIMIT = 7  # short, so the autoreset check sees episodes cut off as well as ended
_RTOL, _ATOL = 1e-5, 1e-6
_TRACING_ERRORS = (
    "ConcretizationTypeError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
    "NonConcreteBooleanIndexError",
)


def check_func_env(
    func_env: Any,
    params: Any = None,
    *,
    num_steps: int = 100,
    warn: bool = True,
    skip: Collection[str] = (),
    backend: Backend | None = None,
) -> CheckReport:
    """Check the functional env `func_env` (with `params`, or its defaults) and report.

    Rolls out `num_steps` steps of actions sampled from `action_space` (seed 123). The
    `backend` is read from the env when not given: jax if `initial` accepts a jax key and
    returns jax arrays, numpy otherwise. Raises `ContractError` for ``PG18x`` findings after
    every check ran; `skip` silences rules by id, as in `check_env`.
    """
    if isinstance(num_steps, bool) or not isinstance(num_steps, int) or num_steps < 1:
        raise ValueError(f"num_steps must be a positive int, got {num_steps!r}")
    if backend not in (None, "jax", "numpy"):
        raise ValueError(f"backend must be 'jax', 'numpy' or None (detect), got {backend!r}")
    findings = Findings(type(func_env).__name__, validate_skip(skip))
    checker = _Checker(func_env, params, num_steps, findings)
    run_checks(findings, lambda _: checker.run(backend))
    return findings.emit(warn=warn)


class _Checker:
    """One check: the env, its params, the reference rollout and the findings."""

    def __init__(self, env: Any, params: Any, num_steps: int, findings: Findings) -> None:
        self.env = env
        self.params = params
        self.num_steps = num_steps
        self.f = findings
        self.jax = False
        self.compiled: dict[str, Callable[..., Any]] = {}

    # -- running ---------------------------------------------------------------------------

    def run(self, backend: Backend | None) -> None:
        missing = [name for name in FUNC_ENV_MEMBERS if not hasattr(self.env, name)]
        if missing:
            self.f.add("PG180", f"{type(self.env).__name__} lacks {', '.join(missing)}.")
            raise StopChecks
        ok = passive.check_space(self.env.action_space, "action", self.f)
        ok &= passive.check_space(self.env.observation_space, "observation", self.f)
        if not ok:
            raise StopChecks
        self.jax = self._detect(backend) == "jax"
        actions = self._actions()
        reference = self._rollout(_SEED, actions, self._eager)
        self._check_outputs(reference)
        replay: Callable[..., Any] = self._eager
        other: Callable[..., Any] = self._eager
        compiled = False
        if not self.jax:
            self.f.add("PG380", "The env is a numpy FuncEnv (its states hold no jax arrays), "
                                "so PG185 (traced control flow), PG186 (jit) and PG187 (vmap) "
                                "were not checked.")
        elif self._traces(actions[0]):
            replay, other, compiled = self._paired, self._jitted, True
        # Replayed eagerly (and, on jax, compiled beside each eager call and compared).
        if not _same(reference, self._rollout(_SEED, actions, replay)):
            self.f.add("PG184", "Two rollouts from the same keys and actions differed.")
        if _same(reference, self._rollout(_OTHER_SEED, actions, other), within_rounding=True):
            self.f.add("PG381", f"Rollouts from keys of seeds {_SEED} and {_OTHER_SEED} were "
                                "identical: the env never used its random source.")
        if compiled:
            self._check_vmap(actions)
        self._check_autoreset(compiled)

    def _detect(self, backend: Backend | None) -> Backend:
        if backend is not None:
            return backend
        try:
            import jax
        except ImportError:
            return "numpy"
        try:
            state = self._call("initial", jax.random.PRNGKey(0))
        except Exception:
            return "numpy"
        return "jax" if _backend.is_jax(state) else "numpy"

    def _key(self, seed: int) -> Any:
        if self.jax:
            import jax

            return jax.random.PRNGKey(seed)
        return np.random.default_rng(seed)

    def _actions(self) -> list[Any]:
        space = copy.deepcopy(self.env.action_space)
        space.seed(_SEED)
        return [space.sample() for _ in range(self.num_steps)]

    def _call(self, name: str, *args: Any, transform: Callable[..., Any] | None = None) -> Any:
        func = getattr(self.env, name)
        if transform is not None:
            func = transform(func)
        return func(*args) if self.params is None else func(*args, self.params)

    def _eager(self, name: str, *args: Any) -> Any:
        try:
            return self._call(name, *args)
        except Exception as exc:
            self.f.add("PG181", f"{name}() raised {type(exc).__name__}: {exc}")
            raise StopChecks from exc

    def _rollout(self, seed: int, actions: list[Any], call: Callable[..., Any]) -> list[Any]:
        """Events ``(state, obs, reward, terminal, info)``; a reset has no reward or terminal.

        Step t's key is split into transition, observation, reward and terminal keys (the
        split of protogym's pure step), then the next reset's key.
        """
        key = self._key(seed)
        key, first = _backend.split(key, 2)
        initial_key, obs_key = _backend.split(first, 2)
        state = call("initial", initial_key)
        events = [_host((state, call("observation", state, obs_key), None, None,
                         call("state_info", state)))]
        for action in actions:
            key, step_key, reset_key = _backend.split(key, 3)
            keys = _backend.split(step_key, 4)
            next_state = call("transition", state, action, keys[0])
            terminal = call("terminal", next_state, keys[3])
            events.append(_host((next_state, call("observation", next_state, keys[1]),
                                 call("reward", state, action, next_state, keys[2]), terminal,
                                 call("transition_info", state, action, next_state))))
            state = next_state
            if bool(np.asarray(events[-1][3])):
                initial_key, obs_key = _backend.split(reset_key, 2)
                state = call("initial", initial_key)
                events.append(_host((state, call("observation", state, obs_key), None, None,
                                     call("state_info", state))))
        return events

    # -- the rollout's own outputs -------------------------------------------------------------

    def _check_outputs(self, events: list[Any]) -> None:
        space = self.env.observation_space
        layout = _layout(events[0][0])
        for number, (state, obs, reward, terminal, _) in enumerate(events):
            what = f"event {number} ({'reset' if reward is None else 'step'})"
            if not passive._in_space(obs, space):
                self.f.add("PG182", f"The observation of {what}, {passive._short(obs)}, is not "
                                    f"in observation_space {space}.")
            if _layout(state) != layout:
                self.f.add("PG188", f"The state of {what} has the layout {_layout(state)}, but "
                                    f"initial() gave {layout}.")
            if reward is None:
                continue
            reward_array = np.asarray(reward)
            if reward_array.shape != () or reward_array.dtype.kind not in "iuf":
                self.f.add("PG183", f"reward() of {what} returned {passive._short(reward)}, "
                                    "not a real scalar.")
            terminal_array = np.asarray(terminal)
            if terminal_array.shape != () or terminal_array.dtype.kind != "b":
                self.f.add("PG183", f"terminal() of {what} returned {passive._short(terminal)}, "
                                    "not a bool scalar.")

    # -- jax ------------------------------------------------------------------------------------

    def _jitted(self, name: str, *args: Any) -> Any:
        """`name` compiled with `jax.jit` (once per function) and called on `args`."""
        if name not in self.compiled:
            import jax

            self.compiled[name] = jax.jit(getattr(self.env, name))
        func = self.compiled[name]
        return func(*args) if self.params is None else func(*args, self.params)

    def _paired(self, name: str, *args: Any) -> Any:
        """`name` called eagerly and compiled on the same arguments and compared (PG186,
        PG382: differences never accumulate along the rollout); the eager result."""
        eager = self._eager(name, *args)
        jitted = self._jitted(name, *args)
        verdict = _closeness(_host(eager), _host(jitted))
        if verdict == "differ":
            self.f.add("PG186", f"jax.jit({name}) gave {passive._short(_host(jitted))} where "
                                f"the eager call gave {passive._short(_host(eager))}.")
        elif verdict == "close":
            self.f.add("PG382", f"jax.jit({name}) gave results close to, but not equal to, "
                                "the eager call's.")
        return eager

    def _traces(self, action: Any) -> bool:
        """PG185: every function compiles under `jax.jit` (no Python branching on tracers)."""
        import jax

        key = jax.random.PRNGKey(_SEED)
        state = self._eager("initial", key)
        next_state = self._eager("transition", state, action, key)
        arguments = {
            "initial": (key,),
            "observation": (state, key),
            "state_info": (state,),
            "transition": (state, action, key),
            "reward": (state, action, next_state, key),
            "terminal": (next_state, key),
            "transition_info": (state, action, next_state),
        }
        clean = True
        for name, args in arguments.items():
            try:
                self._call(name, *args, transform=jax.jit)
            except Exception as exc:
                kind = type(exc).__name__
                if kind in _TRACING_ERRORS:
                    self.f.add("PG185", f"{name}() branches in Python on a traced value under "
                                        f"jax.jit ({kind}: {_first_line(exc)})")
                else:
                    self.f.add("PG181", f"jax.jit({name})() raised {kind}: {exc}")
                clean = False
        return clean

    def _check_vmap(self, actions: list[Any]) -> None:
        """PG187: `jax.vmap` of each function over copies equals a Python loop over them."""
        import jax
        import jax.numpy as jnp

        keys = jax.random.split(jax.random.PRNGKey(_OTHER_SEED), _VMAP_COPIES)
        batch = [actions[index % len(actions)] for index in range(_VMAP_COPIES)]
        batched_actions = jax.tree.map(lambda *leaves: np.stack(leaves), *batch)

        def both(name: str, *args: Any, axes: tuple[int | None, ...]) -> tuple[Any, Any]:
            try:
                vmapped = self._call(name, *args, transform=lambda func: jax.vmap(
                    func, in_axes=axes + ((None,) if self.params is not None else ())
                ))
            except Exception as exc:
                self.f.add("PG187", f"jax.vmap({name}) over {_VMAP_COPIES} copies raised "
                                    f"{type(exc).__name__}: {_first_line(exc)}")
                raise StopChecks from exc
            rows = [
                self._eager(name, *(arg if axis is None else _row(arg, index)
                                    for arg, axis in zip(args, axes, strict=True)))
                for index in range(_VMAP_COPIES)
            ]
            return vmapped, jax.tree.map(lambda *leaves: jnp.stack(leaves), *rows)

        states, looped = both("initial", keys, axes=(0,))
        results = [("initial", states, looped)]
        for _ in range(_VMAP_STEPS):
            next_states, looped = both("transition", states, batched_actions, keys,
                                       axes=(0, 0, 0))
            results.append(("transition", next_states, looped))
            for name, args, axes in (
                ("observation", (next_states, keys), (0, 0)),
                ("reward", (states, batched_actions, next_states, keys), (0, 0, 0, 0)),
                ("terminal", (next_states, keys), (0, 0)),
            ):
                results.append((name, *both(name, *args, axes=axes)))
            states = next_states
            keys = jax.vmap(lambda key: jax.random.split(key)[0])(keys)
        for name, vmapped, looped in results:
            verdict = _closeness(_host(vmapped), _host(looped))
            if verdict == "differ":
                self.f.add("PG187", f"jax.vmap({name}) over {_VMAP_COPIES} copies differs "
                                    "from calling it on each copy in a loop.")
                return
            if verdict == "close":
                self.f.add("PG382", f"jax.vmap({name}) over {_VMAP_COPIES} copies is close to, "
                                    "but not equal to, calling it on each copy.")

    # -- wrappers ---------------------------------------------------------------------------------

    def _check_autoreset(self, compiled: bool) -> None:
        """PG188: the state keeps its layout through protogym's time limit and autoreset
        (under `jax.jit` when the functions compile)."""
        from protogym.functional.pure import pure
        from protogym.functional.wrappers import autoreset, time_limit

        wrapped = autoreset(time_limit(pure(self.env), _TIME_LIMIT), "same_step")
        reset, step = wrapped.reset, wrapped.step
        if compiled:
            import jax

            reset, step = jax.jit(reset), jax.jit(step)
        params = self.params
        actions = self._actions()[: 3 * _TIME_LIMIT]  # three time limits, ends among them
        key = self._key(_OTHER_SEED)
        try:
            key, reset_key = _backend.split(key, 2)
            state = reset(reset_key, params).state
            layout = _layout(_host(state))
            for number, action in enumerate(actions):
                key, step_key = _backend.split(key, 2)
                state = step(step_key, state, action, params).state
                if _layout(_host(state)) != layout:
                    self.f.add("PG188", f"After step {number} through protogym's time limit and "
                                        f"autoreset, the state has the layout "
                                        f"{_layout(_host(state))}; reset gave {layout}.")
                    return
        except Exception as exc:
            self.f.add("PG188", f"Stepping through protogym's time limit and same-step "
                                f"autoreset raised {type(exc).__name__}: "
                                f"{_first_line(exc)}")


# -- data helpers -------------------------------------------------------------------------------


def _host(tree: Any) -> Any:
    """A numpy copy of `tree` (a numpy env may reuse its arrays: the record must not change)."""
    if _backend.is_jax(tree):
        import jax

        return jax.device_get(tree)
    return _backend.tree_map(copy.deepcopy, tree)


def _first_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else repr(exc)


def _row(tree: Any, index: int) -> Any:
    return _backend.tree_map(lambda leaf: leaf[index], tree)


def _structure(tree: Any) -> str:
    try:
        import jax
    except ImportError:
        return repr(_backend.tree_map(lambda _: None, tree))
    return str(jax.tree_util.tree_structure(tree))


def _layout(tree: Any) -> tuple[str, list[tuple[tuple[int, ...], str, bool]]]:
    """The pytree structure and each leaf's shape, dtype and jax weak type."""
    leaves = [
        (np.shape(leaf), str(np.asarray(leaf).dtype), bool(getattr(leaf, "weak_type", False)))
        for leaf in _backend.tree_leaves(tree)
    ]
    return _structure(tree), leaves


def _closeness(a: Any, b: Any) -> Literal["equal", "close", "differ"]:
    if _structure(a) != _structure(b):
        return "differ"
    verdict: Literal["equal", "close", "differ"] = "equal"
    for x, y in zip(_backend.tree_leaves(a), _backend.tree_leaves(b), strict=True):
        x, y = np.asarray(x), np.asarray(y)
        if x.shape != y.shape or x.dtype != y.dtype:
            return "differ"
        if np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"):
            continue
        if x.dtype.kind in "fc" and np.allclose(x, y, rtol=_RTOL, atol=_ATOL, equal_nan=True):
            verdict = "close"
            continue
        return "differ"
    return verdict


def _same(a: list[Any], b: list[Any], *, within_rounding: bool = False) -> bool:
    accepted = ("equal", "close") if within_rounding else ("equal",)
    return len(a) == len(b) and all(
        _closeness(x, y) in accepted for x, y in zip(a, b, strict=True)
    )
