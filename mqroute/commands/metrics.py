"""`mqroute metrics`: Prometheus and OpenTelemetry metrics of live status, statistics, events
and analyze output.

    mqroute metrics SOURCE... --listen HOST:PORT [--interval SECONDS]   serve /metrics
    mqroute metrics SOURCE... --textfile FILE | --otlp FILE              write once
    mqroute metrics SOURCE... --otlp-endpoint URL [--once]               push (every interval)

SOURCE: -m QMGR (a real queue manager), --network ESTATE, --stats FILE..., --events FILE...,
--analyze DIR. Serving (or pushing) refreshes every --interval seconds and rewrites
--textfile/--otlp each time; files that did not change are not read again. Exit statuses:
EXIT_STATUS below.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
import time
from collections.abc import Callable

from mqroute.errors import Problems, UsageError
from mqroute.eventinputs import read_any_events
from mqroute.inputs import Inputs, read_stats
from mqroute.options import Filters
from mqroute.output import write_file
from pcf.errors import PCFError

EXIT_STATUS = ("0 written (or, serving, stopped by SIGTERM); 1 an input unreadable, a source "
               "failed or an output not written (each named, the rest still exported); 2 "
               "usage, an estate that cannot be opened, no MQ client library for -m, or the "
               "--listen address cannot be bound.")

#: mq_prometheus polls object status every 30 seconds by default; so does this.
DEFAULT_INTERVAL = 30.0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute metrics`."""
    from graph.metrics.refresh import DEFAULT_MAX_SERIES
    from mqroute.estates import add_admin_options
    from mqroute.options import add_connection, add_filters, add_network, add_rest, several
    from mqroute.paths import address, input_path, output_path

    p = sub.add_parser(
        "metrics", help="Prometheus and OpenTelemetry metrics (IBM mq-metric-samples' names "
        "where it has them) of live status, statistics, events and analyze output",
        description="Metrics for Prometheus (/metrics, node_exporter textfile) and "
        "OpenTelemetry (OTLP): queue and channel figures under the names IBM's "
        "mq-metric-samples uses (ibmmq_queue_*, ibmmq_channel_*, ibmmq_qmgr_*), so its Grafana "
        "dashboards work, and what only mqroute knows under mqroute_* (lost messages by "
        "cause, hop latencies, journeys, events).")
    src = p.add_argument_group("sources")
    add_network(src, help="live status (DISPLAY QSTATUS, CHSTATUS ...) of a simulated estate: "
                          "an estate folder (mqroute sim init), demo, or MQSC files; every "
                          "queue manager, or -m's (without --network, -m and the connection "
                          "options ask a real queue manager)")
    several(src, "--stats", dest="stats", files=True, metavar="FILE",
            help="statistics and accounting messages: dmpmqmsg dumps of "
                 "SYSTEM.ADMIN.STATISTICS.QUEUE / ACCOUNTING.QUEUE or raw files; repeatable")
    src.add_argument("--stats-live", dest="stats_live", action="store_true",
                     help="statistics and accounting browsed at every refresh from -m's "
                          "SYSTEM.ADMIN.STATISTICS.QUEUE and SYSTEM.ADMIN.ACCOUNTING.QUEUE "
                          "(an estate folder's with --network DIR; left on the queues)")
    several(src, "--events", dest="events", files=True, metavar="FILE",
            help="event messages (dmpmqmsg dumps, raw files) or amqsevt JSON; repeatable")
    src.add_argument("--analyze", metavar="DIR", type=input_path,
                     help="an `mqroute analyze` output folder: routes and lost messages, "
                          "journeys, hop latencies, events")
    out = p.add_argument_group("outputs")
    out.add_argument("--listen", metavar="HOST:PORT",
                     help="serve /metrics here (Prometheus text, OpenMetrics when asked); "
                          ":PORT listens on every interface, port 0 picks a free one")
    out.add_argument("--interval", type=float, default=DEFAULT_INTERVAL, metavar="SECONDS",
                     help=f"refresh every SECONDS when serving or pushing (default "
                          f"{DEFAULT_INTERVAL:g})")
    out.add_argument("--textfile", metavar="FILE", type=output_path,
                     help="write the metrics to FILE for node_exporter's textfile collector "
                          "(atomically: FILE is replaced whole)")
    out.add_argument("--otlp", metavar="FILE", type=output_path,
                     help="write the metrics as OTLP/JSON (an ExportMetricsServiceRequest)")
    out.add_argument("--otlp-endpoint", metavar="URL", type=address,
                     help="send them to an OTLP/HTTP metrics endpoint, e.g. "
                          "http://localhost:4318/v1/metrics, every interval (needs "
                          "mqroute[otel])")
    out.add_argument("--once", action="store_true",
                     help="with --otlp-endpoint: send once and exit")
    out.add_argument("--max-series", type=int, default=DEFAULT_MAX_SERIES, metavar="N",
                     help=f"export at most N series per refresh, each metric its fair share "
                          f"(default {DEFAULT_MAX_SERIES:,}); the rest are counted in "
                          f"mqroute_metrics_dropped_series")
    add_connection(p, channel_flag="--client-channel")
    add_rest(p)
    add_admin_options(p)
    add_filters(p, conn_id=False, appl=False)
    p.set_defaults(func=run)


def parse_listen(text: str) -> tuple[str, int]:
    """HOST:PORT, [IPv6]:PORT or :PORT (every interface) -> (host, port)."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"--listen {text}: give HOST:PORT, [IPv6]:PORT or :PORT")
    host = host.strip("[]") or "0.0.0.0"
    return host, int(port)


def _when(text: str | None):
    """A statistics interval's time (ISO 8601 as the record has it, no zone: UTC)."""
    from mqroute.options import parse_time

    try:
        return parse_time(text) if text else None
    except ValueError:
        return None


def _stats_reader(paths: list[str], filters) -> Callable[[], tuple]:
    def read() -> tuple:
        from graph.metrics.statistics import statistics_snapshot
        from traceroute.stats import join_sequences

        problems = Problems()

        def records():  # streamed: memory holds the values, not the records
            for joined in join_sequences(read_stats(Inputs(paths, problems))):
                if not joined.complete:
                    first = joined.messages[0]
                    problems(first.where, f"incomplete {first.kind.value} sequence "
                             f"(MsgSeqNumber {', '.join(map(str, joined.numbers))}); its "
                             "records used")
                yield from (r for r in joined.records() if filters.time(
                    _when(r.interval_start), _when(r.interval_end)))

        snap = statistics_snapshot(records())
        problems.finish()
        return snap, problems.count
    return read


def _live_stats_reader(args: argparse.Namespace, filters) -> Callable[[], tuple]:
    """Statistics and accounting browsed from the queue manager's queues (mqroute.live, as
    `stats -m --browse` reads them): the messages there now, each refresh."""
    def read() -> tuple:
        from graph.metrics.statistics import statistics_snapshot
        from mqroute.live import STATS_QUEUES, read_queues
        from traceroute.stats import SequenceJoiner

        problems = Problems()
        joiner = SequenceJoiner()
        records: list = []

        class Collect:
            def take(self, source, md, data) -> None:
                from traceroute.stats import NotStatistics, decode_stats

                try:
                    message = decode_stats(md, data, source=source)
                except NotStatistics:
                    return
                except PCFError as e:
                    problems(f"{source} message {md.msg_id.hex().upper()}", str(e))
                    return
                for joined in joiner.add(message):
                    self.keep(joined)

            def keep(self, joined) -> None:
                records.extend(r for r in joined.records() if filters.time(
                    _when(r.interval_start), _when(r.interval_end)))

            def holding(self) -> bool:
                return False  # browsing: nothing is made final

            def finish(self) -> None:
                for joined in joiner.flush():
                    self.keep(joined)

        live = argparse.Namespace(**{**vars(args), "browse": True, "wait": None,
                                     "save": None})
        try:
            outcome = read_queues(live, [args.qmgr] if args.qmgr else [], list(STATS_QUEUES),
                                  Collect(), command="metrics --stats-live")
        except SystemExit:  # no connection this time: the source is down, told on stderr
            return statistics_snapshot([]), problems.count + 1
        if outcome.signum:  # a SIGTERM/^C that came during the read is metrics' to act on
            signal.raise_signal(outcome.signum)
        return statistics_snapshot(records), problems.count + len(outcome.reading.problems)
    return read


def _events_reader(paths: list[str], filters) -> Callable[[], tuple]:
    def read() -> tuple:
        from graph.metrics.events import events_snapshot

        problems = Problems()
        snap = events_snapshot(e for e in read_any_events(paths, problems)
                               if filters.time(e.time))
        problems.finish()
        return snap, problems.count
    return read


def _analyze_reader(folder: str) -> Callable[[], tuple]:
    def read() -> tuple:
        from graph.metrics.analyze import analyze_snapshot

        return analyze_snapshot(folder), 0
    return read


class LiveStatus:
    """The status source: every refresh asks each queue manager (DISPLAY QSTATUS, QUEUE,
    CHSTATUS, CHANNEL, QMGR) through the administration client (mqroute.estates). An
    estate folder is opened for each refresh (its lock held only that long, so other
    commands act on it between refreshes); demo or MQSC files, and real queue managers, are
    kept for the command, a connection opened again after a refresh it failed in."""

    def __init__(self, args: argparse.Namespace) -> None:
        from graph.metrics.status import Deltas
        from mqroute.estates import is_folder, simulated_specs

        self.args = args
        self.simulated = simulated_specs(args)
        self.per_refresh = is_folder(self.simulated)
        self.only = args.qmgr
        self.deltas = Deltas()
        self.stack = contextlib.ExitStack()
        self.admins = None
        self.said: set[tuple[str, str]] = set()
        if self.simulated:  # a bad estate or -m: exit 2 now, not a source down
            with self._administration() as admins:
                if self.only and self.only not in admins.names:
                    raise UsageError(f"-m {self.only}: no such queue manager in the estate "
                                     f"({', '.join(admins.names)})")
        elif getattr(args, "rest", None):  # the REST API: httpx, not an MQ client library
            from mqroute.extras import need

            need("metrics --rest", "httpx", extra="rest")
        else:  # no MQ client library: exit 2 now (a queue manager down is status 0 instead)
            from mqroute.errors import FatalError
            from traceroute.mq.client import PymqiMissing, load_mq_client

            try:
                load_mq_client()
            except PymqiMissing as e:
                raise FatalError(f"metrics -m: {e}") from None

    def _administration(self):
        from mqroute.estates import administration

        return administration(self.args, wait=self.args.wait)

    def _admins(self):
        if self.per_refresh:
            return self._administration()
        if self.admins is None:
            self.admins = self.stack.enter_context(self._administration())
        return contextlib.nullcontext(self.admins)

    def __call__(self) -> tuple:
        """(values, problems) of one collection."""
        from datetime import UTC, datetime

        from graph.metrics.live import collect
        from graph.metrics.status import status_snapshot

        problems: list[tuple[str, str]] = []
        with self._admins() as admins:
            names = [self.only] if self.only or not admins.names else admins.names
            facts = collect(admins, names, on_error=lambda q, why: problems.append((q, why)))
        if problems and not self.per_refresh:  # connect again next time
            self.stack.close()
            self.admins = None
        for q, why in problems:
            if (q, why) not in self.said:  # each problem once, not every refresh
                print(f"mqroute: {q}: {why}", file=sys.stderr)
        self.said = set(problems)
        return status_snapshot(facts, now=datetime.now(UTC), deltas=self.deltas), len(problems)

    def close(self) -> None:
        """Close what was kept for the command (reply queues, connections, the estate)."""
        self.stack.close()


def build_sources(args: argparse.Namespace, filters) -> list:
    """The sources the options name, each re-read only when its files change."""
    from graph.metrics.refresh import Cached, Source
    from mqroute.options import connection_given

    sources = []
    if args.network or args.qmgr or connection_given(args):
        sources.append(Source("status", LiveStatus(args)))
    if args.stats:
        sources.append(Source("statistics", Cached(args.stats, _stats_reader(args.stats, filters))))
    if args.stats_live:
        sources.append(Source("statistics", _live_stats_reader(args, filters)))
    if args.events:
        sources.append(Source("events", Cached(args.events, _events_reader(args.events, filters))))
    if args.analyze:
        sources.append(Source("analyze", Cached([args.analyze],
                                                _analyze_reader(args.analyze))))
    return sources


def _check(args: argparse.Namespace) -> None:
    from mqroute.options import connection_given

    if args.stats_live and args.stats:
        raise UsageError("metrics: --stats FILE... or --stats-live, not both")
    if args.stats_live and not (args.qmgr or args.network):
        raise UsageError("metrics --stats-live reads a queue manager's queues: give -m QMGR "
                         "(or --network DIR)")
    if not (args.stats or args.events or args.analyze or args.network or args.qmgr
            or connection_given(args)):
        raise UsageError("metrics: give a source: -m QMGR (a queue manager), --network "
                         "ESTATE, --stats FILE..., --events FILE..., --analyze DIR")
    if not (args.listen or args.textfile or args.otlp or args.otlp_endpoint):
        raise UsageError("metrics: say where they go: --listen HOST:PORT, --textfile FILE, "
                         "--otlp FILE or --otlp-endpoint URL")
    if not args.interval > 0:
        raise UsageError(f"--interval {args.interval:g}: give a number of seconds above 0")
    if args.max_series < 1:
        raise UsageError(f"--max-series {args.max_series}: give at least 1")
    if args.once and args.listen:
        raise UsageError("--once goes with --otlp-endpoint, not with --listen")
    # an output that is an input is refused by mqroute.paths before this runs


class Outputs:
    """Writes and sends each refresh's snapshot as the options ask."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.start_ns = time.time_ns()
        self.failed = False

    def emit(self, snap) -> None:
        """--textfile, --otlp, --otlp-endpoint for this snapshot; a failure is reported and
        the next refresh tries again."""
        a = self.args
        now = time.time_ns()
        steps = []
        if a.textfile:
            steps.append((a.textfile, lambda: write_file(a.textfile, _text(snap))))
        if a.otlp:
            steps.append((a.otlp, lambda: write_file(a.otlp, json.dumps(
                _otlp(snap, self.start_ns, now)).encode() + b"\n")))
        if a.otlp_endpoint:
            steps.append((a.otlp_endpoint, lambda: _send(a.otlp_endpoint, snap,
                                                        self.start_ns, now)))
        for where, step in steps:
            try:
                step()
            except (OSError, ImportError) as e:
                self.failed = True
                reason = e.strerror if isinstance(e, OSError) and e.strerror else e
                print(f"mqroute: {where}: {reason}", file=sys.stderr)


def _text(snap) -> bytes:
    from graph.metrics.prometheus import exposition

    return exposition(snap)


def _otlp(snap, start: int, now: int) -> dict:
    from importlib.metadata import PackageNotFoundError, version

    from graph.metrics.otlp import otlp_json

    try:
        mine = version("mqroute")
    except PackageNotFoundError:
        mine = ""
    return otlp_json(snap, start_ns=start, now_ns=now, version=mine)


def _send(endpoint: str, snap, start: int, now: int) -> None:
    from graph.metrics.otlp import send

    send(endpoint, snap, start_ns=start, now_ns=now)


def run(args: argparse.Namespace) -> int:
    """`mqroute metrics`: 0 ok, 1 some input unreadable or a source failed, 2 usage."""
    from graph.metrics.refresh import Refresher

    _check(args)
    _needs(args)
    listen = parse_listen(args.listen) if args.listen else None
    failures: list[str] = []

    def on_error(source: str, reason: str) -> None:
        failures.append(source)
        print(f"mqroute: {source}: {reason}", file=sys.stderr)

    filters = Filters.from_args(args)
    sources = build_sources(args, filters)
    try:
        refresher = Refresher(sources, max_series=args.max_series, on_error=on_error,
                              keep=keep_names(filters))
        outputs = Outputs(args)
        snap = refresher.refresh()
        outputs.emit(snap)
        problems = int(sum(v for v in snap.series.get("mqroute_metrics_input_problems",
                                                       {}).values()))
        if not listen and (args.once or not args.otlp_endpoint):
            _summary(snap)
            return 1 if failures or problems or outputs.failed else 0
        return serve_forever(args, listen, refresher, outputs, snap)
    finally:
        for source in sources:
            getattr(source.read, "close", lambda: None)()


def _needs(args: argparse.Namespace) -> None:
    """The optional libraries the options need, each missing one a line naming its extra."""
    from mqroute.extras import need

    if args.listen or args.textfile:
        need("metrics", "prometheus_client", extra="metrics")
    if args.analyze:
        need("metrics --analyze", "pyarrow", extra="metrics")
    if args.otlp or args.otlp_endpoint:
        need("metrics --otlp", "opentelemetry.sdk", "google.protobuf", extra="otel")
    if args.otlp_endpoint:
        need("metrics --otlp-endpoint", "opentelemetry.exporter.otlp.proto.http", extra="otel")


def keep_names(filters: Filters) -> Callable | None:
    """What --queue and --channel keep: a series with a `queue` label only for a queue they
    name, with a `channel` label only for a channel they name (others are not filtered)."""
    if not (filters.queues or filters.channels):
        return None
    queues, channels = Filters(queues=filters.queues), Filters(channels=filters.channels)

    def keep(family, labels: dict[str, str]) -> bool:
        if filters.queues and "queue" in labels and not queues.names(queues=[labels["queue"]]):
            return False
        return not (filters.channels and "channel" in labels
                    and not channels.names(channels=[labels["channel"]]))
    return keep


def _summary(snap) -> None:
    series = snap.get("mqroute_metrics_series")
    print(f"mqroute: {int(series or 0)} series exported", file=sys.stderr)


def serve_forever(args: argparse.Namespace, listen: tuple[str, int] | None, refresher,
                  outputs: Outputs, snap) -> int:
    """Serve /metrics (when --listen) and refresh every interval until SIGTERM or ^C."""
    from graph.metrics.prometheus import SnapshotCollector, serve

    collector = SnapshotCollector(snap)
    httpd = None
    if listen:
        host, port = listen
        try:
            httpd, _ = serve(collector, host, port)
        except OSError as e:
            raise UsageError(f"--listen {args.listen}: {e.strerror or e}") from None
        shown = httpd.server_address
        where = f"[{shown[0]}]" if ":" in shown[0] else shown[0]
        print(f"mqroute: serving http://{where}:{shown[1]}/metrics, refreshed every "
              f"{args.interval:g} s", file=sys.stderr, flush=True)
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(args.interval):
            collector.snapshot = refresher.refresh()
            outputs.emit(collector.snapshot)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
    print("mqroute: stopped", file=sys.stderr)
    return 0
