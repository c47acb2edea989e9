"""A Snapshot as OpenTelemetry metrics: the SDK's metrics data, OTLP/JSON, OTLP/HTTP.

The snapshot is already aggregated (mqroute reads MQ's own counters), so it becomes the
SDK's `MetricsData` directly: gauges as Gauge, counters as cumulative monotonic Sum,
histograms as cumulative Histogram with the family's bounds; names as mq_otel gives them
(`ibmmq.queue.depth`) and mqroute's own with OpenTelemetry's conventions (`mqroute.events`,
`mqroute.route_hop` in unit `s`), so Prometheus's OTLP translation gives back the
Prometheus names. `otlp_json` encodes with OpenTelemetry's OTLP encoder (an
ExportMetricsServiceRequest; JSON as OTLP/JSON specifies: lowerCamelCase, enums as numbers);
`send` uses OpenTelemetry's OTLP/HTTP metric exporter. Attributes are the labels that have
a value (Prometheus drops empty labels too).
"""

from __future__ import annotations

import math
from typing import Any

from graph.metrics.catalog import COUNTER, GAUGE, Family
from graph.metrics.snapshot import Histogram, Snapshot

SCOPE = "mqroute.metrics"


def _require(what: str) -> None:
    try:
        import opentelemetry.sdk.metrics  # noqa: F401
    except ImportError:
        raise ImportError(f"{what} needs OpenTelemetry's SDK: pip install 'mqroute[otel]'"
                          ) from None


def _attributes(fam: Family, key: tuple[str, ...]) -> dict[str, str]:
    return {n: v for n, v in zip(fam.labels, key, strict=True) if v}


def _data(fam: Family, values: dict, start: int, now: int) -> Any:
    from opentelemetry.sdk.metrics.export import (
        AggregationTemporality,
        Gauge,
        HistogramDataPoint,
        NumberDataPoint,
        Sum,
    )
    from opentelemetry.sdk.metrics.export import Histogram as OtelHistogram

    cumulative = AggregationTemporality.CUMULATIVE
    if fam.kind in (GAUGE, COUNTER):
        points = [NumberDataPoint(_attributes(fam, k), start, now, v)
                  for k, v in sorted(values.items())]
        return Gauge(points) if fam.kind == GAUGE else Sum(points, cumulative, True)
    points = []
    for k, h in sorted(values.items()):
        assert isinstance(h, Histogram)
        points.append(HistogramDataPoint(
            _attributes(fam, k), start, now, h.count, h.sum, list(h.counts),
            list(fam.buckets), h.min if h.count else math.nan, h.max if h.count else math.nan))
    return OtelHistogram(points, cumulative)


def metrics_data(snapshot: Snapshot, *, start_ns: int, now_ns: int,
                 version: str = "") -> Any:
    """The snapshot as the SDK's MetricsData (`start_ns`: when counting began)."""
    _require("OTLP metrics")
    from opentelemetry.sdk.metrics.export import Metric, MetricsData, ResourceMetrics, ScopeMetrics
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.util.instrumentation import InstrumentationScope

    metrics = [Metric(fam.otel_name, fam.help, fam.unit, _data(fam, values, start_ns, now_ns))
               for fam, values in snapshot.families()]
    resource = Resource.create({"service.name": "mqroute",
                                **({"service.version": version} if version else {})})
    scope = InstrumentationScope(SCOPE, version or None)
    return MetricsData([ResourceMetrics(resource, [ScopeMetrics(scope, metrics, "")], "")])


def otlp_json(snapshot: Snapshot, *, start_ns: int, now_ns: int, version: str = "") -> dict:
    """The snapshot as an OTLP/JSON ExportMetricsServiceRequest."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.metrics_encoder import encode_metrics

    request = encode_metrics(metrics_data(snapshot, start_ns=start_ns, now_ns=now_ns,
                                          version=version))
    return MessageToDict(request, use_integers_for_enums=True)


def send(endpoint: str, snapshot: Snapshot, *, start_ns: int, now_ns: int,
         exporter: Any = None, timeout: float = 10.0) -> int:
    """Send the snapshot to an OTLP/HTTP metrics endpoint (e.g.
    http://localhost:4318/v1/metrics); how many metrics were sent. OSError when the export
    fails. `exporter` (tests) replaces OTLPMetricExporter(endpoint=...)."""
    data = metrics_data(snapshot, start_ns=start_ns, now_ns=now_ns)
    if exporter is None:
        try:
            from opentelemetry.exporter.otlp.proto.http.metric_exporter import (
                OTLPMetricExporter,
            )
        except ImportError:
            raise ImportError("--otlp-endpoint needs opentelemetry-exporter-otlp-proto-http: "
                              "pip install 'mqroute[otel]'") from None
        exporter = OTLPMetricExporter(endpoint=endpoint, timeout=timeout)
    from opentelemetry.sdk.metrics.export import MetricExportResult

    try:
        result = exporter.export(data, timeout_millis=timeout * 1000)
    finally:
        exporter.shutdown()
    if result != MetricExportResult.SUCCESS:
        raise OSError(f"{endpoint}: the OTLP metrics export failed ({result.name})")
    return sum(len(sm.metrics) for rm in data.resource_metrics for sm in rm.scope_metrics)
