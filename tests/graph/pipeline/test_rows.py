"""Flattening records to operation rows and back keeps every ordering answer."""

from __future__ import annotations

import random

import pytest

from graph.pipeline.rows import hop_rows, route_row, routes_from_operation_rows
from tests.support import dspmqrte_examples as ex
from tests.support.stage_reference import operation_rows
from traceroute.records.parse import parse_message
from traceroute.records.samples import example_reports
from traceroute.routes.ordering import build_routes


def _cases():
    md = ex.trace_md()
    yield "example1", ex.reports(md, [2, 0, 1])
    yield "example3", ex.reports(md, [1, 0])
    yield "follow-up", ex.reports(md, [2])
    yield "reply", [ex.reply(md)]
    yield "chained", example_reports()
    yield "chained-partial", example_reports()[1:3]


@pytest.mark.parametrize("name, messages", list(_cases()))
def test_rows_give_the_same_routes(name, messages):
    records = [parse_message(m, d, source="f", line=n) for n, (m, d) in enumerate(messages)]
    random.Random(3).shuffle(records)
    direct = build_routes(records)
    rows = [r for rec in records for r in operation_rows(rec)]
    again = list(routes_from_operation_rows(rows))
    assert [route_row(r) for r in again] == [route_row(r) for r in direct]
    assert [list(hop_rows(r)) for r in again] == [list(hop_rows(r)) for r in direct]


def test_hops_of_example1():
    records = [parse_message(m, d) for m, d in ex.reports(ex.trace_md(), [0, 1, 2])]
    (route,) = build_routes(records)
    hops = [(h["kind"], h["src"], h["dst"], h["channel"]) for h in hop_rows(route)]
    assert hops == [("put", "QM1", "QM1/QM2", None), ("send", "QM1", "QM2", "QM1.TO.QM2"),
                    ("discard", "QM2", "QM2/(discarded)", None)]
    row = route_row(route)
    assert row["verdict"] == "discarded_at_target" and row["hops"] == 3
    assert row["last_queue_manager"] == "QM2" and row["complete"] is True
