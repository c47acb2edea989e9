"""Every metric mqroute exports: name, type, labels, help, its OpenTelemetry name, its origin.

Where IBM's mq-metric-samples (`mq_prometheus`, `mq_otel`) exports a quantity, the family
keeps that collector's name, label names and meaning exactly, so the Grafana dashboards built
for it work on mqroute's numbers: object status (`ibmmq_queue_*`, `ibmmq_channel_*`,
`ibmmq_qmgr_*` from DISPLAY QSTATUS / CHSTATUS / QMSTATUS) and the statistics-message names
(`ibmmq_queue_mqput_message_count` ... from STATQ, `ibmmq_qmgr_*_count` from STATMQI). What
only mqroute knows is under `mqroute_`, named by Prometheus's rules (base units in the name,
counters end in `_total`).

Their collector types a per-interval delta (channel messages, bytes, batches; statistics
counts) as a counter without `_total` whose value is reset at every collection: the value
goes down, so it is a gauge by Prometheus's rules and mqroute types it so (PromQL and
Grafana match names only; the name is unchanged).
"""

from __future__ import annotations

from dataclasses import dataclass

from traceroute.stats.params import PARAMS

GAUGE, COUNTER, HISTOGRAM = "gauge", "counter", "histogram"
IBM, MQROUTE = "mq-metric-samples", "mqroute"

#: Label names, exactly as mq_prometheus sets them on each object class.
QUEUE = ("qmgr", "queue", "platform", "usage", "description", "cluster")
CHANNEL = ("qmgr", "channel", "platform", "description", "type", "rqmname", "connname",
           "jobname", "sslciph")
QMGR = ("qmgr", "platform", "description", "hostname")

#: Hop latency buckets (seconds): activity times have one-second resolution, and a hop
#: behind a stopped channel takes hours.
HOP_BUCKETS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0,
               14400.0, 86400.0)


@dataclass(frozen=True, slots=True)
class Family:
    """One metric family: what Prometheus sees and what OTLP carries."""

    name: str
    kind: str
    labels: tuple[str, ...]
    help: str
    source: str
    origin: str = IBM
    otel: str = ""
    unit: str = ""
    buckets: tuple[float, ...] = ()
    note: str = ""

    @property
    def otel_name(self) -> str:
        """The OpenTelemetry name: `ibmmq.queue.depth` as mq_otel names it, `mqroute.x`."""
        if self.otel:
            return self.otel
        prefix, series, rest = self.name.split("_", 2)
        return f"{prefix}.{series}.{rest}"


def _g(name: str, labels: tuple[str, ...], help_: str, source: str, **kw) -> Family:
    return Family(name, GAUGE, labels, help_, source, **kw)


# Object status: DISPLAY QSTATUS / QLOCAL, CHSTATUS / CHANNEL, QMSTATUS (mqmetric's
# queue.go, channel.go, qmgr.go: attribute names and which are deltas).
_QUEUE_STATUS = (
    ("depth", "Queue depth (CURDEPTH)"),
    ("oldest_message_age", "Age of the oldest message on the queue, seconds (MSGAGE)"),
    ("qtime_short", "Average time on queue of recent messages, microseconds (QTIME short)"),
    ("qtime_long", "Average time on queue over a longer period, microseconds (QTIME long)"),
    ("time_since_put", "Seconds since the last put (LPUTDATE/LPUTTIME)"),
    ("time_since_get", "Seconds since the last get (LGETDATE/LGETTIME)"),
    ("uncommitted_messages", "Uncommitted messages (UNCOM)"),
    ("input_handles", "Handles open for input (IPPROCS)"),
    ("output_handles", "Handles open for output (OPPROCS)"),
    ("qfile_current_size", "Queue file current size, MB (CURFSIZE)"),
    ("qfile_max_size", "Queue file current maximum size, MB (CURMAXFS)"),
    ("attribute_max_depth", "Queue maximum depth (MAXDEPTH attribute)"),
    ("attribute_usage", "Queue usage (USAGE attribute: 0 normal, 1 transmission)"),
)
_CHANNEL_STATUS = (
    ("status", "Channel status, MQCHS_* value (0 inactive, 1 binding, 2 starting, 3 running, "
               "4 stopping, 5 retrying, 6 stopped, 7 requesting, 8 paused, 13 initializing, "
               "14 switching)"),
    ("status_squash", "Channel status simplified: 0 stopped, 1 in transition, 2 running"),
    ("substate", "Channel substate, MQCHSSTATE_* value"),
    ("type", "Channel type, MQCHT_* value"),
    ("instance_type", "Channel instance type, MQOT_* value (1011 current channel)"),
    ("messages", "Messages sent or received since the previous collection (MSGS delta)"),
    ("bytes_sent", "Bytes sent since the previous collection (BYTSSENT delta)"),
    ("bytes_rcvd", "Bytes received since the previous collection (BYTSRCVD delta)"),
    ("buffers_sent", "Buffers sent since the previous collection (BUFSSENT delta)"),
    ("buffers_rcvd", "Buffers received since the previous collection (BUFSRCVD delta)"),
    ("batches", "Batches completed since the previous collection (BATCHES delta)"),
    ("time_since_msg", "Seconds since the last message (LSTMSGDA/LSTMSGTI)"),
    ("nettime_short", "Network time of recent batches, microseconds (NETTIME short)"),
    ("nettime_long", "Network time over a longer period, microseconds (NETTIME long)"),
    ("batchsz_short", "Average batch size of recent batches (BATCHSZ short)"),
    ("batchsz_long", "Average batch size over a longer period (BATCHSZ long)"),
    ("xmitq_time_short", "Time on the transmission queue of recent messages, microseconds "
                         "(XQTIME short)"),
    ("xmitq_time_long", "Time on the transmission queue over a longer period, microseconds "
                        "(XQTIME long)"),
    ("attribute_max_inst", "MAXINST attribute of the channel"),
    ("attribute_max_instc", "MAXINSTC attribute of the channel"),
    ("cur_inst", "Current instances of the channel name"),
    ("start_epoch", "Channel start time, seconds since 1970 (CHSTADA/CHSTATI)"),
)
_QMGR_STATUS = (
    ("status", "Queue manager status, MQQMSTA_* value (0: not available)"),
    ("connection_count", "Connections to the queue manager (CONNS)"),
    ("channel_initiator_status", "Channel initiator status, MQSVC_STATUS_* value"),
    ("command_server_status", "Command server status, MQSVC_STATUS_* value"),
    ("uptime", "Seconds since the queue manager started (STARTDA/STARTTI)"),
    ("active_listeners", "Listeners running"),
)

# Statistics messages (mqmetric's statistics.go): parameter -> names by list index; where
# one name more than the list's elements is given, the last is the sum of them all.
_P = ("non_persistent", "persistent")
_OBJECTS = ("unknown", "queue", "namelist", "process", "stgclass", "qmgr", "channel",
            "authinfo", "topic", "comminfo", "cfstruc", "listener", "service")


def _persistence(stem: str, tail: str = "message") -> tuple[str, ...]:
    return (*(f"{stem}_{p}_{tail}" for p in _P), f"{stem}_{tail}")


def _bytes(stem: str) -> tuple[str, ...]:
    return (*(f"{stem}_{p}_message_bytes" for p in _P), f"{stem}_message_bytes")


def _by_object(verb: str) -> tuple[str, ...]:
    return (*(f"{verb}_{o}" for o in _OBJECTS), verb)


#: STATQ and STATMQI counts: record attribute -> names (without `_count`).
STAT_COUNTS_BOTH: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("put_count", _persistence("mqput")),
    ("put_fail_count", ("failed_mqput",)),
    ("put1_count", _persistence("mqput1")),
    ("put1_fail_count", ("failed_mqput1",)),
    ("put_bytes", _bytes("put")),
    ("get_count", _persistence("destructive_mqget")),
    ("get_bytes", _bytes("destructive_mqget")),
    ("get_fail_count", ("failed_destructive_mqget",)),
    ("browse_count", _persistence("mqget_browse")),
    ("browse_bytes", (*(f"mqget_browse_{p}_bytes" for p in _P), "mqget_browse_bytes")),
    ("browse_fail_count", ("failed_mqget_browse",)),
    ("expired_msg_count", ("expired_message",)),
)
STAT_COUNTS_QUEUE: tuple[tuple[str, tuple[str, ...]], ...] = (
    *STAT_COUNTS_BOTH,
    ("non_queued_msg_count", ("queue_avoided_put",)),
    ("purge_count", ("purged_message",)),
)
STAT_COUNTS_QMGR: tuple[tuple[str, tuple[str, ...]], ...] = (
    *STAT_COUNTS_BOTH,
    ("purge_count", ("purged_messages",)),
    ("conn_count", ("mqconn_mqconnx",)),
    ("conn_fail_count", ("failed_mqconn_mqconnx",)),
    ("disc_count", ("mqdisc_normal", "mqdisc_implicit", "mqdisc_qmgr", "mqdisc")),
    ("open_count", _by_object("mqopen")),
    ("open_fail_count", _by_object("failed_mqopen")),
    ("close_count", _by_object("mqclose")),
    ("close_fail_count", _by_object("failed_mqclose")),
    ("inq_count", _by_object("mqinq")),
    ("inq_fail_count", _by_object("failed_mqinq")),
    ("set_count", _by_object("mqset")),
    ("set_fail_count", _by_object("failed_mqset")),
    ("commit_count", ("mqcmit",)),
    ("commit_fail_count", ("failed_mqcmit",)),
    ("back_count", ("mqback",)),
    ("sub_count_dur", ("mqsub_durable_create", "mqsub_durable_alter", "mqsub_durable_resume",
                       "mqsub_durable")),
    ("sub_count_ndur", ("mqsub_non_durable_create", "mqsub_non_durable_alter",
                        "mqsub_non_durable_resume", "mqsub_non_durable")),
    ("sub_fail_count", ("failed_mqsub",)),
    ("unsub_count_dur", ("unsubscribe_durable_keep", "unsubscribe_durable_remove",
                         "unsubscribe_durable")),
    ("unsub_count_ndur", ("unsubscribe_non_durable_keep", "unsubscribe_non_durable_remove",
                          "unsubscribe_non_durable")),
    ("unsub_fail_count", ("failed_unsubscribe",)),
    ("sub_rq_count", ("mqsubrq",)),
    ("sub_rq_fail_count", ("failed_mqsubrq",)),
    ("cb_count", ("mqcb_register", "mqcb_deregister", "mqcb_resume", "mqcb_suspend", "mqcb")),
    ("cb_fail_count", ("failed_mqcb",)),
    ("ctl_count", ("mqctl_start", "mqctl_stop", "mqctl_resume", "mqctl_suspect", "mqctl")),
    ("ctl_fail_count", ("failed_mqctl",)),
    ("stat_count", ("mqstat",)),
    ("stat_fail_count", ("failed_mqstat",)),
    ("put_topic_count", ("mqput_topic_non_persistent_messages",
                         "mqput_topic_persistent_messages", "mqput_topic_messages")),
    ("put_topic_fail_count", ("failed_mqput_topic",)),
    ("put1_topic_count", ("mqput1_topic_non_persistent_messages",
                          "mqput1_topic_persistent_messages", "mqput1_topic_messages")),
    ("put1_topic_fail_count", ("failed_mqput1_topic",)),
    ("put_topic_bytes", ("put_topic_non_persistent_message_bytes",
                         "put_topic_persistent_message_bytes", "put_topic_message_bytes")),
    ("publish_msg_count", ("publish_non_persistent_messages", "publish_persistent_messages",
                           "publish_messages")),
    ("publish_msg_bytes", ("publish_non_persistent_message_bytes",
                           "publish_persistent_message_bytes", "publish_message_bytes")),
)
#: STATMQI high and low water marks (gauges, no `_count`): attribute -> names by index.
STAT_WATERS: tuple[tuple[str, tuple[str, ...], str], ...] = tuple(
    (attr, tuple(f"mqsub_{kind}_{water}water_{who}" for who in ("all", "api", "admin", "proxy")),
     "max" if water == "high" else "min")
    for attr, kind, water in (
        ("sub_count_dur_high_water", "durable", "high"),
        ("sub_count_dur_low_water", "durable", "low"),
        ("sub_count_ndur_high_water", "non_durable", "high"),
        ("sub_count_ndur_low_water", "non_durable", "low")))


#: Record attribute -> the parameter's name as amqsmon prints it (PutCount ...).
_LABEL = {p.attr: p.name for p in PARAMS}


def count_name(series: str, name: str) -> str:
    """`ibmmq_<series>_<name>_count`: a statistics count as mq_prometheus names it."""
    return f"ibmmq_{series}_{name}" + ("" if name.endswith("_count") else "_count")


def _statistics_families() -> list[Family]:
    out: list[Family] = []
    for series, labels, table, what in (("queue", QUEUE, STAT_COUNTS_QUEUE, "STATQ"),
                                        ("qmgr", QMGR, STAT_COUNTS_QMGR, "STATMQI")):
        for attr, names in table:
            for name in names:
                out.append(_g(count_name(series, name), labels,
                              f"{what} {_LABEL[attr]}: {name.replace('_', ' ')}, summed over "
                              f"the statistics intervals read", "statistics"))
    out += [
        _g("ibmmq_queue_min_depth", QUEUE, "STATQ QMinDepth: lowest depth in the intervals",
           "statistics"),
        _g("ibmmq_queue_max_depth", QUEUE, "STATQ QMaxDepth: highest depth in the intervals",
           "statistics"),
        _g("ibmmq_queue_average_queue_time_seconds", QUEUE,
           "STATQ AvgTimeOnQ: average time on the queue of the messages got, seconds",
           "statistics", note="mq-metric-samples' metrics.txt lists this name; its code keys "
           "it on MQIAMO64_Q_TIME_AVG (741, an accounting parameter) instead of STATQ's "
           "MQIAMO64_AVG_Q_TIME (703), so it never fills it; mqroute reads 703, in seconds"),
        _g("ibmmq_qmgr_concurrent_connections_high_water_mark", QMGR,
           "STATMQI ConnsMax: most concurrent connections in the intervals", "statistics"),
    ]
    for _attr, names, _how in STAT_WATERS:
        out += [_g(f"ibmmq_qmgr_{n}", QMGR, f"STATMQI {_LABEL[_attr]}: {n.replace('_', ' ')} "
                   f"({'highest' if _how == 'max' else 'lowest'} in the intervals read)",
                   "statistics") for n in names]
    return out


def _mqroute(name: str, kind: str, labels: tuple[str, ...], help_: str, source: str,
             otel: str, unit: str = "", **kw) -> Family:
    return Family(name, kind, labels, help_, source, origin=MQROUTE, otel=otel, unit=unit,
                  **kw)


def _build() -> tuple[Family, ...]:
    fams = [_g(f"ibmmq_queue_{n}", QUEUE, h, "status") for n, h in _QUEUE_STATUS]
    fams += [_g(f"ibmmq_channel_{n}", CHANNEL, h, "status") for n, h in _CHANNEL_STATUS]
    fams += [_g(f"ibmmq_qmgr_{n}", QMGR, h, "status") for n, h in _QMGR_STATUS]
    fams += _statistics_families()
    chl = ("qmgr", "channel", "type", "rqmname")
    fams += [
        _mqroute("mqroute_channel_statistics_messages", GAUGE, chl,
                 "STATCHL MsgCount: messages the channel moved in the intervals read",
                 "statistics", "mqroute.channel_statistics.messages"),
        _mqroute("mqroute_channel_statistics_bytes", GAUGE, chl,
                 "STATCHL TotalBytes: bytes the channel moved in the intervals read",
                 "statistics", "mqroute.channel_statistics.bytes"),
        _mqroute("mqroute_channel_statistics_batches", GAUGE, chl,
                 "STATCHL FullBatchCount + IncmplBatchCount in the intervals read",
                 "statistics", "mqroute.channel_statistics.batches"),
        _mqroute("mqroute_channel_statistics_put_retries", GAUGE, chl,
                 "STATCHL PutRetryCount: puts the receiving channel retried", "statistics",
                 "mqroute.channel_statistics.put_retries"),
        _mqroute("mqroute_queue_application_puts", GAUGE, ("qmgr", "queue", "application"),
                 "ACCTQ: messages each application put to the queue (MQPUT + MQPUT1)",
                 "accounting", "mqroute.queue_application.puts"),
        _mqroute("mqroute_queue_application_gets", GAUGE, ("qmgr", "queue", "application"),
                 "ACCTQ: messages each application got from the queue (destructive MQGET)",
                 "accounting", "mqroute.queue_application.gets"),
        _mqroute("mqroute_events_total", COUNTER, ("qmgr", "reason"),
                 "MQ events read, by queue manager and reason (MQRC_* name)", "events",
                 "mqroute.events"),
        _mqroute("mqroute_routes", GAUGE, ("verdict",),
                 "Routes (original messages) in the analyze output, by verdict", "analyze",
                 "mqroute.routes"),
        _mqroute("mqroute_lost_messages", GAUGE, ("qmgr", "queue", "cause"),
                 "Messages not delivered, by the queue manager and queue they were last seen "
                 "on and cause (the verdict, or loop)", "analyze", "mqroute.lost_messages"),
        _mqroute("mqroute_journeys", GAUGE, ("verdict",),
                 "Journeys (messages followed by activity trace) in the analyze output, by "
                 "verdict", "analyze", "mqroute.journeys"),
        _mqroute("mqroute_route_hop_seconds", HISTOGRAM, ("qmgr", "channel"),
                 "Time a message took over a channel: from its put on the sending queue "
                 "manager's transmission queue to its arrival on the next queue manager",
                 "analyze", "mqroute.route_hop", unit="s", buckets=HOP_BUCKETS),
        _mqroute("mqroute_metrics_source_up", GAUGE, ("source",),
                 "1 when the source was read in the last refresh, 0 when it failed", "self",
                 "mqroute.metrics.source_up"),
        _mqroute("mqroute_metrics_input_problems", GAUGE, ("source",),
                 "Unreadable inputs or messages met reading the source", "self",
                 "mqroute.metrics.input_problems"),
        _mqroute("mqroute_metrics_dropped_series", GAUGE, ("family",),
                 "Series not exported in the last refresh because of --max-series", "self",
                 "mqroute.metrics.dropped_series"),
        _mqroute("mqroute_metrics_series", GAUGE, (),
                 "Series exported in the last refresh (self-metrics not counted)", "self",
                 "mqroute.metrics.series"),
        _mqroute("mqroute_metrics_refresh_seconds", GAUGE, (),
                 "How long the last refresh took, seconds", "self",
                 "mqroute.metrics.refresh", unit="s"),
        _mqroute("mqroute_metrics_last_refresh_timestamp_seconds", GAUGE, (),
                 "When the last refresh ended, seconds since 1970", "self",
                 "mqroute.metrics.last_refresh_timestamp", unit="s"),
    ]
    return tuple(fams)


#: Every family, in exposition order.
FAMILIES: tuple[Family, ...] = _build()
BY_NAME: dict[str, Family] = {f.name: f for f in FAMILIES}


def family(name: str) -> Family:
    """The family of this name; KeyError when mqroute exports none."""
    return BY_NAME[name]


def markdown_table() -> str:
    """Every family as a Markdown table (name, type, labels, meaning), the documentation's
    reference: docs/metrics.md holds it and a test keeps the two equal."""
    rows = ["| metric | type | labels | what it is |", "| --- | --- | --- | --- |"]
    for f in FAMILIES:
        what = f.help + (f" ({f.note})" if f.note else "")
        rows.append(f"| `{f.name}` | {f.kind} | {', '.join(f.labels) or '-'} | "
                    f"{what.replace('|', '/')} |")
    return "\n".join(rows) + "\n"
