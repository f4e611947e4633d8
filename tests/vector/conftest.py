"""A real two-node Ray cluster on loopback, for the RayVectorEnv tests that need one.

The cluster is started once per pytest process (each xdist worker that runs such a test gets
its own, in its own temporary folder and on ports Ray picks free, so two never collide), on
first use, and always torn down at the end of the session, also after failures. It is small:
one CPU per node, 100 MB object stores, no dashboard, no usage reports.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

SECOND_NODE_RESOURCE = "second_node"
"""A custom resource only the second node offers: actors asking for it are placed there."""

_NODE_ARGS: dict[str, Any] = {
    "num_cpus": 1,
    "object_store_memory": 100 * 1024 * 1024,
    "node_ip_address": "127.0.0.1",
}
# A node that stops answering is declared dead after a few seconds, not Ray's default of up to
# a minute (5 missed checks, 3 s apart, each waiting 10 s).
_SYSTEM_CONFIG = {
    "health_check_period_ms": 1000,
    "health_check_timeout_ms": 1000,
    "health_check_failure_threshold": 3,
}


@dataclass
class RayCluster:
    """The running test cluster: its address, nodes, and the folder its processes use."""

    cluster: Any  # ray.cluster_utils.Cluster
    address: str
    head_node_id: str
    second_node_id: str
    temp_dir: Path

    def add_node(self, **resources: float) -> Any:
        """Start one more node (e.g. to lose it in a test) offering custom `resources`."""
        node = self.cluster.add_node(resources=resources, temp_dir=str(self.temp_dir), **_NODE_ARGS)
        self.cluster.wait_for_nodes(timeout=60)
        return node

    def node_processes(self, node_id: str) -> list[int]:
        """The raylet of node `node_id` and its children (workers, agents)."""
        raylets = [
            pid for pid, cmdline in _processes().items() if f"--node_id={node_id}" in cmdline
        ]
        return raylets + [pid for pid in _processes() if _parent(pid) in raylets]

    def raylet_pids(self) -> set[int]:
        """The raylet processes of this cluster's nodes (their children are its workers)."""
        return {
            pid
            for pid, cmdline in _processes().items()
            if "raylet" in cmdline[0] and any(str(self.temp_dir) in arg for arg in cmdline)
        }

    def actor_processes(self, class_name: str) -> set[int]:
        """Live worker processes of this cluster that run an actor of class `class_name`."""
        raylets = self.raylet_pids()
        return {
            pid
            for pid, cmdline in _processes().items()
            if cmdline[0] == f"ray::{class_name}" and _parent(pid) in raylets
        }


def _processes() -> dict[int, list[str]]:
    """Every process's command line, by pid (processes that vanish meanwhile are skipped)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                raw = (entry / "cmdline").read_bytes()
                if raw:
                    found[int(entry.name)] = raw.decode(errors="replace").split("\0")
    return found


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return -1
    return int(stat.rsplit(")", 1)[1].split()[1])


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[RayCluster]:
    ray = pytest.importorskip("ray")
    from ray._private import ray_constants
    from ray.cluster_utils import Cluster

    # Ray replaces 127.0.0.1 in an address by the machine's outward IP unless it believes
    # clusters are off; this keeps the driver, both nodes and their workers on loopback.
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    # A short folder: Ray's socket paths inside it must stay under 108 characters. Ray also
    # notes "the latest cluster" in its temporary folder, where any `ray.init()` on this
    # machine would find it: this one is noted in ours instead.
    temp_dir = Path(tempfile.mkdtemp(prefix="pgray-"))
    (temp_dir / "ray").mkdir()  # where Ray writes that note
    saved_tmpdir = os.environ.get("RAY_TMPDIR")
    os.environ["RAY_TMPDIR"] = str(temp_dir)
    cluster = Cluster(initialize_head=False)
    try:
        head = cluster.add_node(
            temp_dir=str(temp_dir), include_dashboard=False, _system_config=_SYSTEM_CONFIG,
            **_NODE_ARGS,
        )
        second = cluster.add_node(
            temp_dir=str(temp_dir), resources={SECOND_NODE_RESOURCE: 64}, **_NODE_ARGS
        )
        cluster.wait_for_nodes(timeout=60)
        ray.init(address=cluster.address, log_to_driver=False)
        yield RayCluster(cluster, cluster.address, head.node_id, second.node_id, temp_dir)
    finally:
        with contextlib.suppress(Exception):
            ray.shutdown()
        with contextlib.suppress(Exception):
            cluster.shutdown()
        if saved_tmpdir is None:
            os.environ.pop("RAY_TMPDIR", None)
        else:
            os.environ["RAY_TMPDIR"] = saved_tmpdir
        shutil.rmtree(temp_dir, ignore_errors=True)
