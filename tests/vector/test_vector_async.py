"""AsyncVectorEnv specifics: workers, shared memory, start methods and every fault case."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.error import AlreadyPendingCallError, ClosedEnvironmentError, NoAsyncCallError
from protogym.vector import (
    AsyncTimeoutError,
    AsyncVectorEnv,
    AutoresetMode,
    SubEnvError,
    SyncVectorEnv,
    WorkerDiedError,
)
from tests.vector.vector_helpers import Countdown, DictEnv, countdowns


def ones(n: int) -> np.ndarray[Any, Any]:
    return np.ones(n, dtype=np.int64)


def test_sub_envs_are_split_into_contiguous_blocks_one_worker_each() -> None:
    with AsyncVectorEnv(countdowns(5), num_workers=2) as env:
        assert env.num_workers == 2
        pids = env.get_attr("pid")
        assert len(set(pids)) == 2
        assert pids[0] == pids[1] and pids[2] == pids[3] == pids[4]
        assert env.worker_pids == (pids[0], pids[4])
        assert os.getpid() not in pids
    with AsyncVectorEnv(countdowns(2), num_workers=8) as env:
        assert env.num_workers == 2  # never more workers than sub-envs
    with AsyncVectorEnv(countdowns(1)) as env:
        assert env.num_workers == 1


def test_default_worker_count_is_the_core_count() -> None:
    with AsyncVectorEnv(countdowns(3)) as env:
        assert env.num_workers == min(3, os.cpu_count() or 1)


def test_sub_env_exception_names_the_index_and_carries_the_remote_traceback() -> None:
    fns = countdowns(4, length=10)
    fns[2] = lambda: Countdown(ident=2, length=10, fail_at=2)
    env = AsyncVectorEnv(fns, num_workers=2)
    env.reset(seed=0)
    env.step(ones(4))
    with pytest.raises(SubEnvError) as caught:
        env.step(ones(4))
    error = caught.value
    assert error.index == 2
    assert error.exc_type == "ValueError"
    assert "sub-env 2 raised ValueError: Countdown 2 fails at step 2" in str(error)
    assert "Traceback (most recent call last)" in error.remote_traceback
    assert "vector_helpers.py" in error.remote_traceback
    assert isinstance(error.__cause__, ValueError)
    # it is also a ValueError, as the sub-env raised, so `except ValueError` catches it
    assert isinstance(error, ValueError)
    # the env stays usable: the pipes are in step, so a reset works
    obs, _ = env.reset(seed=0)
    assert obs[:, 0].tolist() == [0, 0, 0, 0]
    env.close()


def test_env_constructor_failure_is_raised_and_leaves_no_workers() -> None:
    def broken() -> Countdown:
        raise RuntimeError("cannot build this env")

    before = set(multiprocessing.active_children())
    fns: list[Any] = [*countdowns(1), broken]
    with pytest.raises(SubEnvError, match=r"sub-env 1 raised RuntimeError: cannot build"):
        AsyncVectorEnv(fns, num_workers=2)
    assert set(multiprocessing.active_children()) <= before


def test_a_killed_worker_is_detected_not_waited_on() -> None:
    env = AsyncVectorEnv(countdowns(4, length=100), num_workers=2)
    env.reset(seed=0)
    pid = env.get_attr("pid")[3]
    os.kill(pid, signal.SIGKILL)
    start = time.monotonic()
    with pytest.raises(WorkerDiedError, match=r"sub-envs 2\.\.3 .* died with exit code -9"):
        env.step(ones(4))
    assert time.monotonic() - start < 10.0
    assert env.closed
    assert not any(p.pid == pid for p in multiprocessing.active_children())
    env.close()  # already closed by the failure: still harmless


def test_a_worker_that_exits_mid_step_is_detected() -> None:
    fns = countdowns(2, length=100)
    fns[0] = lambda: Countdown(ident=0, length=100, exit_at=2)
    env = AsyncVectorEnv(fns, num_workers=2)
    env.reset(seed=0)
    env.step(ones(2))
    with pytest.raises(WorkerDiedError, match=r"sub-envs 0\.\.0 .* exit code 3 during step"):
        env.step(ones(2))
    with pytest.raises(ClosedEnvironmentError):
        env.step(ones(2))


def test_close_ends_every_worker_and_is_idempotent() -> None:
    env = AsyncVectorEnv(countdowns(3), num_workers=3)
    pids = set(env.get_attr("pid"))
    env.close()
    env.close()
    alive = {p.pid for p in multiprocessing.active_children()}
    assert not pids & alive
    with pytest.raises(ClosedEnvironmentError, match="AsyncVectorEnv is closed"):
        env.step(ones(3))
    with pytest.raises(ClosedEnvironmentError):
        env.get_attr("pid")


def test_close_with_a_step_in_flight_still_ends_the_workers() -> None:
    env = AsyncVectorEnv(countdowns(2), num_workers=2)
    env.reset(seed=0)
    pids = set(env.get_attr("pid"))
    env.step_async(ones(2))
    with pytest.warns(UserWarning, match="was pending"):
        env.close()
    assert not pids & {p.pid for p in multiprocessing.active_children()}


def test_step_async_and_step_wait_pair_up() -> None:
    with AsyncVectorEnv(countdowns(2), num_workers=2) as env:
        env.reset(seed=0)
        env.step_async(ones(2))
        with pytest.raises(AlreadyPendingCallError, match=r"step_async\(\) is pending") as e:
            env.step_async(ones(2))
        assert e.value.name == "step"
        with pytest.raises(AlreadyPendingCallError, match=r"pending; call step_wait\(\)"):
            env.get_attr("ident")
        with pytest.raises(AlreadyPendingCallError):
            env.reset_async()
        with pytest.raises(AlreadyPendingCallError):
            env.call_async("ident")
        obs, *_ = env.step_wait()
        assert obs[:, 0].tolist() == [1, 1]
        with pytest.raises(NoAsyncCallError, match=r"no step_async\(\) pending") as no:
            env.step_wait()
        assert no.value.name == "step"


def test_reset_async_and_call_async_pair_up_with_their_waits() -> None:
    with AsyncVectorEnv(countdowns(3), num_workers=2) as env:
        env.reset_async(seed=4)
        with pytest.raises(AlreadyPendingCallError, match=r"reset_async\(\) is pending") as e:
            env.step_async(ones(3))
        assert e.value.name == "reset"
        with pytest.raises(NoAsyncCallError):
            env.step_wait()  # the wrong wait leaves the reset pending
        obs, infos = env.reset_wait()
        assert obs[:, 1].tolist() == [0, 1, 2]
        assert infos["reset_seed"].tolist() == [4, 5, 6]
        with pytest.raises(NoAsyncCallError, match=r"no reset_async\(\) pending"):
            env.reset_wait()
        env.call_async("ident")
        with pytest.raises(AlreadyPendingCallError, match="call_async"):
            env.set_attr("ident", 1)
        assert env.call_wait() == (0, 1, 2)
        with pytest.raises(NoAsyncCallError, match=r"no call_async\(\) pending"):
            env.call_wait()
        with pytest.raises(ValueError, match=r"call\('step'\) would bypass"):
            env.call("step", 1)


def test_close_with_a_call_pending_warns_and_waits_for_it() -> None:
    env = AsyncVectorEnv(countdowns(2), num_workers=2)
    env.reset_async(seed=0)
    with pytest.warns(UserWarning, match="`reset` was pending.*waits for its replies"):
        env.close()
    assert env.closed
    env = AsyncVectorEnv(countdowns(2), num_workers=2)
    env.reset(seed=0)
    env.step_async(ones(2))
    with pytest.warns(UserWarning, match="`step` was pending.*ends the workers"):
        env.close(terminate=True)


def test_np_random_seed_gives_every_sub_envs_seed() -> None:
    with AsyncVectorEnv(countdowns(3), num_workers=2) as env:
        env.reset(seed=7)
        assert env.np_random_seed == (7, 8, 9)
        env.reset()
        assert env.np_random_seed == (7, 8, 9)  # seed=None keeps each sub-env's stream
        generators = env.np_random
        assert len(generators) == 3 and all(
            isinstance(g, np.random.Generator) for g in generators
        )


def test_step_wait_timeout_closes_the_env() -> None:
    class Slow(Countdown):
        def step(self, action: Any) -> Any:
            time.sleep(3.0)
            return super().step(action)

    env = AsyncVectorEnv([lambda: Slow()], num_workers=1)
    env.reset(seed=0)
    env.step_async(ones(1))
    with pytest.raises(TimeoutError, match=r"took longer than 0\.2 s"):
        env.step_wait(timeout=0.2)
    assert env.closed
    env.close(terminate=True)  # harmless after the timeout closed it


def test_a_timeout_is_also_multiprocessings_timeout_error() -> None:
    class SlowReset(Countdown):
        def reset(self, **kwargs: Any) -> Any:
            time.sleep(3.0)
            return super().reset(**kwargs)

    env = AsyncVectorEnv([lambda: SlowReset()], num_workers=1)
    env.reset_async()
    with pytest.raises(multiprocessing.TimeoutError):
        env.reset_wait(timeout=0.2)
    assert isinstance(AsyncTimeoutError("x"), TimeoutError)
    assert env.closed


def test_spawn_context_gives_the_same_trajectory_as_sync() -> None:
    fns = [lambda: protogym.make("CartPole-v1") for _ in range(2)]
    actions = np.random.default_rng(0).integers(0, 2, size=(30, 2))
    sync = SyncVectorEnv(fns)
    spawned = AsyncVectorEnv(fns, context="spawn", num_workers=1)
    try:
        a, _ = sync.reset(seed=4)
        b, _ = spawned.reset(seed=4)
        np.testing.assert_array_equal(a, b)
        for row in actions:
            a, ra, ta, tra, _ = sync.step(row)
            b, rb, tb, trb, _ = spawned.step(row)
            np.testing.assert_array_equal(a, b)
            np.testing.assert_array_equal(ra, rb)
            np.testing.assert_array_equal(ta, tb)
    finally:
        sync.close()
        spawned.close()


def test_unknown_context_and_bad_worker_count_are_clear_errors() -> None:
    with pytest.raises(ValueError, match=r"context must be None or a start method"):
        AsyncVectorEnv(countdowns(1), context="teleport")
    with pytest.raises(ValueError, match="num_workers must be a positive int or None, got 0"):
        AsyncVectorEnv(countdowns(1), num_workers=0)
    with pytest.raises(ValueError, match="max_concurrency must be a positive int or None"):
        AsyncVectorEnv(countdowns(1), max_concurrency=0)
    with pytest.raises(ValueError, match=r"worker=\.\.\.\) is not supported"):
        AsyncVectorEnv(countdowns(1), worker=print)  # type: ignore[call-overload]


def test_max_concurrency_caps_the_workers_and_gymnasiums_arguments_go_by_position() -> None:
    with AsyncVectorEnv(countdowns(4), max_concurrency=1) as env:
        assert env.num_workers == 1
        assert len(set(env.get_attr("pid"))) == 1
    with AsyncVectorEnv(countdowns(2), False, False, None, True, None, "same",
                        "next_step") as env:
        assert (env.shared_memory, env.copy, env.daemon) == (False, False, True)
        assert env.autoreset_mode is AutoresetMode.NEXT_STEP
        assert env.observation_mode == "same"


def test_workers_start_without_mpi_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMPI_COMM_WORLD_RANK", "3")
    monkeypatch.setenv("PMI_RANK", "3")
    with AsyncVectorEnv(countdowns(1), context="spawn") as env:
        seen = env.get_attr("mpi_rank")
    assert seen == (None,)
    assert os.environ["OMPI_COMM_WORLD_RANK"] == "3"  # the parent keeps its own


@pytest.mark.parametrize("spin_seconds", [0, 0.01])
def test_spinning_or_not_the_trajectory_is_the_sync_one(spin_seconds: float) -> None:
    fns = [lambda: protogym.make("CartPole-v1") for _ in range(3)]
    sync = SyncVectorEnv(fns)
    spinning = AsyncVectorEnv(fns, num_workers=2, spin_seconds=spin_seconds)
    try:
        assert spinning.spin_seconds == spin_seconds
        np.testing.assert_array_equal(sync.reset(seed=8)[0], spinning.reset(seed=8)[0])
        for row in np.random.default_rng(2).integers(0, 2, size=(40, 3)):
            for a, b in zip(sync.step(row)[:4], spinning.step(row)[:4], strict=True):
                np.testing.assert_array_equal(a, b)
    finally:
        sync.close()
        spinning.close()


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process `pid`, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
def test_an_idle_worker_spins_at_most_spin_seconds_then_sleeps() -> None:
    with AsyncVectorEnv(countdowns(1), spin_seconds=0.3) as env:
        env.reset(seed=0)
        env.step(ones(1))
        (pid,) = env.worker_pids
        before = _cpu_seconds(pid)
        time.sleep(1.5)  # the worker waits for a command that does not come
        spent = _cpu_seconds(pid) - before
    assert spent < 0.3 + 0.2  # the spin, plus clock-tick rounding; then it slept


def test_a_bad_spin_seconds_is_a_clear_error() -> None:
    for bad in (-1e-6, 2.0, True, "fast", float("nan")):
        with pytest.raises(ValueError, match=r"spin_seconds must be a number of seconds from 0"):
            AsyncVectorEnv(countdowns(1), spin_seconds=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("shared_memory", [True, False])
def test_dict_observations_batch_through_shared_memory_or_pipes(shared_memory: bool) -> None:
    fns = [lambda i=i: DictEnv(ident=i) for i in range(3)]
    sync = SyncVectorEnv(fns)
    parallel = AsyncVectorEnv(fns, num_workers=2, shared_memory=shared_memory)
    try:
        a, _ = sync.reset(seed=1)
        b, _ = parallel.reset(seed=1)
        for _ in range(3):
            np.testing.assert_array_equal(a["count"], b["count"])
            np.testing.assert_array_equal(a["vec"], b["vec"])
            a, *_, ia = sync.step(ones(3))
            b, *_, ib = parallel.step(ones(3))
        assert ia["_final_obs"].tolist() == ib["_final_obs"].tolist()
        for index in np.flatnonzero(ia["_final_obs"]).tolist():
            for key in ("count", "vec"):
                np.testing.assert_array_equal(ia["final_obs"][index][key],
                                              ib["final_obs"][index][key])
        obs, _ = parallel.reset(options={"reset_mask": np.array([False, True, False])})
        assert obs["count"].tolist() == [b["count"][0], 0, b["count"][2]]
    finally:
        sync.close()
        parallel.close()


def test_actions_of_the_wrong_shape_or_kind_are_refused() -> None:
    with AsyncVectorEnv(countdowns(2), num_workers=1) as env:
        env.reset(seed=0)
        with pytest.raises(ValueError, match=r"batch of 2 actions, an array of shape \(2,\)"):
            env.step(np.ones(3, dtype=np.int64))
        for single in (np.int64(1), np.array(1), 1):
            with pytest.raises(TypeError, match="batch of 2 actions"):
                env.step(single)
        obs, *_ = env.step([1, 1])
        assert obs[:, 0].tolist() == [1, 1]
        # an array of another dtype reaches each sub-env as its row, as in SyncVectorEnv
        _, rewards, *_ = env.step(np.array([0.5, 1.5]))
        assert rewards.tolist() == [2.5, 3.5]


def test_messages_larger_than_a_pipe_buffer_arrive_whole() -> None:
    big = np.arange(300_000, dtype=np.float64)  # 2.4 MB each way, many reads and writes
    with AsyncVectorEnv(countdowns(2), num_workers=2) as env:
        env.set_attr("payload", [big, big + 1])
        back = env.get_attr("payload")
        np.testing.assert_array_equal(back[0], big)
        np.testing.assert_array_equal(back[1], big + 1)
