"""The checker's rule catalogue: every finding has a stable id, a severity and a standard fix.

Ids are grouped by severity first, then by area, so an id says at a glance how bad a finding
is: ``PG1xx`` contract errors (raised), ``PG2xx`` best-practice warnings (warned), ``PG3xx``
hints (reported, never warned). Within each hundred: ``x0x`` env and spaces, ``x1x`` reset,
``x2x`` step, ``x3x`` reproducibility and data ownership, ``x4x``/``x5x`` render and close,
``x6x`` vector envs, ``x8x`` functional envs (`check_func_env`). Ids are never reused;
`docs/checker.md` explains each one.

The passive checker (`PassiveEnvChecker`, `utils.passive_env_checker`) only watches an env
that is already running, so, as Gymnasium's does, it warns about some contract errors
instead of stopping the program: a rule's `passive` severity says how it is surfaced there.
A raised rule also names the builtin exception it raises as (`raises`, Gymnasium's class for
the same problem), and `deprecation` rules are warned as `DeprecationWarning`s.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["RULES", "Rule", "Severity"]


class Severity(enum.Enum):
    """How a finding is surfaced: raised, warned, or only listed in the report."""

    ERROR = "error"
    WARNING = "warning"
    HINT = "hint"


@dataclass(frozen=True, slots=True)
class Rule:
    """One conformance rule: `id` (``PG123``), a short `name`, what it checks, how to fix it.

    `passive` is the severity in the passive checker when it differs from `severity`;
    `raises` is the builtin exception class a raised finding also is; `deprecation` makes a
    warned finding a `DeprecationWarning`.
    """

    id: str
    severity: Severity
    name: str
    summary: str
    fix: str
    passive: Severity | None = None
    raises: type[Exception] = AssertionError
    deprecation: bool = False

    @property
    def passive_severity(self) -> Severity:
        """How the passive checker surfaces this rule."""
        return self.severity if self.passive is None else self.passive


_E, _W, _H = Severity.ERROR, Severity.WARNING, Severity.HINT

_CATALOGUE = (
    # ---- contract errors -------------------------------------------------------------------
    Rule("PG100", _E, "not-an-env",
         "The object lacks members of the Env protocol, or its metadata is not a mapping.",
         "Define action_space, observation_space, metadata (a dict), render_mode, reset, "
         "step, render and close.",
         raises=TypeError),
    Rule("PG101", _E, "space-not-a-space",
         "action_space or observation_space does not satisfy the Space protocol.",
         "Use a protogym.spaces space (Box, Discrete, ...) or implement shape, dtype, sample, "
         "contains, seed, np_random, is_np_flattenable, to_jsonable and from_jsonable.",
         raises=TypeError),
    Rule("PG102", _E, "space-inconsistent",
         "A space contradicts itself: bounds of the wrong shape, low > high, an empty or "
         "non-positive size, or samples that are not in the space or lack its shape/dtype.",
         "Build the space with consistent arguments (e.g. Box bounds of the declared shape, "
         "Discrete(n) with n > 0)."),
    Rule("PG103", _E, "reset-signature",
         "reset() does not accept the keyword arguments `seed` and `options`.",
         "Declare `def reset(self, *, seed=None, options=None)` and call "
         "`super().reset(seed=seed)` first.",
         passive=_W, deprecation=True),
    Rule("PG104", _E, "call-raised",
         "reset() or render() raised an exception on arguments the contract allows.",
         "Make reset(seed=...), reset(options={}) and render() work in every declared mode."),
    Rule("PG110", _E, "legacy-reset",
         "reset() returned only an observation, the pre-0.26 Gym API.",
         "Return `(observation, info)`, or register the env with "
         "register(..., api=\"done\") so make() converts it (StepCompatibility).",
         passive=_W),
    Rule("PG111", _E, "reset-result",
         "reset() did not return a 2-tuple `(observation, info)`.",
         "Return `(observation, info)` with `info` a dict.",
         passive=_W),
    Rule("PG112", _E, "info-not-dict",
         "The info returned by reset() or step() is not a dict.",
         "Return a dict (use `{}` when there is nothing to report)."),
    Rule("PG113", _E, "obs-not-in-space",
         "An observation returned by reset() or step() is not in observation_space.",
         "Return observations of the space's shape and dtype within its bounds, or widen the "
         "space.",
         passive=_W),
    Rule("PG114", _E, "obs-structure",
         "An observation of a Dict space is not a dict or has other keys, or one of a Tuple "
         "space has another number of items.",
         "Return a dict with exactly the space's keys, or a tuple with one item per "
         "sub-space."),
    Rule("PG120", _E, "legacy-step",
         "step() returned the legacy 4-tuple `(obs, reward, done, info)`.",
         "Return `(obs, reward, terminated, truncated, info)`, or register the env with "
         "register(..., api=\"done\") so make() converts it (StepCompatibility).",
         passive=_W, deprecation=True),
    Rule("PG121", _E, "step-result",
         "step() did not return a 5-tuple.",
         "Return `(obs, reward, terminated, truncated, info)`."),
    Rule("PG122", _E, "flag-not-bool",
         "terminated or truncated is not a bool (Python bool and numpy.bool_ both count).",
         "Return `bool(...)` for both flags.",
         passive=_W),
    Rule("PG123", _E, "reward-not-number",
         "The reward is not a real number (int, float, numpy integer or floating; not bool).",
         "Return `float(reward)`.",
         passive=_W),
    Rule("PG124", _E, "action-crashed",
         "step() raised on an action sampled from action_space.",
         "Every element of action_space must be a valid action; fix step() or narrow the "
         "space."),
    Rule("PG130", _E, "reset-not-reproducible",
         "reset(seed=s) did not reproduce the same observation from every state (fresh, after "
         "other resets, after steps), or the reset() after it differed.",
         "Draw all randomness from self.np_random and call `super().reset(seed=seed)`; set "
         "nondeterministic=True in register() if the env cannot be seeded."),
    Rule("PG131", _E, "rng-not-seeded",
         "reset(seed=s) did not reseed the env's np_random (same seed gave different "
         "generators, different seeds the same, or no generator).",
         "Call `super().reset(seed=seed)` at the start of reset()."),
    Rule("PG132", _E, "step-not-reproducible",
         "The same seed and action gave a different step result.",
         "Draw all randomness from self.np_random; set nondeterministic=True in register() "
         "if the env is inherently random."),
    Rule("PG133", _E, "data-reused",
         "Two calls to reset()/step() returned observations or infos that share a mutable "
         "object, so keeping one (e.g. in a replay buffer) sees later changes.",
         "Return a new array each call, e.g. `self.state.copy()`, and a new info dict.",
         passive=_W),
    Rule("PG140", _E, "render-mode-undeclared",
         "render_mode is not one of metadata['render_modes'].",
         "List every supported mode in metadata['render_modes'] and reject others in "
         "__init__."),
    Rule("PG141", _E, "render-fps-invalid",
         "metadata['render_fps'] is not positive.",
         "Set metadata['render_fps'] to the frame rate of the env's clock, e.g. 30."),
    Rule("PG142", _E, "render-result",
         "render() returned the wrong kind of value for its render_mode (human: None, "
         "rgb_array/depth_array: an array, ansi: a str, *_list: a list).",
         "Return what the render mode promises.",
         passive=_W),
    # ---- best-practice warnings ------------------------------------------------------------
    Rule("PG200", _W, "space-degenerate",
         "A Box space has low == high in some coordinate, which carries no information.",
         "Drop the constant coordinate or give it a real range."),
    Rule("PG201", _W, "obs-type",
         "An observation has the wrong Python/numpy type or dtype for its space.",
         "Return e.g. an int for Discrete, an ndarray of the space's dtype for Box, a tuple "
         "for Tuple and a dict for Dict."),
    Rule("PG202", _W, "reset-seed-default",
         "reset()'s `seed` defaults to something other than None, so every reset is "
         "seeded the same.",
         "Use `seed: int | None = None`."),
    Rule("PG203", _W, "seed-method",
         "The env defines the deprecated seed() method.",
         "Remove seed(); seed through reset(seed=...)."),
    Rule("PG204", _W, "return-info-param",
         "reset() still takes the deprecated `return_info` argument.",
         "Remove it; reset() always returns `(observation, info)`."),
    Rule("PG205", _W, "image-dtype",
         "An image-like Box observation space (3 axes with 1, 3 or 4 channels, bounds 0..255) "
         "does not use uint8.",
         "Use dtype=np.uint8 for pixels, or scale to [0, 1] floats and say so in the bounds."),
    Rule("PG210", _W, "reward-not-finite",
         "The reward is NaN or infinite.",
         "Return a finite reward."),
    Rule("PG211", _W, "timelimit-truncated-info",
         "A terminated/truncated env put the deprecated info['TimeLimit.truncated'] in its "
         "info.",
         "Report time limits through `truncated`; StepCompatibility adds the key for "
         "4-tuple users."),
    Rule("PG212", _W, "action-not-in-space",
         "step() was given an action outside action_space.",
         "Clip or rescale actions before step() (ClipAction, RescaleAction), or fix the "
         "agent."),
    Rule("PG213", _W, "truncated-first-step",
         "The episode was truncated on its very first step.",
         "Check the time limit; max_episode_steps=1 is almost always a mistake."),
    Rule("PG214", _W, "nearly-reproducible",
         "The same seed gave observations, rewards or infos that are close but not equal.",
         "Avoid non-deterministic float reductions; use the same operations in the same order."),
    Rule("PG240", _W, "render-modes-metadata",
         "metadata['render_modes'] is missing, not a list/tuple, or holds non-strings.",
         "Declare `metadata = {'render_modes': [...], 'render_fps': ...}` (an empty list if "
         "the env cannot render)."),
    Rule("PG241", _W, "render-fps-missing",
         "The env declares render modes but no numeric metadata['render_fps'].",
         "Set metadata['render_fps'] to a positive number."),
    Rule("PG242", _W, "render-frame",
         "A rendered frame has an unexpected layout: rgb_array not uint8 of shape (H, W, 3), "
         "or depth_array not 2-D.",
         "Return np.uint8 arrays of shape (height, width, 3) for rgb_array and (H, W) for "
         "depth_array."),
    Rule("PG250", _W, "close-twice",
         "Calling close() a second time raised.",
         "Make close() idempotent: check whether resources are still open."),
    Rule("PG260", _W, "vector-autoreset-metadata",
         "The vector env does not declare metadata['autoreset_mode'].",
         "Set metadata['autoreset_mode'] to the mode the env implements."),
    # ---- hints -----------------------------------------------------------------------------
    Rule("PG300", _H, "action-box-unbounded",
         "A Box action space has an infinite bound; sampling and many agents assume bounds.",
         "Give the action space finite bounds."),
    Rule("PG301", _H, "action-box-not-normalised",
         "A 1-D Box action space is not [-1, 1] or [0, 1]-like (symmetric or starting at 0).",
         "Rescale to [-1, 1] (RescaleAction) for most continuous-control agents."),
    Rule("PG302", _H, "obs-box-unbounded",
         "A Box observation space has an infinite bound (normal for physics states; "
         "normalising agents need to estimate the range).",
         "Nothing, if the state is unbounded; otherwise give real bounds."),
    Rule("PG303", _H, "render-modes-untested",
         "The other declared render modes could not be tested: the env has no spec to "
         "rebuild it from.",
         "Check a made env (protogym.make(id)), whose spec records how to rebuild it."),
    Rule("PG304", _H, "wrappers-looked-through",
         "Wrappers other than make's own were above the env; they were looked through and "
         "left untouched, so their behaviour was not checked.",
         "Nothing, to check the env; to check a wrapper, check it around a bare env and "
         "expect stateful wrappers (normalisers) to break seeded reproducibility."),
    # ---- checked by the conformance suite (protogym.testing), per registered id ------------
    Rule("PG170", _E, "legacy-path-disagrees",
         "make(id, return_two_dones=False) does not give (obs, reward, terminated or "
         "truncated, info) with info['TimeLimit.truncated'] for the same seed and actions.",
         "Keep the env on the 5-tuple API and let make() add StepCompatibility; register "
         "old-API envs with api='done'."),
    Rule("PG171", _E, "not-picklable",
         "The env made from its id cannot be pickled, so AsyncVectorEnv workers cannot get it.",
         "Keep handles (windows, files, sockets) out of the state until first used, or define "
         "__getstate__/__setstate__."),
    Rule("PG172", _E, "vector-entry-point-differs",
         "The id's vector_entry_point gives other observations, rewards or flags than "
         "SyncVectorEnv over the single env, under the same seeds and actions.",
         "Make the native vector env step each sub-env exactly as the single env does, with "
         "sub-env i seeded seed + i."),
    Rule("PG173", _E, "spec-json-round-trip",
         "EnvSpec.to_json / from_json of the made env's spec does not rebuild an env with the "
         "same spec.",
         "Register JSON values only as kwargs, and entry points as 'module:attribute' "
         "strings."),
    # ---- functional envs (check_func_env) --------------------------------------------------
    Rule("PG180", _E, "not-a-func-env",
         "The object lacks members of the FuncEnv protocol.",
         "Define observation_space, action_space, initial, transition, observation, reward, "
         "terminal, state_info, transition_info, transform, the render methods and "
         "get_default_params, or subclass protogym.functional.FuncEnv for the defaults.",
         raises=TypeError),
    Rule("PG181", _E, "func-call-raised",
         "A function of the FuncEnv raised on arguments the contract allows (a key, a state "
         "it produced, an action sampled from action_space).",
         "Make every function accept what the others produce and every action of the space."),
    Rule("PG182", _E, "func-obs-not-in-space",
         "observation() of an initial or a stepped state is not in observation_space.",
         "Return observations of the space's shape and dtype within its bounds, or widen the "
         "space."),
    Rule("PG183", _E, "func-result-types",
         "reward() did not return a real scalar, or terminal() not a bool scalar.",
         "Return a 0-d float (or int) array for the reward and a 0-d bool array for terminal; "
         "batching is vmap's job."),
    Rule("PG184", _E, "func-not-deterministic",
         "The same keys and actions gave a different rollout: the functions are not pure.",
         "Draw randomness only from the rng argument and keep no state on the env object."),
    Rule("PG185", _E, "func-traced-control-flow",
         "A function branches in Python (if, while, int(), bool()) on a value that is traced "
         "under jax.jit, so it cannot be compiled.",
         "Use jnp.where, jax.lax.cond/select or jax.lax.while_loop instead of Python control "
         "flow on arrays; branch in Python only on params that are not traced."),
    Rule("PG186", _E, "func-jit-differs",
         "jax.jit of the env's functions gave another rollout than calling them eagerly.",
         "Keep the functions pure: no Python side effects, globals or object state read at "
         "trace time that change later."),
    Rule("PG187", _E, "func-vmap-differs",
         "jax.vmap of a function over a batch gave other results than a Python loop over the "
         "batch's rows.",
         "Write each function for one env (no reductions or indexing over a batch axis) and "
         "let vmap add the batch."),
    Rule("PG188", _E, "func-state-layout",
         "The state's pytree structure, leaf shapes or dtypes changed between initial() and "
         "transition(), or through protogym's time limit and autoreset wrappers.",
         "Return states of one structure and dtype everywhere, e.g. jnp.asarray(x, dtype) for "
         "every leaf (Python numbers in a state become arrays of another type)."),
    Rule("PG380", _H, "func-jax-rules-skipped",
         "The FuncEnv is a numpy env, so the jax rules (PG185, PG186, PG187) were not run.",
         "Nothing, for a numpy env; pass backend='jax' if the env is a jax env."),
    Rule("PG381", _H, "func-rng-unused",
         "Rollouts from different keys were identical: the env never used its random source.",
         "Nothing, if the env is deterministic; otherwise draw the initial state or noise "
         "from the rng argument."),
    Rule("PG382", _H, "func-nearly-equal",
         "jax.jit or jax.vmap of a function gave results close to, but not equal to, the "
         "eager call (XLA fuses and reorders float operations).",
         "Nothing, usually; compute in the same order in every path if bit-equality matters."),
    # ---- vector envs -----------------------------------------------------------------------
    Rule("PG160", _E, "not-a-vector-env",
         "The object lacks members of a vector env (num_envs, single and batched spaces, "
         "reset, step, close).",
         "Use protogym.vector.SyncVectorEnv/AsyncVectorEnv or implement the VectorEnv "
         "protocol."),
    Rule("PG161", _E, "vector-spaces",
         "The batched spaces do not match the single spaces batched num_envs times.",
         "Set observation_space = batch_space(single_observation_space, num_envs) (and the "
         "same for actions)."),
    Rule("PG162", _E, "vector-batch",
         "A batched observation is not in observation_space, or has the wrong shape/dtype.",
         "Stack the sub-envs' observations into arrays of the batched space."),
    Rule("PG163", _E, "vector-arrays",
         "rewards, terminations or truncations are not arrays of shape (num_envs,) (numeric "
         "rewards, bool flags), or infos is not a dict.",
         "Return numpy arrays of shape (num_envs,) and a dict of batched infos."),
    Rule("PG164", _E, "vector-autoreset",
         "A sub-env that ended was not reset the way metadata['autoreset_mode'] promises.",
         "next-step: reset on the following step (reward 0, flags False); same-step: reset "
         "at once and put the final data in info; disabled: never reset inside step()."),
    Rule("PG165", _E, "vector-final-obs",
         "In same-step autoreset, info lacks the final observation/info of a sub-env that "
         "ended, or its mask is wrong.",
         "Put info['final_obs'] and info['final_info'] (masks '_final_obs', "
         "'_final_info') for each sub-env that ended."),
    Rule("PG166", _E, "vector-reset-result",
         "The vector reset() did not return `(observations, infos)` with a dict of infos.",
         "Return the batched observations and a dict."),
)

RULES: dict[str, Rule] = {rule.id: rule for rule in _CATALOGUE}
"""Every rule by id, in catalogue order."""
