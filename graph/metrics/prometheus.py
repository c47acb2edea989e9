"""A Snapshot in Prometheus's formats, with prometheus_client: text, OpenMetrics, /metrics.

`SnapshotCollector` is a prometheus_client collector that yields the current snapshot's
families; the refresh replaces the snapshot in one assignment, so a scrape never sees half
of one. `serve` answers GET /metrics with the text format, or OpenMetrics when the scraper's
Accept header asks for it (Prometheus does), as prometheus_client negotiates it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from graph.metrics.catalog import COUNTER, HISTOGRAM
from graph.metrics.snapshot import Snapshot


def _require() -> Any:
    try:
        import prometheus_client
    except ImportError:
        raise ImportError("mqroute metrics needs prometheus_client: "
                          "pip install 'mqroute[metrics]'") from None
    return prometheus_client


def _bound(value: float) -> str:
    from prometheus_client.utils import floatToGoString

    return "+Inf" if math.isinf(value) else floatToGoString(value)


def metric_families(snapshot: Snapshot) -> Iterator[Any]:
    """The snapshot as prometheus_client metric families, in the catalog's order."""
    from prometheus_client.core import (
        CounterMetricFamily,
        GaugeMetricFamily,
        HistogramMetricFamily,
    )

    for fam, values in snapshot.families():
        labels = list(fam.labels)
        if fam.kind == HISTOGRAM:
            m = HistogramMetricFamily(fam.name, fam.help, labels=labels)
            for key, h in sorted(values.items()):
                m.add_metric(list(key), [(_bound(b), n) for b, n in h.cumulative()],
                             sum_value=h.sum)
        else:
            cls = CounterMetricFamily if fam.kind == COUNTER else GaugeMetricFamily
            m = cls(fam.name, fam.help, labels=labels)
            for key, v in sorted(values.items()):
                m.add_metric(list(key), v)
        yield m


class SnapshotCollector:
    """A prometheus_client collector of the latest snapshot; `body` keeps each format's
    exposition of the current snapshot, so scrapes between two refreshes cost nothing."""

    def __init__(self, snapshot: Snapshot | None = None) -> None:
        import threading

        self._snapshot = snapshot or Snapshot()
        self._bodies: dict[tuple[str, bool], bytes] = {}
        self._lock = threading.Lock()

    @property
    def snapshot(self) -> Snapshot:
        """The snapshot scrapes see."""
        return self._snapshot

    @snapshot.setter
    def snapshot(self, value: Snapshot) -> None:
        with self._lock:
            self._snapshot, self._bodies = value, {}

    def collect(self) -> Iterator[Any]:
        """The families of the snapshot current at the scrape."""
        return metric_families(self._snapshot)

    def describe(self) -> list:
        """Nothing up front (families come and go with the objects)."""
        return []

    def body(self, accept: str | None, gzipped: bool) -> tuple[str, bytes]:
        """(content type, bytes) of the current snapshot in the format `accept` asks for,
        made once per refresh by prometheus_client's encoders."""
        import gzip

        from prometheus_client.exposition import choose_encoder

        encoder, content_type = choose_encoder(accept or "")
        with self._lock:
            snap, bodies = self._snapshot, self._bodies
        key = (content_type, gzipped)
        body = bodies.get(key)
        if body is None:
            body = encoder(registry(SnapshotCollector(snap)))
            body = gzip.compress(body) if gzipped else body
            with self._lock:
                if self._snapshot is snap:
                    self._bodies[key] = body
        return content_type, body


def registry(collector: SnapshotCollector) -> Any:
    """A prometheus_client registry holding only this collector."""
    client = _require()
    reg = client.CollectorRegistry(auto_describe=False)
    reg.register(collector)
    return reg


def exposition(snapshot: Snapshot, *, openmetrics: bool = False) -> bytes:
    """The snapshot in Prometheus's text format 0.0.4 (node_exporter's textfile collector
    reads it), or in OpenMetrics 1.0."""
    client = _require()
    reg = registry(SnapshotCollector(snapshot))
    if openmetrics:
        from prometheus_client.openmetrics.exposition import generate_latest

        return generate_latest(reg)
    return client.generate_latest(reg)


def metrics_app(collector: SnapshotCollector) -> Any:
    """A WSGI app: GET /metrics is the exposition (format negotiated, gzip when asked, made
    once per refresh), / a line that points there, anything else 404."""
    client = _require()
    from prometheus_client.exposition import gzip_accepted

    inner = client.make_wsgi_app(registry(collector))

    def app(environ: dict, start_response: Any) -> list[bytes]:
        path = environ.get("PATH_INFO", "")
        if path == "/metrics" and environ.get("REQUEST_METHOD") == "GET" and \
                not environ.get("QUERY_STRING"):
            gzipped = gzip_accepted(environ.get("HTTP_ACCEPT_ENCODING", ""))
            content_type, body = collector.body(environ.get("HTTP_ACCEPT"), gzipped)
            headers = [("Content-Type", content_type), ("Content-Length", str(len(body)))]
            if gzipped:
                headers.append(("Content-Encoding", "gzip"))
            start_response("200 OK", headers)
            return [body]
        if path == "/metrics":  # HEAD, OPTIONS, ?name[]=...: prometheus_client's own
            return inner(environ, start_response)
        if path == "/":
            start_response("200 OK", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"mqroute metrics: see /metrics\n"]
        start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
        return [b"not found: the metrics are at /metrics\n"]

    return app


def serve(collector: SnapshotCollector, host: str, port: int) -> tuple[Any, Any]:
    """Serve /metrics on host:port in a daemon thread; (server, thread). OSError when the
    address cannot be bound."""
    import threading
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    from prometheus_client.exposition import ThreadingWSGIServer, _get_best_family

    class Quiet(WSGIRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            """Log nothing (a scrape every few seconds is not news)."""

    class Server(ThreadingWSGIServer):
        """prometheus_client's threading server, for this address family."""

    Server.address_family, addr = _get_best_family(host, port)
    httpd = make_server(addr, port, metrics_app(collector), Server, handler_class=Quiet)
    thread = threading.Thread(target=httpd.serve_forever, name="mqroute-metrics", daemon=True)
    thread.start()
    return httpd, thread
