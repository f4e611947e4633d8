"""RayVectorEnv: the Sync trajectories on a real two-node Ray cluster, placement, and faults.

The tests that need a cluster use the `ray_cluster` fixture (tests/vector/conftest.py): a
head node and a second node on 127.0.0.1, the second offering a custom resource. Argument
checks and the actor's own logic (`SubEnvBlock`) run without Ray.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.error import ClosedEnvironmentError
from protogym.vector import AutoresetMode, SubEnvError, SyncVectorEnv
from protogym.vector.ray_actor import ErrorDetails, NativeSlices, Reply, SubEnvBlock, dumps
from protogym.vector.ray_vector_env import RESTARTED_KEY, ActorLostError, RayVectorEnv
from tests.vector.conftest import SECOND_NODE_RESOURCE, RayCluster
from tests.vector.vector_helpers import Countdown, DictEnv, countdowns

# Waits that would only run out if RayVectorEnv hung: a fault must come as an error first.
NO_HANG: dict[str, Any] = {"timeout": 60.0, "start_timeout": 60.0}

slow = pytest.mark.slow


def ones(n: int) -> np.ndarray[Any, Any]:
    return np.ones(n, dtype=np.int64)


def assert_same(a: Any, b: Any, where: str = "") -> None:
    """Batches, flags and infos equal in value and layout (arrays, masks, nested dicts)."""
    if isinstance(a, dict):
        assert isinstance(b, dict), where
        assert sorted(a) == sorted(b), f"{where}: keys {sorted(a)} != {sorted(b)}"
        for key in a:
            assert_same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, tuple | list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert isinstance(b, np.ndarray) and b.dtype == object and a.shape == b.shape, where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), f"{where}: {type(b)}"
        assert a.dtype == b.dtype, f"{where}: {a.dtype} != {b.dtype}"
        np.testing.assert_array_equal(a, b, err_msg=where)
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def run_side_by_side(
    sync: Any, ray_env: RayVectorEnv[Any, Any, Any], seed: int | list[int], actions: Any
) -> None:
    """Reset both with `seed` and step both through `actions`, comparing every result."""
    assert_same(sync.reset(seed=seed), ray_env.reset(seed=seed), "reset")
    for step, row in enumerate(actions):
        assert_same(sync.step(row), ray_env.step(row), f"step {step}")


# -- without a cluster ---------------------------------------------------------------------


def test_importing_protogym_and_its_vector_envs_does_not_import_ray() -> None:
    code = (
        "import sys, protogym, protogym.vector\n"
        "protogym.vector.RayVectorEnv\n"
        "print('ray' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


def test_bad_arguments_are_refused_before_any_connection() -> None:
    fns = countdowns(2)
    cases: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"num_actors": 0}, ValueError, "num_actors must be a positive int or None, got 0"),
        ({"timeout": -1}, ValueError, "timeout must be a positive number of seconds"),
        ({"start_timeout": None}, ValueError, "start_timeout must be a positive number"),
        ({"num_cpus": -1}, ValueError, "num_cpus must be a number >= 0 or None"),
        ({"resources": {"CPU": 1}}, ValueError, "give CPUs with num_cpus"),
        ({"resources": {"gpu_box": "one"}}, ValueError, r"resources\['gpu_box'\] must be a number"),
        ({"runtime_env": "pip"}, TypeError, "runtime_env must be a mapping"),
        ({"actor_options": {"max_restarts": 3}}, ValueError, "use restart_failed_actors"),
        ({"restart_failed_actors": "yes"}, TypeError, "restart_failed_actors must be True"),
        ({"address": 6379}, TypeError, "address must be a Ray address string or None"),
        ({"autoreset_mode": "sometimes"}, ValueError, "autoreset_mode must be an AutoresetMode"),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=message):
            RayVectorEnv(fns, **kwargs)
    with pytest.raises(ValueError, match="needs at least one env function"):
        RayVectorEnv([])
    with pytest.raises(TypeError, match=r"entries \[1\] are not callable"):
        RayVectorEnv([fns[0], "CartPole-v1"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"NativeSlices\.num_envs must be a positive int, got 0"):
        RayVectorEnv(NativeSlices(lambda n, mode: protogym.make_vec("CartPole-v1", n), 0))
    with pytest.raises(ValueError, match=r"RayVectorEnv does not accept vector_kwargs \['copy'\]"):
        protogym.make_vec("CartPole-v1", 2, vectorization_mode="ray", vector_kwargs={"copy": False})


def ok(reply: Reply) -> Any:
    assert reply[0] == "ok", reply
    return reply[1]


def failure(reply: Reply) -> ErrorDetails:
    assert reply[0] == "error", reply
    return reply[1]


def test_an_actor_block_steps_its_sub_envs_and_names_failures_by_global_index() -> None:
    fns = countdowns(3, length=5)
    fns[1] = lambda: Countdown(ident=1, length=5, fail_at=2)
    block = SubEnvBlock(first=4, count=3, source=fns, autoreset_mode="same_step")
    assert ok(block.start()).single_action_space == protogym.spaces.Discrete(3)
    observations, infos = ok(block.reset([7, 8, 9], None))
    assert observations[:, 1].tolist() == [0, 1, 2]
    assert infos["reset_seed"].tolist() == [7, 8, 9]
    assert ok(block.step(ones(3)))[1].tolist() == [2.0, 2.0, 2.0]
    assert ok(block.get_attr("ident")) == (0, 1, 2)
    details = failure(block.step(ones(3)))
    assert details.index == 5 and details.exc_type == "ValueError"
    assert details.message == "Countdown 1 fails at step 2"
    assert "holding sub-envs 4..6" in details.remote_traceback
    details = failure(block.call("no_such_method", (), {}))
    assert details.index == 4 and details.exc_type == "AttributeError"
    assert ok(block.close()) is None


def test_an_actor_block_steps_pickled_as_it_steps() -> None:
    plain, pickled = (
        SubEnvBlock(first=0, count=2, source=countdowns(2, length=5), autoreset_mode="same_step")
        for _ in range(2)
    )
    for block in (plain, pickled):
        ok(block.start())
        ok(block.reset([3, 4], None))
    for _ in range(6):  # through an autoreset, so final observations and infos travel too
        expected = ok(plain.step(ones(2)))
        reply = pickled.step_pickled(dumps(ones(2)))
        assert isinstance(reply, bytes)
        observations, rewards, terminations, truncations, infos = ok(pickle.loads(reply))
        assert_same(expected, (observations, rewards, terminations, truncations, infos))
    assert pickle.loads(dumps(lambda x: x + 1))(1) == 2  # beyond plain pickle: cloudpickle


def test_an_actor_block_reports_which_env_function_failed() -> None:
    def broken() -> Countdown:
        raise RuntimeError("cannot build this env")

    block = SubEnvBlock(first=10, count=2, source=[countdowns(1)[0], broken],
                        autoreset_mode="next_step")
    details = failure(block.start())
    assert details.index == 11
    assert "cannot build this env" in details.remote_traceback


# -- on the cluster: the same results as Sync ----------------------------------------------


@pytest.fixture
def ray_envs(ray_cluster: RayCluster) -> Iterator[Callable[..., RayVectorEnv[Any, Any, Any]]]:
    """Makes RayVectorEnvs that are closed after the test, even if it fails."""
    made: list[RayVectorEnv[Any, Any, Any]] = []

    def factory(source: Any, **kwargs: Any) -> RayVectorEnv[Any, Any, Any]:
        env: RayVectorEnv[Any, Any, Any] = RayVectorEnv(source, **{**NO_HANG, **kwargs})
        made.append(env)
        return env

    yield factory
    for env in made:
        env.close()


@slow
@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_countdowns_match_sync_in_every_autoreset_mode(
    mode: AutoresetMode, ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]]
) -> None:
    # Sub-env i's episodes last 2 + i steps: ends, final infos and per-step infos differ
    # across the blocks of 2, 2 and 1 sub-envs.
    ray_env = ray_envs(countdowns(5), num_actors=3, autoreset_mode=mode)
    sync = SyncVectorEnv(countdowns(5), autoreset_mode=mode)
    assert ray_env.actor_blocks == (range(0, 1), range(1, 3), range(3, 5))
    actions = np.random.default_rng(1).integers(0, 3, size=(9, 5))
    run_side_by_side(sync, ray_env, seed=11, actions=actions)
    mask = np.array([True, False, False, True, True])
    assert_same(sync.reset(options={"reset_mask": mask}),
                ray_env.reset(options={"reset_mask": mask}), "masked reset")
    assert ray_env.autoreset_mode is mode and ray_env.metadata["autoreset_mode"] is mode


@slow
@pytest.mark.parametrize("num_actors", [1, 3, 4])
def test_native_cartpole_slices_match_sync_whatever_the_number_of_actors(
    num_actors: int, ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]]
) -> None:
    ray_env = protogym.make_vec(
        "CartPole-v1", 7, vectorization_mode="ray", max_episode_steps=20,
        vector_kwargs={"num_actors": num_actors, **NO_HANG},
    )
    try:
        assert isinstance(ray_env, RayVectorEnv) and ray_env.num_actors == num_actors
        assert type(ray_env.get_attr("unwrapped")[0]).__name__ == "CartPoleVectorEnv"
        assert ray_env.spec is not None and ray_env.spec.kwargs["vectorization_mode"] == "ray"
        sync = protogym.make_vec("CartPole-v1", 7, vectorization_mode="sync",
                                 max_episode_steps=20)
        actions = np.random.default_rng(num_actors).integers(0, 2, size=(60, 7))
        run_side_by_side(sync, ray_env, seed=[5, 6, 7, 8, 9, 10, 11], actions=actions)
    finally:
        ray_env.close()


@slow
def test_dict_observations_and_list_actions_batch_like_sync(
    ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]],
) -> None:
    fns = [lambda i=i: DictEnv(ident=i) for i in range(3)]
    ray_env = ray_envs(fns, num_actors=2)
    sync = SyncVectorEnv(fns)
    assert_same(sync.reset(seed=2), ray_env.reset(seed=2))
    for _ in range(4):
        assert_same(sync.step([1, 2, 0]), ray_env.step([1, 2, 0]))
    with pytest.raises(ValueError, match=r"step\(\) needs one action per sub-env \(3\), got 2"):
        ray_env.step([1, 2])
    with pytest.raises(ValueError, match=r"shape \(3,\) .*got an array of shape \(2,\)"):
        ray_env.step(np.array([1, 2]))
    with pytest.raises(ValueError, match=r"got an array of shape \(3, 1\)"):
        ray_env.step(np.array([[1], [2], [0]]))
    # refused before any actor stepped: the env goes on in step with the sync one
    assert_same(sync.step([0, 1, 2]), ray_env.step(np.array([0, 1, 2])))


@slow
def test_call_get_attr_set_attr_and_render_answer_per_sub_env(
    ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]],
) -> None:
    fns = [lambda i=i: Countdown(ident=i, length=9, render_mode="rgb_array") for i in range(3)]
    ray_env = ray_envs(fns, num_actors=2)
    ray_env.reset(seed=0)
    ray_env.step(ones(3))
    assert ray_env.get_attr("ident") == (0, 1, 2)
    ray_env.set_attr("length", [4, 5, 6])
    assert ray_env.get_attr("length") == (4, 5, 6)
    ray_env.set_attr("length", 7)
    noise = np.float32(ray_env.get_attr("noise")[2])
    assert ray_env.call("_obs")[2].tolist() == [1.0, 2.0, noise]
    frames = ray_env.render()
    assert frames is not None and len(frames) == 3 and frames[0].shape == (2, 2, 3)
    pids = set(ray_env.get_attr("pid"))
    assert pids == set(ray_env.actor_pids) and os.getpid() not in pids


@slow
def test_custom_resources_place_every_actor_on_the_second_node(
    ray_cluster: RayCluster, ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]]
) -> None:
    fns = [lambda: protogym.make("CartPole-v1") for _ in range(4)]
    # Ray holds a CPU for an actor that names resources but not num_cpus: say 0, as the
    # second node has one CPU for two actors.
    ray_env = ray_envs(fns, num_actors=2, num_cpus=0, resources={SECOND_NODE_RESOURCE: 1})
    assert ray_env.actor_node_ids == (ray_cluster.second_node_id,) * 2
    assert ray_cluster.head_node_id != ray_cluster.second_node_id
    run_side_by_side(SyncVectorEnv(fns), ray_env, seed=3,
                     actions=np.random.default_rng(3).integers(0, 2, size=(30, 4)))


@slow
def test_unplaceable_actors_time_out_with_the_resources_they_asked_for(
    ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]],
) -> None:
    with pytest.raises(TimeoutError, match=r"did not start within 2.0 s.*'no_such_node': 1"):
        ray_envs(countdowns(2), num_actors=1, resources={"no_such_node": 1}, start_timeout=2.0)


# --8<-- [start:cluster]
def cartpoles_on_a_cluster(address: str) -> RayVectorEnv[Any, Any, Any]:
    """16 CartPoles in 4 Ray actors, on the nodes of the cluster at `address` that offer the
    custom resource "second_node" (started with ``ray start --resources='{"second_node": 64}'``)."""
    return protogym.make_vec(
        "CartPole-v1",
        16,
        vectorization_mode="ray",
        vector_kwargs={
            "address": address,  # the head node, e.g. "10.0.0.5:6379"
            "num_actors": 4,  # 4 sub-envs each: a slice of the native CartPole vector env
            "num_cpus": 0,  # CPUs Ray reserves per actor
            "resources": {"second_node": 1},  # custom resources each actor needs
            "runtime_env": {"env_vars": {"OMP_NUM_THREADS": "1"}},  # or pip, working_dir...
            "restart_failed_actors": True,
            "timeout": 60.0,  # seconds any call may wait for the actors
        },
    )
# --8<-- [end:cluster]


@slow
def test_the_cluster_example_of_the_docs_runs(ray_cluster: RayCluster) -> None:
    envs = cartpoles_on_a_cluster(ray_cluster.address)
    try:
        assert envs.actor_node_ids == (ray_cluster.second_node_id,) * 4
        assert envs.call("render") == (None,) * 16
        observations, _ = envs.reset(seed=0)
        assert observations.shape == (16, 4)
        envs.step(envs.action_space.sample())
    finally:
        envs.close()


# -- on the cluster: faults ----------------------------------------------------------------


@slow
def test_a_sub_env_exception_names_its_index_with_the_remote_traceback(
    ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]],
) -> None:
    fns = countdowns(4, length=10)
    fns[2] = lambda: Countdown(ident=2, length=10, fail_at=2)
    ray_env = ray_envs(fns, num_actors=2)
    ray_env.reset(seed=0)
    ray_env.step(ones(4))
    with pytest.raises(SubEnvError) as caught:
        ray_env.step(ones(4))
    error = caught.value
    assert error.index == 2 and error.exc_type == "ValueError"
    assert "sub-env 2 raised ValueError: Countdown 2 fails at step 2" in str(error)
    assert "vector_helpers.py" in error.remote_traceback
    assert "holding sub-envs 2..3" in error.remote_traceback
    assert isinstance(error.__cause__, ValueError)
    observations, _ = ray_env.reset(seed=0)  # the env stays usable
    assert observations[:, 0].tolist() == [0, 0, 0, 0]


@slow
def test_a_failing_env_function_is_reported_and_leaves_no_actor(
    ray_cluster: RayCluster,
) -> None:
    def broken() -> Countdown:
        raise RuntimeError("cannot build this env")

    with pytest.raises(SubEnvError, match=r"sub-env 3 raised RuntimeError: cannot build"):
        RayVectorEnv([*countdowns(3), broken], num_actors=2, **NO_HANG)
    assert wait_until(lambda: not ray_cluster.actor_processes("SubEnvBlock"))


def wait_until(condition: Callable[[], bool], seconds: float = 30.0) -> bool:
    """Poll `condition` until it holds (Ray ends killed actors' processes asynchronously)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@slow
def test_a_killed_actor_is_reported_with_its_sub_envs_and_closes_the_env(
    ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]],
) -> None:
    ray_env = ray_envs(countdowns(5, length=100), num_actors=2)
    ray_env.reset(seed=0)
    os.kill(ray_env.actor_pids[1], signal.SIGKILL)
    with pytest.raises(ActorLostError, match=r"actor of sub-envs 2\.\.4 died during step") as lost:
        ray_env.step(ones(5))
    assert lost.value.indices == (2, 3, 4)
    assert "restart_failed_actors=True" in str(lost.value)
    assert ray_env.closed
    with pytest.raises(ClosedEnvironmentError):
        ray_env.step(ones(5))


@slow
@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
def test_a_killed_actor_is_restarted_and_its_sub_envs_reported_truncated(
    mode: AutoresetMode, ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]]
) -> None:
    ray_env = ray_envs(countdowns(4, length=100), num_actors=2, restart_failed_actors=True,
                       autoreset_mode=mode)
    ray_env.reset(seed=0)
    ray_env.step(ones(4))
    old_pid = ray_env.actor_pids[0]
    os.kill(old_pid, signal.SIGKILL)
    observations, rewards, terminations, truncations, infos = ray_env.step(ones(4))
    assert truncations.tolist() == [True, True, False, False]
    assert terminations.tolist() == [False] * 4
    assert rewards.tolist() == [0.0, 0.0, 3.0, 3.0]
    assert infos[f"_{RESTARTED_KEY}"].tolist() == [True, True, False, False]
    assert infos[RESTARTED_KEY][:2].tolist() == [True, True]
    assert observations[:, 0].tolist() == [0, 0, 2, 2]  # a new episode for the lost ones
    assert "_final_obs" not in infos  # their last observation went with the actor
    assert ray_env.actor_pids[0] != old_pid
    observations, rewards, _, truncations, infos = ray_env.step(ones(4))
    if mode is AutoresetMode.NEXT_STEP:  # the step after a truncation is the reset step
        assert observations[:, 0].tolist() == [0, 0, 3, 3]
        assert rewards.tolist() == [0.0, 0.0, 4.0, 4.0]
        assert infos["reset_seed"][:2].tolist() == [-1, -1]
    else:
        assert observations[:, 0].tolist() == [1, 1, 3, 3]
        assert rewards.tolist() == [2.0, 2.0, 4.0, 4.0]
    assert not truncations.any() and RESTARTED_KEY not in infos


@slow
def test_losing_a_node_reports_the_sub_envs_that_were_on_it(
    ray_cluster: RayCluster, ray_envs: Callable[..., RayVectorEnv[Any, Any, Any]]
) -> None:
    import ray

    node = ray_cluster.add_node(doomed_node=8)
    ray_env = ray_envs(countdowns(6, length=100), num_actors=3, num_cpus=0,
                       resources={"doomed_node": 1})
    ray_env.reset(seed=0)
    # The node goes silent, as a machine that drops off the network: its raylet and workers
    # are frozen, so only Ray's health checks can tell (connections stay open).
    frozen = ray_cluster.node_processes(node.node_id)
    assert set(ray_env.actor_pids) <= set(frozen)
    try:
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        with pytest.raises(ActorLostError, match=r"sub-envs 0\.\.1, 2\.\.3, 4\.\.5 died") as lost:
            ray_env.step(ones(6))
        assert lost.value.indices == tuple(range(6))
        assert "node has died" in str(lost.value)
    finally:
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        ray_cluster.cluster.remove_node(node, allow_graceful=False)
    # Later tests must not be placed on the lost node: Ray knows it is gone by now.
    assert not [n for n in ray.nodes() if n["NodeID"] == node.node_id and n["Alive"]]


# -- on the cluster: lifecycle -------------------------------------------------------------


@slow
def test_close_releases_every_actor_and_is_idempotent(ray_cluster: RayCluster) -> None:
    ray_env = RayVectorEnv(countdowns(3), num_actors=3, **NO_HANG)
    pids = set(ray_env.actor_pids)
    assert pids <= ray_cluster.actor_processes("SubEnvBlock")
    ray_env.close()
    ray_env.close()
    with pytest.raises(ClosedEnvironmentError, match="this RayVectorEnv is closed"):
        ray_env.reset()
    assert wait_until(lambda: not pids & ray_cluster.actor_processes("SubEnvBlock"))


@slow
def test_making_and_closing_a_hundred_times_leaks_no_actor_and_no_process(
    ray_cluster: RayCluster,
) -> None:
    import ray
    from ray._private.state import actors as actor_table

    job = ray.get_runtime_context().get_job_id()

    def alive_actors() -> int:
        # The public state API (ray.util.state) needs Ray's dashboard, which the test extra
        # does not install; this reads the same actor table from Ray's control store.
        table = actor_table(actor_state_name="ALIVE")
        return sum(1 for info in table.values() if info["JobID"] == job)

    assert wait_until(lambda: alive_actors() == 0)
    before = ray_cluster.actor_processes("SubEnvBlock")
    assert not before
    # One actor per env: each actor is a new worker process, which costs Ray about half a
    # second of CPU to start, so two per env would double this test's minute.
    pids: set[int] = set()
    for _ in range(100):
        with RayVectorEnv(countdowns(2), num_actors=1, **NO_HANG) as ray_env:
            pids.update(ray_env.actor_pids)
            ray_env.reset(seed=0)
            ray_env.step(ones(2))
    assert len(pids) == 100  # every env had its own actor
    assert wait_until(lambda: alive_actors() == 0)
    # (Not the pids themselves: the system hands freed pids to new processes.)
    assert wait_until(lambda: not ray_cluster.actor_processes("SubEnvBlock"))
    assert ray.is_initialized()  # the fixture's own connection was left alone


@slow
def test_a_connection_protogym_opens_is_shut_down_by_the_last_close(
    ray_cluster: RayCluster,
) -> None:
    code = f"""
import ray
from protogym.vector import RayVectorEnv
from tests.vector.vector_helpers import countdowns

first = RayVectorEnv(countdowns(1), address={ray_cluster.address!r}, timeout=60.0)
second = RayVectorEnv(countdowns(1), timeout=60.0)
first.close()
print(ray.is_initialized())
second.close()
print(ray.is_initialized())
"""
    env = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["True", "False"]
