"""`Graph`: graphs with node features, optional edge features, and edge links."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from protogym import logger
from protogym.spaces.base import InvalidSampleArgument, InvalidSeed, SeedLike, SpaceBase
from protogym.spaces.discrete import check_int_arg
from protogym.spaces.space import Space

__all__ = ["Graph", "GraphInstance"]


class GraphInstance(NamedTuple):
    """One graph: ``nodes`` (a batch of node features, one per node), ``edges`` (a batch of
    edge features, or None) and ``edge_links`` (an ``(m, 2)`` int array of the node indices
    each edge joins, or None)."""

    nodes: Any
    edges: Any | None
    edge_links: NDArray[Any] | None


def _check_feature_space(name: str, space: object) -> Space[Any]:
    if not isinstance(space, Space):
        raise TypeError(f"Graph {name} must be a space (e.g. a Box or a Discrete), got {space!r}")
    return space


class Graph(SpaceBase[GraphInstance]):
    """Graphs whose node features belong to `node_space` and edge features to `edge_space`.

    Any space works for either (a `Box`, `Discrete`, `MultiBinary`, a `Dict` of them, ...):
    the features of all nodes are held as one element of ``batch_space(node_space, n)``,
    and likewise for edges. ``seed(int)`` seeds this space (which draws edge links) and
    draws seeds for the node and edge spaces from it, as Gymnasium does, so samples match
    Gymnasium's under one seed.
    """

    _seed_forms = "a non-negative int, a tuple (graph, node[, edge]) of seeds, or None"

    def __init__(
        self,
        node_space: Space[Any],
        edge_space: Space[Any] | None,
        seed: SeedLike | Sequence[Any] = None,
    ) -> None:
        from protogym.spaces.vector_utils import batch_space

        self.node_space = _check_feature_space("node_space", node_space)
        self.edge_space = (
            None if edge_space is None else _check_feature_space("edge_space", edge_space)
        )
        self.batch_node_space: Space[Any] = batch_space(self.node_space, 1)
        self.batch_edge_space: Space[Any] | None = (
            None if self.edge_space is None else batch_space(self.edge_space, 1)
        )
        super().__init__(None, None, seed if isinstance(seed, np.random.Generator) else None)
        if seed is not None and not isinstance(seed, np.random.Generator):
            self.seed(seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def seed(self, seed: Any | None = None) -> builtins.tuple[Any, ...]:
        """None: fresh entropy; int: sub-seeds drawn from it; tuple: (own, node[, edge])."""
        edge = self.edge_space
        count = 2 if edge is None else 3
        if seed is None:
            seeds = [SpaceBase.seed(self, None), self.node_space.seed(None)]
            if edge is not None:
                seeds.append(edge.seed(None))
            return builtins.tuple(seeds)
        if isinstance(seed, list | builtins.tuple):
            if len(seed) != count:
                raise InvalidSeed(
                    f"Graph.seed takes an int or {count} seeds (graph, node"
                    f"{'' if edge is None else ', edge'}), got {seed!r}"
                )
            seeds = [SpaceBase.seed(self, seed[0]), self.node_space.seed(seed[1])]
            if edge is not None:
                seeds.append(edge.seed(seed[2]))
            return builtins.tuple(seeds)
        own = SpaceBase.seed(self, seed)
        if edge is None:
            node_seed = int(self.np_random.integers(np.iinfo(np.int32).max))
            SpaceBase.seed(self, seed)
            return own, self.node_space.seed(node_seed)
        node_seed, edge_seed = (
            int(s) for s in self.np_random.integers(np.iinfo(np.int32).max, size=(2,))
        )
        SpaceBase.seed(self, seed)
        return own, self.node_space.seed(node_seed), edge.seed(edge_seed)

    def sample(
        self,
        mask: builtins.tuple[Any, Any] | None = None,
        probability: builtins.tuple[Any, Any] | None = None,
        num_nodes: int = 10,
        num_edges: int | None = None,
    ) -> GraphInstance:
        """A graph of `num_nodes` nodes and (by default) a uniform number of edges below
        ``num_nodes * (num_nodes - 1)``; `mask`/`probability` is ``(node mask, edge mask)``,
        each what the node (edge) space's own `sample` takes, or None."""
        from protogym.spaces.vector_utils import batch_space

        nodes_n = check_int_arg("Graph.sample", "num_nodes", num_nodes)
        if nodes_n <= 0:
            raise InvalidSampleArgument(
                f"Graph.sample num_nodes must be positive, got {num_nodes!r}"
            )
        if mask is not None and probability is not None:
            raise ValueError(
                "Graph.sample takes a mask or a probability, not both, got "
                f"mask={mask!r}, probability={probability!r}"
            )
        kind: str | None = None
        node_mask: Any = None
        edge_mask: Any = None
        given = mask if mask is not None else probability
        if given is not None:
            kind = "mask" if mask is not None else "probability"
            if not isinstance(given, builtins.tuple) or len(given) != 2:
                raise InvalidSampleArgument(
                    f"Graph.sample {kind} must be a (node {kind}, edge {kind}) tuple, got {given!r}"
                )
            node_mask, edge_mask = given
        if num_edges is None:
            edges_n = int(self.np_random.integers(nodes_n * (nodes_n - 1))) if nodes_n > 1 else 0
            if edge_mask is not None:
                edge_mask = builtins.tuple(edge_mask for _ in range(edges_n))
        else:
            edges_n = check_int_arg("Graph.sample", "num_edges", num_edges)
            if self.edge_space is None:
                logger.warn(
                    f"Graph.sample got num_edges={num_edges!r}, but the graph has no edge "
                    "space, so the sample has no edges"
                )
            if edges_n < 0:
                raise InvalidSampleArgument(
                    f"Graph.sample num_edges must be >= 0, got {num_edges!r}"
                )
        # Batched spaces sample from a copy of the feature space's generator; advancing the
        # original afterwards keeps consecutive samples different (Gymnasium's draw order).
        node_kwargs = {} if kind is None else {kind: node_mask}
        nodes = batch_space(self.node_space, nodes_n).sample(**node_kwargs)
        self.node_space.np_random.random()
        edges = None
        links = None
        if edges_n >= 1 and self.edge_space is not None:
            edge_kwargs = {} if kind is None else {kind: edge_mask}
            edges = batch_space(self.edge_space, edges_n).sample(**edge_kwargs)
            self.edge_space.np_random.random()
            links = self.np_random.integers(0, nodes_n, size=(edges_n, 2), dtype=np.int32)
        return GraphInstance(nodes, edges, links)

    def contains(self, x: Any) -> bool:
        """Whether `x` is a `GraphInstance` with valid nodes, edges and in-range edge links."""
        from protogym.spaces.vector_utils import iterate

        if not isinstance(x, GraphInstance) or x.nodes is None:
            return False
        try:
            nodes = list(iterate(self.batch_node_space, x.nodes))
            if not all(node in self.node_space for node in nodes):
                return False
            if x.edges is None or x.edge_links is None:
                return x.edges is None and x.edge_links is None
            if self.edge_space is None or self.batch_edge_space is None:
                return False
            edges = list(iterate(self.batch_edge_space, x.edges))
            links = x.edge_links
            return (
                all(edge in self.edge_space for edge in edges)
                and isinstance(links, np.ndarray)
                and links.dtype.kind in "iu"
                and links.shape == (len(edges), 2)
                and bool(((links >= 0) & (links < len(nodes))).all())
            )
        except (TypeError, ValueError, KeyError, IndexError):
            return False

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any]:
        """One dict per graph: its nodes (and edges) in the batch spaces' JSON form, and
        its edge links as nested lists (Gymnasium's layout)."""
        out: list[Any] = []
        for sample in sample_n:
            item: builtins.dict[str, Any] = {
                "nodes": self.batch_node_space.to_jsonable([sample.nodes])
            }
            if sample.edges is not None and sample.edge_links is not None:
                assert self.batch_edge_space is not None
                item["edges"] = self.batch_edge_space.to_jsonable([sample.edges])
                item["edge_links"] = np.asarray(sample.edge_links).tolist()
            out.append(item)
        return out

    def from_jsonable(self, sample_n: list[Any]) -> list[GraphInstance]:
        out: list[GraphInstance] = []
        for item in sample_n:
            nodes = self.batch_node_space.from_jsonable(item["nodes"])[0]
            if "edges" in item:
                if self.batch_edge_space is None:
                    raise ValueError(
                        f"{self!r} has no edge space, but the JSON graph has edges: {item!r}"
                    )
                edges = self.batch_edge_space.from_jsonable(item["edges"])[0]
                links = np.asarray(item["edge_links"], dtype=np.int32)
                out.append(GraphInstance(nodes, edges, links))
            else:
                out.append(GraphInstance(nodes, None, None))
        return out

    def __repr__(self) -> str:
        return f"Graph({self.node_space}, {self.edge_space})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Graph)
            and self.node_space == other.node_space
            and self.edge_space == other.edge_space
        )

    __hash__ = None  # type: ignore[assignment]
