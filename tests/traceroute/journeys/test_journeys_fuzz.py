"""Bad input never escapes as anything but PCFError / NotActivityTrace; journeys never crash."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pcf.errors import PCFError
from pcf.mqmd import unpack
from tests.traceroute.journeys.scenarios import app_get, app_put, mca_get, mca_put, qm1_to_qm2
from traceroute.journeys import NotActivityTrace, parse_activity_trace, reconstruct

MESSAGES = [*qm1_to_qm2(), app_put("QM1", "LQ", cc=2, reason=2085),
            mca_put("QM2", "DLQ", "QM1.TO.QM2", dead=True), *app_get("QM1", "LQ", split=True),
            mca_get("QM1", "QM2", "QM1.TO.QM2", "QM2", "T")]


def _parse(md, data):
    try:
        return parse_activity_trace(md, data)
    except (PCFError, NotActivityTrace):
        return None


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(MESSAGES) - 1), st.data())
def test_mutated_messages(which: int, data) -> None:
    md_bytes, body = MESSAGES[which]
    raw = bytearray(body)
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    trace = _parse(unpack(md_bytes), bytes(raw[:cut]))
    if trace is not None:
        reconstruct([trace])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes(blob: bytes) -> None:
    _parse(None, blob)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, len(MESSAGES) - 1), max_size=30), st.integers(0, 10**6))
def test_any_subset_any_order_any_repeats(picks: list[int], seed: int) -> None:
    traces = [parse_activity_trace(unpack(MESSAGES[i][0]), MESSAGES[i][1]) for i in picks]
    random.Random(seed).shuffle(traces)
    result = reconstruct(traces)
    assert all(j.steps for j in result.journeys)
    used = [id(s.call) for j in result.journeys for s in j.steps]
    assert len(used) == len(set(used))  # no call in two journeys
