"""AsyncVectorEnv's partial batches (EnvPool's asynchronous mode): `send(actions, env_ids)`
starts sub-envs, `recv()` returns the first `batch_size` to finish with ``info["env_id"]``.
Per sub-env, the results are the synchronous env's under the same seeds, in every autoreset
mode, whatever the order in which the sub-envs finish."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from protogym.error import AlreadyPendingCallError, NoAsyncCallError
from protogym.vector import AsyncTimeoutError, AsyncVectorEnv, SubEnvError, SyncVectorEnv
from protogym.vector.utils import info_of
from tests.vector.vector_helpers import Countdown, DictEnv, countdowns, sleepies

MODES = ["same_step", "next_step", "disabled"]


def policy(index: int, step: int) -> int:
    """Each sub-env's action at its own step `step`: the same in both runs."""
    return (3 * index + step) % 3


def record(obs: Any, reward: Any, terminated: Any, truncated: Any, infos: dict[str, Any],
           row: int) -> tuple[Any, ...]:
    """One sub-env's part of a step result, comparable across the two runs."""
    final = None
    if "final_obs" in infos and infos["_final_obs"][row]:
        final = (infos["final_obs"][row].tolist(), info_of(infos["final_info"], row))
    plain = {key: value for key, value in infos.items()
             if key not in {"env_id", "final_obs", "_final_obs", "final_info", "_final_info"}}
    return (obs[row].tolist(), float(reward[row]), bool(terminated[row]), bool(truncated[row]),
            info_of(plain, row), final)


def sync_trajectories(fns: list[Any], mode: str, steps: int, seed: int) -> list[list[Any]]:
    env = SyncVectorEnv(fns, autoreset_mode=mode)
    env.reset(seed=seed)
    per_env: list[list[Any]] = [[] for _ in fns]
    for step in range(steps):
        actions = np.array([policy(i, step) for i in range(len(fns))])
        result = env.step(actions)
        for i in range(len(fns)):
            per_env[i].append(record(*result, i))
    env.close()
    return per_env


def batch_trajectories(env: AsyncVectorEnv[Any, Any, Any], steps: int, seed: int
                       ) -> tuple[list[list[Any]], list[list[int]]]:
    """Each sub-env's first `steps` results through send/recv, and the env ids of each
    recv (to see that the order of completion varied)."""
    num = env.num_envs
    env.reset(seed=seed)
    taken = [0] * num
    per_env: list[list[Any]] = [[] for _ in range(num)]
    orders: list[list[int]] = []
    env.send(np.array([policy(i, 0) for i in range(num)]), np.arange(num))
    while min(taken) < steps:
        result = env.recv()
        ids = result[4]["env_id"]
        assert ids.dtype == np.int32 and len(ids) == env.batch_size
        orders.append(ids.tolist())
        for row, index in enumerate(ids.tolist()):
            if taken[index] < steps:
                per_env[index].append(record(*result, row))
            taken[index] += 1
        env.send(np.array([policy(i, taken[i]) for i in ids.tolist()]), ids)
    return per_env, orders


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shared_memory", [True, False])
def test_per_sub_env_results_equal_the_sync_env(mode: str, shared_memory: bool) -> None:
    fns = sleepies(6, max_ms=3.0)
    expected = sync_trajectories(fns, mode, steps=9, seed=11)
    with AsyncVectorEnv(fns, num_workers=6, batch_size=2, autoreset_mode=mode,
                        shared_memory=shared_memory) as env:
        got, orders = batch_trajectories(env, steps=9, seed=11)
    assert got == expected
    # the sleeps made the sub-envs finish in another order than they were sent
    assert any(order != sorted(order) for order in orders) or len(
        {tuple(order) for order in orders}
    ) > 3


def test_workers_with_several_sub_envs_reply_for_each_as_it_finishes() -> None:
    fns = sleepies(5, max_ms=1.0)
    expected = sync_trajectories(fns, "same_step", steps=7, seed=3)
    with AsyncVectorEnv(fns, num_workers=2, batch_size=3) as env:
        got, _ = batch_trajectories(env, steps=7, seed=3)
    assert got == expected


def test_dict_observations_come_back_row_by_row() -> None:
    fns = [lambda i=i: DictEnv(ident=i) for i in range(4)]
    with AsyncVectorEnv(fns, num_workers=2, batch_size=2) as env:
        env.reset(seed=0)
        env.send(np.array([1, 1, 1, 1]))
        obs, _, _, _, infos = env.recv()
        ids = infos["env_id"].tolist()
        assert obs["count"].tolist() == [1, 1]
        assert obs["vec"][:, 1].tolist() == [float(i) for i in ids]


def test_actions_and_env_ids_may_be_lists_or_any_int_arrays() -> None:
    with AsyncVectorEnv(countdowns(4, length=50), num_workers=4, batch_size=2) as env:
        env.reset(seed=0)
        env.send([5, 7], np.array([2, 0], dtype=np.uint8))  # a list goes through a copy
        env.send((4, 9), [3, 1])
        _, rewards, _, _, infos = env.recv(count=4)
        assert infos["env_id"].dtype == np.int32
        by_env = dict(zip(infos["env_id"].tolist(), rewards.tolist(), strict=True))
        assert by_env == {2: 6.0, 0: 8.0, 3: 5.0, 1: 10.0}  # its action + its step count
        counts = dict(zip(infos["env_id"].tolist(), infos["count"].tolist(), strict=True))
        assert counts == {0: 1, 1: 1, 2: 1, 3: 1}
        with pytest.raises(ValueError, match=r"env_ids must be in \[0, 4\), got \[-1, 0\]"):
            env.send([1, 1], np.array([-1, 0], dtype=np.int64))
        with pytest.raises(ValueError, match="env_ids must be a 1-D sequence"):
            env.send([1, 1], np.array([0.0, 1.0]))
        with pytest.raises(ValueError, match="env_ids is empty"):
            env.send([], [])
        obs, *_ = env.step(np.ones(4, dtype=np.int64))  # every sub-env took two steps
        assert obs[:, 0].tolist() == [2, 2, 2, 2]


def test_actions_that_do_not_fit_shared_memory_travel_through_the_pipes() -> None:
    # float actions for an int space reach each sub-env as they are (as in SyncVectorEnv)
    with AsyncVectorEnv(countdowns(4, length=50), num_workers=2, batch_size=4) as env:
        env.reset(seed=0)
        env.send(np.array([0.5, 1.5, 2.5, 0.25]), [3, 2, 1, 0])
        _, rewards, _, _, infos = env.recv()
        by_env = dict(zip(infos["env_id"].tolist(), rewards.tolist(), strict=True))
        assert by_env == {3: 1.5, 2: 2.5, 1: 3.5, 0: 1.25}
        with pytest.raises(ValueError, match=r"send\(\) needs a batch of 2 actions.*\(3,\)"):
            env.send(np.array([0.5, 1.5, 2.5]), [0, 1])
        with pytest.raises(ValueError, match=r"send\(\) needs a batch of 2 actions.*list"):
            env.send([0, 1, 2], [0, 1])


def test_step_stays_the_full_batch_call_and_refuses_to_mix() -> None:
    with AsyncVectorEnv(countdowns(4, length=50), num_workers=2, batch_size=2) as env:
        env.reset(seed=0)
        obs, *_ = env.step(np.ones(4, dtype=np.int64))  # full batch, in index order
        assert obs[:, 0].tolist() == [1, 1, 1, 1] and obs[:, 1].tolist() == [0, 1, 2, 3]
        env.send(np.ones(2, dtype=np.int64), [1, 3])
        for call in (lambda: env.step(np.ones(4, dtype=np.int64)),
                     lambda: env.get_attr("count"), lambda: env.call("render"),
                     lambda: env.set_attr("length", 9)):
            with pytest.raises(AlreadyPendingCallError, match=r"sub-envs \[1, 3\] are out"):
                call()
        obs, _, _, _, infos = env.recv()
        assert sorted(infos["env_id"].tolist()) == [1, 3]
        assert obs[:, 0].tolist() == [2, 2]
        obs, *_ = env.step(np.ones(4, dtype=np.int64))  # all back: step works again
        assert obs[:, 0].tolist() == [2, 3, 2, 3]


def test_bad_sends_and_receives_raise_at_once() -> None:
    with AsyncVectorEnv(countdowns(4, length=50), num_workers=2, batch_size=2) as env:
        env.reset(seed=0)
        with pytest.raises(NoAsyncCallError, match=r"recv\(\) was called with no send\(\)"):
            env.recv()
        with pytest.raises(ValueError, match=r"send\(\) needs a batch of 2 actions.*\(3,\)"):
            env.send(np.ones(3, dtype=np.int64), [0, 1])
        with pytest.raises(ValueError, match=r"env_ids must be in \[0, 4\), got \[0, 4\]"):
            env.send(np.ones(2, dtype=np.int64), [0, 4])
        with pytest.raises(ValueError, match=r"env_ids has repeats: \[2, 2\]"):
            env.send(np.ones(2, dtype=np.int64), [2, 2])
        with pytest.raises(ValueError, match="env_ids must be a 1-D sequence"):
            env.send(np.ones(2, dtype=np.int64), [[0, 1]])
        env.send(np.ones(1, dtype=np.int64), [2])
        with pytest.raises(ValueError, match=r"sub-envs \[2\] are still out"):
            env.send(np.ones(2, dtype=np.int64), [1, 2])
        with pytest.raises(ValueError, match=r"returns 2 sub-envs .* only 1 are out.*count=1"):
            env.recv()  # would wait forever for a second sub-env
        for count in (0, 1.0, True):
            with pytest.raises(ValueError, match=r"count=\.\.\.\) must be a positive int"):
                env.recv(count=count)  # type: ignore[arg-type]
        env.send(np.ones(1, dtype=np.int64), [0])
        obs, *_ = env.recv()
        assert obs[:, 0].tolist() == [1, 1]  # the refused calls stepped nothing
        env.send(np.ones(2, dtype=np.int64), [0, 2])
        obs, *_, infos = env.recv(count=1)  # fewer than batch_size: the first one back
        (first,) = infos["env_id"].tolist()
        assert len(obs) == 1 and first in (0, 2)
        env.send(np.ones(2, dtype=np.int64), [1, 3])
        *_, infos = env.recv(count=3)  # more than batch_size: every sub-env still out
        assert sorted(infos["env_id"].tolist()) == sorted({0, 2} - {first} | {1, 3})
    with pytest.raises(ValueError, match=r"batch_size must be at most the number of sub-envs"):
        AsyncVectorEnv(countdowns(2), batch_size=3)
    with pytest.raises(ValueError, match="batch_size must be a positive int"):
        AsyncVectorEnv(countdowns(2), batch_size=0)


def test_a_sub_env_error_is_raised_by_recv_and_the_others_still_come_back() -> None:
    fns = countdowns(3, length=50)
    fns[1] = lambda: Countdown(ident=1, length=50, fail_at=1)
    with AsyncVectorEnv(fns, num_workers=3, batch_size=1) as env:
        env.reset(seed=0)
        env.send(np.ones(3, dtype=np.int64))
        with pytest.raises(SubEnvError, match="sub-env 1 raised ValueError"):
            for _ in range(3):
                env.recv()
        returned = []
        while True:
            try:
                returned.extend(env.recv()[4]["env_id"].tolist())
            except NoAsyncCallError:
                break
        assert 1 not in returned and len(returned) <= 2


def test_recv_times_out_and_closes() -> None:
    fns = sleepies(2, max_ms=400.0)
    with AsyncVectorEnv(fns, num_workers=2, batch_size=2) as env:
        env.reset(seed=0)
        env.send(np.ones(2, dtype=np.int64))
        with pytest.raises(AsyncTimeoutError, match=r"recv took longer than 0\.01 s"):
            env.recv(timeout=0.01)
        assert env.closed


def test_disabled_mode_resets_the_ended_sub_envs_while_others_step() -> None:
    fns = countdowns(4, length=2)  # sub-env i ends after 2 + i steps
    with AsyncVectorEnv(fns, num_workers=4, batch_size=1, autoreset_mode="disabled") as env:
        env.reset(seed=0)
        env.send(np.ones(4, dtype=np.int64))
        returned: dict[int, float] = {}

        def until_zero_returns() -> bool:
            """recv, sending the others straight back, until sub-env 0 returns."""
            while True:
                obs, _, terminated, _, infos = env.recv()
                index = int(infos["env_id"][0])
                returned[index] = float(obs[0, 0])
                if index == 0:
                    return bool(terminated[0])
                env.send(np.ones(1, dtype=np.int64), [index])

        assert not until_zero_returns()
        env.send(np.ones(1, dtype=np.int64), [0])
        assert until_zero_returns()  # its second step ends its episode
        with pytest.raises(ValueError, match=r"reset\(\): sub-envs \[1, 2, 3\] are out"):
            env.reset()
        mask = np.array([True, False, False, False])
        full, infos = env.reset(seed=[5, None, None, None], options={"reset_mask": mask})
        assert full[0, 0] == 0.0 and infos["reset_seed"][0] == 5
        assert infos["_reset_seed"].tolist() == [True, False, False, False]
        # the rows of the sub-envs still out are the observations last returned for them
        # (the first reset's, or a recv's), never a row a worker may be rewriting
        for index in (1, 2, 3):
            assert full[index, 0] == returned.get(index, 0.0)
        env.send(np.ones(1, dtype=np.int64), [0])
        assert not until_zero_returns()
        assert returned[0] == 1.0  # a new episode


class Stuck(Countdown):
    """A Countdown whose steps take 30 s: a sub-env still stepping long after the test."""

    def step(self, action: np.int64) -> Any:
        time.sleep(30.0)
        return super().step(action)


def test_a_masked_reset_amid_a_batch_waits_only_for_the_reset_sub_envs_workers() -> None:
    fns: list[Any] = [lambda: Countdown(ident=0, length=50), lambda: Stuck(ident=1)]
    env = AsyncVectorEnv(fns, num_workers=2, batch_size=1, autoreset_mode="disabled")
    try:
        env.reset(seed=0)
        env.send(np.ones(2, dtype=np.int64))
        _, _, _, _, infos = env.recv(timeout=20.0)
        assert infos["env_id"].tolist() == [0]
        # sub-env 1's worker is busy for 30 s; resetting sub-env 0 does not wait for it
        env.reset_async(seed=[4, None], options={"reset_mask": np.array([True, False])})
        obs, infos = env.reset_wait(timeout=15.0)
        assert obs[:, 0].tolist() == [0.0, 0.0] and infos["reset_seed"][0] == 4
    finally:
        env.close(terminate=True)


def test_observations_that_are_not_arrays_cannot_be_sent() -> None:
    from protogym.spaces import Text

    class Words(Countdown):
        def __init__(self) -> None:
            super().__init__()
            self.observation_space = Text(5)  # type: ignore[assignment]

        def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
                  ) -> Any:
            return "ab", {}

    with AsyncVectorEnv([Words, Words], num_workers=1, shared_memory=False) as env:
        env.reset(seed=0)
        with pytest.raises(TypeError, match=r"send\(\) needs observations that batch as arrays"):
            env.send(np.ones(2, dtype=np.int64))
