"""`RayVectorEnv`: sub-envs spread over the actors of a Ray cluster.

Each actor holds a contiguous block of sub-envs (`protogym.vector.ray_actor.SubEnvBlock`)
and steps it in one remote call, so a step costs one round trip per actor, not per sub-env.
The driver splits the actions by block, waits for every block's answer, and stacks the
answers into the batches, infos and final observations that `SyncVectorEnv` returns under the
same seeds. Ray is imported when the first `RayVectorEnv` is made, never by
``import protogym``.
"""

from __future__ import annotations

import contextlib
import importlib
import pickle
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, NamedTuple, overload

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.error import AlreadyPendingCallError, ClosedEnvironmentError, NoAsyncCallError
from protogym.spaces import batch_space, concatenate, create_empty_array, iterate
from protogym.spaces.space import Space
from protogym.vector.async_vector_env import AsyncState, WorkerDiedError, sub_env_error
from protogym.vector.ray_actor import BlockSpaces, ErrorDetails, NativeSlices, SubEnvBlock, dumps
from protogym.vector.sync_vector_env import (
    action_rows,
    check_sub_env_spaces,
    reset_mask_of,
    values_per_env,
)
from protogym.vector.utils.infos import add_finals, add_info, info_of
from protogym.vector.vector_env import (
    ActT,
    AutoresetMode,
    Disabled,
    ModeT_co,
    NextStep,
    ObsT_co,
    SameStep,
    VectorEnvBase,
    VectorStepResult,
    parse_autoreset_mode,
    seeds_for,
)

__all__ = ["RESTARTED_KEY", "ActorLostError", "NativeSlices", "RayVectorEnv"]

RESTARTED_KEY = "actor_restarted"
"""The info key (mask ``_actor_restarted``) marking sub-envs whose actor was recreated."""

_FINAL_KEYS = frozenset({"final_obs", "_final_obs", "final_info", "_final_info"})
_CLOSE_SECONDS = 5.0  # how long close() lets the actors close their sub-envs before killing
# Options RayVectorEnv sets itself: a restart must go through restart_failed_actors.
_OWN_ACTOR_OPTIONS = frozenset(
    {"num_cpus", "resources", "runtime_env", "max_restarts", "max_task_retries"}
)


class ActorLostError(WorkerDiedError):
    """A Ray actor holding sub-envs died (its process killed, its node lost) and was not
    recreated; the vector env is closed. `indices` are the sub-envs that were lost."""

    def __init__(self, message: str, indices: Sequence[int]) -> None:
        super().__init__(message)
        self.indices = tuple(indices)


class _BlockStep(NamedTuple):
    """One block's part of a step: from its actor, or made up after a restart."""

    observations: Any
    rewards: NDArray[Any]
    terminations: NDArray[np.bool_]
    truncations: NDArray[np.bool_]
    infos: dict[str, Any]
    restarted: bool = False


# -- Ray --------------------------------------------------------------------------------

# Ray's objects as this module sees them: Ray is imported through `_ray`, untyped.
ActorClass = Any  # what ray.remote makes of SubEnvBlock
ActorHandle = Any  # one actor
ObjectRef = Any  # the future answer of a remote call


def _ray() -> Any:
    """The `ray` module, imported on first use. Through importlib on purpose: mypy, checking
    any code that imports protogym, would otherwise parse Ray's hundreds of modules."""
    return importlib.import_module("ray")


_connection_users = 0
"""Live RayVectorEnvs that use a connection protogym opened (0: none, or the caller's own)."""


def _connect(address: str | None, init_kwargs: Mapping[str, Any]) -> bool:
    """Connect this process to Ray unless it already is; True if the connection is ours."""
    global _connection_users
    try:
        ray = _ray()
    except ImportError as exc:
        raise ImportError(
            "RayVectorEnv needs Ray; install it with `pip install 'protogym[ray]'`"
        ) from exc
    if ray.is_initialized():
        if _connection_users == 0:
            return False  # the caller's connection: used as it is, never shut down
    else:
        ray.init(address=address, **init_kwargs)
        _connection_users = 0
    _connection_users += 1
    return True


def _disconnect() -> None:
    """Shut down the connection protogym opened once its last RayVectorEnv is closed."""
    global _connection_users
    ray = _ray()

    _connection_users -= 1
    if _connection_users == 0 and ray.is_initialized():
        ray.shutdown()


_actor_class: ActorClass | None = None


def _remote_block() -> ActorClass:
    global _actor_class
    if _actor_class is None:
        ray = _ray()

        _actor_class = ray.remote(SubEnvBlock)
    return _actor_class


# -- the vector env ----------------------------------------------------------------------


class RayVectorEnv(VectorEnvBase[ObsT_co, ActT, ModeT_co]):
    """Steps sub-envs in `num_actors` Ray actors, each holding a contiguous block of them.

    `env_fns` builds the sub-envs (each actor runs its block's functions), or `NativeSlices`
    gives each actor a native vector env of its block's size. Sub-env i is seeded
    ``seed + i`` by ``reset(seed=seed)``, as in `SyncVectorEnv`, whatever the blocks.

    Connection: if this process is not connected to Ray yet, ``ray.init(address=address,
    **init_kwargs)`` is called (``address=None``: the cluster in ``RAY_ADDRESS`` or the
    latest one started on this machine with ``ray start``, else a new local one); the last
    RayVectorEnv using that connection calls ``ray.shutdown()`` when it closes. A connection
    the caller made is used as it is and never shut down.

    Each actor is placed with `num_cpus` (default: Ray's, 1 CPU to place and none held),
    custom `resources` (e.g. ``{"gpu_box": 1}``), `runtime_env` and any other Ray actor
    option in `actor_options`. `timeout` bounds every call's wait for the actors (None: as
    long as they live; a dead actor is noticed either way), `start_timeout` the wait for
    actors to be placed and to build their sub-envs. With `restart_failed_actors`, an actor
    that dies is recreated: its sub-envs are reset (fresh seeds) and the next step reports
    them truncated, marked in ``infos["actor_restarted"]``.
    """

    single_observation_space: Space[Any]
    single_action_space: Space[Any]
    observation_space: Space[ObsT_co]
    action_space: Space[ActT]
    render_mode: str | None

    @overload
    def __init__(
        self: RayVectorEnv[Any, Any, SameStep],
        env_fns: Iterable[Callable[[], Env[Any, Any]]] | NativeSlices,
        *,
        num_actors: int | None = None,
        address: str | None = None,
        init_kwargs: Mapping[str, Any] | None = None,
        num_cpus: float | None = None,
        resources: Mapping[str, float] | None = None,
        runtime_env: Mapping[str, Any] | None = None,
        actor_options: Mapping[str, Any] | None = None,
        restart_failed_actors: bool = False,
        timeout: float | None = None,
        start_timeout: float = 120.0,
        autoreset_mode: SameStep | Literal["same_step"] = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: RayVectorEnv[Any, Any, NextStep],
        env_fns: Iterable[Callable[[], Env[Any, Any]]] | NativeSlices,
        *,
        num_actors: int | None = None,
        address: str | None = None,
        init_kwargs: Mapping[str, Any] | None = None,
        num_cpus: float | None = None,
        resources: Mapping[str, float] | None = None,
        runtime_env: Mapping[str, Any] | None = None,
        actor_options: Mapping[str, Any] | None = None,
        restart_failed_actors: bool = False,
        timeout: float | None = None,
        start_timeout: float = 120.0,
        autoreset_mode: NextStep | Literal["next_step"],
    ) -> None: ...
    @overload
    def __init__(
        self: RayVectorEnv[Any, Any, Disabled],
        env_fns: Iterable[Callable[[], Env[Any, Any]]] | NativeSlices,
        *,
        num_actors: int | None = None,
        address: str | None = None,
        init_kwargs: Mapping[str, Any] | None = None,
        num_cpus: float | None = None,
        resources: Mapping[str, float] | None = None,
        runtime_env: Mapping[str, Any] | None = None,
        actor_options: Mapping[str, Any] | None = None,
        restart_failed_actors: bool = False,
        timeout: float | None = None,
        start_timeout: float = 120.0,
        autoreset_mode: Disabled | Literal["disabled"],
    ) -> None: ...
    @overload
    def __init__(
        self: RayVectorEnv[Any, Any, AutoresetMode],
        env_fns: Iterable[Callable[[], Env[Any, Any]]] | NativeSlices,
        *,
        num_actors: int | None = None,
        address: str | None = None,
        init_kwargs: Mapping[str, Any] | None = None,
        num_cpus: float | None = None,
        resources: Mapping[str, float] | None = None,
        runtime_env: Mapping[str, Any] | None = None,
        actor_options: Mapping[str, Any] | None = None,
        restart_failed_actors: bool = False,
        timeout: float | None = None,
        start_timeout: float = 120.0,
        autoreset_mode: AutoresetMode | str,
    ) -> None: ...
    def __init__(
        self,
        env_fns: Iterable[Callable[[], Env[Any, Any]]] | NativeSlices,
        *,
        num_actors: int | None = None,
        address: str | None = None,
        init_kwargs: Mapping[str, Any] | None = None,
        num_cpus: float | None = None,
        resources: Mapping[str, float] | None = None,
        runtime_env: Mapping[str, Any] | None = None,
        actor_options: Mapping[str, Any] | None = None,
        restart_failed_actors: bool = False,
        timeout: float | None = None,
        start_timeout: float = 120.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ) -> None:
        self.closed = True  # until the actors are up, so a failed start cleans up
        self._actors: list[ActorHandle] = []
        self._owns_connection = False
        self._source: list[Callable[[], Env[Any, Any]]] | NativeSlices
        if isinstance(env_fns, NativeSlices):
            _check_count("NativeSlices.num_envs", env_fns.num_envs, allow_none=False)
            self._source = env_fns
            self.num_envs = env_fns.num_envs
        else:
            self._source = _checked_fns(env_fns)
            self.num_envs = len(self._source)
        _check_count("num_actors", num_actors, allow_none=True)
        self._autoreset_mode = parse_autoreset_mode(autoreset_mode)
        self._options = _actor_options(num_cpus, resources, runtime_env, actor_options)
        self._timeout = _check_seconds("timeout", timeout, allow_none=True)
        self._start_timeout = _check_seconds("start_timeout", start_timeout, allow_none=False)
        if not isinstance(restart_failed_actors, bool):
            raise TypeError(
                f"restart_failed_actors must be True or False, got {restart_failed_actors!r}"
            )
        self.restart_failed_actors = restart_failed_actors
        if address is not None and not isinstance(address, str):
            raise TypeError(f"address must be a Ray address string or None, got {address!r}")
        self._owns_connection = _connect(address, dict(init_kwargs or {}))
        try:
            self._launch(num_actors)
        except BaseException:
            self._shutdown(polite=False)
            raise

    def _launch(self, num_actors: int | None) -> None:
        ray = _ray()

        if num_actors is None:
            num_actors = max(1, int(ray.cluster_resources().get("CPU", 1)))
        actors = min(num_actors, self.num_envs)
        bounds = [actor * self.num_envs // actors for actor in range(actors + 1)]
        self._blocks: list[tuple[int, int]] = list(zip(bounds[:-1], bounds[1:], strict=True))  # noqa: RUF007
        self.num_actors = actors
        self._where: list[tuple[int, str]] = [(0, "")] * actors
        self._queued: list[list[_BlockStep]] = [[] for _ in range(actors)]
        self._state = AsyncState.DEFAULT
        self._step_refs: dict[int, ObjectRef] = {}
        self._last_parts: list[Any] = [None] * actors  # each block's latest observations
        for actor in range(actors):
            self._actors.append(self._spawn(actor))
        spaces = self._start(list(range(actors)))
        first = spaces[0]
        check_sub_env_spaces(
            "RayVectorEnv",
            "same",
            [(block.single_observation_space, block.single_action_space) for block in spaces],
            first.single_observation_space,
            first.single_action_space,
        )
        self.single_observation_space = first.single_observation_space
        self.single_action_space = first.single_action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = {**first.metadata, "autoreset_mode": self._autoreset_mode}
        self.render_mode = first.render_mode
        empty = create_empty_array(self.single_observation_space, 1)
        self._array_obs = isinstance(empty, np.ndarray) and empty.dtype != object
        self.closed = False

    @property
    def autoreset_mode(self) -> ModeT_co:
        return self._autoreset_mode  # type: ignore[return-value]

    @property
    def actor_pids(self) -> tuple[int, ...]:
        """Each actor's process id, in sub-env order (for monitoring and fault tests)."""
        return tuple(pid for pid, _ in self._where)

    @property
    def actor_node_ids(self) -> tuple[str, ...]:
        """The Ray node id each actor runs on, in sub-env order."""
        return tuple(node for _, node in self._where)

    @property
    def actor_blocks(self) -> tuple[range, ...]:
        """The sub-env indices each actor holds: contiguous, sizes differing by at most one."""
        return tuple(range(first, last) for first, last in self._blocks)

    # -- the protocol ----------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT_co, dict[str, Any]]:
        self._check_ready("reset")
        seeds = seeds_for(seed, self.num_envs)
        mask = reset_mask_of(options, self.num_envs)

        def request(actor: int) -> ObjectRef:
            first, last = self._blocks[actor]
            block_options = options
            if mask is not None:
                block_options = {**(options or {}), "reset_mask": mask[first:last]}
            return self._actors[actor].reset.remote(seeds[first:last], block_options)

        actors = list(range(self.num_actors))
        if mask is not None:  # blocks with nothing to reset keep their observations
            actors = [actor for actor in actors if mask[slice(*self._blocks[actor])].any()]
            if any(part is None for part in self._last_parts) and len(actors) < self.num_actors:
                raise ValueError(
                    "the first reset of a RayVectorEnv must reset every sub-env; drop "
                    'options["reset_mask"] or make it all True'
                )
        replies, restarted = self._run("reset", actors, request)
        for actor in actors:
            self._queued[actor].clear()  # a restart's report is moot once its block is reset
        parts = list(self._last_parts)
        part_infos: list[dict[str, Any]] = [{} for _ in range(self.num_actors)]
        for actor, (observations, block_infos) in zip(actors, replies, strict=True):
            parts[actor] = observations
            part_infos[actor] = block_infos
        infos: dict[str, Any] = {}
        stacked = self._stack(
            parts,
            part_infos,
            [actor in restarted for actor in range(self.num_actors)],
            infos,
        )
        return stacked, infos

    def step(self, actions: ActT) -> VectorStepResult[ObsT_co]:
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: ActT) -> None:
        """Send `actions` to the actors without waiting; collect with `step_wait`."""
        self._check_ready("step_async")
        rows = self._split_actions(actions)
        self._step_refs = {
            actor: self._actors[actor].step_pickled.remote(dumps(rows[actor]))
            for actor in range(self.num_actors)
            if not self._queued[actor]
        }
        self._state = AsyncState.WAITING_STEP

    def step_wait(self) -> VectorStepResult[ObsT_co]:
        """The results of the last `step_async`."""
        if self._state is not AsyncState.WAITING_STEP:
            self._check_open()
            raise NoAsyncCallError(
                "step_wait() was called with no step_async() pending; call step_async() first",
                AsyncState.WAITING_STEP.value,
            )
        refs, self._step_refs = self._step_refs, {}
        self._state = AsyncState.DEFAULT
        replies, _ = self._run("step", list(refs), lambda actor: refs[actor], restart_in_step=True)
        answers = dict(zip(refs, replies, strict=True))
        blocks: list[_BlockStep] = []
        for actor in range(self.num_actors):
            answer = answers.get(actor)
            blocks.append(_BlockStep(*answer) if answer is not None else self._queued[actor].pop(0))
        infos: dict[str, Any] = {}
        observations = self._stack(
            [block.observations for block in blocks],
            [block.infos for block in blocks],
            [block.restarted for block in blocks],
            infos,
        )
        rewards = np.concatenate([block.rewards for block in blocks], dtype=np.float64)
        terminations = np.concatenate([block.terminations for block in blocks], dtype=np.bool_)
        truncations = np.concatenate([block.truncations for block in blocks], dtype=np.bool_)
        return observations, rewards, terminations, truncations, infos

    def render(self) -> tuple[Any, ...] | None:
        self._check_ready("render")
        if self.render_mode is None:
            return None
        return self._per_sub_env("render", lambda actor: self._actors[actor].render.remote())

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method `name` of every sub-env in its actor (or read it if not callable)."""
        self._check_ready("call")
        return self._per_sub_env(
            "call", lambda actor: self._actors[actor].call.remote(name, args, kwargs)
        )

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute `name` of every sub-env (looked up through its wrappers)."""
        self._check_ready("get_attr")
        return self._per_sub_env(
            "get_attr", lambda actor: self._actors[actor].get_attr.remote(name)
        )

    def set_attr(self, name: str, values: Any) -> None:
        """Set attribute `name` on every sub-env: a list/tuple gives one value each.

        As `SyncVectorEnv.set_attr`: on the outermost layer that has it, else the env.
        """
        self._check_ready("set_attr")
        per_env = values_per_env(values, self.num_envs)

        def request(actor: int) -> ObjectRef:
            first, last = self._blocks[actor]
            return self._actors[actor].set_attr.remote(name, per_env[first:last])

        self._run("set_attr", list(range(self.num_actors)), request)

    @property
    def np_random_seed(self) -> tuple[int | None, ...]:  # type: ignore[override]
        """The sub-envs' `np_random_seed`s, in order (as `SyncVectorEnv` gives them)."""
        return self.get_attr("np_random_seed")

    def close_extras(self, **kwargs: Any) -> None:
        """Close the sub-envs (waiting a few seconds) and kill every actor (`close` calls
        it once)."""
        self._shutdown(polite=True)

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            with contextlib.suppress(Exception):  # at interpreter exit Ray may be gone
                self._shutdown(polite=False)

    # -- actors ----------------------------------------------------------------------------

    def _spawn(self, actor: int) -> ActorHandle:
        first, last = self._blocks[actor]
        source = self._source
        if not isinstance(source, NativeSlices):
            source = source[first:last]
        options = {**self._options, "max_restarts": 0, "max_task_retries": 0}
        return _remote_block().options(**options).remote(
            first, last - first, source, self._autoreset_mode.value
        )

    def _start(self, actors: list[int]) -> list[BlockSpaces]:
        """Wait for `actors` to be placed and to build their sub-envs; their spaces."""
        ray = _ray()

        refs = [self._actors[actor].start.remote() for actor in actors]
        where = [self._actors[actor].where.remote() for actor in actors]
        try:
            replies = ray.get([*refs, *where], timeout=self._start_timeout)
        except ray.exceptions.GetTimeoutError:
            ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
            waiting = [actor for actor, ref in zip(actors, refs, strict=True) if ref not in ready]
            raise TimeoutError(
                f"the Ray actors of sub-envs {self._indices(waiting)} did not start within "
                f"{self._start_timeout} s: the cluster may lack what they ask for "
                f"({self._options or 'no options'}; free now: {ray.available_resources()}). "
                "Check the actors' resources, or raise start_timeout"
            ) from None
        except ray.exceptions.RayError as exc:
            raise ActorLostError(
                f"a Ray actor of this RayVectorEnv failed to start: {_summary(exc)}",
                self._sub_envs(actors),
            ) from exc
        starts, places = replies[: len(actors)], replies[len(actors) :]
        for actor, place in zip(actors, places, strict=True):
            self._where[actor] = place
        return [_value(reply) for reply in starts]

    def _run(
        self,
        what: str,
        actors: list[int],
        request: Callable[[int], ObjectRef],
        *,
        restart_in_step: bool = False,
    ) -> tuple[list[Any], set[int]]:
        """Send `request(actor)` to each of `actors` (a step's are already sent) and return
        their values in order, raising the first sub-env error by index.

        A lost actor closes the env and raises, unless actors are restarted: then it is
        recreated, and the request is sent again (for a step, its block's report is queued
        instead and its value is None). The second value is the set of restarted actors.
        """
        refs = [request(actor) for actor in actors]
        replies, lost = self._gather(refs, actors, what)
        if lost and not self.restart_failed_actors:
            self._lost(lost, what)
        restarted: set[int] = set()
        for actor, cause in lost.items():
            self._restart(actor, what, cause)
            restarted.add(actor)
        if restarted and not restart_in_step:
            again = [actor for actor in actors if actor in restarted]
            retried, lost = self._gather([request(actor) for actor in again], again, what)
            if lost:
                actor, cause = next(iter(lost.items()))
                self._lost({actor: cause}, what)
            for actor, reply in zip(again, retried, strict=True):
                replies[actors.index(actor)] = reply
        errors = [reply[1] for reply in replies if reply is not None and reply[0] == "error"]
        if errors:
            _raise_sub_env_error(min(errors, key=lambda details: details.index))
        return [None if reply is None else reply[1] for reply in replies], restarted

    def _gather(
        self, refs: list[ObjectRef], actors: list[int], what: str
    ) -> tuple[list[Any], dict[int, Exception]]:
        """Every actor's reply (None if it died) and the causes of death, by actor.

        A reply in bytes is one `SubEnvBlock.step_pickled` pickled; it is unpickled here.
        """
        ray = _ray()

        lost_errors = (ray.exceptions.RayActorError, ray.exceptions.ObjectLostError)
        try:
            return [_unpickled(reply) for reply in ray.get(refs, timeout=self._timeout)], {}
        except ray.exceptions.GetTimeoutError:
            self._timed_out(refs, actors, what)
        except lost_errors:
            pass
        deadline = None if self._timeout is None else time.monotonic() + self._timeout
        replies: list[Any] = []
        lost: dict[int, Exception] = {}
        for actor, ref in zip(actors, refs, strict=True):
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                replies.append(_unpickled(ray.get(ref, timeout=left)))
            except ray.exceptions.GetTimeoutError:
                self._timed_out(refs, actors, what)
            except lost_errors as exc:
                replies.append(None)
                lost[actor] = exc
        return replies, lost

    def _timed_out(self, refs: list[ObjectRef], actors: list[int], what: str) -> None:
        ray = _ray()

        ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
        silent = [actor for actor, ref in zip(actors, refs, strict=True) if ref not in ready]
        self._shutdown(polite=False)
        raise TimeoutError(
            f"RayVectorEnv {what} got no answer within {self._timeout} s from the actors of "
            f"sub-envs {self._indices(silent)}; the env is closed"
        )

    def _restart(self, actor: int, what: str, cause: Exception) -> None:
        """Recreate a lost actor and reset its sub-envs (or close the env and raise)."""
        ray = _ray()

        with contextlib.suppress(Exception):
            ray.kill(self._actors[actor])
        first, last = self._blocks[actor]
        try:
            self._actors[actor] = self._spawn(actor)
            self._start([actor])
            reply = ray.get(
                self._actors[actor].reset.remote([None] * (last - first), None),
                timeout=self._start_timeout,
            )
            observations, infos = _value(reply)
        except Exception as exc:
            self._shutdown(polite=False)
            raise ActorLostError(
                f"the Ray actor of sub-envs {self._indices([actor])} died during {what} "
                f"({_summary(cause)}), and recreating it failed: {exc}; the RayVectorEnv "
                "is closed",
                self._sub_envs([actor]),
            ) from exc
        count = last - first
        zeros, false, true = np.zeros(count), np.zeros(count, np.bool_), np.ones(count, np.bool_)
        mode = self._autoreset_mode
        report_infos = infos if mode is AutoresetMode.SAME_STEP else {}
        self._queued[actor] = [_BlockStep(observations, zeros, false, true, report_infos, True)]
        if mode is AutoresetMode.NEXT_STEP:  # the step after a truncation is the reset step
            self._queued[actor].append(_BlockStep(observations, zeros, false, false, infos))

    def _lost(self, lost: dict[int, Exception], what: str) -> None:
        actors = sorted(lost)
        causes = "; ".join(_summary(lost[actor]) for actor in actors)
        self._shutdown(polite=False)
        raise ActorLostError(
            f"the Ray actor of sub-envs {self._indices(actors)} died during {what}; the "
            "RayVectorEnv is closed. Pass restart_failed_actors=True to recreate lost actors "
            f"instead. Ray says: {causes}",
            self._sub_envs(actors),
        ) from lost[actors[0]]

    def _shutdown(self, *, polite: bool) -> None:
        """Kill every actor (after letting them close their sub-envs, if `polite`)."""
        self.closed = True
        actors, self._actors = self._actors, []
        if actors:
            ray = _ray()

            if polite:
                with contextlib.suppress(Exception):
                    refs = [actor.close.remote() for actor in actors]
                    ray.wait(refs, num_returns=len(refs), timeout=_CLOSE_SECONDS)
            for actor in actors:
                with contextlib.suppress(Exception):
                    ray.kill(actor)
        if self._owns_connection:
            self._owns_connection = False
            _disconnect()

    # -- batching --------------------------------------------------------------------------

    def _split_actions(self, actions: Any) -> list[Any]:
        """Each block's rows of `actions`, as a batch of its own."""
        if isinstance(actions, np.ndarray) and actions.dtype != object:
            action_rows(actions, self.action_space, self.num_envs)  # one row per sub-env
            return [actions[first:last] for first, last in self._blocks]
        items = action_rows(actions, self.action_space, self.num_envs)
        single = self.single_action_space
        return [
            concatenate(single, items[first:last], create_empty_array(single, last - first))
            for first, last in self._blocks
        ]

    def _stack(
        self,
        parts: list[Any],
        part_infos: list[dict[str, Any]],
        restarted: list[bool],
        infos: dict[str, Any],
    ) -> ObsT_co:
        """The blocks' observations as one batch; their infos added to `infos` as
        `SyncVectorEnv` would batch them, sub-env by sub-env, and restarts marked."""
        self._last_parts = parts
        if self._array_obs:
            observations: Any = np.concatenate(parts)
        else:
            single = self.single_observation_space
            items: list[Any] = []
            for (first, last), part in zip(self._blocks, parts, strict=True):
                items.extend(iterate(batch_space(single, last - first), part))
            observations = concatenate(single, items, create_empty_array(single, self.num_envs))
        finals: list[tuple[int, Any, Any]] = []
        blocks = zip(self._blocks, part_infos, restarted, strict=True)
        for (first, last), block_infos, again in blocks:
            if block_infos:
                self._add_block_infos(infos, finals, block_infos, first)
            if again:
                for index in range(first, last):
                    add_info(infos, {RESTARTED_KEY: True}, index, self.num_envs)
        if finals:
            add_finals(infos, finals, self.num_envs)
        return observations  # type: ignore[no-any-return]

    def _add_block_infos(
        self,
        infos: dict[str, Any],
        finals: list[tuple[int, Any, Any]],
        block_infos: dict[str, Any],
        first: int,
    ) -> None:
        plain = {key: value for key, value in block_infos.items() if key not in _FINAL_KEYS}
        masks = [plain[f"_{key}"] for key in plain if not key.startswith("_")]
        if masks:
            for row in np.flatnonzero(np.logical_or.reduce(masks)).tolist():
                add_info(infos, info_of(plain, row), first + row, self.num_envs)
        ended = block_infos.get("_final_obs")
        if ended is not None:
            final_observations = block_infos["final_obs"]
            final_infos = block_infos.get("final_info", {})
            for row in np.flatnonzero(ended).tolist():
                finals.append((first + row, final_observations[row], info_of(final_infos, row)))

    def _per_sub_env(self, what: str, request: Callable[[int], ObjectRef]) -> tuple[Any, ...]:
        values, _ = self._run(what, list(range(self.num_actors)), request)
        return tuple(item for value in values for item in value)

    # -- helpers ---------------------------------------------------------------------------

    def _indices(self, actors: list[int]) -> str:
        """The actors' blocks of sub-envs, as "first..last" ranges for messages."""
        return ", ".join(f"{self._blocks[a][0]}..{self._blocks[a][1] - 1}" for a in actors)

    def _sub_envs(self, actors: list[int]) -> list[int]:
        return [index for actor in actors for index in range(*self._blocks[actor])]

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(
                "this RayVectorEnv is closed; make a new one to keep going"
            )

    def _check_ready(self, what: str) -> None:
        self._check_open()
        if self._state is not AsyncState.DEFAULT:
            raise AlreadyPendingCallError(
                f"{what}() was called while a step_async() is pending; call step_wait() first",
                self._state.value,
            )


def _value(reply: Any) -> Any:
    """The value of one actor's reply, raising its sub-env error."""
    if reply[0] == "error":
        _raise_sub_env_error(reply[1])
    return reply[1]


def _unpickled(reply: Any) -> Any:
    return pickle.loads(reply) if isinstance(reply, bytes) else reply


def _raise_sub_env_error(details: ErrorDetails) -> None:
    """Raise a sub-env's error as `SubEnvError` (also of the original's class where it can
    be), with the original exception as its cause."""
    cause: BaseException | None = None
    with contextlib.suppress(Exception):
        cause = pickle.loads(details.pickled) if details.pickled else None
    raise sub_env_error(
        details.index, details.exc_type, details.message, details.remote_traceback, cause
    ) from cause


def _summary(exc: BaseException) -> str:
    """`exc` on one line, shortened: Ray's actor errors run over many lines."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:300]}{'...' if len(text) > 300 else ''}"


EnvFns = list[Callable[[], Env[Any, Any]]]


def _checked_fns(env_fns: Iterable[Callable[[], Env[Any, Any]]]) -> EnvFns:
    fns = list(env_fns)
    if not fns:
        raise ValueError("RayVectorEnv needs at least one env function, got none")
    not_callable = [i for i, fn in enumerate(fns) if not callable(fn)]
    if not_callable:
        raise TypeError(
            f"RayVectorEnv takes functions that build envs (e.g. `lambda: make(id)`) or "
            f"NativeSlices, but entries {not_callable} are not callable"
        )
    return fns


def _check_count(name: str, value: object, *, allow_none: bool) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        none = " or None" if allow_none else ""
        raise ValueError(f"{name} must be a positive int{none}, got {value!r}")


def _check_seconds(name: str, value: object, *, allow_none: bool) -> float | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        none = ", or None to wait as long as the actors live" if allow_none else ""
        raise ValueError(f"{name} must be a positive number of seconds{none}, got {value!r}")
    return float(value)


def _actor_options(
    num_cpus: float | None,
    resources: Mapping[str, float] | None,
    runtime_env: Mapping[str, Any] | None,
    actor_options: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The Ray options every actor is created with, checked before connecting."""
    options: dict[str, Any] = {}
    if num_cpus is not None:
        if isinstance(num_cpus, bool) or not isinstance(num_cpus, int | float) or num_cpus < 0:
            raise ValueError(f"num_cpus must be a number >= 0 or None, got {num_cpus!r}")
        options["num_cpus"] = num_cpus
    if resources is not None:
        if not isinstance(resources, Mapping):
            raise TypeError(f"resources must be a mapping of name -> amount, got {resources!r}")
        for name, amount in resources.items():
            if name in ("CPU", "GPU"):
                raise ValueError(
                    f"resources={{'{name}': ...}}: give CPUs with num_cpus and GPUs with "
                    "actor_options={'num_gpus': ...}; resources holds custom resources"
                )
            if isinstance(amount, bool) or not isinstance(amount, int | float) or amount < 0:
                raise ValueError(
                    f"resources[{name!r}] must be a number >= 0, got {amount!r}"
                )
        options["resources"] = dict(resources)
    if runtime_env is not None:
        if not isinstance(runtime_env, Mapping):
            raise TypeError(
                f"runtime_env must be a mapping (Ray's runtime_env), got {runtime_env!r}"
            )
        options["runtime_env"] = dict(runtime_env)
    extra = dict(actor_options or {})
    clash = sorted(set(extra) & _OWN_ACTOR_OPTIONS)
    if clash:
        raise ValueError(
            f"actor_options may not set {clash}: pass num_cpus, resources and runtime_env as "
            "RayVectorEnv arguments, and use restart_failed_actors for restarts"
        )
    return {**options, **extra}
