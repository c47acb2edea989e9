"""The distinct activities of a message (ordering._entries) are those a dict keyed by
(recorded count, whole identity) finds: same entries, counters, input order and final
TraceRoute, whichever activities share their text fields or repeat."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pcf import mqc
from traceroute.records.model import Activity, Operation, TraceRoute
from traceroute.records.parse import REPLY, REPORT, TRACE, Record
from traceroute.routes import ordering

KEY = b"K" * 24


def dict_entries(records: list[Record]) -> tuple[list[tuple], TraceRoute | None]:
    """(activity, counters) of each distinct activity in input order, and the final counters,
    found with the identity hashed whole."""
    found: dict[tuple, list] = {}
    final = None
    for record in records:
        if record.kind != REPORT and record.trace_route is not None:
            final = ordering._later(final, record.trace_route)
        for k, activity in enumerate(record.activities):
            tr = activity.trace_route
            counters = tr.counters if tr is not None else None
            if counters is None and record.kind != REPORT and record.trace_route is not None:
                counters = (k + 1, 0, 0)
            got = found.setdefault((counters and counters[0], ordering._identity(activity)),
                                   [activity, counters])
            if got[1] is None:
                got[1] = counters
            if tr is not None:
                final = ordering._later(final, tr)
    return [tuple(v) for v in found.values()], final


counters = st.one_of(st.none(), st.builds(
    lambda r, u: TraceRoute(recorded_activities=r, unrecorded_activities=u),
    st.integers(1, 3), st.integers(0, 1)))
operation = st.builds(lambda t, qm, time: Operation(t, "2026-11-22", time, qm),
                      st.sampled_from([mqc.MQOPER_PUT, mqc.MQOPER_GET]),
                      st.sampled_from(["QM1", "QM2"]), st.sampled_from(["10:00:00", "10:00:01"]))
activity = st.builds(lambda name, ops, tr: Activity(name, 6, "", tuple(ops), tr),
                     st.sampled_from(["app", "runmqchl"]),
                     st.lists(operation, min_size=0, max_size=2), counters)
record = st.builds(lambda kind, acts, tr: Record(kind, KEY, tuple(acts), tr),
                   st.sampled_from([REPORT, REPORT, REPLY, TRACE]),
                   st.lists(activity, max_size=4), st.one_of(st.none(), counters))


@settings(max_examples=400, deadline=None)
@given(st.lists(record, max_size=6), st.data())
def test_entries_are_those_of_a_dict_of_whole_identities(records, data):
    # repeat some records (as a reply repeats the reports' activities)
    repeats = data.draw(st.lists(st.sampled_from(records), max_size=3) if records else
                        st.just([]))
    records = records + repeats
    entries, final = ordering._entries(records)
    want, want_final = dict_entries(records)
    assert [(e.activity, e.counters) for e in entries] == want
    assert all(a is b for (a, _), (b, _) in zip([(e.activity, 0) for e in entries], want,
                                                strict=True))
    assert [e.order for e in entries] == list(range(len(entries)))
    assert final == want_final
