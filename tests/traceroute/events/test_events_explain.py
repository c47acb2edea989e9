"""Events explain where routes stopped: channel stopped, queue full, consumer too slow."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from importlib import resources

from pcf import mqc
from traceroute.display.amqsevt import from_json
from traceroute.events.explain import Place, explain_place, explain_routes
from traceroute.records.parse import parse_message
from traceroute.records.tracemsg import TraceOptions, build_trace_message
from traceroute.routes import Verdict, build_routes
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.events import SimEvents

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()


def _trace(sim: Simulator) -> None:
    opts = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", rq="ACTIV.REPLY.Q")
    md, data = build_trace_message(opts, msg_id=sim.new_msg_id("QM1"))
    assert sim.put("QM1", opts.target_q, md, data).ok
    sim.run()


def test_a_message_waiting_on_its_xmitq_is_explained_by_the_stopped_channel() -> None:
    sim = Simulator(parse_mqsc(EXAMPLE + "\n* Queue manager name: QM1\n"
                               "ALTER QMGR CHLEV(ENABLED)\n"))
    watcher = SimEvents(sim)
    _trace(sim)                                   # the channel starts: Channel Started
    sim.run(until=sim.now + 60)
    sim.stop_channel("QM1", "QM1.TO.QM2")         # Channel Stopped By User
    sim.run(until=sim.now + 60)
    sim.get("QM1", "ACTIV.REPLY.Q")
    sim.get("QM1", "ACTIV.REPLY.Q")
    sim.get("QM1", "ACTIV.REPLY.Q")
    _trace(sim)
    (route,) = build_routes(parse_message(md, d) for md, d in sim.browse("QM1",
                                                                          "ACTIV.REPLY.Q"))
    assert route.verdict is Verdict.WAITING_ON_XMITQ
    ((_, why),) = explain_routes([route], watcher.events)
    assert [w.kind for w in why] == ["channel"]
    assert why[0].event.reason == mqc.MQRC_CHANNEL_STOPPED_BY_USER
    assert "QM1.TO.QM2" in why[0].text and "Channel Stopped By User" in why[0].text
    # restart the channel: its last word is "started", nothing to explain any more
    sim.start_channel("QM1", "QM1.TO.QM2")
    sim.run()
    place = Place("QM1", "QM2", "QM1.TO.QM2", "xmitq", None)
    assert explain_place(place, watcher.events) == []


def _event(reason: int, etype: int, data: dict, when: datetime):
    return from_json({"eventSource": {"objectName": "X", "objectType": "Queue",
                                      "queueMgr": "QM2"},
                      "eventType": {"name": "", "value": etype},
                      "eventReason": {"name": "", "value": reason},
                      "eventCreation": {"timeStamp": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                        "epoch": int(when.timestamp())},
                      "eventData": data})


def test_failed_put_and_slow_consumer_and_time_window() -> None:
    t = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
    full = _event(mqc.MQRC_Q_FULL, 45, {"queueMgrName": "QM2", "baseObjectName": "APP.IN",
                                        "highQueueDepth": 5000}, t)
    slow = _event(mqc.MQRC_Q_SERVICE_INTERVAL_HIGH, 45,
                  {"queueMgrName": "QM2", "baseObjectName": "APP.IN"}, t)
    other_qmgr = _event(mqc.MQRC_Q_FULL, 45, {"queueMgrName": "QM9",
                                              "baseObjectName": "APP.IN"}, t)
    inhibited = _event(mqc.MQRC_PUT_INHIBITED, 44, {"queueMgrName": "QM2",
                                                    "queueName": "APP.IN"}, t)
    events = [full, slow, other_qmgr, inhibited]
    refused = explain_place(Place("QM2", "APP.IN", None, "refused", t + timedelta(minutes=1)),
                            events)
    assert {w.event.reason for w in refused} == {mqc.MQRC_Q_FULL, mqc.MQRC_PUT_INHIBITED}
    assert "Queue Full for APP.IN on QM2" in refused[0].text or \
        "Put Inhibited for APP.IN on QM2" in refused[0].text
    waiting = explain_place(Place("QM2", "APP.IN", None, "on_queue", t), events)
    assert {w.event.reason for w in waiting} == {mqc.MQRC_Q_FULL,
                                                 mqc.MQRC_Q_SERVICE_INTERVAL_HIGH}
    assert all(w.kind == "served" for w in waiting)
    # two hours later the events are too old to explain anything
    later = Place("QM2", "APP.IN", None, "refused", t + timedelta(hours=2))
    assert explain_place(later, events) == []
    assert explain_place(Place("QM2", "APP.IN", None, "", t), events) == []


def test_each_failed_put_is_explained_by_its_own_event_not_the_hour_s() -> None:
    """Three puts to a PUT(DISABLED) queue seconds apart: each 2051 is explained by the Put
    Inhibited event nearest it (not by the two older ones of the other puts); at equal
    distance the one not after it; another reason's events are not its explanation."""
    def inhibited(h, m, s, queue="APP.CLOSED"):
        return _event(mqc.MQRC_PUT_INHIBITED, 44, {"queueMgrName": "QM2", "queueName": queue},
                      datetime(2026, 11, 22, h, m, s, tzinfo=UTC))

    events = [inhibited(17, 35, 15), inhibited(17, 36, 12), inhibited(17, 36, 22),
              inhibited(17, 36, 21, "OTHER.Q"),
              _event(mqc.MQRC_Q_FULL, 45, {"queueMgrName": "QM2",
                                           "baseObjectName": "APP.CLOSED"},
                     datetime(2026, 11, 22, 17, 36, 22, tzinfo=UTC))]
    for h, m, s, want in ((17, 36, 22, (17, 36, 22)), (17, 36, 12, (17, 36, 12)),
                          (17, 35, 15, (17, 35, 15)), (17, 35, 43, (17, 35, 15)),
                          (17, 36, 17, (17, 36, 12)), (17, 40, 0, (17, 36, 22))):
        put = Place("QM2", "APP.CLOSED", None, "refused",
                    datetime(2026, 11, 22, h, m, s, tzinfo=UTC), mqc.MQRC_PUT_INHIBITED)
        (why,) = explain_place(put, events)
        assert why.kind == "refused" and why.event.reason == mqc.MQRC_PUT_INHIBITED
        assert why.event.time == datetime(2026, 11, 22, *want, tzinfo=UTC), (h, m, s)
    # a put whose clock is behind: the event a few seconds after it is the nearest
    behind = Place("QM2", "APP.CLOSED", None, "refused",
                   datetime(2026, 11, 22, 17, 36, 20, tzinfo=UTC), mqc.MQRC_PUT_INHIBITED)
    assert [w.event.time.second for w in explain_place(behind, events)] == [22]


def test_a_message_that_expired_behind_a_stopped_channel_is_explained_by_it() -> None:
    sim = Simulator(parse_mqsc(EXAMPLE + "\n* Queue manager name: QM1\n"
                               "ALTER QMGR CHLEV(ENABLED)\n"))
    watcher = SimEvents(sim)
    _trace(sim)                                   # the channel starts: Channel Started
    for _ in range(3):
        sim.get("QM1", "ACTIV.REPLY.Q")
    sim.run(until=sim.now + 60)
    sim.stop_channel("QM1", "QM1.TO.QM2")         # Channel Stopped By User
    opts = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", rq="ACTIV.REPLY.Q", xs="10",
                                      ro="activity,expiration")
    md, data = build_trace_message(opts, msg_id=sim.new_msg_id("QM1"))
    assert sim.put("QM1", opts.target_q, md, data).ok
    sim.run(until=sim.now + 30)
    sim.start_channel("QM1", "QM1.TO.QM2")        # Channel Started: the MCA finds it expired
    sim.run()
    reports = [(m, d) for m, d in sim.browse("QM1", "ACTIV.REPLY.Q")
               if m.feedback == mqc.MQFB_ACTIVITY]
    (route,) = build_routes(parse_message(m, d) for m, d in reports)
    assert route.verdict is Verdict.EXPIRED
    ((_, why),) = explain_routes([route], watcher.events)
    # the restart came after: the stop the message waited behind explains it (as analyze's
    # route_events join does), not the channel's later Channel Started
    assert [w.kind for w in why] == ["channel"]
    assert why[0].event.reason == mqc.MQRC_CHANNEL_STOPPED_BY_USER
    assert "expired waiting" in why[0].text and "QM1.TO.QM2" in why[0].text


def test_event_messages_are_the_bytes_of_the_reference_encoder() -> None:
    """event_message encodes with pcf.fastencode: the same bytes as pcf.encode, both orders."""
    import pcf
    from traceroute.events.build import event_message

    sim = Simulator(parse_mqsc(EXAMPLE + "\n* Queue manager name: QM1\n"
                               "ALTER QMGR CHLEV(ENABLED)\n"))
    watcher = SimEvents(sim)
    _trace(sim)
    sim.stop_channel("QM1", "QM1.TO.QM2")
    sim.start_channel("QM1", "QM1.TO.QM2")
    sim.run()
    assert len(watcher.events) >= 2
    for event in watcher.events:
        for encoding, ccsid in ((mqc.MQENC_REVERSED, 1208), (mqc.MQENC_NORMAL, 500)):
            _md, data = event_message(event, encoding=encoding, ccsid=ccsid)
            message = pcf.decode(data, encoding=encoding, ccsid=ccsid)
            assert pcf.encode(message) == data
