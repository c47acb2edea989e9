"""The configured topology (MQSC) held against the observed one (routes): a findings report.

    configured  = channels, transmission queues, remote definitions, aliases, clusters
    observed    = the sends the pipeline's `hops` table records (channel, from, to, count)

Findings, one per problem, each naming its queue manager and objects:

    unused_channel            a sender channel no observed route used
    unexplained_route         a route went over a channel the configuration does not have
    remote_definition_without_channel
                              a remote queue definition (or queue-manager alias) whose
                              transmission queue no sender channel serves
    alias_loop                queue-manager aliases that send a message round in a circle
                              of queue managers
    qmgr_alias_loop           queue-manager aliases on one queue manager naming each other
                              in a circle (none leads anywhere)
    resolution_loop           remote queue definitions (RQMNAME blank or this queue manager)
                              and aliases leading back to themselves: opens fail with
                              MQRC_UNKNOWN_REMOTE_Q_MGR (2087)
    transmission_queue_missing
                              a remote queue definition or queue-manager alias whose
                              transmission queue (XMITQ, the queue named after RQMNAME, or
                              DEFXMITQ) is not defined on its queue manager
    transmission_queue_not_xmitq
                              ... whose transmission queue exists but is not a local queue
                              with USAGE(XMITQ): puts fail (MQRC_XMIT_Q_TYPE_ERROR 2091,
                              MQRC_XMIT_Q_USAGE_ERROR 2092)
    receiver_without_sender   a receiver channel no queue manager sends to
    sender_without_receiver   a sender channel with no receiver of that name anywhere
    stopped_channel           a channel stopped (STOP CHANNEL) — its messages wait
    single_repository_cluster a cluster with one full repository (no redundancy)
    dead_letter_queue_missing DEADQ names a queue that is not defined on its queue manager
                              (or is not a local queue): messages the MCAs cannot put wait
                              on the senders' transmission queues instead
    no_dead_letter_queue      a queue manager with receiving channels and no DEADQ: a
                              message its MCAs cannot put stops the channel (persistent) or
                              is lost (nonpersistent on an NPMSPEED(FAST) channel)
    growing_queue             (queue statistics) puts, no gets, and a rising depth
    slow_transmission_queue   (queue statistics) messages wait long for their channel

The core is pure (a Network and observed sends in, findings out); reading the observed
sends from the pipeline's Parquet and the Spark DataFrame form are at the edges.
"""

from __future__ import annotations

import errno
import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from pcf.names import name_of
from traceroute.sim.network import Network, QueueManager
from traceroute.sim.resolve import (
    CLUSTER_XMITQ,
    Resolution,
    cluster_receiver,
    clusters_of,
    local_loop,
    qmgr_alias_loop,
    receiving_end,
    resolve,
    sending_channel,
)

SENDERS = ("SDR", "SVR")
RECEIVERS = ("RCVR", "RQSTR")
MAX_HOPS = 64


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: its kind, where, the objects involved, and a sentence about it."""

    kind: str
    queue_manager: str
    objects: tuple[str, ...]
    detail: str


@dataclass(frozen=True, slots=True)
class ObservedSend:
    """Messages observed going from one queue manager to another over a channel."""

    src: str
    dst: str
    channel: str
    messages: int = 1


def _senders(network: Network) -> Iterator[tuple[QueueManager, str]]:
    for qm in network.qmgrs.values():
        for ch in qm.channels.values():
            if ch.get("CHLTYPE") in SENDERS:
                yield qm, ch.name


def _channel_findings(network: Network, used: set[tuple[str, str]] | None
                      ) -> Iterator[Finding]:
    receivers = {(qm.name, ch.name) for qm in network.qmgrs.values()
                 for ch in qm.channels.values() if ch.get("CHLTYPE") in RECEIVERS}
    sent = {name for _, name in _senders(network)}
    for qm, name in _senders(network):
        if not any(c == name for _, c in receivers):
            yield Finding("sender_without_receiver", qm.name, (name,),
                          f"no queue manager defines a receiver channel {name}: the channel "
                          "cannot start and its messages wait on its transmission queue")
        elif used is not None and (qm.name, name) not in used:
            yield Finding("unused_channel", qm.name, (name,),
                          f"sender channel {name} carried none of the observed messages")
    for qmgr, name in sorted(receivers):
        if name not in sent:
            yield Finding("receiver_without_sender", qmgr, (name,),
                          f"receiver channel {name} has no sender channel of that name on "
                          "any queue manager")
    for qm in network.qmgrs.values():
        for name in sorted(qm.stopped):
            yield Finding("stopped_channel", qm.name, (name,),
                          f"channel {name} is stopped: messages for it wait on its "
                          "transmission queue")


def _explained(network: Network, send: ObservedSend) -> bool:
    """True when the configuration has the channel the observed send used."""
    qm = network.qmgrs.get(send.src)
    if qm is None:
        return False
    ch = qm.channels.get(send.channel)
    if ch is not None and ch.get("CHLTYPE") in SENDERS:
        other = receiving_end(network, ch, qm, send.dst)
        return other is not None and other.name == send.dst
    target = network.qmgrs.get(send.dst)
    clus = target.channels.get(send.channel) if target else None
    return clus is not None and clus.get("CHLTYPE") == "CLUSRCVR"


def _follow(network: Network, qmgr: str, queue: str, target: str) -> tuple[str, list[str]]:
    """Route a put hop by hop: 'delivered', 'no_channel', 'failed' or 'loop', and the path."""
    path = [qmgr]
    seen = {(qmgr, queue, target)}
    for _ in range(MAX_HOPS):
        r: Resolution = resolve(network, qmgr, queue, target)
        if not r.ok:
            return "failed", path
        if r.local:
            return "delivered", path
        qm = network.qmgrs[qmgr]
        channel = sending_channel(network, qm, r)
        other = receiving_end(network, channel, qm, r.remote_qmgr) if channel else None
        if other is None:
            return "no_channel", path
        qmgr, queue, target = other.name, r.remote_q, r.remote_qmgr
        path.append(qmgr)
        if (qmgr, queue, target) in seen:
            return "loop", path
        seen.add((qmgr, queue, target))
    return "loop", path


def _definition_findings(network: Network) -> Iterator[Finding]:
    loops: set[frozenset[str]] = set()
    for qm in network.qmgrs.values():
        for q in qm.queues.values():
            if q.kind != "QREMOTE":
                continue
            qmgr_alias = not q.get("RNAME")
            queue = "" if qmgr_alias else q.name
            target = q.name if qmgr_alias else ""
            outcome, path = _follow(network, qm.name, queue or "ANY.QUEUE", target)
            if outcome == "no_channel" and len(path) == 1:
                r = resolve(network, qm.name, queue or "ANY.QUEUE", target)
                xmitq = r.xmitq if r.xmitq != CLUSTER_XMITQ else "cluster"
                yield Finding("remote_definition_without_channel", qm.name, (q.name, xmitq),
                              f"{q.name} resolves to transmission queue {xmitq}, which no "
                              "sender channel serves: messages wait there")
            elif outcome == "loop":
                cycle = frozenset(path[path.index(path[-1]):])
                if cycle not in loops:
                    loops.add(cycle)
                    yield Finding("alias_loop", qm.name, (q.name, *sorted(cycle)),
                                  f"a message put to {q.name} goes round "
                                  f"{' -> '.join(path[path.index(path[-1]):])} until "
                                  "MaxActivities (or its expiry) stops it")


def _local_loop_findings(network: Network) -> Iterator[Finding]:
    """Definitions on one queue manager that lead round to themselves."""
    for qm in network.qmgrs.values():
        seen: set[frozenset[str]] = set()
        for q in qm.queues.values():
            qm_alias = q.kind == "QREMOTE" and not q.get("RNAME")
            loop = qmgr_alias_loop(qm, q.name) if qm_alias else local_loop(qm, q.name)
            if not loop or frozenset(loop) in seen:
                continue
            seen.add(frozenset(loop))
            start = loop.index(min(loop))
            loop = loop[start:] + loop[:start]
            circle = " -> ".join([*loop, loop[0]])
            if qm_alias:
                yield Finding("qmgr_alias_loop", qm.name, tuple(loop),
                              f"queue-manager aliases {circle} on {qm.name} name each other: "
                              "none leads to a queue manager or transmission queue, so puts "
                              "addressed to them fail")
            else:
                yield Finding("resolution_loop", qm.name, tuple(loop),
                              f"{circle} on {qm.name}: the definitions lead back to "
                              "themselves; an open of any of them fails with "
                              "MQRC_UNKNOWN_REMOTE_Q_MGR (2087)")


def _xmitq_problem(qm: QueueManager, xmitq: str) -> str:
    """'' when `xmitq` is a local queue with USAGE(XMITQ) on qm, else the finding's kind."""
    q = qm.queues.get(xmitq)
    if q is None:
        return "transmission_queue_missing"
    if q.kind != "QLOCAL" or q.get("USAGE") != "XMITQ":
        return "transmission_queue_not_xmitq"
    return ""


def _xmitq_findings(network: Network) -> Iterator[Finding]:
    """Remote definitions and queue-manager aliases whose transmission queue is unusable."""
    for qm in network.qmgrs.values():
        for q in qm.queues.values():
            rqmname = q.get("RQMNAME") if q.kind == "QREMOTE" else ""
            if not rqmname or rqmname == qm.name:
                continue
            what = ("queue-manager alias" if not q.get("RNAME")
                    else "remote queue definition")
            xmitq, how = q.get("XMITQ"), "its XMITQ"
            if not xmitq:
                same = qm.queues.get(rqmname)
                if same is not None and same.kind != "QLOCAL":
                    continue  # an alias naming another one: _local_loop_findings' business
                if same is None and cluster_receiver(network, rqmname,
                                                     clusters_of(qm)) is not None:
                    continue  # reached through the cluster
                if same is None and qm.defxmitq:
                    xmitq, how = qm.defxmitq, "the default transmission queue (DEFXMITQ)"
                else:
                    xmitq, how = rqmname, "the queue named after RQMNAME"
            kind = _xmitq_problem(qm, xmitq)
            if not kind:
                continue
            obj = qm.queues.get(xmitq)
            if obj is None:
                state = "is not defined"
            elif obj.kind != "QLOCAL":
                state = f"is a {obj.kind}, not a local queue with USAGE(XMITQ)"
            else:
                state = (f"is a QLOCAL with USAGE({obj.get('USAGE') or 'NORMAL'}), not "
                         "USAGE(XMITQ)")
            # the reason MQ gives: the simulator's name resolution says it (one source)
            r = (resolve(network, qm.name, q.name) if q.get("RNAME")
                 else resolve(network, qm.name, "ANY", q.name))
            reason = f"{name_of(r.reason, 'MQRC') or 'MQRC'} ({r.reason})"
            yield Finding(kind, qm.name, (q.name, xmitq),
                          f"{what} {q.name} sends through {how}, {xmitq}, which {state} on "
                          f"{qm.name}: puts to it fail with {reason}, and messages that "
                          "arrive for it go to the dead-letter queue")


def _cluster_findings(network: Network) -> Iterator[Finding]:
    repositories: dict[str, list[str]] = {}
    for qm in network.qmgrs.values():
        repos = qm.attrs.get("REPOS", "")
        if repos:
            repositories.setdefault(repos, []).append(qm.name)
    for cluster, members in sorted(network.clusters().items()):
        full = sorted(repositories.get(cluster, []))
        if len(full) == 1:
            yield Finding("single_repository_cluster", full[0], (cluster,),
                          f"cluster {cluster} ({len(members)} queue managers) has one full "
                          f"repository, {full[0]}: no redundancy")


_RECEIVING = ("RCVR", "RQSTR", "CLUSRCVR")


def _dead_letter_findings(network: Network) -> Iterator[Finding]:
    for qm in network.qmgrs.values():
        receiving = sorted(ch.name for ch in qm.channels.values()
                           if ch.get("CHLTYPE") in _RECEIVING)
        if qm.deadq:
            dlq = qm.queues.get(qm.deadq)
            if dlq is None or dlq.kind != "QLOCAL":
                state = "is not defined" if dlq is None else f"is a {dlq.kind}"
                yield Finding("dead_letter_queue_missing", qm.name, (qm.deadq,),
                              f"DEADQ({qm.deadq}) {state} on {qm.name}: a message its "
                              "channels cannot put has no dead-letter queue (persistent ones "
                              "stop the channel and wait on the sender's transmission queue)")
        elif receiving:
            yield Finding("no_dead_letter_queue", qm.name, tuple(receiving),
                          f"{qm.name} receives on {', '.join(receiving)} and has no "
                          "dead-letter queue (DEADQ): a message its channels cannot put "
                          "(queue full, unknown queue, too big) stops the channel if "
                          "persistent and is lost if nonpersistent on an NPMSPEED(FAST) "
                          "channel")


def configured_channels(network: Network) -> list[tuple[str, str, str]]:
    """(from, to, channel) of every sender channel and the queue manager that receives it."""
    out = []
    for qm, name in _senders(network):
        other = receiving_end(network, qm.channels[name], qm, "")
        out.append((qm.name, other.name if other else "?", name))
    return sorted(out)


def audit(network: Network, observed: Iterable[ObservedSend] | None) -> list[Finding]:
    """Every finding of the configured network held against the observed sends; with
    `observed` None (nothing observed: no routes, no channel statistics) the configuration
    checks only, without unused_channel (nothing says a channel carried nothing)."""
    sends = list(observed or ())
    used = None if observed is None else {(s.src, s.channel) for s in sends}
    findings = list(_channel_findings(network, used))
    for s in sorted(sends, key=lambda s: (s.src, s.channel, s.dst)):
        if not _explained(network, s):
            findings.append(Finding("unexplained_route", s.src, (s.channel, s.dst),
                                    f"{s.messages} message(s) went from {s.src} to {s.dst} "
                                    f"over channel {s.channel}, which the configuration "
                                    "does not define"))
    findings += _definition_findings(network)
    findings += _local_loop_findings(network)
    findings += _xmitq_findings(network)
    findings += _cluster_findings(network)
    findings += _dead_letter_findings(network)
    return sorted(findings, key=lambda f: (f.kind, f.queue_manager, f.objects))


def observed_sends(out_dir: str | Path) -> list[ObservedSend]:
    """The sends in a pipeline output's `hops` table, aggregated (one row per channel use)."""
    import pyarrow.dataset as ds

    from graph.pipeline.storage import dataset, location

    table = dataset(location(out_dir) / "hops", format="parquet").to_table(
        columns=["kind", "src_queue_manager", "dst_queue_manager", "channel"],
        filter=ds.field("kind") == "send")
    grouped = table.group_by(["src_queue_manager", "dst_queue_manager", "channel"]).aggregate(
        [("kind", "count")])
    return [ObservedSend(r["src_queue_manager"] or "", r["dst_queue_manager"] or "",
                         r["channel"] or "", r["kind_count"]) for r in grouped.to_pylist()]


def audit_dataframe(spark, network: Network, hops):
    """The audit as a Spark DataFrame, from a `hops` DataFrame (aggregated before collect)."""
    from pyspark.sql import functions as F

    rows = (hops.filter(F.col("kind") == "send")
            .groupBy("src_queue_manager", "dst_queue_manager", "channel").count().collect())
    sends = [ObservedSend(r["src_queue_manager"], r["dst_queue_manager"] or "",
                          r["channel"] or "", r["count"]) for r in rows]
    found = [{**asdict(f), "objects": list(f.objects)} for f in audit(network, sends)]
    return spark.createDataFrame(found, "kind string, queue_manager string, "
                                        "objects array<string>, detail string")


# --- accounting and statistics as observations (issue 19) ----------------------------------
#
#     growing_queue              a queue with puts and no gets whose depth rose over the
#                                intervals its statistics cover (nobody reads it)
#     slow_transmission_queue    a transmission queue whose messages waited at least
#                                XMITQ_WAIT_US on average before their channel took them
#
# Channel statistics count as observed sends where no route shows the channel, so
# unused_channel / unexplained_route also work for an estate that only collects statistics;
# so does z/OS channel accounting (SMF 116 subtype 10, QCST), and z/OS queue accounting (WQ)
# counts as queue activity (graph.zos).

#: A transmission queue whose messages waited this long on average (µs) is reported.
XMITQ_WAIT_US = 1_000_000
#: Sending channel types in channel statistics (MQCHT_SENDER, _SERVER, _CLUSSDR).
SENDING_TYPES = (1, 2, 9)


@dataclass(frozen=True, slots=True)
class ObservedQueue:
    """One queue's statistics in one interval (a `queue_stats` row)."""

    qmgr: str
    queue: str
    interval_start: str
    interval_end: str
    puts: int
    gets: int
    min_depth: int
    max_depth: int
    avg_time_on_q: int = 0   # µs, both persistences weighted by their gets


def sends_from_channel_statistics(rows: Iterable[dict]) -> list[ObservedSend]:
    """Observed sends from `channel_stats` rows (sending channels with messages)."""
    total: dict[tuple[str, str, str], int] = {}
    for r in rows:
        if r.get("channel_type") in SENDING_TYPES and (r.get("msg_count") or 0) > 0:
            key = (r["queue_manager"] or "", r.get("remote_qmgr") or "", r["object"] or "")
            total[key] = total.get(key, 0) + r["msg_count"]
    return [ObservedSend(src, dst, ch, n) for (src, dst, ch), n in sorted(total.items())]


def merge_sends(routes: Iterable[ObservedSend], statistics: Iterable[ObservedSend]
                ) -> list[ObservedSend]:
    """Route sends, plus statistics' sends over channels no route shows."""
    out = list(routes)
    seen = {(s.src, s.channel) for s in out}
    out += [s for s in statistics if (s.src, s.channel) not in seen]
    return out


def _is_xmitq(network: Network, qmgr: str, queue: str) -> bool:
    qm = network.qmgrs.get(qmgr)
    obj = qm.queues.get(queue) if qm else None
    return queue == CLUSTER_XMITQ or (obj is not None and obj.get("USAGE") == "XMITQ")


def _serving_channels(network: Network, qmgr: str, xmitq: str) -> list[str]:
    qm = network.qmgrs.get(qmgr)
    if qm is None:
        return []
    return sorted(ch.name for ch in qm.channels.values()
                  if ch.get("CHLTYPE") in SENDERS and ch.get("XMITQ") == xmitq)


def statistics_findings(network: Network, queues: Iterable[ObservedQueue], *,
                        xmitq_wait_us: int = XMITQ_WAIT_US) -> list[Finding]:
    """Queues that only grow, and transmission queues where messages wait long."""
    by_queue: dict[tuple[str, str], list[ObservedQueue]] = {}
    for q in queues:
        by_queue.setdefault((q.qmgr, q.queue), []).append(q)
    findings: list[Finding] = []
    for (qmgr, queue), rows in sorted(by_queue.items()):
        rows.sort(key=lambda q: q.interval_start)
        puts, gets = sum(q.puts for q in rows), sum(q.gets for q in rows)
        if queue.startswith("SYSTEM.ADMIN."):
            continue  # monitoring queues are read by collectors, not applications
        if puts and not gets and rows[-1].max_depth > rows[0].min_depth:
            findings.append(Finding(
                "growing_queue", qmgr, (queue,),
                f"{puts} message(s) put to {queue} and none got in {len(rows)} interval(s) "
                f"from {rows[0].interval_start} to {rows[-1].interval_end}; depth rose to "
                f"{rows[-1].max_depth}"))
        if gets and _is_xmitq(network, qmgr, queue):
            waited = sum(q.avg_time_on_q * q.gets for q in rows) // gets
            if waited >= xmitq_wait_us:
                channels = _serving_channels(network, qmgr, queue)
                via = f" for channel {', '.join(channels)}" if channels else ""
                findings.append(Finding(
                    "slow_transmission_queue", qmgr, (queue, *channels),
                    f"messages waited {waited / 1e6:.1f} s on average on transmission queue "
                    f"{queue}{via} ({gets} message(s), {len(rows)} interval(s))"))
    return findings


def audit_with_statistics(network: Network, sends: Iterable[ObservedSend] | None,
                          queues: Iterable[ObservedQueue], *,
                          xmitq_wait_us: int = XMITQ_WAIT_US) -> list[Finding]:
    """`audit` plus the findings queue statistics give."""
    found = audit(network, sends) + statistics_findings(network, queues,
                                                        xmitq_wait_us=xmitq_wait_us)
    return sorted(found, key=lambda f: (f.kind, f.queue_manager, f.objects))


def audit_output(network: Network, out_dir: str | Path | None, *,
                 xmitq_wait_us: int = XMITQ_WAIT_US) -> list[Finding]:
    """THE audit of a configuration and (optionally) an analyze output folder: what
    `mqroute audit` prints and `mqroute report` shows. Channel use is observed from the
    routes' sends and the channel statistics; without an output, or one that observed no
    channel use at all, the configuration checks only (and queue statistics' findings)."""
    sends: list[ObservedSend] | None = None
    queues: list[ObservedQueue] = []
    if out_dir is not None:
        observed, queues = observed_with_statistics(out_dir)
        from graph.pipeline.storage import location

        sends = observed if observed or _observes_channels(location(out_dir)) else None
    return audit_with_statistics(network, sends, queues, xmitq_wait_us=xmitq_wait_us)


def _observes_channels(out: Path) -> bool:
    """True when an analyze output holds routes or channel statistics (so a channel that
    none shows carried nothing); False for one of events or activity trace only."""
    from graph.pipeline.storage import dataset

    for table in ("routes", "channel_stats"):
        if (out / table).is_dir() and dataset(out / table, format="parquet").count_rows():
            return True
    return False


def observed_with_statistics(out_dir: str | Path
                             ) -> tuple[list[ObservedSend], list[ObservedQueue]]:
    """Sends (routes, then channel statistics) and queue statistics of an analyze output."""
    from graph.pipeline.storage import dataset, location

    out = location(out_dir)
    if not any((out / table).is_dir() for table in ("hops", "channel_stats", "queue_stats",
                                                    "smf")):
        raise FileNotFoundError(errno.ENOENT, "not an output folder of mqroute analyze (it "
                                "has no hops, channel_stats, queue_stats or smf table)",
                                str(out))
    routes = observed_sends(out) if (out / "hops").exists() else []
    stat_sends: list[ObservedSend] = []
    if (out / "channel_stats").exists():
        rows = dataset(out / "channel_stats", format="parquet").to_table(
            columns=["queue_manager", "object", "channel_type", "remote_qmgr",
                     "msg_count"]).to_pylist()
        stat_sends = sends_from_channel_statistics(rows)
    queues: list[ObservedQueue] = []
    if (out / "queue_stats").exists():
        table = dataset(out / "queue_stats", format="parquet").to_table(
            columns=["queue_manager", "object", "interval_start", "interval_end",
                     "put_count", "put1_count", "get_count", "q_min_depth", "q_max_depth",
                     "avg_time_on_q", "avg_time_on_q_persistent", "data"])
        for r in table.to_pylist():
            gets = json.loads(r["data"] or "{}").get("GetCount") or [0, 0]
            gets = gets if isinstance(gets, list) else [gets, 0]
            n = sum(gets)
            avg = ((r["avg_time_on_q"] or 0) * gets[0]
                   + (r["avg_time_on_q_persistent"] or 0) * (gets[1] if len(gets) > 1 else 0))
            queues.append(ObservedQueue(
                r["queue_manager"] or "", r["object"] or "", r["interval_start"] or "",
                r["interval_end"] or "", (r["put_count"] or 0) + (r["put1_count"] or 0),
                r["get_count"] or 0, r["q_min_depth"] or 0, r["q_max_depth"] or 0,
                avg // n if n else 0))
    from graph import zos  # z/OS: channel accounting (QCST) and queue accounting (WQ)

    stat_sends += sends_from_channel_accounting(zos.channel_traffic(out))
    queues += queues_from_queue_accounting(zos.queue_rows(out))
    return merge_sends(routes, stat_sends), queues


#: z/OS channel types (as SMF channel accounting names them) that send to another queue
#: manager.
ACCOUNTING_SENDING = ("Sender", "Server", "ClusSdr")


def sends_from_channel_accounting(traffic: Iterable[dict]) -> list[ObservedSend]:
    """Observed sends from z/OS channel accounting totals (graph.zos.channel_traffic):
    sending channels that moved messages."""
    return [ObservedSend(t["qmgr"], t["remote"], t["channel"], t["messages"])
            for t in traffic if t["type"] in ACCOUNTING_SENDING and t["messages"] > 0]


def queues_from_queue_accounting(rows: Iterable[dict]) -> list[ObservedQueue]:
    """z/OS queue accounting totals (graph.zos.queue_rows) as per-queue observations: one
    per queue, its first open to its last close; its deepest depth seen (the lowest is not
    recorded: 0)."""
    return [ObservedQueue(t["qmgr"], t["queue"], t["first"] or "", t["last"] or "",
                          t["puts"], t["gets"], 0, t["max_depth"], t["avg_time_on_queue_us"])
            for t in rows if t["queue"]]
