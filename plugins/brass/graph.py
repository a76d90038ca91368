"""The board as a graph: locations (nodes) joined by link lines.

A line may touch more than two locations (Birmingham's Kidderminster-Worcester line also
reaches a farm brewery); a built link joins all of them at distance one. Which lines are
built is a per-line owner list held by the game (``-1`` = empty); helpers here take it as
an argument so game states stay plain lists.

Two notions the rules keep apart:

* *connected* locations -- joined by built links of **anyone** (resources, sales);
* a player's *network* -- locations holding one of their industries or touched by one of
  their links (building with an industry card, placing links).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

LABELS_KEPT = 4096
"""Connectivity answers a graph keeps (each a tuple of one int per location)."""


class BoardGraph:
    """Locations ``0..n-1`` and lines ``link_nodes[i]`` (each a tuple of locations)."""

    def __init__(self, n_nodes: int, link_nodes: Sequence[Sequence[int]]) -> None:
        self.n = n_nodes
        self.link_nodes: list[tuple[int, ...]] = [tuple(ns) for ns in link_nodes]
        self.node_links: list[list[int]] = [[] for _ in range(n_nodes)]
        for li, ns in enumerate(self.link_nodes):
            for node in ns:
                self.node_links[node].append(li)
        self._labels: dict[tuple[int, ...], tuple[int, ...]] = {}

    def labels(self, link_owner: Sequence[int]) -> tuple[int, ...]:
        """:meth:`components`, remembered: listing moves asks this many times for few
        distinct boards (lines change only by link actions). Tuples, safe to share."""
        key = tuple(link_owner)
        found = self._labels.get(key)
        if found is None:
            if len(self._labels) >= LABELS_KEPT:
                self._labels.clear()
            found = self._labels[key] = tuple(self.components(link_owner))
        return found

    def components(self, link_owner: Sequence[int]) -> list[int]:
        """A component label per location: equal labels = connected by built links."""
        parent = list(range(self.n))
        # Union-find with the finds written out (listings ask this for every new board;
        # a call per find cost more than the work). A label is its component's root.
        link_nodes = self.link_nodes
        for li, owner in enumerate(link_owner):
            if owner >= 0:
                ns = link_nodes[li]
                root = ns[0]
                while parent[root] != root:
                    parent[root] = parent[parent[root]]
                    root = parent[root]
                for r in ns[1:]:
                    while parent[r] != r:
                        parent[r] = parent[parent[r]]
                        r = parent[r]
                    if r != root:
                        parent[r] = root
        labels = []
        for r in range(self.n):
            while parent[r] != r:
                r = parent[r]
            labels.append(r)
        return labels

    def distances(self, starts: Iterable[int], link_owner: Sequence[int]) -> list[int]:
        """Links to cross from the nearest of ``starts`` to each location over built links
        of anyone; ``-1`` where unreachable."""
        dist = [-1] * self.n
        frontier = []
        for s in starts:
            if dist[s] < 0:
                dist[s] = 0
                frontier.append(s)
        d = 0
        while frontier:
            d += 1
            nxt = []
            for node in frontier:
                for li in self.node_links[node]:
                    if link_owner[li] < 0:
                        continue
                    for other in self.link_nodes[li]:
                        if dist[other] < 0:
                            dist[other] = d
                            nxt.append(other)
            frontier = nxt
        return dist

    def network(
        self,
        industry_nodes: Iterable[int],
        link_owner: Sequence[int],
        seat: int,
        extra_nodes: Iterable[int] = (),
    ) -> set[int]:
        """The seat's network: the locations of its industries (``industry_nodes``), every
        location touched by one of its links, and ``extra_nodes`` (locations the game adds,
        e.g. the city of a Pittsburgh pipeline, which is not a line of this graph)."""
        net = set(industry_nodes)
        net.update(extra_nodes)
        for li in positions(link_owner, seat):
            net.update(self.link_nodes[li])
        return net


def positions(seq: Sequence[int], value: int) -> list[int]:
    """The indices of ``value`` in ``seq``, in order. A seat owns few of the board's lines
    and spaces: ``count`` and ``index`` find them without a Python-level pass over all."""
    out: list[int] = []
    at = -1
    for _ in range(seq.count(value)):
        at = seq.index(value, at + 1)
        out.append(at)
    return out


def nearest(dist: Sequence[int], sources: Iterable[tuple[int, int]]) -> list[int]:
    """Among ``(location, source_id)`` pairs, the ids at the least finite distance in
    ``dist`` (all tied ones: the rules leave the choice among them to the player)."""
    best = -1
    found: list[int] = []
    for node, sid in sources:
        d = dist[node]
        if d < 0:
            continue
        if best < 0 or d < best:
            best, found = d, [sid]
        elif d == best:
            found.append(sid)
    return found
