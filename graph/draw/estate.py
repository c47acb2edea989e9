"""The estate: queue managers laid out by cluster and traffic, channel edges weighted by
messages, the places where lost messages stopped coloured by cause.

Input is plain values (what `graph.report.tables` aggregates from the analyze tables):
sends ``(src, dst, channel, messages)`` and losses ``(queue_manager, cause, count)``, with an
optional queue manager → cluster map. Past `max_nodes` queue managers the quietest are
aggregated, per cluster, into one "N other queue managers" node, so 300 stay readable.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

from graph.draw import dot
from graph.draw.palette import verdict_colour

OTHER = "…other"
MUST_UNUSED = 4   # unused channels whose ends get nodes of their own (the rest aggregate)
MAX_UNUSED_DRAWN = 8   # more configured-but-unused channels than this are counted, not drawn


class Other(tuple):
    """The node of the quieter queue managers of one group (never equal to a name: a queue
    manager may be called anything, "…other" included)."""

    def __new__(cls, group: str) -> Other:
        return super().__new__(cls, ("other", group))

    def __str__(self) -> str:
        return f"{OTHER} {self[1]}".strip()


class Plate(tuple):
    """The node that shows a group's name."""

    def __new__(cls, group: str) -> Plate:
        return super().__new__(cls, ("group", group))

    def __str__(self) -> str:
        return f"group:{self[1]}"


def _groups(names: set[str], weights: Mapping[tuple[str, str], int],
            clusters: Mapping[str, str] | None) -> dict[str, str]:
    """Queue manager → group: its MQ cluster, else a traffic community (Louvain, seeded)."""
    if clusters:
        return {n: clusters.get(n, "") for n in names}
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(names)
    for (u, v), w in weights.items():
        if u != v:
            g.add_edge(u, v, weight=g.get_edge_data(u, v, {"weight": 0})["weight"] + w)
    if g.number_of_edges() == 0:
        return {n: "" for n in names}
    groups = nx.community.louvain_communities(g, weight="weight", seed=1)
    ordered = sorted(groups, key=lambda c: (-len(c), min(c)))
    return {n: (f"traffic group {i + 1}" if len(c) > 1 else "")
            for i, c in enumerate(ordered) for n in c}


def aggregate(sends: Iterable[tuple[str, str, str, int]],
              losses: Iterable[tuple[str, str, int]],
              clusters: Mapping[str, str] | None = None, max_nodes: int = 24,
              must: Iterable[str] = ()):
    """Which queue managers get a node of their own (where messages were lost, then those in
    `must`, then the busiest); the rest, per group, one node."""
    weights: Counter = Counter()
    channels: dict[tuple[str, str], set[str]] = defaultdict(set)
    for src, dst, channel, n in sends:
        weights[(src, dst or "?")] += n
        channels[(src, dst or "?")].add(channel or "?")
    lost: dict[str, Counter] = defaultdict(Counter)
    for qm, cause, n in losses:
        lost[qm or "?"][cause] += n
    must = [m for m in dict.fromkeys(must) if m]
    names = {n for pair in weights for n in pair} | set(lost) | set(must)
    traffic: Counter = Counter()
    for (u, v), w in weights.items():
        traffic[u] += w
        traffic[v] += w
    groups = _groups(names, weights, clusters)
    keep = sorted(lost, key=lambda n: -sum(lost[n].values()))[:max_nodes]
    keep += [m for m in must if m not in keep][:max(0, max_nodes - len(keep))]
    for n in sorted(names, key=lambda n: (-traffic[n], n)):
        if len(keep) >= max_nodes:
            break
        if n not in keep:
            keep.append(n)
    kept = set(keep)
    node_of = {n: n if n in kept else Other(groups.get(n, "")) for n in names}
    return weights, channels, lost, traffic, groups, node_of


def estate_dot(sends, losses, clusters=None, *, max_nodes: int = 24, title: str = "",
               labelled_edges: int = 12, unused=(), flagged=None):
    """The pygraphviz graph of the estate (see the module's docstring). `unused` configured
    channels ``(src, dst, channel)`` are drawn dashed red; `flagged` maps queue managers to
    what an audit found there (drawn with a red border)."""
    unused = list(unused)
    flagged = dict(flagged or {})
    many_unused = len(unused) if len(unused) > MAX_UNUSED_DRAWN else 0
    if many_unused:    # a configuration full of idle channels: say so, draw the traffic
        unused = []
        flagged = {q: k for q, k in flagged.items() if k != "unused_channel"}
    weights, channels, lost, traffic, groups, node_of = aggregate(
        list(sends), list(losses), clusters, max_nodes,
        must=[*(q for q, kind in flagged.items() if kind != "unused_channel"),
              *(q for src, dst, _ in unused[:MUST_UNUSED] for q in (src, dst))])
    out = dot.Picture(rankdir="LR", newrank="true", nodesep="0.2", ranksep="1.1",
                      labelloc="t", labeljust="l", pad="0.2", outputorder="edgesfirst")
    members: dict = defaultdict(list)
    for n, node in node_of.items():
        members[node].append(n)
    placed: dict[str, list] = defaultdict(list)
    for node in sorted(members, key=lambda k: (isinstance(k, Other), str(k))):
        group = node[1] if isinstance(node, Other) else groups.get(members[node][0], "")
        placed[group].append(node)
    causes_seen: Counter = Counter()
    for group in sorted(placed):
        parent = None if not group else out.cluster(
            style="rounded,filled", fillcolor="#f1f8e9", color="#9ccc65",
            tooltip=f"{group}: {len(placed[group])} node(s)")
        if group:   # the name as a node: the layout keeps edge labels off it
            out.node(Plate(group), parent=parent, label=dot.wrap(group, 24, 2),
                     shape="plain", style="", fontcolor="#33691e",
                     fontsize=str(dot.FONT_SIZE + 2),
                     tooltip=f"{group}: {len(placed[group])} node(s)")
        for node in placed[group]:
            qms = members[node]
            msgs = sum(traffic[q] for q in qms)
            lost_here: Counter = Counter()
            for q in qms:
                lost_here.update(lost.get(q, {}))
            causes_seen.update(lost_here)
            if isinstance(node, Other):
                label = f"{len(qms)} other\nqueue managers\n{msgs:,} msgs"
                tip = f"{len(qms)} quieter queue managers: " + ", ".join(sorted(qms)[:30]) \
                    + (" …" if len(qms) > 30 else "")
                attrs = {"shape": "folder", "style": "filled", "fillcolor": "#eceff1"}
            else:
                label = f"{dot.wrap(str(node), 16, 2)}\n{msgs:,} msgs"
                tip = f"queue manager {node}: {msgs:,} messages in or out"
                attrs = {"fillcolor": "#e3f2fd"}
            if lost_here:
                cause, _ = lost_here.most_common(1)[0]
                total = sum(lost_here.values())
                label += f"\n✕ {total:,} lost"
                tip += "; lost here: " + ", ".join(f"{c} {k:,}" for c, k in
                                                   lost_here.most_common())
                attrs.update(fillcolor=verdict_colour(str(cause)), fontcolor="white",
                             penwidth="2", color="#212121")
            found = sorted({flagged[q] for q in qms if q in flagged})
            if found and not isinstance(node, Other):
                label += "\n⚠ " + dot.wrap(", ".join(str(f).replace("_", " ") for f in found),
                                           18, 3)
                tip += "; audit: " + ", ".join(found)
                attrs.update(color="#c62828", penwidth="3")
            out.node(node, parent=parent, label=label, tooltip=tip, **attrs)
    agg: Counter = Counter()
    names: dict[tuple, set[str]] = defaultdict(set)
    for (u, v), w in weights.items():
        a, b = node_of[u], node_of[v]
        agg[(a, b)] += w
        names[(a, b)] |= channels[(u, v)]
    top = {e for e, _ in agg.most_common(labelled_edges)}
    heaviest = max([agg[(a, b)] + agg.get((b, a), 0) for a, b in agg] or [1])
    for (a, b), w in sorted(agg.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        back = agg.get((b, a), 0) if a != b else 0
        if back and (str(b), str(a)) < (str(a), str(b)):
            continue                     # drawn once, both ways, with its reverse
        total = w + back
        width = 0.6 + 4.5 * math.log1p(total) / math.log1p(heaviest)
        chans = sorted(names[(a, b)] | (names[(b, a)] if back else set()))
        tip = (f"{a} → {b}: {w:,} messages" + (f"; {b} → {a}: {back:,}" if back else "")
               + " over " + ", ".join(chans[:8]) + (" …" if len(chans) > 8 else ""))
        attrs = {"penwidth": f"{width:.2f}", "color": "#5c6bc0", "tooltip": tip,
                 "arrowsize": "0.5"}
        if back:
            attrs["dir"] = "both"
        if (a, b) in top or (b, a) in top or a in lost or b in lost:
            attrs["label"] = f"{w:,} / {back:,}" if back else f"{w:,}"
        if a == b:
            attrs["label"] = f"{w:,} within"
        out.edge(a, b, **attrs)
    idle: dict[tuple, list[str]] = defaultdict(list)
    for src, dst, channel in unused:
        a, b = node_of.get(src, src), node_of.get(dst, dst or "?")
        if a in members and b in members:
            idle[(a, b)].append((channel, src, dst))
    for (a, b), chans in sorted(idle.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        text = f"{chans[0][0]} never used" if len(chans) == 1 else \
            f"{len(chans)} channels never used"
        out.edge(a, b, style="dashed", color="#c62828", penwidth="2",
                 label=dot.wrap(text, 20, 2), fontcolor="#b71c1c",
                 tooltip="configured, no message used: "
                 + ", ".join(f"{c} ({s} → {d})" for c, s, d in chans[:20])
                 + (" …" if len(chans) > 20 else ""))
    idle_note = f"; {many_unused:,} configured channels never used (see the audit)" \
        if many_unused else ""
    legend = "".join(f'<TD BGCOLOR="{verdict_colour(str(c))}"><FONT COLOR="white">'
                     f'{dot.html_text(str(c).replace("_", " "))} {k:,}</FONT></TD>'
                     for c, k in causes_seen.most_common(12))
    head = f"<TR><TD ALIGN=\"LEFT\"><B>{dot.html_text(title)}</B></TD></TR>" if title else ""
    out.title = dot.Html(
        f'<TABLE BORDER="0" CELLSPACING="2">{head}<TR><TD ALIGN="LEFT">'
        f'{len(node_of):,} queue managers, {sum(agg.values()):,} channel sends; '
        f'line width = messages{"; red dashed = configured, never used" if unused else ""}'
        f'{idle_note}'
        f'{"; lost messages by where they stopped:" if causes_seen else ""}</TD></TR>'
        f'<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="3" ALIGN="LEFT"><TR>'
        f'{legend or "<TD></TD>"}</TR></TABLE></TD></TR></TABLE>')
    out.unflatten_args = "-f -l 3 -c 3"   # stagger the many leaves of a hub over ranks
    return out


def estate_svg(sends, losses, clusters=None, **options) -> str:
    """The estate drawn as SVG text (options as `estate_dot`'s)."""
    return dot.render(estate_dot(sends, losses, clusters, **options), "svg").decode("utf-8")


def draw_estate(sends, losses, path, clusters=None, **options):
    """The estate drawn to a file (.svg, .png or .pdf by its suffix)."""
    return dot.write(estate_dot(sends, losses, clusters, **options), path)
