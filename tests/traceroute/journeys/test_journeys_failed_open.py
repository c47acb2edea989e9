"""An application's MQOPEN for output (MQOO_OUTPUT) that failed is a put-failed journey,
in `reconstruct` and in the journeys/ rows (calls/ rows keyed as analyze keys them); a failed
open for input, one whose options were not traced, and an MCA's failed open are none.
Trace messages built from the activity-trace spec (spec_build), not by our simulator."""

from __future__ import annotations

import pytest

from pcf import mqc
from pcf.mqmd import unpack
from tests.traceroute.journeys.spec_build import OPEN, PUT, op, trace_message
from traceroute.journeys import parse_activity_trace
from traceroute.journeys.reconstruct import reconstruct
from traceroute.journeys.rows import call_rows, journeys_of_rows
from traceroute.journeys.verdict import JourneyVerdict as V
from traceroute.journeys.verdict import Location, exit_status

OUT = mqc.MQOO_OUTPUT | mqc.MQOO_FAIL_IF_QUIESCING
IN = mqc.MQOO_INPUT_AS_Q_DEF | mqc.MQOO_FAIL_IF_QUIESCING


def _traces(*messages):
    return [parse_activity_trace(unpack(md), data) for md, data in messages]


def _rows(traces) -> list[dict]:
    rows = [r for t in traces for r in call_rows(t)]
    return journeys_of_rows(r for r in rows if r["journey_key"] is not None)


@pytest.mark.parametrize("reason", [2085, 2087, 2082, 2196, 2197, 2035])
def test_an_open_for_output_that_failed_is_a_put_failed_journey(reason) -> None:
    traces = _traces(trace_message("QM1", "payroll", [
        op(OPEN, cc=2, reason=reason, hobj=-1, object_name="PAY.OUT", open_options=OUT,
           time_us=1_795_000_000_000_000)]))
    [j] = reconstruct(traces).journeys
    assert (j.verdict, j.last_location, j.applications) == \
        (V.PUT_FAILED, Location("QM1", "PAY.OUT"), ["payroll"])
    assert [(s.role, s.call.operation, s.call.reason) for s in j.steps] == \
        [("failed_put", mqc.MQXF_OPEN, reason)]
    assert exit_status([j.verdict]) == 6  # follow exits so
    [row] = _rows(traces)
    assert (row["verdict"], row["last_queue_manager"], row["last_queue"],
            row["applications"], row["steps"]) == ("put_failed", "QM1", "PAY.OUT", "payroll", 1)


def test_failed_opens_that_are_no_put() -> None:
    traces = _traces(
        trace_message("QM1", "reader", [  # for input; options not traced
            op(OPEN, cc=2, reason=2085, object_name="NO.SUCH.Q", open_options=IN),
            op(OPEN, cc=2, reason=2085, object_name="NO.SUCH.Q")]),
        trace_message("QM2", "runmqchl", [  # a receiving MCA's open: its put says
            op(OPEN, cc=2, reason=2085, object_name="NO.SUCH.Q", open_options=OUT)],
            mca=True, channel="QM1.TO.QM2"))
    assert reconstruct(traces).journeys == []
    assert _rows(traces) == []


def test_a_failed_open_beside_a_put_that_worked() -> None:
    m = b"AMQ QM1         \x01\x02\x03\x04\x00\x00\x00\x01"
    traces = _traces(trace_message("QM1", "amqsput", [
        op(OPEN, cc=2, reason=2085, object_name="TYPO.Q", open_options=OUT),
        op(OPEN, hobj=3, object_name="LQ", resolved_local_q="LQ", open_options=OUT),
        op(PUT, hobj=3, msg_id=m, put_options=0)]))
    found = sorted((str(j.verdict), j.last_location) for j in reconstruct(traces).journeys)
    assert found == [("on_queue", Location("QM1", "LQ")),
                     ("put_failed", Location("QM1", "TYPO.Q"))]
    assert sorted((r["verdict"], r["last_queue"]) for r in _rows(traces)) == \
        [("on_queue", "LQ"), ("put_failed", "TYPO.Q")]
