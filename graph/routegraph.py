"""One route (or a few) as a networkx graph, pictures of it, and exports.

Nodes are typed — queue manager, queue, transmission queue, channel, application, discard
— with their attributes; edges are the message's hops in order, with operation, time and
feedback; a gap is a dashed edge of kind "unknown" saying how many activities are missing.
Several routes merge into one graph of the network they crossed.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from pathlib import Path

import networkx as nx

from pcf import mqc
from pcf.text import printable
from traceroute.records.model import Activity, Operation, feedback_name
from traceroute.routes.ordering import Gap, Route
from traceroute.routes.verdict import Verdict

VERDICT_COLOURS = {
    Verdict.DELIVERED: "#2e7d32", Verdict.DISCARDED_AT_TARGET: "#2e7d32",
    Verdict.WAITING_ON_XMITQ: "#ef6c00", Verdict.INCOMPLETE: "#757575",
    Verdict.DEAD_LETTERED: "#c62828", Verdict.MAX_ACTIVITIES: "#c62828",
    Verdict.NOT_FORWARDED: "#c62828", Verdict.EXPIRED: "#c62828",
    Verdict.DISCARDED: "#c62828",
}
KIND_COLOURS = {"queue_manager": "#90caf9", "queue": "#fff59d", "xmitq": "#ffcc80",
                "channel": "#ce93d8", "application": "#a5d6a7", "discard": "#ef9a9a",
                "unknown": "#eeeeee"}


def _queue(qm: str, name: str, g: nx.MultiDiGraph, *, xmitq: bool = False) -> str:
    node = f"{qm}/{name}"
    kind = "xmitq" if xmitq or g.nodes.get(node, {}).get("kind") == "xmitq" else "queue"
    g.add_node(node, kind=kind, queue_manager=qm, name=name, label=f"{name}\n@{qm}")
    return node


def _topic(qm: str, topic: str, g: nx.MultiDiGraph) -> str:
    """A topic string on a queue manager (what a publication was put to)."""
    node = f"{qm}/topic:{topic}"
    g.add_node(node, kind="topic", queue_manager=qm, name=topic, label=f"{topic}\n@{qm}")
    return node


def _app(a: Activity, g: nx.MultiDiGraph) -> str:
    node = f"{a.appl_name}@{a.qmgr}"
    g.add_node(node, kind="application", queue_manager=a.qmgr, name=a.appl_name,
               label=f"{a.appl_name.split(chr(92))[-1]}\n@{a.qmgr}", description=a.description)
    return node


def _channel(op: Operation, g: nx.MultiDiGraph) -> str:
    node = f"channel:{op.channel}"
    src, dst = (op.qmgr, op.remote_qmgr) if op.type == mqc.MQOPER_SEND else \
        (op.remote_qmgr, op.qmgr)
    g.add_node(node, kind="channel", name=op.channel, label=op.channel,
               from_queue_manager=src or "", to_queue_manager=dst or "")
    return node


def _edges(a: Activity, g: nx.MultiDiGraph) -> list[tuple[str, str, dict]]:
    """The hops one activity makes: (from node, to node, attributes)."""
    app = _app(a, g)
    out = []
    for op in a.operations:
        attrs = {"operation": op.name, "time": op.timestamp, "queue_manager": op.qmgr}
        if op.feedback is not None:
            attrs["feedback"] = feedback_name(op.feedback)
        if op.is_put and op.topic and not (op.resolved_queue or op.queue):
            out.append((app, _topic(op.qmgr, op.topic, g), attrs))  # a publication
        elif op.is_put:
            target = _queue(op.qmgr, op.resolved_queue or op.queue or "?", g,
                            xmitq=op.to_xmit_queue)
            out.append((app, target, attrs))
        elif op.type in (mqc.MQOPER_GET, mqc.MQOPER_BROWSE):
            source = _queue(op.qmgr, op.resolved_queue or op.queue or "?", g,
                            xmitq=op.from_xmit_queue)
            out.append((source, app, attrs))
        elif op.type == mqc.MQOPER_SEND:
            ch = _channel(op, g)
            g.add_node(op.remote_qmgr or "?", kind="queue_manager", label=op.remote_qmgr or "?")
            out.append((app, ch, attrs))
        elif op.type == mqc.MQOPER_RECEIVE:
            out.append((_channel(op, g), app, attrs))
        elif op.type == mqc.MQOPER_DISCARD:
            node = f"discarded@{op.qmgr}"
            g.add_node(node, kind="discard", queue_manager=op.qmgr, label="discarded")
            out.append((app, node, attrs))
    if not out:
        out.append((app, app, {"operation": "activity"}))
    return out


def route_graph(route: Route, graph: nx.MultiDiGraph | None = None) -> nx.MultiDiGraph:
    """The route as a directed multigraph: typed nodes, ordered hop edges, dashed gaps; a
    publication's copies (branches begun by a Publish or Discarded Publish) each go from
    the topic node to their subscriber's queue (or on, as their own steps say)."""
    g = graph if graph is not None else nx.MultiDiGraph()
    _draw(route, g, None)
    return g


def _publisher(route: Route, via: Operation) -> str | None:
    """The topic node (else the application node) of the activity that did `via`."""
    for step in route.steps:
        if isinstance(step, Activity) and any(op is via for op in step.operations):
            return next((f"{op.qmgr}/topic:{op.topic}" for op in step.operations
                         if op.is_put and op.topic and not (op.resolved_queue or op.queue)),
                        f"{step.appl_name}@{step.qmgr}")
    return None


def _published(via: Operation) -> dict:
    attrs = {"operation": via.name, "time": via.timestamp, "queue_manager": via.qmgr}
    if via.feedback is not None:
        attrs["feedback"] = feedback_name(via.feedback)
    return attrs


def _draw(route: Route, g: nx.MultiDiGraph, start: str | None) -> None:
    """Add one route (or branch: `start` is the node its copy was published from)."""
    key = route.correl_id.hex()
    loc = route.location
    info = {
        "correl_id": key, "verdict": route.verdict.value,
        "feedback": feedback_name(route.outcome.feedback)
        if getattr(route.outcome, "feedback", None) is not None else None,
        "location": {"queue_manager": loc.queue_manager, "queue": loc.queue,
                     "channel": loc.channel, "remote_queue_manager": loc.remote_queue_manager},
        "forks": bool(route.branches)}
    g.graph.setdefault("routes" if start is None and route.via is None else "branches",
                       []).append(info)
    colour = VERDICT_COLOURS[route.verdict]
    seq = 0
    last: str | None = None
    pending_gap: Gap | None = None
    via = route.via if start is not None else None

    def add(u: str, v: str, attrs: dict) -> None:
        nonlocal seq
        seq += 1
        g.add_edge(u, v, key=f"{key}:{seq}", **{"route": key, "seq": seq, "colour": colour,
                                                "verdict": route.verdict.value,
                                                "style": "solid", **attrs})

    if via is not None and start is not None and start in g:
        first_activity = next((s for s in route.steps if isinstance(s, Activity)), None)
        if first_activity is None:  # nothing recorded after the Publish: where it went
            dest = None
            if loc.queue_manager and loc.queue:
                dest = _queue(loc.queue_manager, loc.queue, g)
            if dest is not None and dest != start:
                add(start, dest, _published(via))
            else:
                info["node"] = start  # waiting (bound for loc.remote_queue_manager)
        else:  # the copy's own route begins where the Publish put it
            add(start, _edges(first_activity, g)[0][0], _published(via))
            last = _edges(first_activity, g)[0][0]
            pending_gap = None
    leading = via is not None  # a copy's leading gap is its publication (drawn above)
    for step in route.steps:
        if isinstance(step, Gap):
            if not leading:
                pending_gap = step
            continue
        leading = False
        edges = _edges(step, g)
        first = edges[0][0]
        if pending_gap is not None or (last is not None and last != first
                                       and not g.has_edge(last, first)):
            missing = pending_gap.missing if pending_gap is not None else None
            if last is None:
                g.add_node("?", kind="unknown", label="?")
            add(last or "?", first, {"operation": "unknown", "style": "dashed",
                                     "kind": "unknown", "missing": missing if missing is not None
                                     else -1})
            pending_gap = None
        for u, v, attrs in edges:
            if u != v:
                add(u, v, attrs)
        last = edges[-1][1]
    if pending_gap is not None and last is not None:
        g.add_node("?end", kind="unknown", label="?")
        add(last, "?end", {"operation": "unknown", "style": "dashed", "kind": "unknown",
                           "missing": pending_gap.missing or -1})
    for branch in route.branches:
        _draw(branch, g, _publisher(route, branch.via) if branch.via is not None else None)


def network_graph(routes: Iterable[Route]) -> nx.MultiDiGraph:
    """Several routes merged into one graph of the network they crossed."""
    g = nx.MultiDiGraph()
    for r in routes:
        route_graph(r, g)
    return g


def picture(g: nx.MultiDiGraph, fmt: str, *, title: str = "") -> bytes:
    """A picture of the graph (svg, png or pdf bytes): queue managers as boxes holding their
    objects, hops numbered left to right (drawn by `graph.draw`; LayoutError when Graphviz
    cannot)."""
    from graph.draw.route import route_picture

    if title:
        g = g.copy()
        g.graph["title"] = title
    return route_picture(g, fmt)


def draw(g: nx.MultiDiGraph, path: str | Path, *, title: str = "") -> Path:
    """A picture of the graph written to a file (.png, .svg or .pdf by the suffix)."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in ("svg", "png", "pdf"):
        raise ValueError(f"{path}: use .svg, .png or .pdf")
    Path(path).write_bytes(picture(g, fmt, title=title))
    return Path(path)


def _plain(value: object) -> object:
    """A GraphML value: numbers and booleans as they are, text with its control characters
    shown as `\\uXXXX` (XML 1.0 cannot hold them, NUL included)."""
    if isinstance(value, bool | int | float):
        return value
    return printable(str(value))


def graphml_bytes(g: nx.MultiDiGraph) -> bytes:
    """GraphML (attributes without a value are left out, as GraphML wants). Node ids and
    text are shown with control characters escaped (`pcf.text.printable`), so the XML is
    well-formed whatever the names hold; two names that would then read the same keep
    two nodes (the second id gets `#2`)."""
    clean = nx.MultiDiGraph()
    ids: dict[object, str] = {}
    for n in g.nodes:
        shown = printable(str(n))
        ident, k = shown, 1
        while ident in clean:
            k += 1
            ident = f"{shown}#{k}"
        ids[n] = ident
        clean.add_node(ident)
    for n, d in g.nodes(data=True):
        clean.nodes[ids[n]].update({printable(str(k)): _plain(v) for k, v in d.items()
                                    if v is not None})
    for u, v, k, d in g.edges(keys=True, data=True):
        clean.add_edge(ids[u], ids[v], key=printable(str(k)),
                       **{printable(str(a)): _plain(b) for a, b in d.items() if b is not None})
    clean.graph.update({k: _plain(v) for k, v in g.graph.items()
                        if isinstance(v, str | int | float | bool)})
    out = io.BytesIO()
    nx.write_graphml(clean, out)
    return out.getvalue()


def write_graphml(g: nx.MultiDiGraph, path: str | Path) -> Path:
    """GraphML written to a file (see `graphml_bytes`)."""
    Path(path).write_bytes(graphml_bytes(g))
    return Path(path)


def node_link_bytes(g: nx.MultiDiGraph) -> bytes:
    """node-link JSON (networkx's `node_link_data`); JSON escapes every control character."""
    return json.dumps(nx.node_link_data(g, edges="edges"), default=str, indent=1).encode()


def write_node_link(g: nx.MultiDiGraph, path: str | Path) -> Path:
    """node-link JSON written to a file."""
    Path(path).write_bytes(node_link_bytes(g))
    return Path(path)


#: The forms `export` writes, by file suffix.
SUFFIXES = (".png", ".svg", ".pdf", ".graphml", ".json")


def export(g: nx.MultiDiGraph, suffix: str, *, title: str = "") -> bytes:
    """The graph in the form a file suffix names: .png/.svg/.pdf picture, .graphml, .json."""
    suffix = suffix.lower()
    if suffix in (".png", ".svg", ".pdf"):
        return picture(g, suffix[1:], title=title)
    if suffix == ".graphml":
        return graphml_bytes(g)
    if suffix == ".json":
        return node_link_bytes(g)
    raise ValueError(f"{suffix}: use .png, .svg, .pdf, .graphml or .json")


def save(g: nx.MultiDiGraph, path: str | Path, *, title: str = "") -> Path:
    """Write the graph by the file's suffix: .png/.svg picture, .graphml, or .json."""
    data = export(g, Path(path).suffix, title=title)
    Path(path).write_bytes(data)
    return Path(path)
