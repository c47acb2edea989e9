"""The day of failures (traceroute.sim.failureday): every failed put, and every message left
waiting on a transmission queue, is explained by its event (the one rule of
traceroute.events.explain, as show/follow/analyze apply it)."""

from __future__ import annotations

from functools import cache

from pcf import mqc
from tests.traceroute.events.sim_events import read_events
from traceroute.events.explain import explain_journeys
from traceroute.journeys import JourneyVerdict, reconstruct
from traceroute.journeys.parse import parse_activity_trace
from traceroute.sim.failureday import failure_day

QUEUES = ("SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.CHANNEL.EVENT", "SYSTEM.ADMIN.PERFM.EVENT")


@cache
def _day():
    day = failure_day()
    events = [e for q in day.sim.network.qmgrs for queue in QUEUES
              for e in read_events(day.sim, q, queue)]
    traces = [parse_activity_trace(md, data) for md, data in day.tracer.messages()]
    return day, events, reconstruct(traces).journeys


def test_every_failed_put_is_explained_by_the_event_of_its_reason() -> None:
    _, events, journeys = _day()
    failed = [j for j in journeys if j.verdict == JourneyVerdict.PUT_FAILED]
    reasons = sorted(j.steps[-1].call.reason for j in failed)
    assert set(reasons) >= {2035, 2051, 2053, 2082, 2085, 2087, 2184, 2196, 2197}
    for journey, why in explain_journeys(failed, events):
        reason = journey.steps[-1].call.reason
        assert why, (reason, journey.last_location)
        assert [(w.kind, w.event.reason) for w in why] == [("refused", reason)]  # its one
        assert abs((why[0].event.time - journey.times[-1]).total_seconds()) <= 1


def test_messages_waiting_for_qm4_are_explained_by_their_channel_s_tls_failure() -> None:
    day, events, journeys = _day()
    assert day.sim.depth("QM1", "QM4") == 3
    waiting = [j for j in journeys if j.verdict in (JourneyVerdict.ON_XMITQ,
                                                     JourneyVerdict.IN_TRANSIT)
               and j.last_location.queue == "QM4"]
    assert len(waiting) == 3
    for _journey, why in explain_journeys(waiting, events):
        [channel] = why
        assert channel.event.reason == mqc.MQRC_CHANNEL_STOPPED
        assert "AMQ9641E" in channel.text and "channel stopped retry" in channel.text


def test_the_day_reaches_its_partners_in_the_end() -> None:
    day, _, _ = _day()
    sim = day.sim
    assert sim.depth("QM2", "APP.IN") == 4 and sim.depth("QM3", "APP.IN") == 3
    assert sim.depth("QM2", "DLQ") == 1  # TO.QM2.MISSING, its 2085 there
    assert sim.network.qmgrs["QM3"].channels["QM1.TO.QM3"].source == "CHAD"
    assert sim.channel_status("QM1", "QM1.TO.QM4") == "RETRYING"
