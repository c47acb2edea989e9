"""The report page: sections of tables and pictures, inline CSS and JavaScript, no links out."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable
from html import escape as _html_escape
from pathlib import Path

from graph.draw.palette import verdict_colour
from graph.pipeline.storage import location
from graph.report import tables
from graph.zos import channel_traffic, has_smf, summary
from pcf.text import printable

#: Audit findings listed in the page (the rest counted).
FINDINGS_SHOWN = 1000

SECTIONS = (("summary", "Verdicts"), ("lost", "Lost messages"), ("estate", "Estate"),
            ("timeline", "Timeline"), ("channels", "Channels"), ("audit", "Audit"),
            ("events", "Events"), ("routes", "Routes"), ("rejects", "Unreadable input"))
#: The section shown (before Routes) when the folder has SMF tables (graph.zos).
ZOS_SECTION = ("zos", "z/OS")

CSS = """
body{font-family:"DejaVu Sans",Verdana,sans-serif;margin:0;color:#212121;background:#fafafa}
header{background:#0d47a1;color:white;padding:14px 24px}header h1{margin:0;font-size:20px}
header p{margin:4px 0 0;opacity:.85;font-size:13px}
nav{position:sticky;top:0;background:white;border-bottom:1px solid #ddd;padding:6px 24px;
z-index:2}nav a{margin-right:14px;color:#0d47a1;text-decoration:none;font-size:13px}
main{padding:0 24px 40px}section{background:white;margin:18px 0;padding:12px 18px;
border:1px solid #e0e0e0;border-radius:6px}h2{font-size:17px;margin:4px 0 10px}
h3{font-size:14px;margin:18px 0 6px}table{border-collapse:collapse;font-size:12px;
margin:6px 0}th,td{border:1px solid #e0e0e0;padding:3px 8px;text-align:left}
th{background:#eceff1;cursor:pointer;user-select:none;white-space:nowrap}
th.asc:after{content:" ▲"}th.desc:after{content:" ▼"}td.n{text-align:right}
.search{margin:4px 0;padding:3px 6px;width:260px;font-size:12px}
.chip{display:inline-block;padding:1px 7px;border-radius:9px;color:white;font-size:11px}
.picture{overflow:auto;border:1px solid #eee;max-height:900px;background:white}
.picture svg{display:block;max-width:100%;height:auto}
pre{background:#263238;color:#eceff1;padding:10px;overflow:auto;font-size:11px;max-height:420px}.note{color:#616161;font-size:12px}
.count{font-size:26px;font-weight:bold;margin-right:18px}
"""

JS_ERRORS = """
window.__errors = [];
window.addEventListener('error', function (e) {
  window.__errors.push(String(e.message || e));
  document.documentElement.setAttribute('data-js-errors', String(window.__errors.length));
});
"""

JS = """
(function () {
  function cellValue(row, i) {
    var c = row.cells[i]; if (!c) return '';
    var t = c.getAttribute('data-sort') || c.textContent.trim();
    var n = Number(t.replace(/,/g, ''));
    return (t !== '' && !isNaN(n)) ? n : t.toLowerCase();
  }
  document.querySelectorAll('table.data').forEach(function (table) {
    var body = table.tBodies[0];
    var input = document.createElement('input');
    input.type = 'search'; input.className = 'search';
    input.placeholder = 'search ' + (table.getAttribute('data-name') || 'table') + '…';
    input.addEventListener('input', function () {
      var q = input.value.toLowerCase();
      Array.prototype.forEach.call(body.rows, function (r) {
        r.style.display = r.textContent.toLowerCase().indexOf(q) >= 0 ? '' : 'none';
      });
    });
    table.parentNode.insertBefore(input, table);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener('click', function () {
        var asc = !th.classList.contains('asc');
        Array.prototype.forEach.call(th.parentNode.cells, function (h) {
          h.classList.remove('asc', 'desc');
        });
        th.classList.add(asc ? 'asc' : 'desc');
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, i), y = cellValue(b, i);
          return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  document.documentElement.setAttribute('data-ready', '1');
})();
"""


def escape(value: object) -> str:
    """Any value from a table as HTML text: control characters shown as `\\uXXXX`, markup
    characters (quotes included) as entities. Every value the page shows goes through it."""
    return _html_escape(printable("" if value is None else str(value)), quote=True)


_HEX_ID = re.compile(r"[0-9a-f]{1,96}")


def anchor(correl_id: object) -> str:
    """The page id of a route's section: `route-HEX` for a hexadecimal CorrelId as analyze
    writes it, else a digest of whatever the table held (an id is never raw table text)."""
    text = "" if correl_id is None else str(correl_id)
    if _HEX_ID.fullmatch(text):
        return f"route-{text}"
    return "route-x" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _chip(verdict: str) -> str:
    return (f'<span class="chip" style="background:{verdict_colour(verdict)}">'
            f'{escape(str(verdict).replace("_", " "))}</span>')


def _table(name: str, columns: list[str], rows: list[list], numeric: set[int] = frozenset()
           ) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = []
        for i, v in enumerate(row):
            if isinstance(v, tuple):            # (html, sort key)
                cells.append(f'<td data-sort="{escape(str(v[1]))}">{v[0]}</td>')
            elif i in numeric or isinstance(v, int):
                cells.append(f'<td class="n">{v:,}</td>' if isinstance(v, int)
                             else f'<td class="n">{escape(str(v))}</td>')
            else:
                cells.append(f"<td>{escape('' if v is None else str(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<table class="data" data-name="{escape(name)}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def _svg(svg: str, prefix: str) -> str:
    """An SVG ready to inline: ids made unique to this picture."""
    svg = svg[svg.find("<svg"):]
    svg = re.sub(r'\bid="', f'id="{prefix}-', svg)
    return f'<div class="picture" data-picture="{prefix}">{svg}</div>'


def _more(est: tables.Estate, name: str, what: str, where: str, unit: str = "messages"
          ) -> str:
    """A note saying how many rows of a list are not shown and where they all are."""
    rest, weight = est.more.get(name, (0, 0))
    if not rest:
        return ""
    also = f" ({weight:,} {unit})" if weight else ""
    return (f'<p class="note">{rest:,} more {escape(what)}{also} not shown here: every one is '
            f"in the Parquet table <code>{escape(where)}</code>.</p>")


def _summary(est: tables.Estate, out: Path) -> str:
    rows = [[(_chip(v), v), n, f"{100 * n / est.routes:.1f}%" if est.routes else ""]
            for v, n in est.verdicts]
    return (f'<p><span class="count">{est.routes:,}</span> messages traced · '
            f'<span class="count">{est.lost:,}</span> lost · '
            f'<span class="count">{est.rejected:,}</span> unreadable inputs</p>'
            + _table("verdicts", ["verdict", "messages", "share"], rows)
            + _more(est, "verdicts", "verdicts", str(out / "routes")))


def _lost(est: tables.Estate, out: Path) -> str:
    if not est.lost_groups:
        return '<p class="note">No message was lost.</p>'
    rows = [[(_chip(g["cause"]), g["cause"]), g["queue_manager"], g["queue"], g["channel"],
             g["next_queue_manager"], g["messages"], g["first_time"], g["last_time"],
             (f'<a href="#{anchor(g["example"])}">{escape(str(g["example"])[:16])}…</a>',
              g["example"])]
            for g in est.lost_groups]
    chips = " ".join(f"{_chip(c)} {n:,}" for c, n in est.causes)
    return (f"<p>By cause: {chips}. A cause is the verdict, or <b>loop</b> when the "
            "message's channel sends left some queue manager twice.</p>"
            + _more(est, "causes", "causes", str(out / "routes"))
            + _table("lost messages", ["cause", "last queue manager", "last queue",
                                       "channel", "next queue manager", "messages", "first",
                                       "last", "example"], rows)
            + _more(est, "lost_groups", "groups of lost messages", str(out / "routes")))


def _channels(est: tables.Estate, findings: list | None, folder: Path) -> str:
    busiest = [[c["channel"], c["from"], c["to"], c["messages"], c["first_time"],
                c["last_time"]] for c in est.channels]
    out = ["<h3>Busiest channels</h3>",
           _table("busiest channels", ["channel", "from", "to", "messages", "first send",
                                       "last send"], busiest) if busiest
           else '<p class="note">No channel sends were observed.</p>',
           _more(est, "channels", "channels", str(folder / "hops"), "sends"),
           "<h3>Dead channels</h3>"]
    stuck = [[s["queue_manager"], s["xmitq"], s["channel"], s["next_queue_manager"],
              s["messages"]] for s in est.stuck_channels]
    out.append("<p>Messages last seen on a transmission queue or channel: the channel to the "
               "next queue manager was not moving them.</p>")
    out.append(_table("stuck channels", ["queue manager", "transmission queue", "channel",
                                         "next queue manager", "messages"], stuck)
               if stuck else '<p class="note">None.</p>')
    out.append(_more(est, "stuck_channels", "stuck channels", str(folder / "routes")))
    if findings is not None:  # listed once, in the Audit section: counted here
        dead = Counter(f.kind for f in findings if f.kind in _CHANNEL_FINDINGS)
        said = ", ".join(f"{n} {kind}" for kind, n in sorted(dead.items()))
        out.append(f'<p>Configured channels that carried nothing or cannot run: {said} (see '
                   '<a href="#audit">Audit</a>).</p>' if dead else
                   '<p class="note">The audit finds no configured channel that carried '
                   "nothing or cannot run.</p>")
    return "".join(out)


_CHANNEL_FINDINGS = ("unused_channel", "stopped_channel", "sender_without_receiver",
                     "receiver_without_sender")


def _audit(findings: list | None) -> str:
    if findings is None:
        return ('<p class="note">No configuration given: run <code>mqroute report DIR '
                "--mqsc *.mqsc</code> to hold the dmpmqcfg MQSC against these routes.</p>")
    if not findings:
        return "<p>The configuration and the observed routes agree: no findings.</p>"
    rows = [[f.kind, f.queue_manager, ", ".join(f.objects), f.detail]
            for f in findings[:FINDINGS_SHOWN]]
    more = (f'<p class="note">{len(findings) - len(rows):,} more findings not shown here: '
            "<code>mqroute audit --mqsc ... --observed DIR</code> prints them all.</p>"
            if len(findings) > len(rows) else "")
    return _table("audit findings", ["finding", "queue manager", "objects", "detail"],
                  rows) + more


def _events(out: Path) -> str:
    columns, rows, total = tables.events(out)
    if not columns:
        return ('<p class="note">This output has no <code>events/</code> table (analyze '
                "writes one when its input holds MQ event messages).</p>")
    parts = [f"<p>{total:,} events.</p>"]
    counts = tables.event_counts(out)
    if counts:
        parts.append(_table("event counts", ["category", "reason", "events"],
                            [list(c) for c in counts]))
    explained = tables.route_events(out)
    if explained:
        cols = ["correl_id", "verdict", "last_queue_manager", "last_queue", "last_channel",
                "last_time", "reason_name", "time"]
        parts.append("<h3>Events that explain where routes stopped</h3>")
        parts.append(_table("explaining events", ["message", "verdict", "queue manager",
                                                  "queue", "channel", "route's last time",
                                                  "event", "event time"],
                            [[r.get(c) for c in cols] for r in explained]))
    shown = [[r.get(c) if not isinstance(r.get(c), bytes) else r.get(c).hex()
              for c in columns] for r in rows]
    parts.append(f"<h3>The events, in time order (first {len(rows):,})</h3>")
    parts.append(_table("events", columns, shown))
    return "".join(parts)


def _event_mark(ev: dict) -> str:
    """The timeline mark of an event: a channel stopping, a channel starting, or another."""
    from traceroute.events.explain import CHANNEL_DOWN, CHANNEL_UP

    reason = ev.get("reason")
    if reason in CHANNEL_DOWN:
        return "event_channel_down"
    if reason in CHANNEL_UP:
        return "event_channel_up"
    return "event"


def _timeline(out: Path, est: tables.Estate, event_rows: list[dict],
              xmitqs: dict[tuple[str, str], str] | None = None) -> str:
    from graph.draw.timeline import Lane, depth_steps, timeline_svg

    prefer = tuple(p for p, *_ in est.lost_points)
    moves = tables.queue_activity(out, lanes=10, prefer=prefer)
    lanes = {name: Lane(name, depth_steps(m)) for name, m in moves.items()}
    for place, stamp, cause, correl in est.lost_points:
        lane = lanes.get(place)
        if lane is None and len(lanes) < 14:
            lane = lanes[place] = Lane(place, what="last known location")
        if lane is not None:
            lane.markers.append((stamp, cause, f"{cause}: message {correl}"))
    senders: dict[str, set[tuple[str, str]]] = {}  # channel -> its sending ends' xmitqs
    for (sender_qm, name), xmitq in (xmitqs or {}).items():
        senders.setdefault(name, set()).add((sender_qm, xmitq))
    for ev in event_rows:
        qm = ev.get("queue_manager") or ""
        stamp = str(ev.get("time") or "")
        channel = ev.get("channel")
        at = ""
        if channel and ev.get("category") == "channel":
            # a channel event belongs where its messages wait: the lane of the transmission
            # queue it serves (named by the event, the configuration or the observed sends);
            # the receiving end's events go on the lane of the one sending end's queue
            xmitq = ev.get("xmit_queue") or (xmitqs or {}).get((qm, channel))
            where = qm
            ends = senders.get(channel, set())
            if not xmitq and len(ends) == 1:
                (where, xmitq), = ends
                at = f" at {qm}"
            place = f"{where}/{xmitq}" if xmitq else f"{qm}/{channel}"
            what = "transmission queue" if xmitq else "channel"
        else:
            places = [f"{qm}/{ev[k]}" for k in ("object", "xmit_queue", "channel")
                      if ev.get(k)]
            place = next((p for p in places if p in lanes), places[0] if places else None)
            what = "object of events"
        if not place or not stamp:
            continue
        if place not in lanes and len(lanes) < 14:
            lanes[place] = Lane(place, what=what)
        if place in lanes:
            name = ev.get("reason_name") or ev.get("event_type_name") or "event"
            about = f" ({channel}{at})" if channel else ""
            lanes[place].markers.append((stamp, _event_mark(ev), f"{name}{about}"))
    if not lanes:
        return '<p class="note">No timed operations in this output.</p>'
    svg = timeline_svg(list(lanes.values()),
                       title="Observed depth per queue; where lost messages stopped")
    return ("<p>Depth as the traced messages show it (puts less gets recorded in their "
            "activities); dots mark where and when lost messages were last seen, "
            "triangles the events (a channel's on the lane of its transmission queue: "
            "stopped pointing down, started pointing up); the legend names each mark.</p>"
            + _svg(svg, "timeline"))


def _destinations(network):
    """(queue manager, SubId) -> where that subscription sends its copies, from the MQSC
    (DEFINE SUB with its SUBID, as dmpmqcfg writes it); None without MQSC."""
    if network is None:
        return None
    from traceroute.routes import Location
    from traceroute.sim.pubsub import PubSub

    subs = PubSub()

    def where(qmgr: str, sub_id: bytes):
        if qmgr not in network.qmgrs:
            return None
        found = subs.find(network, qmgr, sub_id)
        return Location(found.destination_qmgr, found.dest) if found is not None else None

    return where


def _routes(out: Path, est: tables.Estate, count: int,
            problem: Callable[[str], None] | None = None, network=None) -> str:
    from graph.draw.route import route_svg
    from graph.routegraph import route_graph
    from traceroute.display import render_route

    picked = [g["example"] for g in est.lost_groups][: max(0, count - 1)]
    delivered = tables.one_delivered(out)
    if delivered and len(picked) < count:
        picked.append(delivered)
    parts = [f"<p>{len(picked)} route(s): one example of each group of lost messages, "
             "and one delivered message.</p>"]
    failed: list[tuple[str, str]] = []
    for i, route in enumerate(tables.route_details(out, picked, failed,
                                                   destinations=_destinations(network))):
        key = route.correl_id.hex()
        text = "\n".join(escape(line) for line in render_route(route, "outline"))
        picture = _picture(lambda route=route: route_svg(route_graph(route)), f"route{i}",
                           f"the picture of route {key}", problem)
        parts.append(f'<article id="{anchor(key)}" class="route"><h3>'
                     f"{_chip(route.verdict.value)} message {key}</h3>"
                     + picture + f"<pre>{text}</pre></article>")
    for correl_id, reason in failed:
        if problem is not None:
            problem(f"the route of message {correl_id} could not be rebuilt from the "
                    f"operations table: {reason}")
        parts.append(f'<p class="note" id="{anchor(correl_id)}">The route of message '
                     f"{escape(correl_id)} could not be rebuilt from the operations table: "
                     f"{escape(reason)}.</p>")
    return "".join(parts)


def _picture(draw: Callable[[], str], prefix: str, what: str,
             problem: Callable[[str], None] | None) -> str:
    """A picture inlined, or, when Graphviz cannot draw it, a note in its place (and one
    line to `problem`): the rest of the page is still written."""
    from graph.draw.dot import LayoutError

    try:
        return _svg(draw(), prefix)
    except LayoutError as e:
        if problem is not None:
            problem(f"{what} was not drawn: {e}")
        return f'<p class="note">{escape(what)} could not be drawn: {escape(e)}.</p>'


def _seconds(us: int) -> str:
    return f"{us / 1e6:,.3f}"


def _zos(z) -> str:
    """The z/OS section: from the smf/ tables (SMF statistics and accounting)."""
    out = [f"<p>SMF records of queue managers {escape(', '.join(z.queue_managers))}: "
           + ", ".join(f"{escape(t.lower())} {n:,}" for t, n in sorted(z.rows.items()))
           + " rows (see <code>mqroute smf</code>).</p>"]
    out.append("<h3>Findings</h3>")
    if z.findings:
        rows = [[f.rule.id, f.qmgr, f.interval_start.strftime("%Y-%m-%d %H:%M:%S")
                 if f.interval_start else "", f.object,
                 ", ".join(f"{k} {v}" for k, v in f.detail.items()),
                 f"{f.rule.cause} {f.rule.action}"] for f in z.findings[:500]]
        out.append(_table("zos findings", ["rule", "queue manager", "interval", "object",
                                           "numbers", "cause and action"], rows))
    else:
        out.append('<p class="note">No SMF figure crossed a threshold of IBM\'s '
                   "interpretation rules.</p>")
    if z.tasks:
        out.append("<h3>CPU per task (message manager accounting)</h3>")
        rows = [[t["qmgr"], t["task"], t["type"], t["user"], t["records"],
                 (_seconds(t["cpu_us"]), t["cpu_us"]), t["puts"], t["gets"]] for t in z.tasks]
        out.append(_table("zos tasks", ["queue manager", "task", "type", "user", "records",
                                        "CPU seconds", "puts", "gets"], rows))
    if z.queues:
        out.append("<h3>CPU per queue (queue accounting)</h3>")
        rows = [[q["qmgr"], q["queue"], q["tasks"], q["opens"], q["puts"], q["gets"],
                 (_seconds(q["cpu_us"]), q["cpu_us"]), q["max_depth"],
                 (_seconds(q["avg_time_on_queue_us"]), q["avg_time_on_queue_us"])]
                for q in z.queues]
        out.append(_table("zos queues", ["queue manager", "queue", "task records", "opens",
                                         "puts", "gets", "CPU seconds", "deepest",
                                         "average wait s"], rows))
    if z.channels:
        out.append("<h3>Channels (channel accounting)</h3>")
        rows = [[c["qmgr"], c["channel"], c["type"], c["remote"], c["instances"],
                 c["messages"], c["persistent"], c["bytes"], c["batches"], c["full_batches"],
                 c["first"] or "", c["last"] or ""] for c in z.channels]
        out.append(_table("zos channels", ["queue manager", "channel", "type", "partner",
                                           "instances", "messages", "persistent", "bytes",
                                           "batches", "full batches", "first", "last"], rows))
    if z.buffer_pools:
        out.append("<h3>Buffer pools</h3>")
        rows = [[b["qmgr"], b["pool"], b["intervals"], b["buffers"],
                 "" if b["lowest_stealable_pct"] is None else f"{b['lowest_stealable_pct']}%",
                 b["gets"], b["dasd_reads"], b["pages_written"], b["sync_writes"],
                 b["deferred_write_threshold"], b["sync_write_threshold"], b["no_buffers"]]
                for b in z.buffer_pools]
        out.append(_table("zos buffer pools", [
            "queue manager", "pool", "intervals", "buffers", "lowest stealable", "page gets",
            "DASD reads", "pages written", "synchronous writes", "85% threshold",
            "95% threshold", "no buffers"], rows))
    if z.log:
        out.append("<h3>Log</h3>")
        rows = [[g["qmgr"], g["intervals"], g["writes"], g["reads_buffer"], g["reads_active"],
                 g["reads_archive"], g["buffer_waits"], g["checkpoints"],
                 (f"{g['checkpoints_per_hour']:.1f}", g["checkpoints_per_hour"])]
                for g in z.log]
        out.append(_table("zos log", ["queue manager", "intervals", "writes",
                                      "reads from buffer", "from active log",
                                      "from archive log", "buffer waits", "checkpoints",
                                      "checkpoints an hour"], rows))
    return "".join(out)


def _rejects(est: tables.Estate, out: Path) -> str:
    if not est.rejected:
        return "<p>Every input message was read.</p>"
    rows = [[r.get("source"), r.get("position"), r.get("msg_id"), r.get("error")]
            for r in est.rejects]
    return (f"<p>{est.rejected:,} message(s) could not be read (first {len(rows)}):</p>"
            + _table("rejects", ["source", "byte offset", "msg id", "error"], rows)
            + _more(est, "rejects", "unreadable messages", str(out / "rejects"), ""))


def build_report(out: str | Path, *, network=None, title: str | None = None,
                 routes: int = 12, max_nodes: int = 24,
                 problem: Callable[[str], None] | None = None) -> str:
    """The HTML page of an analyze output folder (with the MQSC `network` for the audit).
    A picture Graphviz cannot draw is a note in the page and one call of `problem`."""
    from graph.draw.estate import estate_svg

    out = location(out)
    est = tables.read_estate(out)
    findings = None
    clusters = None
    unused: list[tuple[str, str, str]] = []
    flagged: dict[str, str] = {}
    zos = None
    if has_smf(out):
        zos = summary(out)
        _add_channel_accounting(est, out)
    xmitqs: dict[tuple[str, str], str] = {}  # (qmgr, channel) -> its transmission queue
    if network is not None:
        from graph.audit import audit_output, configured_channels

        findings = audit_output(network, out)  # the audit `mqroute audit --observed` prints
        xmitqs = {(qm.name, ch.name): ch.get("XMITQ") for qm in network.qmgrs.values()
                  for ch in qm.channels.values() if ch.get("XMITQ")}
        idle = {(f.queue_manager, o) for f in findings if f.kind == "unused_channel"
                for o in f.objects}
        unused = [c for c in configured_channels(network) if (c[0], c[2]) in idle]
        flagged = {f.queue_manager: f.kind for f in findings}
        clusters = cluster_map(network) or None
    _, event_rows, _ = tables.events(out, limit=2000, extra=("reason",))
    for key, xmitq in tables.channel_xmitqs(out, event_rows).items():
        xmitqs.setdefault(key, xmitq)  # the configuration first, then what was observed
    title = title or f"mqroute report: {out.name}"
    body = {
        "summary": _summary(est, out), "lost": _lost(est, out),
        "estate": _picture(lambda: estate_svg(
            est.sends, est.losses, clusters, max_nodes=max_nodes,
            title="Queue managers by traffic; where messages were lost", unused=unused,
            flagged=flagged), "estate", "the estate picture", problem)
        if est.sends or est.losses
        else '<p class="note">No channel sends observed.</p>',
        "timeline": _timeline(out, est, event_rows, xmitqs),
        "channels": _channels(est, findings, out), "audit": _audit(findings),
        "events": _events(out), "routes": _routes(out, est, routes, problem, network),
        "rejects": _rejects(est, out)}
    shown = SECTIONS
    if zos is not None:
        body["zos"] = _zos(zos)
        shown = (*SECTIONS[:-2], ZOS_SECTION, *SECTIONS[-2:])
    nav = "".join(f'<a href="#{k}">{escape(t)}</a>' for k, t in shown)
    sections = "".join(f'<section id="{k}"><h2>{escape(t)}</h2>{body[k]}</section>'
                       for k, t in shown)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{CSS}</style>"
            f"<script>{JS_ERRORS}</script></head><body>"
            f"<header><h1>{escape(title)}</h1><p>{est.routes:,} routes from "
            f"{escape(str(out))}</p></header><nav>{nav}</nav><main>{sections}</main>"
            f"<script>{JS}</script></body></html>\n")


def _add_channel_accounting(est: tables.Estate, out: Path) -> None:
    """z/OS channel accounting as observed traffic: sending channels no route shows join the
    estate picture's sends and the busiest channels."""
    from graph.audit import ACCOUNTING_SENDING

    seen = {(src, channel) for src, _dst, channel, _n in est.sends}
    for t in channel_traffic(out):
        if t["type"] in ACCOUNTING_SENDING and t["messages"] > 0 \
                and (t["qmgr"], t["channel"]) not in seen:
            est.sends.append((t["qmgr"], t["remote"] or "?", t["channel"], t["messages"]))
            est.channels.append({"channel": t["channel"], "from": t["qmgr"],
                                 "to": t["remote"] or "?", "messages": t["messages"],
                                 "first_time": t["first"] or "", "last_time": t["last"] or ""})
    est.channels.sort(key=lambda c: (-c["messages"], c["channel"]))


def cluster_map(network) -> dict[str, str]:
    """Queue manager -> its MQ cluster(s), joined with '+' when it is in several."""
    member: dict[str, list[str]] = {}
    for cluster, qms in sorted(network.clusters().items()):
        for q in qms:
            member.setdefault(q, []).append(cluster)
    return {q: "+".join(cs) for q, cs in member.items()}


def write_report(out: str | Path, path: str | Path, **options) -> Path:
    """Write the report of an analyze output folder to `path`."""
    path = Path(path)
    path.write_text(build_report(out, **options), encoding="utf-8")
    return path
