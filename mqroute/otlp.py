"""`--otlp FILE` and `--otlp-endpoint URL` for the commands that find routes (I/O edge).

The OTLP/JSON document comes from `traceroute.display.otlp` (pure); this module writes it to
a file and, when asked, sends the same spans to an OTLP/HTTP endpoint (a collector, Jaeger,
Tempo) with OpenTelemetry's own exporter: `pip install 'mqroute[otel]'`.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from mqroute.errors import UsageError
from mqroute.paths import address, output_path


def add_otlp_options(parser: argparse.ArgumentParser) -> None:
    """Add --otlp FILE and --otlp-endpoint URL to a subcommand."""
    parser.add_argument("--otlp", metavar="FILE", type=output_path,
                        help="also write the routes as OpenTelemetry traces, OTLP/JSON (one "
                             "trace per message, one span per hop)")
    parser.add_argument("--otlp-endpoint", metavar="URL", type=address,
                        help="also send them to this OTLP/HTTP traces endpoint, e.g. "
                             "http://localhost:4318/v1/traces (needs mqroute[otel])")


def check_otlp(args: argparse.Namespace) -> None:
    """`--otlp-endpoint` without the OpenTelemetry SDK: one line naming the extra, before any
    work (exit 2)."""
    if getattr(args, "otlp_endpoint", None):
        from mqroute.extras import need

        need(args.command, "opentelemetry.sdk", "opentelemetry.exporter.otlp.proto.http")


def write_otlp(path: str, document: dict) -> None:
    """Write an OTLP/JSON document (an ExportTraceServiceRequest) to `path`."""
    import json

    from mqroute.output import replacing

    with replacing(path) as f:
        json.dump(document, f)
        f.write("\n")


def _value(v: dict) -> Any:
    kind, value = next(iter(v.items()))
    if kind == "intValue":
        return int(value)
    if kind == "arrayValue":
        return [_value(x) for x in value.get("values", [])]
    return value


def _attrs(kvs: list[dict]) -> dict[str, Any]:
    return {kv["key"]: _value(kv["value"]) for kv in kvs}


def readable_spans(document: dict) -> list:
    """The spans of an OTLP/JSON document as OpenTelemetry SDK ReadableSpans (for exporters)."""
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import Event, ReadableSpan
    from opentelemetry.sdk.util.instrumentation import InstrumentationScope
    from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags

    codes = {0: StatusCode.UNSET, 1: StatusCode.OK, 2: StatusCode.ERROR}
    out = []
    for rs in document.get("resourceSpans", []):
        resource = Resource.create(_attrs(rs["resource"]["attributes"]))
        for ss in rs.get("scopeSpans", []):
            scope = InstrumentationScope(ss["scope"]["name"], ss["scope"].get("version"))
            for s in ss.get("spans", []):
                tid = int(s["traceId"], 16)

                def context(sid: str, tid: int = tid) -> SpanContext:
                    return SpanContext(tid, int(sid, 16), is_remote=False,
                                       trace_flags=TraceFlags(TraceFlags.SAMPLED))

                status = s.get("status", {})
                out.append(ReadableSpan(
                    name=s["name"], context=context(s["spanId"]),
                    parent=context(s["parentSpanId"]) if s.get("parentSpanId") else None,
                    resource=resource, attributes=_attrs(s.get("attributes", [])),
                    events=[Event(e["name"], _attrs(e.get("attributes", [])),
                                  int(e["timeUnixNano"])) for e in s.get("events", [])],
                    kind=SpanKind.INTERNAL,
                    status=Status(codes[status.get("code", 0)], status.get("message")),
                    start_time=int(s["startTimeUnixNano"]),
                    end_time=int(s["endTimeUnixNano"]), instrumentation_scope=scope))
    return out


def send_otlp(endpoint: str, document: dict, *, exporter: Any = None) -> int:
    """Send the document's spans to an OTLP/HTTP endpoint; how many were sent.

    `exporter` (for tests) replaces OTLPSpanExporter(endpoint=...). Raises OSError when the
    export fails, so the command reports it on one line.
    """
    try:
        from opentelemetry.sdk.trace.export import SpanExportResult
    except ImportError:
        raise UsageError("--otlp-endpoint needs OpenTelemetry's SDK and exporter: "
                         "pip install 'mqroute[otel]'") from None
    if exporter is None:
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        except ImportError:
            raise UsageError("--otlp-endpoint needs opentelemetry-exporter-otlp-proto-http: "
                             "pip install 'mqroute[otel]'") from None
        exporter = OTLPSpanExporter(endpoint=endpoint)
    spans = readable_spans(document)
    try:
        result = exporter.export(spans) if spans else SpanExportResult.SUCCESS
    finally:
        exporter.shutdown()
    if result != SpanExportResult.SUCCESS:
        raise OSError(f"{endpoint}: the OTLP export failed ({result.name})")
    return len(spans)


def export(args: argparse.Namespace, routes: Iterable, *, journeys: bool = False) -> None:
    """Write/send the routes (or journeys) as the --otlp/--otlp-endpoint options ask."""
    if not (getattr(args, "otlp", None) or getattr(args, "otlp_endpoint", None)):
        return
    from traceroute.display.otlp import journeys_to_otlp, routes_to_otlp

    document = journeys_to_otlp(routes) if journeys else routes_to_otlp(routes)
    if args.otlp:
        write_otlp(args.otlp, document)
    if args.otlp_endpoint:
        send_otlp(args.otlp_endpoint, document)


#: Routes per OTLP document (line) when exporting `mqroute analyze`'s tables.
ROUTES_PER_DOCUMENT = 500


def table_documents(spark: Any, out_dir: str, *, per_document: int = ROUTES_PER_DOCUMENT):
    """OTLP documents of the routes and hops tables under `mqroute analyze`'s --out, one per
    `per_document` routes: rows reach the driver a partition at a time (toLocalIterator),
    so memory stays bounded whatever the number of routes."""
    import os

    from pyspark.sql import functions as F

    from traceroute.display.otlp import document, row_spans

    hop_names = ["seq", "kind", "src", "dst", "src_queue_manager", "dst_queue_manager",
                 "channel", "queue", "time", "feedback", "branch"]
    routes = spark.read.parquet(os.path.join(out_dir, "routes"))
    hops = spark.read.parquet(os.path.join(out_dir, "hops"))
    per_route = hops.groupBy("correl_id").agg(
        F.collect_list(F.struct(*hop_names)).alias("hop_rows"))
    rows = (routes.select("correl_id", "verdict", "complete")
            .join(per_route, "correl_id", "left").orderBy("correl_id"))
    batch: list = []
    for row in rows.toLocalIterator():
        route = row.asDict()
        hop_rows = [h.asDict() for h in (route.pop("hop_rows") or [])]
        batch += row_spans(route, hop_rows)
        if len({s["traceId"] for _, s in batch}) >= per_document:
            yield document(batch)
            batch = []
    if batch:
        yield document(batch)


def export_tables(args: argparse.Namespace, spark: Any) -> int:
    """--otlp/--otlp-endpoint for `mqroute analyze`: its tables as traces; spans written."""
    import contextlib
    import json

    from mqroute.output import replacing

    if not (getattr(args, "otlp", None) or getattr(args, "otlp_endpoint", None)):
        return 0
    spans = 0
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(replacing(args.otlp)) if args.otlp else None
        for doc in table_documents(spark, args.out):
            spans += sum(len(ss["spans"]) for rs in doc["resourceSpans"]
                         for ss in rs["scopeSpans"])
            if out is not None:
                out.write(json.dumps(doc) + "\n")
            if args.otlp_endpoint:
                send_otlp(args.otlp_endpoint, doc)
    return spans
